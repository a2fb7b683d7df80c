/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_CLOCK_H
#define IOBENCH_CLOCK_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>
#if defined(__x86_64__)
#include <x86intrin.h>
#endif

/* CLOCK_MONOTONIC in nanoseconds (vDSO; no syscall). */
static inline uint64_t ib_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/*
 * The per-I/O clock. Every latency is a difference of two readings of it, in
 * CLOCK_MONOTONIC nanoseconds. On x86-64 with an invariant TSC (constant_tsc
 * and nonstop_tsc) a reading is one rdtsc converted with a multiplier
 * calibrated against CLOCK_MONOTONIC before the jobs start: 19 ns instead of
 * 45 ns for clock_gettime on a 2-vCPU AMD EPYC VM (doc/performance.md),
 * a third of the worker's cost per I/O at queue depth 1. The result stays in
 * CLOCK_MONOTONIC's time base (base_ns + scaled TSC delta), so readings
 * compare with ib_now_ns() across processes; the calibration error is below
 * 1e-5, far below the histogram's 0.78% bucket error. Without an invariant
 * TSC it is clock_gettime itself; ib_clock_init(c, false) forces that
 * (tests use it: fio's clocksource= option is refused, and the runner always
 * asks for TSC).
 */
struct ib_clock {
	bool tsc;
	uint64_t base_tsc;
	uint64_t base_ns;
	uint64_t mult;		/* ns per tick, << IB_CLOCK_SHIFT */
};

#define IB_CLOCK_SHIFT 32

/* Calibrate (about 5 ms the first time); use_tsc=false forces clock_gettime. */
void ib_clock_init(struct ib_clock *c, bool use_tsc);

static inline uint64_t ib_clock_ns(const struct ib_clock *c)
{
#if defined(__x86_64__)
	if (c->tsc) {
		uint64_t d = __rdtsc() - c->base_tsc;

		return c->base_ns +
		       (uint64_t)(((unsigned __int128)d * c->mult) >> IB_CLOCK_SHIFT);
	}
#endif
	return ib_now_ns();
}

#endif
