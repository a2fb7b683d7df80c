/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_PROBE_H
#define IOBENCH_PROBE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "iobench/diag.h"
#include "iobench/disk.h"
#include "iobench/env.h"

/*
 * Evidence for the validity checks ("numbers you can trust"): small, cheap
 * reads the parent makes before and after a run. None of them judges; each
 * returns what the system says, and the checks decide. sysfs/procfs roots
 * are injected ("/sys", "/proc" when NULL) so tests run them on fake trees.
 * Never called from a job process's I/O loop.
 */

/* (a) Device counters: <sysfs>/block/<disk>/stat. 0 or -errno. */
int ib_probe_disk_stat(const char *sysfs, const char *disk, struct ib_disk_stat *st);
/* d = b - a, field by field (reads [0] and writes [1] completed, sectors,
 * merges, ticks; io_ticks and time_in_queue). */
void ib_probe_disk_delta(const struct ib_disk_stat *a, const struct ib_disk_stat *b,
			 struct ib_disk_stat *d);

/* (b) Page-cache residency of [off, off+len) of a file or block device (len
 * 0: to the end), widened to whole pages: mmap + mincore, nothing is read
 * or faulted in. */
struct ib_probe_resident {
	uint64_t page_size;
	uint64_t pages;		/* pages in the range */
	uint64_t resident;	/* of them in the page cache */
};
int ib_probe_resident(const char *path, uint64_t off, uint64_t len,
		      struct ib_probe_resident *r, struct ib_diag *d);

/* (c) Sparse or never-written regions. */
struct ib_probe_alloc {
	uint64_t size;		/* bytes of the range examined (clamped to the size) */
	uint64_t data;		/* of them in data extents (SEEK_DATA/SEEK_HOLE) */
	uint64_t blocks;	/* st_blocks * 512 of the whole file (0 for a device) */
};
/* [off, off+len) of path (len 0: to the end). A filesystem without hole
 * support reports everything as data, as the kernel does. */
int ib_probe_allocated(const char *path, uint64_t off, uint64_t len,
		       struct ib_probe_alloc *a, struct ib_diag *d);
/* The same for a loop device's range, asked of its backing file (at
 * loop/offset): a fresh loop device over a sparse file reads zeroes. */
int ib_probe_loop_allocated(const char *sysfs, const char *disk, uint64_t off,
			    uint64_t len, struct ib_probe_alloc *a, struct ib_diag *d);

/* zram's <sysfs>/block/<disk>/mm_stat and disksize: orig_data_size counts
 * every page stored (same-filled ones too), so disksize - orig_data_size
 * bytes were never written (or were trimmed) and read back as zeroes. */
struct ib_probe_zram {
	uint64_t disksize;
	uint64_t orig_data_size;	/* bytes stored, uncompressed */
	uint64_t compr_data_size;	/* bytes after compression */
	uint64_t mem_used_total;
	uint64_t same_pages;		/* pages stored as one repeated word */
	uint64_t huge_pages;		/* pages stored uncompressed */
};
/* 0, -ENOENT if disk is no zram device, -EINVAL if mm_stat does not parse */
int ib_probe_zram(const char *sysfs, const char *disk, struct ib_probe_zram *z);
int ib_probe_parse_mm_stat(const char *text, struct ib_probe_zram *z);

/* (d) Compressibility of a data sample: zlib (level 1) over each 4 KiB
 * block of buf[0..len), compressed bytes / len, capped at 1.0 (1.0 for
 * len 0). Random data gives 1.0, zero_buffers 0.01, a repeating
 * buffer_pattern 0.01 to 0.08 (a 256-byte period), buffer_compress_percentage
 * =P about (100-P)/100. Cost: 5 (zeroes) to 50 (random) us per block on a
 * 2020s x86 core; pass a few blocks. */
#define IB_PROBE_COMPRESS_BLOCK 4096
double ib_probe_compress_ratio(const void *buf, size_t len);

/* (e) CPU time of a process: <procfs>/<pid>/stat (utime, stime) */
struct ib_probe_cpu {
	uint64_t user_ns, sys_ns;
	unsigned int threads;
	char state;		/* 'R', 'S', 'D', 'Z', ... */
};
int ib_probe_proc_cpu(const char *procfs, pid_t pid, struct ib_probe_cpu *c);
/* Parse the text of /proc/PID/stat (the command name may hold spaces and
 * parentheses); ticks_per_sec is sysconf(_SC_CLK_TCK). 0 or -EINVAL. */
int ib_probe_parse_proc_stat(const char *text, long ticks_per_sec, struct ib_probe_cpu *c);
/* Percent of one CPU used between samples a and b over wall_ns
 * (100 = one CPU busy all along; 0 if wall_ns is 0 or b is before a).
 * A job process that has been reaped has no /proc entry (-ENOENT): sample
 * before waitpid, or take wait4()'s rusage. */
double ib_probe_cpu_percent(const struct ib_probe_cpu *a, const struct ib_probe_cpu *b,
			    uint64_t wall_ns);

/* (f) From the environment: 1 yes, 0 no, -1 unknown. */
int ib_probe_write_cache_on(const struct ib_env_target *t);	/* "write back" */
int ib_probe_governor_performance(const struct ib_env *e);	/* "none": -1 */

#endif
