/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_CLOCK_H
#define IOBENCH_CLOCK_H

#include <stdint.h>
#include <time.h>

/* CLOCK_MONOTONIC in nanoseconds (vDSO; no syscall). */
static inline uint64_t ib_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

#endif
