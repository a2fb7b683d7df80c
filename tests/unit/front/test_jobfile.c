// SPDX-License-Identifier: GPL-2.0-only
/*
 * Job files: the parser on in-memory text (fake include reader and
 * environment), then the command line with the files in tests/data.
 */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "iobench/cli.h"
#include "iobench/jobfile.h"
#include "iobench/options.h"

/* ---- in-memory parser tests --------------------------------------------- */

struct fake_file {
	const char *name;
	const char *text;
};

static const struct fake_file fake_files[] = {
	{ "dir/common.inc", "bs=32k\ninclude more.inc\n" },
	{ "dir/more.inc", "iodepth=8 ; from more\n" },
	{ "sect.inc", "[oops]\n" },
	{ "loop.inc", "include loop.inc\n" },
	{ "bad.inc", "\n\nbs=7z\n" },
	{ NULL, NULL },
};

/* Resolve like cli.c: relative to the including file's directory. */
static int fake_read(void *arg, const char *from, const char *path, char **buf,
		     size_t *len, char *name, size_t namelen, struct ib_diag *d)
{
	const char *slash = strrchr(from, '/');
	unsigned int i;

	(void)arg;
	snprintf(name, namelen, "%.*s%s", slash ? (int)(slash - from + 1) : 0, from, path);
	for (i = 0; fake_files[i].name; i++) {
		if (!strcmp(fake_files[i].name, name)) {
			*buf = strdup(fake_files[i].text);
			*len = strlen(fake_files[i].text);
			return 0;
		}
	}
	return ib_diag_set(d, ENOENT, "%s: No such file or directory", name);
}

static const char *fake_getenv(const char *name)
{
	if (!strcmp(name, "DEV"))
		return "/dev/shm/x";
	if (!strcmp(name, "DEPTH"))
		return "16";
	return NULL;
}

static const struct ib_jobfile_env fake_env = {
	.read = fake_read, .getenv = fake_getenv,
	.ncpus = 3, .pagesize = 4096, .mb_memory = 1000,
};

static int setup(void **state)
{
	struct ib_jobset *s = malloc(sizeof(*s));

	if (!s)
		return -1;
	ib_jobset_init(s);
	*state = s;
	return 0;
}

static int teardown(void **state)
{
	ib_jobset_free(*state);
	free(*state);
	return 0;
}

static void parse_ok(struct ib_jobset *s, const char *text, unsigned int idx)
{
	struct ib_diag d = { { 0 } };

	if (ib_jobfile_parse(s, text, strlen(text), "jobs.fio", idx, &fake_env, &d))
		fail_msg("%s", d.msg);
}

static void parse_bad(struct ib_jobset *s, const char *text, int err, const char *msg)
{
	struct ib_diag d = { { 0 } };

	assert_int_equal(ib_jobfile_parse(s, text, strlen(text), "jobs.fio", 1,
					  &fake_env, &d), -err);
	assert_string_equal(d.msg, msg);
}

static const struct ib_job *job(const struct ib_jobset *s, const char *name)
{
	unsigned int i;

	for (i = 0; i < s->nr; i++)
		if (!s->secs[i].is_global && !strcmp(s->secs[i].job.name, name))
			return &s->secs[i].job;
	fail_msg("no job %s", name);
	return NULL;
}

static void test_basic_syntax(void **state)
{
	struct ib_jobset *s = *state;
	const struct ib_job *a, *b;

	parse_ok(s, "; comment\n"
		    "# another\n"
		    "[global]\r\n"
		    "  bs = 8k   \n"
		    "time_based ; flag\n"
		    "runtime=1#inline\n"
		    "\n"
		    "[ a ]\n"
		    "rw=randread\n"
		    "[b]\n"
		    "iodepth= 4\n"
		    "bs =16k", 1);
	assert_int_equal(s->nr, 3);
	assert_true(s->secs[0].is_global);
	a = job(s, "a");
	b = job(s, "b");
	assert_int_equal(a->bs.min[0], 8192);
	assert_true(a->time_based);
	assert_int_equal(a->runtime_us, 1000000);
	assert_int_equal(a->rw, IB_RW_READ | IB_RW_RAND);
	assert_int_equal(b->bs.min[0], 16384);
	assert_int_equal(b->iodepth, 4);
	assert_int_equal(b->rw, IB_RW_READ);
	assert_false(a->stonewall);
	/* own options only, in order; the name first */
	assert_string_equal(b->opts_text, "name");
	assert_string_equal(ib_opts_text_get(b->opts_text, b->opts_len, "iodepth"), "4");
	assert_null(ib_opts_text_get(b->opts_text, b->opts_len, "time_based"));
	assert_string_equal(ib_opts_text_get(s->secs[0].job.opts_text,
					     s->secs[0].job.opts_len, "time_based"), "");
	assert_string_equal(ib_opts_text_get(s->global.opts_text,
					     s->global.opts_len, "bs"), "8k");
}

