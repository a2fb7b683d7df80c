// SPDX-License-Identifier: GPL-2.0-only
/*
 * Pacing: due times, direction choice, lateness, think time and the
 * rate_min check. Contracts and the fio semantics are in pace.h.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "iobench/num2str.h"
#include "iobench/pace.h"

#define NS_PER_SEC 1000000000ull
#define NS_PER_MS 1000000ull
#define NS_PER_US 1000ull
#define BACKLOG_CAP (1ull << 20)

void ib_pace_cfg_defaults(struct ib_pace_cfg *c)
{
	memset(c, 0, sizeof(*c));
	c->process = IB_PACE_LINEAR;
	c->mode = IB_PACE_OPEN;
	c->rate_cycle_ms = 1000;
	c->thinktime_blocks = 1;
	c->thinktime_blocks_type = IB_THINK_COMPLETE;
}

static uint64_t sum3(const uint64_t v[IB_DDIR_RWT])
{
	return v[0] + v[1] + v[2];
}

int ib_pace_cfg_check(const struct ib_pace_cfg *c, struct ib_diag *d)
{
	unsigned int i;

	if ((sum3(c->rate) && sum3(c->rate_iops)) ||
	    (sum3(c->rate_min) && sum3(c->rate_iops_min)))
		return ib_diag_set(d, -EINVAL,
				   "rate and rate_iops are mutually exclusive");
	for (i = 0; i < IB_DDIR_RWT; i++) {
		if ((c->rate[i] && c->rate[i] < c->rate_min[i]) ||
		    (c->rate_iops[i] && c->rate_iops[i] < c->rate_iops_min[i]))
			return ib_diag_set(d, -EINVAL,
					   "minimum rate exceeds rate, ddir %u", i);
	}
	return 0;
}

bool ib_pace_active(const struct ib_pace_cfg *c)
{
	return sum3(c->rate) || sum3(c->rate_iops) || sum3(c->rate_min) ||
	       sum3(c->rate_iops_min) || c->thinktime_us;
}

static void dir_init(struct ib_pace_dir *pd, const struct ib_pace_cfg *c,
		     unsigned int i, uint64_t start_ns)
{
	memset(pd, 0, sizeof(*pd));
	pd->by_ios = c->rate_iops[i] != 0;
	pd->rate = pd->by_ios ? c->rate_iops[i] : c->rate[i];
	pd->due = start_ns;
	if (pd->rate) {
		pd->step_ns = NS_PER_SEC / pd->rate;
		pd->step_rem = NS_PER_SEC % pd->rate;
	}
	ib_rand_seed(&pd->rng, c->seed + i);
}

void ib_pace_init(struct ib_pace *p, const struct ib_pace_cfg *c, uint64_t start_ns)
{
	unsigned int i;

	memset(p, 0, sizeof(*p));
	p->cfg = *c;
	if (p->cfg.thinktime_spin_us > p->cfg.thinktime_us)
		p->cfg.thinktime_spin_us = p->cfg.thinktime_us;
	p->start_ns = start_ns;
	p->think_ns = start_ns;
	for (i = 0; i < IB_DDIR_RWT; i++)
		dir_init(&p->dir[i], &p->cfg, i, start_ns);
}

/* -ln(U), U uniform in (0, 1] with 53 bits: an Exp(1) draw. */
static double exp1(struct ib_rand *r)
{
	uint64_t u = (ib_rand64(r) >> 11) + 1;

	return -log((double)u * 0x1p-53);
}

/* Mean Poisson gap in ns for an I/O of len bytes. */
static double poisson_mean(const struct ib_pace_dir *pd, uint64_t len)
{
	if (pd->by_ios)
		return (double)NS_PER_SEC / (double)pd->rate;
	return (double)len * (double)NS_PER_SEC / (double)pd->rate;
}

/* Whole ns of a Poisson gap, the fraction carried in *frac. */
static uint64_t poisson_gap(struct ib_rand *r, double *frac, double mean)
{
	double g = exp1(r) * mean + *frac;
	double whole = floor(g);

	*frac = g - whole;
	return (uint64_t)whole;
}

/*
 * Linear: the invariant units * 1e9 == (due - start) * rate + rem, with
 * 0 <= rem < rate, makes the k-th due time exactly floor(k * 1e9 / rate)
 * after the start (plus any think-time shift): no drift, no rounding.
 */
static uint64_t linear_gap(struct ib_pace_dir *pd, uint64_t len)
{
	unsigned __int128 num;
	uint64_t gap;

	if (pd->by_ios) {
		gap = pd->step_ns;
		pd->rem += pd->step_rem;
		if (pd->rem >= pd->rate) {
			pd->rem -= pd->rate;
			gap++;
		}
		return gap;
	}
	num = (unsigned __int128)len * NS_PER_SEC + pd->rem;
	pd->rem = (uint64_t)(num % pd->rate);
	return (uint64_t)(num / pd->rate);
}

