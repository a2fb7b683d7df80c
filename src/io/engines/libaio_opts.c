// SPDX-License-Identifier: GPL-2.0-only
/*
 * libaio's job options. Always compiled, even without libaio (libaio.c is
 * then left out), so the options stay known: given with another engine they
 * are refused by name, and ioengine=libaio says which library the build
 * lacked.
 */
#include "engines.h"

static const struct ib_opt aio_rows[] = {
	{ .name = "userspace_reap", .type = IB_OPT_BOOL, .any_int = true, .cat = IB_CAT_ENGOPT,
	  ENG_FLD(engine.userspace_reap), .def = "0",
	  .help = "Reap completions from user space" },
	ENG_OPT_NOWAIT,
	{ .name = "libaio_vectored", .type = IB_OPT_BOOL, .cat = IB_CAT_ENGOPT,
	  ENG_FLD(engine.libaio_vectored), .def = "0",
	  .help = "Submit vectored reads and writes (IOCB_CMD_PREADV/PWRITEV, one iovec)" },
	ENG_OPT_ATOMIC,
	ENG_OPT_END,
};

const struct ib_engine_opts ib_engine_opts_libaio = {
	.engine = "libaio",
	.library = "libaio",
	.rows = aio_rows,
};
