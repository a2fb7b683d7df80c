// SPDX-License-Identifier: GPL-2.0-only
/*
 * The engine registry: a const table of the engines built into this binary,
 * lookup by name, and the engines' own options (built or not). No
 * constructors, no dlopen. --enghelp is help.c's, from these tables.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
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
	&ib_engine_mmap,
	&ib_engine_falloc,
	&ib_engine_ftruncate,
	&ib_engine_filecreate,
	&ib_engine_filestat,
	&ib_engine_filedelete,
	&ib_engine_posixaio,
	&ib_engine_splice,
	NULL,
};

/* Engines fio has that iobench can be built with but this binary lacks or
 * never implements; ib_engine_find() is tried first. */
static const char *const fio_engines[] = {
	"io_uring", "libaio", "io_uring_cmd", "solarisaio",
	"windowsaio", "sg", "net", "netsplice", "cpuio",
	"rdma", "e4defrag", "dircreate", "dirstat", "dirdelete", "guasi", "rbd",
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

/* Help order: the order --cmdhelp, the man page and "engines:" lines use. */
static const struct ib_engine_opts *const opt_sets[] = {
	&ib_engine_opts_io_uring,
	&ib_engine_opts_pvsync2,
	&ib_engine_opts_libaio,
	NULL,
};

const struct ib_engine_opts *const *ib_engine_opts_list(void)
{
	return opt_sets;
}

const struct ib_engine_opts *ib_engine_opts_find(const char *engine)
{
	for (unsigned int i = 0; opt_sets[i]; i++)
		if (!strcmp(opt_sets[i]->engine, engine))
			return opt_sets[i];
	return NULL;
}

static bool row_named(const struct ib_opt *o, const char *name)
{
	return !strcasecmp(o->name, name) ||
	       (o->alias[0] && !strcasecmp(o->alias[0], name)) ||
	       (o->alias[1] && !strcasecmp(o->alias[1], name));
}

static const struct ib_opt *set_row(const struct ib_engine_opts *set,
				    const char *name)
{
	for (const struct ib_opt *o = set->rows; o->name; o++)
		if (row_named(o, name))
			return o;
	return NULL;
}

const struct ib_opt *ib_engine_opt_find(const char *name)
{
	const struct ib_opt *o;

	for (unsigned int i = 0; opt_sets[i]; i++)
		if ((o = set_row(opt_sets[i], name)))
			return o;
	return NULL;
}

unsigned int ib_engine_opt_owners(const char *opt, const char **names,
				  unsigned int max)
{
	unsigned int n = 0;

	for (unsigned int i = 0; opt_sets[i]; i++) {
		if (!set_row(opt_sets[i], opt))
			continue;
		if (n < max)
			names[n] = opt_sets[i]->engine;
		n++;
	}
	return n;
}

bool ib_engine_has_option(const char *engine, const char *opt)
{
	const struct ib_engine_opts *set = ib_engine_opts_find(engine);

	return set && set_row(set, opt);
}
