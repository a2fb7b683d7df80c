// SPDX-License-Identifier: GPL-2.0-only
/*
 * The mount that holds a file, from /proc/self/mountinfo (env.h).
 */
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include "env_priv.h"

/* mountinfo escapes ' ', '\t', '\n' and '\\' as \ooo: decode in place */
static void unescape(char *s)
{
	char *o = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*o++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 3;
		} else {
			*o++ = *s;
		}
	}
	*o = '\0';
}

/* path with its symlinks resolved (through the directory if not created) */
static void real_path(const char *path, char *out)
{
	char dir[PATH_MAX], base[PATH_MAX], rdir[PATH_MAX];

	if (realpath(path, out))
		return;
	snprintf(dir, sizeof(dir), "%s", path);
	snprintf(base, sizeof(base), "%s", path);
	if (!realpath(dirname(dir), rdir)) {
		snprintf(out, PATH_MAX, "%s", path);
		return;
	}
	if (!strcmp(rdir, "/"))
		rdir[0] = '\0';
	if (strlen(rdir) + 1 + strlen(basename(base)) >= PATH_MAX) {
		snprintf(out, PATH_MAX, "%s", path);
		return;
	}
	strcat(strcat(strcpy(out, rdir), "/"), basename(base));
}

/* mount point mp holds path: equal, or a prefix ending at a '/' */
static size_t holds(const char *mp, const char *path)
{
	size_t n = strlen(mp);

	if (!strcmp(mp, "/"))
		return 1;
	if (strncmp(mp, path, n) || (path[n] && path[n] != '/'))
		return 0;
	return n;
}

/* findmnt's OPTIONS: the per-mount options, then the superblock's but rw/ro */
static void merge_options(char *out, size_t len, const char *vfs, char *fs)
{
	char *tok, *save = NULL;
	size_t n;

	snprintf(out, len, "%s", vfs);
	for (tok = strtok_r(fs, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "rw") || !strcmp(tok, "ro"))
			continue;
		n = strlen(out);
		if (n + 1 + strlen(tok) + 1 > len)
			break;
		snprintf(out + n, len - n, "%s%s", n ? "," : "", tok);
	}
}

struct mnt_line {
	unsigned int maj, min;
	char *point, *opts, *fstype, *source, *super;
};

/* Split one mountinfo line in place; 0 if it has every field */
static int parse_line(char *line, struct mnt_line *m)
{
	char *f[6], *save = NULL, *tok;
	unsigned int i;

	for (i = 0; i < 6; i++)
		if (!(f[i] = strtok_r(i ? NULL : line, " \n", &save)))
			return -1;
	if (sscanf(f[2], "%u:%u", &m->maj, &m->min) != 2)
		return -1;
	m->point = f[4];
	m->opts = f[5];
	while ((tok = strtok_r(NULL, " \n", &save)) && strcmp(tok, "-"))
		;	/* optional fields (shared:N ...) up to the separator */
	m->fstype = strtok_r(NULL, " \n", &save);
	m->source = strtok_r(NULL, " \n", &save);
	m->super = strtok_r(NULL, " \n", &save);
	if (!tok || !m->fstype || !m->source)
		return -1;
	if (!m->super)
		m->super = m->fstype + strlen(m->fstype);	/* "" */
	unescape(m->point);
	unescape(m->source);
	return 0;
}

static void take(struct ib_env_target *t, struct mnt_line *m)
{
	ib_env_copy(t->fstype, sizeof(t->fstype), m->fstype);
	snprintf(t->mount_point, sizeof(t->mount_point), "%s", m->point);
	snprintf(t->mount_source, sizeof(t->mount_source), "%s", m->source);
	merge_options(t->mount_options, sizeof(t->mount_options), m->opts, m->super);
}

void ib_env_mount(struct ib_env_target *t, const char *path, dev_t dev, const char *proc)
{
	char p[PATH_MAX], real[PATH_MAX], *line = NULL;
	struct mnt_line m;
	size_t cap = 0, best = 0, n;
	FILE *f;

	real_path(path, real);
	snprintf(p, sizeof(p), "%s/self/mountinfo", proc);
	f = fopen(p, "re");
	if (!f)
		return;
	/* the longest mount point wins; of equal ones the later (on top) */
	while (getline(&line, &cap, f) > 0) {
		if (parse_line(line, &m) || m.maj != major(dev) || m.min != minor(dev))
			continue;
		n = holds(m.point, real);
		if (n && n >= best) {
			best = n;
			take(t, &m);
		}
	}
	free(line);
	fclose(f);
}
