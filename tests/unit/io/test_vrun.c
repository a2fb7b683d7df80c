// SPDX-License-Identifier: GPL-2.0-only
/*
 * vrun: the write-phase wrapper (passes, backlog), the hooks (fill, record,
 * check), the verify source (write order, overwritten blocks dropped) and
 * a mismatch's accounting, over a scripted inner source and no engine.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>
#include <cmocka.h>
#include "iobench/job_setup.h"
#include "src/io/verify/vrun.h"

#define BS 4096
#define NIO 2

/* The inner source: a script of writes, then END. */
struct script {
	struct ib_source src;
	const uint64_t *offs;
	const uint32_t *lens;
	unsigned int n, i;
};

static int script_next(struct ib_source *s, uint64_t now, struct ib_io_desc *out)
{
	struct script *c = (struct script *)s;

	(void)now;
	if (c->i >= c->n)
		return IB_SRC_END;
	memset(out, 0, sizeof(*out));
	out->ddir = IB_DDIR_WRITE;
	out->offset = c->offs[c->i];
	out->len = c->lens ? c->lens[c->i] : BS;
	c->i++;
	return IB_SRC_READY;
}

static bool script_more(const struct ib_source *s)
{
	const struct script *c = (const struct script *)s;

	return c->i < c->n;
}

static const struct ib_source_ops script_ops = {
	.name = "script", .next = script_next, .more = script_more,
};

struct fixture {
	struct ib_job job;
	struct ib_job_stats st;
	struct ib_file file;
	struct ib_io ios[NIO];
	struct ib_engine_ctx ctx;
	struct ib_engine_ops ops;
	struct ib_loop loop;
	struct ib_vrun v;
	struct script sc;
	uint8_t bufs[NIO][4 * BS];
};

static struct fixture *fx(const uint64_t *offs, const uint32_t *lens,
			  unsigned int n, unsigned int verify, uint64_t pass)
{
	struct fixture *f = calloc(1, sizeof(*f));
	struct ib_diag d = { "" };

	assert_non_null(f);
	ib_job_defaults(&f->job);
	f->job.rw = IB_RW_WRITE | IB_RW_RAND;
	f->job.verify.type = verify;
	f->job.number = 3;
	f->file.path = (char *)"/x/target";
	for (int i = 0; i < NIO; i++) {
		f->ios[i].idx = (unsigned int)i;
		f->ios[i].buf = f->bufs[i];
	}
	f->ctx.ios = f->ios;
	f->ctx.nr_ios = NIO;
	f->ctx.buf_size = sizeof(f->bufs[0]);
	f->ctx.files = &f->file;
	f->ctx.nr_files = 1;
	f->ops.flags = IB_ENGINE_SYNC;
	f->loop.c.st = &f->st;
	f->loop.c.job = &f->job;
	f->loop.c.ops = &f->ops;
	f->sc = (struct script){ { &script_ops }, offs, lens, n, 0 };
	assert_int_equal(ib_vrun_init(&f->v, &f->job, &f->ctx, &f->sc.src, pass, &d), 0);
	f->v.loop = &f->loop;
	return f;
}

static void fx_free(struct fixture *f)
{
	ib_vrun_free(&f->v);
	free(f);
}

/* Take the next I/O from src into unit u, prep it, "complete" it. */
static int step(struct fixture *f, struct ib_source *src, int u,
		struct ib_io_desc *d)
{
	struct ib_io *io = &f->ios[u];
	int ret = ib_source_next(src, 0, d);

	if (ret != IB_SRC_READY)
		return ret;
	io->ddir = (uint8_t)d->ddir;
	io->offset = d->offset;
	io->len = io->xfer_total = d->len;
	io->xfer_done = 0;
	ib_vrun_prep(&f->v, io);
	ib_vrun_done(&f->v, io);
	return ret;
}

