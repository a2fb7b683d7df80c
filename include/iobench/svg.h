/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_SVG_H
#define IOBENCH_SVG_H

#include <stdbool.h>
#include <stdio.h>

/*
 * Streaming SVG writer (in the style of json.h). Output is deterministic byte
 * for byte: numbers are printed with ib_svg_fmt() (two decimals, trailing
 * zeros dropped, no "-0"), attributes always in the order they are written,
 * and no whitespace but one newline after each element. Text and attribute
 * values are escaped (& < > " '); bytes below 0x20 other than tab and
 * newline, which XML 1.0 forbids, become '?'.
 *
 * An element is written in three steps:
 *   ib_svg_tag(s, "line");  ib_svg_num(s, "x1", 3.5); ...attributes...
 *   ib_svg_empty(s);               -> <line x1="3.5"/>
 * or ib_svg_open(s) (">", the element stays open for children or text) and
 * later ib_svg_close(s) ("</line>"). Tag names must be string literals (or
 * outlive the element): only the pointer is kept. Nesting depth is at most
 * IB_SVG_DEPTH; deeper opens are written but their close tag is lost, so
 * callers keep well below it.
 *
 * No XML declaration is written: the document is valid standalone and can
 * also be inlined in HTML5 as is.
 */
#define IB_SVG_DEPTH 16
#define IB_SVG_NUMLEN 32

struct ib_svg {
	FILE *f;
	unsigned int depth;
	const char *stack[IB_SVG_DEPTH];
	const char *tag;	/* the start tag being written, or NULL */
	bool in_d;		/* inside a path's d="..." attribute */
};

/* Format v as "%.2f" with trailing zeros (and the dot) dropped; -0 and
 * non-finite values print as "0". buf has IB_SVG_NUMLEN bytes. Returns buf. */
char *ib_svg_fmt(char *buf, double v);

/* <svg xmlns=... width=w height=h viewBox="0 0 w h" font-family=...> */
void ib_svg_begin(struct ib_svg *s, FILE *f, double w, double h);
/* Close every open element and the root. */
void ib_svg_end(struct ib_svg *s);

void ib_svg_tag(struct ib_svg *s, const char *name);
void ib_svg_str(struct ib_svg *s, const char *name, const char *v);
void ib_svg_num(struct ib_svg *s, const char *name, double v);
void ib_svg_empty(struct ib_svg *s);
void ib_svg_open(struct ib_svg *s);
void ib_svg_close(struct ib_svg *s);
/* Escaped character data inside the open element. */
void ib_svg_text(struct ib_svg *s, const char *text);
/* Shorthand: <text x y [text-anchor] [class]>text</text> (NULL = omitted). */
void ib_svg_label(struct ib_svg *s, double x, double y, const char *anchor,
		  const char *cls, const char *text);

/* Path data: ib_svg_d_begin() starts the d attribute, ib_svg_d_pt() appends
 * "<cmd>x,y" (cmd 'M' or 'L' or any one-letter command with two
 * coordinates), ib_svg_d_end() closes the attribute. Only between
 * ib_svg_tag() and ib_svg_empty()/ib_svg_open(). */
void ib_svg_d_begin(struct ib_svg *s);
void ib_svg_d_pt(struct ib_svg *s, char cmd, double x, double y);
void ib_svg_d_end(struct ib_svg *s);

#endif
