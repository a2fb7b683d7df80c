// SPDX-License-Identifier: GPL-2.0-only
/*
 * One job description, made ready and checked: ib_job_fixup() applies fio's
 * option fix-ups (derived defaults), ib_job_validate() refuses what cannot
 * run, with one line naming the option. Both look at the job alone, never
 * at its targets (the runner checks those, runner.h). Called by plan.c for
 * every front end.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "iobench/bssplit.h"
#include "iobench/engine.h"
#include "iobench/job.h"
#include "iobench/job_setup.h"
#include "iobench/randdist.h"
#include "iobench/source_paced.h"
#include "iobench/options.h"
#include "iobench/steadystate.h"

static unsigned int depth_default(unsigned int v, unsigned int iodepth)
{
	return v == 0 || v > iodepth ? iodepth : v;
}

/* Fields are PATH_MAX and names IB_NAME_MAX, so the name always fits. */
static int fix_log_name(struct ib_job *j, const char **field)
{
	if (strcmp(*field, IB_LOG_JOBNAME))
		return 0;
	return ib_job_set_str(j, field, "%s", j->name);
}

/* bssplit= sets the block size bounds; it and dedupe imply refills (fio). */
static void fix_data(struct ib_job *j)
{
	unsigned int i;

	for (i = 0; i < IB_DDIR_RWT; i++) {
		if (!j->bssplit[i].nr)
			continue;
		j->bs.min[i] = ib_bssplit_min(&j->bssplit[i]);
		j->bs.max[i] = ib_bssplit_max(&j->bssplit[i]);
	}
	if (j->compress_pct || j->dedupe_pct)
		j->refill_buffers = true;
}

/*
 * The batch options not given: defaults=iobench submits all that a refill
 * queued with one call and reaps up to iodepth completions per call (one
 * io_uring_enter per batch instead of one per I/O: a third of the kernel
 * time per I/O on io_uring, doc/performance.md); defaults=fio
 * keeps fio's one I/O per submit and complete_max = complete_min.
 */
static void fix_batch(struct ib_job *j)
{
	bool ours = j->defaults == IB_DEFAULTS_IOBENCH;

	if (ours && !j->batch_submit_given)
		j->iodepth_batch_submit = 0;	/* 0: iodepth */
	j->iodepth_batch_submit = depth_default(j->iodepth_batch_submit, j->iodepth);
	if (ours && !j->batch_complete_max_given)
		j->iodepth_batch_complete_max = j->iodepth > j->iodepth_batch_complete_min ?
			j->iodepth : j->iodepth_batch_complete_min;
	else if (j->iodepth_batch_complete_max == 0)
		j->iodepth_batch_complete_max = j->iodepth_batch_complete_min;
}

int ib_job_fixup(struct ib_job *j)
{
	unsigned int i;

	fix_data(j);

	fix_batch(j);
	j->iodepth_low = depth_default(j->iodepth_low, j->iodepth);
	for (i = 0; i < IB_DDIR_RWT; i++) {
		/* fio: blockalign applies to random jobs only, and one other
		 * than the smallest block turns the random map off (warned) */
		if (j->bs.align[i] == 0 || !ib_job_random(j))
			j->bs.align[i] = j->bs.min[i];
		else if (j->bs.align[i] != j->bs.min[i] && !j->norandommap)
			j->norandommap = j->randommap_dropped = true;
	}
	if (fix_log_name(j, &j->logs.bw) || fix_log_name(j, &j->logs.iops) ||
	    fix_log_name(j, &j->logs.lat) || fix_log_name(j, &j->logs.hist))
		return -ENOMEM;
	if (j->time_based && j->runtime_us == 0) {
		/* fio warns and runs the job size-based */
		j->time_based = false;
		j->time_based_dropped = true;
	}
	ib_job_fixup_verify(j);
	ib_job_fixup_sprandom(j);
	if (j->gtod_reduce) {
		j->disable_lat = j->disable_clat = j->disable_slat = true;
		j->clat_percentiles = j->lat_percentiles = false;
		j->slat_percentiles = false;
	}
	return 0;
}

/* ---- validation --------------------------------------------------------- */

/* Directions the job's rw uses, as a mask of 1 << IB_DDIR_*. */
static unsigned int used_ddirs(const struct ib_job *j)
{
	unsigned int m = 0;

	if (j->rw & IB_RW_READ)
		m |= 1u << IB_DDIR_READ;
	if (j->rw & IB_RW_WRITE)
		m |= 1u << IB_DDIR_WRITE;
	if (j->rw & IB_RW_TRIM)
		m |= 1u << IB_DDIR_TRIM;
	return m;
}

