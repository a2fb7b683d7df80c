// SPDX-License-Identifier: GPL-2.0-only
/*
 * io_uring's job options and their checks. Always compiled, even without
 * liburing (io_uring.c is then left out), so the options stay known: given
 * with another engine they are refused by name, and ioengine=io_uring says
 * which library the build lacked.
 */
#include "engines.h"

/* The kernel's IORING_MAX_REG_BUFFERS: fixedbufs registers one per io. */
#define URING_MAX_FIXEDBUFS 16384u

static const struct ib_opt uring_rows[] = {
	ENG_OPT_HIPRI,
	{ .name = "fixedbufs", .type = IB_OPT_BOOL, .cat = IB_CAT_ENGOPT,
	  ENG_FLD(fixedbufs), .def = "0",
	  .help = "Register the I/O buffers with the kernel" },
	{ .name = "registerfiles", .type = IB_OPT_BOOL, .cat = IB_CAT_ENGOPT,
	  ENG_FLD(registerfiles), .def = "0",
	  .help = "Register the files with the kernel" },
	{ .name = "sqthread_poll", .type = IB_OPT_BOOL, .cat = IB_CAT_ENGOPT,
	  ENG_FLD(sqthread_poll), .def = "0",
	  .help = "A kernel thread polls the submission queue" },
	{ .name = "sqthread_poll_cpu", .type = IB_OPT_INT, .cat = IB_CAT_ENGOPT,
	  ENG_FLD(sqthread_poll_cpu), .min = 0, .max = 4095,
	  .help = "CPU of the submission polling thread" },
	{ .name = "nonvectored", .type = IB_OPT_INT, .cat = IB_CAT_ENGOPT,
	  ENG_FLD(nonvectored), .min = -1, .max = 1, .def = "-1",
	  .help = "Use non-vectored read/write opcodes (-1: automatic)" },
	{ .name = "force_async", .type = IB_OPT_UINT, .cat = IB_CAT_ENGOPT,
	  ENG_FLD(force_async), .def = "0",
	  .help = "Send every Nth request to the kernel's async workers (IOSQE_ASYNC; 0: none)" },
	ENG_OPT_NOWAIT,
	ENG_OPT_END,
};

static int uring_validate(const struct ib_job *j, struct ib_diag *d)
{
	if (j->fixedbufs && j->iodepth > URING_MAX_FIXEDBUFS)
		return ib_diag_set(d, EINVAL,
				   "fixedbufs: iodepth=%u needs %u registered buffers, io_uring allows %u",
				   j->iodepth, j->iodepth, URING_MAX_FIXEDBUFS);
	return 0;
}

const struct ib_engine_opts ib_engine_opts_io_uring = {
	.engine = "io_uring",
	.library = "liburing",
	.rows = uring_rows,
	.validate = uring_validate,
};
