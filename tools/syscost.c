// SPDX-License-Identifier: GPL-2.0-only
/*
 * syscost: what one empty system call costs on this machine, and how the
 * kernel bills it: wall time, and the user and system CPU time getrusage()
 * charges for it.
 *
 *   syscost [CALLS]
 *
 * Makes CALLS (default 2,000,000) getppid() calls, which do no work in
 * either mode, and prints one JSON object: calls, wall_ns, usr_ns and
 * sys_ns, each per call. usr_ns is the part of the call's entry and exit
 * that the tick-based accounting lands in user mode. On bare metal it is
 * a few ns; on some virtual machines (the development VM's guest kernel
 * is entered through the hypervisor) it is hundreds, and then every I/O
 * system call adds that much to a tool's "user time per I/O" whatever the
 * tool does in user space (tools/bench.py's "calls/io" column).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static uint64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static double tv_ns(struct timeval tv)
{
	return (double)tv.tv_sec * 1e9 + (double)tv.tv_usec * 1e3;
}

int main(int argc, char **argv)
{
	long calls = argc > 1 ? atol(argv[1]) : 2000000;
	struct rusage r0, r1;
	uint64_t t0, t1;

	if (argc > 2 || calls <= 0) {
		fprintf(stderr, "usage: syscost [CALLS]\n");
		return 2;
	}
	getrusage(RUSAGE_SELF, &r0);
	t0 = now_ns();
	for (long i = 0; i < calls; i++)
		syscall(SYS_getppid);	/* not glibc's getppid: never cached */
	t1 = now_ns();
	getrusage(RUSAGE_SELF, &r1);
	printf("{\"calls\": %ld, \"wall_ns\": %.1f, \"usr_ns\": %.1f, "
	       "\"sys_ns\": %.1f}\n", calls, (double)(t1 - t0) / (double)calls,
	       (tv_ns(r1.ru_utime) - tv_ns(r0.ru_utime)) / (double)calls,
	       (tv_ns(r1.ru_stime) - tv_ns(r0.ru_stime)) / (double)calls);
	return 0;
}
