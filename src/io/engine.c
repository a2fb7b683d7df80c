// SPDX-License-Identifier: GPL-2.0-only
/*
 * The engine registry: a const table of the engines built into this binary,
 * lookup by name, and the --enghelp text. No constructors, no dlopen.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "engines/engines.h"

static const struct ib_engine_ops *const engines[] = {
	&ib_engine_psync,
	&ib_engine_sync,
	&ib_engine_pvsync,
	&ib_engine_pvsync2,
	&ib_engine_vsync,
#if HAVE_LIBURING
	&ib_engine_io_uring,
#endif
#if HAVE_LIBAIO
	&ib_engine_libaio,
#endif
	&ib_engine_null,
	NULL,
};

/* Engines fio has that iobench can be built with but this binary lacks or
 * never implements; ib_engine_find() is tried first. */
static const char *const fio_engines[] = {
	"io_uring", "libaio", "io_uring_cmd", "posixaio", "solarisaio",
	"windowsaio", "mmap", "splice", "sg", "net", "netsplice", "cpuio",
	"rdma", "e4defrag", "falloc", "ftruncate", "filecreate", "filestat",
	"filedelete", "dircreate", "dirstat", "dirdelete", "guasi", "rbd",
	"http", "gfapi", "gfapi_async", "libhdfs", "mtd", "pmemblk", "dev-dax",
	"libpmem", "libcufile", "ime_psync", "ime_psyncv", "ime_aio",
	"libiscsi", "nbd", "nfs", "exec", "xnvme", "libblkio", "spdk",
	"external", "binject", "dfs", "rados",
	NULL,
};

const struct ib_engine_ops *const *ib_engine_list(void)
{
	return engines;
}

const struct ib_engine_ops *ib_engine_find(const char *name)
{
	for (unsigned int i = 0; engines[i]; i++)
		if (!strcmp(engines[i]->name, name))
			return engines[i];
	return NULL;
}

bool ib_engine_known_unbuilt(const char *name)
{
	if (ib_engine_find(name))
		return false;
	/* "external:/path.so" and friends */
	if (!strncmp(name, "external:", 9))
		return true;
	for (unsigned int i = 0; fio_engines[i]; i++)
		if (!strcmp(fio_engines[i], name))
			return true;
	return false;
}

bool ib_engine_has_option(const struct ib_engine_ops *e, const char *opt)
{
	if (!e || !e->opts)
		return false;
	for (const struct ib_engine_opt *o = e->opts; o->name; o++)
		if (!strcmp(o->name, opt))
			return true;
	return false;
}

int ib_engine_help(FILE *f, const char *name)
{
	const struct ib_engine_ops *e;

	if (!name) {
		fprintf(f, "Available IO engines:\n");
		for (unsigned int i = 0; engines[i]; i++)
			fprintf(f, "\t%-10s %s\n", engines[i]->name,
				engines[i]->help);
		return 0;
	}
	e = ib_engine_find(name);
	if (!e) {
		fprintf(f, "IO engine %s %s\n", name,
			ib_engine_known_unbuilt(name) ?
			"is not supported by this iobench build" : "not found");
		return -ENOENT;
	}
	if (!e->opts || !e->opts[0].name) {
		fprintf(f, "IO engine %s has no options\n", name);
		return 0;
	}
	for (const struct ib_engine_opt *o = e->opts; o->name; o++)
		fprintf(f, "%-24s: %s\n", o->name, o->help);
	return 0;
}
