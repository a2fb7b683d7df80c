// SPDX-License-Identifier: GPL-2.0-only
/*
 * deny_async [--aio] PROG ARGS...: run PROG under a seccomp filter that
 * makes io_uring_setup/enter/register (and with --aio, io_setup too) fail
 * with ENOSYS, as a container runtime's profile or kernel.io_uring_disabled
 * would, for that process and its children only. For test_defaults.py.
 * Exits 77 (skip) when the filter cannot be installed.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

#define DENY(nr) BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (nr), 0, 1), \
		 BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS)

static int install(int aio)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		DENY(__NR_io_uring_setup),
		DENY(__NR_io_uring_enter),
		DENY(__NR_io_uring_register),
		DENY(aio ? __NR_io_setup : __NR_io_uring_setup),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = {
		.len = (unsigned short)(sizeof(f) / sizeof(f[0])),
		.filter = f,
	};

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return -1;
	return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog);
}

int main(int argc, char **argv)
{
	int i = 1, aio = 0;

	if (i < argc && !strcmp(argv[i], "--aio")) {
		aio = 1;
		i++;
	}
	if (i >= argc) {
		fprintf(stderr, "usage: deny_async [--aio] PROG ARGS...\n");
		return 2;
	}
	if (install(aio) < 0) {
		fprintf(stderr, "deny_async: seccomp: %s\n", strerror(errno));
		return 77;
	}
	execvp(argv[i], argv + i);
	fprintf(stderr, "deny_async: %s: %s\n", argv[i], strerror(errno));
	return 127;
}
