// SPDX-License-Identifier: GPL-2.0-only
/*
 * Adaptive batching (loop_batch.c) on a loop struct of its own, the clock
 * and the completion counts driven by hand: when it is on, the slices'
 * alternation (order swapped at each probe), the 2% margin the one-per-call
 * way must beat, the costlier way kept only when it won every pair of
 * slices and a probe ended by the first pair it did not win, the fixed
 * values each way sets, the probe period doubling to its cap, and the
 * winners counted in the job's statistics; on an engine with
 * IB_ENGINE_SPIN, the spin's probe after each batching probe.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "src/io/loop_priv.h"

#define SLICE 20000000ull

struct bfix {
	struct ib_loop l;
	struct ib_job job;
	struct ib_engine_ops ops;
	struct ib_job_stats st;
};

static void fix_on(struct bfix *f, unsigned int depth)
{
	memset(f, 0, sizeof(*f));
	f->job.iodepth = depth;
	f->job.iodepth_batch_submit = depth;
	f->job.iodepth_batch_complete_max = depth;
	f->job.defaults = IB_DEFAULTS_IOBENCH;
	f->l.c.job = &f->job;
	f->l.c.ops = &f->ops;
	f->l.c.st = &f->st;
	ib_loop_batch_init(&f->l);
}

/* n slices of a probe from now, each completing per[way] I/Os, the way
 * (the batching's mode, or with spin the spin) checked against first ^
 * slice; returns the time after them. */
static uint64_t slices_n(struct bfix *f, uint64_t now, const uint64_t per[2],
			 unsigned int first, bool spin, unsigned int n)
{
	for (unsigned int s = 0; s < n; s++) {
		unsigned int w = spin ? f->l.batch.spin : f->l.batch.mode;

		assert_int_equal(w, (s & 1) ^ first);
		f->l.cum_ios[IB_DDIR_READ] += per[w];
		ib_loop_batch_tick(&f->l, now + SLICE - 1);	/* not yet */
		now += SLICE;
		ib_loop_batch_tick(&f->l, now);
	}
	return now;
}

/* A whole probe's slices: all of them when way 1 completes more in each
 * pair, else the first pair, whose loss by way 1 ends the probe. */
static uint64_t slices(struct bfix *f, uint64_t now, const uint64_t per[2],
		       unsigned int first, bool spin)
{
	return slices_n(f, now, per, first, spin,
			per[1] > per[0] ? IB_BATCH_SLICES : 2);
}

/* One batching probe from now (checks each slice's mode). */
static uint64_t probe(struct bfix *f, uint64_t now, const uint64_t per[2],
		      unsigned int first)
{
	ib_loop_batch_tick(&f->l, now);		/* settled: a probe starts */
	now = slices(f, now, per, first, false);
	/* settled, or (an IB_ENGINE_SPIN engine) the spin's probe begun */
	assert_int_equal(f->l.batch.slice, f->l.batch.dim ? 0 : IB_BATCH_SLICES);
	return now;
}

static void off_when_asked_or_sync(void **state)
{
	struct bfix f;

	(void)state;
	fix_on(&f, 32);
	assert_true(f.l.batch.on);
	assert_true(f.st.batch_adaptive);
	f.job.batch_submit_given = true;
	ib_loop_batch_init(&f.l);
	assert_false(f.l.batch.on);
	fix_on(&f, 32);
	f.job.batch_complete_max_given = true;
	ib_loop_batch_init(&f.l);
	assert_false(f.l.batch.on);
	fix_on(&f, 32);
	f.job.defaults = IB_DEFAULTS_FIO;
	ib_loop_batch_init(&f.l);
	assert_false(f.l.batch.on);
	fix_on(&f, 1);
	assert_false(f.l.batch.on);
	fix_on(&f, 32);
	f.ops.flags = IB_ENGINE_SYNC;
	ib_loop_batch_init(&f.l);
	assert_false(f.l.batch.on);
	assert_false(f.st.batch_adaptive);
	/* off: the job's values, and a tick changes nothing */
	assert_int_equal(f.l.batch.submit, 32);
	assert_int_equal(f.l.batch.complete_max, 32);
	ib_loop_batch_tick(&f.l, 5 * SLICE);
	assert_int_equal(f.l.batch.slice, IB_BATCH_SLICES);
}

