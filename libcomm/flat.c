/* The smallest allreduce between the ranks of one host, by lines (shmline.h): each rank
 * writes its vector and fingerprint in one cache line to every peer and reads one from each,
 * then reduces all N in rank order, as mesh.c's one step does. Against that step over the
 * rings (a frame's header and payload, the head and tail counters, the progress engine) it
 * moves one cache line each way and makes no system call while the ranks are awake.
 *
 * Lines are used only when every rank's links are all over shared memory, and the ranks must
 * agree on it for every collective (a rank reading lines while its peer sends frames would
 * wait for nothing). So each rank says in its fingerprint whether its links are all up and
 * shared (COMM__FP_LINES), and after a small allreduce taken the usual way, in which every
 * rank's fingerprint reaches every rank, all of them hold the same N fingerprints and switch
 * to lines together from the next collective on.
 *
 * What the usual way checks, this one checks too: the fingerprint rides in the line and is
 * compared; a peer whose link holds frames instead of its line is not in this collective
 * (its fingerprint among the frames names the difference; an ABORT says why it stopped); a
 * peer whose link closed has died; the deadline, the monitor's verdict and the sockets are
 * watched while polling, as spin.c polls a step over rings. */
#include <linux/futex.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "libcomm/internal.h"

bool comm__flat_ready(const struct comm *c)
{
	for (int r = 0; r < c->nranks; r++)
		if (r != c->rank && (!c->peers[r].shm || c->peers[r].fd < 0))
			return false;
	return c->nranks > 1;
}

bool comm__flat_takes(int coll, size_t bytes, int algo)
{
	return coll == COMM_COLL_ALLREDUCE && algo == COMM_ALGO_MESH && bytes &&
	       bytes <= COMM__LINE_DATA;
}

void comm__flat_agree(struct comm *c)
{
	uint32_t seq = c->cur_seq;
	for (int r = 0; r < c->nranks; r++)
		if (c->fps[r].seq != seq || !(c->fps[r].flags & COMM__FP_LINES))
			return;
	for (int r = 0; r < c->nranks; r++) {
		struct comm__shm *s = c->peers[r].shm;
		if (r == c->rank)
			continue;
		s->acked = s->got = seq; /* no line before this one */
		s->held[0] = s->held[1] = 0;
	}
	c->lines = true;
}

static bool is_rank(const struct comm *c, int r, const void *arg)
{
	(void)c;
	return r == *(const int *)arg;
}

/* The fingerprints differ: named as the usual way names them, from ours and r's. */
static int differ(struct comm *c, int r)
{
	return comm__fp_differ(c, is_rank, &r);
}

struct flat {
	uint32_t seq;
	unsigned char fp[COMM__FP_LEN];
	const void *send;
	char *slots;
	size_t len;
};

/* Ours to r once its line is free, then r's when it is there: 1 while either waits. */
static int advance(struct comm *c, int r, struct flat *f)
{
	struct comm__shm *s = c->peers[r].shm;
	if (s->held[f->seq & 1] != f->seq) { /* ours of this one not written yet */
		if (!comm__line_free(s->ltx, s->held[f->seq & 1], &s->acked))
			return 1;
		if (comm__line_put(s->ltx, f->seq, s->got, f->fp, f->send, f->len))
			comm__line_wake(s->ltx, f->seq);
		s->held[f->seq & 1] = f->seq;
	}
	if (s->got == f->seq)
		return 0;
	const struct comm__line *ln = comm__line_get(s->lrx, f->seq);
	if (!ln)
		return 1;
	if (memcmp(ln->fp, f->fp, COMM__FP_LEN)) {
		char why[COMM_ERRLEN];
		if (comm__fp_decode(ln->fp, COMM__FP_LEN, &c->fps[r], why, sizeof(why)))
			return comm__fail(c, COMM_E_PROTO,
					  "bad fingerprint from rank %d (host %s): %s", r,
					  c->peers[r].host, why);
		return differ(c, r);
	}
	memcpy(f->slots + (size_t)r * f->len, ln->data, f->len);
	if ((int32_t)(ln->ack - s->acked) > 0)
		s->acked = ln->ack;
	comm__line_done(s->lrx, f->seq);
	s->got = f->seq;
	c->op_recvd += f->len;
	return 0;
}

/* A peer not there yet: its link closed (it died), or frames on its ring instead of its line
 * (a peer in another collective, or its ABORT). */
