// SPDX-License-Identifier: GPL-2.0-only
/*
 * `iobench compare` (plotcmd.h): load both sides' documents, build the
 * comparison, print it, check the gate, draw the charts when asked.
 * Exit 0, 1 (bad input, unreadable file, no job in common) or 2 (the gate
 * fired).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "iobench/fdout.h"
#include "iobench/safe_open.h"
#include "iobench/cmd.h"
#include "iobench/plotcmd.h"

static const char usage[] =
	"usage: iobench compare [OPTIONS] BASE.json NEW.json [NEW2.json ...]\n"
	"       iobench compare [OPTIONS] --base A1.json A2.json --new B1.json B2.json\n"
	"Compares iobench or fio (json, json+) results, or iobench's per-interval\n"
	"streams (--interval-json), per job and direction.\n"
	"  --fail-if=RULES  exit 2 on a change outside the noise, e.g.\n"
	"                   'p99>+10%,iops<-5%' (iops bw mean p50 p90 p99 p99.9)\n"
	"  --alpha=P        level of the noise test (0.05)\n"
	"  --floor=PCT      smallest change that counts (5)\n"
	"  --plot=OUT       charts: OUT.svg (IOPS bars) or OUT.html (page)\n";

/* Load n files into docs[] (pointers ptr[]); 0 or 1 with a line on stderr. */
static int load_all(const char *const *files, unsigned int n,
		    struct ib_results *docs, const struct ib_results **ptr)
{
	struct ib_diag d = { { 0 } };
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (ib_results_load_any(&docs[i], files[i], &d) < 0) {
			fprintf(stderr, "iobench: compare: %s\n", d.msg);
			while (i--)
				ib_results_free(&docs[i]);
			return 1;
		}
		ptr[i] = &docs[i];
	}
	return 0;
}

static void free_all(struct ib_results *docs, unsigned int n)
{
	while (n--)
		ib_results_free(&docs[n]);
}

static bool ends_with(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);

	return a >= b && !strcmp(s + a - b, suf);
}

static int plot(const char *out, const struct ib_cmp *c, const char *bn,
		const char *nn_name,
		const struct ib_results *const *b, unsigned int nb,
		const struct ib_results *const *n, unsigned int nn)
{
	struct ib_diag d = { { 0 } };
	FILE *f = ib_safety_open_output("--output", out, &d);
	struct ib_out_id id;
	int ret;

	if (!f) {
		fprintf(stderr, "iobench: compare: %s\n", d.msg);
		return 1;
	}
	ret = ib_page_compare(f, ends_with(out, ".html"), c, bn, nn_name, b, nb, n, nn, &d);
	ib_safety_out_id(f, &id);
	if (fclose(f) && !ret)
		ret = ib_diag_set(&d, EIO, "cannot write %s", out);
	if (ret) {
		fprintf(stderr, "iobench: compare: %s\n", d.msg);
		ib_safety_remove_output(out, &id);
		return 1;
	}
	return 0;
}

/* "a.json" or "a1.json a2.json ..." into buf */
static const char *side_name(char *buf, size_t len, const char *const *files,
			     unsigned int n)
{
	size_t used = 0;
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; i < n && used + 1 < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
					 i ? " " : "", files[i]);
	return buf;
}

struct side {
	const struct ib_results *const *docs;
	const char *const *files;
	unsigned int n;
};

/* One comparison: print, gate (adds to *fired), plot. 0 or 1. */
static int one(const struct ib_cmd_args *a, const struct side *b,
	       const struct side *n, bool draw, unsigned int *fired)
{
	char bn[1024], nn[1024];
	struct ib_diag d = { { 0 } };
	struct ib_cmp c;
	int rc = 0;

	if (ib_cmp_build(&c, b->docs, b->n, n->docs, n->n, &a->cmp, &d) < 0) {
		fprintf(stderr, "iobench: %s\n", d.msg);
		return 1;
	}
	side_name(bn, sizeof(bn), b->files, b->n);
	side_name(nn, sizeof(nn), n->files, n->n);
	ib_cmp_print(stdout, &c, bn, nn);
	if (!ib_cmp_matched(&c)) {
		char eb[sizeof(bn) * 4], en[sizeof(nn) * 4];

		ib_diag_escape(eb, sizeof(eb), bn);
		ib_diag_escape(en, sizeof(en), nn);
		fprintf(stderr, "iobench: compare: %s and %s ran different jobs: "
			"no job and direction in common\n", eb, en);
		rc = 1;
	}
	if (a->has_gate)
		*fired += ib_gate_check(&a->gate, &c, stdout);
	if (!rc && draw && a->output)
		rc = plot(a->output, &c, bn, nn, b->docs, b->n, n->docs, n->n);
	ib_cmp_free(&c);
	return rc;
}

static int run_sides(const struct ib_cmd_args *a, const struct side *b,
		     const struct side *n)
{
	unsigned int fired = 0, i;
	int rc = 0, ret;

	if (!a->pairwise) {
		rc = one(a, b, n, true, &fired);
	} else {
		for (i = 0; i < n->n; i++) {
			struct side one_new = { n->docs + i, n->files + i, 1 };

			if (i)
				fputc('\n', stdout);
			rc |= one(a, b, &one_new, i == 0, &fired);
		}
	}
	ret = ib_stream_flush_err(stdout);
	if (ret) {
		fprintf(stderr, "iobench: compare: cannot write to stdout: %s\n",
			strerror(-ret));
		return 1;
	}
	if (rc)
		return 1;
	if (a->has_gate && fired) {
		printf("gate: FAILED (%u)\n", fired);
		return IB_CMP_EXIT_GATE;
	}
	if (a->has_gate)
		printf("gate: passed\n");
	return 0;
}

int ib_cmd_compare(int argc, char **argv)
{
	struct ib_cmd_args a;
	struct ib_diag d = { { 0 } };
	struct ib_results *docs;
	const struct ib_results **ptr;
	int rc = 1;

	if (ib_compare_parse(argc, argv, &a, &d) < 0) {
		/* one line per error; the usage is --help's */
		fprintf(stderr, "iobench: %s\n", d.msg);
		return 1;
	}
	if (a.help) {
		fputs(usage, stdout);
		return 0;
	}
	docs = calloc(a.nb + a.nn, sizeof(*docs));
	ptr = calloc(a.nb + a.nn, sizeof(*ptr));
	if (docs && ptr && !load_all(a.base, a.nb, docs, ptr)) {
		if (!load_all(a.nw, a.nn, docs + a.nb, ptr + a.nb)) {
			struct side b = { ptr, a.base, a.nb };
			struct side n = { ptr + a.nb, a.nw, a.nn };

			rc = run_sides(&a, &b, &n);
			free_all(docs + a.nb, a.nn);
		}
		free_all(docs, a.nb);
	}
	free(docs);
	free(ptr);
	return rc;
}