static void keeps_the_faster_way(void **state)
{
	const uint64_t one_wins[2] = { 1000, 1021 }, tie[2] = { 1000, 1020 };
	const uint64_t all_wins[2] = { 1100, 1000 };	/* one pair ends it */
	struct bfix f;
	uint64_t t;

	(void)state;
	fix_on(&f, 32);
	assert_int_equal(f.l.batch.submit, 32);
	t = probe(&f, 1000, one_wins, 0);	/* 3063 > 3000 * 1.02 */
	assert_int_equal(f.l.batch.mode, IB_BATCH_ONE);
	assert_int_equal(f.l.batch.submit, 1);
	assert_int_equal(f.l.batch.complete_max, 1);
	assert_int_equal(f.st.batch_won[IB_BATCH_ONE], 1);
	/* the next probe after 0.5 s, the first slice the other way first */
	ib_loop_batch_tick(&f.l, t + 500000000ull - 1);
	assert_int_equal(f.l.batch.slice, IB_BATCH_SLICES);
	t = probe(&f, t + 500000000ull, tie, 1);	/* 3060: not more than 2% */
	assert_int_equal(f.l.batch.mode, IB_BATCH_ALL);
	assert_int_equal(f.l.batch.submit, 32);
	assert_int_equal(f.l.batch.complete_max, 32);
	assert_int_equal(f.st.batch_won[IB_BATCH_ALL], 1);
	/* then 1 s, 2, 4, 8, 8 */
	t = probe(&f, t + 1000000000ull, all_wins, 0);
	t = probe(&f, t + 2000000000ull, all_wins, 1);
	t = probe(&f, t + 4000000000ull, all_wins, 0);
	t = probe(&f, t + 8000000000ull, all_wins, 1);
	assert_int_equal(f.l.batch.period_ns, 8000000000ull);
	assert_int_equal(f.l.batch.next_ns, t + 8000000000ull);
	assert_int_equal(f.st.batch_won[IB_BATCH_ALL], 5);
	assert_int_equal(f.st.batch_won[IB_BATCH_ONE], 1);
}

/* The spin's probe, right after a batching probe (checks each slice's
 * spin); settled after it. */
static uint64_t spin_probe(struct bfix *f, uint64_t now, const uint64_t per[2],
			   unsigned int first)
{
	assert_int_equal(f->l.batch.dim, 1);
	now = slices(f, now, per, first, true);
	assert_int_equal(f->l.batch.dim, 0);
	assert_int_equal(f->l.batch.slice, IB_BATCH_SLICES);
	return now;
}