static void test_write_then_verify(void **state)
{
	static const uint64_t offs[] = { 0, 3 * BS, BS };
	struct fixture *f = fx(offs, NULL, 3, IB_VERIFY_CRC32C, 3 * BS);
	struct ib_source *src;
	struct ib_io_desc d;

	(void)state;
	for (int i = 0; i < 3; i++)
		assert_int_equal(step(f, ib_vrun_write_source(&f->v), 0, &d), IB_SRC_READY);
	assert_int_equal(ib_source_next(ib_vrun_write_source(&f->v), 0, &d), IB_SRC_END);
	assert_int_equal(f->v.nr, 3);
	assert_int_equal(f->v.recs[1].offset, 3 * BS);
	assert_int_equal(f->v.recs[2].seq, 2);
	assert_true(ib_vrun_verify_due(&f->v));
	/* the header (fio 3.42's, the default) names the block, the job and
	 * the write's number */
	assert_int_equal(f->bufs[0][0] | f->bufs[0][1] << 8, 0xacca);
	assert_int_equal(f->bufs[0][2], 0x81);
	assert_int_equal(f->bufs[0][40], 3);
	assert_int_equal(f->bufs[0][32], 2);
	/* read back in write order; unit 0's buffer still holds block BS */
	src = ib_vrun_verify_source(&f->v);
	/* reads only: no write comes for fsync=N to sync after (source.h) */
	assert_false(ib_source_more(src));
	assert_int_equal(ib_source_next(src, 0, &d), IB_SRC_READY);
	assert_int_equal(d.ddir, IB_DDIR_READ);
	assert_int_equal(d.offset, 0);
	assert_int_equal(ib_source_next(src, 0, &d), IB_SRC_READY);
	assert_int_equal(d.offset, 3 * BS);
	assert_int_equal(ib_source_next(src, 0, &d), IB_SRC_READY);
	assert_int_equal(d.offset, BS);
	f->ios[0].ddir = IB_DDIR_READ;
	ib_vrun_prep(&f->v, &f->ios[0]);
	ib_vrun_done(&f->v, &f->ios[0]);		/* good: no error */
	assert_int_equal(f->st.error, 0);
	assert_int_equal(f->v.mismatches, 0);
	assert_int_equal(ib_source_next(src, 0, &d), IB_SRC_END);
	assert_false(ib_vrun_next_pass(&f->v));	/* the script is over */
	fx_free(f);
}

static void test_mismatch_accounted(void **state)
{
	static const uint64_t offs[] = { 5 * BS };
	struct fixture *f = fx(offs, NULL, 1, IB_VERIFY_MD5, 1 * BS);
	struct ib_io_desc d;

	(void)state;
	step(f, ib_vrun_write_source(&f->v), 0, &d);
	ib_source_next(ib_vrun_verify_source(&f->v), 0, &d);
	f->ios[0].ddir = IB_DDIR_READ;
	ib_vrun_prep(&f->v, &f->ios[0]);
	f->bufs[0][1000] ^= 1;				/* corrupt the payload */
	ib_vrun_done(&f->v, &f->ios[0]);
	assert_int_equal(f->v.mismatches, 1);
	assert_int_equal(f->st.error, EILSEQ);		/* no continue_on_error */
	assert_true(f->loop.failed);
	assert_string_equal(f->st.error_where,
			    "md5: verify failed at file /x/target offset 20480, length 4096 (requested block: offset=20480, length=4096)");
	assert_non_null(strstr(f->st.verify_msg, "\n       Expected CRC: "));
	assert_non_null(strstr(f->st.verify_msg, "\n       Received CRC: "));
	fx_free(f);
}

