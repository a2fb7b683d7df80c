// SPDX-License-Identifier: GPL-2.0-only
/*
 * verify_check: drive the verify module over a file, for the interop test
 * (tests/integration/test_verify_interop.py) and by hand.
 *
 *   verify_check check --verify=T --bs=N [--interval=N] [--pattern=P]
 *                [--seed-from-offset] [--numberio] [--describe] FILE
 *       check every block; one line per bad block (--describe: fio's
 *       message for it), then "blocks N bad M";
 *       exit 0 (all good), 1 (some bad), 2 (usage or I/O error)
 *   verify_check fill --verify=T --bs=N [--interval=N] [--pattern=P] FILE SIZE
 *       write SIZE bytes of blocks (seed = offset + 1, numberio = index)
 *   verify_check digest NAME FILE    ib_csum of the whole file, in hex
 *   verify_check bench [MiB]         checksum MiB (default 1024) of 4 KiB
 *                                    blocks in memory per algorithm: GB/s
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "iobench/csum.h"
#include "iobench/verify.h"

struct opts {
	struct ib_verify_spec spec;
	struct ib_vpattern pattern;
	size_t bs;
	int seed_from_offset, numberio, describe;
};

static void print_hex(const uint8_t *p, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		printf("%02x", p[i]);
}

static void report(const struct opts *o, const char *path, uint64_t off,
		   const struct ib_verify_mismatch *m)
{
	if (o->describe) {
		char text[1024];

		ib_verify_describe(m, path, off, o->bs, text, sizeof(text));
		fputs(text, stdout);
		return;
	}
	printf("bad block %" PRIu64 " interval %u offset %" PRIu64 ": %s",
	       off, m->interval, m->hdr_offset, ib_verify_field_name(m->field));
	if (m->field == IB_VF_CHECKSUM) {
		printf(" expected ");	/* fio's words: the stored one */
		print_hex(m->csum_stored, m->csum_len);
		printf(" received ");
		print_hex(m->csum_data, m->csum_len);
	} else {
		if (m->field == IB_VF_PATTERN)
			printf(" byte %u", m->byte);
		printf(" expected 0x%" PRIx64 " received 0x%" PRIx64,
		       m->expected, m->received);
	}
	printf("\n");
}

static int parse_opts(int argc, char **argv, struct opts *o)
{
	static const struct option lo[] = {
		{ "verify", required_argument, NULL, 'v' },
		{ "bs", required_argument, NULL, 'b' },
		{ "interval", required_argument, NULL, 'i' },
		{ "pattern", required_argument, NULL, 'p' },
		{ "seed-from-offset", no_argument, NULL, 's' },
		{ "numberio", no_argument, NULL, 'n' },
		{ "describe", no_argument, NULL, 'd' },
		{ NULL, 0, NULL, 0 },
	};
	struct ib_diag d = { "" };
	int c;

	memset(o, 0, sizeof(*o));
	o->spec.thread = 1;
	while ((c = getopt_long(argc, argv, "", lo, NULL)) != -1) {
		if (c == 'v' && ib_verify_parse(optarg, &o->spec.type, &d))
			break;
		if (c == 'p') {
			if (ib_vpattern_parse(optarg, &o->pattern, &d))
				break;
			o->spec.pattern = &o->pattern;
			if (o->spec.type == IB_VERIFY_NONE)
				o->spec.type = IB_VERIFY_PATTERN;
		}
		if (c == 'b')
			o->bs = strtoul(optarg, NULL, 0);
		if (c == 'i')
			o->spec.interval = (unsigned)strtoul(optarg, NULL, 0);
		if (c == 's')
			o->seed_from_offset = o->spec.check_seed = 1;
		if (c == 'n')
			o->numberio = 1;
		if (c == 'd')
			o->describe = 1;
		if (c == '?')
			return -1;
	}
	if (d.msg[0] || !o->bs || ib_verify_spec_check(&o->spec, o->bs, &d)) {
		fprintf(stderr, "verify_check: %s\n", d.msg[0] ? d.msg : "--bs");
		return -1;
	}
	return 0;
}

static void block_id(const struct opts *o, uint64_t off, struct ib_vblock *b)
{
	b->offset = off;
	b->seed = off + 1;
	b->numberio = (uint16_t)(off / o->bs);
	b->check_numberio = o->numberio;
}

static int do_check(const struct opts *o, const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = malloc(o->bs);
	uint64_t off = 0, n = 0, nbad = 0;

	if (!f || !buf) {
		perror(path);
		free(buf);
		return 2;
	}
	while (fread(buf, 1, o->bs, f) == o->bs) {
		struct ib_verify_mismatch m;
		struct ib_vblock b;

		block_id(o, off, &b);
		if (ib_verify_check(&o->spec, &b, buf, o->bs, &m)) {
			report(o, path, off, &m);
			nbad++;
		}
		n++;
		off += o->bs;
	}
	fclose(f);
	free(buf);
	printf("blocks %" PRIu64 " bad %" PRIu64 "\n", n, nbad);
	return nbad ? 1 : 0;
}