static int look_at(struct comm *c, int r, struct flat *f)
{
	struct comm__peer *p = &c->peers[r];
	if (comm__ring_used(&p->shm->rx)) {
		int rc = comm__pump_control(c, r);
		if (rc)
			return rc;
		if (p->fp_pending && p->fp_seq == f->seq) {
			p->fp_pending = false;
			c->fps[r] = p->fp;
			if (!comm__fp_same(&c->fps[r], &c->fps[c->rank]))
				return differ(c, r);
			return comm__fail(
				c, COMM_E_PROTO,
				"rank %d (host %s) sent its fingerprint of #%u as a frame "
				"while this rank waited for its line (bug)",
				r, p->host, f->seq);
		}
	}
	if (p->eof || p->sock_err) {
		c->hint_kind = COMM_VERDICT_DEAD_RANK;
		c->hint_rank = r;
		return comm__fail(c, COMM_E_PEER, "connection to rank %d (host %s) lost: %s", r,
				  p->host, comm__lost_why(p));
	}
	return 0;
}

/* The first peer still waited for, or -1: every peer looked at, its events and frames too
 * when look is set. */
static int pending(struct comm *c, struct flat *f, bool look, int *rc)
{
	int first = -1;
	*rc = look ? comm__poll_once(c) : 0;
	for (int r = 0; r < c->nranks && !*rc; r++) {
		if (r == c->rank || !advance(c, r, f))
			continue;
		if (first < 0)
			first = r;
		if (look)
			*rc = look_at(c, r, f);
	}
	return *rc ? -1 : first;
}

/* Asleep until a line we wait for is published, or a slice or the deadline has passed. */
static void sleep_on_lines(struct comm *c, struct flat *f, int64_t left_ms)
{
	struct futex_waitv w[FUTEX_WAITV_MAX];
	unsigned n = 0;
	for (int r = 0; r < c->nranks && n < FUTEX_WAITV_MAX; r++) {
		struct comm__shm *s = c->peers[r].shm;
		_Atomic uint32_t *addr;
		uint32_t word;
		if (r == c->rank || s->got == f->seq)
			continue;
		if (!comm__line_arm(s->lrx, f->seq, &addr, &word))
			return; /* it came meanwhile */
		w[n++] = (struct futex_waitv){
			.val = word, .uaddr = (uintptr_t)addr, .flags = FUTEX_32};
	}
	if (!n || c->no_waitv) {
		struct timespec nap = {0, 50000}; /* no futex_waitv: a nap, then look again */
		nanosleep(&nap, NULL);
		return;
	}
	comm__futex_sleep(c, w, n, left_ms);
}

static int timed_out(struct comm *c, int r, uint32_t seq)
{
	c->hint_kind = COMM_VERDICT_STUCK_RANK;
	c->hint_rank = r;
	return comm__fail(c, COMM_E_TIMEOUT,
			  "timed out after %.1f s waiting for rank %d (host %s): its line of #%u "
			  "never came",
			  (double)(mono_ms() - c->op_start) / 1000.0, r, c->peers[r].host, seq);
}

/* Until every peer's line is in: polling, looking at the sockets, then sleeping. */
static int wait_lines(struct comm *c, struct flat *f)
{
	struct comm__spin sp;
	int rc, first = pending(c, f, false, &rc);
	if (first < 0)
		return rc;
	comm__spin_plan(c, 2 * f->len, true, true, &sp);
	for (;;) {
		int64_t now = comm__prof_now();
		int act = comm__spin_next(c, &sp, now);
		if (act == COMM__SPIN_YIELD)
			sched_yield();
		bool look = act == COMM__SPIN_POLL || act == COMM__SPIN_SLEEP;
		if (look && mono_ms() - c->deadline >= 0)
			return timed_out(c, first, f->seq);
		if (act == COMM__SPIN_SLEEP) {
			atomic_store_explicit(&c->live.peer, first, memory_order_relaxed);
			sleep_on_lines(c, f, c->deadline - mono_ms());
		}
		first = pending(c, f, look, &rc);
		if (first < 0) {
			if (!rc)
				comm__spin_moved(c, &sp);
			return rc;
		}
	}
}

int comm__flat_allreduce(struct comm *c, const void *send, void *recv, size_t count,
			 enum comm_dtype t, enum comm_op op, const struct comm__fp *fp)
{
	size_t len = count * comm_dtype_size(t);
	int n = c->nranks, rc;
	if ((rc = c->ctx.need_scratch(&c->ctx, len * (size_t)n)) != 0)
		return rc;
	struct flat f = {.seq = fp->seq, .send = send, .slots = c->scratch, .len = len};
	comm__fp_encode(fp, f.fp);
	comm__fp_remember(c, fp);
	c->fps[c->rank] = *fp;
	if ((rc = wait_lines(c, &f)) != 0)
		return rc;
	c->op_sent += len * (size_t)(n - 1);
	const void *mine = send;
	if (send == recv &&
	    c->rank >= 2) { /* the first reduction overwrites ours before its turn */
		memcpy(f.slots + (size_t)c->rank * len, send, len);
		mine = f.slots + (size_t)c->rank * len;
	}
	comm__reduce_in_order(n, c->rank, recv, mine, f.slots, len, count, t, op);
	return 0;
}
