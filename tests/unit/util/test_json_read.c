// SPDX-License-Identifier: GPL-2.0-only
/*
 * The strict JSON reader: values, escapes and numbers come back exactly;
 * every malformed document is refused with the byte offset; the limits
 * (depth, size, number length) hold.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "iobench/json_read.h"

static int parse(struct ib_jdoc *doc, const char *text, struct ib_diag *d)
{
	d->msg[0] = '\0';
	return ib_json_parse(doc, text, strlen(text), d);
}

static void test_values(void **state)
{
	static const char text[] =
		" {\"s\" : \"a\\\"b\\\\c\\/\\n\\t\\u00e9\\ud83d\\ude00\",\n"
		"  \"u\" : 18446744073709551615, \"big\" : 18446744073709551616,\n"
		"  \"neg\" : -3, \"f\" : 1.5e3, \"z\" : 0, \"fz\" : -0.25,\n"
		"  \"t\" : true, \"n\" : null, \"x\" : false, \"nul\" : \"a\\u0000b\",\n"
		"  \"a\" : [1, {\"k\" : []}, \"\"], \"o\" : {}, \"s\" : 2 }\r\n";
	const struct ib_jv *v, *a;
	struct ib_diag d;
	struct ib_jdoc doc;
	uint64_t u = 7;
	double f = 0;

	(void)state;
	assert_int_equal(parse(&doc, text, &d), 0);
	assert_int_equal(doc.root->type, IB_JV_OBJ);
	assert_int_equal(doc.root->nr, 14);
	/* first of two "s" wins; UTF-8 from \u and a surrogate pair */
	assert_string_equal(ib_jv_str(ib_jv_get(doc.root, "s")),
			    "a\"b\\c/\n\t\xc3\xa9\xf0\x9f\x98\x80");
	assert_true(ib_jv_u64(ib_jv_get(doc.root, "u"), &u));
	assert_true(u == UINT64_MAX);
	v = ib_jv_get(doc.root, "big");	/* 2^64: a number, not a u64 */
	assert_false(ib_jv_u64(v, &u));
	assert_true(ib_jv_double(v, &f) && f == 18446744073709551616.0);
	v = ib_jv_get(doc.root, "neg");
	assert_false(ib_jv_u64(v, &u));
	assert_true(ib_jv_double(v, &f) && f == -3.0);
	v = ib_jv_get(doc.root, "f");
	assert_false(v->is_u64);
	assert_true(ib_jv_double(v, &f) && f == 1500.0);
	assert_true(ib_jv_u64(ib_jv_get(doc.root, "z"), &u) && u == 0);
	assert_true(ib_jv_double(ib_jv_get(doc.root, "fz"), &f) && f == -0.25);
	assert_int_equal(ib_jv_get(doc.root, "t")->type, IB_JV_TRUE);
	assert_int_equal(ib_jv_get(doc.root, "n")->type, IB_JV_NULL);
	assert_int_equal(ib_jv_get(doc.root, "x")->type, IB_JV_FALSE);
	v = ib_jv_get(doc.root, "nul");
	assert_int_equal(v->len, 3);
	assert_memory_equal(v->str, "a\0b", 4);
	a = ib_jv_get(doc.root, "a");
	assert_int_equal(a->type, IB_JV_ARR);
	assert_int_equal(a->nr, 3);
	assert_null(a->child->key);
	assert_int_equal(ib_jv_get(a->child->next, "k")->nr, 0);
	assert_string_equal(ib_jv_str(a->child->next->next), "");
	assert_int_equal(ib_jv_get(doc.root, "o")->nr, 0);
	assert_null(ib_jv_get(doc.root, "missing"));
	assert_null(ib_jv_get(a, "k"));		/* not an object */
	assert_null(ib_jv_str(ib_jv_get(doc.root, "u")));
	assert_false(ib_jv_u64(NULL, &u));
	ib_jdoc_free(&doc);
	assert_null(doc.root);
}

/* A bare value is a document too */
static void test_scalar_roots(void **state)
{
	struct ib_jdoc doc;
	struct ib_diag d;
	uint64_t u = 0;

	(void)state;
	assert_int_equal(parse(&doc, "42", &d), 0);
	assert_true(ib_jv_u64(doc.root, &u) && u == 42);
	ib_jdoc_free(&doc);
	assert_int_equal(parse(&doc, "\"x\"", &d), 0);
	assert_string_equal(ib_jv_str(doc.root), "x");
	ib_jdoc_free(&doc);
}

