/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_TEST_PLOTS_CAPTURE_H
#define IOBENCH_TEST_PLOTS_CAPTURE_H

/* What the plot unit tests share: output captured in memory. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct capture {
	FILE *f;
	char *buf;
	size_t len;
};

static inline void cap_open(struct capture *c)
{
	c->buf = NULL;
	c->len = 0;
	c->f = open_memstream(&c->buf, &c->len);
	assert_non_null(c->f);
}

/* Close the stream; c->buf holds the NUL-terminated text (free it). */
static inline char *cap_close(struct capture *c)
{
	assert_int_equal(fclose(c->f), 0);
	return c->buf;
}

/* How many times needle occurs in s. */
static inline unsigned int count_of(const char *s, const char *needle)
{
	unsigned int n = 0;

	while ((s = strstr(s, needle)) != NULL) {
		n++;
		s += strlen(needle);
	}
	return n;
}

#endif
