// SPDX-License-Identifier: GPL-2.0-only
/*
 * Setters of the block size and write data options: bssplit= and
 * buffer_pattern= (their meaning: bssplit.h, buf.h).
 */
#include <errno.h>
#include <string.h>
#include "iobench/bssplit.h"
#include "iobench/randdist.h"
#include "iobench/verify.h"
#include "options_priv.h"

int ib_opt_set_bssplit(struct ib_job *j, const struct ib_opt *o, const char *v,
		       struct ib_diag *d)
{
	(void)o;
	return ib_bssplit_parse(v, j->kb_base, j->bssplit, d);
}

/*
 * fio's pattern syntax as verify_pattern has it, without %o (a buffer has
 * no offset) and without 'file' (not supported by iobench).
 */
int ib_opt_set_buffer_pattern(struct ib_job *j, const struct ib_opt *o,
			      const char *v, struct ib_diag *d)
{
	struct ib_vpattern p;

	if (strlen(v) >= sizeof(j->buffer_pattern))
		return ib_diag_set(d, ENAMETOOLONG, "%s: value too long", o->name);
	if (strchr(v, '\''))
		return ib_diag_set(d, ENOTSUP,
				   "%s='file': a pattern read from a file is not supported by iobench",
				   o->name);
	if (ib_vpattern_parse(v, &p, d))
		return ib_diag_set(d, EINVAL, "%s: invalid pattern '%s'", o->name, v);
	if (p.noffs)
		return ib_diag_set(d, EINVAL, "%s: %%o has no meaning in a buffer pattern",
				   o->name);
	strcpy(j->buffer_pattern, v);
	return 0;
}

int ib_opt_set_random_distribution(struct ib_job *j, const struct ib_opt *o,
				   const char *v, struct ib_diag *d)
{
	(void)o;
	return ib_randdist_parse(v, j->kb_base, j, d);
}
