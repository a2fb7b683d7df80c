// SPDX-License-Identifier: GPL-2.0-only
/*
 * A JSON file read whole and parsed (json_read.h: ib_json_load).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "iobench/json_read.h"

/* The file's bytes into *buf (*len of them); 0 or -errno. */
static int read_all(FILE *f, char **buf, size_t *len)
{
	size_t cap = 0, n;

	*buf = NULL;
	*len = 0;
	do {
		if (*len == cap) {
			char *nb;

			if (cap >= IB_JSON_READ_MAX)
				return -E2BIG;
			nb = realloc(*buf, cap = cap ? cap * 2 : 65536);
			if (!nb)
				return -ENOMEM;
			*buf = nb;
		}
		n = fread(*buf + *len, 1, cap - *len, f);
		*len += n;
	} while (n);
	return ferror(f) ? -EIO : 0;
}

/* The whole file at path into *buf (the caller frees it) and *len. */
static int read_file(const char *path, char **buf, size_t *len,
		     struct ib_diag *d)
{
	FILE *f = fopen(path, "r");
	int ret;

	*buf = NULL;
	*len = 0;
	if (!f)
		return ib_diag_set(d, errno, "%s: %s", path, strerror(errno));
	ret = read_all(f, buf, len);
	fclose(f);
	if (ret) {
		free(*buf);
		*buf = NULL;
		return ib_diag_set(d, -ret, "%s: %s", path,
				   ret == -E2BIG ? "too big to read" : strerror(-ret));
	}
	return 0;
}

int ib_json_load(struct ib_jdoc *doc, const char *path, struct ib_diag *d)
{
	char *buf;
	size_t len;
	int ret;

	memset(doc, 0, sizeof(*doc));
	ret = read_file(path, &buf, &len, d);
	if (!ret && (ret = ib_json_parse(doc, buf, len, d)) < 0)
		ib_diag_prefix(d, "%s", path);
	free(buf);
	return ret;
}
