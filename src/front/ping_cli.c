// SPDX-License-Identifier: GPL-2.0-only
/*
 * `iobench ping` command line: ioping 1.3's options and value grammar
 * (ping.h). Option matching follows glibc's getopt_long_only, which ioping
 * uses, without its global state: "-name" is tried as a long option first
 * (unless it is a lone short letter), then as a cluster of short options.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "iobench/ping.h"

enum arg { NO_ARG, REQ_ARG, OPT_ARG };

struct ping_opt {
	const char *name;
	enum arg arg;
	char key;
};

/* ioping's long names; the key is its short letter */
static const struct ping_opt long_opts[] = {
	{ "help", NO_ARG, 'h' }, { "version", NO_ARG, 'v' },
	{ "keep", NO_ARG, 'k' }, { "quiet", NO_ARG, 'q' },
	{ "batch", NO_ARG, 'B' }, { "time", OPT_ARG, 'I' },
	{ "json", NO_ARG, 'J' }, { "rapid", NO_ARG, 'R' },
	{ "linear", NO_ARG, 'L' }, { "direct", NO_ARG, 'D' },
	{ "cached", NO_ARG, 'C' }, { "nowait", NO_ARG, 'N' },
	{ "hipri", NO_ARG, 'H' }, { "sync", NO_ARG, 'Y' },
	{ "dsync", NO_ARG, 'y' }, { "async", NO_ARG, 'A' },
	{ "write", NO_ARG, 'W' }, { "read-write", NO_ARG, 'G' },
	{ "size", REQ_ARG, 's' }, { "work-size", REQ_ARG, 'S' },
	{ "work-offset", REQ_ARG, 'o' }, { "count", REQ_ARG, 'c' },
	{ "work-time", REQ_ARG, 'w' }, { "interval", REQ_ARG, 'i' },
	{ "burst", REQ_ARG, 'b' }, { "speed-limit", REQ_ARG, 'l' },
	{ "rate-limit", REQ_ARG, 'r' }, { "warmup", REQ_ARG, 'a' },
	{ "min-time", REQ_ARG, 't' }, { "max-time", REQ_ARG, 'T' },
	{ "print-count", REQ_ARG, 'p' }, { "print-interval", REQ_ARG, 'P' },
	{ "entropy", REQ_ARG, 'e' },
	/* beyond ioping (keys no short option uses) */
	{ "hist", NO_ARG, 1 }, { "json-output", REQ_ARG, 2 },
};
#define NR_LONG (sizeof(long_opts) / sizeof(long_opts[0]))

/* ioping's short options: letters, then ':' required, '::' optional */
static const char short_opts[] = "hvkALRDNHCWGYBqyi:t:T:w:s:S:c:o:p:P:l:r:a:I::Je:b:";

static enum arg short_arg(char c, bool *known)
{
	const char *p = c ? strchr(short_opts, c) : NULL;

	*known = p != NULL && c != ':';
	if (!*known || p[1] != ':')
		return NO_ARG;
	return p[2] == ':' ? OPT_ARG : REQ_ARG;
}

void ib_ping_opts_init(struct ib_ping_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->action = IB_PING_RUN;
	o->time_fmt = "%b %d %T";
	o->warmup = 1;
	o->interval_ns = IB_PING_NSEC;
	o->default_size = 4096;
	o->temp_work_size = 1 << 20;
	o->max_time_ns = INT64_MAX;
}

/* The parser's cursor over argv (no globals, unlike getopt) */
struct cursor {
	int argc, i;
	char *const *argv;
	const char *operands[2];
	int nr_operands;
};

