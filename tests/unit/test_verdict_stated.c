/*
 * The measured erase block against the one the device states: equal,
 * a whole multiple (an eMMC's erase group), different, or nothing to
 * compare when -a named no erase block.
 */
#include "unit.h"
#include "verdicts/verdict_stated.h"

static struct va_verdict found(uint64_t e)
{
	struct va_verdict v = { .erase_state = VA_FOUND, .erase = e };

	return v;
}

int main(void)
{
	struct va_verdict v = found(4 << 20);

	CHECK(vst_judge(&v, 4 << 20) == VST_AGREES);
	CHECK(vst_judge(&v, 512 << 10) == VST_MULTIPLE);
	CHECK(vst_judge(&v, 8 << 20) == VST_DIFFERS);
	CHECK(vst_judge(&v, 3 << 20) == VST_DIFFERS);
	/* a 3 x 2^n block: 12 MiB holds three 4 MiB AUs, 6 MiB does not hold a whole number */
	v = found(12 << 20);
	CHECK(vst_judge(&v, 4 << 20) == VST_MULTIPLE);
	v = found(6 << 20);
	CHECK(vst_judge(&v, 4 << 20) == VST_DIFFERS);
	v.erase_state = VA_UNCERTAIN;
	CHECK(vst_judge(&v, 4 << 20) == VST_UNJUDGED);
	v = found(4 << 20);
	v.no_pattern = true;
	CHECK(vst_judge(&v, 4 << 20) == VST_UNJUDGED);
	v = found(4 << 20);
	CHECK(vst_judge(&v, 0) == VST_UNJUDGED);
	UNIT_DONE();
}