static void spin_probed_on_spin_engines(void **state)
{
	const uint64_t all_wins[2] = { 1100, 1000 };	/* one pair ends it */
	const uint64_t spin_wins[2] = { 1000, 1021 }, tie[2] = { 1000, 1020 };
	struct bfix f;
	uint64_t t;

	(void)state;
	/* not an IB_ENGINE_SPIN engine: no spin probe, never a spin */
	fix_on(&f, 32);
	t = probe(&f, 1000, all_wins, 0);
	assert_int_equal(f.l.batch.dim, 0);
	assert_false(f.l.batch.spin);
	assert_int_equal(f.l.batch.next_ns, t + 500000000ull);
	assert_int_equal(f.st.batch_spin_won[0] + f.st.batch_spin_won[1], 0);

	fix_on(&f, 32);
	f.ops.flags = IB_ENGINE_SPIN;
	ib_loop_batch_init(&f.l);
	assert_false(f.l.batch.spin);
	t = probe(&f, 1000, all_wins, 0);
	/* the batching chosen and kept while the spin is probed */
	assert_int_equal(f.l.batch.mode, IB_BATCH_ALL);
	t = spin_probe(&f, t, spin_wins, 0);	/* 3063 > 3000 * 1.02 */
	assert_true(f.l.batch.spin);
	assert_int_equal(f.l.batch.mode, IB_BATCH_ALL);
	assert_int_equal(f.st.batch_spin_won[1], 1);
	/* settled until the next probe, 0.5 s after the spin's */
	assert_int_equal(f.l.batch.next_ns, t + 500000000ull);
	ib_loop_batch_tick(&f.l, t + 500000000ull - 1);
	assert_int_equal(f.l.batch.slice, IB_BATCH_SLICES);
	assert_true(f.l.batch.spin);
	t = probe(&f, t + 500000000ull, all_wins, 1);
	t = spin_probe(&f, t, tie, 1);		/* 3060: not more than 2% */
	assert_false(f.l.batch.spin);
	assert_int_equal(f.st.batch_spin_won[0], 1);
	assert_int_equal(f.st.batch_spin_won[1], 1);
	assert_int_equal(f.st.batch_won[IB_BATCH_ALL], 2);
	assert_int_equal(f.l.batch.next_ns, t + 1000000000ull);
}

/* A pair of slices that way 1 (one I/O per call, the spin) did not win
 * ends the probe: it can no longer be kept, and its other slices would
 * only cost. A lead of way 1 never ends it early. */
static void lost_pair_ends_the_probe(void **state)
{
	const uint64_t all_far[2] = { 1201, 1000 }, level[2] = { 1000, 1000 };
	const uint64_t one_far[2] = { 1000, 2000 };
	struct bfix f;
	uint64_t t;

	(void)state;
	fix_on(&f, 32);
	ib_loop_batch_tick(&f.l, 1000);
	t = slices_n(&f, 1000, all_far, 0, false, 2);
	assert_int_equal(f.l.batch.slice, IB_BATCH_SLICES);
	assert_int_equal(f.l.batch.mode, IB_BATCH_ALL);
	assert_int_equal(f.st.batch_won[IB_BATCH_ALL], 1);
	assert_int_equal(f.l.batch.next_ns, t + 500000000ull);
	/* a level pair is not won either */
	ib_loop_batch_tick(&f.l, t + 500000000ull);
	t = slices_n(&f, t + 500000000ull, level, 1, false, 2);
	assert_int_equal(f.l.batch.slice, IB_BATCH_SLICES);
	assert_int_equal(f.st.batch_won[IB_BATCH_ALL], 2);
	/* one I/O per call 100% ahead: to the end, and kept */
	t = probe(&f, t + 1000000000ull, one_far, 0);
	assert_int_equal(f.l.batch.mode, IB_BATCH_ONE);
	assert_int_equal(f.st.batch_won[IB_BATCH_ONE], 1);
	/* way 1 first; it wins the first pair, loses the second: ended there */
	ib_loop_batch_tick(&f.l, t + 2000000000ull);
	t = slices_n(&f, t + 2000000000ull, one_far, 1, false, 2);
	assert_int_equal(f.l.batch.slice, 2);
	f.l.cum_ios[IB_DDIR_READ] += 1000;		/* way 1 */
	ib_loop_batch_tick(&f.l, t + SLICE);
	f.l.cum_ios[IB_DDIR_READ] += 1001;		/* way 0 */
	ib_loop_batch_tick(&f.l, t + 2 * SLICE);
	assert_int_equal(f.l.batch.slice, IB_BATCH_SLICES);
	assert_int_equal(f.l.batch.mode, IB_BATCH_ALL);
	assert_int_equal(f.st.batch_won[IB_BATCH_ALL], 3);

	/* an IB_ENGINE_SPIN engine: a batching probe ended by its first
	 * pair, then the spin's probe at once, ended the same way */
	fix_on(&f, 32);
	f.ops.flags = IB_ENGINE_SPIN;
	ib_loop_batch_init(&f.l);
	ib_loop_batch_tick(&f.l, 1000);
	t = slices_n(&f, 1000, level, 0, false, 2);
	assert_int_equal(f.l.batch.mode, IB_BATCH_ALL);
	assert_int_equal(f.l.batch.dim, 1);
	assert_int_equal(f.l.batch.slice, 0);
	t = slices_n(&f, t, level, 0, true, 2);
	assert_false(f.l.batch.spin);
	assert_int_equal(f.l.batch.dim, 0);
	assert_int_equal(f.st.batch_spin_won[0], 1);
	assert_int_equal(f.l.batch.next_ns, t + 500000000ull);
}