static int set_flag(struct ib_ping_opts *o, char key)
{
	switch (key) {
	case 'k': o->keep = true; break;
	case 'A': o->async = true; break;
	case 'L': o->linear = true; o->default_size = 1 << 18; break;
	case 'D': o->direct = true; break;
	case 'N': o->nowait = true; break;
	case 'H': o->hipri = true; break;
	case 'C': o->cached = true; break;
	case 'W': o->write++; break;
	case 'G': o->write++; o->read_write = true; break;
	case 'Y': o->sync = true; break;
	case 'y': o->dsync = true; break;
	case 'q': o->quiet = true; break;
	case 'B': o->quiet = true; o->batch = true; break;
	case 'J': o->json = true; o->time_fmt = "%FT%T%z"; break;
	case 1: o->hist = true; break;
	case 'h': o->action = IB_PING_HELP; break;
	case 'v': o->action = IB_PING_VERSION; break;
	case 'R':
		if (!o->interval_set)
			o->interval_ns = 0;
		if (!o->deadline_set)
			o->deadline_ns = 3 * IB_PING_NSEC;
		o->temp_work_size = 1 << 26;
		o->quiet = true;
		o->rapid = true;
		break;
	default:
		return -EINVAL;
	}
	return 0;
}

static int num(const char *s, char kind, long long *v, struct ib_diag *d)
{
	double x;
	int ret = ib_ping_parse_num(s, kind, &x, d);

	if (ret == 0)
		*v = (long long)x;
	return ret;
}

static int set_time(int64_t *dst, bool *given, const char *s, struct ib_diag *d)
{
	long long v;
	int ret = num(s, 't', &v, d);

	if (ret == 0) {
		*dst = v;
		if (given)
			*given = true;
	}
	return ret;
}

/* -l and -r: a limit turns the default interval off */
static int set_limit(struct ib_ping_opts *o, char key, const char *s, struct ib_diag *d)
{
	double x;
	int ret = ib_ping_parse_num(s, key == 'l' ? 's' : 'r', &x, d);

	if (ret)
		return ret;
	if (!o->interval_set)
		o->interval_ns = 0;
	if (key == 'l')
		o->speed_limit = (int64_t)x;
	else
		o->rate_limit = x;
	return 0;
}

static int set_value(struct ib_ping_opts *o, char key, const char *s, struct ib_diag *d)
{
	long long v = 0;
	int ret = 0;

	switch (key) {
	case 'i': return set_time(&o->interval_ns, &o->interval_set, s, d);
	case 'w': return set_time(&o->deadline_ns, &o->deadline_set, s, d);
	case 't': return set_time(&o->min_time_ns, NULL, s, d);
	case 'T': return set_time(&o->max_time_ns, NULL, s, d);
	case 'P': return set_time(&o->print_interval_ns, NULL, s, d);
	case 'l': case 'r': return set_limit(o, key, s, d);
	case 'e': o->entropy = strtoull(s, NULL, 0); return 0;
	case 'I': o->time_info = true; if (s) o->time_fmt = s; return 0;
	case 2: o->json_output = s; return 0;
	case 's': ret = num(s, 's', &v, d); o->size = v; break;
	case 'S': ret = num(s, 'o', &v, d); o->work_size = v; break;
	case 'o': ret = num(s, 'o', &v, d); o->offset = v; break;
	case 'p': ret = num(s, 'n', &v, d); o->print_count = v; break;
	case 'c': ret = num(s, 'n', &v, d); o->count = v; break;
	case 'a': ret = num(s, 'n', &v, d); o->warmup = v; break;
	case 'b': ret = num(s, 'n', &v, d); o->burst = v; break;
	default: return -EINVAL;
	}
	return ret;
}

static int apply(struct ib_ping_opts *o, char key, enum arg arg, const char *val,
		 struct ib_diag *d)
{
	if (arg == NO_ARG)
		return set_flag(o, key);
	return set_value(o, key, val, d);
}

/* Long options matching name[0..len): exact match wins, else a unique prefix */
static int find_long(const char *name, size_t len, const struct ping_opt **hit)
{
	int n = 0;
	size_t i;

	*hit = NULL;
	for (i = 0; i < NR_LONG; i++) {
		if (strncmp(long_opts[i].name, name, len))
			continue;
		if (strlen(long_opts[i].name) == len) {
			*hit = &long_opts[i];
			return 1;
		}
		if (!n++)
			*hit = &long_opts[i];
	}
	return n;
}

