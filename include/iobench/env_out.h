/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_ENV_OUT_H
#define IOBENCH_ENV_OUT_H

#include <stdio.h>
#include "iobench/env.h"

/*
 * The environment (env.h) in the reports: the JSON "environment" object
 * and the --env text (report/env_out.c), and the object read back
 * (report/results/env_json_read.c).
 */

struct ib_json;
/* Write "environment" : { ... } as a member of the open object j. Keys are
 * stable; a key whose value is unknown is left out (ib_json_str's rule). */
void ib_env_json(struct ib_json *j, const struct ib_env *e);
/* The inverse of ib_env_json, from its object (env_json_read.c): a field
 * missing is left unknown (*e zeroed first, tri-states -1). */
struct ib_jv;
void ib_env_from_json(struct ib_env *e, const struct ib_jv *o);
/* The human summary printed with --env: a few aligned lines. */
void ib_env_text(FILE *f, const struct ib_env *e);

#endif
