/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_JOB_H
#define IOBENCH_JOB_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include "iobench/compiler.h"
#include "iobench/diag.h"

struct ib_strtab;

#define IB_MAX_CPUS 1024	/* cpus_allowed/cpumask range */

/*
 * struct ib_job is the validated, read-only description of one job clone.
 * The option layer (options.c, cli.c, jobfile.c) fills a struct ib_job per
 * section with defaults (front/defaults.c) + inherited globals + the section's own
 * values; validate.c fixes it up and checks it, plan.c expands numjobs into
 * clones (plan.h); from then on nothing writes to it.
 *
 * Its strings (names, paths, commands, patterns) and its tables (bssplit,
 * zones, ignore_error) are pointers to immutable data in a string table
 * (strtab.h), `strs`, which the job's owner owns: the jobset while
 * parsing, then the plan (plan.h). A copy of a job (numjobs clones, fork(),
 * threads, the job array in shared memory) shares them; a new value is a
 * new string (ib_job_set_str()) or table (ib_job_tab_copy()). Never NULL:
 * "" when not set, the shared ib_job_no_* tables when empty. So the job
 * itself stays small (at most IB_JOB_SIZE_MAX bytes, job.c checks).
 *
 * Sizes and offsets are bytes, times are microseconds unless named _ms.
 */

enum ib_ddir {
	IB_DDIR_READ = 0,
	IB_DDIR_WRITE = 1,
	IB_DDIR_TRIM = 2,
	IB_DDIR_SYNC = 3,
	IB_DDIR_RWT = 3, /* number of data directions (read, write, trim) */
	IB_DDIR_NR = 4,
};

/* rw= as a bit set; the canonical name comes from ib_rw_name(). */
enum ib_rw_bits {
	IB_RW_READ = 1u << 0,
	IB_RW_WRITE = 1u << 1,
	IB_RW_TRIM = 1u << 2,
	IB_RW_RAND = 1u << 3,
};

enum ib_fsync_kind { IB_SYNC_FSYNC = 0, IB_SYNC_FDATASYNC = 1 };

/*
 * defaults=: whose defaults apply to the options a job does not set.
 * iobench's: O_DIRECT and io_uring (falling back to libaio, then psync,
 * when the kernel refuses it); fio's: buffered I/O and psync.
 */
enum ib_defaults { IB_DEFAULTS_IOBENCH = 0, IB_DEFAULTS_FIO = 1 };

/* sync=: open the files O_SYNC or O_DSYNC (every write is synchronous) */
enum ib_sync_io { IB_SYNC_IO_NONE = 0, IB_SYNC_IO_SYNC = 1, IB_SYNC_IO_DSYNC = 2 };

#define IB_NAME_MAX 256
#define IB_ENGINE_NAME_MAX 32
#define IB_EXEC_MAX 512	/* exec_prerun/exec_postrun */
#define IB_COMM_MAX 256	/* comm= (the kernel keeps its first 15 bytes) */
#define IB_VPATTERN_TEXT_MAX 1024	/* verify_pattern as given */
#define IB_PATHS_MAX 4096 /* filename= list, ':' separated, as given */
#define IB_MAX_PERCENTILES 20
#define IB_OPTS_TEXT_MAX 8192
#define IB_ERR_LIST_MAX 32 /* ignore_error= entries per error type */
#define IB_MERGE_MAX 16 /* merge_blktrace_scalars/iters entries */

/*
 * fio's error types, which continue_on_error and ignore_error are about:
 * a read error is a read error, a write, trim or fsync/fdatasync error a
 * write error, EILSEQ (from any direction) a verify error. IB_COE_* bits
 * are 1u << type.
 */
enum ib_err_type {
	IB_ERR_READ = 0,
	IB_ERR_WRITE = 1,
	IB_ERR_VERIFY = 2,
	IB_ERR_TYPE_NR = 3,
};

/*
 * unified_rw_reporting (fio's values): the reports show each direction
 * (NONE), the directions folded into one "mixed" one (MIXED), or both.
 */
enum ib_unified {
	IB_UNIFIED_NONE = 0,
	IB_UNIFIED_MIXED = 1,
	IB_UNIFIED_BOTH = 2,
};

