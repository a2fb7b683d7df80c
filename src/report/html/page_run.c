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
#include "iobench/plan.h"
#include "page_priv.h"
#include "iobench/safe_open.h"
#include "src/report/texthist.h"

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
static void find_logs(struct run_logs *l, const struct ib_plan *run)
{
	static const char *const lat[] = { "slat", "clat", "lat" };
	unsigned int i, k;

	bool logs, any_avg = false;

	l->n = 0;
	l->raw = false;
	for (i = 0; i < run->nr_jobs; i++) {
		const struct ib_job *j = &run->jobs[i];

		for (k = 0; k < 3; k++)
			add_log(l, j->logs.lat, lat[k], j->number);
		add_log(l, j->logs.bw, "bw", j->number);
		add_log(l, j->logs.iops, "iops", j->number);
		logs = j->logs.lat[0] || j->logs.bw[0] || j->logs.iops[0];
		l->raw |= logs && !j->logs.avg_msec;
		any_avg |= logs && j->logs.avg_msec;
	}
	l->raw &= !any_avg;	/* mixed: the values as written */
}

/* The page: the run's section, then the charts of its logs. */
static int run_page(FILE *f, const char *title, const struct ib_results *r,
		    const struct ib_plan *run, struct ib_diag *d)
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

int ib_page_file(const char *opt, const char *path, ib_page_writer write,
		 const void *arg, struct ib_diag *d)
{
	FILE *f;
	int ret;

	f = ib_safety_open_output(opt, path, d);
	if (!f)
		return -EINVAL;	/* (d names the reason) */
	struct ib_out_id id;

	ret = write(f, path, arg, d);
	ib_safety_out_id(f, &id);
	if (fclose(f) && !ret)
		ret = ib_diag_set(d, EIO, "cannot write %s", path);
	if (ret) {
		ib_diag_prefix(d, "%s", opt);
		ib_safety_remove_output(path, &id);
	}
	return ret;
}

struct run_out {
	const struct ib_results *r;
	const struct ib_plan *run;
	bool page;		/* --report: always the page */
};

/* One chart file or page. */
static int run_file(FILE *f, const char *path, const void *arg, struct ib_diag *d)
{
	const struct run_out *o = arg;
	const char *name = "this run";

	if (o->page || ends_with(path, ".html"))
		return run_page(f, o->page ? "iobench report" : "iobench plot", o->r,
				o->run, d);
	return ib_page_svg(f, &o->r, &name, 1, d);
}

int ib_page_run(const struct ib_results *r, const struct ib_plan *run,
		FILE *text, struct ib_diag *d)
{
	struct run_out plot = { r, run, false }, page = { r, run, true };
	int ret = 0;

	if (run->plot[0])
		ret = ib_page_file("--plot", run->plot, run_file, &plot, d);
	if (!ret && run->report[0])
		ret = ib_page_file("--report", run->report, run_file, &page, d);
	if (!ret && run->hist) {
		setlocale(LC_CTYPE, "");
		ret = ib_page_text(text, r, ib_texthist_locale_utf8(), d);
		setlocale(LC_CTYPE, "C");
	}
	return ret;
}
