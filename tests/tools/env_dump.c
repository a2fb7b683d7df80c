// SPDX-License-Identifier: GPL-2.0-only
/*
 * Test tool (not installed): the environment capture and the evidence
 * probes on real targets, as JSON on stdout, for
 * tests/integration/test_env_probe.py.
 *
 *   env_dump env PATH...           {"environment" : {...}}
 *   env_dump text PATH...          the --env text
 *   env_dump stat DISK             /sys/block/DISK/stat fields
 *   env_dump resident PATH [OFF LEN]
 *   env_dump alloc PATH [OFF LEN]
 *   env_dump loopalloc DISK [OFF LEN]
 *   env_dump zram DISK
 *   env_dump compress FILE [LEN]   ratio of the first LEN bytes (16 KiB)
 *   env_dump cpu PID
 *   env_dump checks PATH           write cache and governor accessors
 *
 * Exit status 0, or 1 with the probe's message on stderr.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "iobench/diag.h"
#include "iobench/env.h"
#include "iobench/env_out.h"
#include "iobench/json.h"
#include "src/run/probe.h"

static uint64_t arg_u64(int argc, char **argv, int i)
{
	return i < argc ? strtoull(argv[i], NULL, 0) : 0;
}

static int fail(int ret, const char *what)
{
	fprintf(stderr, "env_dump: %s: %s\n", what, strerror(-ret));
	return 1;
}

static int do_env(int argc, char **argv, int text)
{
	struct ib_env *e = calloc(1, sizeof(*e));
	struct ib_json j;

	if (!e)
		return 1;
	ib_env_collect(e, (const char *const *)argv + 2, (unsigned int)argc - 2, NULL);
	if (text) {
		ib_env_text(stdout, e);
	} else {
		ib_json_begin(&j, stdout);
		ib_env_json(&j, e);
		ib_json_end(&j);
	}
	free(e);
	return 0;
}

static int do_stat(const char *disk)
{
	struct ib_disk_stat st;
	struct ib_json j;
	int ret = ib_probe_disk_stat(NULL, disk, &st);

	if (ret)
		return fail(ret, disk);
	ib_json_begin(&j, stdout);
	ib_json_uint(&j, "reads", st.ios[0]);
	ib_json_uint(&j, "writes", st.ios[1]);
	ib_json_uint(&j, "read_sectors", st.sectors[0]);
	ib_json_uint(&j, "write_sectors", st.sectors[1]);
	ib_json_uint(&j, "read_merges", st.merges[0]);
	ib_json_uint(&j, "write_merges", st.merges[1]);
	ib_json_uint(&j, "io_ticks", st.io_ticks);
	ib_json_end(&j);
	return 0;
}

static int do_resident(int argc, char **argv)
{
	struct ib_probe_resident r;
	struct ib_diag d = { "" };
	struct ib_json j;
	int ret = ib_probe_resident(argv[2], arg_u64(argc, argv, 3), arg_u64(argc, argv, 4),
				    &r, &d);

	if (ret)
		return fail(ret, d.msg);
	ib_json_begin(&j, stdout);
	ib_json_uint(&j, "page_size", r.page_size);
	ib_json_uint(&j, "pages", r.pages);
	ib_json_uint(&j, "resident", r.resident);
	ib_json_end(&j);
	return 0;
}

static int do_alloc(int argc, char **argv, int loop)
{
	struct ib_probe_alloc a;
	struct ib_diag d = { "" };
	struct ib_json j;
	uint64_t off = arg_u64(argc, argv, 3), len = arg_u64(argc, argv, 4);
	int ret = loop ? ib_probe_loop_allocated(NULL, argv[2], off, len, &a, &d) :
		  ib_probe_allocated(argv[2], off, len, &a, &d);

	if (ret)
		return fail(ret, d.msg);
	ib_json_begin(&j, stdout);
	ib_json_uint(&j, "size", a.size);
	ib_json_uint(&j, "data", a.data);
	ib_json_uint(&j, "blocks", a.blocks);
	ib_json_end(&j);
	return 0;
}

static int do_zram(const char *disk)
{
	struct ib_probe_zram z;
	struct ib_json j;
	int ret = ib_probe_zram(NULL, disk, &z);

	if (ret)
		return fail(ret, disk);
	ib_json_begin(&j, stdout);
	ib_json_uint(&j, "disksize", z.disksize);
	ib_json_uint(&j, "orig_data_size", z.orig_data_size);
	ib_json_uint(&j, "compr_data_size", z.compr_data_size);
	ib_json_uint(&j, "mem_used_total", z.mem_used_total);
	ib_json_uint(&j, "same_pages", z.same_pages);
	ib_json_uint(&j, "huge_pages", z.huge_pages);
	ib_json_end(&j);
	return 0;
}

static int do_compress(int argc, char **argv)
{
	size_t len = argc > 3 ? (size_t)arg_u64(argc, argv, 3) : 16384;
	char *buf = malloc(len ? len : 1);
	int fd = open(argv[2], O_RDONLY);
	ssize_t n = fd >= 0 && buf ? read(fd, buf, len) : -1;
	struct ib_json j;

	if (fd >= 0)
		close(fd);
	if (n < 0) {
		free(buf);
		return fail(-errno, argv[2]);
	}
	ib_json_begin(&j, stdout);
	ib_json_uint(&j, "bytes", (unsigned long long)n);
	ib_json_float(&j, "ratio", ib_probe_compress_ratio(buf, (size_t)n));
	ib_json_end(&j);
	free(buf);
	return 0;
}

static int do_cpu(const char *pid)
{
	struct ib_probe_cpu c;
	struct ib_json j;
	int ret = ib_probe_proc_cpu(NULL, (pid_t)atoi(pid), &c);
	char state[2] = "";

	if (ret)
		return fail(ret, pid);
	state[0] = c.state;
	ib_json_begin(&j, stdout);
	ib_json_uint(&j, "user_ns", c.user_ns);
	ib_json_uint(&j, "sys_ns", c.sys_ns);
	ib_json_uint(&j, "threads", c.threads);
	ib_json_str(&j, "state", state);
	ib_json_end(&j);
	return 0;
}

static int do_checks(const char *path)
{
	struct ib_env *e = calloc(1, sizeof(*e));
	struct ib_json j;

	if (!e)
		return 1;
	ib_env_collect(e, &path, 1, NULL);
	ib_json_begin(&j, stdout);
	ib_json_int(&j, "write_cache_on", ib_probe_write_cache_on(&e->target[0]));
	ib_json_int(&j, "governor_performance", ib_probe_governor_performance(e));
	ib_json_end(&j);
	free(e);
	return 0;
}

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : "";

	if (argc < 3) {
		fprintf(stderr, "usage: env_dump env|text|stat|resident|alloc|loopalloc|"
			"zram|compress|cpu|checks ARG...\n");
		return 2;
	}
	if (!strcmp(cmd, "env") || !strcmp(cmd, "text"))
		return do_env(argc, argv, !strcmp(cmd, "text"));
	if (!strcmp(cmd, "stat"))
		return do_stat(argv[2]);
	if (!strcmp(cmd, "resident"))
		return do_resident(argc, argv);
	if (!strcmp(cmd, "alloc") || !strcmp(cmd, "loopalloc"))
		return do_alloc(argc, argv, !strcmp(cmd, "loopalloc"));
	if (!strcmp(cmd, "zram"))
		return do_zram(argv[2]);
	if (!strcmp(cmd, "compress"))
		return do_compress(argc, argv);
	if (!strcmp(cmd, "cpu"))
		return do_cpu(argv[2]);
	if (!strcmp(cmd, "checks"))
		return do_checks(argv[2]);
	fprintf(stderr, "env_dump: unknown command '%s'\n", cmd);
	return 2;
}