static void test_several_globals(void **state)
{
	struct ib_jobset *s = *state;

	parse_ok(s, "[global]\nbs=4k\nname=ignored\n[a]\n[global-2]\nbs=64k\n[b]\n[globalx]\niodepth=3\n[c]\n", 1);
	assert_int_equal(job(s, "a")->bs.min[0], 4096);
	assert_int_equal(job(s, "b")->bs.min[0], 65536);
	assert_int_equal(job(s, "b")->iodepth, 1);
	assert_int_equal(job(s, "c")->iodepth, 3);
	assert_int_equal(job(s, "c")->bs.min[0], 65536);
	/* the section name is the job name, whatever [global] says */
	assert_string_equal(s->secs[1].job.name, "a");
}

static void test_cmdline_globals_then_file(void **state)
{
	struct ib_jobset *s = *state;
	struct ib_diag d = { { 0 } };
	struct ib_section *g = ib_jobset_open(s, "", true, 0, &d);

	assert_non_null(g);
	assert_int_equal(ib_jobset_set(s, g, "iodepth", "8", IB_OPT_CTX_CLI, &d), 0);
	assert_int_equal(ib_jobset_set(s, g, "bs", "2k", IB_OPT_CTX_CLI, &d), 0);
	parse_ok(s, "[global]\nbs=4k\n[a]\n[b]\nbs=1k\niodepth=2\n", 1);
	assert_int_equal(job(s, "a")->iodepth, 8);
	assert_int_equal(job(s, "a")->bs.min[0], 4096); /* the file wins */
	assert_int_equal(job(s, "b")->bs.min[0], 1024);
	assert_int_equal(job(s, "b")->iodepth, 2);
}

static void test_kb_base_whole_section(void **state)
{
	struct ib_jobset *s = *state;

	parse_ok(s, "[global]\nsize=1m\nkb_base=1000\n[a]\nbs=4k\n"
		    "[b]\nbs=2k\nkb_base=1024\nrwmixread=70\nrwmixwrite=30\n", 1);
	assert_int_equal(job(s, "a")->size, 1000000);
	assert_int_equal(job(s, "a")->bs.min[0], 4000);
	assert_int_equal(job(s, "b")->bs.min[0], 2048);
	assert_int_equal(job(s, "b")->size, 1000000); /* inherited as parsed */
	assert_int_equal(job(s, "b")->rwmixread, 70);
}

/* Each filename= adds files (fio): global lines, then the job's own. */
static void test_filename_lines_add(void **state)
{
	struct ib_jobset *s = *state;
	const struct ib_job *a, *b;

	parse_ok(s, "[global]\nfilename=g1\nfilename=g2\nkb_base=1000\n"
		    "[a]\n[b]\nfilename=b1\nfilename=b2\nkb_base=1024\n", 1);
	a = job(s, "a");
	b = job(s, "b");
	assert_string_equal(a->filename, "g1:g2");
	/* kb_base replays the section: the files are not added twice */
	assert_string_equal(b->filename, "g1:g2:b1:b2");
	/* the texts keep each section's own files, for --showcmd */
	assert_string_equal(ib_opts_text_get(s->secs[0].job.opts_text,
					     s->secs[0].job.opts_len, "filename"), "g1:g2");
	assert_null(ib_opts_text_get(a->opts_text, a->opts_len, "filename"));
	assert_string_equal(ib_opts_text_get(b->opts_text, b->opts_len, "filename"),
			    "b1:b2");
}

