/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The job description's set-up, which the option table drives (front/):
 * the defaults, the record of options given, fio's fix-ups and the
 * validation. job.h is the description itself, below every folder that
 * reads a job; these are front's, above io/.
 */
#ifndef IOBENCH_JOB_SETUP_H
#define IOBENCH_JOB_SETUP_H

#include <stdbool.h>
#include "iobench/diag.h"
#include "iobench/job.h"

/*
 * Fill every field with iobench's defaults: each option's .def in the
 * option table (options_table.c, what help shows), fio's but direct=1 and
 * ioengine=io_uring (defaults=iobench). Its strings are static text.
 */
void ib_job_defaults(struct ib_job *j);

/*
 * Record option o=value in j->opts_text (a new string, see there), as
 * ib_opts_text_record() does. 0, -ENOSPC (IB_OPTS_TEXT_MAX) or -ENOMEM.
 */
struct ib_opt;
int ib_job_record_opt(struct ib_job *j, const struct ib_opt *o,
		      const char *value);

/*
 * fio's option fix-ups, in place: batch/low depths default to iodepth,
 * complete_max to complete_min, blockalign to the minimum bs, gtod_reduce
 * turns latency measurements and percentiles off. 0, or -ENOMEM (a log
 * prefix named after the job needs a new string).
 */
int ib_job_fixup(struct ib_job *j);

/*
 * Check a fixed-up job; `readonly` is --readonly. Returns 0 or -errno with
 * one line naming the option ("bs: 1000 is not a multiple of 512, required
 * by direct=1"): -EINVAL, -EPERM (a write refused by --readonly) or
 * -ENOTSUP (an engine iobench lacks or was built without).
 */
int ib_job_validate(const struct ib_job *j, bool readonly, struct ib_diag *d);

/* The verify options (options_verify.c): verify_pattern alone means
 * verify=pattern with a header, backlog_batch defaults to backlog. */
void ib_job_fixup_verify(struct ib_job *j);
/* verify against the block sizes, pattern and engine: 0 or -errno, d. */
int ib_job_check_verify(const struct ib_job *j, struct ib_diag *d);

/* validate_spr.c: sprandom implies random_generator=lfsr, norandommap=1
 * when not given; its checks and ramp_size's: 0 or -errno, d. */
void ib_job_fixup_sprandom(struct ib_job *j);
int ib_job_check_sprandom(const struct ib_job *j, struct ib_diag *d);
int ib_job_check_ramp(const struct ib_job *j, struct ib_diag *d);

#endif
