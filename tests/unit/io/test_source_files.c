// SPDX-License-Identifier: GPL-2.0-only
/*
 * openfiles=N's source (source_files.h) over real files in /dev/shm: at
 * most N fds open at once, each file opened once per pass in fio's order,
 * a wait (NOT_YET) while I/O is in flight, the live count, a failed open.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "iobench/job_setup.h"
#include "src/io/source/source_files.h"

#define NF 4

struct rig {
	struct ib_job job;
	struct ib_file f[NF];
	struct ib_files fs;
	struct ib_iogen gen;
	struct ib_files_src src;
	unsigned int inflight;
	uint32_t live;
	char dir[64];
};

static void rig_setup(struct rig *r)
{
	struct ib_diag d;
	unsigned int i;

	memset(r, 0, sizeof(*r));
	snprintf(r->dir, sizeof(r->dir), "/dev/shm/ib_srcfiles.%d", (int)getpid());
	ib_job_defaults(&r->job);
	r->job.number = 1;
	r->job.openfiles = 2;
	r->job.ioengine = "psync";
	for (i = 0; i < NF; i++) {
		r->f[i].path = malloc(96);
		snprintf(r->f[i].path, 96, "%s.%u", r->dir, i);
		r->f[i].fd = -1;
		r->f[i].io_size = 16384;
		fclose(fopen(r->f[i].path, "w"));
	}
	r->fs.f = r->f;
	r->fs.nr = NF;
	assert_int_equal(ib_iogen_init(&r->gen, &r->job, r->f, NF, &d), 0);
	ib_files_src_init(&r->src, &r->gen, &r->fs, &r->job, false, &r->inflight,
			  NULL);
	r->src.live_open = &r->live;
}

static void rig_teardown(struct rig *r)
{
	unsigned int i;

	for (i = 0; i < NF; i++) {
		if (r->f[i].fd >= 0)
			close(r->f[i].fd);
		unlink(r->f[i].path);
		free(r->f[i].path);
	}
	ib_iogen_free(&r->gen);
}

static unsigned int nr_open(const struct rig *r)
{
	unsigned int i, n = 0;

	for (i = 0; i < NF; i++)
		n += r->f[i].fd >= 0;
	return n;
}

static void test_at_most_n_open(void **state)
{
	static const unsigned int want[16] = { 0, 1, 0, 1, 0, 1, 0, 1,
					       2, 3, 2, 3, 2, 3, 2, 3 };
	struct ib_source *s;
	struct ib_io_desc io;
	struct rig r;
	unsigned int n = 0;

	(void)state;
	rig_setup(&r);
	s = ib_files_src_source(&r.src);
	while (ib_source_next(s, 1000, &io) == IB_SRC_READY) {
		assert_int_equal(io.file_idx, want[n]);
		assert_true(r.f[io.file_idx].fd >= 0);
		assert_true(nr_open(&r) <= 2);
		assert_int_equal(r.live, r.src.nr_open);
		if (n == 7) { /* file 2 is next: it waits for what is in flight */
			r.inflight = 1;
			assert_int_equal(ib_source_next(s, 2000, &io), IB_SRC_NOT_YET);
			assert_int_equal(io.due_ns, 2000 + 1000000000ull); /* a completion comes first */
			assert_int_equal(nr_open(&r), 2);
			r.inflight = 0;
		}
		n++;
	}
	assert_int_equal(n, 16);
	assert_int_equal(r.src.opens, 4);
	assert_int_equal(r.src.error, 0);
	rig_teardown(&r);
}

static void test_open_fails(void **state)
{
	struct ib_io_desc io;
	struct rig r;

	(void)state;
	rig_setup(&r);
	unlink(r.f[0].path);
	r.job.allow_file_create = false;
	assert_int_equal(ib_source_next(ib_files_src_source(&r.src), 0, &io),
			 IB_SRC_END);
	assert_int_equal(r.src.error, 2); /* ENOENT: a reading job */
	assert_non_null(strstr(r.src.diag.msg, "No such file"));
	assert_false(ib_source_more(ib_files_src_source(&r.src)));
	fclose(fopen(r.f[0].path, "w"));
	rig_teardown(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_at_most_n_open),
		cmocka_unit_test(test_open_fails),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
