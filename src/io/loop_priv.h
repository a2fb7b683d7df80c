// SPDX-License-Identifier: GPL-2.0-only
/*
 * The job loop's parts (loop.c, the hot path; loop_setup.c; loop_error.c;
 * loop_time.c): what one calls in another. Private to src/io/.
 */
#ifndef IOBENCH_LOOP_PRIV_H
#define IOBENCH_LOOP_PRIV_H

#include "iobench/loop.h"

/* loop_error.c: an I/O that completed with -err: counted, judged, dumped */
void loop_io_error(struct ib_loop *l, struct ib_io *io, int err);
/* loop_time.c: sleep until the source's due time (nothing in flight) */
void loop_wait_due(struct ib_loop *l);
/* loop_time.c: once l->publish_ns passed: live counters, status copy */
void loop_publish_due(struct ib_loop *l, uint64_t now);

#endif