/* Errors that do not stop a job (given continue_on_error for their type). */
struct ib_err_list {
	unsigned int nr;	/* 0: the default list, EIO and EILSEQ */
	int err[IB_ERR_LIST_MAX];	/* positive errno values */
};

/* Per-direction sizes: index with enum ib_ddir (READ, WRITE, TRIM). */
struct ib_bs {
	uint64_t min[IB_DDIR_RWT];
	uint64_t max[IB_DDIR_RWT]; /* == min unless bsrange */
	uint64_t align[IB_DDIR_RWT]; /* blockalign; defaults to min */
};

/*
 * bssplit= for one direction: block sizes with their shares in thousandths
 * of a percent (so 12.5% is 12500), ordered by share, ascending, as fio
 * walks them. A draw r in 1..100000 takes the first entry whose cumulative
 * share reaches r, else the last (fio's rule: shares adding up to less
 * than 100 leave the rest to the size with the largest share, more than
 * 100 cut the largest shares).
 */
#define IB_BSSPLIT_MAX 64
#define IB_BSSPLIT_SCALE 100000u
struct ib_bssplit {
	unsigned int nr;	/* 0: bs/bsrange apply */
	uint32_t bs[IB_BSSPLIT_MAX];
	uint32_t perc[IB_BSSPLIT_MAX];
};

#define IB_PATTERN_TEXT_MAX 256

/* random_distribution=zoned / zoned_abs, one direction (randdist.h). */
#define IB_ZONES_MAX 256
struct ib_zones {
	unsigned int nr;
	uint8_t pct[IB_ZONES_MAX];	/* share of the I/Os */
	uint64_t size[IB_ZONES_MAX];	/* zoned: % of the region; abs: bytes */
};

/*
 * zonemode=strided (iogen_zone.c): zonesize bytes of I/O in a zone of
 * zonerange bytes, then the next zone zonerange + zoneskip further on,
 * from the region's start again at the file's end.
 */
enum ib_zone_mode { IB_ZONE_NONE = 0, IB_ZONE_STRIDED, IB_ZONE_ZBD };
struct ib_job_zone {
	unsigned int mode;	/* enum ib_zone_mode */
	uint64_t size;		/* zonesize: bytes of I/O per zone */
	uint64_t range;		/* zonerange (0: zonesize) */
	uint64_t skip;		/* zoneskip: bytes left out after a zone */
};

/* dedupe_mode= (buf.h) */
enum ib_dedupe_mode { IB_DEDUPE_REPEAT = 0, IB_DEDUPE_WORKING_SET = 1 };

/* iomem=/mem=: how the I/O buffers are allocated (buf.h) */
enum ib_iomem { IB_IOMEM_MALLOC = 0, IB_IOMEM_SHM, IB_IOMEM_MMAP, IB_IOMEM_MMAPSHARED };

/*
 * Rate control, think time and latency limits (fio's names; pace.h has the
 * meaning, source_paced.h turns them into a struct ib_pace_cfg). Per
 * direction read, write, trim; 0: none.
 */
struct ib_job_rate {
	uint64_t bps[IB_DDIR_RWT];	/* rate= bytes/s */
	uint64_t iops[IB_DDIR_RWT];	/* rate_iops= I/Os/s */
	uint64_t min_bps[IB_DDIR_RWT];	/* rate_min= bytes/s floor */
	uint64_t min_iops[IB_DDIR_RWT];	/* rate_iops_min= I/Os/s floor */
	unsigned int process;	/* enum ib_pace_process */
	unsigned int mode;	/* enum ib_pace_mode */
	unsigned int cycle_ms;	/* [1000] */
	bool ignore_thinktime;
	uint64_t late_us;	/* an I/O started later than this is late */
	uint64_t spin_us;	/* spin the last of each wait for a due time */
	uint64_t thinktime_us;
	uint64_t thinktime_spin_us;
	uint64_t thinkcycles;	/* busy loop turns between I/Os; 0: none */
	uint64_t thinktime_blocks;	/* [1] */
	bool thinktime_blocks_set;	/* given: see thinktime_iotime */
	unsigned int thinktime_blocks_type;	/* enum ib_think_type */
	uint64_t thinktime_iotime_us;
	uint64_t max_latency_us[IB_DDIR_RWT];	/* 0: none; ETIMEDOUT above it */
	/* latency_target search (latsearch.h); target 0: none */
	uint64_t latency_target_us;
	uint64_t latency_window_us;
	double latency_percentile;	/* (0, 100] [100] */
	bool latency_run;
};

