/* The public collective entry points. Each operation: check the arguments, start the clock
 * (exec deadline), make sure every rank agrees on what it is doing (or fail naming the field:
 * send/recv and split exchange fingerprints first, collectives check them as they arrive,
 * agree.c), and run the selected algorithm through comm__run. Non-blocking calls go
 * to a per-communicator worker thread that runs them in submission order; once it exists,
 * blocking calls queue behind it too, so the order on the wire is the order of the calls. */
#include <errno.h>
#include <stdarg.h>
#include <stdatomic.h>

#include "libcomm/internal.h"

struct op {
	int coll;
	const void *send;
	void *recv;
	size_t count;
	enum comm_dtype t;
	enum comm_op op;
	int root; /* broadcast root, or the peer of send/recv */
	enum comm_compress z; /* allreduce only */
};

struct comm_req {
	struct comm *c;
	struct op op;
	struct comm_req *next;
	int status;
	bool done;
	char err[COMM_ERRLEN];
};

int comm__ctx_exchange(struct comm__ctx *ctx, int step, struct comm__xfer *x, size_t n)
{
	struct comm *c = ctx->comm;
	return comm__exchange(c, COMM__F_DATA, step, x, n, c->cur_seq);
}

int comm__ctx_need_scratch(struct comm__ctx *ctx, size_t len)
{
	struct comm *c = ctx->comm;
	if (len <= c->scratch_len)
		return 0;
	void *p = realloc(c->scratch, len);
	if (!p)
		return comm__fail(c, COMM_E_NOMEM, "out of memory for %zu bytes of scratch", len);
	c->scratch = p;
	c->scratch_len = len;
	ctx->scratch = p;
	ctx->scratch_len = len;
	return 0;
}

/* A refused argument, named after the rank and the operation: formatted only when one is
 * refused (a prefix built on every call cost a formatted print per operation). */
__attribute__((format(printf, 3, 4))) static int bad_arg(struct comm *c, const struct op *o,
							   const char *fmt, ...)
{
	char what[COMM_ERRLEN];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return comm__errf(c->errbuf, sizeof(c->errbuf), COMM_E_INVAL, "rank %d (host %s): %s: %s",
			  c->rank, c->host, comm__op_display(o->coll), what);
}

static int validate(struct comm *c, const struct op *o)
{
	if (o->coll == COMM_COLL_BARRIER)
		return 0;
	if ((unsigned)o->z >= COMM_COMPRESS_COUNT)
		return bad_arg(c, o, "compression %d unknown", (int)o->z);
	if (o->z && (o->t != COMM_FP32 && o->t != COMM_FP16 && o->t != COMM_BF16))
		return bad_arg(c, o, "%s compression takes fp32, fp16 or bf16, not %s",
			       comm_compress_name(o->z), comm_dtype_name(o->t));
	if (o->z && o->op != COMM_SUM)
		return bad_arg(c, o, "%s compression takes the sum, not %s",
			       comm_compress_name(o->z), comm_op_name(o->op));
	if ((unsigned)o->t >= COMM_DTYPE_COUNT)
		return bad_arg(c, o, "dtype %d unknown", (int)o->t);
	if ((unsigned)o->op >= COMM_OP_COUNT)
		return bad_arg(c, o, "op %d unknown", (int)o->op);
	size_t es = comm_dtype_size(o->t), mult = 1;
	if (o->coll == COMM_COLL_ALLGATHER || o->coll == COMM_COLL_ALLTOALL ||
	    o->coll == COMM_COLL_REDUCESCATTER)
		mult = (size_t)c->nranks;
	if (o->count > SIZE_MAX / es / mult)
		return bad_arg(c, o, "count %zu overflows", o->count);
	if (o->count && (!o->recv || (!o->send && o->coll != COMM_COLL_BROADCAST)))
		return bad_arg(c, o, "NULL buffer");
	if (o->coll == COMM_COLL_BROADCAST && (o->root < 0 || o->root >= c->nranks))
		return bad_arg(c, o, "root %d not in 0..%d", o->root, c->nranks - 1);
	if (comm__is_p2p(o->coll) && (o->root < 0 || o->root >= c->nranks || o->root == c->rank))
		return bad_arg(c, o, "peer %d is not another rank of 0..%d", o->root,
			       c->nranks - 1);
	return 0;
}

/* The fingerprint exchange: with every rank for a collective (also a full barrier), with the
 * one peer for send/recv. */