static int ambiguous(const char *dash, const char *name, size_t len, struct ib_diag *d)
{
	char list[IB_DIAG_LEN] = "";
	size_t i, used = 0;

	for (i = 0; i < NR_LONG && used < sizeof(list); i++)
		if (!strncmp(long_opts[i].name, name, len))
			used += (size_t)snprintf(list + used, sizeof(list) - used, " '%s%s'",
						 dash, long_opts[i].name);
	return ib_diag_set(d, EINVAL, "option '%s%.*s' is ambiguous; possibilities:%s",
			   dash, (int)len, name, list);
}

/* A long option in argv[c->i] after its dashes (name may hold "=value") */
static int do_long(struct ib_ping_opts *o, struct cursor *c, const char *dash,
		   const char *name, const struct ping_opt *hit, struct ib_diag *d)
{
	const char *eq = strchr(name, '=');
	const char *val = eq ? eq + 1 : NULL;

	if (eq && hit->arg == NO_ARG)
		return ib_diag_set(d, EINVAL, "option '%s%s' doesn't allow an argument",
				   dash, hit->name);
	if (!eq && hit->arg == REQ_ARG) {
		if (c->i + 1 >= c->argc)
			return ib_diag_set(d, EINVAL, "option '%s%s' requires an argument",
					   dash, hit->name);
		val = c->argv[++c->i];
	}
	return apply(o, hit->key, hit->arg, val, d);
}

/* A cluster of short options in argv[c->i] + 1 */
static int do_short(struct ib_ping_opts *o, struct cursor *c, const char *p,
		    struct ib_diag *d)
{
	for (; *p; p++) {
		bool known;
		enum arg arg = short_arg(*p, &known);
		const char *val = p[1] ? p + 1 : NULL;
		int ret;

		if (!known)
			return ib_diag_set(d, EINVAL, "invalid option -- '%c'", *p);
		if (arg == REQ_ARG && !val) {
			if (c->i + 1 >= c->argc)
				return ib_diag_set(d, EINVAL,
						   "option requires an argument -- '%c'", *p);
			val = c->argv[++c->i];
		}
		ret = apply(o, *p, arg, val, d);
		if (ret || arg != NO_ARG || o->action != IB_PING_RUN)
			return ret;
	}
	return 0;
}

/* One argument that starts with '-' and is more than "-" */
static int do_option(struct ib_ping_opts *o, struct cursor *c, struct ib_diag *d)
{
	const char *a = c->argv[c->i];
	bool two = a[1] == '-';
	const char *name = a + 1 + two;
	size_t len = strcspn(name, "=");
	const struct ping_opt *hit;
	bool known;
	int n;

	short_arg(a[1], &known);
	if (!two && !a[2] && known)
		return do_short(o, c, a + 1, d);
	n = find_long(name, len, &hit);
	if (n == 1)
		return do_long(o, c, two ? "--" : "-", name, hit, d);
	if (n > 1)
		return ambiguous(two ? "--" : "-", name, len, d);
	if (two || !known)
		return ib_diag_set(d, EINVAL, "unrecognized option '%s'", a);
	return do_short(o, c, a + 1, d);
}

static void operand(struct cursor *c, const char *a)
{
	if (c->nr_operands < 2)
		c->operands[c->nr_operands] = a;
	c->nr_operands++;
}