/* Engine options: valid only with their engine (validated). */
struct ib_job_engine {
	bool hipri;
	bool fixedbufs;
	bool fixedbufs_given;	/* not given: registered when the kernel and
				 * RLIMIT_MEMLOCK allow, else plain (io_uring.c) */
	bool registerfiles;
	bool registerfiles_given; /* not given: registered when every file
				   * stays open for the run (io_uring.c) */
	bool sqthread_poll;
	int sqthread_poll_cpu;	/* -1: any */
	int nonvectored;	/* -1 auto, 0, 1 */
	unsigned int force_async;	/* io_uring: every Nth SQE IOSQE_ASYNC */
	bool userspace_reap;
	bool nowait;
	unsigned int uncached;	/* RWF_DONTCACHE on buffered I/O (0: off) */
	bool libaio_vectored;	/* libaio: IOCB_CMD_PREADV/PWRITEV, one iovec */
	bool atomic;		/* RWF_ATOMIC on writes (rwf_check.c checks the target) */
};

/* The job's process: placement, priorities, neighbours, commands (procopts.c). */
struct ib_job_proc {
	uint64_t cpus[IB_MAX_CPUS / 64];	/* cpus_allowed/cpumask bits */
	bool cpus_set;
	unsigned int cpus_policy;	/* enum ib_cpus_policy */
	uint64_t numa_nodes;	/* numa_cpu_nodes bits (nodes 0..63) */
	/* numa_mem_policy=MODE[:NODES]: set_mempolicy(2)'s mode + 1 (0: not
	 * given), its nodes (bits, nodes 0..63), or every online node */
	unsigned int mem_mode;
	uint64_t mem_nodes;
	bool mem_all;
	int nice;		/* added to the job's nice value */
	unsigned int ioprio, ioprio_class;	/* prio=, prioclass= */
	unsigned int ioprio_hint;	/* priohint= (0-1023) */
	bool ioprio_given;	/* either was given */
	const char *ioscheduler;	/* the devices' scheduler for the run ("": keep) */
	bool exitall;		/* when this job ends, end the others */
	bool exitall_on_error;	/* when it fails, end the others */
	unsigned int exit_what;	/* enum ib_exit_what: which others */
	const char *exec_prerun;	/* shell command before the job's I/O (exec.h), */
	const char *exec_postrun;	/* and after it ("": none); < IB_EXEC_MAX */
	const char *comm;	/* the worker's process name ("": keep); < IB_COMM_MAX */
};

/* The job's logs (log.h, iolog.h): fio's write_*_log and log_* options. */
struct ib_job_logs {
	const char *iolog;	/* write_iolog= */
	const char *bw;		/* write_bw_log= prefix */
	const char *iops;	/* write_iops_log= */
	const char *lat;	/* write_lat_log= */
	const char *hist;	/* write_hist_log= */
	unsigned int hist_msec;
	unsigned int hist_coarseness;	/* 0..6 */
	bool per_job;	/* per_job_logs; 0: PREFIX_kind.log, no job number (log.h) */
	unsigned int avg_msec;
	bool offset;
	unsigned int iolog_version;	/* 3 (times, default) or 2 */
	/* log_window_value: averaged lat logs give each window's mean (0),
	 * maximum (1) or both, mean then maximum (2) */
	unsigned int max_value;
	bool unix_epoch;	/* log times in ms since the Unix epoch */
	bool prio;		/* log_prio: the prio column as fio 3.42's 0xNNNN */
	bool issue_time;	/* log_issue_time: a last column, the issue ns */
	/* log_group: with group_reporting, also one bw/iops/lat log per group
	 * (grouplog.h) */
	bool group;
};