static void test_coe_counts(void **state)
{
	static const uint64_t offs[] = { 0 };
	struct fixture *f = fx(offs, NULL, 1, IB_VERIFY_CRC32C, BS);
	struct ib_io_desc d;

	(void)state;
	f->job.continue_on_error = IB_COE_VERIFY;
	step(f, ib_vrun_write_source(&f->v), 0, &d);
	ib_source_next(ib_vrun_verify_source(&f->v), 0, &d);
	f->ios[0].ddir = IB_DDIR_READ;
	ib_vrun_prep(&f->v, &f->ios[0]);
	memcpy(f->bufs[0] + 16, "\x00\x10", 2);	/* header offset 4096 */
	ib_vrun_done(&f->v, &f->ios[0]);
	assert_int_equal(f->st.error, 0);
	assert_int_equal(f->st.total_err, 1);
	assert_int_equal(f->st.first_error, EILSEQ);
	assert_string_equal(f->st.first_error_where,
			    "verify: bad header offset 4096, wanted 0 at file /x/target offset 0, length 4096 (requested block: offset=0, length=4096)");
	assert_false(f->loop.failed);
	/* the next one counts and its lines follow the first's (fio prints
	 * each) */
	ib_vrun_done(&f->v, &f->ios[0]);
	assert_int_equal(f->st.total_err, 2);
	assert_string_equal(f->st.verify_msg,
			    "verify: bad header offset 4096, wanted 0 at file /x/target offset 0, length 4096 (requested block: offset=0, length=4096)\n"
			    "verify: bad header offset 4096, wanted 0 at file /x/target offset 0, length 4096 (requested block: offset=0, length=4096)\n");
	fx_free(f);
}

static void test_overwritten_dropped(void **state)
{
	/* block 0 twice, 8k at 8k then 4k at 12k inside it, a distinct 4k */
	static const uint64_t offs[] = { 0, 2 * BS, 0, 3 * BS, 5 * BS };
	static const uint32_t lens[] = { BS, 2 * BS, BS, BS, BS };
	struct fixture *f = fx(offs, lens, 5, IB_VERIFY_CRC32C, UINT64_MAX);
	struct ib_source *src;
	struct ib_io_desc d;
	uint64_t got[5];
	unsigned int n = 0;

	(void)state;
	for (int i = 0; i < 5; i++)
		step(f, ib_vrun_write_source(&f->v), 0, &d);
	src = ib_vrun_verify_source(&f->v);
	while (ib_source_next(src, 0, &d) == IB_SRC_READY)
		got[n++] = d.offset;
	assert_int_equal(n, 3);			/* the later writes, in order */
	assert_int_equal(got[0], 0);
	assert_int_equal(got[1], 3 * BS);
	assert_int_equal(got[2], 5 * BS);
	assert_int_equal(f->v.recs[0].seq, 2);
	fx_free(f);
}

static void test_overwritten_by_a_dead_one(void **state)
{
	/* 4k at 4k, then 8k at 0 over it, then 4k at 0 over that: only the
	 * last stands (the 8k one overwrote the first before it died) */
	static const uint64_t offs[] = { BS, 0, 0 };
	static const uint32_t lens[] = { BS, 2 * BS, BS };
	struct fixture *f = fx(offs, lens, 3, IB_VERIFY_CRC32C, UINT64_MAX);
	struct ib_io_desc d;

	(void)state;
	for (int i = 0; i < 3; i++)
		step(f, ib_vrun_write_source(&f->v), 0, &d);
	ib_vrun_verify_source(&f->v);
	assert_int_equal(f->v.nr, 1);
	assert_int_equal(f->v.recs[0].seq, 2);
	fx_free(f);
}

