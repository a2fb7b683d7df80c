// SPDX-License-Identifier: GPL-2.0-only
/*
 * A run's --plot, --report and --hist outputs (plotcmd.h): the same charts
 * and page as `iobench plot` / `iobench report` on the run's JSON, written
 * from the results document right after the reports.
 */
#include <errno.h>
#include <locale.h>
#include <string.h>
#include <unistd.h>
#include "iobench/plotcmd.h"
#include "iobench/safety.h"
#include "iobench/texthist.h"

static bool ends_with(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);

	return a >= b && !strcmp(s + a - b, suf);
}

/* One chart file or page; a file not written in full is removed. */
static int write_one(const struct ib_results *r, const char *opt,
		     const char *path, bool page, struct ib_diag *d)
{
	const char *name = "this run";
	FILE *f;
	int ret;

	if (ib_safety_check_output(opt, path, d) < 0)
		return -EINVAL;
	f = fopen(path, "w");
	if (!f)
		return ib_diag_set(d, errno, "cannot write %s: %s", path, strerror(errno));
	if (page || ends_with(path, ".html"))
		ret = ib_page_write(f, page ? "iobench report" : "iobench plot", &r,
				    &name, 1, false, d);
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

int ib_page_run(const struct ib_results *r, const char *plot, const char *report,
		bool hist, FILE *text, struct ib_diag *d)
{
	int ret = 0;

	if (plot && plot[0])
		ret = write_one(r, "--plot", plot, false, d);
	if (!ret && report && report[0])
		ret = write_one(r, "--report", report, true, d);
	if (!ret && hist) {
		setlocale(LC_CTYPE, "");
		ret = ib_page_text(text, r, ib_texthist_locale_utf8(), d);
		setlocale(LC_CTYPE, "C");
	}
	return ret;
}
