// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: the job-file parser on the input as a job file, then
 * fix-up and validation of every job it defines (what the command line
 * does next, without expanding numjobs), then the value parsers on the same
 * bytes. `include` is served from memory (a small fixed text, or the input
 * itself for "self", so nesting limits are exercised) and ${VAR} from a
 * fixed table: no file, no environment. Bits of the size pick the file
 * index (implicit stonewall) and --readonly, so both paths get fuzzed.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "iobench/job_setup.h"
#include "iobench/jobfile.h"
#include "iobench/parse.h"
#include "iobench/plan.h"

#define FUZZ_MAX_INPUT 16384

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct input {
	const uint8_t *data;
	size_t size;
};

static int read_include(void *arg, const char *from, const char *path,
			char **buf, size_t *len, char *name, size_t namelen,
			struct ib_diag *d)
{
	static const char fixed[] = "bs=4k\nrw=randread\n; comment\nsize=1m\n";
	const struct input *in = arg;
	bool self = !strcmp(path, "self");
	size_t n = self ? in->size : sizeof(fixed) - 1;

	(void)from;
	if (!strcmp(path, "missing"))
		return ib_diag_set(d, ENOENT, "%s: No such file or directory", path);
	*buf = malloc(n + 1);
	if (!*buf)
		return ib_diag_set(d, ENOMEM, "no memory");
	memcpy(*buf, self ? (const char *)in->data : fixed, n);
	(*buf)[n] = '\0';
	*len = n;
	snprintf(name, namelen, "%s", path);
	return 0;
}

static const char *fake_getenv(const char *name)
{
	if (!strcmp(name, "SIZE"))
		return "64m";
	if (!strcmp(name, "EMPTY"))
		return "";
	if (!strcmp(name, "DIR"))
		return "/tmp";
	return NULL;
}

static void validate_all(struct ib_jobset *s, bool readonly)
{
	struct ib_diag d;
	unsigned int i;

	for (i = 0; i < s->nr; i++) {
		if (s->secs[i].is_global)
			continue;
		ib_job_fixup(&s->secs[i].job);
		ib_job_validate(&s->secs[i].job, readonly, &d);
	}
}

/* The value parsers, on the input as one value string. */
static void parse_values(const uint8_t *data, size_t size)
{
	struct ib_diag d;
	char buf[256];
	uint8_t pct;
	uint64_t v;
	bool b;

	if (size >= sizeof(buf))
		return;
	memcpy(buf, data, size);
	buf[size] = '\0';
	ib_parse_size(buf, 1024, &v, &d);
	ib_parse_size_pct(buf, 1000, &v, &pct, &d);
	ib_parse_time_us(buf, 1000000, &v, &d);
	ib_parse_uint(buf, &v, &d);
	ib_parse_bool(buf, &b, &d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct input in = { data, size };
	struct ib_jobfile_env env = {
		.read = read_include, .arg = &in, .getenv = fake_getenv,
		.ncpus = 2, .pagesize = 4096, .mb_memory = 24576,
	};
	struct ib_diag d = { { 0 } };
	struct ib_jobset *s;

	if (size > FUZZ_MAX_INPUT)
		return 0;
	s = malloc(sizeof(*s));	/* a jobset holds whole jobs: not on the stack */
	if (!s)
		return 0;
	ib_jobset_init(s);
	if (!ib_jobfile_parse(s, (const char *)data, size, "fuzz.fio",
			      1 + (size & 1), &env, &d))
		validate_all(s, size & 2);
	ib_jobset_free(s);
	free(s);
	parse_values(data, size);
	return 0;
}
