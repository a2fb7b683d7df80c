// SPDX-License-Identifier: GPL-2.0-only
/*
 * The option engine: look an option up (options_table.c's generic rows,
 * then the engines' own rows, engine.c),
 * parse its value by type, store it into struct ib_job and remember what was
 * given for the JSON "job options". Also the did-you-mean helper.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "iobench/job_setup.h"
#include "iobench/median.h"
#include "iobench/engine.h"
#include "iobench/options.h"
#include "iobench/strtab.h"
#include "iobench/parse.h"
#include "options_priv.h"

/* Is the engine row o the first row of that name among the engines' rows? */
static bool first_engine_row(const struct ib_opt *o)
{
	return ib_engine_opt_find(o->name) == o;
}

const struct ib_opt *ib_opt_get(unsigned int i)
{
	const struct ib_engine_opts *const *set;
	const struct ib_opt *o;

	if (i < ib_opt_nr_entries)
		return &ib_opt_entries[i];
	i -= ib_opt_nr_entries;
	for (set = ib_engine_opts_list(); *set; set++)
		for (o = (*set)->rows; o->name; o++)
			if (first_engine_row(o) && i-- == 0)
				return o;
	return NULL;
}

const char *ib_opt_cat_name(enum ib_opt_cat cat)
{
	static const char *const names[IB_CAT_NR] = {
		[IB_CAT_DESC] = "Job description",
		[IB_CAT_FILE] = "Target files and devices",
		[IB_CAT_IOTYPE] = "I/O type",
		[IB_CAT_BS] = "Block size",
		[IB_CAT_BUF] = "Buffers and memory",
		[IB_CAT_IOSIZE] = "I/O size",
		[IB_CAT_ENGINE] = "I/O engine",
		[IB_CAT_DEPTH] = "I/O depth",
		[IB_CAT_TIME] = "Time related",
		[IB_CAT_PROC] = "Threads, processes and job synchronization",
		[IB_CAT_STAT] = "Measurements and reporting",
		[IB_CAT_LOG] = "Logs",
		[IB_CAT_ERR] = "Error handling",
		[IB_CAT_ENGOPT] = "I/O engine specific",
	};

	return (unsigned int)cat < IB_CAT_NR ? names[cat] : "?";
}

const char *ib_opt_type_name(enum ib_opt_type type)
{
	static const char *const names[IB_OPT_NR_TYPES] = {
		[IB_OPT_BOOL] = "boolean",
		[IB_OPT_UINT] = "integer",
		[IB_OPT_INT] = "integer",
		[IB_OPT_U64] = "integer",
		[IB_OPT_SIZE] = "size",
		[IB_OPT_SIZE_PCT] = "size or percentage",
		[IB_OPT_SIZE_RANGE] = "size or size range",
		[IB_OPT_BS_LIST] = "size list (read,write,trim)",
		[IB_OPT_BSRANGE_LIST] = "size range list (read,write,trim)",
		[IB_OPT_TIME] = "time",
		[IB_OPT_STR] = "string",
		[IB_OPT_ENUM] = "choice",
		[IB_OPT_PCT_LIST] = "percentile list",
		[IB_OPT_ERR_LIST] = "error lists (read,write,verify)",
	};

	return (unsigned int)type < IB_OPT_NR_TYPES ? names[type] : "?";
}

const struct ib_opt *ib_opt_find(const char *name)
{
	const struct ib_opt *o;
	unsigned int i;

	for (i = 0; i < ib_opt_nr_entries; i++) {
		o = &ib_opt_entries[i];
		if (!strcasecmp(o->name, name) ||
		    (o->alias[0] && !strcasecmp(o->alias[0], name)) ||
		    (o->alias[1] && !strcasecmp(o->alias[1], name)))
			return o;
	}
	return ib_engine_opt_find(name);
}

/* ---- generic stores by type -------------------------------------------- */

int ib_opt_enum_lookup(const struct ib_opt *o, const char *v, unsigned int *out,
		       struct ib_diag *d)
{
	char list[256] = "";
	size_t used = 0;
	unsigned int i;

