// SPDX-License-Identifier: GPL-2.0-only
/*
 * The verify hooks of the job loop (vrun.h): a verify block into every
 * write, a record of every completed write, a check of every verify read
 * and, on a mismatch (cold), fio's report and verify_dump's files.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "iobench/safe_open.h"
#include "iobench/rand.h"
#include "iobench/compiler.h"
#include "iobench/ioerr.h"
#include "vrun.h"

/* The payload seed of a write: the job's seed, the offset, numberio. */
static uint64_t block_seed(const struct ib_vrun *v, uint64_t off, uint16_t nio)
{
	return ib_mix64(v->seed_base ^ (off * 0x9e3779b97f4a7c15ull) ^
			((uint64_t)nio << 48));
}

/* The spec for a block of len bytes: one header when the interval does
 * not divide it (a smaller block of a bs range). */
static struct ib_verify_spec spec_for(const struct ib_vrun *v, uint32_t len)
{
	struct ib_verify_spec s = v->spec;

	if (s.interval && (s.interval >= len || len % s.interval))
		s.interval = 0;
	return s;
}

static struct ib_vblock vblock_of(const struct ib_vrun *v,
				  const struct ib_vrec *r)
{
	struct ib_vblock b = { .offset = r->offset,
			       .seed = block_seed(v, r->offset, (uint16_t)r->seq),
			       .numberio = r->seq,
			       .check_numberio = v->check_nio };

	return b;
}

/* verify_offset: each interval's header and the bytes at voff trade
 * places (fio's memswp), before writing and back before checking. */
static void swap_hdrs(const struct ib_vrun *v, const struct ib_verify_spec *s,
		      uint8_t *p, uint32_t len)
{
	uint32_t iv = s->interval ? s->interval : len, hs;
	uint8_t t[IB_VHDR342_SIZE + IB_VCSUM_AREA_MAX];

	hs = ib_verify_spec_hdr_size(s);
	if (!v->voff || !hs || v->voff + hs > iv)
		return;
	for (uint32_t off = 0; off < len; off += iv) {
		memcpy(t, p + off, hs);
		memmove(p + off, p + off + v->voff, hs);
		memcpy(p + off + v->voff, t, hs);
	}
}

void ib_vrun_prep(void *arg, struct ib_io *io)
{
	struct ib_vrun *v = arg;
	struct ib_vrec *u = &v->unit[io->idx];

	if (io->ddir == IB_DDIR_WRITE) {
		struct ib_verify_spec s = spec_for(v, io->len);
		struct ib_vblock b;

		if (ib_unlikely(io->len < ib_verify_spec_hdr_size(&s))) {
			u->len = 0;	/* no room for a header: not verified */
			return;
		}
		u->offset = io->offset;
		u->len = io->len;
		u->file_idx = io->file_idx;
		u->seq = v->seq++;
		b = vblock_of(v, u);
		ib_verify_fill(&s, &b, io->buf, io->len);
		swap_hdrs(v, &s, io->buf, io->len);
		return;
	}
	if (v->cur_set) {
		*u = v->cur;
	} else if (v->blind && io->ddir == IB_DDIR_READ) {
		/* a read-only job checks what it reads */
		*u = (struct ib_vrec){ .offset = io->offset, .len = io->len,
				       .file_idx = io->file_idx };
	} else {
		u->len = 0;	/* a plain read of a mixed job: no check */
	}
	v->cur_set = false;
}

/* --- a mismatch (cold) ---------------------------------------------------- */

static void dump_one(const char *dir, const char *base, uint64_t off,
		     const char *what, const void *buf, size_t len)
{
	char path[4096];
	int fd;

	snprintf(path, sizeof(path), "%s/%s.%llu.%s", dir, base,
		 (unsigned long long)off, what);
	struct ib_diag d;

	fd = ib_safety_open(path, O_WRONLY | O_CREAT | O_TRUNC, &d);
	if (fd < 0)
		return; /* best effort, as fio's */
	if (write(fd, buf, len) < 0)
		(void)0;
	close(fd);
}

/*
 * verify_dump: the bad interval as read and as written, named as fio
 * names them, in the target's directory (a device's: the working one).
 * The expected block is rebuilt from the record; not for blind checks
 * (numberio and seed unknown: another run wrote the block).
 */
