// SPDX-License-Identifier: GPL-2.0-only
/*
 * A verify mismatch in fio 3.33's words (verify.h: ib_verify_describe), for
 * the reports; formatting only.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>

#include "iobench/verify.h"

struct out {
	char *buf;
	size_t size;
	int n;
};

static void outf(struct out *o, const char *fmt, ...) ib_printf_fmt(2, 3);

static void outf(struct out *o, const char *fmt, ...)
{
	size_t used = (size_t)o->n < o->size ? (size_t)o->n : o->size;
	va_list ap;
	int k;

	va_start(ap, fmt);
	k = vsnprintf(o->buf + used, o->size - used, fmt, ap);
	va_end(ap);
	if (k > 0)
		o->n += k;
}

static void hexline(struct out *o, const char *what, const uint8_t *p, unsigned n)
{
	outf(o, "       %s CRC: ", what);
	for (unsigned i = 0; i < n; i++)
		outf(o, "%02x", p[i]);
	outf(o, "\n");
}

/* The header line's first half; 0 when the field has none. */
static int header_what(struct out *o, const struct ib_verify_mismatch *m,
		       uint64_t block_off)
{
	switch (m->field) {
	case IB_VF_MAGIC:
		outf(o, "verify: bad magic header %" PRIx64 ", wanted %" PRIx64,
		     m->received, m->expected);
		return 1;
	case IB_VF_VERSION:
		outf(o, "verify: unsupported header version %" PRIx64 ", wanted %"
		     PRIx64 ". Are you trying to verify across versions of fio?",
		     m->received, m->expected);
		return 1;
	case IB_VF_HDR_CRC:
		outf(o, "verify: bad header crc %" PRIx64 ", calculated %" PRIx64,
		     m->received, m->expected);
		return 1;
	case IB_VF_OFFSET:
		/* fio wants the block's offset, whatever the interval */
		outf(o, "verify: bad header offset %" PRIu64 ", wanted %" PRIu64,
		     m->received, block_off);
		return 1;
	case IB_VF_LENGTH:
	case IB_VF_SEED:
	case IB_VF_NUMBERIO:
		outf(o, "verify: bad header %s %" PRIu64 ", wanted %" PRIu64,
		     m->field == IB_VF_LENGTH ? "length" :
		     ib_verify_field_name(m->field), m->received, m->expected);
		return 1;
	default:
		return 0;
	}
}

int ib_verify_describe(const struct ib_verify_mismatch *m, const char *file,
		       uint64_t block_off, size_t block_len, char *buf,
		       size_t size)
{
	struct out o = { buf, size, 0 };
	const char *name = ib_verify_name(m->type);

	if (size)
		buf[0] = '\0';
	if (m->field == IB_VF_TYPE) {
		outf(&o, "iobench: verify type mismatch (%" PRIu64 " media, %" PRIu64
		     " given)\n", m->received, m->expected);
		return o.n;
	}
	if (m->field == IB_VF_PATTERN) {
		outf(&o, "iobench: got pattern '%02" PRIx64 "', wanted '%02" PRIx64
		     "'. Bad bits %d\n", m->received, m->expected,
		     __builtin_popcountll(m->received ^ m->expected));
		/* fio counts from where the pattern check starts */
		outf(&o, "iobench: bad pattern block offset %u\n",
		     m->byte - (m->hsize ? m->hsize : ib_verify_hdr_size(m->type)));
		name = "pattern";
	}
	if (!header_what(&o, m, block_off))
		outf(&o, "%s: verify failed", name);
	outf(&o, " at file %s offset %" PRIu64 ", length %" PRIu32
	     " (requested block: offset=%" PRIu64 ", length=%zu)\n",
	     file, m->hdr_offset, m->hdr_len, block_off, block_len);
	if (m->field == IB_VF_CHECKSUM) {
		hexline(&o, "Expected", m->csum_stored, m->csum_len);
		hexline(&o, "Received", m->csum_data, m->csum_len);
	}
	return o.n;
}
