// SPDX-License-Identifier: GPL-2.0-only
/*
 * The verify options' own setters and checks (job.h "data verification",
 * vrun.h for what they do in a job).
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include "iobench/job_setup.h"
#include "iobench/parse.h"
#include "iobench/verify.h"
#include "options_priv.h"

/* verify_pattern=: checked now, kept as given (fio's syntax, verify.h). */
int ib_opt_set_verify_pattern(struct ib_job *j, const struct ib_opt *o,
			      const char *v, struct ib_diag *d)
{
	struct ib_vpattern p;

	if (strlen(v) >= IB_VPATTERN_TEXT_MAX)
		return ib_diag_set(d, ENAMETOOLONG, "%s: value too long", o->name);
	if (ib_vpattern_parse(v, &p, d)) {
		ib_diag_prefix(d, "%s", o->name);
		return -EINVAL;
	}
	return ib_opt_set_str(j, o, v, d);
}

/*
 * verify_async_cpus: fio pins its verify threads there; iobench checks each
 * block in the job's own process, so there is nothing to pin: refused with
 * that reason rather than accepted and ignored.
 */
int ib_opt_set_verify_async_cpus(struct ib_job *j, const struct ib_opt *o,
				 const char *v, struct ib_diag *d)
{
	(void)j;
	(void)v;
	return ib_diag_set(d, ENOTSUP,
			   "%s: not supported by iobench (blocks are checked in the job's own process: there are no verify threads to pin)",
			   o->name);
}

/* fio's rule: a verify_pattern without a verify type verifies the pattern. */
void ib_job_fixup_verify(struct ib_job *j)
{
	if (j->verify.pattern[0] && j->verify.type == IB_VERIFY_NONE)
		j->verify.type = IB_VERIFY_PATTERN;
	if (!j->verify.backlog_batch)
		j->verify.backlog_batch = j->verify.backlog;
}

static int check_bs(const struct ib_job *j, const struct ib_verify_spec *s,
		    struct ib_diag *d)
{
	for (int dd = 0; dd < IB_DDIR_TRIM; dd++) {
		uint64_t bs[2] = { j->bs.min[dd], j->bs.max[dd] };

		if (!ib_job_dir_active(j, dd))
			continue;
		for (int k = 0; k < 2; k++) {
			struct ib_verify_spec t = *s;

			if (t.interval > bs[k]) /* a smaller block: one header */
				t.interval = 0;
			if (ib_verify_spec_check(&t, bs[k], d))
				return -EINVAL;
			if (j->verify.offset && j->verify.offset +
			    ib_verify_spec_hdr_size(&t) > (t.interval ? t.interval : bs[k]))
				return ib_diag_set(d, EINVAL,
						   "verify_offset %llu: the %u-byte header must fit in the %llu-byte interval",
						   (unsigned long long)j->verify.offset,
						   ib_verify_spec_hdr_size(&t),
						   (unsigned long long)(t.interval ? t.interval : bs[k]));
		}
	}
	return 0;
}

int ib_job_check_verify(const struct ib_job *j, struct ib_diag *d)
{
	struct ib_vpattern p;
	struct ib_verify_spec s = { .type = (enum ib_verify_type)j->verify.type,
				    .interval = j->verify.interval,
				    .hdr_ver = ib_verify_hdr_ver_of(j->verify.hdr_ver) };

	if (j->verify.pattern_interval && !j->verify.pattern[0])
		return ib_diag_set(d, EINVAL, "verify_pattern_interval: needs verify_pattern");
	if (j->verify.pattern_interval > UINT32_MAX)
		return ib_diag_set(d, EINVAL, "verify_pattern_interval: %llu is above 4 GiB",
				   (unsigned long long)j->verify.pattern_interval);
	if (j->verify.type == IB_VERIFY_NONE)
		return 0;
	if (j->verify.pattern[0]) {
		if (ib_vpattern_parse(j->verify.pattern, &p, d))
			return -EINVAL;
		p.interval = (uint32_t)j->verify.pattern_interval;
		s.pattern = &p;
	}
	if (check_bs(j, &s, d) < 0) {
		ib_diag_prefix(d, "verify=%s", ib_verify_name(s.type));
		return -EINVAL;
	}
	if (!strcmp(j->ioengine, "null") && j->verify.type != IB_VERIFY_NULL)
		return ib_diag_set(d, EINVAL,
				   "verify=%s: ioengine=null reads back no data (use verify=null or another engine)",
				   ib_verify_name(s.type));
	if (j->rw & IB_RW_TRIM)
		return ib_diag_set(d, ENOTSUP,
				   "verify with rw=%s: trim verification is not supported by iobench",
				   ib_rw_name(j->rw));
	if (j->verify.state_load && (j->rw & IB_RW_WRITE) && !j->verify.only)
		return ib_diag_set(d, EINVAL,
				   "verify_state_load=1 with rw=%s: needs verify_only=1 or a read job (this job would write the listed blocks again)",
				   ib_rw_name(j->rw));
	return 0;
}