/*
 * One I/O's length is 32-bit inside the engines, and Linux moves at most
 * 2 GiB - 4 KiB per read/write call anyway: a larger "block" would be
 * several I/Os. Refused rather than silently split or truncated.
 */
#define IB_BS_LIMIT (2ull << 30)

static int check_bs(const struct ib_job *j, struct ib_diag *d)
{
	unsigned int i, used = used_ddirs(j);
	uint64_t smallest = UINT64_MAX;

	for (i = 0; i < IB_DDIR_RWT; i++) {
		if (!(used & (1u << i)))
			continue;
		if (j->bs.min[i] == 0 || j->bs.max[i] == 0)
			return ib_diag_set(d, EINVAL, "bs: block size must not be 0");
		if (j->bs.max[i] > IB_BS_LIMIT)
			return ib_diag_set(d, EINVAL,
					   "bs: %llu is larger than the largest block size, 2g (%llu)",
					   (unsigned long long)j->bs.max[i],
					   (unsigned long long)IB_BS_LIMIT);
		if (j->bs.min[i] > j->bs.max[i])
			return ib_diag_set(d, EINVAL,
					   "bsrange: minimum %llu is larger than maximum %llu",
					   (unsigned long long)j->bs.min[i],
					   (unsigned long long)j->bs.max[i]);
		/* a default direct=1 runs buffered instead (runner) */
		if (j->direct && j->direct_given &&
		    (j->bs.min[i] % 512 || j->bs.max[i] % 512))
			return ib_diag_set(d, EINVAL,
					   "bs: %llu is not a multiple of 512, required by direct=1",
					   (unsigned long long)(j->bs.min[i] % 512 ? j->bs.min[i]
										    : j->bs.max[i]));
		if (j->bs.min[i] < smallest)
			smallest = j->bs.min[i];
	}
	if (j->size && !j->size_pct && j->size < smallest)
		return ib_diag_set(d, EINVAL,
				   "size: %llu is smaller than the block size %llu",
				   (unsigned long long)j->size,
				   (unsigned long long)smallest);
	return 0;
}

static int check_depths(const struct ib_job *j, struct ib_diag *d)
{
	if (j->iodepth == 0)
		return ib_diag_set(d, EINVAL, "iodepth: must be at least 1");
	if (j->iodepth_batch_complete_max < j->iodepth_batch_complete_min)
		return ib_diag_set(d, EINVAL,
				   "iodepth_batch_complete_max: %u is less than iodepth_batch_complete_min %u",
				   j->iodepth_batch_complete_max,
				   j->iodepth_batch_complete_min);
	return 0;
}

/* "hipri: only valid with ioengine=io_uring or pvsync2" */
static int engine_opt_error(const struct ib_opt *o, struct ib_diag *d)
{
	const char *names[8];
	unsigned int n = ib_engine_opt_owners(o->name, names, 8), i;
	char list[128] = "";
	size_t used = 0;

	for (i = 0; i < n && i < 8 && used < sizeof(list); i++)
		used += (size_t)snprintf(list + used, sizeof(list) - used, "%s%s",
					 i == 0 ? "" : i + 1 < n ? ", " : " or ",
					 names[i]);
	return ib_diag_set(d, EINVAL, "%s: only valid with ioengine=%s", o->name, list);
}

/* Was engine option o given (explicitly, or inherited with a non-default value)? */
static bool engine_opt_used(const struct ib_job *j, const struct ib_job *def,
			    const struct ib_opt *o)
{
	if (ib_opts_text_get(j->opts_text, j->opts_len, o->name))
		return true;
	if (o->str_ptr)	/* a string member: by its text */
		return strcmp(*(const char *const *)(const void *)((const char *)j + o->off),
			      *(const char *const *)(const void *)((const char *)def + o->off)) != 0;
	return memcmp((const char *)j + o->off, (const char *)def + o->off, o->size) != 0;
}

/* An engine option of another engine, given to this job; NULL if none. */
static const struct ib_opt *foreign_opt(const struct ib_job *j,
					const struct ib_job *def)
{
	const struct ib_engine_opts *const *set;
	const struct ib_opt *o;

	for (set = ib_engine_opts_list(); *set; set++)
		for (o = (*set)->rows; o->name; o++)
			if (!ib_engine_has_option(j->ioengine, o->name) &&
			    engine_opt_used(j, def, o))
				return o;
	return NULL;
}