static int do_fill(const struct opts *o, const char *path, uint64_t size)
{
	FILE *f = fopen(path, "wb");
	uint8_t *buf = malloc(o->bs);
	int rc = 0;

	if (!f || !buf) {
		perror(path);
		free(buf);
		return 2;
	}
	for (uint64_t off = 0; off + o->bs <= size && !rc; off += o->bs) {
		struct ib_vblock b;

		block_id(o, off, &b);
		ib_verify_fill(&o->spec, &b, buf, o->bs);
		rc = fwrite(buf, 1, o->bs, f) == o->bs ? 0 : 2;
	}
	if (fclose(f))
		rc = 2;
	free(buf);
	return rc;
}

static int do_digest(const char *name, const char *path)
{
	struct ib_csum_ctx c;
	enum ib_csum_type t;
	uint8_t buf[65536], out[IB_CSUM_MAX_LEN];
	FILE *f;
	size_t n;

	if (ib_csum_parse(name, &t)) {
		fprintf(stderr, "verify_check: unknown checksum '%s'\n", name);
		return 2;
	}
	f = fopen(path, "rb");
	if (!f) {
		perror(path);
		return 2;
	}
	ib_csum_init(&c, t);
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		ib_csum_update(&c, buf, n);
	fclose(f);
	ib_csum_final(&c, out);
	print_hex(out, ib_csum_len(t));
	printf("\n");
	return 0;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Whole blocks: ib_verify_fill and ib_verify_check (header included). */
static void bench_blocks(uint8_t *buf, size_t bufsz, uint64_t total,
			 enum ib_verify_type type)
{
	struct ib_verify_spec s = { .type = type, .thread = 1 };
	const size_t bs = 4096;
	uint64_t bad = 0;
	double t0 = now(), t1;

	for (uint64_t done = 0; done < total; done += bs) {
		struct ib_vblock b = { .offset = done % bufsz, .seed = done };

		ib_verify_fill(&s, &b, buf + done % bufsz, bs);
	}
	t1 = now();
	for (uint64_t done = 0; done < total; done += bs) {
		struct ib_vblock b = { .offset = done % bufsz };

		bad += ib_verify_check(&s, &b, buf + done % bufsz, bs, NULL) != 0;
	}
	printf("%-9s fill %.2f GB/s, check %.2f GB/s (%" PRIu64 " bad)\n",
	       ib_verify_name(type), total / (t1 - t0) / 1e9,
	       total / (now() - t1) / 1e9, bad);
}

/* Checksum mib MiB of 4 KiB blocks from a 64 MiB in-memory buffer (too big
 * for the caches, as blocks read back would be), per algorithm. */
static int do_bench(unsigned long mib)
{
	const size_t bufsz = 64u << 20, bs = 4096;
	uint8_t *buf = malloc(bufsz), out[IB_CSUM_MAX_LEN];
	uint64_t total = (uint64_t)mib << 20;

	if (!buf)
		return 2;
	for (size_t i = 0; i < bufsz; i++)
		buf[i] = (uint8_t)(i * 2654435761u >> 13);
	for (int t = 0; t < IB_CSUM_NR; t++) {
		double t0 = now();
		uint64_t acc = 0;

		for (uint64_t done = 0; done < total; done += bs) {
			ib_csum(t, buf + done % bufsz, bs, out);
			acc += out[0];
		}
		printf("%-9s %7.2f GB/s (%" PRIu64 ")\n", ib_csum_name(t),
		       total / (now() - t0) / 1e9, acc % 10);
	}
	bench_blocks(buf, bufsz, total, IB_VERIFY_CRC32C);
	bench_blocks(buf, bufsz, total, IB_VERIFY_XXHASH);
	free(buf);
	return 0;
}

int main(int argc, char **argv)
{
	struct opts o;

	if (argc >= 2 && !strcmp(argv[1], "bench"))
		return do_bench(argc > 2 ? strtoul(argv[2], NULL, 0) : 1024);
	if (argc == 4 && !strcmp(argv[1], "digest"))
		return do_digest(argv[2], argv[3]);
	if (argc >= 2 && (!strcmp(argv[1], "check") || !strcmp(argv[1], "fill"))) {
		int fill = !strcmp(argv[1], "fill");

		if (parse_opts(argc - 1, argv + 1, &o))
			return 2;
		if (!fill && optind + 2 == argc)
			return do_check(&o, argv[optind + 1]);
		if (fill && optind + 3 == argc)
			return do_fill(&o, argv[optind + 1],
				       strtoull(argv[optind + 2], NULL, 0));
	}
	fprintf(stderr, "usage: verify_check check|fill|digest|bench ... (see the source)\n");
	return 2;
}
