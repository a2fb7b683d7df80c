// SPDX-License-Identifier: GPL-2.0-only
/*
 * Runs a fuzz target's LLVMFuzzerTestOneInput over files (or every file of
 * the directories) named on the command line: the seeds and every input a
 * fuzzer ever crashed on (tests/fuzz/regress/), in every build, with gcc
 * too. A crash or sanitizer report fails the test; reaching the end passes.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf;
	long n;

	if (!f)
		return perror(path), 1;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc(n > 0 ? (size_t)n : 1);
	if (!buf || (n > 0 && fread(buf, 1, (size_t)n, f) != (size_t)n)) {
		fprintf(stderr, "%s: read error\n", path);
		fclose(f);
		free(buf);
		return 1;
	}
	fclose(f);
	LLVMFuzzerTestOneInput(buf, (size_t)n);
	free(buf);
	return 0;
}

static int run_path(const char *path, unsigned int *count)
{
	char sub[4096];
	struct dirent *e;
	struct stat st;
	int bad = 0;
	DIR *dp;

	if (stat(path, &st))
		return perror(path), 1;
	if (!S_ISDIR(st.st_mode)) {
		++*count;
		return run_file(path);
	}
	dp = opendir(path);
	if (!dp)
		return perror(path), 1;
	while ((e = readdir(dp)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", path, e->d_name);
		bad |= run_path(sub, count);
	}
	closedir(dp);
	return bad;
}

int main(int argc, char **argv)
{
	unsigned int count = 0;
	int i, bad = 0;

	for (i = 1; i < argc; i++)
		bad |= run_path(argv[i], &count);
	printf("%u inputs replayed\n", count);
	if (!count)
		return 1;	/* an empty corpus proves nothing */
	return bad;
}