	for (i = 0; o->vals[i].name; i++) {
		if (!strcasecmp(o->vals[i].name, v)) {
			*out = o->vals[i].val;
			return 0;
		}
	}
	for (i = 0; o->vals[i].name && used < sizeof(list); i++) {
		if (!o->vals[i].help)
			continue; /* aliases are not advertised */
		used += (size_t)snprintf(list + used, sizeof(list) - used, "%s%s",
					 used ? ", " : "", o->vals[i].name);
	}
	return ib_diag_set(d, EINVAL, "%s: invalid value '%s' (valid: %s)",
			   o->name, v, list);
}

/* The table's maximum, or what the field can hold. */
static int64_t type_max(const struct ib_opt *o)
{
	if (o->max)
		return o->max;
	if (o->type == IB_OPT_UINT)
		return UINT_MAX;
	if (o->type == IB_OPT_INT)
		return INT_MAX;
	return INT64_MAX;
}

/*
 * "50%" given to a number: fio reads something else (it takes
 * buffer_compress_percentage=50% without a word and writes incompressible
 * data, number_ios=50% does every I/O, iodepth=4% is out of range), so it
 * is refused with the number to write.
 */
static int percent_for_number(const struct ib_opt *o, const char *v,
			      struct ib_diag *d)
{
	size_t n = strlen(v);

	return ib_diag_set(d, EINVAL,
			   "%s: '%s' is a number without '%%' (%s=%.*s); fio does not read '%s' as %.*s either",
			   o->name, v, o->name, (int)(n - 1), v, v, (int)(n - 1), v);
}

int ib_opt_parse_int(const struct ib_opt *o, const char *v, int64_t *out,
		     struct ib_diag *d)
{
	const char *p = v;
	size_t n = strlen(v);
	uint64_t u;
	bool neg = false;
	int rc;

	if (n > 1 && v[n - 1] == '%' && isdigit((unsigned char)v[n - 2]))
		return percent_for_number(o, v, d);
	while (isspace((unsigned char)*p))
		p++;
	if (o->type == IB_OPT_INT && *p == '-') {
		neg = true;
		p++;
	}
	rc = ib_parse_uint(p, &u, d);
	if (rc)
		goto err;
	if (u > (uint64_t)INT64_MAX) {
		rc = ib_diag_set(d, ERANGE, "'%s' is out of range", v);
		goto err;
	}
	*out = neg ? -(int64_t)u : (int64_t)u;
	if (*out < o->min || *out > type_max(o))
		return ib_diag_set(d, ERANGE, "%s: %s is out of range (%lld..%lld)",
				   o->name, v, (long long)o->min,
				   (long long)type_max(o));
	return 0;
err:
	ib_diag_prefix(d, "%s", o->name);
	return rc;
}

static int check_size_range(const struct ib_opt *o, const char *v, uint64_t x,
			    struct ib_diag *d)
{
	if (x < (uint64_t)o->min)
		return ib_diag_set(d, ERANGE, "%s: %s is below the minimum %lld",
				   o->name, v, (long long)o->min);
	if (o->max && x > (uint64_t)o->max)
		return ib_diag_set(d, ERANGE, "%s: %s is above the maximum %lld",
				   o->name, v, (long long)o->max);
	return 0;
}

static int store_size(struct ib_job *j, const struct ib_opt *o, const char *v,
		      struct ib_diag *d)
{
	uint64_t x;
	int rc = ib_parse_size(v, j->kb_base, &x, d);

	if (rc) {
		ib_diag_prefix(d, "%s", o->name);
		return rc;
	}
	rc = check_size_range(o, v, x, d);
	if (!rc)
		*(uint64_t *)ib_opt_field(j, o->off) = x;
	return rc;
}

static int store_size_pct(struct ib_job *j, const struct ib_opt *o,
			  const char *v, struct ib_diag *d)
{
	uint64_t x = 0;
	uint8_t pct = 0;
	int rc = ib_parse_size_pct(v, j->kb_base, &x, &pct, d);

	if (rc) {
		ib_diag_prefix(d, "%s", o->name);
		return rc;
	}
	*(uint64_t *)ib_opt_field(j, o->off) = pct ? 0 : x;
	*(uint8_t *)ib_opt_field(j, o->off2) = pct;
	return 0;
}

