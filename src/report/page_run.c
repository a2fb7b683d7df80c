// SPDX-License-Identifier: GPL-2.0-only
/*
 * A run's --plot, --report and --hist outputs (plotcmd.h): the same charts
 * and page as `iobench plot` / `iobench report` on the run's JSON and the
 * logs its jobs wrote, made from the results document right after the
 * reports.
 */
#include <errno.h>
#include <locale.h>
#include <string.h>
#include <unistd.h>
#include <limits.h>
#include <stdlib.h>
#include "iobench/plotcmd.h"
#include "iobench/run.h"
#include "page_priv.h"
#include "iobench/safety.h"
#include "iobench/texthist.h"

static bool ends_with(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);

	return a >= b && !strcmp(s + a - b, suf);
}

#define RUN_LOG_AVG_MS 100	/* windows for per-I/O logs on the page */
#define PATH_LEN (PATH_MAX + 32)

struct run_logs {
	char path[IB_CMD_MAX_FILES][PATH_LEN];
	const char *p[IB_CMD_MAX_FILES];
	unsigned int n;
	bool raw;		/* every log per I/O (no log_avg_msec) */
};

static void add_log(struct run_logs *l, const char *prefix, const char *kind,
		    unsigned int number)
{
	unsigned int i;

	if (!prefix[0] || l->n == IB_CMD_MAX_FILES)
		return;
	snprintf(l->path[l->n], PATH_LEN, "%s_%s.%u.log", prefix, kind, number);
	for (i = 0; i < l->n; i++)
		if (!strcmp(l->p[i], l->path[l->n]))
			return;
	if (access(l->path[l->n], R_OK))
		return;
	l->p[l->n] = l->path[l->n];
	l->n++;
}

/* The fio-format logs the run's jobs wrote (log.h names them). */
static void find_logs(struct run_logs *l, const struct ib_run *run)
{
	static const char *const lat[] = { "slat", "clat", "lat" };
	unsigned int i, k;

	bool logs, any_avg = false;

	l->n = 0;
	l->raw = false;
	for (i = 0; i < run->nr_jobs; i++) {
		const struct ib_job *j = &run->jobs[i];

		for (k = 0; k < 3; k++)
			add_log(l, j->write_lat_log, lat[k], j->number);
		add_log(l, j->write_bw_log, "bw", j->number);
		add_log(l, j->write_iops_log, "iops", j->number);
		logs = j->write_lat_log[0] || j->write_bw_log[0] || j->write_iops_log[0];
		l->raw |= logs && !j->log_avg_msec;
		any_avg |= logs && j->log_avg_msec;
	}
	l->raw &= !any_avg;	/* mixed: the values as written */
}

/* The page: the run's section, then the charts of its logs. */
static int run_page(FILE *f, const char *title, const struct ib_results *r,
		    const struct ib_run *run, struct ib_diag *d)
{
	struct run_logs *l = malloc(sizeof(*l));
	int ret;

	if (!l)
		return ib_diag_set(d, ENOMEM, "out of memory");
	find_logs(l, run);
	ib_html_begin(f, title);
	ret = ib_page_doc(f, r, "this run", NULL, d);
	if (!ret && l->n)
		ret = ib_page_logs(f, l->p, l->n, l->raw ? RUN_LOG_AVG_MS : 0, l->raw, d);
	ib_html_end(f);
	free(l);
	return ret;
}

/* One chart file or page; a file not written in full is removed. */
static int write_one(const struct ib_results *r, const struct ib_run *run,
		     const char *opt, const char *path, bool page,
		     struct ib_diag *d)
{
	const char *name = "this run";
	FILE *f;
	int ret;

	f = ib_safety_open_output(opt, path, d);
	if (!f)
		return -EINVAL;	/* (d names the reason) */
	if (page || ends_with(path, ".html"))
		ret = run_page(f, page ? "iobench report" : "iobench plot", r, run, d);
	else
		ret = ib_page_svg(f, &r, &name, 1, d);
	if (fclose(f) && !ret)
		ret = ib_diag_set(d, EIO, "cannot write %s", path);
	if (ret) {
		ib_diag_prefix(d, "%s", opt);
		unlink(path);
	}
	return ret;
}

int ib_page_run(const struct ib_results *r, const struct ib_run *run,
		FILE *text, struct ib_diag *d)
{
	int ret = 0;

	if (run->plot[0])
		ret = write_one(r, run, "--plot", run->plot, false, d);
	if (!ret && run->report[0])
		ret = write_one(r, run, "--report", run->report, true, d);
	if (!ret && run->hist) {
		setlocale(LC_CTYPE, "");
		ret = ib_page_text(text, r, ib_texthist_locale_utf8(), d);
		setlocale(LC_CTYPE, "C");
	}
	return ret;
}
