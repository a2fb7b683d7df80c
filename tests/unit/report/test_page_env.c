// SPDX-License-Identifier: GPL-2.0-only
/*
 * The HTML report's validity findings and environment (page_findings.c,
 * page_env.c): the verdict line for each case, a shaded row per finding
 * with its evidence, the replay and tool-cost table, the host facts and a
 * row per target with the empty columns dropped, and nothing at all for a
 * document without evidence or environment.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "plots_capture.h"
#include "iobench/checks.h"
#include "iobench/env.h"
#include "iobench/results.h"
#include "src/report/html/page_priv.h"
#include "checks_fixture.h"

#define NJ 2

struct fx {
	struct ib_results r;
	struct ib_evidence ev[NJ];
};

static struct fx *fixture(void)
{
	struct fx *f = calloc(1, sizeof(*f));
	unsigned int i;

	assert_non_null(f);
	checks_fixture(&f->r, f->ev, NJ);
	for (i = 0; i < NJ; i++) {
		f->r.own_stats[i].dir[0].io_bytes = 1 << 20;
		f->r.own_stats[i].dir[1].io_bytes = 1 << 20;
	}
	return f;
}

static void fixture_free(struct fx *f)
{
	ib_results_free(&f->r);
	free(f);
}

static char *findings(struct fx *f)
{
	struct ib_diag d = { { 0 } };
	struct capture c;

	cap_open(&c);
	assert_int_equal(ib_page_findings(c.f, &f->r, &d), 0);
	return cap_close(&c);
}

static void test_findings(void **state)
{
	struct fx *f = fixture();
	struct ib_check_hit h[8];
	char *out;

	(void)state;
	f->ev[0].alloc_ok = true;	/* j0 reads holes: a warning */
	f->ev[0].alloc_size = 1 << 20;
	f->ev[0].alloc_data = 1 << 18;
	snprintf(f->ev[1].governor, sizeof(f->ev[1].governor), "powersave");	/* info */
	f->ev[1].seed_source = IB_SEED_DRAWN;
	f->ev[1].seed = 12345;
	f->ev[1].calibrated = true;
	f->ev[1].tool_ns_per_io = 50;
	assert_int_equal(ib_checks_run(&f->r, 0, IB_CHECKS_ALL, h, 8), 1);
	assert_int_equal(ib_checks_run(&f->r, 1, IB_CHECKS_ALL, h, 8), 1);
	out = findings(f);
	assert_non_null(strstr(out, "<h3>Validity findings</h3>\n<p class=\"verdict warning\">"
				    "1 warning and 1 note on 2 of 2 jobs: read them before "
				    "trusting the numbers.</p>\n"));
	assert_int_equal(count_of(out, "<tr class=\"warning\">"), 1);
	assert_int_equal(count_of(out, "<tr class=\"info\">"), 1);
	assert_non_null(strstr(out, "<tr><th>job</th><th>severity</th><th>check</th>"
				    "<th>finding</th><th>evidence</th></tr>\n"
				    "<tr class=\"warning\"><td>j0</td><td>warning</td>"
				    "<td>unwritten</td><td>reads of never-written regions"));
	assert_non_null(strstr(out, "<td>range_bytes=1048576, data_bytes=262144</td></tr>\n"
				    "<tr class=\"info\"><td>j1</td><td>info</td>"
				    "<td>governor</td>"));
	assert_non_null(strstr(out, "<caption>Reproducing the run</caption>\n"
				    "<tr><th>job</th><th>replay with</th><th>tool cost per "
				    "I/O</th><th>tool ceiling (IOPS per job)</th></tr>\n"
				    "<tr><td>j0</td><td>randrepeat=1</td><td></td><td></td></tr>\n"
				    "<tr><td>j1</td><td>randseed=12345</td><td class=\"n\">"
				    "50ns</td><td class=\"n\">20M</td></tr>\n"));
	free(out);
	/* warnings only, one job with evidence: no "on K of J jobs" */
	snprintf(f->ev[1].governor, sizeof(f->ev[1].governor), "performance");
	f->ev[1].valid = false;
	out = findings(f);
	assert_non_null(strstr(out, "<p class=\"verdict warning\">1 warning: read it before "
				    "trusting the numbers.</p>\n"));
	assert_int_equal(count_of(out, "<tr><td>j"), 1);	/* replay: j0 only */
	free(out);
	fixture_free(f);
}