uint64_t ib_pace_next_due(struct ib_pace *p, enum ib_ddir ddir, uint64_t len,
			  uint64_t now)
{
	struct ib_pace_dir *pd;
	uint64_t due;

	if (!ib_pace_rated(p, ddir))
		return now;
	pd = &p->dir[ddir];
	due = pd->due;
	if (p->cfg.process == IB_PACE_POISSON)
		pd->last_gap = poisson_gap(&pd->rng, &pd->frac,
					   poisson_mean(pd, len));
	else
		pd->last_gap = linear_gap(pd, len);
	pd->due += pd->last_gap;
	pd->last_len = len;
	pd->ios++;
	pd->bytes += len;
	return due;
}

uint64_t ib_pace_peek(const struct ib_pace *p, enum ib_ddir ddir, uint64_t now)
{
	return ib_pace_rated(p, ddir) ? p->dir[ddir].due : now;
}

enum ib_ddir ib_pace_pick(const struct ib_pace *p, enum ib_ddir want,
			  bool can_switch, uint64_t now)
{
	enum ib_ddir other;
	uint64_t due_want = ib_pace_peek(p, want, now);
	uint64_t due_other;

	if (due_want <= now || want > IB_DDIR_WRITE || !can_switch)
		return want;
	other = want == IB_DDIR_READ ? IB_DDIR_WRITE : IB_DDIR_READ;
	due_other = ib_pace_peek(p, other, now);
	if (due_other <= now || due_other < due_want)
		return other;
	return want;
}

uint64_t ib_pace_lag_ns(const struct ib_pace *p, enum ib_ddir ddir, uint64_t now)
{
	uint64_t due = ib_pace_peek(p, ddir, now);

	return now > due ? now - due : 0;
}

/* Poisson arrivals in [due, now] drawn on a copy of the stream. */
static uint64_t poisson_backlog(const struct ib_pace_dir *pd, uint64_t now)
{
	struct ib_rand r = pd->rng;
	double frac = pd->frac;
	double mean = poisson_mean(pd, pd->last_len);
	uint64_t t = pd->due, n = 0;

	while (t <= now && n < BACKLOG_CAP) {
		n++;
		t += poisson_gap(&r, &frac, mean);
	}
	return n;
}

/*
 * Linear: the j-th I/O after the next one is due at due + floor((rem + j * u)
 * / rate), u = 1e9 (rate_iops) or len * 1e9 (rate in bytes), so the ones due
 * by now are the j < ((now - due + 1) * rate - rem) / u, rounded up.
 */
uint64_t ib_pace_backlog(const struct ib_pace *p, enum ib_ddir ddir, uint64_t now)
{
	const struct ib_pace_dir *pd;
	unsigned __int128 num, unit;

	if (!ib_pace_rated(p, ddir) || now < p->dir[ddir].due)
		return 0;
	pd = &p->dir[ddir];
	if (!pd->by_ios && !pd->last_len)
		return 1;	/* no size known yet: the first I/O is due */
	if (p->cfg.process == IB_PACE_POISSON)
		return poisson_backlog(pd, now);
	unit = (unsigned __int128)(pd->by_ios ? 1 : pd->last_len) * NS_PER_SEC;
	num = (unsigned __int128)(now - pd->due + 1) * pd->rate - pd->rem;
	return (uint64_t)((num + unit - 1) / unit);
}

void ib_pace_started(struct ib_pace *p, enum ib_ddir ddir, uint64_t due_ns,
		     uint64_t start_ns)
{
	struct ib_pace_dir *pd;
	uint64_t late;

	if (ddir >= IB_DDIR_RWT || start_ns <= due_ns)
		return;
	pd = &p->dir[ddir];
	late = start_ns - due_ns;
	if (late > pd->late_max_ns)
		pd->late_max_ns = late;
	if (late > p->cfg.late_us * NS_PER_US) {
		pd->late++;
		pd->late_sum_ns += late;
	}
}

void ib_pace_note_backlog(struct ib_pace *p, enum ib_ddir ddir, uint64_t depth)
{
	if (ddir < IB_DDIR_RWT && depth > p->dir[ddir].backlog_max)
		p->dir[ddir].backlog_max = depth;
}

/* fio's trigger: thinktime_iotime elapsed, or thinktime_blocks counted. */
static bool think_due(const struct ib_pace *p, uint64_t blocks, uint64_t now)
{
	const struct ib_pace_cfg *c = &p->cfg;

	if (c->thinktime_iotime_us) {
		if (now - p->think_ns >= c->thinktime_iotime_us * NS_PER_US)
			return true;
		if (!c->thinktime_blocks_set)
			return false;
	}
	return blocks >= p->think_blocks + c->thinktime_blocks;
}

