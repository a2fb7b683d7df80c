// SPDX-License-Identifier: GPL-2.0-only
/*
 * Strict, bounded JSON reader (json_read.h): recursive descent over an
 * owned copy of the text; strings are decoded in place (never longer than
 * their escaped form); values live in fixed-size chunks so that pointers
 * stay valid while the tree grows.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "iobench/json_read.h"

#define CHUNK_NODES 1024
#define NUM_MAX 64

struct ib_jv_chunk {
	struct ib_jv_chunk *next;
	unsigned int used;
	struct ib_jv v[CHUNK_NODES];
};

struct parser {
	struct ib_jdoc *doc;
	char *p, *end, *base;
	unsigned int depth;
	struct ib_diag *d;
};

static int fail(struct parser *ps, const char *what)
{
	return ib_diag_set(ps->d, EINVAL, "json: offset %zu: %s",
			   (size_t)(ps->p - ps->base), what);
}

static struct ib_jv *new_value(struct parser *ps)
{
	struct ib_jdoc *doc = ps->doc;
	struct ib_jv_chunk *c = doc->chunks;

	if (doc->nr_nodes >= IB_JSON_READ_NODES)
		return NULL;
	if (!c || c->used == CHUNK_NODES) {
		c = calloc(1, sizeof(*c));
		if (!c)
			return NULL;
		c->next = doc->chunks;
		doc->chunks = c;
	}
	doc->nr_nodes++;
	return &c->v[c->used++];
}

static void skip_ws(struct parser *ps)
{
	while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\t' ||
				   *ps->p == '\n' || *ps->p == '\r'))
		ps->p++;
}

static int parse_value(struct parser *ps, struct ib_jv *v);

static int literal(struct parser *ps, struct ib_jv *v, const char *word,
		   enum ib_jv_type type)
{
	size_t n = strlen(word);

	if ((size_t)(ps->end - ps->p) < n || memcmp(ps->p, word, n))
		return fail(ps, "invalid literal");
	ps->p += n;
	v->type = type;
	return 0;
}

static int hex4(struct parser *ps, const char *s, unsigned int *out)
{
	unsigned int i, c = 0;

	if (ps->end - s < 4)
		return fail(ps, "short \\u escape");
	for (i = 0; i < 4; i++) {
		char h = s[i];

		c <<= 4;
		if (h >= '0' && h <= '9')
			c |= (unsigned int)(h - '0');
		else if (h >= 'a' && h <= 'f')
			c |= (unsigned int)(h - 'a' + 10);
		else if (h >= 'A' && h <= 'F')
			c |= (unsigned int)(h - 'A' + 10);
		else
			return fail(ps, "invalid \\u escape");
	}
	*out = c;
	return 0;
}

static char *put_utf8(char *o, unsigned int c)
{
	if (c < 0x80) {
		*o++ = (char)c;
	} else if (c < 0x800) {
		*o++ = (char)(0xc0 | (c >> 6));
		*o++ = (char)(0x80 | (c & 0x3f));
	} else if (c < 0x10000) {
		*o++ = (char)(0xe0 | (c >> 12));
		*o++ = (char)(0x80 | ((c >> 6) & 0x3f));
		*o++ = (char)(0x80 | (c & 0x3f));
	} else {
		*o++ = (char)(0xf0 | (c >> 18));
		*o++ = (char)(0x80 | ((c >> 12) & 0x3f));
		*o++ = (char)(0x80 | ((c >> 6) & 0x3f));
		*o++ = (char)(0x80 | (c & 0x3f));
	}
	return o;
}

/* \uXXXX at ps->p (after the backslash-u); a surrogate pair is one code point */
static int unicode(struct parser *ps, unsigned int *cp)
{
	unsigned int hi = 0, lo = 0;

	if (hex4(ps, ps->p, &hi))
		return -EINVAL;
	ps->p += 4;
	if (hi >= 0xdc00 && hi <= 0xdfff)
		return fail(ps, "lone low surrogate");
	if (hi < 0xd800 || hi > 0xdbff) {
		*cp = hi;
		return 0;
	}
	if (ps->end - ps->p < 6 || ps->p[0] != '\\' || ps->p[1] != 'u')
		return fail(ps, "lone high surrogate");
	if (hex4(ps, ps->p + 2, &lo))
		return -EINVAL;
	if (lo < 0xdc00 || lo > 0xdfff)
		return fail(ps, "invalid surrogate pair");
	ps->p += 6;
	*cp = 0x10000 + ((hi - 0xd800) << 10) + (lo - 0xdc00);
	return 0;
}