/*
 * Trace replay (read_iolog=, replay.h). ib_replay_plan() (in the parent,
 * before validation) reads the trace once and fills rw, bs, filename (and
 * size for regular files) from it.
 */
struct ib_job_replay {
	const char *iolog;	/* read_iolog: ':'-separated traces, '-': stdin */
	bool no_stall;
	unsigned int time_scale;	/* percent of the recorded rate */
	const char *redirect;
	uint64_t align;		/* 0: none; else a power of 2 */
	uint64_t scale;		/* offsets divided by this (>= 1) */
	unsigned int skip;	/* 1u << enum ib_ddir: left out */
	const char *merge_file;	/* merge_blktrace_file */
	unsigned int merge_nr_scalars, merge_nr_iters;
	double merge_scalars[IB_MERGE_MAX];	/* percent */
	unsigned int merge_iters[IB_MERGE_MAX];
};

/*
 * Data verification (vrun.h), fio's verify_* options: type is enum
 * ib_verify_type (verify.h, 0 none); pattern as given, parsed by
 * ib_vpattern_parse().
 */
struct ib_job_verify {
	unsigned int type;	/* verify= */
	bool do_verify;		/* verify phase after the writes (default 1) */
	bool only;		/* no writes: check an earlier run's data */
	bool fatal;		/* a mismatch ends the job, whatever coe says */
	bool dump;		/* write expected/received blocks to files */
	bool header_seed;	/* compare the header's rand_seed */
	uint64_t interval;	/* 0: the whole block */
	uint64_t offset;	/* header swapped with the bytes here */
	unsigned int backlog;	/* verify every N written blocks */
	unsigned int backlog_batch;	/* 0: backlog */
	unsigned int async;	/* accepted: checks run in the job */
	bool state_save;	/* save the written blocks (vstate.h) */
	bool state_load;	/* verify the blocks a saved state lists */
	bool write_sequence;	/* compare the header's numberio */
	bool experimental;	/* accepted: the record-based verify */
	const char *pattern;	/* < IB_VPATTERN_TEXT_MAX */
	/* verify_pattern_interval: the pattern anew every N bytes (verify.h) */
	uint64_t pattern_interval;
	/* the header layout written (verify.h): the run's --fio-version
	 * (enum ib_fio_version's 333 or 342), set by the plan; 0: 3.42 */
	unsigned int hdr_ver;
};

struct ib_job {
	/* identity */
	const char *name;	/* < IB_NAME_MAX, as the strings below */
	/* fio's job name for its files ($jobname, the job name as the
	 * target): a job file's section name (name= renames the job, not
	 * its files), --name on the command line; "": name */
	const char *section;
	const char *description;
	unsigned int clone;	/* 0..numjobs-1 */
	unsigned int numjobs;	/* clones of this job section */
	unsigned int number;	/* 1-based global job number: seeds, log names */
	/* the run's --fio-version (enum ib_fio_version's 333 or 342), set by
	 * the plan; 0: 3.42. Its random offsets' seed follows it (jobseed.h) */
	unsigned int fio_ver;
	unsigned int groupid;
	bool stonewall;		/* wait for all previous jobs first */
	/* wait_for=: start once every earlier job of this name has ended
	 * (the runner; same group, unlike stonewall); "": none */
	const char *wait_for;
	bool new_group;

	/* workload */
	unsigned int rw;	/* enum ib_rw_bits */
	unsigned int rwmixread;	/* 0..100 */
	struct ib_bs bs;
	bool bs_unaligned;
	/* per direction, in strs (see above); ib_job_no_bssplit when none;
	 * sets bs.min/max too */
	const struct ib_bssplit *bssplit;
	/*
	 * rw=TYPE:N, fio's offset modifier. Sequential: seq_add bytes (may be
	 * negative) added to the end of each I/O to find the next one.
	 * Random: seq_nr I/Os in a row, each after the one before, per new
	 * random offset (0 or 1: every I/O at a new one).
	 */
	int64_t rw_seq_add;
	unsigned int rw_seq_nr;
	bool rw_seq_identical;	/* rw_sequencer=identical (random types) */