int ib_ping_parse(struct ib_ping_opts *o, int argc, char *const argv[], struct ib_diag *d)
{
	struct cursor c = { .argc = argc, .argv = argv };
	bool options = true;
	int ret;

	ib_ping_opts_init(o);
	for (c.i = 1; c.i < argc; c.i++) {
		const char *a = argv[c.i];

		if (options && !strcmp(a, "--")) {
			options = false;
			continue;
		}
		if (!options || a[0] != '-' || !a[1]) {
			operand(&c, a);
			continue;
		}
		ret = do_option(o, &c, d);
		if (ret || o->action != IB_PING_RUN)
			return ret;
	}
	if (c.nr_operands == 0)
		return ib_diag_set(d, EINVAL, "no destination specified");
	if (c.nr_operands > 1)
		return ib_diag_set(d, EINVAL, "more than one destination specified");
	o->target = c.operands[0];
	/* -J and -B print for programs: a text histogram would go nowhere */
	if (o->hist && (o->json || o->batch))
		return ib_diag_set(d, EINVAL,
				   "--hist prints text, not with %s (--json-output=FILE has the percentiles)",
				   o->json ? "-J" : "-B");
	return 0;
}

static const char usage_text[] =
	"usage: iobench ping [OPTION...] DIRECTORY|FILE|DEVICE\n"
	"       iobench ping -h | -v\n"
	"Measures I/O latency one request at a time (ioping 1.3 compatible).\n"
	"Long names take one or two dashes and may be shortened.\n"
	"\n"
	"Modes:\n"
	"  -A, --async             Linux native AIO for each request\n"
	"  -C, --cached            keep the page cache (no drop before reads,\n"
	"                          no fdatasync after writes)\n"
	"  -D, --direct            O_DIRECT\n"
	"  -G, --read-write        alternate writes (odd requests) and reads\n"
	"  -L, --linear            sequential offsets, requests of 256k\n"
	"  -N, --nowait            RWF_NOWAIT\n"
	"  -H, --hipri             RWF_HIPRI (polled completion)\n"
	"  -W, --write             write instead of read; a file or device\n"
	"                          needs -WWW (its data is overwritten)\n"
	"  -Y, --sync              O_SYNC\n"
	"  -y, --dsync             O_DSYNC\n"
	"  -R, --rapid             3 s without pauses and quiet (-q -i 0 -w 3),\n"
	"                          64m working set in a directory\n"
	"  -k, --keep              use DIRECTORY/ioping.tmp and keep it\n"
	"\n"
	"Parameters:\n"
	"  -a, --warmup N          leave the first N requests out (1)\n"
	"  -b, --burst N           N requests back to back, then a pause (0)\n"
	"  -c, --count N           stop after N requests (never)\n"
	"  -e, --entropy SEED      random seed (0: from the clock)\n"
	"  -i, --interval TIME     pause between requests (1s)\n"
	"  -s, --size SIZE         request size (4k)\n"
	"  -S, --work-size SIZE    working set (1m in a directory, else all)\n"
	"  -o, --work-offset SIZE  where the working set starts (0)\n"
	"  -w, --work-time TIME    stop after TIME\n"
	"  -l, --speed-limit SIZE  at most SIZE bytes per second\n"
	"  -r, --rate-limit N      at most N requests per second\n"
	"  -t, --min-time TIME     faster requests are left out of statistics\n"
	"  -T, --max-time TIME     slower requests are left out of statistics\n"
	"\n"
	"Output:\n"
	"  -B, --batch             only the final statistics as raw numbers\n"
	"  -I, --time[=FORMAT]     wall clock before each request (strftime,\n"
	"                          \"%b %d %T\")\n"
	"  -J, --json              a JSON array of requests and statistics\n"
	"  -p, --print-count N     raw statistics every N requests\n"
	"  -P, --print-interval T  raw statistics every T\n"
	"  -q, --quiet             no line per request\n"
	"      --hist              latency histogram at the end\n"
	"      --json-output=FILE  JSON results into FILE as well\n"
	"  -h, --help              this text\n"
	"  -v, --version           the version\n"
	"\n"
	"Numbers may be fractions (1/4) and take suffixes (any case): counts\n"
	"k M G T; sizes KiB k MiB m GiB g TiB t, sector (512), page (4096);\n"
	"times ns us ms s m(in) h(our), seconds without one.\n";

void ib_ping_usage(FILE *f)
{
	fputs(usage_text, f);
}
