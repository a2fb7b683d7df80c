/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_TRIM_H
#define IOBENCH_TRIM_H

#include "iobench/diag.h"
#include "iobench/engine.h"

/*
 * Trims (rw=trim, randtrim, trimwrite, randtrimwrite). Every engine does
 * them inline in queue(), as one system call: BLKDISCARD on a block
 * device, fallocate(FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE) on a
 * regular file (fio 3.33 trims devices only). The range reads back as
 * zeros afterwards on a loop device over tmpfs and on any file.
 */

/* Trim io's range: sets io->res (len or -errno), returns IB_Q_DONE. */
int ib_trim_io(struct ib_engine_ctx *ctx, struct ib_io *io);

/*
 * Before a trimming job runs: a block device must support discard (its
 * queue's discard_max_bytes is not 0). 0, or -EOPNOTSUPP with the device's
 * reason in d.
 */
int ib_trim_check(const struct ib_file *f, struct ib_diag *d);

#endif
