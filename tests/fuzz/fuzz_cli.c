// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: the command line. The input is argv, one argument per
 * line, handed to ib_cli_parse() behind "iobench". Arguments that do not
 * start with '-' are job file paths, and "-" is stdin: both are dropped so
 * the fuzzer never reads the machine's files or blocks (fuzz_jobfile.c
 * covers the job-file parser on the input itself).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "iobench/cli.h"
#include "iobench/plan.h"

#define MAX_ARGS 64
#define FUZZ_MAX_INPUT 8192

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static FILE *sink(void)
{
	static FILE *null_out;	/* one per process: the fuzzer calls us a lot */

	if (!null_out)
		null_out = fopen("/dev/null", "w");
	return null_out;
}

static int split_args(char *text, char **argv)
{
	int argc = 0;
	char *save = NULL, *a;

	argv[argc++] = (char *)"iobench";
	for (a = strtok_r(text, "\n", &save); a && argc < MAX_ARGS;
	     a = strtok_r(NULL, "\n", &save))
		if (a[0] == '-' && a[1])
			argv[argc++] = a;
	argv[argc] = NULL;
	return argc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *argv[MAX_ARGS + 1], *text;
	struct ib_diag d = { { 0 } };
	struct ib_plan run;
	int argc;

	if (size > FUZZ_MAX_INPUT)
		return 0;
	text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	argc = split_args(text, argv);
	ib_plan_init(&run);
	ib_cli_parse(argc, argv, &run, sink(), &d);
	ib_plan_free(&run);
	free(text);
	return 0;
}
