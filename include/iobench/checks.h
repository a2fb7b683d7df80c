/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_CHECKS_H
#define IOBENCH_CHECKS_H

#include <stdbool.h>
#include <stdint.h>
#include "iobench/diag.h"
#include "iobench/env.h"
#include "iobench/evidence.h"

/*
 * Validity checks ("numbers you can trust"): what could make a job's
 * numbers untrustworthy, judged after the run by pure functions over the
 * results document (results.h) and one evidence record per job that the
 * runner fills (struct ib_evidence, evidence.h): device counters over the job's batch,
 * page-cache residency and allocation of its range before it started, a
 * sample of the data it writes, the CPUs it could use, its seeds and the
 * tool's own measured cost (calibrate.c). The record is plain bytes (no
 * pointers), so the checks judge a live run and a document carrying the
 * same evidence alike. A document without evidence (a fio report read
 * back, the golden fixtures) has no checks at all.
 */

enum ib_check_sev { IB_SEV_INFO = 0, IB_SEV_WARNING = 1 };

#define IB_CHECK_MSG 256
#define IB_CHECK_EV_MAX 6

struct ib_check_ev {
	char key[32];
	double val;
	bool is_int;	/* print as an integer */
};

/* One check that fired. */
struct ib_check_hit {
	const char *id;
	enum ib_check_sev sev;
	char msg[IB_CHECK_MSG];
	unsigned int nr_ev;
	struct ib_check_ev ev[IB_CHECK_EV_MAX];
};

struct ib_results;

/* What one check looks at: job `idx` of the document, its evidence. */
struct ib_check_ctx {
	const struct ib_results *res;
	unsigned int idx;
	const struct ib_evidence *ev;
};

/* Fills h (id and severity are set by the caller) and returns true to fire. */
typedef bool (*ib_check_fn)(const struct ib_check_ctx *c, struct ib_check_hit *h);

struct ib_check {
	const char *id;		/* stable: --warnings, JSON "id" */
	enum ib_check_sev sev;
	ib_check_fn fn;
	const char *what;	/* one line for the documentation */
};

extern const struct ib_check ib_checks[];
extern const unsigned int ib_nr_checks;	/* <= 64: one bit each in a mask */

#define IB_CHECKS_ALL (~(uint64_t)0)

/*
 * --warnings=all|none|ID,ID...: the mask of checks to run (bit i is
 * ib_checks[i]). 0, or -EINVAL naming the unknown id.
 */
int ib_checks_parse(const char *spec, uint64_t *mask, struct ib_diag *d);

/*
 * Run the checks of `mask` on job idx of res (res->evidence must be set,
 * else nothing fires): up to max hits into out, in table order. Returns
 * the number of hits.
 */
unsigned int ib_checks_run(const struct ib_results *res, unsigned int idx,
			   uint64_t mask, struct ib_check_hit *out, unsigned int max);

/*
 * The record as the JSON object "iobench evidence" (every field, by its
 * name in the struct) and back (evidence_json.c): false when o is no
 * object; missing keys keep their unknown values.
 */
struct ib_json;
struct ib_jv;
void ib_evidence_json(struct ib_json *j, const struct ib_evidence *ev);
bool ib_evidence_from_json(struct ib_evidence *ev, const struct ib_jv *o);

/* Helpers for the check functions (checks_util.c). */
void ib_check_ev_add(struct ib_check_hit *h, const char *key, double val, bool is_int);
void ib_check_msg(struct ib_check_hit *h, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
