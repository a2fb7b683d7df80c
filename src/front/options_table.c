// SPDX-License-Identifier: GPL-2.0-only
/*
 * The job option table. One entry per option: names, type, where it is
 * stored, range, default (as help shows it), help line and HOWTO category.
 * Engine options are not here: each engine owns its rows (engine.h, struct
 * ib_engine_opts). Help texts are iobench's own words.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "iobench/job_setup.h"
#include "iobench/compiler.h"
#include "iobench/ioerr.h"
#include "iobench/options.h"
#include "iobench/parse.h"
#include "iobench/verify.h"
#include "options_priv.h"

#define FLD(m) .off = offsetof(struct ib_job, m), \
	       .size = sizeof(((struct ib_job *)0)->m)
/* a string member (job.h), values shorter than max */
#define SFLD(m, max) .off = offsetof(struct ib_job, m), .size = (max), \
	       .str_ptr = true
#define SEC 1000000ull
#define MSEC 1000ull

/* ---- custom setters ----------------------------------------------------- */

static const struct ib_opt_val rw_vals[] = {
	{ "read", IB_RW_READ, "sequential reads" },
	{ "write", IB_RW_WRITE, "sequential writes" },
	{ "randread", IB_RW_READ | IB_RW_RAND, "random reads" },
	{ "randwrite", IB_RW_WRITE | IB_RW_RAND, "random writes" },
	{ "rw", IB_RW_READ | IB_RW_WRITE, "sequential mixed reads and writes" },
	{ "readwrite", IB_RW_READ | IB_RW_WRITE, NULL },
	{ "randrw", IB_RW_READ | IB_RW_WRITE | IB_RW_RAND, "random mixed reads and writes" },
	{ "trim", IB_RW_TRIM, "sequential trims (discard, punched holes)" },
	{ "randtrim", IB_RW_TRIM | IB_RW_RAND, "random trims" },
	{ "trimwrite", IB_RW_TRIM | IB_RW_WRITE, "trim each block, then write it" },
	{ "randtrimwrite", IB_RW_TRIM | IB_RW_WRITE | IB_RW_RAND, "trimwrite at random offsets" },
	{ NULL, 0, NULL },
};

/*
 * rw=TYPE[:N]: N is the offset modifier, a size (negative: backwards) for
 * sequential types, a count of I/Os per random offset for random ones.
 */
static int set_rw_modifier(struct ib_job *j, const char *n, const char *v,
			   struct ib_diag *d)
{
	bool neg = *n == '-';
	uint64_t x;

	if (ib_parse_size(n + neg, j->kb_base, &x, d) || x > INT64_MAX)
		return ib_diag_set(d, EINVAL, "rw=%s: invalid offset modifier '%s'", v, n);
	if (j->rw & IB_RW_RAND) {
		if (neg || x > UINT32_MAX)
			return ib_diag_set(d, EINVAL, "rw=%s: the modifier of a random type is a count of I/Os", v);
		j->rw_seq_nr = (unsigned int)x;
		return 0;
	}
	j->rw_seq_add = neg ? -(int64_t)x : (int64_t)x;
	return 0;
}

static int set_rw(struct ib_job *j, const struct ib_opt *o, const char *v,
		  struct ib_diag *d)
{
	char name[32];
	const char *colon = strchr(v, ':');
	size_t n = colon ? (size_t)(colon - v) : strlen(v);
	unsigned int rw;
	int rc;

	if (n >= sizeof(name))
		return ib_diag_set(d, EINVAL, "rw=%s: invalid value", v);
	memcpy(name, v, n);
	name[n] = '\0';
	rc = ib_opt_enum_lookup(o, name, &rw, d);
	if (rc)
		return rc;
	j->rw = rw;
	j->rw_seq_add = 0;
	j->rw_seq_nr = 0;
	return colon ? set_rw_modifier(j, colon + 1, v, d) : 0;
}

/* replay_skip=read,write,trim,sync: directions left out of a replay. */
static int set_replay_skip(struct ib_job *j, const struct ib_opt *o,
			   const char *v, struct ib_diag *d)
{
	static const char *const names[IB_DDIR_NR] = { "read", "write", "trim", "sync" };
	unsigned int bits = 0, k;
	const char *p = v;
	size_t n;

	while (*p) {
		n = strcspn(p, ",");
		for (k = 0; k < IB_DDIR_NR; k++)
			if (n == strlen(names[k]) && !strncmp(p, names[k], n))
				break;
		if (k == IB_DDIR_NR)
			return ib_diag_set(d, EINVAL,
					   "%s=%s: '%.*s' is not read, write, trim or sync",
					   o->name, v, (int)n, p);
		bits |= 1u << k;
		p += n + (p[n] == ',');
	}
	j->replay.skip = bits;
	return 0;
}

/* One ':'-separated number of a merge_blktrace_* list, > 0. */
static int merge_item(const struct ib_opt *o, const char *v, const char **p,
		      double *x, struct ib_diag *d)
{
	char *end;

	*x = strtod(*p, &end);
	if (end == *p || (*end && *end != ':') || !(*x > 0) || *x > 1e9)
		return ib_diag_set(d, EINVAL, "%s=%s: '%.*s' is not a number greater than 0",
				   o->name, v, (int)strcspn(*p, ":"), *p);
	*p = *end ? end + 1 : end;
	return 0;
}

/* merge_blktrace_scalars=50:100, merge_blktrace_iters=2:1 */
static int set_merge_list(struct ib_job *j, const struct ib_opt *o,
			  const char *v, struct ib_diag *d)
{
	bool iters = !strcmp(o->name, "merge_blktrace_iters");
	const char *p = v;
	unsigned int n = 0;
	double x;
	int rc;

	while (*p) {
		if (n == IB_MERGE_MAX)
			return ib_diag_set(d, E2BIG, "%s: more than %d values", o->name,
					   IB_MERGE_MAX);
		rc = merge_item(o, v, &p, &x, d);
		if (rc)
			return rc;
		if (iters && x != (double)(unsigned int)x)
			return ib_diag_set(d, EINVAL, "%s=%s: %g is not a whole number",
					   o->name, v, x);
		if (iters)
			j->replay.merge_iters[n++] = (unsigned int)x;
		else
			j->replay.merge_scalars[n++] = x;
	}
	if (iters)
		j->replay.merge_nr_iters = n;
	else
		j->replay.merge_nr_scalars = n;
	return 0;
}

/*
 * rwmixread and rwmixwrite set each other; both in one job must sum to 100.
 * "N%" is refused: fio takes it without a word and runs every I/O as a
 * read, whatever N and whichever of the two options.
 */
static int set_rwmix(struct ib_job *j, const struct ib_opt *o, const char *v,
		     struct ib_diag *d)
{
	bool is_read = !strcmp(o->name, "rwmixread");
	const char *other = is_read ? "rwmixwrite" : "rwmixread";
	const char *given = ib_opts_text_get(j->opts_text, j->opts_len, other);
	size_t len = strlen(v);
	int64_t x;
	int rc;

	if (len > 1 && v[len - 1] == '%')
		return ib_diag_set(d, EINVAL,
				   "%s: '%s' is a number without '%%' (%s=%.*s); fio takes '%s' but does 100%% reads",
				   o->name, v, o->name, (int)strcspn(v, "%"), v, v);
	rc = ib_opt_parse_int(o, v, &x, d);
	if (rc)
		return rc;
	if (given) {
		unsigned int read = is_read ? (unsigned int)x : 100u - (unsigned int)x;

		if (read != j->rwmixread)
			return ib_diag_set(d, EINVAL,
					   "%s=%s and %s=%s do not add up to 100",
					   is_read ? o->name : other, is_read ? v : given,
					   is_read ? other : o->name, is_read ? given : v);
	}
	j->rwmixread = is_read ? (unsigned int)x : 100u - (unsigned int)x;
	return 0;
}

/* direct= and buffered= (its negation): an explicit choice, never a default */
static int set_direct(struct ib_job *j, const struct ib_opt *o, const char *v,
		      struct ib_diag *d)
{
	bool b;
	int rc = ib_parse_bool(v, &b, d);

	if (rc) {
		ib_diag_prefix(d, "%s", o->name);
		return rc;
	}
	j->direct = strcmp(o->name, "buffered") ? b : !b;
	j->direct_given = true;
	return 0;
}

/* fio takes linuxaio for libaio (and reports libaio). */
static int set_ioengine(struct ib_job *j, const struct ib_opt *o, const char *v,
			struct ib_diag *d)
{
	if (!strcmp(v, "linuxaio"))
		v = "libaio";
	if (strlen(v) >= IB_ENGINE_NAME_MAX)
		return ib_diag_set(d, ENAMETOOLONG, "%s: value too long", o->name);
	if (ib_opt_set_str(j, o, v, d))
		return -ENOMEM;
	j->ioengine_given = true;
	return 0;
}

static const struct ib_opt_val defaults_vals[] = {
	{ "iobench", IB_DEFAULTS_IOBENCH, "direct=1, ioengine=io_uring (else libaio, else psync), I/Os submitted and reaped in batches up to iodepth" },
	{ "fio", IB_DEFAULTS_FIO, "fio's: direct=0 (buffered), ioengine=psync, iodepth_batch_submit=1, iodepth_batch_complete_max=iodepth_batch_complete_min" },
	{ NULL, 0, NULL },
};

static const struct ib_opt_val filetype_vals[] = {
	{ "none", IB_FILETYPE_NONE, "Whatever each target is (the default)" },
	{ "file", IB_FILETYPE_FILE, "Every target is a regular file (or is created as one)" },
	{ "block", IB_FILETYPE_BLOCK, "Every target is a block device" },
	{ "char", IB_FILETYPE_CHAR, "Character devices: refused, iobench does no I/O to them" },
	{ NULL, 0, NULL },
};

/* filetype=char: fio's type for character devices, which iobench has no I/O for */
static int set_filetype(struct ib_job *j, const struct ib_opt *o, const char *v,
			struct ib_diag *d)
{
	int rc = ib_opt_enum_lookup(o, v, &j->filetype, d);