/* "a" or "a-b" (also "a:b") into lo/hi. */
static int parse_range(const char *v, unsigned int kb_base, uint64_t *lo,
		       uint64_t *hi, struct ib_diag *d)
{
	char buf[128];
	char *sep;
	int rc;

	if (strlen(v) >= sizeof(buf))
		return ib_diag_set(d, EINVAL, "invalid size range '%.40s...'", v);
	strcpy(buf, v);
	sep = strpbrk(buf, "-:");
	if (!sep) {
		rc = ib_parse_size(buf, kb_base, lo, d);
		*hi = *lo;
		return rc;
	}
	*sep = '\0';
	rc = ib_parse_size(buf, kb_base, lo, d);
	if (!rc)
		rc = ib_parse_size(sep + 1, kb_base, hi, d);
	if (!rc && *lo > *hi)
		rc = ib_diag_set(d, EINVAL, "invalid range '%s' (minimum above maximum)", v);
	return rc;
}

static int store_size_range(struct ib_job *j, const struct ib_opt *o,
			    const char *v, struct ib_diag *d)
{
	uint64_t lo, hi;
	int rc = parse_range(v, j->kb_base, &lo, &hi, d);

	if (rc) {
		ib_diag_prefix(d, "%s", o->name);
		return rc;
	}
	*(uint64_t *)ib_opt_field(j, o->off) = lo;
	*(uint64_t *)ib_opt_field(j, o->off2) = hi;
	return 0;
}

/*
 * A size of a per-direction list that did not parse. fio reads the size
 * up to the first character it does not know and drops the rest, so
 * "bs=1g-5g" is bs=1g,5g there and "bs=4k/50:8k/50" is bs=4k: a range or
 * a split given to bs is refused here, naming the option meant.
 */
static int size_list_error(const struct ib_opt *o, const char *v,
			   const char *part, bool ranges, int rc,
			   struct ib_diag *d)
{
	if (!ranges && strchr(part, '/'))
		return ib_diag_set(d, EINVAL, "%s: invalid size '%s' (sizes with percentages are bssplit=%s)",
				   o->name, part, v);
	if (!ranges && strchr(part + 1, '-'))
		return ib_diag_set(d, EINVAL, "%s: invalid size '%s' (a range of sizes is bsrange=%s)",
				   o->name, part, v);
	ib_diag_prefix(d, "%s", o->name);
	return rc;
}

/*
 * Split a per-direction list "r[,w[,t]]" (copied into buf, len bytes) at
 * its commas into parts: the number of parts, or -EINVAL (d) when it is
 * too long or has more than read,write,trim.
 */
int ib_opt_split_ddir(const struct ib_opt *o, const char *v, char *buf,
		      size_t len, char *parts[IB_DDIR_RWT], struct ib_diag *d)
{
	char *p = buf;
	int n = 0;

	if (strlen(v) >= len)
		return ib_diag_set(d, EINVAL, "%s: invalid list '%.40s...'", o->name, v);
	strcpy(buf, v);
	parts[n++] = p;
	while ((p = strchr(p, ','))) {
		*p++ = '\0';
		if (n == IB_DDIR_RWT)
			return ib_diag_set(d, EINVAL, "%s: too many values in '%s' (read,write,trim)",
					   o->name, v);
		parts[n++] = p;
	}
	return n;
}

/*
 * Per-direction lists "r,w,t": an empty entry leaves that direction alone,
 * and the directions after the last entry copy the last value given (so
 * bs=4k,16k makes trim 16k, as fio does).
 */
static int store_ddir_list(struct ib_job *j, const struct ib_opt *o,
			   const char *v, bool ranges, struct ib_diag *d)
{
	uint64_t lo[IB_DDIR_RWT], hi[IB_DDIR_RWT], *min, *max;
	bool given[IB_DDIR_RWT] = { false };
	char buf[256], *parts[IB_DDIR_RWT];
	unsigned int n, i, last = IB_DDIR_RWT;
	int rc = ib_opt_split_ddir(o, v, buf, sizeof(buf), parts, d);

	if (rc < 0)
		return rc;
	n = (unsigned int)rc;
	for (i = 0; i < n; i++) {
		if (!*parts[i])
			continue;
		rc = ranges ? parse_range(parts[i], j->kb_base, &lo[i], &hi[i], d)
			    : ib_parse_size(parts[i], j->kb_base, &lo[i], d);
		if (rc)
			return size_list_error(o, v, parts[i], ranges, rc, d);
		if (!ranges)
			hi[i] = lo[i];
		given[i] = true;
		last = i;
	}
	if (last == IB_DDIR_RWT)
		return ib_diag_set(d, EINVAL, "%s: invalid size list '%s'", o->name, v);
	for (i = n; i < IB_DDIR_RWT; i++) {
		lo[i] = lo[last];
		hi[i] = hi[last];
		given[i] = true;
	}
	min = ib_opt_field(j, o->off);
	max = o->off2 ? ib_opt_field(j, o->off2) : NULL;
	for (i = 0; i < IB_DDIR_RWT; i++) {
		if (!given[i])
			continue;
		min[i] = lo[i];
		if (max)
			max[i] = hi[i];
	}
	return 0;
}