static void test_passes_and_backlog(void **state)
{
	static const uint64_t offs[] = { 0, BS, 2 * BS, 3 * BS, 4 * BS };
	struct fixture *f = fx(offs, NULL, 5, IB_VERIFY_CRC32C, 2 * BS);
	struct ib_io_desc d;
	struct ib_source *w = ib_vrun_write_source(&f->v);

	(void)state;
	f->job.verify.backlog = 1;
	f->job.verify.backlog_batch = 1;
	/* write, its backlog read, write, read: then the pass (8k) ends */
	assert_int_equal(step(f, w, 0, &d), IB_SRC_READY);
	assert_int_equal(d.ddir, IB_DDIR_WRITE);
	assert_int_equal(step(f, w, 0, &d), IB_SRC_READY);
	assert_int_equal(d.ddir, IB_DDIR_READ);
	assert_int_equal(d.offset, 0);
	assert_true(ib_source_more(w));		/* a write is still to come */
	assert_int_equal(step(f, w, 0, &d), IB_SRC_READY);
	assert_int_equal(d.offset, BS);
	assert_int_equal(d.ddir, IB_DDIR_WRITE);
	/* no write comes after this one: its backlog read still does, but
	 * is no reason for fsync=N to sync it (more() asks for writes) */
	assert_false(ib_source_more(w));
	assert_int_equal(step(f, w, 0, &d), IB_SRC_READY);
	assert_int_equal(d.ddir, IB_DDIR_READ);
	assert_int_equal(ib_source_next(w, 0, &d), IB_SRC_END);
	assert_false(ib_vrun_verify_due(&f->v));	/* all checked inline */
	assert_int_equal(f->st.error, 0);
	assert_true(ib_vrun_next_pass(&f->v));
	assert_int_equal(step(f, w, 0, &d), IB_SRC_READY);
	assert_int_equal(d.offset, 2 * BS);
	fx_free(f);
}

static void test_list_compacted(void **state)
{
	enum { N = 10000 };
	static uint64_t offs[N];
	struct fixture *f;
	struct ib_io_desc d;
	struct ib_source *src;

	(void)state;
	for (int i = 0; i < N; i++)
		offs[i] = (uint64_t)(i % 2) * BS;	/* two blocks, rewritten */
	f = fx(offs, NULL, N, IB_VERIFY_CRC32C, UINT64_MAX);
	for (int i = 0; i < N; i++)
		step(f, ib_vrun_write_source(&f->v), 0, &d);
	assert_int_equal(f->v.cap, 4096);	/* never grew */
	assert_int_equal(f->v.lost, 0);
	src = ib_vrun_verify_source(&f->v);
	assert_int_equal(f->v.nr, 2);
	assert_int_equal(ib_source_next(src, 0, &d), IB_SRC_READY);
	assert_int_equal(d.offset, 0);
	assert_int_equal(f->v.recs[0].seq, N - 2);
	assert_int_equal(f->v.recs[1].seq, N - 1);
	fx_free(f);
}

static void test_rewritten_not_an_error(void **state)
{
	static const uint64_t offs[] = { 0, 0 };
	struct fixture *f = fx(offs, NULL, 2, IB_VERIFY_CRC32C, UINT64_MAX);
	struct ib_source *w = ib_vrun_write_source(&f->v);
	struct ib_io_desc d;

	(void)state;
	f->job.verify.backlog = 1;
	f->job.verify.backlog_batch = 1;
	step(f, w, 0, &d);			/* block 0, write #0, done */
	/* write #1 of block 0 completes before the read of #0 is checked
	 * (the loop never has them in flight together: serialize) */
	ib_source_next(w, 0, &d);		/* the backlog read comes first */
	assert_int_equal(d.ddir, IB_DDIR_READ);
	f->ios[0].ddir = IB_DDIR_READ;
	ib_vrun_prep(&f->v, &f->ios[0]);
	ib_source_next(w, 0, &d);
	assert_int_equal(d.ddir, IB_DDIR_WRITE);
	f->ios[1].ddir = IB_DDIR_WRITE;
	f->ios[1].offset = 0;
	f->ios[1].len = f->ios[1].xfer_total = BS;
	ib_vrun_prep(&f->v, &f->ios[1]);
	ib_vrun_done(&f->v, &f->ios[1]);	/* write #1 done, recorded */
	/* the read sees the new write's data: not write #0's, no error */
	memcpy(f->bufs[0], f->bufs[1], BS);
	ib_vrun_done(&f->v, &f->ios[0]);
	assert_int_equal(f->v.rewritten, 1);
	assert_int_equal(f->v.mismatches, 0);
	assert_int_equal(f->st.error, 0);
	/* without a later write it is one */
	f->v.nr = 1;				/* forget write #1 */
	ib_vrun_done(&f->v, &f->ios[0]);
	assert_int_equal(f->v.mismatches, 1);
	assert_int_equal(f->st.error, EILSEQ);
	fx_free(f);
}

