/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_PLOTCMD_H
#define IOBENCH_PLOTCMD_H

#include <stdbool.h>
#include <stdio.h>
#include "iobench/compare.h"
#include "iobench/diag.h"
#include "iobench/results.h"

/*
 * The subcommands that read results back (`iobench compare`, `plot`,
 * `report`) and the run-level --plot, --report and --hist outputs.
 *
 * Arguments (parsed by cmd/compare_cli.c, cmd.h):
 *   compare [--fail-if=RULES] [--alpha=P] [--floor=PCT] [--plot=OUT]
 *           BASE NEW [NEW...] | --base FILE... --new FILE...
 *   plot    [-o|--output=OUT] [--avg-msec=MS] FILE...   (JSON or fio logs)
 *   report  [-o|--output=OUT.html] FILE.json...   (no -o: stdout)
 * OUT ending in ".html" is a page holding every chart; ".svg" one chart.
 */
#define IB_CMD_MAX_FILES 64

struct ib_cmd_args {
	const char *base[IB_CMD_MAX_FILES], *nw[IB_CMD_MAX_FILES];
	unsigned int nb, nn;		/* compare: the sides */
	bool pairwise;			/* positional: base vs each new in turn */
	const char *files[IB_CMD_MAX_FILES];	/* plot/report: inputs */
	unsigned int nfiles;
	const char *output;		/* --plot / -o, or NULL */
	struct ib_gate gate;
	bool has_gate;
	struct ib_cmp_opts cmp;
	unsigned int avg_ms;		/* plot: log averaging window */
	bool rate;			/* bw/iops logs per I/O: rates per window */
	bool help;
};

/* Exit statuses of compare: 0, 1 (bad input), 2 (the gate fired). */
#define IB_CMP_EXIT_GATE 2


/*
 * Charts of results documents (src/report/html/page.c). ib_page_write: the
 * self-contained HTML report of docs[0..n) named names[i] (files: names
 * are the JSON files read, whose other sections beyond fio's are shown
 * too, as written): a summary table per document, its validity findings
 * and environment when it has them (iobench's), its latency histogram and
 * CDF per job and direction, and
 * with two or more documents the comparison of each with the first (table,
 * IOPS bars, CDFs). ib_page_svg: one SVG, the latency CDF of every job and
 * direction of every document. Both return 0 or -errno (d says why).
 */
int ib_page_write(FILE *f, const char *title,
		  const struct ib_results *const *docs,
		  const char *const *names, unsigned int n, bool files,
		  struct ib_diag *d);
int ib_page_svg(FILE *f, const struct ib_results *const *docs,
		const char *const *names, unsigned int n, struct ib_diag *d);
/*
 * compare's charts: ".svg" the IOPS bars (a group per job and direction, a
 * bar per side); ".html" a page with the table, the bars of IOPS, bw and
 * p99, and per job and direction the two sides' latency CDFs (each side's
 * runs merged).
 */
int ib_page_compare(FILE *f, bool html, const struct ib_cmp *c,
		    const char *base_name, const char *new_name,
		    const struct ib_results *const *base, unsigned int nb,
		    const struct ib_results *const *nw, unsigned int nn,
		    struct ib_diag *d);
/*
 * A run's --plot (FILE.svg: the latency CDF; FILE.html: the page), --report
 * (the page: the run's section and the charts of the fio-format logs its
 * jobs wrote, per-I/O logs averaged over 100 ms) and --hist (to text, UTF-8
 * bars when the environment's locale is UTF-8), as run asks. 0 or -errno,
 * d naming the option.
 */
struct ib_plan;
int ib_page_run(const struct ib_results *r, const struct ib_plan *run,
		FILE *text, struct ib_diag *d);
/*
 * The latency-vs-load curve (curve.h, page_curve.c). ib_page_curve_svg:
 * its chart (chart.h: ib_chart_latload): p50, p99 and p99.9 of every step
 * with latencies over the IOPS it achieved, the SLO and the unpaced
 * maximum as reference lines, the answer (ib_curve_answer) as the knee;
 * -EINVAL when no step has latencies. ib_page_curve_doc: its HTML section
 * (heading, the steps' table with the answer, the chart). ib_page_curve_out:
 * `iobench curve --plot=FILE.svg|FILE.html --report=FILE.html` (either may
 * be NULL or ""); a file not written in full is removed, d names the option.
 */
struct ib_curve;
int ib_page_curve_svg(FILE *f, const struct ib_curve *c, struct ib_diag *d);
int ib_page_curve_doc(FILE *f, const struct ib_curve *c, const char *name,
		      struct ib_diag *d);
int ib_page_curve_out(const struct ib_curve *c, const char *plot,
		      const char *report, struct ib_diag *d);
/* The terminal histogram of every job and direction (--hist). */
int ib_page_text(FILE *f, const struct ib_results *r, bool utf8,
		 struct ib_diag *d);

#endif
