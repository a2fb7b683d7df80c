// SPDX-License-Identifier: GPL-2.0-only
/*
 * Value parsers: sizes, percentages, times, integers and booleans, the way
 * fio reads them (doc/fio-compat.md §5). Everything is pure: a string in, a
 * number or -EINVAL/-ERANGE with one line in the diag out.
 *
 * Numbers are evaluated in long double. On x86-64 (and every target with an
 * IEEE extended or quad long double) its 64-bit mantissa holds every uint64_t
 * exactly, and all suffix multipliers are exact, so integer inputs give exact
 * results; decimals ("1.5m") are truncated toward zero at the end, as fio does.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "iobench/compiler.h"
#include "iobench/parse.h"

#define U64_LIMIT 18446744073709551616.0L /* 2^64 */
#define MAX_DEPTH 32

enum kind { K_SIZE, K_TIME, K_PLAIN };

/* Cursor over the text being parsed; err is the first error met. */
struct cur {
	const char *s;
	const char *p;
	enum kind kind;
	unsigned int kb_base;
	int depth;
	int err;
	const char *why;	/* extra detail for the message, or NULL */
};

static void skip_ws(struct cur *c)
{
	while (isspace((unsigned char)*c->p))
		c->p++;
}

static void fail(struct cur *c, int err, const char *why)
{
	if (!c->err) {
		c->err = err;
		c->why = why;
	}
}

static long double ipow(long double base, unsigned int n)
{
	long double r = 1;

	while (n--)
		r *= base;
	return r;
}

/*
 * Size suffix at c->p: [kmgtp] then optional "i", then optional "b"; or a
 * lone "b". Only the full three-letter "kib/mib/..." form takes the other
 * base (fio's measured behaviour: 1MiB = 10^6 under kb_base=1024, while
 * "1mi" and "1mb" are 2^20). Returns the multiplier (1 if none).
 */
static long double size_suffix(struct cur *c)
{
	static const char letters[] = "kmgtp";
	const char *l = strchr(letters, tolower((unsigned char)*c->p));
	unsigned int base = c->kb_base, other = base == 1000 ? 1024 : 1000;
	unsigned int n;

	if (*c->p && l) {
		n = (unsigned int)(l - letters) + 1;
		c->p++;
		if (tolower((unsigned char)c->p[0]) == 'i' &&
		    tolower((unsigned char)c->p[1]) == 'b') {
			c->p += 2;
			return ipow(other, n);
		}
		if (tolower((unsigned char)*c->p) == 'i')
			c->p++;
		if (tolower((unsigned char)*c->p) == 'b')
			c->p++;
		return ipow(base, n);
	}
	if (tolower((unsigned char)*c->p) == 'b')
		c->p++;
	return 1;
}

/* Digits, optional fraction, or 0x hex. */
static long double number(struct cur *c)
{
	long double v = 0, scale = 1;
	bool any = false;

	if (c->p[0] == '0' && (c->p[1] == 'x' || c->p[1] == 'X')) {
		c->p += 2;
		while (isxdigit((unsigned char)*c->p)) {
			int ch = tolower((unsigned char)*c->p++);

			v = v * 16 + (isdigit(ch) ? ch - '0' : ch - 'a' + 10);
			any = true;
		}
		if (!any)
			fail(c, EINVAL, NULL);
		return v;
	}
	while (isdigit((unsigned char)*c->p)) {
		v = v * 10 + (*c->p++ - '0');
		any = true;
	}
	if (*c->p == '.') {
		c->p++;
		while (isdigit((unsigned char)*c->p)) {
			scale /= 10;
			v += (*c->p++ - '0') * scale;
			any = true;
		}
	}
	if (!any)
		fail(c, EINVAL, NULL);
	return v;
}

static long double expr(struct cur *c);

/* "(expr)" or a number, either with a size suffix in a size. */
static long double primary(struct cur *c)
{
	long double v;

	skip_ws(c);
	if (*c->p == '(') {
		if (++c->depth > MAX_DEPTH) {
			fail(c, EINVAL, "nested too deeply");
			return 0;
		}
		c->p++;
		v = expr(c);
		skip_ws(c);
		if (*c->p != ')')
			fail(c, EINVAL, "missing ')'");
		else
			c->p++;
		c->depth--;
		skip_ws(c);	/* "(1+2) k" */
	} else {
		v = number(c);
	}
	if (c->kind == K_SIZE)
		v *= size_suffix(c);
	return v;
}

