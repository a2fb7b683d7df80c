// SPDX-License-Identifier: GPL-2.0-only
/*
 * `iobench plot` and `iobench report` (plotcmd.h). plot takes JSON reports
 * (iobench, fio json/json+), `iobench curve`'s JSON and fio-format logs
 * (plot_logs.c), and writes OUT.html (every chart) or OUT.svg (the first:
 * the latency CDF of the JSON reports, else the first curve's chart, else
 * the first log's chart). report writes the HTML report of
 * JSON reports (page.c), to stdout without -o. Exit 0 or 1.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "iobench/safe_open.h"
#include "iobench/cmd.h"
#include "iobench/curve.h"
#include "iobench/curve_out.h"
#include "iobench/json_read.h"
#include "iobench/plotcmd.h"
#include "src/report/html/page_priv.h"

static const char plot_usage[] =
	"usage: iobench plot [--avg-msec=MS] -o OUT.svg|OUT.html FILE...\n"
	"FILE: iobench or fio JSON reports, iobench curve JSON, --interval-json streams,\n"
	"      fio logs (PREFIX_{bw,iops,lat,clat,slat}.N.log,\n"
	"      histogram logs PREFIX_clat_hist.N.log)\n";
static const char report_usage[] =
	"usage: iobench report [-o OUT.html] FILE.json...   (default: stdout)\n"
	"FILE: iobench or fio JSON reports, iobench curve JSON\n";

static bool ends_with(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);

	return a >= b && !strcmp(s + a - b, suf);
}

/* The inputs read: results documents and latency-vs-load curves. */
struct inputs {
	struct ib_results *docs;
	const struct ib_results **ptr;
	const char **names;
	unsigned int nj;
	struct ib_curve *curves;
	const char **cnames;
	unsigned int nc;
};

/* Whether path is a curve document: {"curve" first (blanks allowed). */
static bool is_curve(const char *path)
{
	static const char want[] = "{\"curve\"";
	FILE *f = fopen(path, "r");
	bool ok = f != NULL;
	unsigned int i = 0;
	int c;

	while (ok && i < sizeof(want) - 1 && (c = fgetc(f)) != EOF)
		if (c != ' ' && c != '\n' && c != '\t' && c != '\r')
			ok = c == want[i++];
	if (f)
		fclose(f);
	return ok && i == sizeof(want) - 1;
}

static int load_curve(struct inputs *in, const char *path, struct ib_diag *d)
{
	struct ib_jdoc doc;
	int ret = ib_json_load(&doc, path, d);

	if (ret < 0)
		return ret;
	ret = ib_curve_from_json(&in->curves[in->nc], doc.root, d);
	ib_jdoc_free(&doc);
	if (ret < 0)
		ib_diag_prefix(d, "%s", path);
	if (ret <= 0)
		return ret < 0 ? ret : ib_diag_set(d, EINVAL, "%s: no curve", path);
	in->cnames[in->nc++] = path;
	return 0;
}

/* The JSON reports among the inputs (all: every input is one), each a
 * results document or a curve. */
static int load_json(const struct ib_cmd_args *a, bool all, struct inputs *in,
		     struct ib_diag *d)
{
	unsigned int i;

	for (in->nj = in->nc = 0, i = 0; i < a->nfiles; i++) {
		const char *p = a->files[i];

		if (!all && !ib_plot_is_json(p))
			continue;
		if (is_curve(p)) {
			if (load_curve(in, p, d) < 0)
				return -1;
			continue;
		}
		if (ib_results_load(&in->docs[in->nj], p, d) < 0)
			return -1;
		in->ptr[in->nj] = &in->docs[in->nj];
		in->names[in->nj++] = p;
	}
	return 0;
}

static int curves_html(FILE *f, const struct inputs *in, struct ib_diag *d)
{
	unsigned int i;
	int ret = 0;

	for (i = 0; i < in->nc && !ret; i++)
		ret = ib_page_curve_doc(f, &in->curves[i], in->cnames[i], d);
	return ret;
}

/* The page or the first chart: the JSON reports' charts, the curves', then
 * the logs'. */
static int plot_all(struct ib_plot_out *o, const struct ib_cmd_args *a,
		    const struct inputs *in, struct ib_diag *d)
{
	unsigned int i;
	int ret = 0;

	if (o->html)
		ib_html_begin(o->f, "iobench plot");
	for (i = 0; i < in->nj && !ret; i++)
		ret = o->html ? ib_page_doc(o->f, in->ptr[i], in->names[i], in->names[i], d) :
			ib_page_svg(o->f, in->ptr, in->names, in->nj, d);
	o->drawn |= in->nj > 0;
	if (!ret && o->html)
		ret = curves_html(o->f, in, d);
	else if (!ret && !o->drawn && in->nc)
		ret = ib_page_curve_svg(o->f, &in->curves[0], d);
	o->drawn |= in->nc > 0;
	if (!ret)
		ret = ib_plot_logs(o, a, d);
	if (o->html)
		ib_html_end(o->f);
	return ret;
}

static int report_all(FILE *f, const struct inputs *in, struct ib_diag *d)
{
	int ret;

	ib_html_begin(f, "iobench report");
	ret = ib_page_body(f, in->ptr, in->names, in->nj, true, d);
	if (!ret)
		ret = curves_html(f, in, d);
	ib_html_end(f);
	return ret;
}

static void inputs_free(struct inputs *in)
{
	while (in->nj--)
		ib_results_free(&in->docs[in->nj]);
	free(in->docs);
	free(in->ptr);
	free(in->names);
	free(in->curves);
	free(in->cnames);
}

/* Open OUT, run the plot or report, close; a failed file is removed. */
static int write_out(const struct ib_cmd_args *a, bool report, struct ib_diag *d)
{
	struct inputs in = {
		calloc(a->nfiles, sizeof(*in.docs)), calloc(a->nfiles, sizeof(*in.ptr)),
		calloc(a->nfiles, sizeof(*in.names)), 0,
		calloc(a->nfiles, sizeof(*in.curves)), calloc(a->nfiles, sizeof(*in.cnames)), 0,
	};
	struct ib_plot_out o = { NULL, !a->output || ends_with(a->output, ".html"), false };
	struct ib_out_id id;
	int ret = -1;

	if (!in.docs || !in.ptr || !in.names || !in.curves || !in.cnames)
		ib_diag_set(d, ENOMEM, "out of memory");
	else if (!load_json(a, report, &in, d) &&
		 !(o.f = a->output ? ib_safety_open_output("--output", a->output, d) :
				     stdout))
		(void)0; /* d names the reason */
	if (o.f) {
		ret = report ? report_all(o.f, &in, d) : plot_all(&o, a, &in, d);
		ib_safety_out_id(o.f, &id);
		if (!ret && !o.drawn && !report)
			ret = ib_diag_set(d, EINVAL, "nothing to plot in the files given");
		if ((o.f == stdout ? fflush(o.f) || ferror(o.f) : fclose(o.f)) && !ret)
			ret = ib_diag_set(d, EIO, "cannot write %s",
					  a->output ? a->output : "stdout");
		if (ret && a->output)
			ib_safety_remove_output(a->output, &id);
	}
	inputs_free(&in);
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
