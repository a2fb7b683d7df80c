// SPDX-License-Identifier: GPL-2.0-only
/*
 * The environment a run was measured in (env.h) on the HTML page: the
 * host's facts as a two-column table, the targets as one row each. Facts
 * that could not be read are left out (a row, or an empty cell).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "iobench/env.h"
#include "page_priv.h"

#define HOST_ROWS 9
#define TGT_COLS 10

static void fact(struct page_table *t, const char *key, const char *val)
{
	if (!val || !val[0])
		return;
	ib_page_cell(t, "%s", key);
	ib_page_cell(t, "%s", val);
}

/* Append ", text" (no comma first) to buf. */
static void add(char *buf, size_t len, const char *sep, const char *text)
{
	size_t n = strlen(buf);

	if (text[0])
		snprintf(buf + n, len - n, "%s%s", n ? sep : "", text);
}

/* "virtual machine (kvm), QEMU Standard PC 1.2"; "" when nothing is known */
static void virt(char *buf, size_t len, const struct ib_env *e)
{
	char t[IB_ENV_STR + 4] = "";

	buf[0] = '\0';
	add(buf, len, "", e->hypervisor_flag == 1 ? "virtual machine" :
	    e->hypervisor_flag == 0 ? "no hypervisor flag" : "");
	if (e->hypervisor_type[0])
		snprintf(t, sizeof(t), "(%s)", e->hypervisor_type);
	add(buf, len, " ", t);
	add(buf, len, ", ", e->sys_vendor);
	add(buf, len, " ", e->product_name);
	add(buf, len, " ", e->product_version);
}

static int host_table(FILE *f, const struct ib_env *e)
{
	struct page_table t;
	char kern[IB_ENV_STR + IB_ENV_LONG + 16], cpu[IB_ENV_LONG + 32];
	char mem[48] = "", vm[4 * IB_ENV_STR + 48];

	if (ib_page_table_init(&t, HOST_ROWS + 1, 2) < 0)
		return -ENOMEM;
	snprintf(kern, sizeof(kern), "%s%s%s", e->kernel_release,
		 e->kernel_version[0] ? " " : "", e->kernel_version);
	if (e->cpus_online)
		snprintf(cpu, sizeof(cpu), "%u x %s", e->cpus_online,
			 e->cpu_model[0] ? e->cpu_model : "?");
	else
		snprintf(cpu, sizeof(cpu), "%s", e->cpu_model);
	if (e->mem_total)
		snprintf(mem, sizeof(mem), "%.1f GiB", (double)e->mem_total / (1 << 30));
	virt(vm, sizeof(vm), e);
	fact(&t, "fact", "value");
	fact(&t, "host", e->hostname);
	fact(&t, "kernel", kern);
	fact(&t, "architecture", e->arch);
	fact(&t, "CPU", cpu);
	fact(&t, "memory", mem);
	fact(&t, "clocksource", e->clocksource);
	fact(&t, "CPU governor", e->governor);
	fact(&t, "virtualization", vm);
	ib_html_table(f, "Host", t.cell, t.used / 2, 2);
	ib_page_table_free(&t);
	return 0;
}

static void device_cells(struct page_table *t, const struct ib_env_target *g)
{
	char b[IB_ENV_STR * 2 + 16];

	if (g->dev[0] && g->disk[0] && strcmp(g->dev, g->disk))
		ib_page_cell(t, "%s on %s", g->dev, g->disk);
	else
		ib_page_cell(t, "%s", g->disk[0] ? g->disk : g->dev);
	snprintf(b, sizeof(b), "%s%s%s", g->vendor, g->vendor[0] && g->model[0] ? " " : "",
		 g->model);
	ib_page_cell(t, "%s%s%s", b, g->firmware[0] ? ", firmware " : "", g->firmware);
	ib_page_cell(t, "%s", g->rotational == 1 ? "rotational" :
		     g->rotational == 0 ? "non-rotational" : "");
	if (g->logical_block_size)
		ib_page_cell(t, "%u / %u", g->logical_block_size, g->physical_block_size);
	else
		ib_page_cell(t, "%s", "");
	ib_page_cell(t, "%s", g->scheduler);
	ib_page_cell(t, "%s", g->write_cache);
}

static void notes_cell(struct page_table *t, const struct ib_env_target *g)
{
	char b[IB_ENV_PATH + 2 * IB_ENV_STR + 96] = "";
	unsigned int i;

	if (g->zram)
		snprintf(b, sizeof(b), "zram (%s, %.1f GiB)", g->zram_comp[0] ?
			 g->zram_comp : "?", (double)g->zram_disksize / (1 << 30));
	else if (g->loop)
		snprintf(b, sizeof(b), "loop over %s%s", g->loop_backing,
			 g->loop_dio == 1 ? " (direct I/O)" : g->loop_dio == 0 ?
			 " (buffered)" : "");
	else if (g->dm_name[0] || g->nr_slaves)
		snprintf(b, sizeof(b), "%s%s", g->dm_name, g->nr_slaves ? " over" : "");
	for (i = 0; i < g->nr_slaves && i < IB_ENV_SLAVES_MAX; i++)
		snprintf(b + strlen(b), sizeof(b) - strlen(b), "%s %s", i ? "," : "",
			 g->slave[i].name);
	ib_page_cell(t, "%s", b);
}

static int target_table(FILE *f, const struct ib_env *e)
{
	static const char *const head[TGT_COLS] = { "target", "kind", "device", "model",
		"media", "block size (logical / physical)", "scheduler", "write cache",
		"file system", "notes" };
	unsigned int i, n = e->nr_targets < IB_ENV_TARGETS_MAX ? e->nr_targets :
		IB_ENV_TARGETS_MAX;
	struct page_table t;
	char cap[64];

	if (ib_page_table_init(&t, n + 1, TGT_COLS) < 0)
		return -ENOMEM;
	for (i = 0; i < TGT_COLS; i++)
		ib_page_cell(&t, "%s", head[i]);
	for (i = 0; i < n; i++) {
		const struct ib_env_target *g = &e->target[i];

		ib_page_cell(&t, "%s", g->path);
		ib_page_cell(&t, "%s", ib_env_kind_name(g->kind));
		device_cells(&t, g);
		ib_page_cell(&t, "%s%s%s%s%s", g->fstype, g->mount_point[0] ? " on " : "",
			     g->mount_point, g->mount_options[0] ? ", " : "", g->mount_options);
		notes_cell(&t, g);
	}
	if (e->targets_total > n)
		snprintf(cap, sizeof(cap), "Targets (the first %u of %u)", n, e->targets_total);
	else
		snprintf(cap, sizeof(cap), "Targets");
	ib_page_table_compact(&t);
	ib_html_table(f, cap, t.cell, t.rows, t.cols);
	ib_page_table_free(&t);
	return 0;
}

bool ib_page_env_known(const struct ib_env *e)
{
	return e && (e->hostname[0] || e->kernel_release[0] || e->nr_targets);
}

int ib_page_env(FILE *f, const struct ib_env *e, struct ib_diag *d)
{
	if (!ib_page_env_known(e))
		return 0;
	ib_html_subheading(f, "Environment");
	if (host_table(f, e) < 0 || (e->nr_targets && target_table(f, e) < 0))
		return ib_diag_set(d, ENOMEM, "out of memory");
	return 0;
}
