/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Kernel interfaces newer than this system's headers may be (the
 * engines' per-I/O flags, the target checks' statx fields), in one place:
 * the RWF_* flags, and statx(2) as a raw record of 32-bit words read at
 * the kernel's documented byte offsets.
 */
#ifndef IOBENCH_IO_KABI_H
#define IOBENCH_IO_KABI_H

#include <errno.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <sys/uio.h>	/* RWF_* */
#include <unistd.h>

#ifndef RWF_ATOMIC
#define RWF_ATOMIC 0x00000040		/* Linux 6.11 */
#endif
#ifndef RWF_DONTCACHE
#define RWF_DONTCACHE 0x00000080	/* Linux 6.14 */
#endif

#define KABI_STATX_DIOALIGN 0x2000u		/* Linux 6.1 */
#define KABI_STATX_WRITE_ATOMIC 0x10000u	/* Linux 6.11 */
#define KABI_STX_DIO_OFFSET_ALIGN (0x9c / 4)	/* stx_dio_offset_align */
#define KABI_STX_ATOMIC_MIN (0xa8 / 4)		/* stx_atomic_write_unit_min */
#define KABI_STX_ATOMIC_MAX (0xac / 4)		/* stx_atomic_write_unit_max */

/*
 * statx(dfd, path, flags, mask) into stx (256 bytes, zeroed first); 0 or
 * -errno. stx[0] is stx_mask: which of the fields asked for it filled.
 */
static inline int kabi_statx(int dfd, const char *path, int flags, uint32_t mask,
			     uint32_t stx[64])
{
	unsigned int i;

	for (i = 0; i < 64; i++)
		stx[i] = 0;
	return syscall(SYS_statx, dfd, path, flags, mask, stx) ? -errno : 0;
}

#endif