static const struct bad {
	const char *text;
	const char *msg;
} bad_docs[] = {
	{ "", "json: offset 0: expected a value" },
	{ "   ", "json: offset 3: expected a value" },
	{ "{\"a\":1,}", "json: offset 7: expected a member name" },
	{ "[1,]", "json: offset 3: expected a value" },
	{ "[1 2]", "json: offset 3: expected ',' or ']'" },
	{ "{\"a\" 1}", "json: offset 5: expected ':'" },
	{ "{\"a\":1 \"b\":2}", "json: offset 7: expected ',' or '}'" },
	{ "{a:1}", "json: offset 1: expected a member name" },
	{ "01", "json: offset 1: text after the value" },
	{ "-", "json: offset 0: invalid number" },
	{ "1.", "json: offset 0: invalid number" },
	{ "1e", "json: offset 0: invalid number" },
	{ ".5", "json: offset 0: expected a value" },
	{ "+1", "json: offset 0: expected a value" },
	{ "tru", "json: offset 0: invalid literal" },
	{ "nul", "json: offset 0: invalid literal" },
	{ "\"abc", "json: offset 4: unterminated string" },
	{ "\"a\tb\"", "json: offset 2: control character in string" },
	{ "\"\\x\"", "json: offset 3: invalid escape" },
	{ "\"\\u12\"", "json: offset 3: short \\u escape" },
	{ "\"\\u12g4\"", "json: offset 3: invalid \\u escape" },
	{ "\"\\ud800\"", "json: offset 7: lone high surrogate" },
	{ "\"\\ud800\\u0041\"", "json: offset 7: invalid surrogate pair" },
	{ "\"\\udc00\"", "json: offset 7: lone low surrogate" },
	{ "{} {}", "json: offset 3: text after the value" },
	{ "[1] x", "json: offset 4: text after the value" },
	{ "/* c */ 1", "json: offset 0: expected a value" },
	{ "{\"a\":1} // c", "json: offset 8: text after the value" },
	{ "1234567890123456789012345678901234567890123456789012345678901234567890",
	  "json: offset 0: number too long" },
};

static void test_invalid(void **state)
{
	struct ib_jdoc doc;
	struct ib_diag d;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad_docs) / sizeof(bad_docs[0]); i++) {
		int ret = parse(&doc, bad_docs[i].text, &d);

		if (ret != -EINVAL || strcmp(d.msg, bad_docs[i].msg))
			fprintf(stderr, "doc %zu '%s': %d '%s'\n", i, bad_docs[i].text, ret, d.msg);
		assert_int_equal(ret, -EINVAL);
		assert_string_equal(d.msg, bad_docs[i].msg);
		assert_null(doc.root);
	}
	/* a NUL byte inside the given length is not white space */
	d.msg[0] = '\0';
	assert_int_equal(ib_json_parse(&doc, "1\0", 2, &d), -EINVAL);
	assert_string_equal(d.msg, "json: offset 1: text after the value");
}

static char *nested(unsigned int depth)
{
	char *s = malloc(2 * depth + 1);
	unsigned int i;

	for (i = 0; i < depth; i++) {
		s[i] = '[';
		s[depth + i] = ']';
	}
	s[2 * depth] = '\0';
	return s;
}

static void test_limits(void **state)
{
	char *ok = nested(IB_JSON_READ_DEPTH), *deep = nested(IB_JSON_READ_DEPTH + 1);
	struct ib_jdoc doc;
	struct ib_diag d;

	(void)state;
	assert_int_equal(parse(&doc, ok, &d), 0);
	ib_jdoc_free(&doc);
	assert_int_equal(parse(&doc, deep, &d), -EINVAL);
	assert_string_equal(d.msg, "json: offset 64: nested too deep");
	/* the size is checked before anything is read */
	assert_int_equal(ib_json_parse(&doc, "", (size_t)IB_JSON_READ_MAX + 1, &d), -E2BIG);
	assert_string_equal(d.msg, "json: 67108865 bytes, more than the 67108864 allowed");
	free(ok);
	free(deep);
}

/* Thousands of values spill over several node chunks; all stay reachable */
static void test_many_values(void **state)
{
	size_t n = 5000, i, len = 0;
	char *s = malloc(n * 8 + 4);
	const struct ib_jv *e;
	struct ib_jdoc doc;
	struct ib_diag d;
	uint64_t sum = 0, u;

	(void)state;
	s[len++] = '[';
	for (i = 0; i < n; i++)
		len += (size_t)sprintf(s + len, "%s%zu", i ? "," : "", i);
	s[len++] = ']';
	s[len] = '\0';
	assert_int_equal(parse(&doc, s, &d), 0);
	assert_int_equal(doc.root->nr, n);
	for (e = doc.root->child; e; e = e->next)
		if (ib_jv_u64(e, &u))
			sum += u;
	assert_int_equal(sum, n * (n - 1) / 2);
	assert_int_equal(doc.nr_nodes, n + 1);
	ib_jdoc_free(&doc);
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_scalar_roots),
		cmocka_unit_test(test_invalid),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_many_values),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
