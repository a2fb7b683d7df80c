/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_ENV_H
#define IOBENCH_ENV_H

#include <stdint.h>
#include <stdio.h>

/*
 * The environment a run was measured in: enough to reproduce it, and the
 * facts the validity checks judge by (write cache, governor, zram, CPUs).
 *
 * Plain data with fixed-size strings and no pointers, so it can be carried
 * in the results document, copied through shared memory or gathered over
 * MPI as bytes (between hosts of one architecture). About 48 KiB with its
 * 16 targets (3 KiB each): allocate it, keep it off small stacks. Strings are NUL-terminated, truncated to fit, and "" when
 * the fact could not be read; numbers use the "unknown" values documented
 * per field. Values read from sysfs/procfs are trimmed of trailing blanks,
 * and bytes outside printable ASCII become '?'.
 *
 * Everything is read below two roots, "/sys" and "/proc" unless a test
 * points elsewhere (a fake tree in a temp dir). A missing file is normal
 * (a virtual machine has no DMI, a loop device no model) and leaves its
 * field unknown; gathering never fails.
 */
#define IB_ENV_STR 64
#define IB_ENV_LONG 160
#define IB_ENV_PATH 256
#define IB_ENV_TARGETS_MAX 16
#define IB_ENV_SLAVES_MAX 8

struct ib_env_roots {
	const char *sysfs;	/* NULL: "/sys" */
	const char *procfs;	/* NULL: "/proc" */
};

enum ib_env_kind {
	IB_ENV_MISSING = 0,	/* neither it nor its directory exists */
	IB_ENV_FILE,		/* a regular file, or a path not created yet */
	IB_ENV_BLOCK,		/* a block device node */
	IB_ENV_OTHER,		/* a character device, a fifo, ... */
};

/* One member of a dm/md device (one level down). */
struct ib_env_slave {
	char name[IB_ENV_STR];		/* "sda" */
	char model[IB_ENV_STR];
	int rotational;			/* 1, 0, -1 unknown */
};

struct ib_env_target {
	char path[IB_ENV_PATH];		/* as given */
	enum ib_env_kind kind;
	/* the block device that holds it: the node itself, or for a file the
	 * device of its filesystem (st_dev), then the whole disk */
	char dev[IB_ENV_STR];		/* "vda1"; "" on tmpfs and the like */
	char disk[IB_ENV_STR];		/* "vda" (a partition's parent) */
	char model[IB_ENV_STR];		/* device/model */
	char vendor[IB_ENV_STR];	/* device/vendor */
	char firmware[IB_ENV_STR];	/* device/firmware_rev or device/rev */
	int rotational;			/* queue/rotational: 1, 0, -1 unknown */
	uint32_t logical_block_size;	/* bytes; 0 unknown */
	uint32_t physical_block_size;	/* bytes; 0 unknown */
	char scheduler[IB_ENV_STR];	/* the [selected] one of queue/scheduler */
	uint32_t nr_requests;		/* 0 unknown */
	uint32_t max_sectors_kb;	/* 0 unknown */
	char write_cache[IB_ENV_STR];	/* "write back" / "write through" */
	char dm_name[IB_ENV_STR];	/* dm/name of a device-mapper disk */
	unsigned int nr_slaves;		/* members of a dm/md disk */
	struct ib_env_slave slave[IB_ENV_SLAVES_MAX];
	int zram;			/* 1 if the disk is a zram device */
	char zram_comp[IB_ENV_STR];	/* its [selected] comp_algorithm */
	uint64_t zram_disksize;		/* bytes */
	int loop;			/* 1 if the disk is a loop device */
	char loop_backing[IB_ENV_PATH];	/* loop/backing_file */
	uint64_t loop_offset;		/* loop/offset, bytes */
	int loop_dio;			/* loop/dio: 1, 0, -1 unknown */
	/* files: the mount that holds the file (/proc/self/mountinfo) */
	char fstype[IB_ENV_STR];
	char mount_point[IB_ENV_PATH];
	char mount_source[IB_ENV_PATH];
	char mount_options[IB_ENV_PATH];	/* as findmnt's OPTIONS */
};

struct ib_env {
	char hostname[IB_ENV_STR];
	char kernel_release[IB_ENV_STR];	/* uname -r */
	char kernel_version[IB_ENV_LONG];	/* uname -v */
	char arch[IB_ENV_STR];			/* uname -m */
	char cpu_model[IB_ENV_LONG];
	unsigned int cpus_online;		/* 0 unknown */
	uint64_t mem_total;			/* bytes; 0 unknown */
	char clocksource[IB_ENV_STR];
	char governor[IB_ENV_STR];	/* "none" without cpufreq; "mixed" if
					 * the policies differ */
	/* virtualisation: DMI (a cloud's instance type is often the
	 * product_name), the cpuinfo hypervisor flag, /sys/hypervisor/type */
	char sys_vendor[IB_ENV_STR];
	char product_name[IB_ENV_STR];
	char product_version[IB_ENV_STR];
	int hypervisor_flag;		/* 1, 0, -1 unknown (no cpuinfo) */
	char hypervisor_type[IB_ENV_STR];
	unsigned int nr_targets;	/* first IB_ENV_TARGETS_MAX targets */
	unsigned int targets_total;	/* targets asked for */
	struct ib_env_target target[IB_ENV_TARGETS_MAX];
};

/* Host facts (everything but the targets). Zeroes nothing else. */
void ib_env_host(struct ib_env *e, const struct ib_env_roots *r);
/* One target: the path, what it is, its disk and (for files) its mount.
 * A path that does not exist yet is described through its directory. */
void ib_env_target(struct ib_env_target *t, const char *path,
		   const struct ib_env_roots *r);
/* Zero *e, then the host and the first IB_ENV_TARGETS_MAX of paths[0..n)
 * (a path repeated is described once). */
void ib_env_collect(struct ib_env *e, const char *const *paths, unsigned int n,
		    const struct ib_env_roots *r);

/* "file", "block", "other", "missing" */
const char *ib_env_kind_name(enum ib_env_kind k);

#endif