static void test_include(void **state)
{
	struct ib_jobset *s = *state;
	struct ib_diag d = { { 0 } };
	const char *text = "[global]\ninclude common.inc\n[a]\n";

	assert_int_equal(ib_jobfile_parse(s, text, strlen(text), "dir/jobs.fio", 1,
					  &fake_env, &d), 0);
	assert_int_equal(job(s, "a")->bs.min[0], 32768);
	assert_int_equal(job(s, "a")->iodepth, 8);
}

static void test_include_errors(void **state)
{
	struct ib_jobset *s = *state;

	parse_bad(s, "[a]\ninclude nothere.inc\n", ENOENT,
		  "jobs.fio:2: nothere.inc: No such file or directory");
	parse_bad(s, "[a]\ninclude sect.inc\n", EINVAL,
		  "sect.inc:1: an included file may not contain sections ('[oops]')");
	parse_bad(s, "[a]\ninclude loop.inc\n", ELOOP,
		  "loop.inc:1: include loop.inc: nested more than 16 deep");
	parse_bad(s, "[a]\ninclude bad.inc\n", EINVAL, "bad.inc:3: bs: invalid size '7z'");
}

static void test_variables(void **state)
{
	struct ib_jobset *s = *state;
	const struct ib_job *j;

	parse_ok(s, "[v]\nfilename=${DEV}\niodepth=${DEPTH}\nnumjobs=$ncpus\n"
		    "size=($mb_memory/10)m\nbs=($pagesize*2)\n"
		    "description=a${NOPE}b\nio_size=8*$mb_memory\n", 1);
	j = job(s, "v");
	assert_string_equal(j->filename, "/dev/shm/x");
	assert_int_equal(j->iodepth, 16);
	assert_int_equal(j->numjobs, 3);
	assert_int_equal(j->size, 100 << 20);
	assert_int_equal(j->bs.min[0], 8192);
	assert_string_equal(j->description, "ab");
	assert_int_equal(j->io_size, 8000);
	/* what was recorded is the value after substitution */
	assert_string_equal(ib_opts_text_get(j->opts_text, j->opts_len, "numjobs"), "3");
}

static void test_errors_name_file_and_line(void **state)
{
	struct ib_jobset *s = *state;

	parse_bad(s, "[global]\n\n\n\n\n\n\n\n\n\n[j]\nbs=4q\n", EINVAL,
		  "jobs.fio:12: bs: invalid size '4q'");
	parse_bad(s, "bs=4k\n", EINVAL, "jobs.fio:1: option 'bs' outside of a [section]");
	parse_bad(s, "[abc\n", EINVAL, "jobs.fio:1: invalid section header '[abc'");
	parse_bad(s, "[ ]\n", EINVAL, "jobs.fio:1: empty section name");
	parse_bad(s, "[a]\n=4\n", EINVAL, "jobs.fio:2: missing option name before '='");
	parse_bad(s, "[a]\niodeph=4\n", EINVAL,
		  "jobs.fio:2: unknown option 'iodeph' (did you mean iodepth?)");
	parse_bad(s, "[a]\nwrite_barrier=1\n", ENOTSUP,
		  "jobs.fio:2: write_barrier: fio option not supported by iobench");
	parse_bad(s, "[a]\nrw=trim:x\n", EINVAL, "jobs.fio:2: rw=trim:x: invalid offset modifier 'x'");
	parse_bad(s, "[a]\nfilename=${DEV\n", EINVAL,
		  "jobs.fio:2: invalid variable reference '${DEV'");
}

static void test_no_include_reader(void **state)
{
	struct ib_jobset *s = *state;
	struct ib_diag d = { { 0 } };
	const char *t = "[a]\ninclude x.inc\n";

	assert_int_equal(ib_jobfile_parse(s, t, strlen(t), "j.fio", 1, NULL, &d), -ENOTSUP);
	assert_string_equal(d.msg, "j.fio:2: include x.inc: includes are not available here");
}

