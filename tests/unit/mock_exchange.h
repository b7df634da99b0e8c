/* An in-memory world of N threads implementing struct comm__ctx's exchange, so algorithms are
 * tested without the network. Header-only; include once per test program.
 *
 * Each ordered pair (src, dst) has one mailbox: a FIFO of posted sends, in the order they
 * were posted, and at most one posted receive. exchange() posts its sends and receives and
 * returns when all of them have completed, like the engine's. A receive takes the head of
 * the FIFO, so messages are received in the order they were sent.
 *
 * The mailbox models a TCP socket send buffer of w->eager bytes (set before mock_run; every
 * rank's ctx.send_ahead is set to it). A send completes for its sender when its receive is
 * posted, or, if the bytes queued for the pair fit in eager, at once: the mock copies it
 * (the sender may then overwrite its buffer, as it may once TCP has copied). A send that
 * does not fit stays pending, its buffer in use, until the receives drain the FIFO enough
 * for it to be copied (a blocked write() going on as the buffer empties) or it is received;
 * sends behind it stay pending too, as bytes leave a socket in order. eager 0 is strict
 * rendezvous: a send completes only when its receive is posted.
 *
 * It is stricter than the network on purpose. Any of these fails the run with a message:
 * a length that differs between sender and receiver; a receive buffer that overlaps another
 * receive or a send of the same call (the engine may deliver before it sends); two receives
 * from one peer in one call; more than MOCK_FIFO sends queued to one peer; a peer out of
 * range or self; a NULL buffer with a length; an empty transfer; a message left unreceived
 * at the end; a wait longer than MOCK_TIMEOUT_S (a deadlock). Step numbers are not compared:
 * a send posted ahead carries the step of the call that posted it. Failures are recorded,
 * every waiter is woken and gets an error, and the test thread asserts. */
#ifndef MOCK_EXCHANGE_H
#define MOCK_EXCHANGE_H

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "libcomm/algo.h"

#ifndef ASAN_POISON_MEMORY_REGION /* the includer's, or none: no sanitizer */
#define ASAN_POISON_MEMORY_REGION(p, n) ((void)(p), (void)(n))
#define ASAN_UNPOISON_MEMORY_REGION(p, n) ((void)(p), (void)(n))
#endif

#define MOCK_MAX 32
#define MOCK_TIMEOUT_S 20
/* Sends queued per pair. Eager sends run ahead as far as a stalled receiver's buffer room
 * allows (a 4 MiB buffer holds 64 chunks of 64 KiB), so this is a limit of the mock, not of
 * the contract; rendezvous sends add at most one call's worth. */
#define MOCK_FIFO 256

/* A posted send. copy: the mock's own copy of the bytes, the send already complete for its
 * sender; NULL: the sender's buffer, the sender still waiting in its call. */
struct mock_msg {
	const void *sbuf;
	void *copy;
	size_t slen;
	int sstep;
};

/* One direction of one pair: the sends posted and not yet received (FIFO, q[head] first)
 * and a posted receive waiting for a send. */
struct mock_box {
	struct mock_msg q[MOCK_FIFO];
	int head, nq;
	size_t queued; /* bytes of the copied sends in q */
	void *rbuf;
	size_t rlen;
	int rstep, has_recv;
};

struct mock_world;

struct mock_rank {
	struct comm__ctx ctx; /* first: the algorithms get &ctx */
	struct mock_world *w;
	size_t scratch_cap;
	/* the scratch's memory, kept from run to run: a fresh malloc of megabytes per run was
	 * fresh pages, faulted in by the memset that fills them */
	unsigned char *keep;
	size_t keep_cap;
	long calls;
	int pending; /* this call's transfers still waiting for their other side */
	int rc;
	void *arg;
	pthread_t th;
	pthread_cond_t cv; /* this rank waits here; whoever it waits for signals it */
};

typedef int (*mock_fn)(struct comm__ctx *x, void *arg);

struct mock_world {
	int n;
	size_t eager; /* the send buffer of each pair, bytes; set by the test before mock_run */
	pthread_mutex_t mu;
	struct mock_box box[MOCK_MAX][MOCK_MAX]; /* [src][dst] */
	struct mock_rank rank[MOCK_MAX];
	mock_fn fn;
	/* worker pool: thread creation per run would dominate the tests' time */
	int pool, gen, done;
	pthread_cond_t start, finished;
	int failed;
	char msg[512];
	size_t max_scratch;
	int max_sends; /* most sends to one peer in one exchange call: did sends run ahead? */
};

__attribute__((format(printf, 2, 3))) static void mock_fail(struct mock_world *w, const char *fmt,
							    ...)
{
	va_list ap;

	/* caller holds w->mu */
	if (!w->failed) {
		va_start(ap, fmt);
		vsnprintf(w->msg, sizeof(w->msg), fmt, ap);
		va_end(ap);
	}
	w->failed = 1;
	for (int r = 0; r < w->n; r++)
		pthread_cond_signal(&w->rank[r].cv);
}

