// SPDX-License-Identifier: GPL-2.0-only
/*
 * seccomp_run MODE PROG ARGS...: run PROG under a seccomp filter, for that
 * process and its children only. Exits 77 (skip) when the filter cannot
 * be installed. MODE:
 *   no-uring       io_uring_setup/enter/register fail with ENOSYS, as a
 *                  container runtime's profile or kernel.io_uring_disabled
 *                  would (test_defaults.py: the engine fallback)
 *   no-async       the same and io_setup too (libaio refused as well)
 *   nowait-eagain  every preadv2/pwritev2 asking for RWF_NOWAIT fails with
 *                  EAGAIN, as a device that would block does (test_ping.py)
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

#define LOAD_NR BPF_STMT(BPF_LD | BPF_W | BPF_ABS, \
			 offsetof(struct seccomp_data, nr))
#define ALLOW BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW)
#define DENY(nr) BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (nr), 0, 1), \
		 BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS)
/* flags: the 6th argument of preadv2/pwritev2 (low word) */
#define NOWAIT_EAGAIN(sys) \
	LOAD_NR, \
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (sys), 0, 3), \
	BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[5])), \
	BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, RWF_NOWAIT, 0, 1), \
	BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EAGAIN)

static struct sock_filter no_uring[] = {
	LOAD_NR, DENY(__NR_io_uring_setup), DENY(__NR_io_uring_enter),
	DENY(__NR_io_uring_register), ALLOW,
};
static struct sock_filter no_async[] = {
	LOAD_NR, DENY(__NR_io_uring_setup), DENY(__NR_io_uring_enter),
	DENY(__NR_io_uring_register), DENY(__NR_io_setup), ALLOW,
};
static struct sock_filter nowait_eagain[] = {
	NOWAIT_EAGAIN(__NR_preadv2), NOWAIT_EAGAIN(__NR_pwritev2), ALLOW,
};

#define MODE(name, f) { name, f, sizeof(f) / sizeof(f[0]) }
static const struct {
	const char *name;
	struct sock_filter *f;
	size_t len;
} modes[] = {
	MODE("no-uring", no_uring),
	MODE("no-async", no_async),
	MODE("nowait-eagain", nowait_eagain),
};

static int install(struct sock_filter *f, size_t len)
{
	struct sock_fprog prog = { .len = (unsigned short)len, .filter = f };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return -1;
	return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog);
}

int main(int argc, char **argv)
{
	size_t i;

	for (i = 0; argc > 2 && i < sizeof(modes) / sizeof(modes[0]); i++)
		if (!strcmp(argv[1], modes[i].name))
			break;
	if (argc < 3 || i == sizeof(modes) / sizeof(modes[0])) {
		fprintf(stderr, "usage: seccomp_run no-uring|no-async|nowait-eagain PROG ARGS...\n");
		return 2;
	}
	if (install(modes[i].f, modes[i].len) < 0) {
		fprintf(stderr, "seccomp_run: seccomp: %s\n", strerror(errno));
		return 77;
	}
	execvp(argv[2], argv + 2);
	fprintf(stderr, "seccomp_run: %s: %s\n", argv[2], strerror(errno));
	return 127;
}