bool ib_pace_think(struct ib_pace *p, uint64_t issued, uint64_t completed,
		   uint64_t now, uint64_t left_ns, struct ib_think_plan *plan)
{
	const struct ib_pace_cfg *c = &p->cfg;
	uint64_t blocks = c->thinktime_blocks_type == IB_THINK_ISSUE ? issued :
								       completed;
	uint64_t spin, sleep;

	if (!c->thinktime_us || !think_due(p, blocks, now))
		return false;
	p->think_blocks = blocks;
	spin = c->thinktime_spin_us * NS_PER_US;
	if (spin > left_ns)
		spin = left_ns;
	sleep = c->thinktime_us * NS_PER_US - spin;
	if (sleep > left_ns - spin)
		sleep = left_ns - spin;
	plan->spin_ns = spin;
	plan->sleep_ns = sleep;
	return true;
}

/* Move a direction's schedule on by a stall of total ns (fio's catch-up skip). */
static void think_shift(struct ib_pace_dir *pd, enum ib_pace_process proc,
			uint64_t total)
{
	if (proc == IB_PACE_LINEAR && total >= pd->last_gap)
		pd->due += total - pd->last_gap;
	else
		pd->due += total;
}

void ib_pace_think_done(struct ib_pace *p, uint64_t total_ns, uint64_t now)
{
	unsigned int i;

	if (p->cfg.thinktime_iotime_us)
		p->think_ns = now;
	if (!p->cfg.ignore_thinktime || !total_ns)
		return;
	for (i = 0; i < IB_DDIR_RWT; i++)
		if (p->dir[i].rate)
			think_shift(&p->dir[i], p->cfg.process, total_ns);
}

/* One direction's rate_min check (fio's __check_min_rate). */
static int check_min_dir(struct ib_pace *p, unsigned int i, uint64_t now,
			 uint64_t bytes, uint64_t ios, const char *name,
			 struct ib_diag *d)
{
	struct ib_pace_dir *pd = &p->dir[i];
	const struct ib_pace_cfg *c = &p->cfg;
	uint64_t spent, got;

	if ((now - p->start_ns) / NS_PER_MS < IB_PACE_MIN_SETTLE_MS)
		return 0;
	if (pd->min_bytes || pd->min_ios) {
		spent = (now - pd->min_ns) / NS_PER_MS;
		if (spent < c->rate_cycle_ms || spent == 0)
			return 0;
		if (c->rate_min[i]) {
			got = (bytes - pd->min_bytes) * 1000 / spent;
			if (got < c->rate_min[i])
				return ib_diag_set(d, -EIO,
					"%s: rate_min=%lluB/s not met, got %lluB/s",
					name, (unsigned long long)c->rate_min[i],
					(unsigned long long)got);
		} else {
			got = (ios - pd->min_ios) * 1000 / spent;
			if (got < c->rate_iops_min[i])
				return ib_diag_set(d, -EIO,
					"%s: rate_iops_min=%llu not met, got %llu IOPS",
					name, (unsigned long long)c->rate_iops_min[i],
					(unsigned long long)got);
		}
	}
	pd->min_bytes = bytes;
	pd->min_ios = ios;
	pd->min_ns = now;
	return 0;
}

int ib_pace_check_min(struct ib_pace *p, uint64_t now,
		      const uint64_t bytes[IB_DDIR_RWT],
		      const uint64_t ios[IB_DDIR_RWT], const char *job_name,
		      struct ib_diag *d)
{
	unsigned int i;
	int ret;

	for (i = 0; i < IB_DDIR_RWT; i++) {
		if (!bytes[i] || (!p->cfg.rate_min[i] && !p->cfg.rate_iops_min[i]))
			continue;
		ret = check_min_dir(p, i, now, bytes[i], ios[i], job_name, d);
		if (ret)
			return ret;
	}
	return 0;
}

void ib_pace_rates_add(struct ib_pace_rates *s, const struct ib_pace_cfg *c,
		       unsigned int dirs)
{
	unsigned int i;

	for (i = 0; i < IB_DDIR_RWT; i++) {
		if (!(dirs & (1u << i)))
			continue;
		s->min_bps += c->rate_min[i];
		s->max_bps += c->rate[i];
		s->min_iops += c->rate_iops_min[i];
		s->max_iops += c->rate_iops[i];
	}
}

size_t ib_pace_rates_str(const struct ib_pace_rates *s, char *buf, size_t len)
{
	char lo[32], hi[32];
	int n = 0;

	if (s->min_bps || s->max_bps)
		n = snprintf(buf, len, ", %s-%s",
			     ib_num2str(s->min_bps, 4, 1, true, "B/s", lo, sizeof(lo)),
			     ib_num2str(s->max_bps, 4, 1, true, "B/s", hi, sizeof(hi)));
	else if (s->min_iops || s->max_iops)
		n = snprintf(buf, len, ", %llu-%llu IOPS",
			     (unsigned long long)s->min_iops,
			     (unsigned long long)s->max_iops);
	else if (len)
		buf[0] = 0;
	return n < 0 ? 0 : (size_t)n;
}
