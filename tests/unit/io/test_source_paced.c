// SPDX-License-Identifier: GPL-2.0-only
/*
 * The paced source over a fake inner source and a simulated clock: exact
 * due times and counts (linear), late starts and the backlog (open loop),
 * the lateness histogram,
 * the drain of closed loop, fio's direction choice with two rates, think
 * time (drain, spin, sleep), the end of the inner stream, and the job
 * options turned into a pace configuration.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <errno.h>
#include <cmocka.h>
#include "iobench/job_setup.h"
#include "iobench/compiler.h"
#include "iobench/source_paced.h"

#define SEC 1000000000ull
#define MS 1000000ull
#define US 1000ull
#define T0 5000000ull

/* Fake inner source: `left` I/Os of 4 KiB, direction `drawn`. */
struct fake {
	struct ib_source src;
	uint64_t left, handed;
	enum ib_ddir drawn;
	bool can_switch;
};

static void fake_fill(struct fake *f, enum ib_ddir d, struct ib_io_desc *out)
{
	memset(out, 0, sizeof(*out));
	out->ddir = d;
	out->len = 4096;
	out->offset = f->handed * 4096;
	f->handed++;
	f->left--;
}

static int fake_next(struct ib_source *s, uint64_t now, struct ib_io_desc *out)
{
	struct fake *f = ib_container_of(s, struct fake, src);

	if (!f->left)
		return IB_SRC_END;
	fake_fill(f, f->drawn, out);
	out->due_ns = now;
	return IB_SRC_READY;
}

static int fake_next_pick(struct ib_source *s, uint64_t now, ib_src_pick_fn pick,
			  void *arg, struct ib_io_desc *out)
{
	struct fake *f = ib_container_of(s, struct fake, src);

	if (!f->left)
		return IB_SRC_END;
	fake_fill(f, pick(arg, f->drawn, f->can_switch), out);
	out->due_ns = now;
	return IB_SRC_READY;
}

static bool fake_more(const struct ib_source *s)
{
	return ib_container_of(s, const struct fake, src)->left != 0;
}

static const struct ib_source_ops fake_ops = { "fake", fake_next, fake_more, NULL };
static const struct ib_source_ops fake_pick_ops = {
	"fake", fake_next, fake_more, fake_next_pick,
};

struct rig {
	struct fake f;
	struct ib_paced ps;
	unsigned int inflight;
	uint64_t done[IB_DDIR_RWT];
};

static void rig_init(struct rig *r, const struct ib_pace_cfg *c, uint64_t n,
		     bool pick)
{
	memset(r, 0, sizeof(*r));
	r->f.src.ops = pick ? &fake_pick_ops : &fake_ops;
	r->f.left = n;
	r->f.drawn = IB_DDIR_READ;
	ib_paced_init(&r->ps, c, &r->f.src, &r->inflight, r->done, T0);
}

static struct ib_source *src(struct rig *r)
{
	return ib_paced_source(&r->ps);
}

static void cfg_iops(struct ib_pace_cfg *c, uint64_t r, uint64_t w)
{
	ib_pace_cfg_defaults(c);
	c->rate_iops[IB_DDIR_READ] = r;
	c->rate_iops[IB_DDIR_WRITE] = w;
	c->late_us = 1000;
}

/* Linear 1000 IOPS: the k-th I/O is due at k ms, NOT_YET until then. */
static void test_linear_exact(void **state)
{
	struct ib_pace_cfg c;
	struct ib_io_desc d;
	struct rig r;
	uint64_t now = T0, n = 0;
	int ret;

	(void)state;
	cfg_iops(&c, 1000, 0);
	rig_init(&r, &c, 1u << 30, false);
	while (now < T0 + SEC) {
		ret = ib_source_next(src(&r), now, &d);
		if (ret == IB_SRC_NOT_YET) {
			assert_int_equal(d.due_ns, T0 + n * MS);
			assert_true(d.due_ns > now);
			now = d.due_ns;
			continue;
		}
		assert_int_equal(ret, IB_SRC_READY);
		assert_int_equal(d.due_ns, T0 + n * MS);
		assert_int_equal(d.offset, n * 4096);
		n++;
	}
	assert_int_equal(n, 1000);
	assert_int_equal(r.ps.pace.dir[IB_DDIR_READ].late, 0);
	assert_int_equal(r.ps.pace.dir[IB_DDIR_READ].late_max_ns, 0);
}