static int escape(struct parser *ps, char **o)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	const char *hit;
	unsigned int cp = 0;
	char c;

	if (ps->p >= ps->end)
		return fail(ps, "unterminated string");
	c = *ps->p++;
	if (c == 'u') {
		if (unicode(ps, &cp))
			return -EINVAL;
		*o = put_utf8(*o, cp);
		return 0;
	}
	hit = c ? strchr(from, c) : NULL;
	if (!hit)
		return fail(ps, "invalid escape");
	*(*o)++ = to[hit - from];
	return 0;
}

/* A string at ps->p (on the opening quote), decoded in place. */
static int parse_string(struct parser *ps, const char **s, size_t *len)
{
	char *out = ++ps->p, *o = out;

	while (ps->p < ps->end && *ps->p != '"') {
		unsigned char c = (unsigned char)*ps->p;

		if (c < 0x20)
			return fail(ps, "control character in string");
		ps->p++;
		if (c != '\\')
			*o++ = (char)c;
		else if (escape(ps, &o))
			return -EINVAL;
	}
	if (ps->p >= ps->end)
		return fail(ps, "unterminated string");
	ps->p++;
	*o = '\0';
	*s = out;
	*len = (size_t)(o - out);
	return 0;
}

static const char *digits(const char *p, const char *end)
{
	while (p < end && *p >= '0' && *p <= '9')
		p++;
	return p;
}

/* The extent of a number by the JSON grammar; NULL if it breaks it. */
static const char *number_end(const char *p, const char *end, bool *integer)
{
	const char *q;

	*integer = true;
	if (p < end && *p == '-')
		p++;
	if (p < end && *p == '0')
		p++;
	else if ((q = digits(p, end)) != p)
		p = q;
	else
		return NULL;
	if (p < end && *p == '.') {
		*integer = false;
		q = digits(++p, end);
		if (q == p)
			return NULL;
		p = q;
	}
	if (p < end && (*p == 'e' || *p == 'E')) {
		*integer = false;
		if (++p < end && (*p == '+' || *p == '-'))
			p++;
		q = digits(p, end);
		if (q == p)
			return NULL;
		p = q;
	}
	return p;
}

static int parse_number(struct parser *ps, struct ib_jv *v)
{
	char buf[NUM_MAX + 1];
	bool integer;
	const char *e = number_end(ps->p, ps->end, &integer);
	size_t n;

	if (!e)
		return fail(ps, "invalid number");
	n = (size_t)(e - ps->p);
	if (n > NUM_MAX)
		return fail(ps, "number too long");
	memcpy(buf, ps->p, n);
	buf[n] = '\0';
	v->type = IB_JV_NUM;
	v->num = strtod(buf, NULL);
	if (integer && buf[0] != '-') {
		errno = 0;
		v->u64 = strtoull(buf, NULL, 10);
		v->is_u64 = errno == 0;
	}
	ps->p += n;
	return 0;
}

/* Elements of an array or members of an object, after the opening bracket. */
static int parse_elements(struct parser *ps, struct ib_jv *v, char close)
{
	struct ib_jv **tail = &v->child, *e;
	const char *key = NULL;
	size_t klen;

	skip_ws(ps);
	if (ps->p < ps->end && *ps->p == close) {
		ps->p++;
		return 0;
	}
	for (;;) {
		if (close == '}') {
			if (ps->p >= ps->end || *ps->p != '"')
				return fail(ps, "expected a member name");
			if (parse_string(ps, &key, &klen))
				return -EINVAL;
			skip_ws(ps);
			if (ps->p >= ps->end || *ps->p != ':')
				return fail(ps, "expected ':'");
			ps->p++;
		}
		e = new_value(ps);
		if (!e)
			return ib_diag_set(ps->d, ENOMEM, "json: offset %zu: too many values",
					   (size_t)(ps->p - ps->base));
		e->key = key;
		*tail = e;
		tail = &e->next;
		v->nr++;
		if (parse_value(ps, e))
			return -EINVAL;
		skip_ws(ps);
		if (ps->p < ps->end && *ps->p == close) {
			ps->p++;
			return 0;
		}
		if (ps->p >= ps->end || *ps->p != ',')
			return fail(ps, close == '}' ? "expected ',' or '}'" : "expected ',' or ']'");
		ps->p++;
		skip_ws(ps);
	}
}