static void test_implicit_stonewall(void **state)
{
	struct ib_jobset *s = *state;

	parse_ok(s, "[a]\n[b]\n", 1);
	parse_ok(s, "[global]\n[c]\n[d]\n", 2);
	assert_false(job(s, "a")->stonewall);
	assert_false(job(s, "b")->stonewall);
	assert_true(job(s, "c")->stonewall);
	assert_false(job(s, "d")->stonewall);
	assert_int_equal(s->secs[2].file_idx, 2);
}

/*
 * Robustness: thousands of generated files from fragments (valid and not)
 * must parse or fail cleanly, never crash (run under ASan in CI).
 */
static void test_generated_garbage(void **state)
{
	static const char *const frags[] = {
		"[", "]", "[global]", "[j]", "=", "bs", "4k", "(", ")", "${", "}",
		"$ncpus", "$pagesize", ";", "#", " ", "\n", "include ", "loop.inc",
		"rw=randrw", "size=", "%", "0x", "1e9", "^", "*", "/", "\r", "-",
		":", ",", "numjobs=4096", "99999999999999999999", "\t", "\"",
	};
	struct ib_jobset *s = *state;
	struct ib_diag d;
	char text[1024];
	uint32_t x = 12345;
	unsigned int round, k, pos, good = 0, bad = 0;

	for (round = 0; round < 3000; round++) {
		pos = 0;
		for (k = 0; k < 24; k++) {
			const char *f;

			x = x * 1103515245u + 12345u;
			f = frags[(x >> 8) % (sizeof(frags) / sizeof(frags[0]))];
			pos += (unsigned int)snprintf(text + pos, sizeof(text) - pos, "%s", f);
		}
		if (ib_jobfile_parse(s, text, pos, "g.fio", 1 + round % 2, &fake_env, &d))
			bad++;
		else
			good++;
		ib_jobset_free(s);
		ib_jobset_init(s);
	}
	/* the generator must have produced both outcomes */
	assert_true(good > 10);
	assert_true(bad > 10);
}

/* ---- whole command lines with tests/data ------------------------------- */

static char data_dir[PATH_MAX];

/* tests/data (IB_TESTS_DATA: tests/meson.build gives its absolute path) */
static int find_data(void **state)
{
	(void)state;
	snprintf(data_dir, sizeof(data_dir), "%s", IB_TESTS_DATA);
	return access(data_dir, R_OK) == 0 ? 0 : -1;
}

struct res {
	struct ib_plan run;
	struct ib_diag d;
	int rc;
	char *out;
	size_t out_len;
};

static struct res *run_argv(int argc, char **argv)
{
	struct res *r = calloc(1, sizeof(*r));
	FILE *f;

	assert_non_null(r);
	f = open_memstream(&r->out, &r->out_len);
	assert_non_null(f);
	ib_plan_init(&r->run);
	r->rc = ib_cli_parse(argc, argv, &r->run, f, &r->d);
	fclose(f);
	return r;
}

/* argv from a list; "@name" is tests/data/name. */
static struct res *run(const char *first, ...)
{
	static char paths[8][PATH_MAX];
	char *argv[34];
	const char *a;
	int argc = 1, np = 0;
	va_list ap;

	argv[0] = (char *)"iobench";
	va_start(ap, first);
	for (a = first; a && argc < 33; a = va_arg(ap, const char *)) {
		if (a[0] == '@' && np < 8) {
			if (snprintf(paths[np], PATH_MAX, "%s/%s", data_dir, a + 1) >= PATH_MAX)
				fail_msg("path too long");
			a = paths[np++];
		}
		argv[argc++] = (char *)a;
	}
	va_end(ap);
	argv[argc] = NULL;
	return run_argv(argc, argv);
}

static void done(struct res *r)
{
	ib_plan_free(&r->run);
	free(r->out);
	free(r);
}

static struct res *ok(struct res *r)
{
	if (r->rc != 0)
		fail_msg("rc %d: %s", r->rc, r->d.msg);
	return r;
}

