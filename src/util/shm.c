// SPDX-License-Identifier: GPL-2.0-only
#include <sys/mman.h>
#include "iobench/shm.h"

void *ib_shm_alloc(size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

void ib_shm_free(void *p, size_t len)
{
	if (p)
		munmap(p, len);
}
