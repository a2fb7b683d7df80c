// SPDX-License-Identifier: GPL-2.0-only
/*
 * Subcommand lookup: `iobench NAME ...` where NAME is a row of the caller's
 * table (main.c). Only argv[1] is considered, and only an exact match, so
 * fio's syntax (options, job files) stays the default and any job file is
 * still reachable (./NAME, -- NAME).
 */
#include <stdbool.h>
#include <string.h>
#include "iobench/cli.h"

const struct ib_subcmd *ib_subcmd_find(const struct ib_subcmd *tab, int argc,
				       char **argv)
{
	if (argc < 2 || !tab)
		return NULL;
	for (; tab->name; tab++)
		if (!strcmp(tab->name, argv[1]))
			return tab;
	return NULL;
}

const char *ib_argv_value(int argc, char **argv, int *i, const char *name,
			  bool *missing)
{
	size_t n = strlen(name);
	const char *a = argv[*i];

	*missing = false;
	if (strncmp(a, name, n))
		return NULL;
	if (a[n] == '=')
		return a + n + 1;
	if (a[n])
		return NULL;
	if (*i + 1 >= argc) {
		*missing = true;
		return NULL;
	}
	return argv[++*i];
}
