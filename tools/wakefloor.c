// SPDX-License-Identifier: GPL-2.0-only
/*
 * wakefloor: how late this machine wakes a task that sleeps until a due
 * time, with nothing else in the way: the floor under any scheduler that
 * sleeps between I/Os (iobench's without rate_spin, fio's rate_iops).
 *
 *   wakefloor RATE SECONDS SPIN_US TARGET_US
 *
 * Due times every 1/RATE s from a start one period ahead; before each, the
 * same wait as iobench's loop: timer slack 1 ns, nanosleep until SPIN_US
 * before the due time, then poll the clock until it. Lateness is the clock
 * reading after the wait minus the due time (0 when on time). Prints one
 * JSON object: started, late_ios (later than TARGET_US), p50/p99/p99.9 and
 * max in ns (exact order statistics, not histogram buckets).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <time.h>

static uint64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static void wait_until(uint64_t due, uint64_t spin)
{
	uint64_t now = now_ns();
	struct timespec ts;

	while (now + spin < due) {
		ts.tv_sec = (time_t)((due - spin - now) / 1000000000u);
		ts.tv_nsec = (long)((due - spin - now) % 1000000000u);
		nanosleep(&ts, NULL);
		now = now_ns();
	}
	while (now < due)
		now = now_ns();
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static uint64_t at(const uint64_t *v, size_t n, double pct)
{
	size_t i = (size_t)(pct / 100.0 * (double)n);

	return v[i < n ? i : n - 1];
}

int main(int argc, char **argv)
{
	uint64_t period, spin, target, t0, *late, nlate = 0;
	double rate, secs;
	size_t n;

	if (argc != 5 || (rate = atof(argv[1])) <= 0 ||
	    (secs = atof(argv[2])) <= 0) {
		fprintf(stderr, "usage: wakefloor RATE SECONDS SPIN_US TARGET_US\n");
		return 2;
	}
	spin = strtoull(argv[3], NULL, 10) * 1000u;
	target = strtoull(argv[4], NULL, 10) * 1000u;
	period = (uint64_t)(1e9 / rate);
	n = (size_t)(rate * secs);
	if (!n || !(late = malloc(n * sizeof(*late)))) {
		fprintf(stderr, "wakefloor: %zu samples: out of memory\n", n);
		return 1;
	}
	prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
	t0 = now_ns() + period;
	for (size_t i = 0; i < n; i++) {
		uint64_t due = t0 + i * period, t;

		wait_until(due, spin);
		t = now_ns();
		late[i] = t > due ? t - due : 0;
		nlate += late[i] > target;
	}
	qsort(late, n, sizeof(*late), cmp_u64);
	printf("{\"started\": %zu, \"late_ios\": %llu, \"p50\": %llu, "
	       "\"p99\": %llu, \"p99.9\": %llu, \"max_ns\": %llu}\n", n,
	       (unsigned long long)nlate,
	       (unsigned long long)at(late, n, 50),
	       (unsigned long long)at(late, n, 99),
	       (unsigned long long)at(late, n, 99.9),
	       (unsigned long long)late[n - 1]);
	free(late);
	return 0;
}
