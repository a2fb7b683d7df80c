// SPDX-License-Identifier: GPL-2.0-only
/*
 * fio-compatible number formatter (doc/fio-compat.md §1.3): at most `maxlen`
 * significant digits, scaled by 1000 or 1024 with an SI or IEC prefix.
 */
#include <stdio.h>
#include <string.h>
#include "iobench/num2str.h"

static const char *const pre_iec[] = { "", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei" };
static const char *const pre_si[] = { "", "k", "M", "G", "T", "P", "E" };
#define NR_PRE 7u

static unsigned int ndigits(uint64_t v)
{
	unsigned int n = 1;

	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

/*
 * val is in units of `base` (1 = plain units; 1000 or 1024 = already one
 * prefix up). A unit starting with "bit" means val counts bytes: it is
 * multiplied by 8 first.
 */
char *ib_num2str(uint64_t val, unsigned int maxlen, unsigned int base,
		 bool pow2, const char *unit, char *buf, size_t len)
{
	const char *const *pre = pow2 ? pre_iec : pre_si;
	unsigned int k = pow2 ? 1024 : 1000, post = 0, dec;
	uint64_t rem = 0;
	bool divided = false;
	char frac[32];

	if (!unit)
		unit = "";
	while (base > 1 && post < NR_PRE - 1) {
		base /= k;
		post++;
	}
	if (strncmp(unit, "bit", 3) == 0)
		val *= 8;
	if (maxlen == 0)
		maxlen = 1;
	while (ndigits(val) > maxlen && post < NR_PRE - 1) {
		rem = val % k;
		val /= k;
		post++;
		divided = true;
	}
	if (!divided) {
		snprintf(buf, len, "%llu%s%s", (unsigned long long)val, pre[post], unit);
		return buf;
	}
	dec = ndigits(val) + 1 < maxlen ? maxlen - ndigits(val) - 1 : 0;
	if (dec == 0) {
		if (rem >= k / 2)
			val++;
		snprintf(buf, len, "%llu%s%s", (unsigned long long)val, pre[post], unit);
		return buf;
	}
	snprintf(frac, sizeof(frac), "%.*f", (int)dec, (double)rem / (double)k);
	if (frac[0] == '1')
		val++;
	snprintf(buf, len, "%llu.%s%s%s", (unsigned long long)val, frac + 2,
		 pre[post], unit);
	return buf;
}