	/* where new strings of this job go (not owned: see above) */
	struct ib_strtab *strs;

	/* targets */
	const char *filename;	/* < IB_PATHS_MAX; "": default names */
	const char *directory;	/* < PATH_MAX, as the paths below */
	const char *opendir;	/* every regular file below it ("": none) */
	const char *filename_format;	/* "": $jobname.$jobnum.$filenum */
	unsigned int nrfiles;
	uint64_t size;		/* total per job (0: from file/device) */
	uint8_t size_pct;	/* size=N%: percent of the file (0: not a %) */
	uint64_t filesize_min, filesize_max; /* 0: size/nrfiles */
	uint64_t offset;
	uint8_t offset_pct;
	uint64_t offset_increment;
	uint8_t offset_increment_pct;	/* N%: percent of the file (0: not a %) */
	uint64_t offset_align;	/* a % offset: aligned up to this (0: min bs) */
	uint64_t io_size;	/* 0: = size */
	uint8_t io_size_pct;	/* N%: percent of each file's region (0, 100: all) */
	unsigned int loops;	/* >= 1 */
	uint64_t number_ios;	/* stop after this many I/Os (0: no limit) */
	bool overwrite;
	bool create_on_open;
	/* fill_device (fill_fs): write until the file system or device is
	 * full (ENOSPC/EDQUOT end the writes, no error: ib_err_fill_end());
	 * without size=, a file's region outgrows its file system (fill.c) */
	bool fill_device;
	/* unique_filename: fio's client/server name prefix (its address);
	 * iobench runs locally, where fio adds none either */
	bool unique_filename;
	unsigned int filetype;	/* enum ib_filetype: what each target must be */
	bool unlink;
	bool unlink_each_loop;	/* new files for each loop (file.h renew) */
	bool allow_mounted_write;
	bool allow_data_loss;	/* write a device holding data (safety.h) */

	/* page cache and file setup (fileopts.c) */
	bool invalidate;	/* drop the region's cached pages first */
	unsigned int fadvise_hint;	/* enum ib_fadvise */
	bool pre_read;		/* read the region into the cache first */
	unsigned int fallocate;	/* enum ib_falloc: how layout allocates */
	bool create_only;	/* lay files out, do no I/O */
	bool create_fsync;	/* fsync a file after laying it out */
	bool create_serialize;	/* 0: lay out with the other such jobs at once */
	bool allow_file_create;	/* 0: a missing file is an error */
	bool file_append;	/* the region starts at the end of the file */
	bool fsync_on_close;	/* fsync written files when closing them */
	unsigned int openfiles;	/* 0: all of them (the only mode) */

	/* random offsets */
	unsigned int rand_dist;	/* enum ib_rand_dist (randdist.h) */
	double rand_param;	/* zipf theta, pareto h, normal deviation % */
	double rand_center;	/* 0..1, or -1: not given */
	/* random_distribution=zoned*: per direction, in strs (see above);
	 * ib_job_no_zones when not zoned */
	const struct ib_zones *zones;
	unsigned int pct_random[IB_DDIR_RWT];	/* percentage_random, 100 */
	struct ib_job_zone zone;	/* zonemode=strided */
	bool allrandrepeat;	/* every stream from the job's fixed seeds */
	/* file_service_type: enum ib_file_service, :N, a distribution's value */
	unsigned int file_service;
	unsigned int file_service_nr;	/* I/Os per pick (>= 1) */
	double file_service_param;
	bool randrepeat;
	bool randseed_set;
	uint64_t randseed;
	bool norandommap;
	bool norandommap_given;	/* norandommap= given (sprandom's check) */
	bool softrandommap;	/* a random map that cannot be had: go on without */
	unsigned int rand_gen;	/* enum ib_rand_gen (random_generator) */
	/* sprandom (sprandom.h): fio 3.42's fast preconditioning writes */
	bool sprandom;
	unsigned int spr_regions;	/* spr_num_regions (100) */
	double spr_op;		/* spr_op: over-provisioning, (0, 1) */
	uint64_t spr_cs;	/* spr_cs: device cache bytes (0: none) */