static long double unary(struct cur *c)
{
	skip_ws(c);
	if (*c->p == '-') {
		c->p++;
		return -unary(c);
	}
	if (*c->p == '+') {
		c->p++;
		return unary(c);
	}
	return primary(c);
}

/* '^' is power and binds right: 2^3^2 = 2^9. */
static long double power(struct cur *c)
{
	long double v = unary(c);

	skip_ws(c);
	if (*c->p == '^') {
		c->p++;
		v = powl(v, power(c));
	}
	return v;
}

static long double term(struct cur *c)
{
	long double v = power(c), r;
	char op;

	for (;;) {
		skip_ws(c);
		op = *c->p;
		if (op != '*' && op != '/' && op != '%')
			return v;
		c->p++;
		r = power(c);
		if (op == '*') {
			v *= r;
		} else if (r == 0) {
			fail(c, EINVAL, "division by zero");
			return 0;
		} else {
			v = op == '/' ? v / r : fmodl(v, r);
		}
	}
}

static long double expr(struct cur *c)
{
	long double v = term(c);
	char op;

	for (;;) {
		skip_ws(c);
		op = *c->p;
		if (op != '+' && op != '-')
			return v;
		c->p++;
		v = op == '+' ? v + term(c) : v - term(c);
	}
}

/*
 * A whole value is an expression: "4k", "(4*1024)k", "8*2048" (what
 * "8*$mb_memory" becomes in a job file), "0x10". Time suffixes are handled
 * by the caller, which passes the string without them.
 */
static long double value(struct cur *c)
{
	long double v = expr(c);

	skip_ws(c);
	if (*c->p)
		fail(c, EINVAL, NULL);
	return v;
}

static const char *kind_name(enum kind k)
{
	return k == K_SIZE ? "size" : k == K_TIME ? "time" : "number";
}

/*
 * A plain decimal or 0x integer is converted exactly with strtoull, never
 * through long double: where long double is emulated with a 53-bit mantissa
 * (valgrind does that) the values near 2^64 would round. Returns false when
 * s is anything else (suffix, expression, fraction).
 */
static bool plain_integer(const char *s, uint64_t *out, int *err)
{
	const char *p = s;
	unsigned long long v;
	char *end;
	int base = 10;

	while (isspace((unsigned char)*p))
		p++;
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		base = 16;
	if (!isdigit((unsigned char)*p))
		return false;
	errno = 0;
	v = strtoull(p, &end, base);
	while (isspace((unsigned char)*end))
		end++;
	if (*end || end == p)
		return false;
	*err = errno == ERANGE ? ERANGE : 0;
	if (!*err)
		*out = v;
	return true;
}

/* Evaluate s[0..len) as kind; store a truncated uint64_t in *out. */
static int eval(const char *s, size_t len, enum kind k, unsigned int kb_base,
		long double scale, uint64_t *out, const char *orig,
		struct ib_diag *d)
{
	char buf[256];
	struct cur c = { .s = buf, .p = buf, .kind = k, .kb_base = kb_base };
	long double v;
	int err;

	if (len >= sizeof(buf))
		return ib_diag_set(d, EINVAL, "invalid %s '%.40s...' (too long)",
				   kind_name(k), orig);
	memcpy(buf, s, len);
	buf[len] = '\0';
	if (scale == 1 && plain_integer(buf, out, &err)) {
		if (err)
			return ib_diag_set(d, ERANGE, "%s '%s' is out of range (more than 64 bits)",
					   kind_name(k), orig);
		return 0;
	}
	v = value(&c) * scale;
	if (c.err)
		return c.why ? ib_diag_set(d, c.err, "invalid %s '%s' (%s)",
					   kind_name(k), orig, c.why)
			     : ib_diag_set(d, c.err, "invalid %s '%s'",
					   kind_name(k), orig);
	if (isnan(v))
		return ib_diag_set(d, EINVAL, "invalid %s '%s'", kind_name(k), orig);
	if (v < 0)
		return ib_diag_set(d, EINVAL, "invalid %s '%s' (negative)",
				   kind_name(k), orig);
	if (v >= U64_LIMIT)
		return ib_diag_set(d, ERANGE, "%s '%s' is out of range (more than 64 bits)",
				   kind_name(k), orig);
	*out = (uint64_t)v;
	return 0;
}

