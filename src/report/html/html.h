/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_HTML_H
#define IOBENCH_HTML_H

#include <stdio.h>

/*
 * A self-contained HTML5 report page, written in order: begin, any number
 * of sections (headings, tables, lists, preformatted text, figures holding
 * the SVG charts of chart.h), end. Inline CSS only: no script, no external
 * URL of any kind (no src, href, url(), @import), so the one file can be
 * mailed or attached to a ticket and read offline. All text is escaped.
 * Output is deterministic; nothing here allocates or fails (errors are
 * those of the FILE, checked by the caller with ferror()).
 */
void ib_html_begin(FILE *f, const char *title);
void ib_html_end(FILE *f);
/* <h2>text</h2> */
void ib_html_heading(FILE *f, const char *text);
/* A table of rows x cols cells (row-major, NULL = empty); row 0 is the
 * header. caption may be NULL. Cells that look numeric align right. */
void ib_html_table(FILE *f, const char *caption, const char *const *cells,
		   unsigned int rows, unsigned int cols);
/* The same with row_cls[r] as row r's class (NULL: none; row_cls NULL:
 * no classes), e.g. "warning" rows shaded. */
void ib_html_table_cls(FILE *f, const char *caption, const char *const *cells,
		       unsigned int rows, unsigned int cols,
		       const char *const *row_cls);
/* <h3>text</h3> */
void ib_html_subheading(FILE *f, const char *text);
/* <p class="cls">text</p> (cls NULL: no class); "verdict warning|info|ok"
 * is a framed, coloured line. */
void ib_html_para(FILE *f, const char *cls, const char *text);
/* <ul> of n items (e.g. validity findings) */
void ib_html_list(FILE *f, const char *const *items, unsigned int n);
/* <pre> text (e.g. the environment) */
void ib_html_pre(FILE *f, const char *text);
/* <figure>: write one chart (ib_chart_*) between open and close. */
void ib_html_figure_open(FILE *f);
void ib_html_figure_close(FILE *f, const char *caption);
/* Write s with & < > " ' escaped. */
void ib_html_escape(FILE *f, const char *s);

#endif