	if (!rc && j->filetype == IB_FILETYPE_CHAR)
		return ib_diag_set(d, ENOTSUP,
				   "filetype=char: character devices are not supported by iobench (file or block)");
	return rc;
}

/* defaults=: changes direct and ioengine unless they were given */
static int set_defaults(struct ib_job *j, const struct ib_opt *o, const char *v,
			struct ib_diag *d)
{
	bool fio;
	int rc = ib_opt_enum_lookup(o, v, &j->defaults, d);

	if (rc)
		return rc;
	fio = j->defaults == IB_DEFAULTS_FIO;
	if (!j->direct_given)
		j->direct = !fio;
	if (!j->ioengine_given)	/* static text: see ib_job_defaults() */
		j->ioengine = fio ? "psync" : "io_uring";
	return 0;
}

/*
 * The two batch options: given, they replace iobench's batching
 * (validate.c); "auto" is the default again (fio's values with defaults=fio).
 */
static int set_batch(struct ib_job *j, const struct ib_opt *o, const char *v,
		     struct ib_diag *d)
{
	bool submit = o->off == offsetof(struct ib_job, iodepth_batch_submit);
	bool given = strcmp(v, "auto") != 0;
	int64_t x = submit ? 1 : 0;	/* defaults.c's */
	int rc = given ? ib_opt_parse_int(o, v, &x, d) : 0;

	if (rc)
		return rc;
	*(unsigned int *)ib_opt_field(j, o->off) = (unsigned int)x;
	if (submit)
		j->batch_submit_given = given;
	else
		j->batch_complete_max_given = given;
	return 0;
}

/* Any 64-bit seed; turns randrepeat off (fio). */
static int set_randseed(struct ib_job *j, const struct ib_opt *o, const char *v,
			struct ib_diag *d)
{
	uint64_t x;
	int rc = ib_parse_uint(v, &x, d);

	if (rc) {
		ib_diag_prefix(d, "%s", o->name);
		return rc;
	}
	j->randseed = x;
	j->randseed_set = true;
	j->randrepeat = false;
	return 0;
}

/* A bare write_*_log: the logs are named after the job (fio's default). */
static int set_log_prefix(struct ib_job *j, const struct ib_opt *o,
			  const char *v, struct ib_diag *d)
{
	if (strlen(v) >= o->size)
		return ib_diag_set(d, ENAMETOOLONG, "%s: value too long", o->name);
	return ib_opt_set_str(j, o, *v ? v : IB_LOG_JOBNAME, d);
}

/*
 * ignore_error=READ,WRITE,VERIFY: each list given replaces that type's
 * non-fatal errors and, as in fio, turns continue_on_error on for the
 * type; a continue_on_error= given after it sets the bits anew.
 */
static int set_ignore_error(struct ib_job *j, const struct ib_opt *o,
			    const char *v, struct ib_diag *d)
{
	struct ib_err_list *lists = ib_job_tab_copy(j, ib_job_no_ignore_error,
						    sizeof(ib_job_no_ignore_error));
	unsigned int t;
	int rc;

	if (!lists)
		return ib_diag_set(d, ENOMEM, "%s: no memory", o->name);
	rc = ib_ignore_error_parse(v, lists, d);
	if (rc) {
		ib_diag_prefix(d, "%s", o->name);
		return rc;
	}
	j->ignore_error = lists;
	for (t = 0; t < IB_ERR_TYPE_NR; t++) {
		if (lists[t].nr)
			j->continue_on_error |= 1u << t;
	}
	return 0;
}

/*
 * Options fio 3.33 still accepts but has made no-ops (verifysort,
 * verifysort_nr, flow_watermark), or that act only with an option
 * iobench refuses (trim_verify_zero: trim_percentage): the value is
 * checked as fio's type and has no effect, in fio as here.
 */
static int set_deprecated(struct ib_job *j, const struct ib_opt *o,
			  const char *v, struct ib_diag *d)
{
	bool b;
	uint64_t x;
	int rc;

	(void)j;
	if (o->type == IB_OPT_BOOL)	/* fio ignores the value */
		rc = ib_parse_bool_as(true, v, &b, d);
	else
		rc = ib_parse_uint(v, &x, d);
	if (rc)
		ib_diag_prefix(d, "%s", o->name);
	return rc;
}

/*
 * Each filename= adds its files to those the job already has, its own
 * earlier lines' and its global sections' (fio keeps them all).
 */
static int set_filename(struct ib_job *j, const struct ib_opt *o,
			const char *v, struct ib_diag *d)
{
	size_t have = strlen(j->filename);

	if (!*v)
		return ib_diag_set(d, EINVAL, "%s: needs a value", o->name);
	if (have + 1 + strlen(v) >= o->size)
		return ib_diag_set(d, ENAMETOOLONG, "%s: too many file names (at most %zu characters)",
				   o->name, o->size - 1);
	if (!have)
		return ib_opt_set_str(j, o, v, d);
	if (ib_job_set_str(j, &j->filename, "%s:%s", j->filename, v))
		return ib_diag_set(d, ENOMEM, "%s: no memory", o->name);
	return 0;
}

/* ---- value lists -------------------------------------------------------- */

static const struct ib_opt_val coe_vals[] = {
	{ "none", 0, "stop the job at the first error" },
	{ "read", IB_COE_READ, "go on after non-fatal read errors" },
	{ "write", IB_COE_WRITE, "go on after non-fatal write and fsync errors" },
	{ "io", IB_COE_IO, "go on after non-fatal read and write errors" },
	{ "verify", IB_COE_VERIFY, "go on after non-fatal verify errors (EILSEQ)" },
	{ "all", IB_COE_ALL, "go on after any non-fatal error" },
	{ "0", 0, NULL },
	{ "1", IB_COE_ALL, NULL },
	{ NULL, 0, NULL },
};

static const struct ib_opt_val unified_vals[] = {
	{ "none", IB_UNIFIED_NONE, "each direction on its own" },
	{ "mixed", IB_UNIFIED_MIXED, "the directions summed into one \"mixed\" one" },
	{ "both", IB_UNIFIED_BOTH, "each direction, then the mixed one" },
	{ "0", IB_UNIFIED_NONE, NULL },
	{ "1", IB_UNIFIED_MIXED, NULL },
	{ "2", IB_UNIFIED_BOTH, NULL },
	{ NULL, 0, NULL },
};

static const struct ib_opt_val submit_mode_vals[] = {
	{ "inline", 0, "the job process submits and reaps its own I/O" },
	{ "offload", 1, "fio's submission threads (not supported by iobench)" },
	{ NULL, 0, NULL },
};

static const struct ib_opt_val zonemode_vals[] = {
	{ "none", IB_ZONE_NONE, "the region as one, zonesize not allowed" },
	{ "strided", IB_ZONE_STRIDED, "zonesize bytes per zone of zonerange, then zoneskip bytes left out" },
	{ "zbd", IB_ZONE_ZBD, "zoned block devices (not supported by iobench)" },
	{ NULL, 0, NULL },
};

static const struct ib_opt_val sync_vals[] = {
	{ "none", IB_SYNC_IO_NONE, "writes return once the data is in the page cache" },
	{ "0", IB_SYNC_IO_NONE, NULL },
	{ "sync", IB_SYNC_IO_SYNC, "open the files O_SYNC: each write returns once data and metadata are stable" },
	{ "1", IB_SYNC_IO_SYNC, NULL },
	{ "dsync", IB_SYNC_IO_DSYNC, "open the files O_DSYNC: each write returns once its data is stable" },
	{ NULL, 0, NULL },
};

static const struct ib_opt_val fadvise_vals[] = {
	{ "1", IB_FADV_AUTO, "advise sequential or random access, as rw= does" },
	{ "0", IB_FADV_NONE, "give no advice" },
	{ "sequential", IB_FADV_SEQ, "advise sequential access" },
	{ "random", IB_FADV_RAND, "advise random access" },
	{ "noreuse", IB_FADV_NOREUSE, "advise the data will be accessed once (POSIX_FADV_NOREUSE; an LRU hint since Linux 6.3)" },
	{ NULL, 0, NULL },
};

static const struct ib_opt_val dedupe_vals[] = {
	{ "repeat", IB_DEDUPE_REPEAT, "a duplicate repeats the last unique write's data" },
	{ "working_set", IB_DEDUPE_WORKING_SET,
	  "a duplicate repeats one of the job's first unique writes (size * dedupe_working_set_percentage / 100 / bs of them), drawn uniformly" },
	{ NULL, 0, NULL },
};

static const struct ib_opt_val window_vals[] = {
	{ "avg", 0, "the window's mean" },
	{ "0", 0, NULL },
	{ "max", 1, "the window's maximum" },
	{ "1", 1, NULL },
	{ "both", 2, "the mean, then the maximum (one more column)" },
	{ NULL, 0, NULL },
};

static const struct ib_opt_val falloc_vals[] = {
	{ "native", IB_FALLOC_NATIVE, "fallocate(2), nothing where it is not supported" },
	{ "none", IB_FALLOC_NONE, "no pre-allocation: the writes grow the file" },
	{ "posix", IB_FALLOC_POSIX, "posix_fallocate(3)" },
	{ "keep", IB_FALLOC_KEEP, "fallocate(2) with FALLOC_FL_KEEP_SIZE" },
	{ "truncate", IB_FALLOC_TRUNCATE, "extend with ftruncate(2) only" },
	{ "0", IB_FALLOC_NONE, NULL },
	{ "1", IB_FALLOC_POSIX, NULL },
	{ NULL, 0, NULL },
};

static const struct ib_opt_val cpus_policy_vals[] = {
	{ "shared", IB_CPUS_SHARED, "every job may run on all the CPUs of the set" },
	{ "split", IB_CPUS_SPLIT, "each job runs on one CPU of the set" },
	{ NULL, 0, NULL },
};

