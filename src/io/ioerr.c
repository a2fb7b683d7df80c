// SPDX-License-Identifier: GPL-2.0-only
/* I/O error policy: error types, non-fatal lists, errno names (ioerr.h). */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "iobench/ioerr.h"

#define ERRNO_MAX 4095	/* the kernel's MAX_ERRNO */
#define TOKEN_MAX 32

static const char *const type_names[IB_ERR_TYPE_NR] = { "read", "write", "verify" };

enum ib_err_type ib_err_type_of(enum ib_ddir ddir, int err)
{
	if (err == EILSEQ)
		return IB_ERR_VERIFY;
	return ddir == IB_DDIR_READ ? IB_ERR_READ : IB_ERR_WRITE;
}

bool ib_err_listed(const struct ib_err_list *list, int err)
{
	unsigned int i;

	if (!list->nr)
		return err == EIO || err == EILSEQ;
	for (i = 0; i < list->nr; i++)
		if (list->err[i] == err)
			return true;
	return false;
}

bool ib_err_fill_end(const struct ib_job *job, int err)
{
	return job->fill_device && (err == ENOSPC || err == EDQUOT);
}

bool ib_err_decide(const struct ib_job *job, enum ib_ddir ddir, int err,
		   bool inline_done, bool *count)
{
	enum ib_err_type t = ib_err_type_of(ddir, err);
	bool covered = (job->continue_on_error & (1u << t)) != 0;
	bool go_on = covered && ib_err_listed(&job->ignore_error[t], err);

	*count = go_on || (covered && inline_done);
	return go_on;
}

const char *ib_errno_name(int err)
{
	return err > 0 ? strerrorname_np(err) : NULL;
}

char *ib_strerror_named(int err, char *buf, size_t len)
{
	const char *name = ib_errno_name(err);

	if (name)
		snprintf(buf, len, "%s (%s)", strerror(err), name);
	else
		snprintf(buf, len, "%s", strerror(err));
	return buf;
}

/* Second names of one number, which strerrorname_np() never returns. */
static int errno_alias(const char *tok)
{
	static const struct { const char *name; int err; } aliases[] = {
		{ "EWOULDBLOCK", EWOULDBLOCK },
		{ "EDEADLOCK", EDEADLOCK },
		{ "ENOTSUP", ENOTSUP },
	};
	size_t i;

	for (i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++)
		if (!strcmp(tok, aliases[i].name))
			return aliases[i].err;
	return 0;
}

static int errno_number(const char *tok)
{
	char *end;
	long v;

	if (!isdigit((unsigned char)tok[0]))
		return -EINVAL;
	errno = 0;
	v = strtol(tok, &end, 10);
	if (errno || *end || v < 1 || v > ERRNO_MAX)
		return -EINVAL;
	return (int)v;
}

int ib_errno_parse(const char *tok)
{
	const char *name;
	int e;

	if (tok[0] != 'E')
		return errno_number(tok);
	e = errno_alias(tok);
	if (e)
		return e;
	for (e = 1; e <= ERRNO_MAX; e++) {
		name = strerrorname_np(e);
		if (name && !strcmp(name, tok))
			return e;
	}
	return -EINVAL;
}

/* Copy [p, end) into tok without surrounding blanks; -EINVAL if too long. */
static int take_token(const char *p, const char *end, char *tok)
{
	while (p < end && isspace((unsigned char)*p))
		p++;
	while (end > p && isspace((unsigned char)end[-1]))
		end--;
	if (end - p >= TOKEN_MAX) {
		memcpy(tok, p, TOKEN_MAX - 4);
		strcpy(tok + TOKEN_MAX - 4, "...");
		return -EINVAL;
	}
	memcpy(tok, p, (size_t)(end - p));
	tok[end - p] = '\0';
	return 0;
}

static int list_add(struct ib_err_list *l, enum ib_err_type t, int err,
		    struct ib_diag *d)
{
	unsigned int i;

	for (i = 0; i < l->nr; i++)
		if (l->err[i] == err)
			return 0;
	if (l->nr == IB_ERR_LIST_MAX)
		return ib_diag_set(d, E2BIG, "more than %d errors for %s",
				   IB_ERR_LIST_MAX, type_names[t]);
	l->err[l->nr++] = err;
	return 0;
}

/* One list: errors separated by ':' in [p, end). */
static int parse_list(const char *p, const char *end, struct ib_err_list *l,
		      enum ib_err_type t, struct ib_diag *d)
{
	char tok[TOKEN_MAX];
	const char *q;
	int err, rc;

	while (p < end) {
		q = memchr(p, ':', (size_t)(end - p));
		if (!q)
			q = end;
		rc = take_token(p, q, tok);
		err = rc ? rc : tok[0] ? ib_errno_parse(tok) : 0;
		if (err < 0)
			return ib_diag_set(d, EINVAL,
					   "unknown error '%s' in the %s list (an errno name such as ENOSPC, or a number 1-%d)",
					   tok, type_names[t], ERRNO_MAX);
		if (err && (rc = list_add(l, t, err, d)))
			return rc;
		p = q + 1;
	}
	return 0;
}

int ib_ignore_error_parse(const char *v, struct ib_err_list lists[IB_ERR_TYPE_NR],
			  struct ib_diag *d)
{
	const char *p = v, *end;
	unsigned int t;
	int rc;

	memset(lists, 0, sizeof(*lists) * IB_ERR_TYPE_NR);
	for (t = 0; ; t++) {
		end = strchr(p, ',');
		if (!end)
			end = p + strlen(p);
		if (t == IB_ERR_TYPE_NR)
			return ib_diag_set(d, EINVAL,
					   "'%s': at most 3 lists (read,write,verify)", v);
		rc = parse_list(p, end, &lists[t], (enum ib_err_type)t, d);
		if (rc)
			return rc;
		if (!*end)
			return 0;
		p = end + 1;
	}
}
