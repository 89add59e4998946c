/*
 * Does the erase block -a measured agree with the one the device states
 * (an SD card's AU from its SD status, an eMMC's erase group, sim:'s
 * stated-erase=)? A pure judgement over the align verdict and the
 * stated size; printed only where the device states one.
 */
#ifndef FB_VERDICT_STATED_H
#define FB_VERDICT_STATED_H

#include <stdint.h>

#include "verdicts/verdict_align.h"

enum vst_result {
	VST_AGREES,	/* the measured erase block is the stated size */
	VST_MULTIPLE,	/* it is a whole multiple of it (an eMMC's erase group) */
	VST_DIFFERS,	/* neither */
	VST_UNJUDGED,	/* -a named no erase block to compare */
};

enum vst_result vst_judge(const struct va_verdict *v, uint64_t stated);

/* The verdict record "stated_erase": its result, the stated size, and the source fact. */
void vst_print(const struct va_verdict *v, uint64_t stated, const char *fact);

#endif
