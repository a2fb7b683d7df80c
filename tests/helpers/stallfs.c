// SPDX-License-Identifier: GPL-2.0-only
/*
 * stallfs MOUNTPOINT SIZE EVERY STALL_MS LOG: a FUSE file system for
 * test_stall.py holding one file, /data, of SIZE zero bytes, opened with
 * direct_io (every read reaches this process, no page cache, no readahead).
 * Every EVERY-th read sleeps STALL_MS ms before answering; single-threaded,
 * so the whole file system stalls with it, as a device would. Each stall is
 * appended to LOG as "START_NS END_NS" (CLOCK_MONOTONIC), the first read's
 * time as "first NS" and the read count as "reads N" when unmounted. Runs in the foreground until unmounted.
 */
#define FUSE_USE_VERSION 31
#include <errno.h>
#include <fuse.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

static uint64_t g_size, g_every, g_stall_ms, g_reads;
static FILE *g_log;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int sfs_getattr(const char *path, struct stat *st, struct fuse_file_info *fi)
{
	(void)fi;
	memset(st, 0, sizeof(*st));
	if (!strcmp(path, "/")) {
		st->st_mode = S_IFDIR | 0755;
		st->st_nlink = 2;
		return 0;
	}
	if (strcmp(path, "/data"))
		return -ENOENT;
	st->st_mode = S_IFREG | 0644;
	st->st_nlink = 1;
	st->st_size = (off_t)g_size;
	return 0;
}

static int sfs_open(const char *path, struct fuse_file_info *fi)
{
	if (strcmp(path, "/data"))
		return -ENOENT;
	fi->direct_io = 1;
	return 0;
}

static void stall(void)
{
	struct timespec ts = {
		.tv_sec = (time_t)(g_stall_ms / 1000),
		.tv_nsec = (long)(g_stall_ms % 1000) * 1000000L,
	};
	uint64_t t0 = now_ns();

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
	fprintf(g_log, "%llu %llu\n", (unsigned long long)t0,
		(unsigned long long)now_ns());
	fflush(g_log);
}

static int sfs_read(const char *path, char *buf, size_t len, off_t off,
		    struct fuse_file_info *fi)
{
	(void)path;
	(void)fi;
	if (!g_reads) {
		fprintf(g_log, "first %llu\n", (unsigned long long)now_ns());
		fflush(g_log);
	}
	if (++g_reads % g_every == 0)
		stall();
	if ((uint64_t)off >= g_size)
		return 0;
	if (len > g_size - (uint64_t)off)
		len = (size_t)(g_size - (uint64_t)off);
	memset(buf, 0, len);
	return (int)len;
}

static int sfs_readdir(const char *path, void *buf, fuse_fill_dir_t fill,
		       off_t off, struct fuse_file_info *fi,
		       enum fuse_readdir_flags flags)
{
	(void)off;
	(void)fi;
	(void)flags;
	if (strcmp(path, "/"))
		return -ENOENT;
	fill(buf, ".", NULL, 0, 0);
	fill(buf, "..", NULL, 0, 0);
	fill(buf, "data", NULL, 0, 0);
	return 0;
}

static void sfs_destroy(void *data)
{
	(void)data;
	fprintf(g_log, "reads %llu\n", (unsigned long long)g_reads);
	fclose(g_log);
}

static const struct fuse_operations sfs_ops = {
	.getattr = sfs_getattr,
	.open = sfs_open,
	.read = sfs_read,
	.readdir = sfs_readdir,
	.destroy = sfs_destroy,
};

int main(int argc, char **argv)
{
	char *fargv[] = { argv[0], "-f", "-s", "-o", "allow_other", argv[1], NULL };

	if (argc != 6) {
		fprintf(stderr, "usage: %s MOUNTPOINT SIZE EVERY STALL_MS LOG\n", argv[0]);
		return 2;
	}
	g_size = strtoull(argv[2], NULL, 0);
	g_every = strtoull(argv[3], NULL, 0);
	g_stall_ms = strtoull(argv[4], NULL, 0);
	g_log = fopen(argv[5], "w");
	if (!g_log || !g_every) {
		perror(argv[5]);
		return 2;
	}
	return fuse_main(6, fargv, &sfs_ops, NULL);
}
