// SPDX-License-Identifier: GPL-2.0-only
/*
 * `iobench plot` and `iobench report` (plotcmd.h). plot takes JSON reports
 * (iobench, fio json/json+) and fio-format logs (plot_logs.c), and writes
 * OUT.html (every chart) or OUT.svg (the first: the latency CDF of the JSON
 * reports, else the first log's chart). report writes the HTML report of
 * JSON reports (page.c), to stdout without -o. Exit 0 or 1.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "iobench/plotcmd.h"
#include "page_priv.h"

static const char plot_usage[] =
	"usage: iobench plot [--avg-msec=MS] -o OUT.svg|OUT.html FILE...\n"
	"FILE: iobench or fio JSON reports, fio logs (PREFIX_{bw,iops,lat,clat,slat}.N.log,\n"
	"      histogram logs PREFIX_clat_hist.N.log)\n";
static const char report_usage[] =
	"usage: iobench report [-o OUT.html] FILE.json...   (default: stdout)\n";

static bool ends_with(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);

	return a >= b && !strcmp(s + a - b, suf);
}

/* The JSON reports among the inputs: loaded into docs, pointers in ptr. */
static int load_json(const struct ib_cmd_args *a, bool all, struct ib_results *docs,
		     const struct ib_results **ptr, const char **names,
		     unsigned int *n, struct ib_diag *d)
{
	unsigned int i;

	for (*n = 0, i = 0; i < a->nfiles; i++) {
		if (!all && !ib_plot_is_json(a->files[i]))
			continue;
		if (ib_results_load(&docs[*n], a->files[i], d) < 0)
			return -1;
		ptr[*n] = &docs[*n];
		names[(*n)++] = a->files[i];
	}
	return 0;
}

/* The page or the first chart: the JSON reports' charts, then the logs'. */
static int plot_all(struct ib_plot_out *o, const struct ib_cmd_args *a,
		    const struct ib_results *const *ptr, const char **names,
		    unsigned int nj, struct ib_diag *d)
{
	unsigned int i;
	int ret = 0;

	if (o->html)
		ib_html_begin(o->f, "iobench plot");
	for (i = 0; i < nj && !ret; i++)
		ret = o->html ? ib_page_doc(o->f, ptr[i], names[i], names[i], d) :
			ib_page_svg(o->f, ptr, names, nj, d);
	o->drawn |= nj > 0;
	if (!ret)
		ret = ib_plot_logs(o, a, d);
	if (o->html)
		ib_html_end(o->f);
	return ret;
}

/* Open OUT, run the plot or report, close; a failed file is removed. */
static int write_out(const struct ib_cmd_args *a, bool report, struct ib_diag *d)
{
	struct ib_results *docs = calloc(a->nfiles, sizeof(*docs));
	const struct ib_results **ptr = calloc(a->nfiles, sizeof(*ptr));
	const char **names = calloc(a->nfiles, sizeof(*names));
	struct ib_plot_out o = { NULL, !a->output || ends_with(a->output, ".html"), false };
	unsigned int nj = 0;
	int ret = -1;

	if (!docs || !ptr || !names)
		ib_diag_set(d, ENOMEM, "out of memory");
	else if (!load_json(a, report, docs, ptr, names, &nj, d) &&
		 !(o.f = a->output ? fopen(a->output, "w") : stdout))
		ib_diag_set(d, errno, "cannot write %s: %s", a->output, strerror(errno));
	if (o.f) {
		ret = report ? ib_page_write(o.f, "iobench report", ptr, names, nj, true, d) :
			plot_all(&o, a, ptr, names, nj, d);
		if (!ret && !o.drawn && !report)
			ret = ib_diag_set(d, EINVAL, "nothing to plot in the files given");
		if ((o.f == stdout ? fflush(o.f) || ferror(o.f) : fclose(o.f)) && !ret)
			ret = ib_diag_set(d, EIO, "cannot write %s",
					  a->output ? a->output : "stdout");
		if (ret && a->output)
			unlink(a->output);
	}
	while (nj--)
		ib_results_free(&docs[nj]);
	free(docs);
	free(ptr);
	free(names);
	return ret ? 1 : 0;
}

static int cmd(int argc, char **argv, bool report)
{
	struct ib_cmd_args a;
	const char *usage = report ? report_usage : plot_usage;
	struct ib_diag d = { { 0 } };

	if (ib_plot_parse(argc, argv, &a, &d) < 0) {
		fprintf(stderr, "iobench: %s\n%s", d.msg, usage);
		return 1;
	}
	if (a.help) {
		fputs(usage, stdout);
		return 0;
	}
	if (a.output && !ends_with(a.output, ".html") &&
	    (report || !ends_with(a.output, ".svg"))) {
		fprintf(stderr, "iobench: %s: the output must end in %s\n", argv[0],
			report ? ".html" : ".svg or .html");
		return 1;
	}
	if (write_out(&a, report, &d)) {
		fprintf(stderr, "iobench: %s: %s\n", argv[0], d.msg);
		return 1;
	}
	return 0;
}

int ib_cmd_plot(int argc, char **argv)
{
	return cmd(argc, argv, false);
}

int ib_cmd_report(int argc, char **argv)
{
	return cmd(argc, argv, true);
}