static void dump(struct ib_vrun *v, const struct ib_vrec *r,
		 const struct ib_verify_mismatch *m, const uint8_t *blk,
		 const char *path)
{
	const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
	char dir[4096] = ".";
	struct stat sb;
	size_t at = (size_t)(m->hdr_offset - r->offset);

	if (slash && !stat(path, &sb) && S_ISREG(sb.st_mode))
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	if (slash == path)
		strcpy(dir, "/");
	dump_one(dir, base, m->hdr_offset, "received", blk + at, m->hdr_len);
	if (!v->blind) {
		struct ib_verify_spec s = spec_for(v, r->len);
		struct ib_vblock b = vblock_of(v, r);

		ib_verify_fill(&s, &b, v->scratch, r->len);
		dump_one(dir, base, m->hdr_offset, "expected",
			 (uint8_t *)v->scratch + at, m->hdr_len);
	}
}

static void mismatch(struct ib_vrun *v, const struct ib_io *io,
		     const struct ib_vrec *r, const struct ib_verify_mismatch *m,
		     const uint8_t *blk)
{
	struct ib_loop *l = v->loop;
	struct ib_job_stats *st = l->c.st;
	const char *path = v->ctx->files[r->file_idx].path;
	bool inl = (l->c.ops->flags & IB_ENGINE_SYNC) || io->inline_done;
	bool count, go_on = ib_err_decide(v->job, IB_DDIR_READ, EILSEQ, inl,
					  &count);
	char text[sizeof(st->verify_msg)], *line, *at, *nl;

	v->mismatches++;
	/* fio's verify_fatal stops at bad data, not at a bad header */
	if (v->job->verify.fatal &&
	    (m->field == IB_VF_CHECKSUM || m->field == IB_VF_PATTERN))
		go_on = false;
	ib_verify_describe(m, path, r->offset, r->len, text, sizeof(text));
	/* fio prints every mismatch: as many whole ones as the field holds */
	if (strlen(st->verify_msg) + strlen(text) < sizeof(st->verify_msg))
		strcat(st->verify_msg, text);
	/* the report's one line: fio's, the one naming offset and length */
	at = strstr(text, " at file ");
	line = at ? at : text;
	while (line > text && line[-1] != '\n')
		line--;
	nl = strchr(line, '\n');
	if (nl)
		*nl = '\0';
	if (go_on)
		ib_loop_dump_error(l, IB_DDIR_READ, EILSEQ, r->offset, r->len, path);
	ib_loop_error(l, EILSEQ, count, go_on, line);
	if (v->job->verify.dump)
		dump(v, r, m, blk, path);
}

static bool overlaps(const struct ib_vrec *a, const struct ib_vrec *b)
{
	return a->file_idx == b->file_idx && b->seq > a->seq &&
	       a->offset < b->offset + b->len && b->offset < a->offset + a->len;
}

/*
 * Did a later write of the job overlap r's block? Only a completed one can
 * have: the loop serializes a writing verify job's overlaps (loop.h), so
 * none was in flight beside the read.
 */
static bool rewritten(const struct ib_vrun *v, const struct ib_vrec *r)
{
	for (size_t i = 0; i < v->nr; i++)
		if (overlaps(r, &v->recs[i]))
			return true;
	return false;
}

void ib_vrun_done(void *arg, const struct ib_io *io)
{
	struct ib_vrun *v = arg;
	const struct ib_vrec *r = &v->unit[io->idx];
	const uint8_t *blk = (const uint8_t *)io->buf - io->xfer_done;
	struct ib_verify_mismatch m;
	struct ib_verify_spec s;
	struct ib_vblock b;

	if (io->ddir == IB_DDIR_WRITE) {
		if (r->len)
			ib_vrun_record(v, r);
		/* do_verify=0 reads nothing back, backlog included (fio) */
		if (v->job->verify.backlog && v->job->verify.do_verify &&
		    ++v->since_backlog >= v->job->verify.backlog) {
			v->since_backlog = 0;
			v->backlog_due += v->job->verify.backlog_batch;
		}
		return;
	}
	if (io->ddir != IB_DDIR_READ || !r->len)
		return;
	s = spec_for(v, r->len);
	b = vblock_of(v, r);
	swap_hdrs(v, &s, (uint8_t *)blk, r->len); /* our own buffer */
	if (ib_unlikely(ib_verify_check(&s, &b, blk, r->len, &m))) {
		/* (a scan of the list, cold; in a verify phase, no writes) */
		if (!v->blind && !v->verifying && rewritten(v, r))
			v->rewritten++;
		else
			mismatch(v, io, r, &m, blk);
	}
}