static void test_dry_pass(void **state)
{
	static const uint64_t offs[] = { 7 * BS, 2 * BS };
	struct fixture *f = fx(offs, NULL, 2, IB_VERIFY_CRC32C, 2 * BS);

	(void)state;
	f->job.verify.only = true;
	ib_vrun_dry_pass(&f->v);
	assert_int_equal(f->v.nr, 2);
	assert_int_equal(f->v.recs[0].offset, 7 * BS);
	assert_int_equal(f->st.dir[IB_DDIR_WRITE].issued, 2);	/* as fio */
	assert_int_equal(f->st.dir[IB_DDIR_WRITE].total_ios, 0);
	fx_free(f);
}

/* keep_all (verify_state_save): verified records stay, overwritten go. */
static void test_keep_all_compaction(void **state)
{
	static const uint64_t offs[] = { 0, BS, 0, 2 * BS };
	struct fixture *f = fx(offs, NULL, 4, IB_VERIFY_CRC32C, 4 * BS);
	struct ib_io_desc d;

	(void)state;
	assert_true(f->v.keep_all);		/* fio's default: save */
	for (int i = 0; i < 4; i++)
		step(f, ib_vrun_write_source(&f->v), 0, &d);
	f->v.head = 3;				/* three verified */
	ib_vrun_drop_overwritten_all(&f->v);
	assert_int_equal(f->v.nr, 3);		/* write #0 was overwritten */
	assert_int_equal(f->v.recs[0].seq, 1);
	assert_int_equal(f->v.recs[1].seq, 2);
	assert_int_equal(f->v.head, 2);		/* still on write #3 */
	assert_int_equal(f->v.recs[f->v.head].seq, 3);
	/* the next pass keeps them all (verify_state_save=0: none) */
	f->v.head = f->v.nr;
	f->sc.i = 0;
	assert_true(ib_vrun_next_pass(&f->v));
	assert_int_equal(f->v.nr, 3);
	assert_int_equal(f->v.head, 3);
	fx_free(f);
}

static void test_state_name(void **state)
{
	struct ib_job j;
	char out[64];

	(void)state;
	ib_job_defaults(&j);
	j.name = "my/job";
	j.number = 3;
	ib_vstate_name(&j, out, sizeof(out));
	assert_string_equal(out, "local-my.job-2-verify.state");
}

