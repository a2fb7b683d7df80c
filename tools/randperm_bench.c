// SPDX-License-Identifier: GPL-2.0-only
/*
 * randperm_bench: nanoseconds per random offset, the keyed permutation
 * (randperm.h) against today's generator driven through ib_iogen_next
 * (taus88 + the bitmap random map, and norandommap as the cost of the rest
 * of ib_iogen_next), at the same number of 4 KiB blocks.
 *
 *   randperm_bench [MAX_OFFSETS [REPS]]
 *
 * For each N in 2^20, 2^30, 10^9+7, each generator runs the first
 * min(N, MAX_OFFSETS) offsets of a pass (default 2^24) REPS times (default
 * 5, a fresh generator each time) and the fastest run is reported, the
 * others being taken as noise from other processes; time is this thread's
 * CPU time (user + system, so the map's page faults count), which leaves
 * out the time other processes hold the CPU. The map's cost grows
 * as it fills, so a prefix of a pass flatters it; MAX_OFFSETS >= N gives
 * whole passes. Not installed, not run by the tests.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "iobench/job_setup.h"
#include "iobench/iogen.h"
#include "iobench/randperm.h"

#define BENCH_BS 4096

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void bench_perm(uint64_t n, uint64_t count, unsigned int reps)
{
	struct ib_randperm p;
	uint64_t i, sink = 0, t0, best = UINT64_MAX;
	unsigned int r;

	for (r = 0; r < reps; r++) {
		if (ib_randperm_init(&p, n, 0x12345678u)) {
			fprintf(stderr, "randperm_init(%llu) failed\n",
				(unsigned long long)n);
			exit(1);
		}
		t0 = now_ns();
		for (i = 0; i < count; i++)
			sink ^= ib_randperm_next(&p);
		t0 = now_ns() - t0;
		best = t0 < best ? t0 : best;
	}
	printf("N=%-11llu randperm     %11llu offsets %7.2f ns/offset  walk mean %.4f max %llu  state %zu B  (%llx)\n",
	       (unsigned long long)n, (unsigned long long)count,
	       (double)best / (double)count, (double)p.walks / (double)count,
	       (unsigned long long)p.longest, sizeof(p), (unsigned long long)sink);
}

static void bench_rand_below(uint64_t n, uint64_t count, unsigned int reps)
{
	struct ib_rand r;
	uint64_t i, sink = 0, t0, best = UINT64_MAX;
	unsigned int k;

	for (k = 0; k < reps; k++) {
		ib_rand_seed(&r, 0x12345678u);
		t0 = now_ns();
		for (i = 0; i < count; i++)
			sink ^= ib_rand_below(&r, n);
		t0 = now_ns() - t0;
		best = t0 < best ? t0 : best;
	}
	printf("N=%-11llu rand_below   %11llu offsets %7.2f ns/offset  (%llx)\n",
	       (unsigned long long)n, (unsigned long long)count,
	       (double)best / (double)count, (unsigned long long)sink);
}

static void iogen_start(struct ib_iogen *g, struct ib_job *job,
			struct ib_file *file, uint64_t n, bool norandommap)
{
	struct ib_diag d;
	unsigned int i;

	memset(file, 0, sizeof(*file));
	memset(&d, 0, sizeof(d));
	ib_job_defaults(job);
	job->rw = IB_RW_READ | IB_RW_RAND;
	job->number = 1;
	job->size = n * BENCH_BS;
	job->norandommap = norandommap;
	for (i = 0; i < IB_DDIR_RWT; i++)
		job->bs.min[i] = job->bs.max[i] = BENCH_BS;
	file->io_size = n * BENCH_BS;
	if (ib_iogen_init(g, job, file, 1, &d)) {
		fprintf(stderr, "iogen_init N=%llu failed\n", (unsigned long long)n);
		exit(1);
	}
}

static void bench_iogen(uint64_t n, uint64_t count, unsigned int reps,
			bool norandommap)
{
	struct ib_job job;
	struct ib_file file;
	struct ib_iogen g;
	struct ib_io_desc io;
	uint64_t i = 0, sink = 0, t0, best = UINT64_MAX, mem;
	unsigned int r;

	for (r = 0; r < reps; r++) {
		iogen_start(&g, &job, &file, n, norandommap);
		t0 = now_ns();
		for (i = 0; i < count && ib_iogen_next(&g, &io); i++)
			sink ^= io.offset;
		t0 = now_ns() - t0;
		best = t0 < best ? t0 : best;
		ib_iogen_free(&g);
	}
	mem = norandommap ? 0 : ((n + 63) / 64 + (n + 4095) / 4096) * 8;
	printf("N=%-11llu %-12s %11llu offsets %7.2f ns/offset  map %llu B  (%llx)\n",
	       (unsigned long long)n, norandommap ? "iogen-nomap" : "iogen-map",
	       (unsigned long long)i, (double)best / (double)i,
	       (unsigned long long)mem, (unsigned long long)sink);
}

int main(int argc, char **argv)
{
	static const uint64_t sizes[] = { 1ull << 20, 1ull << 30, 1000000007ull };
	uint64_t max = 1ull << 24, count;
	unsigned int k, reps = 5;

	if (argc > 1)
		max = strtoull(argv[1], NULL, 0);
	if (argc > 2)
		reps = (unsigned int)strtoul(argv[2], NULL, 0);
	if (!max || !reps) {
		fprintf(stderr, "usage: randperm_bench [MAX_OFFSETS [REPS]]\n");
		return 2;
	}
	for (k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		count = sizes[k] < max ? sizes[k] : max;
		bench_perm(sizes[k], count, reps);
		bench_rand_below(sizes[k], count, reps);
		bench_iogen(sizes[k], count, reps, true);
		bench_iogen(sizes[k], count, reps, false);
	}
	return 0;
}
