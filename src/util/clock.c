// SPDX-License-Identifier: GPL-2.0-only
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "iobench/clock.h"

#define CALIBRATE_NS 5000000ull

/* Both CPU flags, read from /proc/cpuinfo: no flag, no TSC clock. */
static bool tsc_invariant(void)
{
	char line[4096];
	bool constant = false, nonstop = false;
	FILE *f = fopen("/proc/cpuinfo", "r");

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "flags", 5))
			continue;
		constant = strstr(line, " constant_tsc") != NULL;
		nonstop = strstr(line, " nonstop_tsc") != NULL;
		break;
	}
	fclose(f);
	return constant && nonstop;
}

#if defined(__x86_64__)
/* A (tsc, ns) pair taken as close together as the machine allows. */
static void pair(uint64_t *tsc, uint64_t *ns)
{
	uint64_t best = UINT64_MAX, t0, t1, n;
	int i;

	*tsc = *ns = 0; /* always set below (best starts above any gap) */
	for (i = 0; i < 5; i++) {
		t0 = __rdtsc();
		n = ib_now_ns();
		t1 = __rdtsc();
		if (t1 - t0 < best) {
			best = t1 - t0;
			*tsc = t0 + (t1 - t0) / 2;
			*ns = n;
		}
	}
}
#endif

void ib_clock_init(struct ib_clock *c, bool use_tsc)
{
	memset(c, 0, sizeof(*c));
#if defined(__x86_64__)
	uint64_t tsc0, ns0, tsc1, ns1;

	if (!use_tsc || !tsc_invariant())
		return;
	pair(&tsc0, &ns0);
	do {
		usleep(1000);
		pair(&tsc1, &ns1);
	} while (ns1 - ns0 < CALIBRATE_NS);
	if (tsc1 <= tsc0)
		return;
	c->mult = (uint64_t)(((unsigned __int128)(ns1 - ns0) << IB_CLOCK_SHIFT) /
			     (tsc1 - tsc0));
	c->base_tsc = tsc1;
	c->base_ns = ns1;
	c->tsc = c->mult != 0;
#else
	(void)use_tsc;
#endif
}
