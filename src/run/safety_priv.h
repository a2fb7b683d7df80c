/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_SAFETY_PRIV_H
#define IOBENCH_SAFETY_PRIV_H

#include <limits.h>
#include <sys/types.h>
#include "iobench/safety.h"

/*
 * A device written by a job, as a tree gathered from sysfs (safety_tree.c):
 * the device (REL_SELF), its partitions (REL_PART), every device stacked on
 * any node (REL_STACKED: holders/ entries, and loop devices whose
 * loop/backing_file is that node), and every device a node writes through
 * to (REL_BELOW: a loop device's backing block device, a dm or md device's
 * slaves/, and their partitions and other users). Mounts and swap are
 * matched against every node by device number.
 */
#define IB_SAFETY_MAX_NODES 64
#define IB_SAFETY_NODE_NAME 256

enum ib_safety_rel { REL_SELF, REL_PART, REL_STACKED, REL_BELOW };

struct ib_safety_node {
	dev_t dev;
	char name[IB_SAFETY_NODE_NAME]; /* sysfs name, or the backing path */
	enum ib_safety_rel rel;
	int parent;		/* index of the node it was found from; -1 */
};

struct ib_safety_tree {
	const char *path;	/* the device as the user named it */
	struct ib_safety_node n[IB_SAFETY_MAX_NODES];
	unsigned int nr;
};

void ib_safety_build_tree(struct ib_safety_tree *t,
			  const struct ib_safety_env *env, const char *path,
			  dev_t rdev);
int ib_safety_find_node(const struct ib_safety_tree *t, dev_t dev);
/* "/dev/loop3 is", "/dev/loop3 has partition loop3p1", ... into buf */
void ib_safety_describe(const struct ib_safety_tree *t,
			const struct ib_safety_node *n, char *buf, size_t len);

#endif
