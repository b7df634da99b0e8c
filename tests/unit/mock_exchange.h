/* An in-memory world of N threads implementing struct comm__ctx's exchange, so algorithms are
 * tested without the network. Header-only; include once per test program.
 *
 * Each ordered pair (src, dst) has one mailbox. exchange() posts its sends and receives; a
 * transfer completes when the matching send and receive meet (the second to arrive copies),
 * and the call returns when all of its transfers have, like the engine's.
 *
 * It is stricter than the network on purpose. Any of these fails the run with a message:
 * a length or step number that differs between sender and receiver; a receive buffer that
 * overlaps another receive or a send of the same call (the engine may deliver before it
 * sends); two transfers with one peer in one call; a peer out of range or self; a message
 * left unreceived at the end; a wait longer than MOCK_TIMEOUT_S (a deadlock). Failures are
 * recorded, every waiter is woken and gets an error, and the test thread asserts. */
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

#define MOCK_MAX 32
#define MOCK_TIMEOUT_S 20

/* One direction of one pair: a posted send and/or a posted receive waiting for the other. */
struct mock_box {
	const void *sbuf;
	size_t slen;
	int sstep, has_send;
	void *rbuf;
	size_t rlen;
	int rstep, has_recv;
};

struct mock_world;

struct mock_rank {
	struct comm__ctx ctx; /* first: the algorithms get &ctx */
	struct mock_world *w;
	size_t scratch_cap;
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

/* Completes box b (src -> dst) whose both sides are posted: checks and copies, and wakes
 * the side that posted first if that was its last pending transfer. */
static void mock_complete(struct mock_world *w, struct mock_box *b, int src, int dst, int waiter)
{
	if (b->slen != b->rlen || b->sstep != b->rstep) {
		mock_fail(
			w,
			"rank %d receives %zu bytes from %d at step %d, which sends %zu at step %d",
			dst, b->rlen, src, b->rstep, b->slen, b->sstep);
		return;
	}
	memcpy(b->rbuf, b->sbuf, b->slen);
	b->has_send = b->has_recv = 0;
	if (--w->rank[waiter].pending == 0)
		pthread_cond_signal(&w->rank[waiter].cv);
}

/* A transfer completes when its send and its receive have both been posted; whichever side
 * comes second does the copy, so each call sleeps at most once. */
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
	for (size_t i = 0; i < n && !w->failed; i++) {
		if (x[i].peer < 0 || x[i].peer >= w->n || x[i].peer == r)
			mock_fail(w, "rank %d step %d: bad peer %d", r, step, x[i].peer);
		else if ((x[i].slen && !x[i].sbuf) || (x[i].rlen && !x[i].rbuf))
			mock_fail(w, "rank %d step %d: NULL buffer with a length", r, step);
		else if (!x[i].slen && !x[i].rlen)
			mock_fail(w, "rank %d step %d: empty transfer with %d", r, step, x[i].peer);
		for (size_t j = 0; j < n && !w->failed; j++) {
			if (j > i && x[j].peer == x[i].peer)
				mock_fail(w, "rank %d step %d: two transfers with peer %d", r, step,
					  x[i].peer);
			if (mock_overlap(x[i].rbuf, x[i].rlen, x[j].sbuf, x[j].slen))
				mock_fail(w, "rank %d step %d: receive from %d overlaps send to %d",
					  r, step, x[i].peer, x[j].peer);
			if (j != i && mock_overlap(x[i].rbuf, x[i].rlen, x[j].rbuf, x[j].rlen))
				mock_fail(w, "rank %d step %d: receives from %d and %d overlap", r,
					  step, x[i].peer, x[j].peer);
		}
	}
	me->pending = 0;
	for (size_t i = 0; i < n && !w->failed; i++) {
		int p = x[i].peer;

		if (x[i].slen) {
			struct mock_box *b = &w->box[r][p];
			if (b->has_send) {
				mock_fail(w, "rank %d step %d: send to %d while one is in flight",
					  r, step, p);
				break;
			}
			b->sbuf = x[i].sbuf;
			b->slen = x[i].slen;
			b->sstep = step;
			b->has_send = 1;
			if (b->has_recv)
				mock_complete(w, b, r, p, p);
			else
				me->pending++;
		}
		if (x[i].rlen && !w->failed) {
			struct mock_box *b = &w->box[p][r];
			b->rbuf = x[i].rbuf;
			b->rlen = x[i].rlen;
			b->rstep = step;
			b->has_recv = 1;
			if (b->has_send)
				mock_complete(w, b, p, r, p);
			else
				me->pending++;
		}
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
	/* fresh (not realloc'd) so stale contents cannot hide a missing copy */
	free(ctx->scratch);
	ctx->scratch = malloc(len);
	if (!ctx->scratch) {
		me->scratch_cap = 0;
		ctx->scratch_len = 0;
		return COMM_E_NOMEM;
	}
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
	memset(w->box, 0, sizeof(w->box));
	w->n = n;
	w->fn = fn;
	w->failed = 0;
	w->msg[0] = 0;
	w->max_scratch = 0;
	w->done = 0;
	for (int r = 0; r < n; r++) {
		struct mock_rank *m = &w->rank[r];
		free(m->ctx.scratch);
		memset(&m->ctx, 0, sizeof(m->ctx));
		m->scratch_cap = 0;
		m->calls = 0;
		m->rc = 0;
		m->arg = args ? args[r] : NULL;
		m->ctx.rank = r;
		m->ctx.nranks = n;
		m->ctx.exchange = mock_exchange;
		m->ctx.need_scratch = mock_need_scratch;
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
				if (w->box[s][d].has_send || w->box[s][d].has_recv) {
					snprintf(w->msg, sizeof(w->msg),
						 "transfer from %d to %d never matched", s, d);
					bad = 1;
				}
	}
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
		free(w->rank[r].ctx.scratch);
		w->rank[r].ctx.scratch = NULL;
		pthread_cond_destroy(&w->rank[r].cv);
	}
	pthread_cond_destroy(&w->start);
	pthread_cond_destroy(&w->finished);
	pthread_mutex_destroy(&w->mu);
	w->pool = 0;
}

#endif