	/* I/O path */
	const char *ioengine;	/* < IB_ENGINE_NAME_MAX */
	bool direct;		/* O_DIRECT (direct=1 or buffered=0) */
	unsigned int defaults;	/* enum ib_defaults (defaults=) */
	/*
	 * Set by the options themselves (inherited from [global]): the value
	 * above was given, not a default. A default engine may fall back and
	 * a default direct=1 may run buffered (runner); a given one may not.
	 */
	bool ioengine_given;
	bool direct_given;	/* direct= or buffered= */
	unsigned int sync_io;	/* enum ib_sync_io (sync=) */
	bool zero_buffers;
	bool refill_buffers;
	bool scramble_buffers;	/* default 1, as fio's */
	bool scramble_given;	/* given: it holds with zero_buffers (fio) */
	/* write data (buf.h): fio's pattern syntax, "" for none */
	const char *buffer_pattern;	/* < IB_PATTERN_TEXT_MAX */
	unsigned int compress_pct;	/* buffer_compress_percentage, 0: off */
	uint64_t compress_chunk;	/* buffer_compress_chunk (0: the block) */
	unsigned int dedupe_pct;	/* dedupe_percentage, 0: off */
	unsigned int dedupe_mode;	/* enum ib_dedupe_mode */
	unsigned int dedupe_ws_pct;	/* dedupe_working_set_percentage */
	bool dedupe_global;	/* working set over every job's writes */
	uint64_t lockmem;	/* bytes to mlock (0: none) */
	unsigned int iomem;	/* enum ib_iomem */
	const char *iomem_file;	/* iomem=mmap:FILE ("": anonymous) */
	unsigned int iodepth;
	/* io_submit_mode: 0 inline (the job submits its own I/O); offload
	 * (fio's submission threads) is refused */
	unsigned int submit_offload;
	unsigned int iodepth_batch_submit;
	unsigned int iodepth_batch_complete_min;
	unsigned int iodepth_batch_complete_max;
	/*
	 * Given (here or in [global]): the two batch options above are kept as
	 * set. Not given, defaults=iobench batches (validate.c): every I/O a
	 * refill queues goes in one submit call, and a reap takes every
	 * completion there is, up to iodepth; defaults=fio keeps fio's 1 and 1.
	 */
	bool batch_submit_given;
	bool batch_complete_max_given;
	unsigned int iodepth_low;
	bool serialize_overlap;	/* no two overlapping I/Os in flight when
				 * one of them writes (loop.h) */

	/* engine options (valid only with their engine; validated) */
	struct ib_job_engine engine;

	/* time */
	bool time_based;
	bool time_based_dropped;	/* given without a runtime: off (fio) */
	bool randommap_dropped;	/* blockalign= turned norandommap on (fio) */
	uint64_t runtime_us;	/* 0: unlimited */
	uint64_t ramp_time_us;
	uint64_t ramp_size;	/* bytes before measuring (0: none) */
	uint64_t startdelay_us;

	struct ib_job_rate rate;
	/* steady state (steadystate.h): ss_dur_us 0: off */
	uint32_t ss_mode;		/* IB_SS_* [iops_slope:0.01%] */
	double ss_limit;
	uint64_t ss_dur_us;
	uint64_t ss_ramp_us;
	uint64_t ss_interval_us;	/* between samples [1 s] */

	/* sync */
	unsigned int fsync_every;	/* fsync=N */
	unsigned int fdatasync_every;	/* fdatasync=N */
	/* sync_file_range=FLAGS:N: sync_file_range(2) of the range written
	 * since the last sync, every N writes; flags SYNC_FILE_RANGE_* */
	unsigned int sfr_every;
	unsigned int sfr_flags;
	bool end_fsync;
	bool end_syncfs;	/* one syncfs(2) when the job ends (fio 3.42) */

	/* process model */
	bool thread;

	struct ib_job_proc proc;

