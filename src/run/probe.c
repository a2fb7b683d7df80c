// SPDX-License-Identifier: GPL-2.0-only
/*
 * Evidence probes on system state: device counters, zram, process CPU
 * time, data compressibility, and the environment's accessors (probe.h).
 * The file probes (page cache, holes) are in probe_file.c.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include "probe.h"
#include "env_priv.h"

int ib_probe_disk_stat(const char *sysfs, const char *disk, struct ib_disk_stat *st)
{
	char line[512];
	int ret;

	memset(st, 0, sizeof(*st));
	ret = ib_env_read(line, sizeof(line), sysfs ? sysfs : "/sys", "block/%s/stat", disk);
	if (ret)
		return ret;
	return ib_disk_parse_stat(line, st);
}

void ib_probe_disk_delta(const struct ib_disk_stat *a, const struct ib_disk_stat *b,
			 struct ib_disk_stat *d)
{
	unsigned int k;

	for (k = 0; k < 2; k++) {
		d->ios[k] = b->ios[k] - a->ios[k];
		d->merges[k] = b->merges[k] - a->merges[k];
		d->sectors[k] = b->sectors[k] - a->sectors[k];
		d->ticks[k] = b->ticks[k] - a->ticks[k];
	}
	d->io_ticks = b->io_ticks - a->io_ticks;
	d->time_in_queue = b->time_in_queue - a->time_in_queue;
}

int ib_probe_parse_mm_stat(const char *text, struct ib_probe_zram *z)
{
	unsigned long long v[8];
	int n = sscanf(text, "%llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2],
		       &v[3], &v[4], &v[5], &v[6], &v[7]);

	/* huge_pages arrived in 4.20; the first six fields since 4.7 */
	if (n < 6)
		return -EINVAL;
	z->orig_data_size = v[0];
	z->compr_data_size = v[1];
	z->mem_used_total = v[2];
	z->same_pages = v[5];
	z->huge_pages = n >= 8 ? v[7] : 0;
	return 0;
}

int ib_probe_zram(const char *sysfs, const char *disk, struct ib_probe_zram *z)
{
	const char *root = sysfs ? sysfs : "/sys";
	char line[512];
	int ret;

	memset(z, 0, sizeof(*z));
	ret = ib_env_read(line, sizeof(line), root, "block/%s/mm_stat", disk);
	if (ret)
		return ret;
	z->disksize = ib_env_read_u64(0, root, "block/%s/disksize", disk);
	return ib_probe_parse_mm_stat(line, z);
}

/*
 * zlib rather than a byte-entropy estimate: entropy is order 0, blind to
 * repetition. A buffer_pattern of the 256 byte values in turn has the
 * entropy of random data (8 bits/byte) yet compresses to almost nothing,
 * and so it does in zram (lzo/lz4/zstd) or a compressing SSD; an LZ
 * compressor sees what those targets see.
 */
/* Compressed size of one block (n if it does not shrink) */
static size_t deflated(z_stream *z, const unsigned char *in, size_t n)
{
	unsigned char out[IB_PROBE_COMPRESS_BLOCK + 64];

	if (deflateReset(z) != Z_OK)
		return n;
	z->next_in = (Bytef *)in;
	z->avail_in = (uInt)n;
	z->next_out = out;
	z->avail_out = sizeof(out);
	if (deflate(z, Z_FINISH) != Z_STREAM_END || z->total_out > n)
		return n;	/* stored as it is */
	return z->total_out;
}

double ib_probe_compress_ratio(const void *buf, size_t len)
{
	const unsigned char *p = buf;
	uint64_t total = 0;
	z_stream z;
	size_t off, n;

	if (!len)
		return 1.0;
	memset(&z, 0, sizeof(z));
	/* one stream for every block (an init costs more than a block) */
	if (deflateInit(&z, 1) != Z_OK)
		return 1.0;
	for (off = 0; off < len; off += n) {
		n = len - off < IB_PROBE_COMPRESS_BLOCK ? len - off : IB_PROBE_COMPRESS_BLOCK;
		total += deflated(&z, p + off, n);
	}
	deflateEnd(&z);
	return (double)total / (double)len;
}

/* "pid (comm) S ppid ..." : fields counted after the last ')' */
int ib_probe_parse_proc_stat(const char *text, long ticks_per_sec, struct ib_probe_cpu *c)
{
	const char *p = strrchr(text, ')');
	unsigned long long ut, st;
	long threads;
	char state;

	if (!p || ticks_per_sec <= 0)
		return -EINVAL;
	/* state(3) ppid pgrp session tty_nr tpgid flags minflt cminflt majflt
	 * cmajflt utime(14) stime(15) cutime cstime priority nice threads(20) */
	if (sscanf(p + 1, " %c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu %*d %*d "
		   "%*d %*d %ld", &state, &ut, &st, &threads) != 4)
		return -EINVAL;
	c->state = state;
	c->user_ns = ut * (1000000000ULL / (unsigned long long)ticks_per_sec);
	c->sys_ns = st * (1000000000ULL / (unsigned long long)ticks_per_sec);
	c->threads = threads > 0 ? (unsigned int)threads : 0;
	return 0;
}

int ib_probe_proc_cpu(const char *procfs, pid_t pid, struct ib_probe_cpu *c)
{
	char p[PATH_MAX], line[1024];
	size_t n;
	FILE *f;

	memset(c, 0, sizeof(*c));
	snprintf(p, sizeof(p), "%s/%d/stat", procfs ? procfs : "/proc", (int)pid);
	f = fopen(p, "re");
	if (!f)
		return -errno;
	n = fread(line, 1, sizeof(line) - 1, f);
	fclose(f);
	line[n] = '\0';
	return ib_probe_parse_proc_stat(line, sysconf(_SC_CLK_TCK), c);
}

double ib_probe_cpu_percent(const struct ib_probe_cpu *a, const struct ib_probe_cpu *b,
			    uint64_t wall_ns)
{
	uint64_t ta = a->user_ns + a->sys_ns, tb = b->user_ns + b->sys_ns;

	if (!wall_ns || tb < ta)	/* tb < ta: another process (pid reused) */
		return 0.0;
	return (double)(tb - ta) * 100.0 / (double)wall_ns;
}

int ib_probe_write_cache_on(const struct ib_env_target *t)
{
	if (!strcmp(t->write_cache, "write back"))
		return 1;
	if (!strcmp(t->write_cache, "write through"))
		return 0;
	return -1;
}

int ib_probe_governor_performance(const struct ib_env *e)
{
	if (!e->governor[0] || !strcmp(e->governor, "none"))
		return -1;
	return !strcmp(e->governor, "performance");
}