static void test_verdicts(void **state)
{
	struct fx *f = fixture();
	char *out;

	(void)state;
	out = findings(f);
	assert_non_null(strstr(out, "<p class=\"verdict ok\">No findings: every check passed "
				    "on each of the 2 jobs.</p>\n"));
	assert_int_equal(count_of(out, "<table>"), 1);	/* the replay table only */
	free(out);
	snprintf(f->ev[0].governor, sizeof(f->ev[0].governor), "powersave");
	out = findings(f);
	assert_non_null(strstr(out, "<p class=\"verdict info\">No warnings; 1 note on 1 of "
				    "2 jobs.</p>\n"));
	free(out);
	f->r.checks_mask = 0;
	out = findings(f);
	assert_non_null(strstr(out, "<p class=\"verdict info\">The validity checks were "
				    "turned off (--warnings=none).</p>\n"));
	assert_int_equal(count_of(out, "<tr class="), 0);
	free(out);
	f->ev[1].valid = false;
	f->r.checks_mask = IB_CHECKS_ALL;
	f->ev[0].governor[0] = '\0';
	out = findings(f);
	assert_non_null(strstr(out, "<p class=\"verdict ok\">No findings: every check "
				    "passed.</p>\n"));
	free(out);
	f->r.evidence = NULL;	/* a fio report read back: nothing */
	out = findings(f);
	assert_string_equal(out, "");
	free(out);
	fixture_free(f);
}

static void test_env(void **state)
{
	struct ib_env *e = calloc(1, sizeof(*e));
	struct ib_diag d = { { 0 } };
	struct capture c;
	char *out;

	(void)state;
	assert_non_null(e);
	cap_open(&c);
	assert_int_equal(ib_page_env(c.f, e, &d), 0);	/* nothing known */
	assert_int_equal(ib_page_env(c.f, NULL, &d), 0);
	out = cap_close(&c);
	assert_string_equal(out, "");
	free(out);
	snprintf(e->hostname, sizeof(e->hostname), "h<1>");
	snprintf(e->kernel_release, sizeof(e->kernel_release), "6.1");
	snprintf(e->kernel_version, sizeof(e->kernel_version), "#1 SMP");
	snprintf(e->cpu_model, sizeof(e->cpu_model), "Xeon");
	e->cpus_online = 4;
	e->mem_total = 8ull << 30;
	e->hypervisor_flag = 1;
	snprintf(e->hypervisor_type, sizeof(e->hypervisor_type), "kvm");
	snprintf(e->sys_vendor, sizeof(e->sys_vendor), "QEMU");
	snprintf(e->product_name, sizeof(e->product_name), "Standard PC");
	e->nr_targets = 2;
	e->targets_total = 3;
	snprintf(e->target[0].path, IB_ENV_PATH, "/dev/vdb");
	e->target[0].kind = IB_ENV_BLOCK;
	snprintf(e->target[0].dev, IB_ENV_STR, "vdb");
	snprintf(e->target[0].disk, IB_ENV_STR, "vdb");
	snprintf(e->target[0].model, IB_ENV_STR, "Virtio");
	e->target[0].rotational = 0;
	e->target[0].logical_block_size = 512;
	e->target[0].physical_block_size = 4096;
	snprintf(e->target[0].write_cache, IB_ENV_STR, "write back");
	snprintf(e->target[1].path, IB_ENV_PATH, "/mnt/x");
	e->target[1].kind = IB_ENV_FILE;
	e->target[1].rotational = -1;
	snprintf(e->target[1].dev, IB_ENV_STR, "vda1");
	snprintf(e->target[1].disk, IB_ENV_STR, "vda");
	snprintf(e->target[1].fstype, IB_ENV_STR, "ext4");
	snprintf(e->target[1].mount_point, IB_ENV_PATH, "/mnt");
	snprintf(e->target[1].mount_options, IB_ENV_PATH, "rw");
	cap_open(&c);
	assert_int_equal(ib_page_env(c.f, e, &d), 0);
	out = cap_close(&c);
	assert_string_equal(out,
		"<h3>Environment</h3>\n<table>\n<caption>Host</caption>\n"
		"<tr><th>fact</th><th>value</th></tr>\n"
		"<tr><td>host</td><td>h&lt;1&gt;</td></tr>\n"
		"<tr><td>kernel</td><td>6.1 #1 SMP</td></tr>\n"
		"<tr><td>CPU</td><td>4 x Xeon</td></tr>\n"
		"<tr><td>memory</td><td>8.0 GiB</td></tr>\n"
		"<tr><td>virtualization</td><td>virtual machine (kvm), QEMU Standard PC</td></tr>\n"
		"</table>\n<table>\n<caption>Targets (the first 2 of 3)</caption>\n"
		"<tr><th>target</th><th>kind</th><th>device</th><th>model</th><th>media</th>"
		"<th>block size (logical / physical)</th><th>write cache</th>"
		"<th>file system</th></tr>\n"
		"<tr><td>/dev/vdb</td><td>block</td><td>vdb</td><td>Virtio</td>"
		"<td>non-rotational</td><td>512 / 4096</td><td>write back</td><td></td></tr>\n"
		"<tr><td>/mnt/x</td><td>file</td><td>vda1 on vda</td><td></td><td></td><td></td>"
		"<td></td><td>ext4 on /mnt, rw</td></tr>\n</table>\n");
	free(out);
	free(e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_findings),
		cmocka_unit_test(test_verdicts),
		cmocka_unit_test(test_env),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
