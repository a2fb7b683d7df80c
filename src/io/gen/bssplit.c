// SPDX-License-Identifier: GPL-2.0-only
/*
 * bssplit= parsing (see bssplit.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "iobench/bssplit.h"
#include "iobench/parse.h"

#define BLANK UINT32_MAX

/*
 * "12.5" (or "12.5%", as fio reads it) -> 12500 (thousandths of a
 * percent); -EINVAL unless 0..100.
 */
static int parse_pct(const char *s, uint32_t *out)
{
	char *end;
	double x;

	if (!*s) {
		*out = BLANK;
		return 0;
	}
	x = strtod(s, &end);
	if (end != s && *end == '%')
		end++;
	if (end == s || *end || !(x >= 0.0) || x > 100.0)
		return -EINVAL;
	*out = (uint32_t)(x * (IB_BSSPLIT_SCALE / 100) + 0.5);
	return 0;
}

static int parse_entry(char *e, unsigned int kb_base, struct ib_bssplit *s,
		       struct ib_diag *d)
{
	char *slash = strchr(e, '/');
	uint64_t bs;
	uint32_t pct;

	if (slash)
		*slash = '\0';
	if (ib_parse_size(e, kb_base, &bs, d))
		return -EINVAL;
	if (!bs || bs > UINT32_MAX)
		return ib_diag_set(d, EINVAL, "block size '%s' out of range", e);
	if (parse_pct(slash ? slash + 1 : "", &pct))
		return ib_diag_set(d, EINVAL, "bad percentage '%s'", slash + 1);
	if (s->nr == IB_BSSPLIT_MAX)
		return ib_diag_set(d, EINVAL, "more than %d sizes", IB_BSSPLIT_MAX);
	s->bs[s->nr] = (uint32_t)bs;
	s->perc[s->nr++] = pct;
	return 0;
}

/*
 * Share the rest among the blank entries, then order by share, ascending,
 * equal shares as given: the order fio 3.33 walks them in for a draw
 * (bssplit=16k/30:8k/30:4k/40 gives 16k for a draw of 1..30).
 */
static void finish(struct ib_bssplit *s)
{
	uint32_t sum = 0, blanks = 0, share;
	unsigned int i, j;

	for (i = 0; i < s->nr; i++) {
		if (s->perc[i] == BLANK)
			blanks++;
		else
			sum += s->perc[i];
	}
	share = blanks && sum < IB_BSSPLIT_SCALE ? (IB_BSSPLIT_SCALE - sum) / blanks : 0;
	for (i = 0; i < s->nr; i++)
		if (s->perc[i] == BLANK)
			s->perc[i] = share;
	for (i = 1; i < s->nr; i++) {
		uint32_t bs = s->bs[i], pc = s->perc[i];

		for (j = i; j > 0 && s->perc[j - 1] > pc; j--) {
			s->bs[j] = s->bs[j - 1];
			s->perc[j] = s->perc[j - 1];
		}
		s->bs[j] = bs;
		s->perc[j] = pc;
	}
}

static int parse_dir(char *list, unsigned int kb_base, struct ib_bssplit *s,
		     struct ib_diag *d)
{
	char *save = NULL, *e;
	int rc;

	memset(s, 0, sizeof(*s));
	for (e = strtok_r(list, ":", &save); e; e = strtok_r(NULL, ":", &save)) {
		rc = parse_entry(e, kb_base, s, d);
		if (rc)
			return rc;
	}
	finish(s);
	return 0;
}

int ib_bssplit_parse(const char *v, unsigned int kb_base,
		     struct ib_bssplit out[IB_DDIR_RWT], struct ib_diag *d)
{
	char buf[2048], *p = buf, *comma;
	int n = 0, last = -1, rc;

	if (strlen(v) >= sizeof(buf))
		return ib_diag_set(d, EINVAL, "bssplit: value too long");
	strcpy(buf, v);
	memset(out, 0, sizeof(*out) * IB_DDIR_RWT);
	for (; p; p = comma ? comma + 1 : NULL, n++) {
		comma = strchr(p, ',');
		if (comma)
			*comma = '\0';
		if (n == IB_DDIR_RWT)
			return ib_diag_set(d, EINVAL, "bssplit: more than read,write,trim lists in '%s'", v);
		if (!*p)
			continue;
		rc = parse_dir(p, kb_base, &out[n], d);
		if (rc) {
			ib_diag_prefix(d, "bssplit");
			return rc;
		}
		last = n;
	}
	if (last < 0 || !out[last].nr)
		return ib_diag_set(d, EINVAL, "bssplit: no block size in '%s'", v);
	for (n = 0; n < IB_DDIR_RWT; n++)
		if (!out[n].nr && n > last)
			out[n] = out[last];
	return 0;
}