	/* statistics and logging (consumed by stats/report) */
	bool stats;		/* stats=0: run, but left out of every report and log */
	bool gtod_reduce;
	bool disable_lat, disable_clat, disable_slat, disable_bw;
	bool clat_percentiles, lat_percentiles, slat_percentiles;
	unsigned int nr_percentiles;
	double percentiles[IB_MAX_PERCENTILES];	/* sorted ascending */
	unsigned int percentile_precision;
	unsigned int bwavgtime_ms;
	unsigned int iopsavgtime_ms;
	bool group_reporting;
	unsigned int kb_base;		/* 1024 or 1000 */
	unsigned int unit_base;	/* 8: bytes, 1: bits */
	unsigned int significant_figures;
	unsigned int unified_rw_rep;	/* enum ib_unified */
	struct ib_job_logs logs;
	struct ib_job_replay replay;
	struct ib_job_verify verify;

	bool disk_util;		/* the job's devices count in Disk stats */
	/* the clock of fio 3.42's JSON "job_start" (clock_gettime's id) */
	unsigned int job_start_clock_id;
	unsigned int clocksource;	/* enum ib_clocksource */

	/* error policy */
	unsigned int continue_on_error; /* IB_COE_* bits */
	bool error_dump;	/* describe each non-fatal I/O error (stats.h) */
	/* IB_ERR_TYPE_NR lists, index ib_err_type, in strs (see above) */
	const struct ib_err_list *ignore_error;

	/*
	 * Options explicitly given for this job, in parse order, for the
	 * JSON "job options" object: "key\0value\0key\0value\0\0", opts_len
	 * bytes before the last "\0" (< IB_OPTS_TEXT_MAX); a string of strs
	 * (see above), "" when none (ib_job_record_opt()).
	 */
	const char *opts_text;
	unsigned int opts_len;
};

enum ib_coe {
	IB_COE_READ = 1u << IB_ERR_READ,
	IB_COE_WRITE = 1u << IB_ERR_WRITE,
	IB_COE_VERIFY = 1u << IB_ERR_VERIFY,
	IB_COE_IO = IB_COE_READ | IB_COE_WRITE,
	IB_COE_ALL = IB_COE_IO | IB_COE_VERIFY,
};

enum ib_cpus_policy { IB_CPUS_SHARED, IB_CPUS_SPLIT };

/* exitall: end the running jobs of its group, all running, or the run. */
enum ib_exit_what { IB_EXIT_GROUP, IB_EXIT_STONEWALL, IB_EXIT_ALL };

/*
 * clocksource=: cpu (or not given) times I/O with the invariant TSC where
 * there is one, else clock_gettime(CLOCK_MONOTONIC); clock_gettime and
 * gettimeofday ask for clock_gettime(CLOCK_MONOTONIC) (gettimeofday's
 * microseconds are not emulated). One clock per run: any job asking for
 * clock_gettime gets it for all. The JSON's "effective options" say which.
 */
enum ib_clocksource { IB_CLK_CPU, IB_CLK_CLOCK_GETTIME, IB_CLK_GETTIMEOFDAY };

/* file_service_type= (iogen.h) */
/*
 * random_generator. AUTO (not given) is fio's taus88 with the random map,
 * or the constant-memory permutation when the map would be large; TAUS
 * (given) always keeps the map (iogen.h).
 */
enum ib_rand_gen { IB_RANDGEN_AUTO, IB_RANDGEN_TAUS, IB_RANDGEN_TAUS64,
		   IB_RANDGEN_LFSR };

enum ib_file_service {
	IB_FS_ROUNDROBIN, IB_FS_SEQUENTIAL, IB_FS_RANDOM,
	IB_FS_ZIPF, IB_FS_PARETO, IB_FS_NORMAL,
};

enum ib_fadvise {
	IB_FADV_NONE,		/* fadvise_hint=0 */
	IB_FADV_AUTO,		/* 1: sequential or random per rw= */
	IB_FADV_SEQ,
	IB_FADV_RAND,
	IB_FADV_NOREUSE,	/* fio 3.42: POSIX_FADV_NOREUSE */
};