static int mock_overlap(const void *a, size_t al, const void *b, size_t bl)
{
	uintptr_t x = (uintptr_t)a, y = (uintptr_t)b;

	return al && bl && x < y + bl && y < x + al;
}

/* One fewer transfer pending for rank r, woken when that was its call's last. */
static void mock_done(struct mock_world *w, int r)
{
	if (--w->rank[r].pending == 0)
		pthread_cond_signal(&w->rank[r].cv);
}

/* Copies the sender's bytes of m into the mailbox, completing the send for its sender, if
 * they fit in what is left of the send buffer. */
static int mock_copy_in(struct mock_world *w, struct mock_box *b, struct mock_msg *m, int src)
{
	if (b->queued + m->slen > w->eager)
		return 0;
	m->copy = malloc(m->slen);
	if (!m->copy) {
		mock_fail(w, "out of memory copying %zu bytes from %d", m->slen, src);
		return 0;
	}
	memcpy(m->copy, m->sbuf, m->slen);
	b->queued += m->slen;
	mock_done(w, src);
	return 1;
}

/* Delivers send m (src -> dst) into the posted receive of b: checks the length and copies;
 * a send still in its sender's buffer completes for the sender. 0, or -1 having failed. */
static int mock_deliver(struct mock_world *w, struct mock_box *b, const struct mock_msg *m, int src,
			int dst)
{
	if (m->slen != b->rlen) {
		mock_fail(
			w,
			"rank %d receives %zu bytes from %d at step %d, which sends %zu at step %d",
			dst, b->rlen, src, b->rstep, m->slen, m->sstep);
		return -1;
	}
	memcpy(b->rbuf, m->copy ? m->copy : m->sbuf, m->slen);
	b->has_recv = 0;
	if (m->copy) {
		free(m->copy);
		b->queued -= m->slen;
	} else {
		mock_done(w, src);
	}
	mock_done(w, dst);
	return 0;
}

/* Rank src posts a send of x to dst: straight into a waiting receive if it is next in line,
 * else queued, copied (complete) if the send buffer has room, else pending. Sends keep
 * their order, so one waiting behind a pending send is pending too. */
static void mock_post_send(struct mock_world *w, int src, int dst, int step,
			   const struct comm__xfer *x)
{
	struct mock_box *b = &w->box[src][dst];
	struct mock_msg m = {.sbuf = x->sbuf, .slen = x->slen, .sstep = step};

	w->rank[src].pending++;
	if (!b->nq && b->has_recv) {
		mock_deliver(w, b, &m, src, dst);
		return;
	}
	if (b->nq == MOCK_FIFO) {
		mock_fail(w,
			  "rank %d step %d: more than %d sends queued to %d (the mock's limit, "
			  "MOCK_FIFO)",
			  src, step, MOCK_FIFO, dst);
		return;
	}
	struct mock_msg *slot = &b->q[(b->head + b->nq) % MOCK_FIFO];
	int blocked = b->nq && !b->q[(b->head + b->nq - 1) % MOCK_FIFO].copy;

	*slot = m;
	b->nq++;
	if (!blocked)
		mock_copy_in(w, b, slot, src);
}

/* Rank dst posts a receive of x from src: takes the head of the FIFO if there is one, then
 * copies in the pending sends behind it while the freed room lets them; else waits. */
static void mock_post_recv(struct mock_world *w, int src, int dst, int step,
			   const struct comm__xfer *x)
{
	struct mock_box *b = &w->box[src][dst];

	w->rank[dst].pending++;
	b->rbuf = x->rbuf;
	b->rlen = x->rlen;
	b->rstep = step;
	b->has_recv = 1;
	if (!b->nq)
		return;
	struct mock_msg *m = &b->q[b->head];
	if (mock_deliver(w, b, m, src, dst) != 0)
		return;
	b->head = (b->head + 1) % MOCK_FIFO;
	b->nq--;
	for (int i = 0; i < b->nq && !w->failed; i++) {
		m = &b->q[(b->head + i) % MOCK_FIFO];
		if (!m->copy && !mock_copy_in(w, b, m, src))
			break;
	}
}