static int parse_nested(struct parser *ps, struct ib_jv *v, enum ib_jv_type type)
{
	int ret;

	if (++ps->depth > IB_JSON_READ_DEPTH)
		return fail(ps, "nested too deep");
	ps->p++;
	v->type = type;
	ret = parse_elements(ps, v, type == IB_JV_OBJ ? '}' : ']');
	ps->depth--;
	return ret;
}

static int parse_value(struct parser *ps, struct ib_jv *v)
{
	skip_ws(ps);
	if (ps->p >= ps->end)
		return fail(ps, "expected a value");
	switch (*ps->p) {
	case '{':
		return parse_nested(ps, v, IB_JV_OBJ);
	case '[':
		return parse_nested(ps, v, IB_JV_ARR);
	case '"':
		v->type = IB_JV_STR;
		return parse_string(ps, &v->str, &v->len);
	case 't':
		return literal(ps, v, "true", IB_JV_TRUE);
	case 'f':
		return literal(ps, v, "false", IB_JV_FALSE);
	case 'n':
		return literal(ps, v, "null", IB_JV_NULL);
	default:
		if (*ps->p == '-' || (*ps->p >= '0' && *ps->p <= '9'))
			return parse_number(ps, v);
		return fail(ps, "expected a value");
	}
}

int ib_json_parse(struct ib_jdoc *doc, const char *text, size_t len,
		  struct ib_diag *d)
{
	struct parser ps = { .doc = doc, .d = d };
	int ret;

	memset(doc, 0, sizeof(*doc));
	if (len > IB_JSON_READ_MAX)
		return ib_diag_set(d, E2BIG, "json: %zu bytes, more than the %u allowed",
				   len, IB_JSON_READ_MAX);
	doc->text = malloc(len + 1);
	doc->root = doc->text ? new_value(&ps) : NULL;
	if (!doc->root) {
		ib_jdoc_free(doc);
		return ib_diag_set(d, ENOMEM, "json: out of memory");
	}
	memcpy(doc->text, text, len);
	doc->text[len] = '\0';
	ps.base = ps.p = doc->text;
	ps.end = doc->text + len;
	ret = parse_value(&ps, doc->root);
	if (!ret) {
		skip_ws(&ps);
		if (ps.p != ps.end)
			ret = fail(&ps, "text after the value");
	}
	if (ret) {
		ib_jdoc_free(doc);
		return ret;
	}
	return 0;
}

void ib_jdoc_free(struct ib_jdoc *doc)
{
	struct ib_jv_chunk *c = doc->chunks, *n;

	for (; c; c = n) {
		n = c->next;
		free(c);
	}
	free(doc->text);
	memset(doc, 0, sizeof(*doc));
}

const struct ib_jv *ib_jv_get(const struct ib_jv *o, const char *key)
{
	const struct ib_jv *e;

	if (!o || o->type != IB_JV_OBJ)
		return NULL;
	for (e = o->child; e; e = e->next)
		if (!strcmp(e->key, key))
			return e;
	return NULL;
}

bool ib_jv_u64(const struct ib_jv *v, uint64_t *out)
{
	if (!v || v->type != IB_JV_NUM || !v->is_u64)
		return false;
	*out = v->u64;
	return true;
}

bool ib_jv_double(const struct ib_jv *v, double *out)
{
	if (!v || v->type != IB_JV_NUM)
		return false;
	*out = v->num;
	return true;
}

const char *ib_jv_str(const struct ib_jv *v)
{
	return v && v->type == IB_JV_STR ? v->str : NULL;
}
