/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_PAGE_PRIV_H
#define IOBENCH_PAGE_PRIV_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "iobench/diag.h"
#include "html.h"
#include "iobench/results.h"

/* Shared by page.c and page_compare.c. */
#define PAGE_CELL 320
#define PAGE_NPCT 4
extern const double ib_page_pct[PAGE_NPCT];
extern const char *const ib_page_ddir[3];

/* A table of rows x cols strings for ib_html_table (row 0: header). */
struct page_table {
	char (*text)[PAGE_CELL];
	const char **cell;
	unsigned int rows, cols, used;
};

int ib_page_table_init(struct page_table *t, unsigned int rows, unsigned int cols);
/* Append one cell (printf-style); cells beyond rows * cols are dropped. */
void ib_page_cell(struct page_table *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Drop the columns whose cells below the header are all empty (rows: the
 * complete rows filled; at most 64 columns). */
void ib_page_table_compact(struct page_table *t);
void ib_page_table_free(struct page_table *t);

/* The latency histogram a direction's percentiles come from (clat, else
 * total latency), and its sample count (0: none). */
const struct ib_hist *ib_page_hist(const struct ib_job_stats *s,
				   unsigned int ddir, uint64_t *n);

/* A run's output file (--plot, --report): opt's safety check on path
 * (safety.h), then write(f, path, arg, d) into it; a file not written in
 * full is removed and d is prefixed with opt. 0 or -errno. */
typedef int (*ib_page_writer)(FILE *f, const char *path, const void *arg,
			      struct ib_diag *d);
int ib_page_file(const char *opt, const char *path, ib_page_writer write,
		 const void *arg, struct ib_diag *d);

/* The validity findings of r's jobs (page_findings.c): a verdict line,
 * a row per finding (class "warning" or "info"), the seeds and tool cost
 * per job; nothing without evidence. 0 or -ENOMEM. */
int ib_page_findings(FILE *f, const struct ib_results *r, struct ib_diag *d);
/* The environment (page_env.c): host facts, a row per target; nothing
 * when e is NULL or holds no known fact (ib_page_env_known). 0 or -ENOMEM. */
struct ib_env;
bool ib_page_env_known(const struct ib_env *e);
int ib_page_env(FILE *f, const struct ib_env *e, struct ib_diag *d);

/* One document's section: heading, summary table, the sections of the
 * JSON file path beyond fio's (path NULL: none), histograms, CDF. */
int ib_page_doc(FILE *f, const struct ib_results *r, const char *name,
		const char *path, struct ib_diag *d);
/* ib_page_write's page without its begin and end (plotcmd.h). */
int ib_page_body(FILE *f, const struct ib_results *const *docs,
		 const char *const *names, unsigned int n, bool files,
		 struct ib_diag *d);
/* The top-level members of the JSON file at path that are neither fio's
 * nor drawn already (skip_env: the "environment", shown by ib_page_env)
 * as HTML sections, as written; 0 or -ENOMEM. */
int ib_page_extras(FILE *f, const char *path, bool skip_env, struct ib_diag *d);
/* Where charts go: every chart in a page (html: each in a figure), or the
 * first one alone (drawn: it is done). */
struct ib_plot_out {
	FILE *f;
	bool html;
	bool drawn;
};
struct ib_cmd_args;
/* Whether path holds a JSON document (its first non-blank byte is '{'). */
bool ib_plot_is_json(const char *path);
/* Whether path holds a per-interval stream (stream.h): {"type":" first. */
bool ib_plot_is_stream(const char *path);
/* Its charts: IOPS and p99 latency per interval over time (plot_stream.c). */
int ib_plot_stream(struct ib_plot_out *o, const char *path, struct ib_diag *d);
/* Every chart of the log files among a's inputs (plot_logs.c). */
int ib_plot_logs(struct ib_plot_out *o, const struct ib_cmd_args *a,
		 struct ib_diag *d);
/* The charts of fio-format logs (told by their names, as `iobench plot`
 * does), each in an HTML figure; avg_ms as ib_logseries; rate: bw and iops
 * logs hold one record per I/O, drawn as KiB/s and IOPS per avg_ms window. */
int ib_page_logs(FILE *f, const char *const *files, unsigned int n,
		 unsigned int avg_ms, bool rate, struct ib_diag *d);
/* compare's HTML: table, notes, bars, CDFs (no page begin/end). */
struct ib_cmp;
int ib_page_compare_body(FILE *f, const struct ib_cmp *c, const char *bname,
			 const char *nname,
			 const struct ib_results *const *base, unsigned int nb,
			 const struct ib_results *const *nw, unsigned int nn,
			 struct ib_diag *d);

#endif
