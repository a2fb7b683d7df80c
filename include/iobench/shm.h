/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_SHM_H
#define IOBENCH_SHM_H

#include <stddef.h>

/*
 * Anonymous shared mapping created before fork: children inherit it at the
 * same address, each writes its own slot, the parent reads. Zero-filled.
 * Returns NULL on failure (errno set).
 */
void *ib_shm_alloc(size_t len);
void ib_shm_free(void *p, size_t len);

#endif
