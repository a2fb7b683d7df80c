// SPDX-License-Identifier: GPL-2.0-only
/*
 * The "environment" object read back (env.h: ib_env_from_json), the
 * inverse of ib_env_json (env_out.c), for a results document read from
 * iobench's JSON.
 */
#include <stdio.h>
#include <string.h>
#include "iobench/env.h"
#include "iobench/env_out.h"
#include "iobench/json_read.h"

static void str(char *dst, size_t len, const struct ib_jv *o, const char *key)
{
	const char *s = ib_jv_str(ib_jv_get(o, key));

	snprintf(dst, len, "%s", s ? s : "");
}

#define STR(dst, o, key) str(dst, sizeof(dst), o, key)

static uint64_t u64(const struct ib_jv *o, const char *key)
{
	uint64_t v = 0;

	ib_jv_u64(ib_jv_get(o, key), &v);
	return v;
}

/* a tri-state: -1 when missing */
static int tri(const struct ib_jv *o, const char *key)
{
	double v;

	return ib_jv_double(ib_jv_get(o, key), &v) ? (int)v : -1;
}

static enum ib_env_kind kind(const char *s)
{
	static const enum ib_env_kind k[] = { IB_ENV_FILE, IB_ENV_BLOCK, IB_ENV_OTHER };
	unsigned int i;

	for (i = 0; s && i < 3; i++)
		if (!strcmp(s, ib_env_kind_name(k[i])))
			return k[i];
	return IB_ENV_MISSING;
}

static void slaves(struct ib_env_target *t, const struct ib_jv *arr)
{
	const struct ib_jv *e;

	for (e = arr && arr->type == IB_JV_ARR ? arr->child : NULL;
	     e && t->nr_slaves < IB_ENV_SLAVES_MAX; e = e->next) {
		struct ib_env_slave *s = &t->slave[t->nr_slaves++];

		STR(s->name, e, "name");
		STR(s->model, e, "model");
		s->rotational = tri(e, "rotational");
	}
}

static void zram_loop_fs(struct ib_env_target *t, const struct ib_jv *o)
{
	const struct ib_jv *z = ib_jv_get(o, "zram"), *l = ib_jv_get(o, "loop");
	const struct ib_jv *fs = ib_jv_get(o, "filesystem");

	t->zram = z != NULL;
	STR(t->zram_comp, z, "comp_algorithm");
	t->zram_disksize = u64(z, "disksize");
	t->loop = l != NULL;
	STR(t->loop_backing, l, "backing_file");
	t->loop_offset = u64(l, "offset");
	t->loop_dio = tri(l, "dio");
	STR(t->fstype, fs, "type");
	STR(t->mount_point, fs, "mount_point");
	STR(t->mount_source, fs, "source");
	STR(t->mount_options, fs, "options");
}

static void target(struct ib_env_target *t, const struct ib_jv *o)
{
	STR(t->path, o, "path");
	t->kind = kind(ib_jv_str(ib_jv_get(o, "kind")));
	STR(t->dev, o, "dev");
	STR(t->disk, o, "disk");
	STR(t->model, o, "model");
	STR(t->vendor, o, "vendor");
	STR(t->firmware, o, "firmware");
	t->rotational = tri(o, "rotational");
	t->logical_block_size = (uint32_t)u64(o, "logical_block_size");
	t->physical_block_size = (uint32_t)u64(o, "physical_block_size");
	STR(t->scheduler, o, "scheduler");
	t->nr_requests = (uint32_t)u64(o, "nr_requests");
	t->max_sectors_kb = (uint32_t)u64(o, "max_sectors_kb");
	STR(t->write_cache, o, "write_cache");
	STR(t->dm_name, o, "dm_name");
	slaves(t, ib_jv_get(o, "slaves"));
	zram_loop_fs(t, o);
}

void ib_env_from_json(struct ib_env *e, const struct ib_jv *o)
{
	const struct ib_jv *v = ib_jv_get(o, "virtualization"), *arr, *t;

	memset(e, 0, sizeof(*e));
	STR(e->hostname, o, "hostname");
	STR(e->kernel_release, o, "kernel_release");
	STR(e->kernel_version, o, "kernel_version");
	STR(e->arch, o, "arch");
	STR(e->cpu_model, o, "cpu_model");
	e->cpus_online = (unsigned int)u64(o, "cpus_online");
	e->mem_total = u64(o, "mem_total");
	STR(e->clocksource, o, "clocksource");
	STR(e->governor, o, "cpu_governor");
	STR(e->sys_vendor, v, "sys_vendor");
	STR(e->product_name, v, "product_name");
	STR(e->product_version, v, "product_version");
	e->hypervisor_flag = tri(v, "hypervisor_flag");
	STR(e->hypervisor_type, v, "hypervisor_type");
	e->targets_total = (unsigned int)u64(o, "targets_total");
	arr = ib_jv_get(o, "targets");
	for (t = arr && arr->type == IB_JV_ARR ? arr->child : NULL;
	     t && e->nr_targets < IB_ENV_TARGETS_MAX; t = t->next)
		target(&e->target[e->nr_targets++], t);
}