static void test_file_basic(void **state)
{
	struct res *r;
	const struct ib_job *j;

	(void)state;
	r = ok(run("@basic.fio", NULL));
	assert_int_equal(r->run.nr_jobs, 3);
	j = &r->run.jobs[0];
	assert_string_equal(j->name, "reader");
	assert_string_equal(j->ioengine, "null");
	assert_int_equal(j->bs.min[0], 8192);
	assert_int_equal(j->size, 1 << 20);
	assert_true(j->time_based);
	assert_int_equal(j->iodepth, 4);
	assert_int_equal(j->iodepth_low, 4); /* fixed up */
	j = &r->run.jobs[1];
	assert_string_equal(j->name, "writer");
	assert_int_equal(j->bs.min[IB_DDIR_WRITE], 16384);
	assert_int_equal(j->clone, 0);
	assert_int_equal(r->run.jobs[2].clone, 1);
	assert_int_equal(r->run.jobs[2].number, 3);
	assert_string_equal(ib_opts_text_get(r->run.global_opts_text,
					     r->run.global_opts_len, "ioengine"), "null");
	done(r);
}

/*
 * The interned strings and tables of a job (job.h) travel into the plan:
 * the jobset that parsed them is freed before ib_cli_parse() returns (the
 * ASan build reads freed memory here if the plan did not copy them), and
 * the plan's numjobs clones share one copy with the right content.
 */
static void test_plan_owns_strings(void **state)
{
	struct res *r;
	const struct ib_job *a, *b;

	(void)state;
	r = ok(run("--name=first", "--ioengine=psync", "--filename=/dev/shm/ibx0", "--size=1m", "--rw=randrw",
		   "--bssplit=4k/25:64k/75,8k", "--ignore_error=EIO:ENOSPC,EAGAIN",
		   "--verify=crc32c", "--verify_pattern=0xdeadbeef",
		   "--exec_prerun=echo pre", "--description=some words",
		   "--buffer_pattern=0x55", "--iomem=mmap:/dev/shm/ibx",
		   "--filename_format=f.$jobnum", "--write_bw_log=bw", "--numjobs=2",
		   "--name=second", "--wait_for=first", NULL));
	assert_int_equal(r->run.nr_jobs, 3);
	a = &r->run.jobs[0];
	b = &r->run.jobs[1];
	assert_string_equal(a->name, "first");
	assert_string_equal(a->description, "some words");
	assert_string_equal(a->verify.pattern, "0xdeadbeef");
	assert_string_equal(a->proc.exec_prerun, "echo pre");
	assert_string_equal(a->buffer_pattern, "0x55");
	assert_string_equal(a->iomem_file, "/dev/shm/ibx");
	assert_string_equal(a->filename_format, "f.$jobnum");
	assert_string_equal(a->logs.bw, "bw");
	assert_string_equal(r->run.jobs[2].wait_for, "first");
	assert_int_equal(a->bssplit[IB_DDIR_READ].nr, 2);
	assert_int_equal(a->bssplit[IB_DDIR_READ].bs[1], 65536);
	assert_int_equal(a->bssplit[IB_DDIR_READ].perc[1], 75000);
	assert_int_equal(a->bssplit[IB_DDIR_WRITE].nr, 1);
	assert_int_equal(a->bssplit[IB_DDIR_WRITE].bs[0], 8192);
	assert_int_equal(a->ignore_error[IB_ERR_READ].nr, 2);
	assert_int_equal(a->ignore_error[IB_ERR_READ].err[1], ENOSPC);
	assert_int_equal(a->ignore_error[IB_ERR_WRITE].err[0], EAGAIN);
	/* the clones share the plan's one copy */
	assert_ptr_equal(a->bssplit, b->bssplit);
	assert_ptr_equal(a->verify.pattern, b->verify.pattern);
	assert_ptr_equal(a->strs, &r->run.strs);
	/* a job that gives none points at the shared empty tables */
	assert_ptr_equal(r->run.jobs[2].bssplit, ib_job_no_bssplit);
	assert_ptr_equal(r->run.jobs[2].ignore_error, ib_job_no_ignore_error);
	done(r);
}

