// SPDX-License-Identifier: GPL-2.0-only
/*
 * The ranks in step: agreeing before any I/O (the plan, then each step's
 * outcome), measuring the clock offsets, and the run loop that stops every
 * rank when one fails. Standard MPI-3 calls only.
 */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "mpi_priv.h"

/*
 * Complete a request without spinning: MPI_Test every millisecond. The
 * waits here can be long (another rank laying out a big file, or still
 * running) and a blocking MPI call polls at full speed, taking the CPU
 * from the job processes, most of all with ranks oversubscribed.
 */
static void wait_quietly(MPI_Request *rq)
{
	struct timespec ms = { 0, 1000000 };
	int done = 0;

	for (;;) {
		MPI_Test(rq, &done, MPI_STATUS_IGNORE);
		if (done)
			return;
		nanosleep(&ms, NULL);
	}
}

/* What one rank says at an agreement point. */
struct vote {
	uint64_t hash;
	int32_t ok;
	char host[IB_HOSTNAME_MAX];
	char msg[IB_DIAG_LEN];
};

/* Rank 0: one line per rank that said no, or whose plan differs. */
static bool judge(const struct vote *v, int size, bool compare)
{
	bool go = true;
	int r;

	for (r = 0; r < size; r++) {
		if (!v[r].ok) {
			fprintf(stderr, "iobench-mpi: host %s rank %d: %s\n", v[r].host, r,
				v[r].msg);
			go = false;
		} else if (compare && v[r].hash != v[0].hash) {
			fprintf(stderr,
				"iobench-mpi: host %s rank %d: options or job files differ from rank 0's (plan %016llx, rank 0: %016llx): refused before any I/O\n",
				v[r].host, r, (unsigned long long)v[r].hash,
				(unsigned long long)v[0].hash);
			go = false;
		}
	}
	return go;
}

bool ib_mpi_agree(const struct ib_mpi_ctx *c, bool ok, uint64_t hash,
		  bool compare, const char *msg)
{
	struct vote mine, *all = NULL;
	MPI_Request rq;
	int go = 1;

	memset(&mine, 0, sizeof(mine));
	mine.hash = hash;
	mine.ok = ok;
	snprintf(mine.host, sizeof(mine.host), "%s", c->host);
	snprintf(mine.msg, sizeof(mine.msg), "%s", msg ? msg : "");
	if (c->rank == 0) {
		all = calloc((size_t)c->size, sizeof(*all));
		if (!all)
			MPI_Abort(MPI_COMM_WORLD, 1);
	}
	MPI_Igather(&mine, (int)sizeof(mine), MPI_BYTE, all, (int)sizeof(mine),
		    MPI_BYTE, 0, MPI_COMM_WORLD, &rq);
	wait_quietly(&rq);
	if (c->rank == 0) {
		go = judge(all, c->size, compare);
		free(all);
	}
	MPI_Ibcast(&go, 1, MPI_INT, 0, MPI_COMM_WORLD, &rq);
	wait_quietly(&rq);
	return go != 0;
}

int64_t ib_mpi_realtime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

#define PING_ROUNDS 16
#define TAG_PING 71

/*
 * Rank 0 and rank r: rank 0 notes t0, sends, r answers its clock tr,
 * rank 0 notes t1. With symmetric delays tr was read at (t0 + t1) / 2 on
 * rank 0's clock; the round with the shortest round trip bounds the
 * error best (at most half of it).
 */
static void ping_rank(int r, int64_t *offset, int64_t *rtt)
{
	int64_t t0, t1, tr;
	int k;

	*rtt = INT64_MAX;
	for (k = 0; k < PING_ROUNDS; k++) {
		t0 = ib_mpi_realtime_ns();
		MPI_Send(&t0, 1, MPI_INT64_T, r, TAG_PING, MPI_COMM_WORLD);
		MPI_Recv(&tr, 1, MPI_INT64_T, r, TAG_PING, MPI_COMM_WORLD,
			 MPI_STATUS_IGNORE);
		t1 = ib_mpi_realtime_ns();
		if (t1 - t0 < *rtt) {
			*rtt = t1 - t0;
			*offset = tr - t0 - (t1 - t0) / 2;
		}
	}
}

static void pong(void)
{
	int64_t t;
	int k;

	for (k = 0; k < PING_ROUNDS; k++) {
		MPI_Recv(&t, 1, MPI_INT64_T, 0, TAG_PING, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		t = ib_mpi_realtime_ns();
		MPI_Send(&t, 1, MPI_INT64_T, 0, TAG_PING, MPI_COMM_WORLD);
	}
}

void ib_mpi_clock(const struct ib_mpi_ctx *c, int64_t *offset, int64_t *rtt)
{
	int r;

	if (c->rank != 0) {
		pong();
		return;
	}
	offset[0] = rtt[0] = 0;
	for (r = 1; r < c->size; r++)
		ping_rank(r, &offset[r], &rtt[r]);
}

/*
 * Every host's line to rank 0 (collective), drawn there when one changed.
 * A line caught while its helper writes it is sent as the last one read.
 */
static void view_step(const struct ib_mpi_ctx *c, struct ib_mpi_helper *h,
		      struct ib_mpi_view *v, struct ib_live_host *mine)
{
	struct ib_live_host now;
	MPI_Request rq;
	uint64_t sum = 0;
	int r;

	if (ib_live_host_read(&h->out->live, &now)) {
		*mine = now;
		memcpy(mine->host, c->host, sizeof(mine->host));
		mine->rank = c->rank;
	}
	MPI_Igather(mine, (int)sizeof(*mine), MPI_BYTE, v->all, (int)sizeof(*mine),
		    MPI_BYTE, 0, MPI_COMM_WORLD, &rq);
	wait_quietly(&rq);
	if (c->rank != 0)
		return;
	for (r = 0; r < c->size; r++)
		sum += v->all[r].seq;
	if (sum == v->seen)
		return;
	v->seen = sum;
	ib_liveview_hosts(v->tty, v->all, (unsigned int)c->size,
			  (uint64_t)(ib_mpi_realtime_ns() - h->out->start_ns) / 1000000000ull,
			  &v->drawn);
}

void ib_mpi_run_loop(const struct ib_mpi_ctx *c, struct ib_mpi_helper *h,
		     volatile sig_atomic_t *sig, struct ib_mpi_view *view)
{
	struct timespec pause = { 0, 100000000 };
	struct ib_live_host mine = { 0 };
	int in[2], out[2];
	MPI_Request rq;
	bool done;

	memcpy(mine.host, c->host, sizeof(mine.host));
	mine.rank = c->rank;
	for (;;) {
		if (h->done)
			nanosleep(&pause, NULL);
		done = ib_mpi_helper_poll(h, 100);
		in[0] = !done;		/* still running */
		in[1] = *sig || (done && (h->out->ret || h->out->failed_jobs));
		MPI_Iallreduce(in, out, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD, &rq);
		wait_quietly(&rq);
		if (out[1])
			ib_mpi_helper_stop(h); /* a rank failed or was interrupted */
		if (view)
			view_step(c, h, view, &mine);
		if (!out[0])
			break;
	}
	if (view && view->tty)
		ib_liveview_hosts_erase(view->tty, &view->drawn);
}
