// SPDX-License-Identifier: GPL-2.0-only
/*
 * struct ib_env out: the JSON "environment" object and the --env text
 * (env.h). Pure functions of the struct.
 */
#include <inttypes.h>
#include <stdio.h>
#include "iobench/env.h"
#include "iobench/env_out.h"
#include "iobench/json.h"

/* numbers: left out when unknown (0, or -1 for the tri-state ones) */
static void uint_known(struct ib_json *j, const char *key, uint64_t v)
{
	if (v)
		ib_json_uint(j, key, (unsigned long long)v);
}

static void int_known(struct ib_json *j, const char *key, int v)
{
	if (v >= 0)
		ib_json_int(j, key, v);
}

static void slaves_json(struct ib_json *j, const struct ib_env_target *t)
{
	unsigned int i;

	if (!t->nr_slaves)
		return;
	ib_json_arr_open(j, "slaves");
	for (i = 0; i < t->nr_slaves; i++) {
		ib_json_obj_open(j, NULL);
		ib_json_str(j, "name", t->slave[i].name);
		ib_json_str(j, "model", t->slave[i].model);
		int_known(j, "rotational", t->slave[i].rotational);
		ib_json_obj_close(j);
	}
	ib_json_arr_close(j);
}

static void zram_loop_fs_json(struct ib_json *j, const struct ib_env_target *t)
{
	if (t->zram) {
		ib_json_obj_open(j, "zram");
		ib_json_str(j, "comp_algorithm", t->zram_comp);
		ib_json_uint(j, "disksize", t->zram_disksize);
		ib_json_obj_close(j);
	}
	if (t->loop) {
		ib_json_obj_open(j, "loop");
		ib_json_str(j, "backing_file", t->loop_backing);
		ib_json_uint(j, "offset", t->loop_offset);
		int_known(j, "dio", t->loop_dio);
		ib_json_obj_close(j);
	}
	if (t->fstype[0]) {
		ib_json_obj_open(j, "filesystem");
		ib_json_str(j, "type", t->fstype);
		ib_json_str(j, "mount_point", t->mount_point);
		ib_json_str(j, "source", t->mount_source);
		ib_json_str(j, "options", t->mount_options);
		ib_json_obj_close(j);
	}
}

static void target_json(struct ib_json *j, const struct ib_env_target *t)
{
	ib_json_obj_open(j, NULL);
	ib_json_str(j, "path", t->path);
	ib_json_str(j, "kind", ib_env_kind_name(t->kind));
	ib_json_str(j, "dev", t->dev);
	ib_json_str(j, "disk", t->disk);
	ib_json_str(j, "model", t->model);
	ib_json_str(j, "vendor", t->vendor);
	ib_json_str(j, "firmware", t->firmware);
	int_known(j, "rotational", t->rotational);
	uint_known(j, "logical_block_size", t->logical_block_size);
	uint_known(j, "physical_block_size", t->physical_block_size);
	ib_json_str(j, "scheduler", t->scheduler);
	uint_known(j, "nr_requests", t->nr_requests);
	uint_known(j, "max_sectors_kb", t->max_sectors_kb);
	ib_json_str(j, "write_cache", t->write_cache);
	ib_json_str(j, "dm_name", t->dm_name);
	slaves_json(j, t);
	zram_loop_fs_json(j, t);
	ib_json_obj_close(j);
}

void ib_env_json(struct ib_json *j, const struct ib_env *e)
{
	unsigned int i;

	ib_json_obj_open(j, "environment");
	ib_json_str(j, "hostname", e->hostname);
	ib_json_str(j, "kernel_release", e->kernel_release);
	ib_json_str(j, "kernel_version", e->kernel_version);
	ib_json_str(j, "arch", e->arch);
	ib_json_str(j, "cpu_model", e->cpu_model);
	uint_known(j, "cpus_online", e->cpus_online);
	uint_known(j, "mem_total", e->mem_total);
	ib_json_str(j, "clocksource", e->clocksource);
	ib_json_str(j, "cpu_governor", e->governor);
	ib_json_obj_open(j, "virtualization");
	ib_json_str(j, "sys_vendor", e->sys_vendor);
	ib_json_str(j, "product_name", e->product_name);
	ib_json_str(j, "product_version", e->product_version);
	int_known(j, "hypervisor_flag", e->hypervisor_flag);
	ib_json_str(j, "hypervisor_type", e->hypervisor_type);
	ib_json_obj_close(j);
	ib_json_uint(j, "targets_total", e->targets_total);
	ib_json_arr_open(j, "targets");
	for (i = 0; i < e->nr_targets && i < IB_ENV_TARGETS_MAX; i++)
		target_json(j, &e->target[i]);
	ib_json_arr_close(j);
	ib_json_obj_close(j);
}

