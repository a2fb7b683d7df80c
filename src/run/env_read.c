// SPDX-License-Identifier: GPL-2.0-only
/*
 * Small reads of sysfs/procfs files under an injected root, for the
 * environment capture (env_host.c, env_target.c) and the probes.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "env_priv.h"

const char *ib_env_sys(const struct ib_env_roots *r)
{
	return r && r->sysfs ? r->sysfs : "/sys";
}

const char *ib_env_proc(const struct ib_env_roots *r)
{
	return r && r->procfs ? r->procfs : "/proc";
}

void ib_env_copy(char *buf, size_t len, const char *s)
{
	size_t n = strlen(s), i;

	if (!len)
		return;
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n' ||
		     s[n - 1] == '\r'))
		n--;
	if (n > len - 1)
		n = len - 1;
	for (i = 0; i < n; i++)
		buf[i] = (s[i] >= 0x20 && s[i] < 0x7f) ? s[i] : '?';
	buf[n] = '\0';
}

static int vread(char *buf, size_t len, const char *root, const char *fmt, va_list ap)
{
	char rel[PATH_MAX], p[PATH_MAX + 64], line[512];
	FILE *f;
	int ret = 0;

	buf[0] = '\0';
	vsnprintf(rel, sizeof(rel), fmt, ap);
	if (snprintf(p, sizeof(p), "%s/%s", root, rel) >= (int)sizeof(p))
		return -ENAMETOOLONG;
	f = fopen(p, "re");
	if (!f)
		return -errno;
	if (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		ib_env_copy(buf, len, line);
	} else if (ferror(f)) {
		ret = -EIO;
	}
	fclose(f);
	return ret;
}

int ib_env_read(char *buf, size_t len, const char *root, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = vread(buf, len, root, fmt, ap);
	va_end(ap);
	return ret;
}

uint64_t ib_env_read_u64(uint64_t def, const char *root, const char *fmt, ...)
{
	char buf[64], *end;
	unsigned long long v;
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = vread(buf, sizeof(buf), root, fmt, ap);
	va_end(ap);
	if (ret || !buf[0])
		return def;
	errno = 0;
	v = strtoull(buf, &end, 10);
	if (errno || *end)
		return def;
	return v;
}

void ib_env_selected(char *s)
{
	char *a = strchr(s, '['), *b = a ? strchr(a, ']') : NULL;

	if (!a || !b)
		return;
	memmove(s, a + 1, (size_t)(b - a - 1));
	s[b - a - 1] = '\0';
}
