// SPDX-License-Identifier: GPL-2.0-only
/*
 * An LD_PRELOAD library for test_checks_env.py: it gives iobench, on
 * purpose, the environment three validity checks judge, without touching
 * the machine (its clock, its cpufreq settings) and without a hook in
 * iobench itself. Each part is off unless its variable is set:
 *
 *   IBTEST_CLOCK_SPIN_NS=N     every clock_gettime() spins N ns first: a
 *                              slow clock (clock-cost; with
 *                              clocksource=clock_gettime, not the TSC)
 *   IBTEST_CLOCK_JUMP_S=S and  the first pread() at file offset O moves
 *   IBTEST_CLOCK_JUMP_OFFSET=O CLOCK_MONOTONIC S seconds ahead in that
 *                              process: that read took S s (hist-range)
 *   IBTEST_CPUFREQ_DIR=D       /sys/devices/system/cpu/cpufreq/... is read
 *                              from D/... (governor)
 */
#undef _FILE_OFFSET_BITS	/* pread and pread64 are two symbols here */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#define CPUFREQ "/sys/devices/system/cpu/cpufreq"

typedef int (*clock_fn)(clockid_t, struct timespec *);
typedef ssize_t (*pread_fn)(int, void *, size_t, off_t);
typedef ssize_t (*pread64_fn)(int, void *, size_t, off64_t);
typedef FILE *(*fopen_fn)(const char *, const char *);
typedef DIR *(*opendir_fn)(const char *);

static uint64_t jump_ns;	/* added to CLOCK_MONOTONIC readings */
static int jumped;

static void *next(const char *name)
{
	return dlsym(RTLD_NEXT, name);
}

static uint64_t env_u64(const char *name)
{
	const char *v = getenv(name);

	return v ? strtoull(v, NULL, 10) : 0;
}

static uint64_t ns_of(const struct timespec *ts)
{
	return (uint64_t)ts->tv_sec * 1000000000ull + (uint64_t)ts->tv_nsec;
}

/*
 * The variable is read once: a getenv() per call scans the environment,
 * which with CI's variables made an unslowed reading cost about 100 ns,
 * the clock-cost check's own threshold (the 'no jump' case fired once).
 */
int clock_gettime(clockid_t id, struct timespec *ts)
{
	static clock_fn real;
	static uint64_t spin;
	uint64_t t0;
	struct timespec now;
	int ret;

	if (!real) {
		spin = env_u64("IBTEST_CLOCK_SPIN_NS");
		real = (clock_fn)next("clock_gettime");
	}
	if (spin) {
		real(CLOCK_MONOTONIC, &now);
		t0 = ns_of(&now);
		do
			real(CLOCK_MONOTONIC, &now);
		while (ns_of(&now) - t0 < spin);
	}
	ret = real(id, ts);
	if (!ret && jump_ns && (id == CLOCK_MONOTONIC || id == CLOCK_MONOTONIC_RAW)) {
		uint64_t v = ns_of(ts) + jump_ns;

		ts->tv_sec = (time_t)(v / 1000000000ull);
		ts->tv_nsec = (long)(v % 1000000000ull);
	}
	return ret;
}

static void maybe_jump(long long off)
{
	const char *at = getenv("IBTEST_CLOCK_JUMP_OFFSET");

	if (jumped || !at || strtoll(at, NULL, 10) != off)
		return;
	jumped = 1;
	jump_ns = env_u64("IBTEST_CLOCK_JUMP_S") * 1000000000ull;
}

ssize_t pread(int fd, void *buf, size_t n, off_t off)
{
	static pread_fn real;

	if (!real)
		real = (pread_fn)next("pread");
	maybe_jump((long long)off);
	return real(fd, buf, n, off);
}

ssize_t pread64(int fd, void *buf, size_t n, off64_t off)
{
	static pread64_fn real;

	if (!real)
		real = (pread64_fn)next("pread64");
	maybe_jump((long long)off);
	return real(fd, buf, n, off);
}

/* CPUFREQ/rest -> $IBTEST_CPUFREQ_DIR/rest; anything else as it is. */
static const char *redirect(const char *path, char *buf, size_t len)
{
	const char *dir = getenv("IBTEST_CPUFREQ_DIR");

	if (!dir || !path || strncmp(path, CPUFREQ, strlen(CPUFREQ)))
		return path;
	snprintf(buf, len, "%s%s", dir, path + strlen(CPUFREQ));
	return buf;
}

FILE *fopen(const char *path, const char *mode)
{
	static fopen_fn real;
	char buf[4096];

	if (!real)
		real = (fopen_fn)next("fopen");
	return real(redirect(path, buf, sizeof(buf)), mode);
}

FILE *fopen64(const char *path, const char *mode)
{
	static fopen_fn real;
	char buf[4096];

	if (!real)
		real = (fopen_fn)next("fopen64");
	return real(redirect(path, buf, sizeof(buf)), mode);
}

DIR *opendir(const char *path)
{
	static opendir_fn real;
	char buf[4096];

	if (!real)
		real = (opendir_fn)next("opendir");
	return real(redirect(path, buf, sizeof(buf)));
}