static const struct ib_opt_val exit_what_vals[] = {
	{ "group", IB_EXIT_GROUP, "end the running jobs of the job's group" },
	{ "stonewall", IB_EXIT_STONEWALL, "end every running job, then go on with the next stonewall" },
	{ "all", IB_EXIT_ALL, "end every running job and the run" },
	{ NULL, 0, NULL },
};

static const struct ib_opt_val iolog_version_vals[] = {
	{ "3", 3, "with the time of each I/O (fio 3.x)" },
	{ "2", 2, "without times (fio 2.x and older tools)" },
	{ NULL, 0, NULL },
};

static const struct ib_opt_val kb_base_vals[] = {
	{ "1024", 1024, "k/m/g are powers of 1024 (kib/mib: powers of 1000)" },
	{ "1000", 1000, "k/m/g are powers of 1000 (kib/mib: powers of 1024)" },
	{ NULL, 0, NULL },
};

static const struct ib_opt_val unit_base_vals[] = {
	{ "0", 8, "automatic: bytes" },
	{ "8", 8, "report in bytes" },
	{ "1", 1, "report in bits" },
	{ NULL, 0, NULL },
};

static const struct ib_opt_val rate_process_vals[] = {
	{ "linear", 0, "fixed gaps between I/Os" },
	{ "poisson", 1, "exponential gaps (Poisson arrivals) with the same mean" },
	{ NULL, 0, NULL },
};

static const struct ib_opt_val rate_mode_vals[] = {
	{ "open", 0, "issue on schedule whatever is in flight; latency also from the due time" },
	{ "closed", 1, "fio's: drain what is in flight before waiting for the next due time" },
	{ NULL, 0, NULL },
};

static const struct ib_opt_val think_type_vals[] = {
	{ "complete", 0, "count completed blocks" },
	{ "issue", 1, "count issued blocks" },
	{ NULL, 0, NULL },
};

static const struct ib_opt_val verify_vals[] = {
	{ "0", IB_VERIFY_NONE, "no verification" },
	{ "md5", IB_VERIFY_MD5, "MD5 of each block's payload" },
	{ "crc64", IB_VERIFY_CRC64, "CRC-64 (Jones polynomial, reflected, as fio)" },
	{ "crc32c", IB_VERIFY_CRC32C, "CRC-32C (Castagnoli), hardware where there is one" },
	{ "crc32c-intel", IB_VERIFY_CRC32C, "same as crc32c" },
	{ "crc32", IB_VERIFY_CRC32, "CRC-32 (IEEE)" },
	{ "crc16", IB_VERIFY_CRC16, "CRC-16/ARC (as fio)" },
	{ "crc7", IB_VERIFY_CRC7, "CRC-7/MMC (as fio)" },
	{ "xxhash", IB_VERIFY_XXHASH, "XXH32" },
	{ "sha1", IB_VERIFY_SHA1, "SHA-1" },
	{ "sha256", IB_VERIFY_SHA256, "SHA-256" },
	{ "sha512", IB_VERIFY_SHA512, "SHA-512" },
	{ "sha3-224", IB_VERIFY_SHA3_224, "SHA3-224" },
	{ "sha3-256", IB_VERIFY_SHA3_256, "SHA3-256" },
	{ "sha3-384", IB_VERIFY_SHA3_384, "SHA3-384" },
	{ "sha3-512", IB_VERIFY_SHA3_512, "SHA3-512" },
	{ "meta", IB_VERIFY_META, "the header only (offset, numberio, ...), no checksum" },
	{ "pattern", IB_VERIFY_PATTERN_NO_HDR, "verify_pattern only, no header" },
	{ "pattern_hdr", IB_VERIFY_PATTERN, "a header, then verify_pattern (fio 3.42's name for what verify_pattern alone implies)" },
	{ "null", IB_VERIFY_NULL, "pretend: write and read back, check nothing (fio's null)" },
	{ NULL, 0, NULL },
};

static const struct ib_opt_val clocksource_vals[] = {
	{ "cpu", IB_CLK_CPU, "the CPU's invariant TSC where there is one (iobench's default)" },
	{ "clock_gettime", IB_CLK_CLOCK_GETTIME, "clock_gettime(CLOCK_MONOTONIC) per reading" },
	{ "gettimeofday", IB_CLK_GETTIMEOFDAY, "as clock_gettime (CLOCK_MONOTONIC, nanoseconds)" },
	{ NULL, 0, NULL },
};

/* ---- the table ---------------------------------------------------------- */