/*
 * verify= paces its writes (rate, rate_iops), not its reads, as fio; think
 * time and rate minimums with it are not supported (untested mixes).
 */
static int check_verify_paced(const struct ib_job *j, struct ib_diag *d)
{
	if (j->verify.type && (j->rate.thinktime_us || ib_job_has_rate_min(j)))
		return ib_diag_set(d, ENOTSUP,
				   "verify: not supported by iobench together with thinktime or rate_min/rate_iops_min (rate and rate_iops are)");
	return 0;
}

/* ioengine names no engine of this binary: say why. */
static int engine_missing(const struct ib_job *j, struct ib_diag *d)
{
	const struct ib_engine_opts *set = ib_engine_opts_find(j->ioengine);

	if (set && set->library)
		return ib_diag_set(d, ENOTSUP,
				   "ioengine=%s: not built into this iobench (%s was not found at build time)",
				   j->ioengine, set->library);
	if (ib_engine_known_unbuilt(j->ioengine))
		return ib_diag_set(d, ENOTSUP,
				   "ioengine=%s: fio engine not supported by iobench",
				   j->ioengine);
	return ib_diag_set(d, EINVAL, "ioengine: unknown engine '%s'", j->ioengine);
}

/*
 * The engine exists here, no other engine's option was given, and the
 * engine's own checks (struct ib_engine_opts.validate) pass.
 */
static int check_engine(const struct ib_job *j, struct ib_diag *d)
{
	const struct ib_engine_opts *set;
	const struct ib_opt *o;
	struct ib_job *def;

	/* a default engine not built in falls back when the job runs (runner) */
	if (!ib_engine_find(j->ioengine)) {
		if (!j->ioengine_given)
			return 0;
		return engine_missing(j, d);
	}
	def = malloc(sizeof(*def));
	if (!def)
		return ib_diag_set(d, ENOMEM, "out of memory");
	ib_job_defaults(def);
	o = foreign_opt(j, def);
	free(def);
	if (o)
		return engine_opt_error(o, d);
	if (!strcmp(j->ioengine, "ftruncate") && (j->rw & (IB_RW_READ | IB_RW_TRIM)))
		return ib_diag_set(d, EINVAL,
				   "ioengine=ftruncate does writes only (rw=write or randwrite), not rw=%s",
				   ib_rw_name(j->rw));
	set = ib_engine_opts_find(j->ioengine);
	return set && set->validate ? set->validate(j, d) : 0;
}

static int check_misc(const struct ib_job *j, bool readonly, struct ib_diag *d)
{
	struct timespec res;

	if (j->number_ios && j->time_based)
		return ib_diag_set(d, ENOTSUP,
				   "number_ios with time_based: fio 3.33 ignores it there; not supported by iobench");
	if (j->rw_seq_identical && !(j->rw & IB_RW_RAND))
		return ib_diag_set(d, ENOTSUP,
				   "rw_sequencer=identical with rw=%s: only with random types in iobench",
				   ib_rw_name(j->rw));
	if (j->submit_offload)
		return ib_diag_set(d, ENOTSUP,
				   "io_submit_mode=offload: fio's submission threads are not supported by iobench (a rate keeps its schedule inline: rate_mode=open)");
	if (j->sfr_every && (j->fsync_every || j->fdatasync_every))
		return ib_diag_set(d, ENOTSUP,
				   "sync_file_range with %s: one kind of sync per job in iobench",
				   j->fsync_every ? "fsync" : "fdatasync");
	if (j->rwmixread > 100)
		return ib_diag_set(d, EINVAL, "rwmixread: %u is out of range (0..100)",
				   j->rwmixread);
	if (j->numjobs == 0)
		return ib_diag_set(d, EINVAL, "numjobs: must be at least 1");
	if (clock_getres((clockid_t)j->job_start_clock_id, &res) < 0)
		return ib_diag_set(d, EINVAL, "job_start_clock_id: %u is no clock of this system (%s)",
				   j->job_start_clock_id, strerror(errno));
	if (j->loops == 0)
		return ib_diag_set(d, EINVAL, "loops: must be at least 1");
	if (readonly && ib_job_writes(j))
		return ib_diag_set(d, EPERM, "job '%s': rw=%s writes, refused by --readonly",
				   j->name, ib_rw_name(j->rw));
	return 0;
}

/*
 * zonemode=strided (iogen_zone.c): what fio requires of it, and the
 * shapes iobench's zones do not combine with (fio runs them; the zone walk
 * over several files or with holes is its own, see doc/options.md).
 */