/* Asked 10.5 ms late: every I/O keeps its own due time; late and backlog. */
static void test_open_late(void **state)
{
	struct ib_pace_cfg c;
	struct ib_io_desc d;
	struct rig r;
	uint64_t now = T0 + 10 * MS + 500 * US, k;

	(void)state;
	cfg_iops(&c, 1000, 0);
	rig_init(&r, &c, 100, false);
	for (k = 0; k <= 10; k++) {
		assert_int_equal(ib_source_next(src(&r), now, &d), IB_SRC_READY);
		assert_int_equal(d.due_ns, T0 + k * MS);
	}
	assert_int_equal(ib_source_next(src(&r), now, &d), IB_SRC_NOT_YET);
	assert_int_equal(d.due_ns, T0 + 11 * MS);
	/* late by more than 1 ms: the ones due at 0..9 ms (10.5..1.5 ms late) */
	assert_int_equal(r.ps.pace.dir[IB_DDIR_READ].late, 10);
	assert_int_equal(r.ps.pace.dir[IB_DDIR_READ].late_max_ns, 10 * MS + 500 * US);
	/* late sum: 10.5 + 9.5 + ... + 1.5 ms, plus nothing for the 0.5 ms one */
	assert_int_equal(r.ps.pace.dir[IB_DDIR_READ].late_sum_ns, 60 * MS);
	/* the first one started with 11 due and not started (itself included) */
	assert_int_equal(r.ps.pace.dir[IB_DDIR_READ].backlog_max, 11);
	ib_paced_reset_late(&r.ps);
	assert_int_equal(r.ps.pace.dir[IB_DDIR_READ].late, 0);
	/* the run ends at 20.5 ms: the held one (11 ms) and 12..20 ms */
	assert_int_equal(ib_paced_unstarted(&r.ps, IB_DDIR_READ, T0 + 20 * MS + 500 * US), 10);
	assert_int_equal(ib_paced_unstarted(&r.ps, IB_DDIR_READ, now), 0);
	assert_int_equal(ib_paced_unstarted(&r.ps, IB_DDIR_WRITE, T0 + SEC), 0);
	assert_int_equal(r.ps.pace.dir[IB_DDIR_READ].backlog_max, 0);
}

/*
 * Every handed-out I/O's lateness goes to the histogram of its direction,
 * 0 when on time; no histogram (ib_paced_init's NULL) records nothing.
 */
static void test_late_hist(void **state)
{
	struct ib_hist h;
	struct ib_pace_cfg c;
	struct ib_io_desc d;
	struct rig r;
	uint64_t k, n = 0;

	(void)state;
	memset(&h, 0, sizeof(h));
	cfg_iops(&c, 1000, 0);
	rig_init(&r, &c, 100, false);
	assert_null(r.ps.late_hist[IB_DDIR_READ]);
	r.ps.late_hist[IB_DDIR_READ] = &h;
	/* due at 0, 1, 2 ms: asked at 0 (on time), 1 ms + 700 ns, 2 ms + 15 us */
	assert_int_equal(ib_source_next(src(&r), T0, &d), IB_SRC_READY);
	assert_int_equal(ib_source_next(src(&r), T0 + MS + 700, &d), IB_SRC_READY);
	assert_int_equal(ib_source_next(src(&r), T0 + 2 * MS + 15 * US, &d),
			 IB_SRC_READY);
	/* NOT_YET hands nothing out and records nothing */
	assert_int_equal(ib_source_next(src(&r), T0 + 2 * MS + 20 * US, &d),
			 IB_SRC_NOT_YET);
	for (k = 0; k < IB_HIST_NR; k++)
		n += h.count[k];
	assert_int_equal(n, 3);
	assert_int_equal(h.count[ib_hist_index(0)], 1);
	assert_int_equal(h.count[ib_hist_index(700)], 1);
	assert_int_equal(h.count[ib_hist_index(15 * US)], 1);
	/* the late count keeps its threshold (1 ms): none of them */
	assert_int_equal(r.ps.pace.dir[IB_DDIR_READ].late, 0);
	assert_int_equal(r.ps.pace.dir[IB_DDIR_READ].late_max_ns, 15 * US);
}