/* A job writes four blocks (one twice), saves; another loads and checks. */
static void test_state_roundtrip(void **state)
{
	static const uint64_t offs[] = { 2 * BS, 5 * BS, 2 * BS, 9 * BS };
	struct fixture *f = fx(offs, NULL, 4, IB_VERIFY_XXHASH, UINT64_MAX);
	struct fixture *g = fx(offs, NULL, 0, IB_VERIFY_XXHASH, UINT64_MAX);
	char dir[] = "/tmp/vstateXXXXXX", path[64];
	struct ib_diag dg = { "" };
	struct ib_io_desc d;
	uint8_t blk[BS];

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/s", dir);
	for (int i = 0; i < 4; i++)	/* write #3 (9*BS) stays in unit 1 */
		step(f, ib_vrun_write_source(&f->v), i == 3, &d);
	memcpy(blk, f->bufs[1], BS);
	f->job.randseed = 77;		/* the state carries the seed */
	assert_int_equal(ib_vstate_save(&f->v, path, &dg), 0);
	g->job.verify.only = true;
	g->job.randseed = 1;
	assert_int_equal(ib_vstate_load(&g->v, path, &dg), 0);
	assert_true(g->v.loaded && !g->v.blind && g->v.check_nio);
	assert_int_equal(g->v.seed_base, f->v.seed_base);
	assert_int_equal(g->v.nr, 3);
	assert_int_equal(g->v.recs[0].offset, 5 * BS);
	assert_int_equal(g->v.recs[1].seq, 2);
	assert_int_equal(g->v.recs[2].offset, 9 * BS);
	/* read back: write #3's block checks with its numberio */
	for (int i = 0; i < 3; i++)
		assert_int_equal(ib_source_next(ib_vrun_verify_source(&g->v), 0, &d),
				 IB_SRC_READY);
	g->ios[0].ddir = IB_DDIR_READ;
	ib_vrun_prep(&g->v, &g->ios[0]);
	memcpy(g->bufs[0], blk, BS);
	ib_vrun_done(&g->v, &g->ios[0]);
	assert_int_equal(g->v.mismatches, 0);
	/* another write number: a numberio error, not without the check */
	g->v.unit[0].seq = 7;
	ib_vrun_done(&g->v, &g->ios[0]);
	assert_int_equal(g->v.mismatches, 1);
	g->v.check_nio = false;		/* verify_write_sequence=0 */
	g->job.verify.header_seed = false;
	g->v.spec.check_seed = false;
	memcpy(g->bufs[0], blk, BS);
	ib_vrun_done(&g->v, &g->ios[0]);
	assert_int_equal(g->v.mismatches, 1);
	unlink(path);
	rmdir(dir);
	fx_free(f);
	fx_free(g);
}

static void test_state_refused(void **state)
{
	static const uint64_t offs[] = { 0 };
	struct fixture *f = fx(offs, NULL, 1, IB_VERIFY_CRC32C, UINT64_MAX);
	struct fixture *g = fx(offs, NULL, 0, IB_VERIFY_MD5, UINT64_MAX);
	char dir[] = "/tmp/vstateXXXXXX", path[64], want[200];
	struct ib_diag dg = { "" };
	struct ib_io_desc d;
	FILE *fp;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/s", dir);
	assert_int_equal(ib_vstate_load(&g->v, path, &dg), -ENOENT);
	snprintf(want, sizeof(want),
		 "verify_state_load: cannot open %s: No such file or directory", path);
	assert_string_equal(dg.msg, want);
	step(f, ib_vrun_write_source(&f->v), 0, &d);
	assert_int_equal(ib_vstate_save(&f->v, path, &dg), 0);
	assert_int_equal(ib_vstate_load(&g->v, path, &dg), -EINVAL);
	snprintf(want, sizeof(want),
		 "verify_state_load: %s was saved by a job with verify=crc32c, this one has verify=md5",
		 path);
	assert_string_equal(dg.msg, want);
	fp = fopen(path, "r+");		/* a record's byte flipped */
	assert_non_null(fp);
	fseek(fp, 64 + 3, SEEK_SET);
	fputc(0x11, fp);
	fclose(fp);
	assert_int_equal(ib_vstate_load(&f->v, path, &dg), -EINVAL);
	snprintf(want, sizeof(want), "verify_state_load: %s: corrupt records", path);
	assert_string_equal(dg.msg, want);
	unlink(path);
	rmdir(dir);
	fx_free(f);
	fx_free(g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_write_then_verify),
		cmocka_unit_test(test_mismatch_accounted),
		cmocka_unit_test(test_coe_counts),
		cmocka_unit_test(test_overwritten_dropped),
		cmocka_unit_test(test_overwritten_by_a_dead_one),
		cmocka_unit_test(test_passes_and_backlog),
		cmocka_unit_test(test_list_compacted),
		cmocka_unit_test(test_rewritten_not_an_error),
		cmocka_unit_test(test_dry_pass),
		cmocka_unit_test(test_keep_all_compaction),
		cmocka_unit_test(test_state_name),
		cmocka_unit_test(test_state_roundtrip),
		cmocka_unit_test(test_state_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