static int store_time(struct ib_job *j, const struct ib_opt *o, const char *v,
		      struct ib_diag *d)
{
	uint64_t us;
	int rc = ib_parse_time_us(v, o->unit_us, &us, d);

	if (rc) {
		ib_diag_prefix(d, "%s", o->name);
		return rc;
	}
	*(uint64_t *)ib_opt_field(j, o->off) = us;
	return 0;
}

int ib_job_record_opt(struct ib_job *j, const struct ib_opt *o,
		      const char *value)
{
	char text[IB_OPTS_TEXT_MAX];
	unsigned int len = j->opts_len;
	const char *p;
	int rc;

	if (!j->strs)
		return -ENOMEM;
	memcpy(text, j->opts_text, len);
	rc = ib_opts_text_record(text, &len, sizeof(text), o, value);
	if (rc)
		return rc;
	p = ib_strtab_add(j->strs, text, len);	/* and the final "\0" */
	if (!p)
		return -ENOMEM;
	j->opts_text = p;
	j->opts_len = len;
	return 0;
}

int ib_opt_set_str(struct ib_job *j, const struct ib_opt *o, const char *v,
		   struct ib_diag *d)
{
	if (v == o->def) {	/* the table's own text: static, no copy */
		*(const char **)ib_opt_field(j, o->off) = v;
		return 0;
	}
	if (ib_job_set_str(j, ib_opt_field(j, o->off), "%s", v))
		return ib_diag_set(d, ENOMEM, "%s: no memory", o->name);
	return 0;
}

static int store_str(struct ib_job *j, const struct ib_opt *o, const char *v,
		     struct ib_diag *d)
{
	if (strlen(v) >= o->size)
		return ib_diag_set(d, ENAMETOOLONG, "%s: value too long (%zu characters, at most %zu)",
				   o->name, strlen(v), o->size - 1);
	if (o->str_ptr)
		return ib_opt_set_str(j, o, v, d);
	/* zero the tail too: a job is compared and copied as plain bytes */
	memset(ib_opt_field(j, o->off), 0, o->size);
	strcpy(ib_opt_field(j, o->off), v);
	return 0;
}

/* Count the digits after the '.' in a percentile. */
static unsigned int decimals(const char *s)
{
	const char *dot = strchr(s, '.');

	return dot ? (unsigned int)strspn(dot + 1, "0123456789") : 0;
}

static int store_pct_list(struct ib_job *j, const struct ib_opt *o,
			  const char *v, struct ib_diag *d)
{
	double pct[IB_MAX_PERCENTILES];
	unsigned int n = 0, prec = 0;
	const char *p = v;
	char *end;

	while (*p) {
		if (n == IB_MAX_PERCENTILES)
			return ib_diag_set(d, EINVAL, "%s: more than %d percentiles in '%s'",
					   o->name, IB_MAX_PERCENTILES, v);
		if (!isdigit((unsigned char)*p) && *p != '.')
			goto bad;
		pct[n] = strtod(p, &end);
		if (end == p || (*end && *end != ':') || pct[n] < 0 || pct[n] > 100)
			goto bad;
		if (decimals(p) > prec && decimals(p) <= (size_t)(end - p))
			prec = decimals(p);
		n++;
		p = *end ? end + 1 : end;
	}
	if (!n)
		goto bad;
	qsort(pct, n, sizeof(pct[0]), ib_cmp_double);
	memcpy(j->percentiles, pct, n * sizeof(pct[0]));
	j->nr_percentiles = n;
	j->percentile_precision = prec;
	return 0;
bad:
	return ib_diag_set(d, EINVAL, "%s: invalid percentile list '%s' (e.g. 99:99.9:99.99, each 0..100)",
			   o->name, v);
}