static int check_zones(const struct ib_job *j, struct ib_diag *d)
{
	const struct ib_job_zone *z = &j->zone;
	uint64_t range;
	int dd;

	if (z->mode == IB_ZONE_ZBD)
		return ib_diag_set(d, ENOTSUP, "zonemode=zbd: zoned block devices are not supported by iobench");
	if (z->mode == IB_ZONE_NONE) {
		if (z->size)
			return ib_diag_set(d, EINVAL, "zonesize: needs zonemode=strided (zonemode=none takes no zones)");
		if (z->range || z->skip)
			return ib_diag_set(d, EINVAL, "%s: needs zonemode=strided and zonesize",
					   z->range ? "zonerange" : "zoneskip");
		return 0;
	}
	if (!z->size)
		return ib_diag_set(d, EINVAL, "zonemode=strided: needs zonesize");
	range = z->range ? z->range : z->size;
	for (dd = IB_DDIR_READ; (j->rw & IB_RW_RAND) && dd < IB_DDIR_RWT; dd++)
		if (ib_job_dir_active(j, dd) && j->bs.min[dd] > range)
			return ib_diag_set(d, EINVAL,
					   "zonerange: random I/O of bs=%llu needs a zone of at least that (zonerange or zonesize is %llu)",
					   (unsigned long long)j->bs.min[dd], (unsigned long long)range);
	if (!ib_job_one_file(j))
		return ib_diag_set(d, ENOTSUP,
				   "zonemode=strided: one file per job in iobench (fio turns zones off for several)");
	if (j->rw_seq_add)
		return ib_diag_set(d, ENOTSUP, "zonemode=strided with rw=%s:N: not supported by iobench",
				   ib_rw_name(j->rw));
	if (j->rand_dist != IB_DIST_RANDOM)
		return ib_diag_set(d, ENOTSUP,
				   "zonemode=strided with random_distribution: not supported by iobench");
	if (j->sprandom || j->replay.iolog[0])
		return ib_diag_set(d, ENOTSUP, "zonemode=strided with %s: not supported by iobench",
				   j->sprandom ? "sprandom" : "read_iolog");
	return 0;
}

/*
 * opendir=DIR names the job's files itself (filename='s are added after
 * them, as fio); writing into every file below a directory needs
 * allow_data_loss=1 (fio writes them without a word).
 */
static int check_opendir(const struct ib_job *j, struct ib_diag *d)
{
	if (!j->opendir[0])
		return 0;
	if (j->nrfiles != 1)
		return ib_diag_set(d, EINVAL, "opendir=%s: names the job's files, not with nrfiles=",
				   j->opendir);
	if (ib_job_writes(j) && !j->allow_data_loss)
		return ib_diag_set(d, EPERM,
				   "opendir=%s with rw=%s would write into every file below it: allow_data_loss=1 to go on",
				   j->opendir, ib_rw_name(j->rw));
	return 0;
}

/* numa_cpu_nodes and numa_mem_policy: nodes this machine has (sysfs). */
static int check_numa(const struct ib_job *j, struct ib_diag *d)
{
	char path[64];
	unsigned int i;

	for (i = 0; i < 64; i++) {
		uint64_t bit = 1ull << i;

		if (!((j->proc.numa_nodes | j->proc.mem_nodes) & bit))
			continue;
		snprintf(path, sizeof(path), "/sys/devices/system/node/node%u", i);
		if (access(path, F_OK) < 0 && (i || access("/sys/devices/system/node", F_OK) == 0))
			return ib_diag_set(d, ENOENT, "%s: node %u does not exist",
					   j->proc.numa_nodes & bit ? "numa_cpu_nodes" :
					   "numa_mem_policy", i);
	}
	return 0;
}

/*
 * unlink_each_loop renews the files between loops (worker.c): verify's
 * passes and mmap's mappings would not see the new files, so refused.
 */
static int check_unlink_each_loop(const struct ib_job *j, struct ib_diag *d)
{
	if (!j->unlink_each_loop || j->loops < 2)
		return 0;
	if (j->verify.type)
		return ib_diag_set(d, ENOTSUP,
				   "unlink_each_loop: not supported by iobench together with verify");
	if (!strcmp(j->ioengine, "mmap"))
		return ib_diag_set(d, ENOTSUP,
				   "unlink_each_loop: not supported by iobench with ioengine=mmap");
	return 0;
}

