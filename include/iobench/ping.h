/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_PING_H
#define IOBENCH_PING_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include "iobench/diag.h"
#include "iobench/ping_stats.h"

/*
 * `iobench ping`: ioping 1.3's latency probe. This header is its command
 * line (front/ping_cli.c, ping_values.c); the other pure parts have their
 * own: the running statistics and the marks ioping puts on requests
 * (ping_stats.h, stats/), the "(fs device size)" description of a target
 * (ping_target.h, run/) and the output formats (ping_out.h, report/).
 * tests/data/ping holds real ioping 1.3 outputs that the unit tests
 * reproduce byte for byte.
 *
 * Exit statuses as ioping's: 1 bad usage (every error of ib_ping_parse and
 * ib_ping_resolve), 2 preparation (ib_ping_check_target, opening, sizing),
 * 3 runtime (an I/O failed), 4 a second SIGINT; a first SIGINT ends the run
 * normally (statistics printed, status 0).
 */
/*
 * What ioping 1.3 does around these pieces (for the request loop; learnt
 * from its man page, its behaviour here and the facts of its source):
 * - Targets. A directory: open(DIR, O_RDWR|O_TMPFILE, 0600) (fallback
 *   mkostemp DIR/ioping.tmp.XXXXXX + unlink); -k: DIR/ioping.tmp with
 *   O_CREAT, kept, and not refilled when it already holds offset + work
 *   size fully allocated. The file is filled with random data in request
 *   sized pwrites over the working set, then fsync. A file or device:
 *   O_RDONLY, or O_RDWR when writing; -Y/-y add O_SYNC/O_DSYNC at open,
 *   -D is set afterwards with fcntl(F_SETFL, O_DIRECT). Device size:
 *   BLKGETSIZE64; a character device has none (offset + temp work size).
 * - Cache. Unless -C: posix_fadvise(DONTNEED) on the request's range
 *   before every request (failure: status 3), fdatasync after every write
 *   inside the timed interval. fadvise(RANDOM) over the working set once
 *   (random mode or not -C; a failure only warns).
 * - Offsets: random whole requests in the working set (xorshift128+ seeded
 *   by splitmix64 of -e or the clock); -L: sequential, wrapping. Write
 *   buffers are refilled with random bytes before every write. -G: odd
 *   requests write, even ones read.
 * - Pacing: time_next += interval per request (per burst with -b), pulled
 *   up to now when late; sleep until time_next. -c stops after request N;
 *   -w stops once time_next >= start + w. -p prints when the period has N
 *   valid requests, -P when time_next >= the period's deadline (now + P
 *   after each print). Periods reset the statistics the fast/slow marks
 *   use. Stdout is fully buffered, flushed before each sleep (unless -q)
 *   and after each period line.
 * - Results: EINTR is ignored; -N's EAGAIN marks "(EAGAIN)", 0 bytes, not
 *   in statistics; a short transfer warns "request returned less than
 *   expected: N"; a long one or any other error exits 3 "request failed".
 * - SIGINT: the current request finishes, the run ends normally (full
 *   statistics, status 0); a second SIGINT exits 4 at once.
 */
#define IB_PING_EXIT_USAGE	1
#define IB_PING_EXIT_PREPARE	2
#define IB_PING_EXIT_RUNTIME	3
#define IB_PING_EXIT_SIGINT	4

/* Linux's MAX_RW_COUNT: larger requests get a warning (ioping warns too) */
#define IB_PING_MAX_RW		0x7ffff000ll

enum ib_ping_action {
	IB_PING_RUN,
	IB_PING_HELP,		/* -h: usage on stdout, status 0 */
	IB_PING_VERSION,	/* -v: "iobench ping (ioping 1.3 compatible)" */
};

/*
 * Everything the command line says, as ioping keeps it (a POD: the strings
 * point into argv). Values are after the suffix rules of ib_ping_parse_num.
 * ib_ping_resolve then derives the effective request size and interval.
 */
struct ib_ping_opts {
	enum ib_ping_action action;
	const char *target;		/* the one non-option argument */

	/* flags */
	bool async;			/* -A */
	bool cached;			/* -C: no fadvise(DONTNEED), no fdatasync */
	bool direct;			/* -D: O_DIRECT */
	bool read_write;		/* -G: odd requests write, even read */
	bool linear;			/* -L: sequential, default size 256k */
	bool nowait;			/* -N: RWF_NOWAIT */
	bool hipri;			/* -H: RWF_HIPRI */
	unsigned int write;		/* -W count; -G adds one too (as ioping) */
	bool sync;			/* -Y: O_SYNC */
	bool dsync;			/* -y: O_DSYNC */
	bool rapid;			/* -R */
	bool keep;			/* -k: DIR/ioping.tmp, kept and reused */