/* Fails the run if the call's transfers break the contract (see the header comment). */
static void mock_check_call(struct mock_world *w, int r, int step, const struct comm__xfer *x,
			    size_t n)
{
	for (size_t i = 0; i < n && !w->failed; i++) {
		if (x[i].peer < 0 || x[i].peer >= w->n || x[i].peer == r)
			mock_fail(w, "rank %d step %d: bad peer %d", r, step, x[i].peer);
		else if ((x[i].slen && !x[i].sbuf) || (x[i].rlen && !x[i].rbuf))
			mock_fail(w, "rank %d step %d: NULL buffer with a length", r, step);
		else if (!x[i].slen && !x[i].rlen)
			mock_fail(w, "rank %d step %d: empty transfer with %d", r, step, x[i].peer);
		for (size_t j = 0; j < n && !w->failed; j++) {
			if (j > i && x[j].peer == x[i].peer && x[i].rlen && x[j].rlen)
				mock_fail(w,
					  "rank %d step %d: two receives from peer %d in one call",
					  r, step, x[i].peer);
			if (mock_overlap(x[i].rbuf, x[i].rlen, x[j].sbuf, x[j].slen))
				mock_fail(w, "rank %d step %d: receive from %d overlaps send to %d",
					  r, step, x[i].peer, x[j].peer);
			if (j != i && mock_overlap(x[i].rbuf, x[i].rlen, x[j].rbuf, x[j].rlen))
				mock_fail(w, "rank %d step %d: receives from %d and %d overlap", r,
					  step, x[i].peer, x[j].peer);
		}
	}
}

/* For w->max_sends: a test can tell an algorithm that pipelines from one that never does. */
static void mock_count_sends(struct mock_world *w, const struct comm__xfer *x, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		int k = 0;
		for (size_t j = 0; j < n; j++)
			k += x[j].slen && x[j].peer == x[i].peer;
		if (k > w->max_sends)
			w->max_sends = k;
	}
}

/* Posts every transfer (sends in array order, so several to one peer queue in that order)
 * and sleeps until the last completes: whichever side comes second does the copy. */
static int mock_exchange(struct comm__ctx *ctx, int step, struct comm__xfer *x, size_t n)
{
	struct mock_rank *me = (struct mock_rank *)ctx;
	struct mock_world *w = me->w;
	int r = ctx->rank, rc = 0;
	struct timespec dl;

	clock_gettime(CLOCK_REALTIME, &dl);
	dl.tv_sec += MOCK_TIMEOUT_S;
	pthread_mutex_lock(&w->mu);
	me->calls++;
	mock_check_call(w, r, step, x, n);
	mock_count_sends(w, x, n);
	me->pending = 0;
	for (size_t i = 0; i < n && !w->failed; i++) {
		if (x[i].slen)
			mock_post_send(w, r, x[i].peer, step, &x[i]);
		if (x[i].rlen && !w->failed)
			mock_post_recv(w, x[i].peer, r, step, &x[i]);
	}
	while (me->pending > 0 && !w->failed) {
		if (pthread_cond_timedwait(&me->cv, &w->mu, &dl) == ETIMEDOUT) {
			mock_fail(w,
				  "rank %d: timed out (deadlock?) at step %d with %d transfers "
				  "pending",
				  r, step, me->pending);
			break;
		}
	}
	if (w->failed)
		rc = COMM_E_PEER;
	pthread_mutex_unlock(&w->mu);
	return rc;
}

static int mock_need_scratch(struct comm__ctx *ctx, size_t len)
{
	struct mock_rank *me = (struct mock_rank *)ctx;

	if (len <= me->scratch_cap)
		return 0;
	/* refilled, not realloc'd, so stale contents cannot hide a missing copy; the bytes past
	 * len poisoned, so that under ASan a read past the scratch is reported at its first byte
	 * as with a block of its own */
	if (len > me->keep_cap) {
		ASAN_UNPOISON_MEMORY_REGION(me->keep, me->keep_cap);
		free(me->keep);
		me->keep = malloc(len);
		me->keep_cap = me->keep ? len : 0;
	}
	if (!me->keep) {
		ctx->scratch = NULL;
		me->scratch_cap = 0;
		ctx->scratch_len = 0;
		return COMM_E_NOMEM;
	}
	ctx->scratch = me->keep;
	ASAN_UNPOISON_MEMORY_REGION(me->keep, len);
	ASAN_POISON_MEMORY_REGION(me->keep + len, me->keep_cap - len);
	memset(ctx->scratch, 0x5a, len);
	me->scratch_cap = ctx->scratch_len = len;
	pthread_mutex_lock(&me->w->mu);
	if (len > me->w->max_scratch)
		me->w->max_scratch = len;
	pthread_mutex_unlock(&me->w->mu);
	return 0;
}

static void *mock_thread(void *p)
{
	struct mock_rank *me = p;
	struct mock_world *w = me->w;
	int seen = 0, idx = (int)(me - w->rank);

	pthread_mutex_lock(&w->mu);
	for (;;) {
		while (w->gen == seen)
			pthread_cond_wait(&w->start, &w->mu);
		seen = w->gen;
		if (seen < 0)
			break;
		if (idx >= w->n)
			continue;
		pthread_mutex_unlock(&w->mu);
		me->rc = w->fn(&me->ctx, me->arg);
		pthread_mutex_lock(&w->mu);
		if (++w->done == w->n)
			pthread_cond_signal(&w->finished);
	}
	pthread_mutex_unlock(&w->mu);
	return NULL;
}