/* Closed loop waits for the I/O in flight; open loop does not. */
static void test_closed_drains(void **state)
{
	struct ib_pace_cfg c;
	struct ib_io_desc d;
	struct rig r;

	(void)state;
	cfg_iops(&c, 1000, 0);
	c.mode = IB_PACE_CLOSED;
	rig_init(&r, &c, 100, false);
	assert_int_equal(ib_source_next(src(&r), T0, &d), IB_SRC_READY);
	r.inflight = 1;
	assert_int_equal(ib_source_next(src(&r), T0 + 10, &d), IB_SRC_NOT_YET);
	assert_int_equal(d.due_ns, UINT64_MAX);
	r.inflight = 0;
	assert_int_equal(ib_source_next(src(&r), T0 + 20, &d), IB_SRC_NOT_YET);
	assert_int_equal(d.due_ns, T0 + MS);
	/* due: issued even with I/O in flight */
	r.inflight = 3;
	assert_int_equal(ib_source_next(src(&r), T0 + MS, &d), IB_SRC_READY);
	assert_int_equal(d.due_ns, T0 + MS);

	c.mode = IB_PACE_OPEN;
	rig_init(&r, &c, 100, false);
	assert_int_equal(ib_source_next(src(&r), T0, &d), IB_SRC_READY);
	r.inflight = 1;
	assert_int_equal(ib_source_next(src(&r), T0 + 10, &d), IB_SRC_NOT_YET);
	assert_int_equal(d.due_ns, T0 + MS);
}

/* fio's choice: read drawn but not due, write due: write; then not yet. */
static void test_pick_directions(void **state)
{
	struct ib_pace_cfg c;
	struct ib_io_desc d;
	struct rig r;
	uint64_t now = T0, n[2] = { 0, 0 };
	int ret;

	(void)state;
	cfg_iops(&c, 1000, 250);
	rig_init(&r, &c, 1u << 30, true);
	r.f.can_switch = true;
	assert_int_equal(ib_source_next(src(&r), T0, &d), IB_SRC_READY);
	assert_int_equal(d.ddir, IB_DDIR_READ);
	assert_int_equal(ib_source_next(src(&r), T0, &d), IB_SRC_READY);
	assert_int_equal(d.ddir, IB_DDIR_WRITE);
	assert_int_equal(ib_source_next(src(&r), T0, &d), IB_SRC_NOT_YET);
	assert_int_equal(d.due_ns, T0 + MS);
	/* over 2 s each direction gets exactly its own rate */
	rig_init(&r, &c, 1u << 30, true);
	r.f.can_switch = true;
	while (now < T0 + 2 * SEC) {
		ret = ib_source_next(src(&r), now, &d);
		if (ret == IB_SRC_NOT_YET) {
			now = d.due_ns;
			continue;
		}
		n[d.ddir]++;
	}
	assert_int_equal(n[IB_DDIR_READ], 2000);
	assert_int_equal(n[IB_DDIR_WRITE], 500);
	/* no switching allowed: the drawn direction waits for its time */
	rig_init(&r, &c, 10, true);
	assert_int_equal(ib_source_next(src(&r), T0, &d), IB_SRC_READY);
	assert_int_equal(ib_source_next(src(&r), T0, &d), IB_SRC_NOT_YET);
	assert_int_equal(d.due_ns, T0 + MS);
}

