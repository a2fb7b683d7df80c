// SPDX-License-Identifier: GPL-2.0-only
/*
 * io_uring's job options and their checks. Always compiled, even without
 * liburing (io_uring.c is then left out), so the options stay known: given
 * with another engine they are refused by name, and ioengine=io_uring says
 * which library the build lacked.
 */
#include "engines.h"
#include "iobench/parse.h"

/*
 * A bool with "auto": 0|1 an explicit choice, recorded in *given. Not
 * given (or "auto"), the engine registers the buffers (the files) when it
 * can and silently does not when it cannot.
 */
static int set_auto_bool(bool *val, bool *given, const struct ib_opt *o,
			 const char *v, struct ib_diag *d)
{
	int rc;

	if (v && !strcmp(v, "auto")) {
		*val = *given = false;
		return 0;
	}
	rc = ib_parse_bool_as(o->any_int, v, val, d);
	if (rc) {
		ib_diag_prefix(d, "%s", o->name);
		return rc;
	}
	*given = true;
	return 0;
}

static int set_fixedbufs(struct ib_job *j, const struct ib_opt *o,
			 const char *v, struct ib_diag *d)
{
	return set_auto_bool(&j->engine.fixedbufs, &j->engine.fixedbufs_given,
			     o, v, d);
}

static int set_registerfiles(struct ib_job *j, const struct ib_opt *o,
			     const char *v, struct ib_diag *d)
{
	return set_auto_bool(&j->engine.registerfiles,
			     &j->engine.registerfiles_given, o, v, d);
}

static const struct ib_opt uring_rows[] = {
	ENG_OPT_HIPRI,
	{ .name = "fixedbufs", .type = IB_OPT_BOOL, .any_int = true, .cat = IB_CAT_ENGOPT,
	  ENG_FLD(engine.fixedbufs), .set = set_fixedbufs, .def = "auto",
	  .help = "Register the I/O buffers with the kernel (auto: when the kernel and RLIMIT_MEMLOCK allow it, else not)" },
	{ .name = "registerfiles", .type = IB_OPT_BOOL, .any_int = true, .cat = IB_CAT_ENGOPT,
	  ENG_FLD(engine.registerfiles), .set = set_registerfiles, .def = "auto",
	  .help = "Register the files with the kernel (auto: when every file is open for the whole run, else not)" },
	{ .name = "sqthread_poll", .type = IB_OPT_BOOL, .any_int = true, .cat = IB_CAT_ENGOPT,
	  ENG_FLD(engine.sqthread_poll), .def = "0",
	  .help = "A kernel thread polls the submission queue" },
	{ .name = "sqthread_poll_cpu", .type = IB_OPT_INT, .cat = IB_CAT_ENGOPT,
	  ENG_FLD(engine.sqthread_poll_cpu), .min = 0, .max = 4095,
	  .help = "CPU of the submission polling thread" },
	{ .name = "nonvectored", .type = IB_OPT_INT, .cat = IB_CAT_ENGOPT,
	  ENG_FLD(engine.nonvectored), .min = -1, .max = 1, .def = "-1",
	  .help = "Use non-vectored read/write opcodes (-1: automatic)" },
	{ .name = "force_async", .type = IB_OPT_UINT, .cat = IB_CAT_ENGOPT,
	  ENG_FLD(engine.force_async), .def = "0",
	  .help = "Send every Nth request to the kernel's async workers (IOSQE_ASYNC; 0: none)" },
	ENG_OPT_NOWAIT,
	ENG_OPT_UNCACHED,
	ENG_OPT_ATOMIC,
	ENG_OPT_END,
};

static int uring_validate(const struct ib_job *j, struct ib_diag *d)
{
	if (j->engine.fixedbufs && j->iodepth > URING_MAX_FIXEDBUFS)
		return ib_diag_set(d, EINVAL,
				   "fixedbufs: iodepth=%u needs %u registered buffers, io_uring allows %u",
				   j->iodepth, j->iodepth, URING_MAX_FIXEDBUFS);
	if (j->engine.fixedbufs && j->engine.fixedbufs_given && j->engine.atomic &&
	    ib_job_dir_active(j, IB_DDIR_WRITE))
		return ib_diag_set(d, EINVAL,
				   "atomic: the kernel refuses RWF_ATOMIC writes from registered buffers (fixedbufs=1)");
	return 0;
}

const struct ib_engine_opts ib_engine_opts_io_uring = {
	.engine = "io_uring",
	.library = "liburing",
	.rows = uring_rows,
	.validate = uring_validate,
};
