// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target for the option surface: the job file parser (then
 * fix-up and validation of what it accepted) and the value parsers, on the
 * same bytes. Seeds: the .fio files in tests/data. Build by hand until
 * meson wires the 'fuzz' option (a core built with clang):
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -D_GNU_SOURCE \
 *     -D_FILE_OFFSET_BITS=64 -Iinclude -Ibuild tests/fuzz/fuzz_jobfile.c \
 *     build/src/libiobench-core.a -luring -laio -lblkid -lm -o fuzz_jobfile
 *   ./fuzz_jobfile -max_len=2048 CORPUS_DIR tests/data
 */
#include <stdint.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "iobench/jobfile.h"
#include "iobench/parse.h"
#include "iobench/run.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *fz_getenv(const char *n)
{
	return n[0] == 'A' ? "x(1+2)" : NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct ib_jobfile_env env = {
		.getenv = fz_getenv, .ncpus = 2, .pagesize = 4096, .mb_memory = 100,
	};
	struct ib_jobset *s = malloc(sizeof(*s));
	struct ib_diag d;
	char buf[256];
	uint64_t v;
	uint8_t pct;
	bool b;
	unsigned int i;

	ib_jobset_init(s);
	if (!ib_jobfile_parse(s, (const char *)data, size, "f.fio", 1 + (size & 1), &env, &d)) {
		for (i = 0; i < s->nr; i++) {
			if (!s->secs[i].is_global) {
				ib_job_fixup(&s->secs[i].job);
				(void)ib_job_validate(&s->secs[i].job, size & 2, &d);
			}
		}
	}
	ib_jobset_free(s);
	free(s);
	if (size < sizeof(buf)) {
		memcpy(buf, data, size);
		buf[size] = 0;
		(void)ib_parse_size(buf, 1024, &v, &d);
		(void)ib_parse_size_pct(buf, 1000, &v, &pct, &d);
		(void)ib_parse_time_us(buf, 1000000, &v, &d);
		(void)ib_parse_uint(buf, &v, &d);
		(void)ib_parse_bool(buf, &b, &d);
	}
	return 0;
}
