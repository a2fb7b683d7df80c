// SPDX-License-Identifier: GPL-2.0-only
/*
 * forkfloor: how long this machine takes to start N waiting jobs with
 * nothing else to do, the floor under "numjobs=N starts its first I/O
 * within T" (tools/bench.py's startup rows).
 *
 *   forkfloor fork|thread N
 *
 * fork: one process forks N children, one after another, each of which
 * blocks reading a pipe as iobench's job processes wait for their start;
 * thread: one process creates N threads (64 KiB stacks) the same way. The
 * time is from the first fork (or pthread_create) to the moment the last
 * one returned; then the pipe is closed and everything is reaped. Prints
 * one JSON object: mode, n, ms, us_each.
 *
 * A bare fork copies the address space's page tables and each child's
 * first writes fault in copies of pages; on the development VM (a guest
 * whose page tables the hypervisor shadows) that is about a millisecond
 * per fork even from this small process, so 4096 job processes cannot
 * start within a second there whatever the tool does between forks.
 */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define THREAD_STACK (64u << 10)

static uint64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* A job's wait for its start: the pipe's read end returns 0 when closed. */
static void wait_start(int fd)
{
	char c;

	while (read(fd, &c, 1) < 0 && errno == EINTR)
		;
}

static void *thread_main(void *arg)
{
	wait_start((int)(intptr_t)arg);
	return NULL;
}

static int start_forks(unsigned long n, int pipefd[2])
{
	for (unsigned long i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid < 0) {
			fprintf(stderr, "forkfloor: fork %lu: %s\n", i, strerror(errno));
			return -1;
		}
		if (pid == 0) {
			close(pipefd[1]);
			wait_start(pipefd[0]);
			_exit(0);
		}
	}
	return 0;
}

static int start_threads(unsigned long n, int fd, pthread_t *tids)
{
	pthread_attr_t attr;
	int ret = 0;

	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, THREAD_STACK);
	for (unsigned long i = 0; i < n && !ret; i++) {
		ret = pthread_create(&tids[i], &attr, thread_main, (void *)(intptr_t)fd);
		if (ret)
			fprintf(stderr, "forkfloor: thread %lu: %s\n", i, strerror(ret));
	}
	pthread_attr_destroy(&attr);
	return ret ? -1 : 0;
}

int main(int argc, char **argv)
{
	unsigned long n = argc == 3 ? strtoul(argv[2], NULL, 10) : 0;
	int threads = argc == 3 && !strcmp(argv[1], "thread");
	int pipefd[2], ret;
	pthread_t *tids = NULL;
	uint64_t t0, t1;

	if (!n || (!threads && strcmp(argv[1], "fork"))) {
		fprintf(stderr, "usage: forkfloor fork|thread N\n");
		return 2;
	}
	if (pipe(pipefd) < 0 || (threads && !(tids = calloc(n, sizeof(*tids))))) {
		perror("forkfloor");
		return 1;
	}
	t0 = now_ns();
	ret = threads ? start_threads(n, pipefd[0], tids) : start_forks(n, pipefd);
	t1 = now_ns();
	close(pipefd[1]);	/* go: every waiting job's read returns */
	if (threads) {
		for (unsigned long i = 0; i < n && tids[i]; i++)
			pthread_join(tids[i], NULL);
	} else {
		while (wait(NULL) > 0)
			;
	}
	free(tids);
	if (ret)
		return 1;
	printf("{\"mode\": \"%s\", \"n\": %lu, \"ms\": %.1f, \"us_each\": %.1f}\n",
	       argv[1], n, (double)(t1 - t0) / 1e6, (double)(t1 - t0) / 1e3 / (double)n);
	return 0;
}