/* thinktime=100us (20 us spin) every 2 blocks issued: drain, spin, sleep. */
static void test_think(void **state)
{
	struct ib_pace_cfg c;
	struct ib_io_desc d;
	struct rig r;
	uint64_t t = T0 + 7 * US;

	(void)state;
	ib_pace_cfg_defaults(&c);
	c.thinktime_us = 100;
	c.thinktime_spin_us = 20;
	c.thinktime_blocks = 2;
	c.thinktime_blocks_type = IB_THINK_ISSUE;
	rig_init(&r, &c, 100, false);
	assert_int_equal(ib_source_next(src(&r), T0, &d), IB_SRC_READY);
	assert_int_equal(ib_source_next(src(&r), T0, &d), IB_SRC_READY);
	r.inflight = 2;
	assert_int_equal(ib_source_next(src(&r), T0 + US, &d), IB_SRC_NOT_YET);
	assert_int_equal(d.due_ns, UINT64_MAX);	/* drain first */
	r.inflight = 0;
	assert_int_equal(ib_source_next(src(&r), t, &d), IB_SRC_NOT_YET);
	assert_int_equal(d.due_ns, t);		/* spinning: ask again */
	assert_int_equal(ib_source_next(src(&r), t + 19 * US, &d), IB_SRC_NOT_YET);
	assert_int_equal(d.due_ns, t + 19 * US);
	assert_int_equal(ib_source_next(src(&r), t + 20 * US, &d), IB_SRC_NOT_YET);
	assert_int_equal(d.due_ns, t + 100 * US);	/* sleeping */
	assert_int_equal(ib_source_next(src(&r), t + 100 * US, &d), IB_SRC_READY);
	assert_int_equal(ib_source_next(src(&r), t + 100 * US, &d), IB_SRC_READY);
	assert_int_equal(r.ps.issued, 4);
	assert_true(r.ps.think_pending);
}

/* The inner END passes through; more() says whether an I/O is held. */
static void test_end(void **state)
{
	struct ib_pace_cfg c;
	struct ib_io_desc d;
	struct rig r;

	(void)state;
	cfg_iops(&c, 1000, 0);
	rig_init(&r, &c, 2, false);
	assert_true(ib_source_more(src(&r)));
	assert_int_equal(ib_source_next(src(&r), T0, &d), IB_SRC_READY);
	assert_int_equal(ib_source_next(src(&r), T0, &d), IB_SRC_NOT_YET);
	assert_true(ib_source_more(src(&r)));	/* held, inner empty */
	assert_int_equal(ib_source_next(src(&r), T0 + MS, &d), IB_SRC_READY);
	assert_false(ib_source_more(src(&r)));
	assert_int_equal(ib_source_next(src(&r), T0 + MS, &d), IB_SRC_END);
	assert_int_equal(ib_source_next(src(&r), T0 + 2 * MS, &d), IB_SRC_END);
}

/* Job options to a pace configuration, and fio's checks. */
static void test_from_job(void **state)
{
	struct ib_pace_cfg c;
	struct ib_diag dg;
	struct ib_job j;

	(void)state;
	ib_job_defaults(&j);
	assert_false(ib_job_paced(&j));
	assert_false(ib_job_rated(&j));
	j.rate.iops[IB_DDIR_WRITE] = 300;
	j.rate.process = 1;
	j.rate.mode = 1;
	j.rate.thinktime_us = 10;
	assert_true(ib_job_paced(&j));
	assert_true(ib_job_rated(&j));
	assert_false(ib_job_has_rate_min(&j));
	ib_pace_cfg_from_job(&c, &j);
	assert_int_equal(c.rate_iops[IB_DDIR_WRITE], 300);
	assert_int_equal(c.rate_iops[IB_DDIR_READ], 0);
	assert_int_equal(c.process, IB_PACE_POISSON);
	assert_int_equal(c.mode, IB_PACE_CLOSED);
	assert_int_equal(c.rate_cycle_ms, 1000);
	assert_int_equal(c.late_us, 1000);
	assert_int_equal(c.thinktime_blocks, 1);
	assert_int_equal(ib_job_pace_check(&j, &dg), 0);
	j.rate.bps[IB_DDIR_READ] = 1000;
	assert_int_equal(ib_job_pace_check(&j, &dg), -EINVAL);
	assert_string_equal(dg.msg, "rate and rate_iops are mutually exclusive");
	j.rate.bps[IB_DDIR_READ] = 0;
	j.rate.min_iops[IB_DDIR_WRITE] = 301;
	assert_true(ib_job_has_rate_min(&j));
	assert_int_equal(ib_job_pace_check(&j, &dg), -EINVAL);
	assert_string_equal(dg.msg, "minimum rate exceeds rate, ddir 1");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_linear_exact),
		cmocka_unit_test(test_open_late),
		cmocka_unit_test(test_late_hist),
		cmocka_unit_test(test_closed_drains),
		cmocka_unit_test(test_pick_directions),
		cmocka_unit_test(test_think),
		cmocka_unit_test(test_end),
		cmocka_unit_test(test_from_job),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