int ib_parse_size(const char *s, unsigned int kb_base, uint64_t *out,
		  struct ib_diag *d)
{
	if (kb_base != 1000)
		kb_base = 1024;
	return eval(s, strlen(s), K_SIZE, kb_base, 1, out, s, d);
}

int ib_parse_size_pct(const char *s, unsigned int kb_base, uint64_t *out,
		      uint8_t *pct, struct ib_diag *d)
{
	size_t len = strlen(s);
	uint64_t v;
	int rc;

	while (len && isspace((unsigned char)s[len - 1]))
		len--;
	if (!len || s[len - 1] != '%') {
		rc = ib_parse_size(s, kb_base, out, d);
		if (!rc)
			*pct = 0;
		return rc;
	}
	/* "100%%": a '%' escaped as in a printf format, as fio reads it */
	if (len > 1 && s[len - 2] == '%')
		len--;
	rc = eval(s, len - 1, K_PLAIN, 1024, 1, &v, s, d);
	if (rc)
		return ib_diag_set(d, EINVAL, "invalid percentage '%s'", s);
	if (v > 100)
		return ib_diag_set(d, ERANGE, "percentage '%s' is out of range (0..100%%)", s);
	*pct = (uint8_t)v;
	if (v == 0)
		*out = 0;
	return 0;
}

struct time_unit {
	const char *sfx;
	uint64_t us;
};

/* Longest first so "ms" wins over "s" and "usec" over "sec". */
static const struct time_unit time_units[] = {
	{ "usec", 1 }, { "msec", 1000 }, { "sec", 1000000 },
	{ "min", 60000000ull }, { "us", 1 }, { "ms", 1000 },
	{ "s", 1000000 }, { "m", 60000000ull }, { "h", 3600000000ull },
	{ "d", 86400000000ull },
};

int ib_parse_time_us(const char *s, uint64_t default_unit_us, uint64_t *out,
		     struct ib_diag *d)
{
	size_t len = strlen(s), n, i;
	uint64_t unit = default_unit_us;

	while (len && isspace((unsigned char)s[len - 1]))
		len--;
	for (i = 0; i < IB_ARRAY_SIZE(time_units); i++) {
		n = strlen(time_units[i].sfx);
		if (len > n && !strncasecmp(s + len - n, time_units[i].sfx, n) &&
		    !isalpha((unsigned char)s[len - n - 1])) {
			unit = time_units[i].us;
			len -= n;
			break;
		}
	}
	return eval(s, len, K_TIME, 1024, (long double)unit, out, s, d);
}

int ib_parse_uint(const char *s, uint64_t *out, struct ib_diag *d)
{
	return eval(s, strlen(s), K_PLAIN, 1024, 1, out, s, d);
}

/* One of the words: 0 with *out set; 1 when s is none of them. */
static int bool_word(const char *s, bool *out)
{
	static const char *const yes[] = { "", "1", "true", "yes", "on" };
	static const char *const no[] = { "0", "false", "no", "off" };
	size_t i;

	for (i = 0; i < IB_ARRAY_SIZE(yes); i++) {
		if (!strcasecmp(s, yes[i])) {
			*out = true;
			return 0;
		}
	}
	for (i = 0; i < IB_ARRAY_SIZE(no); i++) {
		if (!strcasecmp(s, no[i])) {
			*out = false;
			return 0;
		}
	}
	return 1;
}

/*
 * A word, or an integer as fio reads it ("0x1", "01" too): any with
 * any_int (fio's set-style options), else 0 or 1 only. fio refuses one
 * above 1 for its boolean options and takes a negative one as true, which
 * no job means: refused here too, so 2 or -1 never reads as on.
 */
int ib_parse_bool_as(bool any_int, const char *s, bool *out,
		     struct ib_diag *d)
{
	long long n;
	char *end;

	if (!bool_word(s, out))
		return 0;
	errno = 0;
	n = strtoll(s, &end, 0);
	if (end != s && !*end && !errno && (any_int || n == 0 || n == 1)) {
		*out = n != 0;
		return 0;
	}
	return ib_diag_set(d, EINVAL,
			   "invalid boolean '%s' (use 1/0, true/false, yes/no, on/off)", s);
}

int ib_parse_bool(const char *s, bool *out, struct ib_diag *d)
{
	return ib_parse_bool_as(false, s, out, d);
}
