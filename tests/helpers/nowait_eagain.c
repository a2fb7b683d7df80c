// SPDX-License-Identifier: GPL-2.0-only
/*
 * nowait_eagain PROG ARGS...: run PROG under a seccomp filter that fails
 * every preadv2/pwritev2 asking for RWF_NOWAIT with EAGAIN, as a device
 * that would block does. For test_ping.py (-N). Exits 77 (skip) when the
 * filter cannot be installed.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

#ifndef RWF_NOWAIT
#define RWF_NOWAIT 0x00000008
#endif

/* flags: the 6th argument of preadv2/pwritev2 (low word) */
#define FLAGS offsetof(struct seccomp_data, args[5])
#define NOWAIT_EAGAIN(sys) \
	BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)), \
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (sys), 0, 3), \
	BPF_STMT(BPF_LD | BPF_W | BPF_ABS, FLAGS), \
	BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, RWF_NOWAIT, 0, 1), \
	BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EAGAIN)

static int install(void)
{
	struct sock_filter f[] = {
		NOWAIT_EAGAIN(__NR_preadv2),
		NOWAIT_EAGAIN(__NR_pwritev2),
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
	if (argc < 2) {
		fprintf(stderr, "usage: nowait_eagain PROG ARGS...\n");
		return 2;
	}
	if (install() < 0) {
		fprintf(stderr, "nowait_eagain: seccomp: %s\n", strerror(errno));
		return 77;
	}
	execvp(argv[1], argv + 1);
	fprintf(stderr, "nowait_eagain: %s: %s\n", argv[1], strerror(errno));
	return 127;
}