static int fingerprint(struct comm *c, const struct comm__fp *mine, int peer)
{
	size_t n = 0;
	comm__fp_encode(mine, c->fp_out);
	c->fps[c->rank] = *mine;
	if (peer < 0)
		comm__fp_remember(c, mine);
	for (int r = 0; r < c->nranks; r++) {
		if (r == c->rank || (peer >= 0 && r != peer))
			continue;
		c->fpx[n++] = (struct comm__xfer){ r, c->fp_out, COMM__FP_LEN, &c->fps[r],
						   sizeof(c->fps[r]) };
	}
	int rc = comm__exchange(c, COMM__F_FP, -1, c->fpx, n, mine->seq);
	if (rc)
		return rc;
	if (peer < 0)
		return comm__fp_compare_all(c, c->fps, NULL);
	return comm__fp_compare_pair(c, mine, &c->fps[peer], peer);
}

static void begin(struct comm *c, int coll, int peer)
{
	c->cur_coll = coll;
	c->cur_peer = peer;
	c->cur_step = -1;
	c->op_start = mono_ms();
	c->deadline = c->op_start + c->exec_timeout_ms;
	if (coll == COMM_COLL_SEND)
		c->cur_seq = ++c->peers[peer].p2p_sent;
	else if (coll == COMM_COLL_RECV)
		c->cur_seq = ++c->peers[peer].p2p_recvd;
	else
		c->cur_seq = ++c->seq;
	c->op_sent = c->op_recvd = 0;
	c->cur_bytes = 0;
	c->hint_kind = 0;
	c->hint_rank = -1;
	struct comm__live *l = &c->live;
	atomic_store_explicit(&l->coll, coll, memory_order_relaxed);
	atomic_store_explicit(&l->seq, c->cur_seq, memory_order_relaxed);
	atomic_store_explicit(&l->step, -1, memory_order_relaxed);
	atomic_store_explicit(&l->peer, -1, memory_order_relaxed);
	atomic_store_explicit(&l->sent, 0, memory_order_relaxed);
	atomic_store_explicit(&l->recvd, 0, memory_order_relaxed);
	atomic_store_explicit(&l->op_start, c->op_start, memory_order_relaxed);
	atomic_store_explicit(&l->last_move, c->op_start, memory_order_relaxed);
	atomic_store_explicit(&l->state, COMM__HB_BUSY, memory_order_relaxed);
	if (c->profile)
		comm__prof_op(c, true);
}

/* The operation ended: idle again, unless it broke the communicator. */
static void end(struct comm *c, int rc)
{
	c->fp_lazy = c->fp_bad = false;
	comm__flight_end(c, rc);
	if (c->profile)
		comm__prof_op(c, false);
	struct comm__live *l = &c->live;
	if (!rc && c->cur_coll != COMM_COLL_SEND && c->cur_coll != COMM_COLL_RECV)
		atomic_store_explicit(&l->done_seq, c->cur_seq, memory_order_relaxed);
	atomic_store_explicit(&l->peer, -1, memory_order_relaxed);
	if (!c->broken)
		atomic_store_explicit(&l->state, COMM__HB_IDLE, memory_order_relaxed);
	c->cur_coll = -1;
}

static int broken(struct comm *c, int coll)
{
	c->cur_coll = coll;
	c->cur_step = -1;
	char pre[COMM_ERRLEN];
	snprintf(pre, sizeof(pre), "rank %d (host %s): %s", c->rank, c->host,
		 comm__op_display(coll));
	comm__errf(c->errbuf, sizeof(c->errbuf), c->broken, "%s: communicator failed earlier: %s",
		   pre, c->root_msg);
	c->cur_coll = -1;
	return c->broken;
}

/* What the ranks compare before the operation: its sequence, collective, count and type, the
 * reduction where there is one, the root where it matters. */
static struct comm__fp op_fingerprint(const struct comm *c, const struct op *o)
{
	struct comm__fp fp = { .seq = c->cur_seq, .coll = (uint8_t)o->coll, .root = -1 };
	if (o->coll != COMM_COLL_BARRIER) {
		fp.count = o->count;
		fp.dtype = (uint8_t)o->t;
	}
	if (o->coll == COMM_COLL_ALLREDUCE || o->coll == COMM_COLL_REDUCESCATTER)
		fp.op = (uint8_t)o->op;
	if (!c->lines && comm__flat_ready(c))
		fp.flags = COMM__FP_LINES;
	if (o->coll == COMM_COLL_BROADCAST || comm__is_p2p(o->coll))
		fp.root = o->root;
	return fp;
}

