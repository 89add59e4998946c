/* Integer arithmetic on sizes that several layers need. */
#ifndef FB_ARITH_H
#define FB_ARITH_H

#include <stdint.h>

/* The greatest common divisor (gcd_u64(a, 0) == a). */
static inline uint64_t gcd_u64(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

#endif