const struct ib_opt ib_opt_entries[] = {
	/* job description */
	{ .name = "name", .type = IB_OPT_STR, .cat = IB_CAT_DESC, SFLD(name, IB_NAME_MAX),
	  .help = "Job name; on the command line --name starts a new job" },
	{ .name = "description", .type = IB_OPT_STR, .cat = IB_CAT_DESC,
	  SFLD(description, IB_NAME_MAX), .help = "Free text describing the job" },

	/* files */
	{ .name = "filename", .type = IB_OPT_STR, .cat = IB_CAT_FILE, SFLD(filename, IB_PATHS_MAX),
	  .set = set_filename, .adds = true,
	  .help = "Target file(s) or device(s), ':' separated ('\\:' for a colon); each line adds" },
	{ .name = "filename_format", .type = IB_OPT_STR, .cat = IB_CAT_FILE,
	  SFLD(filename_format, IB_NAME_MAX),
	  .help = "Default file names (default $jobname.$jobnum.$filenum; $clientuid is empty)" },
	{ .name = "directory", .type = IB_OPT_STR, .cat = IB_CAT_FILE, SFLD(directory, PATH_MAX),
	  .help = "Directory for the job's default file names" },
	{ .name = "opendir", .type = IB_OPT_STR, .cat = IB_CAT_FILE, SFLD(opendir, PATH_MAX),
	  .help = "The job's files: every regular file below this directory, subdirectories too" },
	{ .name = "nrfiles", .alias = { "nr_files" }, .type = IB_OPT_UINT, .cat = IB_CAT_FILE, FLD(nrfiles),
	  .min = 1, .max = 65536, .def = "1", .help = "Number of files per job" },
	{ .name = "filesize", .type = IB_OPT_SIZE_RANGE, .cat = IB_CAT_FILE,
	  FLD(filesize_min), .off2 = offsetof(struct ib_job, filesize_max),
	  .help = "Size of each file (or a range a-b); default size/nrfiles" },
	{ .name = "fill_device", .alias = { "fill_fs" }, .type = IB_OPT_BOOL,
	  .cat = IB_CAT_FILE, FLD(fill_device), .def = "0",
	  .help = "Write until the device or file system is full: ENOSPC ends the writes without an error; without size=, each file goes on until the file system is full" },
	{ .name = "unique_filename", .type = IB_OPT_BOOL, .cat = IB_CAT_FILE,
	  FLD(unique_filename), .def = "1",
	  .help = "fio's client/server mode prefixes file names with the client's address; a local run, as iobench's, has no prefix either way" },
	{ .name = "create_on_open", .type = IB_OPT_BOOL, .cat = IB_CAT_FILE,
	  FLD(create_on_open), .def = "0", .help = "Create files when opened for I/O, not before" },
	{ .name = "filetype", .type = IB_OPT_ENUM, .cat = IB_CAT_FILE,
	  FLD(filetype), .vals = filetype_vals, .set = set_filetype, .def = "none",
	  .help = "What every target must be (file, block); checked before anything is written" },
	{ .name = "unlink", .type = IB_OPT_BOOL, .cat = IB_CAT_FILE, FLD(unlink),
	  .def = "0", .help = "Delete the job's files when it is done" },
	{ .name = "unlink_each_loop", .type = IB_OPT_BOOL, .cat = IB_CAT_FILE,
	  FLD(unlink_each_loop), .def = "0",
	  .help = "Delete the job's files after each loop; the next one recreates them" },
	{ .name = "allow_mounted_write", .type = IB_OPT_BOOL, .cat = IB_CAT_FILE,
	  FLD(allow_mounted_write), .def = "0",
	  .help = "Allow writes to a block device that is mounted" },
	{ .name = "overwrite", .type = IB_OPT_BOOL, .cat = IB_CAT_FILE,
	  FLD(overwrite), .def = "0", .help = "Lay out files fully before writing into them" },

	{ .name = "invalidate", .type = IB_OPT_BOOL, .cat = IB_CAT_FILE,
	  FLD(invalidate), .def = "1",
	  .help = "Drop the job's cached pages before it starts (fadvise, BLKFLSBUF)" },
	{ .name = "fadvise_hint", .type = IB_OPT_ENUM, .cat = IB_CAT_FILE,
	  FLD(fadvise_hint), .vals = fadvise_vals, .def = "1",
	  .help = "posix_fadvise() the access pattern" },
	{ .name = "pre_read", .type = IB_OPT_BOOL, .cat = IB_CAT_FILE,
	  FLD(pre_read), .def = "0",
	  .help = "Read the job's region into the page cache before it starts (no invalidate)" },
	{ .name = "fallocate", .type = IB_OPT_ENUM, .cat = IB_CAT_FILE,
	  FLD(fallocate), .vals = falloc_vals, .def = "native",
	  .help = "How laying out a file allocates its space" },
	{ .name = "create_only", .type = IB_OPT_BOOL, .cat = IB_CAT_FILE,
	  FLD(create_only), .def = "0", .help = "Only lay the files out, do no I/O" },
	{ .name = "create_serialize", .type = IB_OPT_BOOL, .cat = IB_CAT_FILE,
	  FLD(create_serialize), .def = "1",
	  .help = "Lay files out one job after another (0: all such jobs at once)" },
	{ .name = "create_fsync", .type = IB_OPT_BOOL, .cat = IB_CAT_FILE,
	  FLD(create_fsync), .def = "1", .help = "fsync a file after laying it out" },
	{ .name = "allow_file_create", .type = IB_OPT_BOOL, .cat = IB_CAT_FILE,
	  FLD(allow_file_create), .def = "1",
	  .help = "Create missing files (0: a missing file is an error)" },
	{ .name = "file_append", .type = IB_OPT_BOOL, .cat = IB_CAT_FILE,
	  FLD(file_append), .def = "0",
	  .help = "Do the I/O after the end of each regular file" },
	{ .name = "fsync_on_close", .type = IB_OPT_BOOL, .cat = IB_CAT_FILE,
	  FLD(fsync_on_close), .def = "0", .help = "fsync written files when closing them" },
	{ .name = "file_service_type", .type = IB_OPT_STR, .cat = IB_CAT_FILE,
	  .size = 64, .set = ib_opt_set_file_service, .def = "roundrobin",
	  .help = "Which file is next: roundrobin[:N], sequential, random[:N], zipf:theta, pareto:h, normal:dev" },
	{ .name = "openfiles", .type = IB_OPT_UINT, .cat = IB_CAT_FILE,
	  FLD(openfiles), .min = 1,
	  .help = "At most this many of the job's files open at once (default: all)" },

	/* I/O type */
	{ .name = "rw", .alias = { "readwrite" }, .type = IB_OPT_ENUM,
	  .cat = IB_CAT_IOTYPE, FLD(rw), .vals = rw_vals, .set = set_rw,
	  .def = "read", .help = "I/O pattern" },
	{ .name = "rw_sequencer", .type = IB_OPT_STR, .cat = IB_CAT_IOTYPE,
	  .size = 16, .set = ib_opt_set_rw_sequencer, .def = "sequential",
	  .help = "With rw=randTYPE:N: the N I/Os follow each other (sequential) or repeat the offset (identical)" },
	{ .name = "rwmixread", .type = IB_OPT_UINT, .cat = IB_CAT_IOTYPE,
	  FLD(rwmixread), .min = 0, .max = 100, .set = set_rwmix, .def = "50",
	  .help = "Percentage of reads in a mixed workload" },
	{ .name = "rwmixwrite", .type = IB_OPT_UINT, .cat = IB_CAT_IOTYPE,
	  FLD(rwmixread), .min = 0, .max = 100, .set = set_rwmix, .def = "50",
	  .help = "Percentage of writes in a mixed workload" },
	{ .name = "defaults", .type = IB_OPT_ENUM, .cat = IB_CAT_IOTYPE,
	  FLD(defaults), .vals = defaults_vals, .set = set_defaults,
	  .def = "iobench",
	  .help = "Defaults of direct and ioengine when not given: iobench's or fio's" },
	{ .name = "direct", .type = IB_OPT_BOOL, .cat = IB_CAT_IOTYPE, FLD(direct),
	  .set = set_direct, .def = "1",
	  .help = "Use O_DIRECT (bypass the page cache); if only the default, buffered where the target cannot" },
	{ .name = "sync", .type = IB_OPT_ENUM, .cat = IB_CAT_IOTYPE, FLD(sync_io),
	  .vals = sync_vals, .def = "none", .help = "Synchronous writes (O_SYNC, O_DSYNC)" },
	{ .name = "buffered", .type = IB_OPT_BOOL, .cat = IB_CAT_IOTYPE,
	  FLD(direct), .set = set_direct, .def = "0",
	  .help = "Use buffered I/O (buffered=0 is direct=1)" },
	{ .name = "randrepeat", .alias = { "rand_repeatable" }, .type = IB_OPT_BOOL, .cat = IB_CAT_IOTYPE,
	  FLD(randrepeat), .def = "1",
	  .help = "Same random sequence on every run" },
	{ .name = "randseed", .type = IB_OPT_U64, .cat = IB_CAT_IOTYPE,
	  FLD(randseed), .set = set_randseed,
	  .help = "Seed of the random generators (turns randrepeat off)" },
	{ .name = "norandommap", .type = IB_OPT_BOOL, .any_int = true, .cat = IB_CAT_IOTYPE,
	  FLD(norandommap), .set = ib_opt_set_norandommap, .def = "0",
	  .help = "Random offsets with replacement (no block coverage map)" },
	{ .name = "softrandommap", .type = IB_OPT_BOOL, .any_int = true, .cat = IB_CAT_IOTYPE,
	  FLD(softrandommap), .def = "0",
	  .help = "Without memory for a file's random map, go on without it (a warning), not fail" },
	{ .name = "sprandom", .type = IB_OPT_BOOL, .cat = IB_CAT_IOTYPE,
	  FLD(sprandom), .def = "0",
	  .help = "Precondition for steady-state random writes: the whole physical capacity once, regions invalidated as at steady state (fio 3.42)" },
	{ .name = "spr_num_regions", .type = IB_OPT_UINT, .cat = IB_CAT_IOTYPE,
	  FLD(spr_regions), .min = 1, .max = 1000000, .def = "100",
	  .help = "sprandom: number of regions" },
	{ .name = "spr_op", .type = IB_OPT_STR, .cat = IB_CAT_IOTYPE,
	  .size = 32, .set = ib_opt_set_spr_op, .def = "0.15",
	  .help = "sprandom: over-provisioning ratio of the device, in (0, 1)" },
	{ .name = "spr_cs", .type = IB_OPT_SIZE, .cat = IB_CAT_IOTYPE,
	  FLD(spr_cs), .def = "0",
	  .help = "sprandom: device cache bytes; non-zero: invalidating writes one region later" },
	{ .name = "random_distribution", .type = IB_OPT_STR, .cat = IB_CAT_IOTYPE,
	  .size = 4096, .set = ib_opt_set_random_distribution, .def = "random",
	  .help = "Random offsets: random, zipf:theta, pareto:h, normal:dev[:center], zoned:pct/size%:..., zoned_abs:pct/size:..." },
	{ .name = "percentage_random", .type = IB_OPT_STR, .cat = IB_CAT_IOTYPE,
	  .size = 64, .set = ib_opt_set_pct_random, .def = "100",
	  .help = "Percentage of a random job's I/Os that are random (the rest follow on), per direction with ','" },
	{ .name = "random_generator", .type = IB_OPT_STR, .cat = IB_CAT_IOTYPE,
	  .size = 32, .set = ib_opt_set_random_generator, .def = "tausworthe",
	  .help = "Random generator: tausworthe (fio's, with the random map), tausworthe64 (64-bit draws), lfsr (a permutation, no map)" },
	{ .name = "allrandrepeat", .type = IB_OPT_BOOL, .cat = IB_CAT_IOTYPE,
	  FLD(allrandrepeat), .def = "0",
	  .help = "Every random stream repeats from run to run (as randrepeat)" },
	{ .name = "offset", .alias = { "fileoffset" }, .type = IB_OPT_SIZE_PCT, .cat = IB_CAT_IOTYPE,
	  FLD(offset), .off2 = offsetof(struct ib_job, offset_pct), .def = "0",
	  .help = "Start I/O at this offset (or N% of the file)" },
	{ .name = "offset_align", .type = IB_OPT_SIZE, .cat = IB_CAT_IOTYPE,
	  FLD(offset_align), .def = "0",
	  .help = "offset=N%: align the offset up to this (0: the smallest block size)" },
	{ .name = "offset_increment", .type = IB_OPT_SIZE_PCT, .cat = IB_CAT_IOTYPE,
	  FLD(offset_increment), .off2 = offsetof(struct ib_job, offset_increment_pct),
	  .def = "0", .help = "Added to offset for each clone (numjobs; or N% of the file)" },
	{ .name = "zonemode", .type = IB_OPT_ENUM, .cat = IB_CAT_IOTYPE,
	  FLD(zone.mode), .vals = zonemode_vals, .def = "none",
	  .help = "strided: I/O in zones of the file (zonesize, zonerange, zoneskip)" },
	{ .name = "zonesize", .type = IB_OPT_SIZE, .cat = IB_CAT_IOTYPE,
	  FLD(zone.size), .def = "0",
	  .help = "zonemode=strided: bytes of I/O in a zone before the next one" },
	{ .name = "zonerange", .type = IB_OPT_SIZE, .cat = IB_CAT_IOTYPE,
	  FLD(zone.range), .def = "0",
	  .help = "zonemode=strided: the size of a zone (default zonesize)" },
	{ .name = "zoneskip", .type = IB_OPT_SIZE, .cat = IB_CAT_IOTYPE,
	  FLD(zone.skip), .def = "0",
	  .help = "zonemode=strided: bytes left out between one zone and the next" },

	/* block size */
	{ .name = "bs", .alias = { "blocksize" }, .type = IB_OPT_BS_LIST,
	  .cat = IB_CAT_BS, FLD(bs.min), .off2 = offsetof(struct ib_job, bs.max),
	  .def = "4k", .help = "Block size, or read,write[,trim] sizes" },
	{ .name = "bsrange", .alias = { "blocksize_range" },
	  .type = IB_OPT_BSRANGE_LIST, .cat = IB_CAT_BS, FLD(bs.min),
	  .off2 = offsetof(struct ib_job, bs.max),
	  .help = "Block size range min-max, per direction with ','" },
	{ .name = "blockalign", .alias = { "ba" }, .type = IB_OPT_BS_LIST,
	  .cat = IB_CAT_BS, FLD(bs.align),
	  .help = "Align offsets to this (default: the minimum block size)" },
	{ .name = "bssplit", .type = IB_OPT_STR, .cat = IB_CAT_BS,
	  .size = 2048, .set = ib_opt_set_bssplit,
	  .help = "Weighted block sizes bs/pct:bs/pct, per direction with ','" },
	{ .name = "bs_unaligned", .alias = { "blocksize_unaligned" }, .any_int = true,
	  .type = IB_OPT_BOOL, .cat = IB_CAT_BS, FLD(bs_unaligned), .def = "0",
	  .help = "Block sizes in a range need not be multiples of the minimum" },

	/* buffers */
	{ .name = "zero_buffers", .type = IB_OPT_BOOL, .any_int = true, .cat = IB_CAT_BUF,
	  FLD(zero_buffers), .def = "0", .help = "Write zeroes" },
	{ .name = "refill_buffers", .type = IB_OPT_BOOL, .any_int = true, .cat = IB_CAT_BUF,
	  FLD(refill_buffers), .def = "0", .help = "New random data for every write" },
	{ .name = "scramble_buffers", .type = IB_OPT_BOOL, .cat = IB_CAT_BUF,
	  FLD(scramble_buffers), .set = ib_opt_set_scramble, .def = "1",
	  .help = "Stamp every 512 bytes of each write to defeat deduplication" },
	{ .name = "buffer_pattern", .type = IB_OPT_STR, .cat = IB_CAT_BUF,
	  SFLD(buffer_pattern, IB_PATTERN_TEXT_MAX), .set = ib_opt_set_buffer_pattern,
	  .help = "Write this pattern (0xhex, \"text\", decimal; back to back)" },
	{ .name = "buffer_compress_percentage", .type = IB_OPT_UINT,
	  .cat = IB_CAT_BUF, FLD(compress_pct), .min = 0, .max = 100, .def = "0",
	  .help = "Write data that compresses by this much (random then fixed bytes per chunk)" },
	{ .name = "buffer_compress_chunk", .type = IB_OPT_SIZE, .cat = IB_CAT_BUF,
	  FLD(compress_chunk), .def = "512",
	  .help = "Size of each random+fixed chunk of buffer_compress_percentage (0: the block)" },
	{ .name = "dedupe_percentage", .type = IB_OPT_UINT, .cat = IB_CAT_BUF,
	  FLD(dedupe_pct), .min = 0, .max = 100, .def = "0",
	  .help = "Percentage of writes that repeat the previous unique buffer" },
	{ .name = "dedupe_mode", .type = IB_OPT_ENUM, .cat = IB_CAT_BUF,
	  FLD(dedupe_mode), .vals = dedupe_vals, .def = "repeat",
	  .help = "Which earlier data a duplicate write repeats" },
	{ .name = "dedupe_working_set_percentage", .type = IB_OPT_UINT,
	  .cat = IB_CAT_BUF, FLD(dedupe_ws_pct), .min = 0, .max = 100, .def = "5",
	  .help = "dedupe_mode=working_set: the working set, in percent of size" },
	{ .name = "dedupe_global", .type = IB_OPT_BOOL, .cat = IB_CAT_BUF,
	  FLD(dedupe_global), .def = "0",
	  .help = "dedupe_mode=working_set: the working set spread over all the jobs' first unique writes" },
	{ .name = "iomem", .alias = { "mem" }, .type = IB_OPT_STR, .cat = IB_CAT_BUF,
	  SFLD(iomem_file, IB_NAME_MAX), .set = ib_opt_set_iomem, .def = "malloc",
	  .help = "I/O buffers from malloc, shm (SysV), mmap[:FILE] or mmapshared" },
	{ .name = "lockmem", .type = IB_OPT_SIZE, .cat = IB_CAT_BUF, FLD(lockmem),
	  .def = "0", .help = "mlock this much memory while the job runs" },

	/* I/O size */
	{ .name = "size", .type = IB_OPT_SIZE_PCT, .cat = IB_CAT_IOSIZE, FLD(size),
	  .off2 = offsetof(struct ib_job, size_pct),
	  .help = "Total bytes of I/O per job (or N% of the file/device)" },
	{ .name = "io_size", .alias = { "io_limit" }, .type = IB_OPT_SIZE_PCT,
	  .cat = IB_CAT_IOSIZE, FLD(io_size),
	  .off2 = offsetof(struct ib_job, io_size_pct),
	  .help = "Bytes of I/O to do, if different from size (or N% of the files' regions)" },
	{ .name = "number_ios", .type = IB_OPT_U64, .cat = IB_CAT_IOSIZE,
	  FLD(number_ios), .def = "0",
	  .help = "End a size-based job after this many I/Os if its size is not done first" },
	{ .name = "loops", .type = IB_OPT_UINT, .cat = IB_CAT_IOSIZE, FLD(loops),
	  .min = 1, .def = "1", .help = "Repeat the job this many times" },

	/* engine */
	{ .name = "ioengine", .type = IB_OPT_STR, .cat = IB_CAT_ENGINE, SFLD(ioengine, IB_ENGINE_NAME_MAX),
	  .set = set_ioengine, .def = "io_uring",
	  .help = "I/O engine (see --enghelp); if only the default, libaio then psync where io_uring is refused" },

	/* depth */
	{ .name = "iodepth", .type = IB_OPT_UINT, .cat = IB_CAT_DEPTH, FLD(iodepth),
	  .min = 1, .max = 65536, .def = "1", .help = "I/Os kept in flight" },
	{ .name = "io_submit_mode", .type = IB_OPT_ENUM, .cat = IB_CAT_ENGINE,
	  FLD(submit_offload), .vals = submit_mode_vals, .def = "inline",
	  .help = "inline: the job submits its own I/O (offload: fio's submission threads, not supported)" },
	{ .name = "iodepth_batch_submit", .alias = { "iodepth_batch" },
	  .type = IB_OPT_UINT, .cat = IB_CAT_DEPTH, FLD(iodepth_batch_submit),
	  .set = set_batch, .min = 0, .max = 65536,
	  .def = "auto",
	  .help = "Submit once this many I/Os are queued (0: iodepth; auto: all that a refill queues in one call, or each I/O in its own where the run measures that faster; defaults=fio: 1)" },
	{ .name = "iodepth_batch_complete_min", .alias = { "iodepth_batch_complete" },
	  .type = IB_OPT_UINT, .cat = IB_CAT_DEPTH, FLD(iodepth_batch_complete_min),
	  .min = 0, .max = 65536, .def = "1",
	  .help = "Wait for at least this many completions (0: poll)" },
	{ .name = "iodepth_batch_complete_max", .type = IB_OPT_UINT,
	  .cat = IB_CAT_DEPTH, FLD(iodepth_batch_complete_max), .set = set_batch,
	  .min = 0, .max = 65536,
	  .def = "auto",
	  .help = "Reap at most this many completions at once (0: iodepth_batch_complete_min; auto: iodepth, 1 while auto submits each I/O in its own call; defaults=fio: iodepth_batch_complete_min)" },
	{ .name = "iodepth_low", .type = IB_OPT_UINT, .cat = IB_CAT_DEPTH,
	  FLD(iodepth_low), .min = 0, .max = 65536,
	  .help = "When full, drain to this depth before refilling (default: iodepth)" },
	{ .name = "serialize_overlap", .type = IB_OPT_BOOL, .cat = IB_CAT_DEPTH,
	  FLD(serialize_overlap), .def = "0",
	  .help = "Hold an I/O while an overlapping one is in flight and either writes (always on for verifying writes)" },

	/* time */
	{ .name = "time_based", .type = IB_OPT_BOOL, .any_int = true, .cat = IB_CAT_TIME,
	  FLD(time_based), .def = "0", .help = "Run for runtime even when size is done" },
	{ .name = "runtime", .alias = { "timeout" }, .type = IB_OPT_TIME,
	  .cat = IB_CAT_TIME, FLD(runtime_us), .unit_us = SEC,
	  .help = "Stop the job after this long (seconds by default)" },
	{ .name = "ramp_time", .type = IB_OPT_TIME, .cat = IB_CAT_TIME,
	  FLD(ramp_time_us), .unit_us = SEC,
	  .help = "Run this long before measuring (seconds by default)" },
	{ .name = "ramp_size", .type = IB_OPT_SIZE, .cat = IB_CAT_TIME,
	  FLD(ramp_size), .def = "0",
	  .help = "Do this many bytes of I/O before measuring (checked once a second, as fio)" },
	{ .name = "startdelay", .type = IB_OPT_TIME, .cat = IB_CAT_TIME,
	  FLD(startdelay_us), .unit_us = SEC,
	  .help = "Wait this long before starting (seconds by default)" },

	/* rate control and think time (pace.h) */
	{ .name = "rate", .type = IB_OPT_BS_LIST, .cat = IB_CAT_TIME, FLD(rate.bps),
	  .set = ib_opt_set_rate_list, .def = "0",
	  .help = "Bandwidth cap per job in bytes/s, read,write,trim (0: none)" },
	{ .name = "rate_iops", .type = IB_OPT_BS_LIST, .cat = IB_CAT_TIME,
	  FLD(rate.iops), .set = ib_opt_set_rate_list, .def = "0",
	  .help = "I/Os per second per job, read,write,trim (0: none)" },
	{ .name = "rate_min", .alias = { "ratemin" }, .type = IB_OPT_BS_LIST,
	  .cat = IB_CAT_TIME, FLD(rate.min_bps), .set = ib_opt_set_rate_list, .def = "0",
	  .help = "Fail the job below this bandwidth (bytes/s) over a rate_cycle" },
	{ .name = "rate_iops_min", .type = IB_OPT_BS_LIST, .cat = IB_CAT_TIME,
	  FLD(rate.min_iops), .set = ib_opt_set_rate_list, .def = "0",
	  .help = "Fail the job below this many IOPS over a rate_cycle" },
	{ .name = "rate_process", .type = IB_OPT_ENUM, .cat = IB_CAT_TIME,
	  FLD(rate.process), .vals = rate_process_vals, .def = "linear",
	  .help = "How the due times of a rate are spread" },
	{ .name = "rate_mode", .type = IB_OPT_ENUM, .cat = IB_CAT_TIME,
	  FLD(rate.mode), .vals = rate_mode_vals, .def = "open",
	  .help = "With a rate: open loop (iobench) or closed loop (fio)" },
	{ .name = "rate_cycle", .alias = { "ratecycle" }, .type = IB_OPT_UINT,
	  .cat = IB_CAT_TIME, FLD(rate.cycle_ms), .min = 1, .def = "1000",
	  .help = "Window of the rate_min check, in ms" },
	{ .name = "rate_late", .type = IB_OPT_TIME, .cat = IB_CAT_TIME,
	  FLD(rate.late_us), .unit_us = 1, .def = "1000",
	  .help = "An I/O started more than this after its due time counts as late (us by default)" },
	{ .name = "rate_spin", .type = IB_OPT_TIME, .cat = IB_CAT_TIME,
	  FLD(rate.spin_us), .unit_us = 1, .def = "0",
	  .help = "Poll instead of sleeping for the last of each wait for a due time, for starts without a wake-up's delay on an idle machine (us by default; costs CPU)" },
	{ .name = "rate_ignore_thinktime", .type = IB_OPT_BOOL, .cat = IB_CAT_TIME,
	  FLD(rate.ignore_thinktime), .def = "0",
	  .help = "Think time moves the rate schedule instead of being caught up" },
	{ .name = "thinktime", .type = IB_OPT_TIME, .cat = IB_CAT_TIME,
	  FLD(rate.thinktime_us), .unit_us = 1, .def = "0",
	  .help = "Stall this long between I/O batches (us by default)" },
	{ .name = "thinktime_spin", .type = IB_OPT_TIME, .cat = IB_CAT_TIME,
	  FLD(rate.thinktime_spin_us), .unit_us = 1, .def = "0",
	  .help = "Busy part of thinktime (us by default)" },
	{ .name = "thinkcycles", .type = IB_OPT_U64, .cat = IB_CAT_TIME,
	  FLD(rate.thinkcycles), .max = 4294967295LL, .def = "0",
	  .help = "Busy-loop this many cycles after each I/O before the next (an application's processing)" },
	{ .name = "thinktime_blocks", .type = IB_OPT_U64, .cat = IB_CAT_TIME,
	  FLD(rate.thinktime_blocks), .set = ib_opt_set_think_blocks, .def = "1",
	  .help = "Blocks between think-time stalls" },
	{ .name = "thinktime_blocks_type", .type = IB_OPT_ENUM, .cat = IB_CAT_TIME,
	  FLD(rate.thinktime_blocks_type), .vals = think_type_vals, .def = "complete",
	  .help = "What thinktime_blocks counts" },
	{ .name = "thinktime_iotime", .type = IB_OPT_TIME, .cat = IB_CAT_TIME,
	  FLD(rate.thinktime_iotime_us), .unit_us = SEC, .def = "0",
	  .help = "Stall after this much I/O time (seconds by default)" },

	{ .name = "max_latency", .type = IB_OPT_BS_LIST, .cat = IB_CAT_TIME,
	  FLD(rate.max_latency_us), .set = ib_opt_set_rate_list, .def = "0",
	  .help = "Fail the job (ETIMEDOUT) when an I/O takes longer (us by default; from its due time with a rate in open loop)" },

	{ .name = "latency_target", .type = IB_OPT_TIME, .cat = IB_CAT_TIME,
	  FLD(rate.latency_target_us), .unit_us = 1, .def = "0",
	  .help = "Find the highest iodepth whose latency meets this target (us by default)" },
	{ .name = "latency_window", .type = IB_OPT_TIME, .cat = IB_CAT_TIME,
	  FLD(rate.latency_window_us), .unit_us = 1, .def = "0",
	  .help = "Length of each window of the latency_target search (us by default)" },
	{ .name = "latency_percentile", .type = IB_OPT_U64, .cat = IB_CAT_TIME,
	  FLD(rate.latency_percentile), .set = ib_opt_set_lat_pct, .def = "100",
	  .help = "Share of a window's I/Os that must meet latency_target, percent" },
	{ .name = "latency_run", .type = IB_OPT_BOOL, .cat = IB_CAT_TIME,
	  FLD(rate.latency_run), .def = "0",
	  .help = "Keep adjusting the depth for the whole run instead of stopping at the answer" },
	{ .name = "steadystate", .alias = { "ss" }, .type = IB_OPT_STR, .cat = IB_CAT_TIME,
	  .size = 64, .set = ib_opt_set_ss, .def = "iops_slope:0.01%",
	  .help = "End the job at steady state: iops, iops_slope, bw, bw_slope, lat or lat_slope, ':' and a limit (% or absolute)" },
	{ .name = "steadystate_duration", .alias = { "ss_dur" }, .type = IB_OPT_TIME,
	  .cat = IB_CAT_TIME, FLD(ss_dur_us), .unit_us = 1000000, .def = "0",
	  .help = "Window of samples the steady-state criterion covers, a multiple of ss_interval (s by default; 0: off)" },
	{ .name = "steadystate_ramp_time", .alias = { "ss_ramp" }, .type = IB_OPT_TIME,
	  .cat = IB_CAT_TIME, FLD(ss_ramp_us), .unit_us = 1000000, .def = "0",
	  .help = "Time before steady-state samples are collected (s by default)" },
	{ .name = "steadystate_check_interval", .alias = { "ss_interval" }, .type = IB_OPT_TIME,
	  .cat = IB_CAT_TIME, FLD(ss_interval_us), .unit_us = 1000000, .def = "1",
	  .help = "Time between steady-state samples, whole seconds (s by default)" },

	/* sync */
	{ .name = "fsync", .type = IB_OPT_UINT, .cat = IB_CAT_IOTYPE,
	  FLD(fsync_every), .def = "0", .help = "fsync after every N writes" },
	{ .name = "fdatasync", .type = IB_OPT_UINT, .cat = IB_CAT_IOTYPE,
	  FLD(fdatasync_every), .def = "0", .help = "fdatasync after every N writes" },
	{ .name = "sync_file_range", .type = IB_OPT_STR, .cat = IB_CAT_IOTYPE,
	  .size = 64, .set = ib_opt_set_sync_file_range,
	  .help = "sync_file_range(2) of what was written since the last sync, every N writes: wait_before,write,wait_after[:N]" },
	{ .name = "end_fsync", .type = IB_OPT_BOOL, .cat = IB_CAT_IOTYPE,
	  FLD(end_fsync), .def = "0", .help = "fsync the files when the job ends" },
	{ .name = "end_syncfs", .type = IB_OPT_BOOL, .cat = IB_CAT_IOTYPE,
	  FLD(end_syncfs), .def = "0",
	  .help = "One syncfs(2) of the files' file system when the job ends, instead of an fsync per file" },

	/* processes and jobs */
	{ .name = "thread", .alias = { "threads" }, .type = IB_OPT_BOOL, .any_int = true, .cat = IB_CAT_PROC, FLD(thread),
	  .def = "0", .help = "Run the job as a thread instead of a process" },
	{ .name = "numjobs", .type = IB_OPT_UINT, .cat = IB_CAT_PROC, FLD(numjobs),
	  .min = 1, .max = 4096, .def = "1",
	  .help = "Run this many clones of the job" },
	{ .name = "stonewall", .alias = { "wait_for_previous" }, .type = IB_OPT_BOOL, .any_int = true,
	  .cat = IB_CAT_PROC, FLD(stonewall), .def = "0",
	  .help = "Wait for the jobs before this one to finish (starts a group)" },
	{ .name = "wait_for", .type = IB_OPT_STR, .cat = IB_CAT_PROC, SFLD(wait_for, IB_NAME_MAX),
	  .help = "Start once the earlier job of this name has finished (same group)" },
	{ .name = "cpus_allowed", .type = IB_OPT_STR, .cat = IB_CAT_PROC,
	  .size = 1024, .set = ib_opt_set_cpus,
	  .help = "CPUs the job may run on, a list such as 0-3,6" },
	{ .name = "cpumask", .type = IB_OPT_STR, .cat = IB_CAT_PROC, .size = 32,
	  .set = ib_opt_set_cpumask,
	  .help = "CPUs the job may run on, as a bit mask (bit N: CPU N)" },
	{ .name = "cpus_allowed_policy", .type = IB_OPT_ENUM, .cat = IB_CAT_PROC,
	  FLD(proc.cpus_policy), .vals = cpus_policy_vals, .def = "shared",
	  .help = "How the jobs share the CPU set" },
	{ .name = "numa_cpu_nodes", .type = IB_OPT_STR, .cat = IB_CAT_PROC,
	  .size = 256, .set = ib_opt_set_numa_nodes,
	  .help = "Run on the CPUs of these NUMA nodes (a list such as 0-1)" },
	{ .name = "numa_mem_policy", .type = IB_OPT_STR, .cat = IB_CAT_PROC,
	  .size = 256, .set = ib_opt_set_mem_policy,
	  .help = "The job's memory policy: default, local, prefer:NODE, bind:NODES or interleave:NODES (NODES a list such as 0-1, or all)" },
	{ .name = "nice", .type = IB_OPT_INT, .cat = IB_CAT_PROC, FLD(proc.nice),
	  .min = -20, .max = 19, .def = "0", .help = "Added to the job's nice value" },
	{ .name = "prio", .type = IB_OPT_UINT, .cat = IB_CAT_PROC, FLD(proc.ioprio),
	  .min = 0, .max = 7, .set = ib_opt_set_ioprio,
	  .help = "I/O priority level (0 highest; class best-effort unless prioclass=)" },
	{ .name = "prioclass", .type = IB_OPT_UINT, .cat = IB_CAT_PROC,
	  FLD(proc.ioprio_class), .min = 0, .max = 3, .set = ib_opt_set_ioprio,
	  .help = "I/O priority class: 1 realtime, 2 best-effort, 3 idle" },
	{ .name = "priohint", .type = IB_OPT_UINT, .cat = IB_CAT_PROC,
	  FLD(proc.ioprio_hint), .min = 0, .max = 1023, .set = ib_opt_set_ioprio,
	  .help = "I/O priority hint (bits 3-12 of the job's ioprio, e.g. a command duration limit index)" },
	{ .name = "ioscheduler", .type = IB_OPT_STR, .cat = IB_CAT_PROC,
	  SFLD(proc.ioscheduler, IB_ENGINE_NAME_MAX),
	  .help = "I/O scheduler of the job's devices for the run (restored after)" },
	{ .name = "exitall", .type = IB_OPT_BOOL, .any_int = true, .cat = IB_CAT_PROC,
	  FLD(proc.exitall), .def = "0",
	  .help = "When this job ends, end the others (see exit_what)" },
	{ .name = "exitall_on_error", .type = IB_OPT_BOOL, .any_int = true, .cat = IB_CAT_PROC,
	  FLD(proc.exitall_on_error), .def = "0",
	  .help = "When this job fails, end the others (see exit_what)" },
	{ .name = "exec_prerun", .type = IB_OPT_STR, .cat = IB_CAT_PROC,
	  SFLD(proc.exec_prerun, IB_EXEC_MAX),
	  .help = "Shell command run before the job's I/O (output: JOB.prerun.txt)" },
	{ .name = "exec_postrun", .type = IB_OPT_STR, .cat = IB_CAT_PROC,
	  SFLD(proc.exec_postrun, IB_EXEC_MAX),
	  .help = "Shell command run after the job's I/O (output: JOB.postrun.txt)" },
	{ .name = "comm", .type = IB_OPT_STR, .cat = IB_CAT_PROC,
	  SFLD(proc.comm, IB_COMM_MAX), .set = ib_opt_set_comm,
	  .help = "Process name of the job's worker (prctl PR_SET_NAME; the kernel keeps 15 bytes)" },
	{ .name = "exit_what", .type = IB_OPT_ENUM, .cat = IB_CAT_PROC,
	  FLD(proc.exit_what), .vals = exit_what_vals, .def = "group",
	  .help = "Which jobs exitall and exitall_on_error end" },
	{ .name = "new_group", .type = IB_OPT_BOOL, .any_int = true, .cat = IB_CAT_PROC,
	  FLD(new_group), .def = "0", .help = "Start a new reporting group" },
	{ .name = "clocksource", .type = IB_OPT_ENUM, .cat = IB_CAT_STAT,
	  FLD(clocksource), .vals = clocksource_vals, .def = "cpu",
	  .help = "Clock timing the I/Os (one per run; the JSON's effective options name it)" },
	{ .name = "job_start_clock_id", .type = IB_OPT_UINT, .cat = IB_CAT_STAT,
	  FLD(job_start_clock_id), .def = "0",
	  .help = "clock_gettime() clock of the JSON's job_start (0: CLOCK_REALTIME)" },
	{ .name = "disk_util", .type = IB_OPT_BOOL, .cat = IB_CAT_STAT,
	  FLD(disk_util), .def = "1",
	  .help = "Report the job's devices in Disk stats" },
	{ .name = "group_reporting", .type = IB_OPT_BOOL, .any_int = true, .cat = IB_CAT_STAT,
	  FLD(group_reporting), .def = "0",
	  .help = "Report each group as a whole, not per job" },
	{ .name = "unified_rw_reporting", .type = IB_OPT_ENUM, .cat = IB_CAT_STAT,
	  FLD(unified_rw_rep), .vals = unified_vals, .def = "none",
	  .help = "Report reads, writes and trims apart, summed as \"mixed\", or both" },

	{ .name = "stats", .type = IB_OPT_BOOL, .cat = IB_CAT_STAT,
	  FLD(stats), .def = "1",
	  .help = "0: the job runs, but no report or statistics log shows it" },

	/* measurements */
	{ .name = "gtod_reduce", .type = IB_OPT_BOOL, .cat = IB_CAT_STAT,
	  FLD(gtod_reduce), .def = "0",
	  .help = "Measure only bandwidth/IOPS (no latencies)" },
	{ .name = "disable_lat", .type = IB_OPT_BOOL, .cat = IB_CAT_STAT,
	  FLD(disable_lat), .def = "0", .help = "Do not measure total latency" },
	{ .name = "disable_clat", .type = IB_OPT_BOOL, .cat = IB_CAT_STAT,
	  FLD(disable_clat), .def = "0", .help = "Do not measure completion latency" },
	{ .name = "disable_slat", .type = IB_OPT_BOOL, .cat = IB_CAT_STAT,
	  FLD(disable_slat), .def = "0", .help = "Do not measure submission latency" },
	{ .name = "disable_bw_measurement", .alias = { "disable_bw" },
	  .type = IB_OPT_BOOL, .cat = IB_CAT_STAT, FLD(disable_bw), .def = "0",
	  .help = "Do not sample bandwidth/IOPS" },
	{ .name = "clat_percentiles", .type = IB_OPT_BOOL, .cat = IB_CAT_STAT,
	  FLD(clat_percentiles), .def = "1", .help = "Report completion latency percentiles" },
	{ .name = "lat_percentiles", .type = IB_OPT_BOOL, .cat = IB_CAT_STAT,
	  FLD(lat_percentiles), .def = "0", .help = "Report total latency percentiles" },
	{ .name = "slat_percentiles", .type = IB_OPT_BOOL, .cat = IB_CAT_STAT,
	  FLD(slat_percentiles), .def = "0",
	  .help = "Report submission latency percentiles" },
	{ .name = "percentile_list", .type = IB_OPT_PCT_LIST, .cat = IB_CAT_STAT,
	  FLD(percentiles), .def = "1:5:10:20:30:40:50:60:70:80:90:95:99:99.5:99.9:99.95:99.99",
	  .help = "Percentiles to report, ':' separated (at most 20)" },
	{ .name = "bwavgtime", .type = IB_OPT_UINT, .cat = IB_CAT_STAT,
	  FLD(bwavgtime_ms), .min = 1, .def = "500",
	  .help = "Bandwidth sample interval in ms" },
	{ .name = "iopsavgtime", .type = IB_OPT_UINT, .cat = IB_CAT_STAT,
	  FLD(iopsavgtime_ms), .min = 1, .def = "500",
	  .help = "IOPS sample interval in ms" },
	{ .name = "kb_base", .type = IB_OPT_ENUM, .cat = IB_CAT_STAT, FLD(kb_base),
	  .vals = kb_base_vals, .def = "1024", .help = "Base of k/m/g in sizes and reports" },
	{ .name = "unit_base", .type = IB_OPT_ENUM, .cat = IB_CAT_STAT,
	  FLD(unit_base), .vals = unit_base_vals, .def = "0",
	  .help = "Report bandwidth in bytes (8) or bits (1)" },
	{ .name = "significant_figures", .type = IB_OPT_UINT, .cat = IB_CAT_STAT,
	  FLD(significant_figures), .min = 1, .max = 10, .def = "4",
	  .help = "Significant figures in terse/normal numbers" },

	/* logs */
	{ .name = "write_iolog", .type = IB_OPT_STR, .cat = IB_CAT_LOG,
	  SFLD(logs.iolog, PATH_MAX), .help = "Write every I/O issued to this file (an iolog, see write_iolog_version)" },
	{ .name = "write_iolog_version", .type = IB_OPT_ENUM, .cat = IB_CAT_LOG,
	  FLD(logs.iolog_version), .vals = iolog_version_vals, .def = "3",
	  .help = "write_iolog's format: 3 (with times, as fio 3.x) or 2 (older tools)" },

	/* trace replay (replay.h) */
	{ .name = "read_iolog", .type = IB_OPT_STR, .cat = IB_CAT_LOG,
	  SFLD(replay.iolog, PATH_MAX),
	  .help = "Replay this trace (fio iolog v2/v3 or blktrace; ':' between files, one per numjobs clone; '-': stdin, gzip ok). A filename= beside it must name the trace's file or replay_redirect= (fio ignores it and replays there)" },
	{ .name = "replay_no_stall", .type = IB_OPT_BOOL, .cat = IB_CAT_LOG,
	  FLD(replay.no_stall), .def = "0",
	  .help = "Replay as fast as iodepth allows, ignoring the trace's times" },
	{ .name = "replay_time_scale", .type = IB_OPT_UINT, .cat = IB_CAT_LOG,
	  FLD(replay.time_scale), .min = 1, .max = 1000000, .def = "100",
	  .help = "Replay at this percent of the recorded I/O rate (200: twice as fast)" },
	{ .name = "replay_redirect", .type = IB_OPT_STR, .cat = IB_CAT_LOG,
	  SFLD(replay.redirect, PATH_MAX),
	  .help = "Send every I/O of the trace to this one file or device" },
	{ .name = "replay_align", .type = IB_OPT_SIZE, .cat = IB_CAT_LOG,
	  FLD(replay.align), .def = "0",
	  .help = "Round the trace's offsets down to this power of 2" },
	{ .name = "replay_scale", .type = IB_OPT_U64, .cat = IB_CAT_LOG,
	  FLD(replay.scale), .min = 1, .def = "1",
	  .help = "Divide the trace's offsets by this number" },
	{ .name = "replay_skip", .type = IB_OPT_STR, .cat = IB_CAT_LOG,
	  FLD(replay.skip), .set = set_replay_skip,
	  .help = "Leave these I/O types out of the replay: read,write,trim,sync" },
	{ .name = "merge_blktrace_file", .type = IB_OPT_STR, .cat = IB_CAT_LOG,
	  SFLD(replay.merge_file, PATH_MAX),
	  .help = "Merge read_iolog's blktrace files into this one first, then replay it" },
	{ .name = "merge_blktrace_scalars", .type = IB_OPT_STR, .cat = IB_CAT_LOG,
	  FLD(replay.merge_scalars), .set = set_merge_list,
	  .help = "Per merged trace: its times in percent (50: twice as fast), ':' between" },
	{ .name = "merge_blktrace_iters", .type = IB_OPT_STR, .cat = IB_CAT_LOG,
	  FLD(replay.merge_iters), .set = set_merge_list,
	  .help = "Per merged trace: how many times it is played, ':' between" },
	{ .name = "write_bw_log", .type = IB_OPT_STR, .cat = IB_CAT_LOG,
	  SFLD(logs.bw, PATH_MAX), .set = set_log_prefix, .bare_ok = true, .help = "Bandwidth log file prefix (bare: the job name)" },
	{ .name = "write_iops_log", .type = IB_OPT_STR, .cat = IB_CAT_LOG,
	  SFLD(logs.iops, PATH_MAX), .set = set_log_prefix, .bare_ok = true, .help = "IOPS log file prefix (bare: the job name)" },
	{ .name = "write_lat_log", .type = IB_OPT_STR, .cat = IB_CAT_LOG,
	  SFLD(logs.lat, PATH_MAX), .set = set_log_prefix, .bare_ok = true, .help = "Latency log file prefix (bare: the job name)" },
	{ .name = "write_hist_log", .type = IB_OPT_STR, .cat = IB_CAT_LOG,
	  SFLD(logs.hist, PATH_MAX), .set = set_log_prefix, .bare_ok = true,
	  .help = "Completion latency histogram log prefix (fio's format; needs log_hist_msec)" },
	{ .name = "log_hist_msec", .type = IB_OPT_UINT, .cat = IB_CAT_LOG,
	  FLD(logs.hist_msec), .def = "0",
	  .help = "Histogram log: one row per direction every this many ms (0: none)" },
	{ .name = "log_prio", .type = IB_OPT_BOOL, .cat = IB_CAT_LOG, FLD(logs.prio),
	  .def = "0",
	  .help = "Log the I/O priority as 0xNNNN (class << 13 | level), not 1/0 for the realtime class" },
	{ .name = "log_issue_time", .type = IB_OPT_BOOL, .cat = IB_CAT_LOG,
	  FLD(logs.issue_time), .def = "0",
	  .help = "Add each I/O's issue time (ns) to the logs (slat, clat; 0 in others); needs write_lat_log and log_offset" },
	{ .name = "log_hist_coarseness", .alias = { "log_hist_coarse" },
	  .type = IB_OPT_UINT, .cat = IB_CAT_LOG, FLD(logs.hist_coarseness),
	  .min = 0, .max = 6, .def = "0",
	  .help = "Histogram log: each field sums 2^N latency bins" },
	{ .name = "per_job_logs", .type = IB_OPT_BOOL, .cat = IB_CAT_LOG,
	  FLD(logs.per_job), .def = "1",
	  .help = "Log file names carry the job number (0: PREFIX_kind.log; one job per name)" },
	{ .name = "log_avg_msec", .type = IB_OPT_UINT, .cat = IB_CAT_LOG,
	  FLD(logs.avg_msec), .def = "0",
	  .help = "Average log entries over this many ms (0: log every I/O)" },
	{ .name = "log_offset", .type = IB_OPT_BOOL, .cat = IB_CAT_LOG,
	  FLD(logs.offset), .def = "0", .help = "Add the I/O offset to log entries" },
	{ .name = "log_window_value", .alias = { "log_max_value" }, .type = IB_OPT_ENUM,
	  .cat = IB_CAT_LOG, FLD(logs.max_value), .vals = window_vals, .def = "avg",
	  .help = "With log_avg_msec, what latency logs give for each window" },
	{ .name = "log_group", .type = IB_OPT_BOOL, .cat = IB_CAT_LOG,
	  FLD(logs.group), .def = "0",
	  .help = "With group_reporting: also one bw/iops/lat log per group, PREFIX_KIND.groupG.log (averaged bw/iops logs summed per window, others merged in time order)" },
	{ .name = "log_unix_epoch", .type = IB_OPT_BOOL, .cat = IB_CAT_LOG,
	  FLD(logs.unix_epoch), .def = "0",
	  .help = "Log times in milliseconds since the Unix epoch" },

	/* errors */
	{ .name = "continue_on_error", .type = IB_OPT_ENUM, .cat = IB_CAT_ERR,
	  FLD(continue_on_error), .vals = coe_vals, .def = "none",
	  .help = "Which errors do not stop the job: non-fatal ones (EIO, EILSEQ, or ignore_error's) of these types" },
	{ .name = "error_dump", .type = IB_OPT_BOOL, .cat = IB_CAT_ERR,
	  FLD(error_dump), .def = "0",
	  .help = "Describe each non-fatal I/O error on stderr (file, error, direction, offset, length)" },
	{ .name = "ignore_error", .type = IB_OPT_ERR_LIST, .cat = IB_CAT_ERR,
	  FLD(ignore_error), .set = set_ignore_error,
	  .help = "Non-fatal errors per type, read,write,verify; ':' between errors (ENOSPC:122)" },

	/* data verification (options_verify.c, vrun.h) */
	{ .name = "verify", .type = IB_OPT_ENUM, .cat = IB_CAT_ERR, FLD(verify.type),
	  .vals = verify_vals, .def = "0",
	  .help = "Write blocks with a verify header and check them when read back" },
	{ .name = "do_verify", .type = IB_OPT_BOOL, .cat = IB_CAT_ERR,
	  FLD(verify.do_verify), .def = "1",
	  .help = "Read back and check what the job wrote after each pass" },
	{ .name = "verify_only", .type = IB_OPT_BOOL, .any_int = true, .cat = IB_CAT_ERR,
	  FLD(verify.only), .def = "0",
	  .help = "Write nothing: check the data an earlier run of the same job wrote" },
	{ .name = "verify_interval", .type = IB_OPT_SIZE, .cat = IB_CAT_ERR,
	  FLD(verify.interval), .max = UINT32_MAX, .def = "0",
	  .help = "A verify header every this many bytes of a block (0: one per block)" },
	{ .name = "verify_offset", .type = IB_OPT_SIZE, .cat = IB_CAT_ERR,
	  FLD(verify.offset), .max = UINT32_MAX, .def = "0",
	  .help = "Swap each header with the bytes at this offset of its interval before writing (and back before checking)" },
	{ .name = "verify_pattern", .type = IB_OPT_STR, .cat = IB_CAT_ERR,
	  SFLD(verify.pattern, IB_VPATTERN_TEXT_MAX), .set = ib_opt_set_verify_pattern,
	  .help = "Payload pattern: 0xhex, decimal, \"string\", %o (the offset), back to back" },
	{ .name = "verify_pattern_interval", .type = IB_OPT_SIZE, .cat = IB_CAT_ERR,
	  FLD(verify.pattern_interval), .def = "0",
	  .help = "Start verify_pattern anew every N bytes of a block, %o that copy's offset (0: once per block)" },
	{ .name = "verify_fatal", .type = IB_OPT_BOOL, .cat = IB_CAT_ERR,
	  FLD(verify.fatal), .def = "0",
	  .help = "End the job at the first mismatch, even under continue_on_error" },
	{ .name = "verify_dump", .type = IB_OPT_BOOL, .cat = IB_CAT_ERR,
	  FLD(verify.dump), .def = "0",
	  .help = "On a mismatch write the received and expected block to files" },
	{ .name = "verify_backlog", .type = IB_OPT_UINT, .cat = IB_CAT_ERR,
	  FLD(verify.backlog), .def = "0",
	  .help = "Verify written blocks while writing, after every N writes" },
	{ .name = "verify_backlog_batch", .type = IB_OPT_UINT, .cat = IB_CAT_ERR,
	  FLD(verify.backlog_batch), .def = "0",
	  .help = "Blocks verified each time verify_backlog comes due (0: verify_backlog)" },
	{ .name = "verify_async", .type = IB_OPT_UINT, .cat = IB_CAT_ERR,
	  FLD(verify.async), .def = "0",
	  .help = "Accepted: iobench checks blocks in the job's own process as they complete" },
	{ .name = "verify_async_cpus", .type = IB_OPT_STR, .cat = IB_CAT_ERR,
	  .size = 256, .set = ib_opt_set_verify_async_cpus,
	  .help = "Refused: iobench has no verify threads to pin (checks run in the job)" },
	{ .name = "verify_header_seed", .type = IB_OPT_BOOL, .cat = IB_CAT_ERR,
	  FLD(verify.header_seed), .def = "1",
	  .help = "Check the header's random seed against the one written" },
	{ .name = "verify_state_save", .type = IB_OPT_BOOL, .cat = IB_CAT_ERR,
	  FLD(verify.state_save), .def = "1",
	  .help = "Save the blocks a verifying write job completed to local-NAME-N-verify.state" },
	{ .name = "verify_state_load", .type = IB_OPT_BOOL, .cat = IB_CAT_ERR,
	  FLD(verify.state_load), .def = "0",
	  .help = "Verify exactly the blocks a saved verify state lists (verify_only or a read job)" },
	{ .name = "verify_write_sequence", .type = IB_OPT_BOOL, .cat = IB_CAT_ERR,
	  FLD(verify.write_sequence), .def = "1",
	  .help = "Check the header's write sequence number (numberio)" },
	{ .name = "experimental_verify", .type = IB_OPT_BOOL, .cat = IB_CAT_ERR,
	  FLD(verify.experimental), .def = "0",
	  .help = "Accepted: iobench verifies from its record of the writes either way" },
	{ .name = "trim_verify_zero", .type = IB_OPT_BOOL, .cat = IB_CAT_ERR,
	  .set = set_deprecated, .def = "1",
	  .help = "Accepted, no effect: it acts only with trim_percentage, which iobench lacks" },

	/* fio's deprecated no-ops */
	{ .name = "verifysort", .type = IB_OPT_BOOL, .cat = IB_CAT_ERR,
	  .set = set_deprecated, .help = "Deprecated in fio, no effect" },
	{ .name = "verifysort_nr", .type = IB_OPT_UINT, .cat = IB_CAT_ERR,
	  .set = set_deprecated, .help = "Deprecated in fio, no effect" },
	{ .name = "flow_watermark", .type = IB_OPT_UINT, .cat = IB_CAT_PROC,
	  .set = set_deprecated, .help = "Deprecated in fio, no effect" },

	/* safety (iobench's own; see safety.h) */
	{ .name = "allow_data_loss", .type = IB_OPT_BOOL, .cat = IB_CAT_FILE,
	  FLD(allow_data_loss), .def = "0",
	  .help = "Allow writes to a block device that holds data or is in use (signature, swap, holders)" },
};

const unsigned int ib_opt_nr_entries = IB_ARRAY_SIZE(ib_opt_entries);
