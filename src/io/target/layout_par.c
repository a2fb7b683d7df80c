// SPDX-License-Identifier: GPL-2.0-only
/*
 * create_serialize=0: the jobs' files are laid out at the same time, one
 * thread per job, instead of one job after another (file.h).
 */
#include <errno.h>
#include <pthread.h>
#include <string.h>
#include "iobench/file.h"

static void *layout_main(void *arg)
{
	struct ib_layout_task *t = arg;

	t->ret = ib_files_layout(t->job, t->fs, t->readonly, t->msg, t->stop,
				 &t->d);
	return NULL;
}

void ib_files_layout_parallel(struct ib_layout_task *t, unsigned int n)
{
	unsigned int i;
	int err;

	for (i = 0; i < n; i++) {
		t[i].d.msg[0] = '\0';
		err = pthread_create(&t[i].tid, NULL, layout_main, &t[i]);
		t[i].started = !err;
		if (err) /* no thread: lay this one out here */
			layout_main(&t[i]);
	}
	for (i = 0; i < n; i++)
		if (t[i].started)
			pthread_join(t[i].tid, NULL);
}

bool ib_files_share_path(const struct ib_files *a, const struct ib_files *b)
{
	unsigned int i, k;

	for (i = 0; i < a->nr; i++)
		for (k = 0; k < b->nr; k++)
			if (!strcmp(a->f[i].path, b->f[k].path))
				return true;
	return false;
}
