// SPDX-License-Identifier: GPL-2.0-only
/*
 * String table (strtab.h): a list of blocks, strings bumped into the
 * newest; a string longer than a block gets a block of its own.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "iobench/strtab.h"

#define BLOCK_SIZE 16384
#define ALIGN 16u

struct ib_strtab_block {
	struct ib_strtab_block *next;
	size_t used, cap;
	_Alignas(ALIGN) char text[];
};

static char *room(struct ib_strtab *t, size_t need)
{
	struct ib_strtab_block *b = t->head;
	size_t cap;

	if (!b || b->cap - b->used < need) {
		cap = need > BLOCK_SIZE ? need : BLOCK_SIZE;
		b = malloc(sizeof(*b) + cap);
		if (!b)
			return NULL;
		b->used = 0;
		b->cap = cap;
		b->next = t->head;
		t->head = b;
	}
	b->used += need;
	return b->text + b->used - need;
}

void *ib_strtab_alloc(struct ib_strtab *t, size_t size)
{
	struct ib_strtab_block *b = t->head;
	char *p;

	if (b)	/* the next string starts aligned, or room() opens a block */
		b->used = b->used + ALIGN - 1 < b->cap ?
			  (b->used + ALIGN - 1) & ~(size_t)(ALIGN - 1) : b->cap;
	p = room(t, size);
	if (p)
		memset(p, 0, size);
	return p;
}

const char *ib_strtab_add(struct ib_strtab *t, const char *s, size_t len)
{
	char *p = room(t, len + 1);

	if (!p)
		return NULL;
	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

const char *ib_strtab_vprintf(struct ib_strtab *t, const char *fmt, va_list ap)
{
	va_list again;
	char *p;
	int n;

	va_copy(again, ap);
	n = vsnprintf(NULL, 0, fmt, ap);
	p = n < 0 ? NULL : room(t, (size_t)n + 1);
	if (p)
		vsnprintf(p, (size_t)n + 1, fmt, again);
	va_end(again);
	return p;
}

const char *ib_strtab_printf(struct ib_strtab *t, const char *fmt, ...)
{
	const char *p;
	va_list ap;

	va_start(ap, fmt);
	p = ib_strtab_vprintf(t, fmt, ap);
	va_end(ap);
	return p;
}

void ib_strtab_free(struct ib_strtab *t)
{
	struct ib_strtab_block *b, *next;

	for (b = t->head; b; b = next) {
		next = b->next;
		free(b);
	}
	t->head = NULL;
}