/* dedupe_mode=working_set: fio 3.33's three conditions (buf.h). */
static int check_dedupe(const struct ib_job *j, struct ib_diag *d)
{
	if (!j->dedupe_pct || j->dedupe_mode != IB_DEDUPE_WORKING_SET)
		return 0;
	if (!j->size)
		return ib_diag_set(d, EINVAL,
				   "dedupe_mode=working_set: the working set needs size= (an absolute size)");
	if (!ib_job_one_file(j))
		return ib_diag_set(d, EINVAL,
				   "dedupe_mode=working_set: only with one file per job");
	if (j->dedupe_ws_pct + j->dedupe_pct > 100)
		return ib_diag_set(d, EINVAL,
				   "dedupe_percentage=%u: out of reach with dedupe_working_set_percentage=%u (unique writes), more than 100 together",
				   j->dedupe_pct, j->dedupe_ws_pct);
	if (j->size * j->dedupe_ws_pct / 100 < j->bs.min[IB_DDIR_WRITE])
		return ib_diag_set(d, EINVAL,
				   "dedupe_working_set_percentage=%u: the working set is smaller than one block",
				   j->dedupe_ws_pct);
	return 0;
}

/*
 * steadystate_duration: a window iobench can hold, a whole number of
 * steadystate_check_intervals (whole seconds, at least 1, as fio 3.42
 * asks; fio also refuses a window of one interval, which 3.33 ran).
 */
static int check_ss(const struct ib_job *j, struct ib_diag *d)
{
	uint64_t iv = j->ss_interval_us;

	if (!j->ss_dur_us)
		return 0;
	if (iv < 1000000 || iv % 1000000)
		return ib_diag_set(d, EINVAL,
				   "steadystate_check_interval: %llu us is not a whole number of seconds >= 1 s",
				   (unsigned long long)iv);
	if (j->ss_dur_us < iv || j->ss_dur_us % iv)
		return ib_diag_set(d, EINVAL,
				   "steadystate_duration: %llu us is not a multiple of steadystate_check_interval %llu us",
				   (unsigned long long)j->ss_dur_us, (unsigned long long)iv);
	if (j->ss_dur_us / iv > IB_SS_MAX_DUR)
		return ib_diag_set(d, EINVAL,
				   "steadystate_duration: %llu us is out of range (at most %u samples of steadystate_check_interval)",
				   (unsigned long long)j->ss_dur_us, IB_SS_MAX_DUR);
	return 0;
}

/* log_issue_time (fio 3.42): only with write_lat_log and log_offset. */
static int check_log_issue_time(const struct ib_job *j, struct ib_diag *d)
{
	if (j->logs.issue_time && (!j->logs.lat[0] || !j->logs.offset))
		return ib_diag_set(d, EINVAL,
				   "log_issue_time: needs write_lat_log and log_offset=1");
	return 0;
}

static int check_log_group(const struct ib_job *j, struct ib_diag *d)
{
	if (!j->logs.group)
		return 0;
	if (!j->group_reporting)
		return ib_diag_set(d, EINVAL, "log_group: needs group_reporting");
	if (!j->logs.bw[0] && !j->logs.iops[0] && !j->logs.lat[0])
		return ib_diag_set(d, EINVAL,
				   "log_group: needs write_bw_log, write_iops_log or write_lat_log");
	if (j->logs.unix_epoch)
		return ib_diag_set(d, ENOTSUP,
				   "log_group: not with log_unix_epoch (each job's times start at its own clock)");
	return 0;
}

int ib_job_validate(const struct ib_job *j, bool readonly, struct ib_diag *d)
{
	int rc = check_misc(j, readonly, d);

	if (!rc)
		rc = check_depths(j, d);
	if (!rc)
		rc = check_bs(j, d);
	if (!rc)
		rc = check_engine(j, d);
	if (!rc)
		rc = ib_job_pace_check(j, d);
	if (!rc)
		rc = ib_job_check_verify(j, d);
	if (!rc)
		rc = check_verify_paced(j, d);
	if (!rc)
		rc = check_unlink_each_loop(j, d);
	if (!rc)
		rc = check_zones(j, d);
	if (!rc)
		rc = check_opendir(j, d);
	if (!rc)
		rc = check_numa(j, d);
	if (!rc)
		rc = check_dedupe(j, d);
	if (!rc)
		rc = check_ss(j, d);
	if (!rc)
		rc = check_log_group(j, d);
	if (!rc)
		rc = ib_job_check_sprandom(j, d);
	if (!rc)
		rc = ib_job_check_ramp(j, d);
	if (!rc)
		rc = check_log_issue_time(j, d);
	return rc;
}