	/* output */
	bool quiet;			/* -q, also set by -B and -R */
	bool batch;			/* -B */
	bool json;			/* -J */
	bool time_info;			/* -I */
	const char *time_fmt;		/* strftime format of -I / -J */

	/* parameters */
	long long warmup;		/* -a, default 1 */
	long long burst;		/* -b, 0 = none */
	long long count;		/* -c, 0 = until stopped */
	unsigned long long entropy;	/* -e, 0 = seed from the clock */
	int64_t interval_ns;		/* -i, default 1 s */
	bool interval_set;		/* -i given: -R/-l/-r keep it */
	int64_t size;			/* -s, 0 = default_size */
	int64_t default_size;		/* 4 KiB, 256 KiB after -L */
	int64_t work_size;		/* -S, 0 = target's (dir: temp_work_size) */
	int64_t temp_work_size;		/* 1 MiB, 64 MiB after -R */
	int64_t offset;			/* -o */
	int64_t deadline_ns;		/* -w, 0 = none; -R: 3 s */
	bool deadline_set;
	int64_t speed_limit;		/* -l, bytes per second */
	double rate_limit;		/* -r, requests per second */
	int64_t min_time_ns;		/* -t */
	int64_t max_time_ns;		/* -T, default INT64_MAX */
	long long print_count;		/* -p */
	int64_t print_interval_ns;	/* -P */

	/* beyond ioping */
	bool hist;			/* --hist */
	const char *json_output;	/* --json-output=FILE */
};

/* ioping's defaults (what `ioping DIR` does). */
void ib_ping_opts_init(struct ib_ping_opts *o);

/*
 * Parse argv[1..argc-1] (argv[0] is the command name, not looked at) the
 * way ioping 1.3 does (glibc getopt_long_only): short options and clusters
 * ("-WWW", "-c5", "-I%s"), long options after one or two dashes, unique
 * prefixes ("-cou 3"), "--name=value", "--" ending the options, operands
 * anywhere. -h/-v stop parsing (action set, 0 returned).
 * Returns 0, or -EINVAL with ioping's own message in d (no program prefix:
 * the caller prints "iobench ping: " before it), e.g.
 *   invalid suffix: "x"            option requires an argument -- 'c'
 *   unrecognized option '-Z'       no destination specified
 */
int ib_ping_parse(struct ib_ping_opts *o, int argc, char *const argv[],
		  struct ib_diag *d);

/*
 * ioping's value grammar: strtod number, optional "/denominator" ("1/2",
 * "/4" = 1/4), then a case-insensitive suffix of the kind's table.
 * kind: 'n' count (k M G T da, max INT_MAX), 's' size (B KiB..PiB, k kb m
 * mb g gb t tb pb eb, sector, page; max LONG_MAX), 'o' offset (sizes, max
 * LLONG_MAX), 't' time (ns us ms s sec m min h hour nsec usec msec; no
 * suffix = seconds; result in ns), 'r' rate (counts, max 1e9, fraction kept).
 * Returns 0 or -EINVAL (messages as ioping's).
 */
int ib_ping_parse_num(const char *s, char kind, double *out, struct ib_diag *d);

/*
 * What ioping's main() derives before touching the target: the request
 * size (default_size if 0), the interval raised by -l/-r (times -b), and
 * temp_work_size (-S, or at least one request). Returns 0 or -EINVAL.
 * *warn_big is set when size > IB_PING_MAX_RW (ioping warns
 * "this platform supports requests 2147479552 bytes at most" and goes on).
 */
int ib_ping_resolve(struct ib_ping_opts *o, bool *warn_big, struct ib_diag *d);

enum ib_ping_kind {
	IB_PING_DIR,
	IB_PING_FILE,
	IB_PING_BLOCK,
	IB_PING_CHAR,		/* a character device: no size ioctl */
};

/*
 * The checks ioping makes once it knows the target (exit status 2 on
 * failure, messages as ioping's): writes (-W, -G) to anything but a
 * directory need -WWW; the working set must fit. size is the file's size,
 * the device's size, or 0 for a directory or character device (they use
 * offset + temp_work_size). *work_size gets the effective working set.
 */
int ib_ping_check_target(const struct ib_ping_opts *o, enum ib_ping_kind kind,
			 int64_t size, int64_t *work_size, struct ib_diag *d);

/* Our usage text (ioping's options, our words) */
void ib_ping_usage(FILE *f);

#endif
