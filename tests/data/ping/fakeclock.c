// SPDX-License-Identifier: GPL-2.0-only
/*
 * LD_PRELOAD shim used only to capture the golden outputs in this folder
 * from the real ioping 1.3 (see capture.sh): it makes ioping's clock
 * scripted, so two runs with the same arguments (one human, one -J) report
 * the very same latencies, and sleeps return at once.
 *
 * CLOCK_MONOTONIC: call 0 starts at 1000 s; every odd call advances by
 * IBFC_GAP ns (default 1000), every even call k >= 2 by the next value of
 * the comma list IBFC_LAT (ns, cycled). With -e (no random seeding from the
 * clock) ioping reads the clock once at start and then once before and once
 * after each request, so request i takes IBFC_LAT[i - 1] ns.
 * nanosleep advances the clock by the time asked. CLOCK_REALTIME is
 * IBFC_EPOCH (default 1700000000) s + the monotonic time since the start.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <time.h>

static long long mono = 1000000000000ll;
static long long start = 1000000000000ll;
static unsigned long calls;

static long long nth_lat(unsigned long n)
{
	const char *s = getenv("IBFC_LAT");
	unsigned long cnt = 1, i;
	const char *p;

	if (!s || !*s)
		return 1000;
	for (p = s; *p; p++)
		cnt += *p == ',';
	n %= cnt;
	for (i = 0, p = s; i < n; i++)
		p = strchr(p, ',') + 1;
	return atoll(p);
}

static long long envll(const char *name, long long def)
{
	const char *s = getenv(name);

	return s && *s ? atoll(s) : def;
}

static void put(struct timespec *ts, long long ns)
{
	ts->tv_sec = ns / 1000000000ll;
	ts->tv_nsec = ns % 1000000000ll;
}

int clock_gettime(clockid_t clk, struct timespec *ts)
{
	if (clk == CLOCK_REALTIME) {
		put(ts, envll("IBFC_EPOCH", 1700000000) * 1000000000ll + mono - start);
		return 0;
	}
	if (calls > 0)
		mono += calls % 2 ? envll("IBFC_GAP", 1000) : nth_lat(calls / 2 - 1);
	calls++;
	put(ts, mono);
	return 0;
}

int nanosleep(const struct timespec *req, struct timespec *rem)
{
	(void)rem;
	mono += req->tv_sec * 1000000000ll + req->tv_nsec;
	return 0;
}