enum ib_falloc {
	IB_FALLOC_NONE,		/* nothing: the writes make the file */
	IB_FALLOC_NATIVE,	/* fallocate(2), falling back to none */
	IB_FALLOC_POSIX,	/* posix_fallocate(3) */
	IB_FALLOC_KEEP,		/* fallocate(FALLOC_FL_KEEP_SIZE), size kept */
	IB_FALLOC_TRUNCATE,	/* ftruncate only */
};

/* filetype=: none (whatever stat finds), file, block, char (refused). */
enum ib_filetype {
	IB_FILETYPE_NONE,
	IB_FILETYPE_FILE,
	IB_FILETYPE_BLOCK,
	IB_FILETYPE_CHAR,
};

static inline bool ib_job_writes(const struct ib_job *j)
{
	return (j->rw & (IB_RW_WRITE | IB_RW_TRIM)) != 0;
}

/* Does the job do I/O in direction d (READ, WRITE or TRIM)? */
static inline bool ib_job_dir_active(const struct ib_job *j, int d)
{
	static const unsigned int bit[IB_DDIR_RWT] = {
		IB_RW_READ, IB_RW_WRITE, IB_RW_TRIM,
	};

	return (j->rw & bit[d]) != 0;
}

static inline bool ib_job_random(const struct ib_job *j)
{
	return (j->rw & IB_RW_RAND) != 0;
}

/* trimwrite or randtrimwrite: each trimmed range is written next. */
static inline bool ib_job_trimwrite(const struct ib_job *j)
{
	return (j->rw & IB_RW_TRIM) && (j->rw & IB_RW_WRITE);
}

/* fio's largest block of the job (td_max_bs: reads and writes). */
static inline uint64_t ib_job_max_bs(const struct ib_job *j)
{
	uint64_t r = j->bs.max[IB_DDIR_READ], w = j->bs.max[IB_DDIR_WRITE];

	return r > w ? r : w;
}

/* One file: no nrfiles=, no filename=a:b, no opendir=. */
static inline bool ib_job_one_file(const struct ib_job *j)
{
	return j->nrfiles == 1 && !strchr(j->filename, ':') && !j->opendir[0];
}

/* Canonical rw name as fio prints it: read, randrw, rw, ... */
const char *ib_rw_name(unsigned int rw);

/*
 * Point *field, one of j's string members, at a copy of the formatted
 * text in j->strs. 0, or -ENOMEM (no memory, or j has no string table).
 */
int ib_job_set_str(struct ib_job *j, const char **field, const char *fmt, ...)
	ib_printf_fmt(3, 4);

/*
 * The string members, for code that treats them all alike (hashing or
 * comparing jobs by content): offsetof(struct ib_job, m) of each.
 */
#define IB_JOB_NR_STRS 24	/* opts_text is not one: it holds NULs */
extern const size_t ib_job_str_off[IB_JOB_NR_STRS];
extern const struct ib_zones ib_job_no_zones[IB_DDIR_RWT];
extern const struct ib_bssplit ib_job_no_bssplit[IB_DDIR_RWT];
extern const struct ib_err_list ib_job_no_ignore_error[IB_ERR_TYPE_NR];

static inline const char **ib_job_str_at(struct ib_job *j, unsigned int i)
{
	return (const char **)(void *)((char *)j + ib_job_str_off[i]);
}

/*
 * The tables held in strs: where each is, its size in bytes (all of its
 * directions or error types) and the shared empty value.
 */
struct ib_job_tab {
	size_t off;
	size_t size;
	const void *none;
};
#define IB_JOB_NR_TABS 3	/* zones, bssplit, ignore_error */
extern const struct ib_job_tab ib_job_tabs[IB_JOB_NR_TABS];

static inline const void **ib_job_tab_at(struct ib_job *j, unsigned int i)
{
	return (const void **)(void *)((char *)j + ib_job_tabs[i].off);
}

/*
 * A writable copy in j->strs of the table at *field (one of ib_job_tabs,
 * `size` bytes), which the caller fills and then stores in *field; NULL
 * when there is no memory or no string table.
 */
void *ib_job_tab_copy(struct ib_job *j, const void *cur, size_t size);

/* The most bytes a struct ib_job may take (job.c asserts it). */
#define IB_JOB_SIZE_MAX 2048

#endif
