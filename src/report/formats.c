// SPDX-License-Identifier: GPL-2.0-only
/*
 * The report formats as one table (report.h): names for --output-format,
 * print functions, streams and print order for main.c.
 */
#include <string.h>
#include <strings.h>
#include "iobench/report.h"
#include "iobench/plan.h"

const struct ib_format ib_formats[] = {
	{ "normal", IB_OUT_NORMAL, ib_report_normal, false, true, 3 },
	{ "json", IB_OUT_JSON, ib_report_json, true, false, 1 },
	{ "json+", IB_OUT_JSONPLUS, ib_report_json_plus, true, false, 2 },
	{ "terse", IB_OUT_TERSE, ib_report_terse, false, false, 0 },
	{ "minimal", IB_OUT_TERSE, NULL, false, false, 0 },
	{ "csv", IB_OUT_TERSE, NULL, false, false, 0 },
};

const unsigned int ib_nr_formats = sizeof(ib_formats) / sizeof(ib_formats[0]);

const struct ib_format *ib_format_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < ib_nr_formats; i++)
		if (!strcasecmp(ib_formats[i].name, name))
			return &ib_formats[i];
	return NULL;
}

void ib_format_names(char *buf, size_t len)
{
	size_t used = 0;
	unsigned int i;

	if (len)
		buf[0] = '\0';
	for (i = 0; i < ib_nr_formats && used < len; i++) {
		int n = snprintf(buf + used, len - used, "%s%s", i ? ", " : "",
				 ib_formats[i].name);

		if (n < 0)
			break;
		used += (size_t)n;
	}
}

unsigned int ib_formats_selected(unsigned int bits, bool json_file)
{
	if (json_file && !(bits & (IB_OUT_JSON | IB_OUT_JSONPLUS)))
		bits |= IB_OUT_JSON;
	if (bits & IB_OUT_JSONPLUS)
		bits &= ~(unsigned int)IB_OUT_JSON;
	return bits;
}

bool ib_formats_machine_on_main(unsigned int selected, bool json_file)
{
	unsigned int i;

	for (i = 0; i < ib_nr_formats; i++) {
		const struct ib_format *f = &ib_formats[i];

		if (f->print && (selected & f->bit) && !f->human &&
		    !(f->own_file && json_file))
			return true;
	}
	return false;
}
