/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_TARGET_PRIV_H
#define IOBENCH_TARGET_PRIV_H

/* Private to src/io/target/: what file.c and file_layout.c share. */
#include "iobench/diag.h"

/* mkdir -p of path's directory part (file.c); existing directories are fine. */
int ib_file_make_parents(const char *path, struct ib_diag *d);

#endif