/* Empties the mailboxes of the last run's ranks (the only ones it used: clearing all of them
 * per run would cost more than a small collective), freeing the copies of sends never
 * received (a failed run). A queue's slots are written when a send is queued, so only the
 * counts need resetting. */
static void mock_clear(struct mock_world *w)
{
	for (int s = 0; s < w->n; s++)
		for (int d = 0; d < w->n; d++) {
			struct mock_box *b = &w->box[s][d];
			for (int i = 0; i < b->nq; i++)
				free(b->q[(b->head + i) % MOCK_FIFO].copy);
			b->head = b->nq = b->has_recv = 0;
			b->queued = 0;
		}
}

/* Runs fn(ctx of rank r, args[r]) on n pooled threads. Returns 0, or -1 with w->msg saying
 * why (a harness violation, a rank's nonzero return, a leftover message). w is reusable;
 * mock_shutdown ends it. */
static int mock_run(struct mock_world *w, int n, mock_fn fn, void **args)
{
	int bad = 0;

	if (n < 1 || n > MOCK_MAX)
		return -1;
	if (!w->pool) {
		pthread_mutex_init(&w->mu, NULL);
		pthread_cond_init(&w->start, NULL);
		pthread_cond_init(&w->finished, NULL);
		for (int r = 0; r < MOCK_MAX; r++) {
			w->rank[r].w = w;
			pthread_cond_init(&w->rank[r].cv, NULL);
			if (pthread_create(&w->rank[r].th, NULL, mock_thread, &w->rank[r]) != 0) {
				fprintf(stderr, "pthread_create failed\n");
				abort();
			}
		}
		w->pool = 1;
	}
	pthread_mutex_lock(&w->mu);
	mock_clear(w);
	w->n = n;
	w->fn = fn;
	w->failed = 0;
	w->msg[0] = 0;
	w->max_scratch = 0;
	w->max_sends = 0;
	w->done = 0;
	for (int r = 0; r < n; r++) {
		struct mock_rank *m = &w->rank[r];
		memset(&m->ctx, 0, sizeof(m->ctx)); /* the scratch's memory stays in m->keep */
		ASAN_POISON_MEMORY_REGION(m->keep, m->keep_cap);
		m->scratch_cap = 0;
		m->calls = 0;
		m->rc = 0;
		m->arg = args ? args[r] : NULL;
		m->ctx.rank = r;
		m->ctx.nranks = n;
		m->ctx.exchange = mock_exchange;
		m->ctx.need_scratch = mock_need_scratch;
		m->ctx.send_ahead = w->eager;
	}
	w->gen++;
	pthread_cond_broadcast(&w->start);
	while (w->done < n)
		pthread_cond_wait(&w->finished, &w->mu);
	pthread_mutex_unlock(&w->mu);

	if (!w->failed) {
		for (int r = 0; r < n && !bad; r++)
			if (w->rank[r].rc) {
				snprintf(w->msg, sizeof(w->msg), "rank %d returned %d", r,
					 w->rank[r].rc);
				bad = 1;
			}
		for (int s = 0; s < n && !bad; s++)
			for (int d = 0; d < n && !bad; d++)
				if (w->box[s][d].nq || w->box[s][d].has_recv) {
					snprintf(w->msg, sizeof(w->msg),
						 "transfer from %d to %d never matched", s, d);
					bad = 1;
				}
	}
	mock_clear(w); /* after the check above, which reads the mailboxes */
	return w->failed || bad ? -1 : 0;
}

/* Stops the pool and frees what the ranks kept. */
static void mock_shutdown(struct mock_world *w)
{
	if (!w->pool)
		return;
	pthread_mutex_lock(&w->mu);
	w->gen = -1;
	pthread_cond_broadcast(&w->start);
	pthread_mutex_unlock(&w->mu);
	for (int r = 0; r < MOCK_MAX; r++) {
		pthread_join(w->rank[r].th, NULL);
		ASAN_UNPOISON_MEMORY_REGION(w->rank[r].keep, w->rank[r].keep_cap);
		free(w->rank[r].keep);
		w->rank[r].keep = NULL;
		w->rank[r].keep_cap = 0;
		w->rank[r].ctx.scratch = NULL;
		pthread_cond_destroy(&w->rank[r].cv);
	}
	pthread_cond_destroy(&w->start);
	pthread_cond_destroy(&w->finished);
	pthread_mutex_destroy(&w->mu);
	w->pool = 0;
}

#endif
