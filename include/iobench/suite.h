/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_SUITE_H
#define IOBENCH_SUITE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "iobench/diag.h"

/*
 * `iobench suite NAME TARGET`: named sets of tests, each suite one table
 * (front/suite_table.c), turned into a fio job file (suite_jobs.c) that
 * runs through the same parser, plan and runner as any job file, so the
 * printed file (--print-jobs) is exactly what runs and plain fio can
 * replay it. A suite lists its tests or gives a matrix (block sizes x
 * read percentages); every test is one job section with stonewall and
 * group_reporting: one result entry per test.
 *
 * A metric names what a test is judged by (--expect), what a PTS suite
 * tracks round to round, and what its matrix table shows.
 */
enum ib_suite_metric { IB_SM_NONE = 0, IB_SM_IOPS, IB_SM_BW, IB_SM_LAT };

enum ib_suite_kind {
	IB_SUITE_PLAIN = 0,	/* the tests once, in order */
	IB_SUITE_PTS,		/* purge, precondition, rounds to steady state */
};

struct ib_suite_test {
	const char *name;	/* the job section */
	const char *rw;		/* fio's rw= */
	unsigned int mixread;	/* rwmixread= (randrw, rw only) */
	const char *bs;
	unsigned int iodepth, numjobs;
	enum ib_suite_metric judge;	/* --expect applies (and sizes it) */
	const char *row, *col;	/* the matrix table's cell (NULL: none) */
};

struct ib_suite {
	const char *name;
	const char *what;	/* one line for --list */
	enum ib_suite_kind kind;
	const struct ib_suite_test *tests;	/* explicit tests, or NULL: */
	unsigned int nr_tests;
	/* the matrix: pattern "rand"/"seq" x bs_list x mix_list (% reads) */
	const char *pattern;
	const char *const *bs_list;
	unsigned int nr_bs;
	const unsigned int *mix_list;
	unsigned int nr_mix;
	unsigned int iodepth, numjobs;		/* the matrix's */
	/* defaults, overridden by --size, --runtime, --ramp, --pause */
	uint64_t size, runtime_us, ramp_us, pause_us;
	enum ib_suite_metric table;	/* the matrix table's metric */
	const char *track;		/* PTS: the tracking test */
	enum ib_suite_metric track_metric;
};

extern const struct ib_suite ib_suites[];
extern const unsigned int ib_nr_suites;

/* The suite named name, or NULL. */
const struct ib_suite *ib_suite_find(const char *name);

#define IB_SUITE_MAX_TESTS 64
#define IB_SUITE_MAX_EXTRA 32
#define IB_SUITE_NAME 48

/* A test as it runs: the table's row after the matrix, sizing and overrides. */
struct ib_suite_item {
	char name[IB_SUITE_NAME];
	char rw[16];
	unsigned int mixread;
	char bs[16];
	uint64_t bs_bytes;
	unsigned int iodepth, numjobs;
	enum ib_suite_metric judge;
	char row[32], col[16];
	bool writes;
};

/* --expect iops=N,bw=SIZE/s,lat=TIME (each optional, 0: not given). */
struct ib_suite_expect {
	double iops;
	double bw;		/* bytes/s */
	uint64_t lat_ns;	/* a QD1 test's p99 at most this */
};

struct ib_suite_opts {
	const char *target;
	uint64_t size, io_size, capacity;	/* 0: not given */
	uint64_t runtime_us, ramp_us, pause_us;	/* the suite's unless *_set */
	bool runtime_set, ramp_set, pause_set;
	unsigned int iodepth, numjobs;	/* 0: the table's (or the sizing's) */
	struct ib_suite_expect expect;
	bool readonly;			/* only the tests that do not write */
	uint64_t min_bs;	/* leave out tests of smaller blocks (the
				 * target's logical block size; 0: none) */
	const char *extra[IB_SUITE_MAX_EXTRA];	/* "key=value": [global] */
	unsigned int nr_extra;
	const char *only;	/* "TEST,TEST": only these (NULL: all) */
	const char *set[IB_SUITE_MAX_EXTRA];	/* "TEST:key=value" */
	unsigned int nr_set;
};

/* The suite's defaults into o (target and lists untouched). */
void ib_suite_opts_defaults(const struct ib_suite *s, struct ib_suite_opts *o);

/*
 * Parse "iops=N,bw=SIZE/s,lat=TIME" into e. 0 or -EINVAL naming the item.
 */
int ib_suite_parse_expect(const char *v, struct ib_suite_expect *e,
			  struct ib_diag *d);

/*
 * The tests of s as they run with o, in order (read-only tests first, as
 * the table lists them; without the writing ones under o->readonly), into
 * it[0..max), without those of blocks below o->min_bs, only those of
 * o->only when given. Sizing by the expectation: a test judged by IOPS (or
 * bandwidth) gets the depth that keeps twice the outstanding I/Os the
 * expected rate needs at the expected latency (1 ms when not given),
 * rounded up to a power of two, at most IB_SUITE_MAX_DEPTH in all, up to
 * 64 per job and the rest in jobs. Returns the number of tests or -errno
 * (a --set or --only naming no test of the suite: -EINVAL, d says so).
 */
#define IB_SUITE_MAX_DEPTH 1024
#define IB_SUITE_LAT_NS 1000000ull
int ib_suite_items(const struct ib_suite *s, const struct ib_suite_opts *o,
		   struct ib_suite_item *it, unsigned int max, struct ib_diag *d);

/* The depth in all (iodepth x numjobs) sizing asks for, 0: no sizing. */
unsigned int ib_suite_depth_for(const struct ib_suite_expect *e,
				enum ib_suite_metric judge, uint64_t bs_bytes);

/*
 * The fio job file of the run: [global] (the target, engine, O_DIRECT,
 * group_reporting, sizes and times, o's extra options last), then
 * (precond, PTS suites) the workload-independent preconditioning section,
 * then (tests) one section per item. Returns 0 or -EIO (f's error flag).
 */
int ib_suite_jobtext(FILE *f, const struct ib_suite *s,
		     const struct ib_suite_opts *o, const struct ib_suite_item *it,
		     unsigned int n, bool precond, bool tests);

#endif