/* A send or a receive: its fingerprint to the peer, then its one transfer. */
static int run_p2p(struct comm *c, const struct op *o, const struct comm__fp *fp, size_t es)
{
	int rc = fingerprint(c, fp, o->root);
	if (rc)
		return rc;
	struct comm__xfer x = { o->root, NULL, 0, NULL, 0 };
	if (o->coll == COMM_COLL_SEND) {
		x.sbuf = o->send;
		x.slen = o->count * es;
	} else {
		x.rbuf = o->recv;
		x.rlen = o->count * es;
	}
	return comm__exchange(c, COMM__F_DATA, 0, &x, 1, c->cur_seq);
}

static int execute(struct comm *c, const struct op *o)
{
	int rc = validate(c, o);
	if (rc)
		return rc;
	if (c->broken)
		return broken(c, o->coll);
	begin(c, o->coll, comm__is_p2p(o->coll) ? o->root : -1);
	size_t es = o->coll == COMM_COLL_BARRIER ? 0 : comm_dtype_size(o->t);
	struct comm__fp fp = op_fingerprint(c, o);
	enum comm_algo algo = COMM_ALGO_AUTO;
	if (o->z) /* its own algorithm: direct, or its sums around the ring */
		algo = c->algo == COMM_ALGO_RING ? COMM_ALGO_RING : COMM_ALGO_MESH;
	else if (!comm__is_p2p(o->coll))
		algo = comm__select_here((enum comm_coll)o->coll, o->count * es, c->nranks, c->algo,
					 c->one_host);
	fp.algo = (uint8_t)algo;
	struct comm__fp flight_fp = fp; /* the recorder shows an allreduce's root as -1 */
	if (o->coll == COMM_COLL_ALLREDUCE && o->z)
		fp.root = (int32_t)o->z;
	c->cur_bytes = o->count * es;
	comm__flight_begin(c, &flight_fp, o->count * es,
			   o->coll == COMM_COLL_ALLREDUCE || o->coll == COMM_COLL_REDUCESCATTER,
			   o->coll != COMM_COLL_BARRIER);
	c->last_algo = algo;
	if (comm__is_p2p(o->coll)) {
		rc = run_p2p(c, o, &fp, es);
		end(c, rc);
		return rc;
	}
	bool flat = !o->z && comm__flat_takes(o->coll, o->count * es, algo);
	if (flat && c->lines) {
		rc = comm__flat_allreduce(c, o->send, o->recv, o->count, o->t, o->op, &fp);
		end(c, rc);
		return rc;
	}
	/* a collective checks the fingerprints as they arrive, its first data behind ours;
	 * where every rank's data reaches every rank, only those of the data's senders */
	bool reach = o->coll == COMM_COLL_ALLREDUCE || o->coll == COMM_COLL_ALLGATHER ||
		     o->coll == COMM_COLL_REDUCESCATTER || o->coll == COMM_COLL_ALLTOALL;
	comm__fp_post(c, &fp, !(reach && o->count && es));
	c->ctx.scratch = c->scratch;
	c->ctx.scratch_len = c->scratch_len;
	if (o->z)
		rc = comm__allreduce_q8(&c->ctx, o->send, o->recv, o->count, o->t,
					algo == COMM_ALGO_RING);
	else
		rc = comm__run(&c->ctx, (enum comm_coll)o->coll, algo, o->send, o->recv, o->count,
			       o->t, o->op, o->root);
	if (rc && !c->broken)
		rc = comm__fail(c, rc, "%s algorithm failed: %s", comm_algo_name(algo),
				comm_status_name(rc));
	else if (rc)
		rc = c->broken; /* the engine's code, whatever the algorithm made of it */
	else
		rc = comm__fp_drain(c);
	if (!rc && flat)
		comm__flat_agree(c);
	end(c, rc);
	return rc;
}

