/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_CURVE_OUT_H
#define IOBENCH_CURVE_OUT_H

#include <stdio.h>
#include "iobench/curve.h"
#include "iobench/diag.h"

/*
 * The latency-vs-load curve (curve.h) out: the human table and the JSON
 * document (report/curve_out.c), and the document read back
 * (report/results/curve_read.c).
 */

/* The human table: the header, one line per step, the answer line. */
void ib_curve_print_head(FILE *f, const struct ib_curve *c);
void ib_curve_print_step(FILE *f, const struct ib_curve_point *p);
void ib_curve_print_answer(FILE *f, const struct ib_curve *c);
/* The whole curve as one JSON document. */
void ib_curve_print_json(FILE *f, const struct ib_curve *c);

/*
 * The curve read back from its JSON document (curve_read.c, in
 * src/report): root is the document, {"curve": {...}} as
 * ib_curve_print_json writes it. 1 and c filled; 0 when root is not a
 * curve document (no "curve" object: c untouched); -EINVAL with d's line
 * for a curve with a bad or missing field or more than
 * IB_CURVE_MAX_STEPS points.
 */
struct ib_jv;
int ib_curve_from_json(struct ib_curve *c, const struct ib_jv *root,
		       struct ib_diag *d);

#endif
