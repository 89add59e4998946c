/*
 * The measured erase block against the one the device states. A stated
 * size is the device's own claim, not a measurement: an SD card's AU is
 * what the SD Association asks file systems to align to and is usually
 * the erase block, but an eMMC states its erase group, which is often a
 * fraction of the block a garbage collection copies -- so a measured
 * block that is a whole multiple of it is reported as such, not as a
 * disagreement.
 */
#include "core/out.h"
#include "core/units.h"
#include "verdicts/verdict_stated.h"

enum vst_result vst_judge(const struct va_verdict *v, uint64_t stated)
{
	if (v->no_pattern || v->erase_state != VA_FOUND || v->erase == 0 || stated == 0)
		return VST_UNJUDGED;
	if (v->erase == stated)
		return VST_AGREES;
	if (v->erase > stated && v->erase % stated == 0)
		return VST_MULTIPLE;
	return VST_DIFFERS;
}

void vst_print(const struct va_verdict *v, uint64_t stated, const char *fact)
{
	static const char *const results[] = { "agrees", "multiple", "differs", "unjudged" };
	enum vst_result r = vst_judge(v, stated);
	struct out_verdict e = { .name = "stated_erase", .result = results[r], .has_value = true,
				 .value = stated, .unit = "bytes" };
	char s[FB_FMT_LEN], m[FB_FMT_LEN];

	fmt_size(s, sizeof(s), stated);
	if (r != VST_UNJUDGED)
		fmt_size(m, sizeof(m), v->erase);
	switch (r) {
	case VST_AGREES:
		out_verdict(&e, "the device states an erase block of %s (%s): the measurement agrees",
			    s, fact);
		break;
	case VST_MULTIPLE:
		out_verdict(&e, "the device states an erase block of %s (%s): the measured %s is "
			    "%llu of them", s, fact, m, (unsigned long long)(v->erase / stated));
		break;
	case VST_DIFFERS:
		out_verdict(&e, "the device states an erase block of %s (%s): the measured %s "
			    "differs", s, fact, m);
		break;
	case VST_UNJUDGED:
		out_verdict(&e, "the device states an erase block of %s (%s): the measurement "
			    "named none to compare", s, fact);
		break;
	}
}
