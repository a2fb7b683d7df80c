/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_OPTIONS_PRIV_H
#define IOBENCH_OPTIONS_PRIV_H

/* Shared between options.c (generic stores) and options_table.c (setters). */
#include "iobench/options.h"

/* The table itself (options_table.c). */
extern const struct ib_opt ib_opt_entries[];
extern const unsigned int ib_opt_nr_entries;

/* Map v through o->vals (case-insensitive); -EINVAL with the valid list. */
int ib_opt_enum_lookup(const struct ib_opt *o, const char *v, unsigned int *out,
		       struct ib_diag *d);
/* Parse an integer option value and check o->min/max. */
int ib_opt_parse_int(const struct ib_opt *o, const char *v, int64_t *out,
		     struct ib_diag *d);

/* options_proc.c: placement and priority setters. */
int ib_opt_set_cpus(struct ib_job *j, const struct ib_opt *o, const char *v,
		    struct ib_diag *d);
int ib_opt_set_cpumask(struct ib_job *j, const struct ib_opt *o,
		       const char *v, struct ib_diag *d);
int ib_opt_set_mem_policy(struct ib_job *j, const struct ib_opt *o,
			  const char *v, struct ib_diag *d);
int ib_opt_set_numa_nodes(struct ib_job *j, const struct ib_opt *o,
			  const char *v, struct ib_diag *d);
int ib_opt_set_comm(struct ib_job *j, const struct ib_opt *o, const char *v,
		    struct ib_diag *d);
int ib_opt_set_ioprio(struct ib_job *j, const struct ib_opt *o, const char *v,
		      struct ib_diag *d);

/* Setters of the rate options (options_rate.c). */
int ib_opt_split_ddir(const struct ib_opt *o, const char *v, char *buf,
		      size_t len, char *parts[IB_DDIR_RWT], struct ib_diag *d);
int ib_opt_set_rate_list(struct ib_job *j, const struct ib_opt *o,
			 const char *v, struct ib_diag *d);
int ib_opt_set_ss(struct ib_job *j, const struct ib_opt *o,
		   const char *v, struct ib_diag *d);
int ib_opt_set_lat_pct(struct ib_job *j, const struct ib_opt *o,
		       const char *v, struct ib_diag *d);
int ib_opt_set_think_blocks(struct ib_job *j, const struct ib_opt *o,
			    const char *v, struct ib_diag *d);

/* options_verify.c: the verify options. */
int ib_opt_set_verify_pattern(struct ib_job *j, const struct ib_opt *o,
			      const char *v, struct ib_diag *d);
int ib_opt_set_verify_async_cpus(struct ib_job *j, const struct ib_opt *o,
				 const char *v, struct ib_diag *d);

/* options_data.c: bssplit, buffer_pattern and iomem. */
int ib_opt_set_iomem(struct ib_job *j, const struct ib_opt *o, const char *v,
		     struct ib_diag *d);
int ib_opt_set_bssplit(struct ib_job *j, const struct ib_opt *o, const char *v,
		       struct ib_diag *d);
int ib_opt_set_random_distribution(struct ib_job *j, const struct ib_opt *o,
				   const char *v, struct ib_diag *d);
int ib_opt_set_sync_file_range(struct ib_job *j, const struct ib_opt *o,
			       const char *v, struct ib_diag *d);
int ib_opt_set_file_service(struct ib_job *j, const struct ib_opt *o,
			    const char *v, struct ib_diag *d);
int ib_opt_set_pct_random(struct ib_job *j, const struct ib_opt *o,
			  const char *v, struct ib_diag *d);
int ib_opt_set_random_generator(struct ib_job *j, const struct ib_opt *o,
				const char *v, struct ib_diag *d);
int ib_opt_set_scramble(struct ib_job *j, const struct ib_opt *o,
			const char *v, struct ib_diag *d);
int ib_opt_set_norandommap(struct ib_job *j, const struct ib_opt *o,
			   const char *v, struct ib_diag *d);
int ib_opt_set_spr_op(struct ib_job *j, const struct ib_opt *o,
		      const char *v, struct ib_diag *d);
int ib_opt_set_rw_sequencer(struct ib_job *j, const struct ib_opt *o,
			    const char *v, struct ib_diag *d);
int ib_opt_set_buffer_pattern(struct ib_job *j, const struct ib_opt *o,
			      const char *v, struct ib_diag *d);

/*
 * Parse v for option o and store it in j, as ib_opt_set() does but without
 * recording it in j->opts_text: 0 or -errno (d).
 */
int ib_opt_store(struct ib_job *j, const struct ib_opt *o, const char *v,
		 struct ib_diag *d);

/*
 * A .str_ptr option's field set to a copy of v (v itself when it is the
 * option's static default text, o->def): 0, or -ENOMEM (d).
 */
int ib_opt_set_str(struct ib_job *j, const struct ib_opt *o, const char *v,
		   struct ib_diag *d);

static inline void *ib_opt_field(struct ib_job *j, size_t off)
{
	return (char *)j + off;
}

#endif