int comm__split_exchange(struct comm *c, const int32_t mine[3], int32_t *all)
{
	if (c->broken)
		return broken(c, COMM__COLL_SPLIT);
	begin(c, COMM__COLL_SPLIT, -1);
	struct comm__fp fp = { .seq = c->cur_seq, .coll = COMM__COLL_SPLIT, .root = -1 };
	comm__flight_begin(c, &fp, 12, false, false);
	int rc = fingerprint(c, &fp, -1);
	unsigned char *buf = NULL;
	struct comm__xfer *x = NULL;
	if (rc)
		goto out;
	buf = calloc((size_t)c->nranks, 12);
	x = calloc((size_t)c->nranks, sizeof(*x));
	if (!buf || !x) {
		rc = comm__fail(c, COMM_E_NOMEM, "out of memory");
		goto out;
	}
	unsigned char *me = buf + 12 * c->rank;
	for (int k = 0; k < 3; k++)
		for (int b = 0; b < 4; b++)
			me[4 * k + b] = (unsigned char)((uint32_t)mine[k] >> (24 - 8 * b));
	size_t n = 0;
	for (int r = 0; r < c->nranks; r++)
		if (r != c->rank)
			x[n++] = (struct comm__xfer){ r, me, 12, buf + 12 * r, 12 };
	c->cur_step = 0;
	rc = comm__exchange(c, COMM__F_DATA, 0, x, n, c->cur_seq);
	if (rc)
		goto out;
	for (int r = 0; r < c->nranks; r++)
		for (int k = 0; k < 3; k++) {
			const unsigned char *p = buf + 12 * r + 4 * k;
			all[3 * r + k] = (int32_t)((uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
						   (uint32_t)p[2] << 8 | p[3]);
		}
out:
	end(c, rc);
	free(buf);
	free(x);
	return rc;
}

/* ---- the worker thread for non-blocking requests ---- */

static void *worker(void *arg)
{
	struct comm *c = arg;
	pthread_mutex_lock(&c->mu);
	for (;;) {
		while (!c->qhead && !c->stopping)
			pthread_cond_wait(&c->cv, &c->mu);
		if (!c->qhead)
			break;
		struct comm_req *r = c->qhead;
		c->qhead = r->next;
		if (!c->qhead)
			c->qtail = NULL;
		pthread_mutex_unlock(&c->mu);
		int rc = execute(c, &r->op);
		pthread_mutex_lock(&c->mu);
		r->status = rc;
		if (rc)
			comm__strlcpy(r->err, c->errbuf, sizeof(r->err));
		r->done = true;
		pthread_cond_broadcast(&c->cv);
	}
	pthread_mutex_unlock(&c->mu);
	return NULL;
}

void comm__worker_stop(struct comm *c)
{
	if (!c->worker_on)
		return;
	pthread_mutex_lock(&c->mu);
	c->stopping = true;
	pthread_cond_broadcast(&c->cv);
	pthread_mutex_unlock(&c->mu);
	pthread_join(c->worker, NULL);
	c->worker_on = false;
}

static int submit(struct comm *c, const struct op *o, struct comm_req **out)
{
	struct comm_req *r = calloc(1, sizeof(*r));
	if (!r)
		return comm__errf(c->user_err, sizeof(c->user_err), COMM_E_NOMEM,
				  "rank %d: out of memory for a request", c->rank);
	r->c = c;
	r->op = *o;
	pthread_mutex_lock(&c->mu);
	if (!c->worker_on) {
		int e = pthread_create(&c->worker, NULL, worker, c);
		if (e) {
			pthread_mutex_unlock(&c->mu);
			free(r);
			return comm__errf(c->user_err, sizeof(c->user_err), COMM_E_SYS,
					  "rank %d: cannot start the progress thread: %s", c->rank,
					  strerror(e));
		}
		c->worker_on = true;
	}
	if (c->qtail)
		c->qtail->next = r;
	else
		c->qhead = r;
	c->qtail = r;
	pthread_cond_broadcast(&c->cv);
	pthread_mutex_unlock(&c->mu);
	*out = r;
	return 0;
}

int comm_wait(struct comm_req *r)
{
	if (!r)
		return COMM_E_INVAL;
	struct comm *c = r->c;
	pthread_mutex_lock(&c->mu);
	while (!r->done)
		pthread_cond_wait(&c->cv, &c->mu);
	pthread_mutex_unlock(&c->mu);
	int rc = r->status;
	if (rc)
		comm__strlcpy(c->user_err, r->err, sizeof(c->user_err));
	free(r);
	return rc;
}

static int blocking(struct comm *c, const struct op *o)
{
	if (!c)
		return COMM_E_INVAL;
	if (c->worker_on) { /* behind the non-blocking ones already queued */
		struct comm_req *r;
		int rc = submit(c, o, &r);
		return rc ? rc : comm_wait(r);
	}
	int rc = execute(c, o);
	if (rc)
		comm__strlcpy(c->user_err, c->errbuf, sizeof(c->user_err));
	return rc;
}

static int nonblocking(struct comm *c, const struct op *o, struct comm_req **req)
{
	if (!c || !req)
		return COMM_E_INVAL;
	*req = NULL;
	return submit(c, o, req);
}

int comm_allreduce(struct comm *c, const void *send, void *recv, size_t count, enum comm_dtype t,
		   enum comm_op op)
{
	struct op o = { COMM_COLL_ALLREDUCE, send, recv, count, t, op, -1, COMM_COMPRESS_NONE };
	return blocking(c, &o);
}

int comm_allreduce_compressed(struct comm *c, const void *send, void *recv, size_t count,
			      enum comm_dtype t, enum comm_op op, enum comm_compress z)
{
	struct op o = { COMM_COLL_ALLREDUCE, send, recv, count, t, op, -1, z };
	return blocking(c, &o);
}

int comm_iallreduce_compressed(struct comm *c, const void *send, void *recv, size_t count,
			       enum comm_dtype t, enum comm_op op, enum comm_compress z,
			       struct comm_req **req)
{
	struct op o = { COMM_COLL_ALLREDUCE, send, recv, count, t, op, -1, z };
	return nonblocking(c, &o, req);
}

int comm_allgather(struct comm *c, const void *send, void *recv, size_t count, enum comm_dtype t)
{
	struct op o = { COMM_COLL_ALLGATHER, send, recv, count,
		        t, COMM_SUM, -1, COMM_COMPRESS_NONE };
	return blocking(c, &o);
}

int comm_reduce_scatter(struct comm *c, const void *send, void *recv, size_t count,
			enum comm_dtype t, enum comm_op op)
{
	struct op o = { COMM_COLL_REDUCESCATTER, send, recv, count, t, op, -1, COMM_COMPRESS_NONE };
	return blocking(c, &o);
}

int comm_broadcast(struct comm *c, void *buf, size_t count, enum comm_dtype t, int root)
{
	struct op o = { COMM_COLL_BROADCAST, buf, buf, count,
		        t, COMM_SUM, root, COMM_COMPRESS_NONE };
	return blocking(c, &o);
}

int comm_alltoall(struct comm *c, const void *send, void *recv, size_t count, enum comm_dtype t)
{
	struct op o = { COMM_COLL_ALLTOALL, send, recv, count,
		        t, COMM_SUM, -1, COMM_COMPRESS_NONE };
	return blocking(c, &o);
}

int comm_send(struct comm *c, const void *buf, size_t count, enum comm_dtype t, int peer)
{
	struct op o = { COMM_COLL_SEND, buf, (void *)(uintptr_t)buf, count,
		        t, COMM_SUM, peer, COMM_COMPRESS_NONE };
	return blocking(c, &o);
}

int comm_recv(struct comm *c, void *buf, size_t count, enum comm_dtype t, int peer)
{
	struct op o = { COMM_COLL_RECV, buf, buf, count, t, COMM_SUM, peer, COMM_COMPRESS_NONE };
	return blocking(c, &o);
}

int comm_barrier(struct comm *c)
{
	struct op o = { COMM_COLL_BARRIER, NULL, NULL, 0,
		        COMM_INT8, COMM_SUM, -1, COMM_COMPRESS_NONE };
	return blocking(c, &o);
}

int comm_iallreduce(struct comm *c, const void *send, void *recv, size_t count,
		    enum comm_dtype t, enum comm_op op, struct comm_req **req)
{
	struct op o = { COMM_COLL_ALLREDUCE, send, recv, count, t, op, -1, COMM_COMPRESS_NONE };
	return nonblocking(c, &o, req);
}

int comm_iallgather(struct comm *c, const void *send, void *recv, size_t count,
		    enum comm_dtype t, struct comm_req **req)
{
	struct op o = { COMM_COLL_ALLGATHER, send, recv, count,
		        t, COMM_SUM, -1, COMM_COMPRESS_NONE };
	return nonblocking(c, &o, req);
}

int comm_ireduce_scatter(struct comm *c, const void *send, void *recv, size_t count,
			 enum comm_dtype t, enum comm_op op, struct comm_req **req)
{
	struct op o = { COMM_COLL_REDUCESCATTER, send, recv, count, t, op, -1, COMM_COMPRESS_NONE };
	return nonblocking(c, &o, req);
}

int comm_ibroadcast(struct comm *c, void *buf, size_t count, enum comm_dtype t, int root,
		    struct comm_req **req)
{
	struct op o = { COMM_COLL_BROADCAST, buf, buf, count,
		        t, COMM_SUM, root, COMM_COMPRESS_NONE };
	return nonblocking(c, &o, req);
}

int comm_ialltoall(struct comm *c, const void *send, void *recv, size_t count,
		   enum comm_dtype t, struct comm_req **req)
{
	struct op o = { COMM_COLL_ALLTOALL, send, recv, count,
		        t, COMM_SUM, -1, COMM_COMPRESS_NONE };
	return nonblocking(c, &o, req);
}