static void test_file_globals_include_vars(void **state)
{
	struct res *r;

	(void)state;
	r = ok(run("@globals.fio", NULL));
	assert_int_equal(r->run.nr_jobs, 2);
	assert_int_equal(r->run.jobs[0].bs.min[0], 4096);
	assert_int_equal(r->run.jobs[1].bs.min[0], 65536);
	done(r);
	r = ok(run("@include.fio", NULL));
	assert_int_equal(r->run.nr_jobs, 1);
	assert_int_equal(r->run.jobs[0].bs.min[0], 32768);
	assert_int_equal(r->run.jobs[0].size, 2 << 20);
	assert_int_equal(r->run.jobs[0].rwmixread, 70);
	done(r);
	setenv("IOBENCH_TEST_DIR", "/dev/shm", 1);
	r = ok(run("@vars.fio", NULL));
	assert_string_equal(r->run.jobs[0].filename, "/dev/shm/vars.dat");
	assert_int_equal(r->run.jobs[0].size, 1 << 20);
	assert_int_equal(r->run.jobs[0].numjobs, (unsigned int)sysconf(_SC_NPROCESSORS_ONLN));
	assert_int_equal(r->run.jobs[0].iodepth, (unsigned int)(sysconf(_SC_PAGESIZE) / 1024));
	assert_int_equal(r->run.jobs[0].bs.min[0], 4096);
	assert_string_equal(r->run.jobs[0].description, "none");
	done(r);
}

static void test_file_errors(void **state)
{
	struct res *r;
	char want[PATH_MAX + 64];

	(void)state;
	r = run("@bad_size.fio", NULL);
	snprintf(want, sizeof(want), "%s/bad_size.fio:6: bs: invalid size '4q'", data_dir);
	assert_int_equal(r->rc, -EINVAL);
	assert_string_equal(r->d.msg, want);
	done(r);
	r = run("@onlyglobal.fio", NULL);
	assert_int_equal(r->rc, -EINVAL);
	assert_string_equal(r->d.msg, "no jobs defined in the job file");
	done(r);
	r = run("/nonexistent/x.fio", NULL);
	assert_int_equal(r->rc, -ENOENT);
	assert_string_equal(r->d.msg, "/nonexistent/x.fio: No such file or directory");
	done(r);
}

static void test_cmdline_defaults_apply(void **state)
{
	struct res *r;

	(void)state;
	/* before the first --name: defaults for file jobs; the file wins */
	r = ok(run("--iodepth=7", "--bs=2k", "@basic.fio", NULL));
	assert_int_equal(r->run.jobs[0].iodepth, 4);
	assert_int_equal(r->run.jobs[1].iodepth, 7);
	assert_int_equal(r->run.jobs[1].bs.min[0], 16384);
	assert_int_equal(r->run.jobs[0].bs.min[0], 8192);
	done(r);
}

static void test_two_files_stonewall(void **state)
{
	struct res *r;

	(void)state;
	r = ok(run("@globals.fio", "@second.fio", NULL));
	assert_int_equal(r->run.nr_jobs, 4);
	assert_string_equal(r->run.jobs[2].name, "second-a");
	assert_true(r->run.jobs[2].stonewall);
	assert_false(r->run.jobs[3].stonewall);
	assert_int_equal(r->run.jobs[1].groupid, 0);
	assert_int_equal(r->run.jobs[2].groupid, 1);
	assert_int_equal(r->run.jobs[3].groupid, 1);
	done(r);
}

static void test_section_and_parse_only(void **state)
{
	struct res *r;

	(void)state;
	r = ok(run("--section=writer", "@basic.fio", NULL));
	assert_int_equal(r->run.nr_jobs, 2);
	assert_string_equal(r->run.jobs[0].name, "writer");
	done(r);
	r = run("--parse-only", "@basic.fio", NULL);
	assert_int_equal(r->rc, 1);
	assert_int_equal(r->run.nr_jobs, 3);
	done(r);
}

/* Split a --showcmd line into argv (single quotes as the printer makes them). */
static int split(char *line, char **argv, int max)
{
	char *p = line, *o;
	int n = 0;

	while (*p && n < max) {
		while (*p == ' ' || *p == '\n')
			p++;
		if (!*p)
			break;
		argv[n++] = o = p;
		while (*p && *p != ' ' && *p != '\n') {
			if (*p == '\'') {
				for (p++; *p && *p != '\''; )
					*o++ = *p++;
				if (*p)
					p++;
				if (p[0] == '\\' && p[1] == '\'') {
					*o++ = '\'';
					p += 2;
				}
			} else {
				*o++ = *p++;
			}
		}
		if (*p)
			p++;
		*o = '\0';
	}
	argv[n] = NULL;
	return n;
}

