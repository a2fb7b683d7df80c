// SPDX-License-Identifier: GPL-2.0-only
/*
 * Minimal streaming SVG writer (see svg.h for the output rules).
 */
#include <math.h>
#include <string.h>
#include "iobench/svg.h"

char *ib_svg_fmt(char *buf, double v)
{
	size_t n;

	/* round first so that -0.001 and 0.004 both print as "0" */
	if (!isfinite(v) || fabs(v) < 0.005 || fabs(v) > 1e15)
		v = 0;
	n = (size_t)snprintf(buf, IB_SVG_NUMLEN, "%.2f", v);
	while (n > 0 && buf[n - 1] == '0')
		buf[--n] = '\0';
	if (n > 0 && buf[n - 1] == '.')
		buf[--n] = '\0';
	return buf;
}

static void escape(FILE *f, const char *p)
{
	for (; *p; p++) {
		unsigned char c = (unsigned char)*p;

		if (c == '&')
			fputs("&amp;", f);
		else if (c == '<')
			fputs("&lt;", f);
		else if (c == '>')
			fputs("&gt;", f);
		else if (c == '"')
			fputs("&quot;", f);
		else if (c == '\'')
			fputs("&#39;", f);
		else if (c < 0x20 && c != '\t' && c != '\n')
			fputc('?', f);
		else
			fputc(c, f);
	}
}

void ib_svg_begin(struct ib_svg *s, FILE *f, double w, double h)
{
	char a[IB_SVG_NUMLEN], b[IB_SVG_NUMLEN];

	memset(s, 0, sizeof(*s));
	s->f = f;
	ib_svg_fmt(a, w);
	ib_svg_fmt(b, h);
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%s\" "
		"height=\"%s\" viewBox=\"0 0 %s %s\" font-family=\"sans-serif\" "
		"font-size=\"12\">\n", a, b, a, b);
}

void ib_svg_end(struct ib_svg *s)
{
	while (s->depth > 0)
		ib_svg_close(s);
	fputs("</svg>\n", s->f);
}

void ib_svg_tag(struct ib_svg *s, const char *name)
{
	s->tag = name;
	fprintf(s->f, "<%s", name);
}

void ib_svg_str(struct ib_svg *s, const char *name, const char *v)
{
	fprintf(s->f, " %s=\"", name);
	escape(s->f, v);
	fputc('"', s->f);
}

void ib_svg_num(struct ib_svg *s, const char *name, double v)
{
	char buf[IB_SVG_NUMLEN];

	fprintf(s->f, " %s=\"%s\"", name, ib_svg_fmt(buf, v));
}

void ib_svg_empty(struct ib_svg *s)
{
	fputs("/>\n", s->f);
	s->tag = NULL;
}

void ib_svg_open(struct ib_svg *s)
{
	fputc('>', s->f);
	if (s->depth < IB_SVG_DEPTH)
		s->stack[s->depth] = s->tag;
	s->depth++;
	s->tag = NULL;
}

void ib_svg_close(struct ib_svg *s)
{
	if (s->depth == 0)
		return;
	s->depth--;
	if (s->depth < IB_SVG_DEPTH)
		fprintf(s->f, "</%s>\n", s->stack[s->depth]);
}

void ib_svg_text(struct ib_svg *s, const char *text)
{
	escape(s->f, text);
}

void ib_svg_label(struct ib_svg *s, double x, double y, const char *anchor,
		  const char *cls, const char *text)
{
	ib_svg_tag(s, "text");
	ib_svg_num(s, "x", x);
	ib_svg_num(s, "y", y);
	if (anchor)
		ib_svg_str(s, "text-anchor", anchor);
	if (cls)
		ib_svg_str(s, "class", cls);
	ib_svg_open(s);
	ib_svg_text(s, text);
	ib_svg_close(s);
}

void ib_svg_d_begin(struct ib_svg *s)
{
	fputs(" d=\"", s->f);
	s->in_d = false;	/* no point written yet */
}

void ib_svg_d_pt(struct ib_svg *s, char cmd, double x, double y)
{
	char a[IB_SVG_NUMLEN], b[IB_SVG_NUMLEN];

	fprintf(s->f, "%s%c%s,%s", s->in_d ? " " : "", cmd, ib_svg_fmt(a, x),
		ib_svg_fmt(b, y));
	s->in_d = true;
}

void ib_svg_d_end(struct ib_svg *s)
{
	fputc('"', s->f);
	s->in_d = false;
}