static int store_number(struct ib_job *j, const struct ib_opt *o,
			const char *v, struct ib_diag *d)
{
	int64_t x;
	int rc = ib_opt_parse_int(o, v, &x, d);

	if (rc)
		return rc;
	if (o->type == IB_OPT_INT)
		*(int *)ib_opt_field(j, o->off) = (int)x;
	else if (o->type == IB_OPT_U64)
		*(uint64_t *)ib_opt_field(j, o->off) = (uint64_t)x;
	else
		*(unsigned int *)ib_opt_field(j, o->off) = (unsigned int)x;
	return 0;
}

static int store_generic(struct ib_job *j, const struct ib_opt *o,
			 const char *v, struct ib_diag *d)
{
	unsigned int e;
	int rc;

	switch (o->type) {
	case IB_OPT_BOOL:
		rc = ib_parse_bool_as(o->any_int, v, ib_opt_field(j, o->off), d);
		if (rc)
			ib_diag_prefix(d, "%s", o->name);
		return rc;
	case IB_OPT_UINT:
	case IB_OPT_INT:
	case IB_OPT_U64:
		return store_number(j, o, v, d);
	case IB_OPT_SIZE:
		return store_size(j, o, v, d);
	case IB_OPT_SIZE_PCT:
		return store_size_pct(j, o, v, d);
	case IB_OPT_SIZE_RANGE:
		return store_size_range(j, o, v, d);
	case IB_OPT_BS_LIST:
	case IB_OPT_BSRANGE_LIST:
		return store_ddir_list(j, o, v, o->type == IB_OPT_BSRANGE_LIST, d);
	case IB_OPT_TIME:
		return store_time(j, o, v, d);
	case IB_OPT_STR:
		return store_str(j, o, v, d);
	case IB_OPT_ENUM:
		rc = ib_opt_enum_lookup(o, v, &e, d);
		if (!rc)
			*(unsigned int *)ib_opt_field(j, o->off) = e;
		return rc;
	case IB_OPT_PCT_LIST:
		return store_pct_list(j, o, v, d);
	default:
		return ib_diag_set(d, EINVAL, "%s: internal error (type)", o->name);
	}
}

int ib_opt_store(struct ib_job *j, const struct ib_opt *o, const char *v,
		 struct ib_diag *d)
{
	return o->set ? o->set(j, o, v, d) : store_generic(j, o, v, d);
}

static int unknown(const char *name, enum ib_opt_ctx ctx, struct ib_diag *d)
{
	char sug[200];
	bool cli = ctx == IB_OPT_CTX_CLI;

	int rc = ib_opt_refuse(name, cli, d);

	if (rc)
		return rc;
	if (ib_opt_suggest(name, NULL, cli, sug, sizeof(sug)))
		return ib_diag_set(d, EINVAL, "unknown option '%s' (did you mean %s?)",
				   name, sug);
	return ib_diag_set(d, EINVAL, "unknown option '%s'", name);
}

int ib_opt_set_ctx(struct ib_job *j, const char *name, const char *value,
		   enum ib_opt_ctx ctx, struct ib_diag *d)
{
	const struct ib_opt *o = ib_opt_find(name);
	int rc;

	if (!o)
		return unknown(name, ctx, d);
	if (!value)
		value = "";
	if (!*value && o->type != IB_OPT_BOOL && !o->bare_ok)
		return ib_diag_set(d, EINVAL, "%s: needs a value", o->name);
	rc = ib_opt_store(j, o, value, d);
	if (rc)
		return rc;
	rc = ib_job_record_opt(j, o, value);
	if (rc == -ENOSPC)
		return ib_diag_set(d, ENOSPC, "%s: too many options for one job", o->name);
	if (rc)
		return ib_diag_set(d, -rc, "%s: no memory", o->name);
	return 0;
}

int ib_opt_set(struct ib_job *j, const char *name, const char *value,
	       struct ib_diag *d)
{
	return ib_opt_set_ctx(j, name, value, IB_OPT_CTX_CLI, d);
}
