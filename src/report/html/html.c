// SPDX-License-Identifier: GPL-2.0-only
/*
 * Self-contained HTML report page (see html.h).
 */
#include <stdbool.h>
#include <string.h>
#include "html.h"

static const char css[] =
	"body{font-family:sans-serif;margin:1.5em auto;max-width:1400px;"
	"padding:0 1em;"
	"color:#222;background:#fff}\n"
	"h1{font-size:1.5em}h2{font-size:1.2em;margin-top:1.6em;"
	"border-bottom:1px solid #ccc}\n"
	"table{border-collapse:collapse;margin:.5em 0}"
	"caption{text-align:left;font-weight:bold;padding:.3em 0}\n"
	"th,td{border:1px solid #bbb;padding:.25em .6em}"
	"th{background:#eee}td.n{text-align:right;"
	"font-variant-numeric:tabular-nums}\n"
	"figure{margin:1em 0}figure svg{display:block;width:100%;"
	"box-sizing:border-box;"
	"height:auto;border:1px solid #ddd}\n"
	"figcaption{font-size:.9em;color:#555;padding-top:.3em}\n"
	"pre{background:#f6f6f6;padding:.6em;overflow:auto}\n"
	"tr.warning td{background:#fff1cc}tr.info td{background:#eef4fb}\n"
	"p.verdict{padding:.4em .6em;border-left:4px solid #888}"
	"p.verdict.warning{border-color:#d08c00;background:#fff8e6}"
	"p.verdict.info{border-color:#3b78c2;background:#f3f8fd}"
	"p.verdict.ok{border-color:#2f8f46;background:#f1faf3}\n"
	"h3{font-size:1.05em;margin:1em 0 .3em}\n";

void ib_html_escape(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		if (*s == '&')
			fputs("&amp;", f);
		else if (*s == '<')
			fputs("&lt;", f);
		else if (*s == '>')
			fputs("&gt;", f);
		else if (*s == '"')
			fputs("&quot;", f);
		else if (*s == '\'')
			fputs("&#39;", f);
		else
			fputc(*s, f);
	}
}

void ib_html_begin(FILE *f, const char *title)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	      "<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width\">\n"
	      "<title>", f);
	ib_html_escape(f, title);
	fprintf(f, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<h1>", css);
	ib_html_escape(f, title);
	fputs("</h1>\n", f);
}

void ib_html_end(FILE *f)
{
	fputs("</body>\n</html>\n", f);
}

void ib_html_heading(FILE *f, const char *text)
{
	fputs("<h2>", f);
	ib_html_escape(f, text);
	fputs("</h2>\n", f);
}

/* "12", "-3.5", "45.2%", "1.2ms": a number, optionally with a unit. */
static bool numeric(const char *s)
{
	if (!s || !*s)
		return false;
	if (*s == '-' || *s == '+')
		s++;
	if (*s < '0' || *s > '9')
		return false;
	s += strspn(s, "0123456789.,");
	return strlen(s) <= 5 && !strpbrk(s, " ");
}

void ib_html_table_cls(FILE *f, const char *caption, const char *const *cells,
		       unsigned int rows, unsigned int cols,
		       const char *const *row_cls)
{
	unsigned int r, c;

	fputs("<table>\n", f);
	if (caption) {
		fputs("<caption>", f);
		ib_html_escape(f, caption);
		fputs("</caption>\n", f);
	}
	for (r = 0; r < rows; r++) {
		if (row_cls && row_cls[r]) {
			fputs("<tr class=\"", f);
			ib_html_escape(f, row_cls[r]);
			fputs("\">", f);
		} else {
			fputs("<tr>", f);
		}
		for (c = 0; c < cols; c++) {
			const char *v = cells[(size_t)r * cols + c];

			fputs(r == 0 ? "<th>" : numeric(v) ? "<td class=\"n\">" : "<td>", f);
			ib_html_escape(f, v);
			fputs(r == 0 ? "</th>" : "</td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
}

void ib_html_table(FILE *f, const char *caption, const char *const *cells,
		   unsigned int rows, unsigned int cols)
{
	ib_html_table_cls(f, caption, cells, rows, cols, NULL);
}

void ib_html_subheading(FILE *f, const char *text)
{
	fputs("<h3>", f);
	ib_html_escape(f, text);
	fputs("</h3>\n", f);
}

void ib_html_para(FILE *f, const char *cls, const char *text)
{
	if (cls) {
		fputs("<p class=\"", f);
		ib_html_escape(f, cls);
		fputs("\">", f);
	} else {
		fputs("<p>", f);
	}
	ib_html_escape(f, text);
	fputs("</p>\n", f);
}

void ib_html_list(FILE *f, const char *const *items, unsigned int n)
{
	unsigned int i;

	fputs("<ul>\n", f);
	for (i = 0; i < n; i++) {
		fputs("<li>", f);
		ib_html_escape(f, items[i]);
		fputs("</li>\n", f);
	}
	fputs("</ul>\n", f);
}

void ib_html_pre(FILE *f, const char *text)
{
	fputs("<pre>", f);
	ib_html_escape(f, text);
	fputs("</pre>\n", f);
}

void ib_html_figure_open(FILE *f)
{
	fputs("<figure>\n", f);
}

void ib_html_figure_close(FILE *f, const char *caption)
{
	if (caption) {
		fputs("<figcaption>", f);
		ib_html_escape(f, caption);
		fputs("</figcaption>\n", f);
	}
	fputs("</figure>\n", f);
}