/* n slices from now, slice s completing per[s] I/Os (whichever its way). */
static uint64_t slices_seq(struct bfix *f, uint64_t now, const uint64_t *per,
			   unsigned int n)
{
	for (unsigned int s = 0; s < n; s++) {
		f->l.cum_ios[IB_DDIR_READ] += per[s];
		now += SLICE;
		ib_loop_batch_tick(&f->l, now);
	}
	return now;
}

/* The costlier way (one I/O per call, the spin) is kept only when it
 * completed more in every pair of slices, as well as 2% more in all: a
 * lead in the sum that one pair contradicts is the slices' noise (a job
 * that shares its CPU with others: the CPU it got, not its way). */
static void every_pair_must_agree(void **state)
{
	/* way 0 first: slices of ways 0,1,0,1,0,1; 3600 against 3100, 16%
	 * more, but the third pair went the other way */
	const uint64_t pair_lost[6] = { 1000, 1300, 1000, 1300, 1100, 1000 };
	/* way 1 first: 3% more in each pair */
	const uint64_t every_pair[6] = { 1030, 1000, 1030, 1000, 1030, 1000 };
	struct bfix f;
	uint64_t t;

	(void)state;
	fix_on(&f, 32);
	f.ops.flags = IB_ENGINE_SPIN;
	ib_loop_batch_init(&f.l);
	ib_loop_batch_tick(&f.l, 1000);
	t = slices_seq(&f, 1000, pair_lost, IB_BATCH_SLICES);
	assert_int_equal(f.l.batch.mode, IB_BATCH_ALL);
	assert_int_equal(f.st.batch_won[IB_BATCH_ALL], 1);
	assert_int_equal(f.l.batch.dim, 1);	/* the spin's probe begun */
	t = slices_seq(&f, t, pair_lost, IB_BATCH_SLICES);
	assert_false(f.l.batch.spin);
	assert_int_equal(f.st.batch_spin_won[0], 1);
	/* the next probes, each way 1 first */
	ib_loop_batch_tick(&f.l, t + 500000000ull);
	assert_int_equal(f.l.batch.mode, IB_BATCH_ONE);
	t = slices_seq(&f, t + 500000000ull, every_pair, IB_BATCH_SLICES);
	assert_int_equal(f.l.batch.mode, IB_BATCH_ONE);
	assert_int_equal(f.st.batch_won[IB_BATCH_ONE], 1);
	assert_true(f.l.batch.spin);
	t = slices_seq(&f, t, every_pair, IB_BATCH_SLICES);
	assert_true(f.l.batch.spin);
	assert_int_equal(f.st.batch_spin_won[1], 1);
	assert_int_equal(f.l.batch.next_ns, t + 1000000000ull);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(off_when_asked_or_sync),
		cmocka_unit_test(keeps_the_faster_way),
		cmocka_unit_test(spin_probed_on_spin_engines),
		cmocka_unit_test(lost_pair_ends_the_probe),
		cmocka_unit_test(every_pair_must_agree),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