static void same_jobs(const struct ib_plan *a, const struct ib_plan *b)
{
	struct ib_job x, y;
	unsigned int i, k;

	assert_int_equal(a->nr_jobs, b->nr_jobs);
	for (i = 0; i < a->nr_jobs; i++) {
		x = a->jobs[i];
		y = b->jobs[i];
		/* opts_text differs only by the implicit --stonewall */
		x.opts_text = y.opts_text = NULL;
		x.opts_len = y.opts_len = 0;
		/* the strings by their text: each run has its own table */
		x.strs = y.strs = NULL;
		assert_memory_equal(x.zones, y.zones, IB_DDIR_RWT * sizeof(*x.zones));
		x.zones = y.zones = NULL;
		for (k = 0; k < IB_JOB_NR_STRS; k++) {
			assert_string_equal(*ib_job_str_at(&x, k), *ib_job_str_at(&y, k));
			*ib_job_str_at(&x, k) = *ib_job_str_at(&y, k) = NULL;
		}
		if (memcmp(&x, &y, sizeof(x)))
			fail_msg("job %u (%s) differs after --showcmd", i, x.name);
	}
}

static void roundtrip(const char *f1, const char *f2)
{
	struct res *r, *a, *b;
	char *argv[256];
	int argc;

	r = f2 ? run("--showcmd", "--iodepth=3", f1, f2, NULL)
	       : run("--showcmd", "--iodepth=3", f1, NULL);
	assert_int_equal(r->rc, 1);
	assert_memory_equal(r->out, "iobench ", 8);
	argc = split(r->out, argv, 255);
	a = ok(f2 ? run("--iodepth=3", f1, f2, NULL) : run("--iodepth=3", f1, NULL));
	b = ok(run_argv(argc, argv));
	same_jobs(&a->run, &b->run);
	done(a);
	done(b);
	done(r);
}

static void test_showcmd(void **state)
{
	struct res *r;

	(void)state;
	r = run("--showcmd", "@globals.fio", NULL);
	assert_int_equal(r->rc, 1);
	assert_string_equal(r->out, "iobench --ioengine=null --size=1m --bs=4k "
			    "--name=a --name=global --bs=64k --name=b --iodepth=2\n");
	done(r);
	r = run("--showcmd", "@globals.fio", "@second.fio", NULL);
	assert_non_null(strstr(r->out, " --name=second-a --stonewall --ioengine=null"));
	done(r);
	roundtrip("@basic.fio", NULL);
	roundtrip("@globals.fio", "@second.fio");
	roundtrip("@include.fio", NULL);
	setenv("IOBENCH_TEST_DIR", "/tmp/it's here", 1);
	roundtrip("@vars.fio", NULL);
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
	const struct CMUnitTest parser[] = {
		T(test_basic_syntax), T(test_several_globals),
		T(test_cmdline_globals_then_file), T(test_kb_base_whole_section), T(test_filename_lines_add),
		T(test_include),
		T(test_include_errors), T(test_variables),
		T(test_errors_name_file_and_line), T(test_no_include_reader),
		T(test_implicit_stonewall), T(test_generated_garbage),
	};
	const struct CMUnitTest files[] = {
		cmocka_unit_test(test_file_basic), cmocka_unit_test(test_plan_owns_strings),
		cmocka_unit_test(test_file_globals_include_vars),
		cmocka_unit_test(test_file_errors),
		cmocka_unit_test(test_cmdline_defaults_apply),
		cmocka_unit_test(test_two_files_stonewall),
		cmocka_unit_test(test_section_and_parse_only),
		cmocka_unit_test(test_showcmd),
	};
	int rc = cmocka_run_group_tests(parser, NULL, NULL);

	return rc + cmocka_run_group_tests(files, find_data, NULL);
}