/* ---- text ---- */

static const char *or_q(const char *s)
{
	return s[0] ? s : "?";
}

/* The non-empty ones of a, b, c, separated by blanks */
static void words(FILE *f, const char *a, const char *b, const char *c)
{
	const char *w[3] = { a, b, c };
	unsigned int i, n = 0;

	for (i = 0; i < 3; i++)
		if (w[i][0])
			fprintf(f, "%s%s", n++ ? " " : "", w[i]);
}

static void virt_text(FILE *f, const struct ib_env *e)
{
	const char *sep = "";

	fprintf(f, "  %-8s : ", "virt");
	if (e->hypervisor_flag == 1) {
		fputs("hypervisor (cpuinfo flag)", f);
		sep = ", ";
	}
	if (e->hypervisor_type[0]) {
		fprintf(f, "%stype %s", sep, e->hypervisor_type);
		sep = ", ";
	}
	if (e->sys_vendor[0] || e->product_name[0] || e->product_version[0]) {
		fprintf(f, "%sDMI ", sep);
		words(f, e->sys_vendor, e->product_name, e->product_version);
		sep = ", ";
	}
	fputs(sep[0] ? "\n" : "none seen\n", f);
}

static void disk_text(FILE *f, const struct ib_env_target *t)
{
	fprintf(f, "  %-8s   %s: ", "", t->disk);
	if (t->model[0])
		fprintf(f, "model %s, ", t->model);
	if (t->vendor[0])
		fprintf(f, "vendor %s, ", t->vendor);
	if (t->firmware[0])
		fprintf(f, "firmware %s, ", t->firmware);
	if (t->zram)
		fprintf(f, "zram (%s, %" PRIu64 " bytes), ", or_q(t->zram_comp),
			t->zram_disksize);
	if (t->loop)
		fprintf(f, "loop of %s (dio %s), ", t->loop_backing,
			t->loop_dio == 1 ? "on" : t->loop_dio == 0 ? "off" : "?");
	if (t->nr_slaves)
		fprintf(f, "%u members (first %s), ", t->nr_slaves, t->slave[0].name);
	fprintf(f, "rotational %s, blocks %u/%u, scheduler %s, nr_requests %u, "
		"max_sectors_kb %u, write cache %s\n",
		t->rotational == 1 ? "yes" : t->rotational == 0 ? "no" : "?",
		t->logical_block_size, t->physical_block_size, or_q(t->scheduler),
		t->nr_requests, t->max_sectors_kb, or_q(t->write_cache));
}

static void target_text(FILE *f, const struct ib_env_target *t)
{
	fprintf(f, "  %-8s : %s (%s)", "target", t->path, ib_env_kind_name(t->kind));
	if (t->fstype[0])
		fprintf(f, " on %s %s from %s (%s)", t->fstype, t->mount_point,
			t->mount_source, t->mount_options);
	fputc('\n', f);
	if (t->disk[0])
		disk_text(f, t);
}

void ib_env_text(FILE *f, const struct ib_env *e)
{
	unsigned int i;

	fprintf(f, "Environment:\n");
	fprintf(f, "  %-8s : %s, Linux ", "host", or_q(e->hostname));
	words(f, or_q(e->kernel_release), e->kernel_version, e->arch);
	fputc('\n', f);
	fprintf(f, "  %-8s : %u x %s, governor %s, clocksource %s\n", "cpu",
		e->cpus_online, or_q(e->cpu_model), or_q(e->governor), or_q(e->clocksource));
	fprintf(f, "  %-8s : %" PRIu64 " MiB\n", "memory", e->mem_total >> 20);
	virt_text(f, e);
	for (i = 0; i < e->nr_targets && i < IB_ENV_TARGETS_MAX; i++)
		target_text(f, &e->target[i]);
}
