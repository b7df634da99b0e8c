/* Ring algorithms: bandwidth-optimal for large messages, every rank talks only to its two
 * neighbours (left = rank-1, right = rank+1), so traffic is contention-free on any switch.
 *
 * allreduce = reduce-scatter then allgather, N-1 steps each. Every element is reduced exactly
 * once, on one rank, in one fixed order (the chain of ranks its block travels), and then
 * copied around the ring, so all ranks end with identical bits.
 *
 * Pipelining: every step's block is cut into sub-chunks of at most CHUNK bytes, each moved by
 * its own exchange call (and reduced as soon as it lands), and a rank's sends run up to DEPTH
 * chunks ahead of its receives where the transport guarantees the buffer for them
 * (ctx->send_ahead; see ring_pipe). The links then stay busy while a rank reduces or waits
 * for a core: with 8 ranks sharing 2 cores, the ring ran at 0.82 of a 1 Gbit/s link with
 * lock-step chunks and at 0.98 with sends two chunks ahead. Chunks also keep the reduction
 * cache-resident and the scratch bounded (one chunk). Broadcast is a chain in which
 * chunk k leaves rank i while chunk k+1 arrives, so all links carry data at once. */
#include <string.h>

#include "libcomm/algo.h"

/* Small enough to sit in the kernel socket buffers (so the next chunk streams in while this
 * one is reduced) and in L2; large enough that the per-exchange cost is a few percent. */
#define CHUNK ((size_t)512 << 10)
#define MIN_CHUNK ((size_t)64 << 10)
/* Chunks a rank's sends run ahead of its receives (see ring_pipe). */
#define DEPTH 2

static size_t esize(enum comm_dtype t)
{
	return comm_dtype_size(t);
}

/* Part b of count elements split into n near-equal parts (the first count % n get one more). */
static void split(size_t count, size_t n, size_t b, size_t *off, size_t *len)
{
	size_t q = count / n, r = count % n;

	*off = b * q + (b < r ? b : r);
	*len = q + (b < r);
}

static int mod(int a, int n)
{
	return ((a % n) + n) % n;
}


/* Block layout: uniform blocks of `count` (reduce-scatter, allgather) or `count` split in
 * nranks near-equal blocks (allreduce). */
struct layout {
	size_t count;
	int n;
	int uniform;
};

static void blk(const struct layout *l, int b, size_t *off, size_t *len)
{
	if (l->uniform) {
		*off = (size_t)b * l->count;
		*len = l->count;
	} else {
		split(l->count, (size_t)l->n, (size_t)b, off, len);
	}
}

/* The ring as one pipeline of units: unit u = s*K + k is chunk k of the block a rank sends
 * (and of the one it receives) at ring step s, steps [0, rs_steps) reducing, the rest
 * forwarding. A unit's send needs the unit K earlier received (and reduced), so sends run up
 * to `depth` units ahead of the receive being waited for: exchange call u receives unit u
 * and posts the send of unit u+depth (call 0 posts units 0..depth). The link then always has
 * `depth` chunks queued in the socket, and a rank that is late (several ranks share a core)
 * does not leave its right neighbour's link idle. Frames keep their order on the wire, so the
 * receiver takes them one by one in unit order. */
struct pipe {
	const struct layout *l;
	int k0;       /* block offset: at step s send block r-s+k0, receive block r-s-1+k0 */
	int rs_steps; /* the first rs_steps steps reduce (src + acc), the rest forward (acc) */
	int steps, step0;
	size_t nchunk, depth, es;
	const char *src; /* raw input (reduce steps) */
	char *acc;       /* partials and results, at the blocks' offsets unless acc_fixed */
	int acc_fixed;   /* reduce-scatter out of place: one block of room at acc */
	enum comm_dtype t;
	enum comm_op op;
};

/* Chunks per block and how many units sends run ahead. Ahead of the peer's receives, the
 * bytes in flight on a link are at most depth chunks, so depth * chunk <= send_ahead keeps
 * the ring deadlock-free: for every rank to be stuck on a full send buffer, the depth
 * chunks of every link would have to exceed its buffer. */
static size_t chunks(size_t maxb, size_t ahead, size_t *depth)
{
	size_t k = maxb > CHUNK ? (maxb + CHUNK - 1) / CHUNK : 1, c, d;

	/* mid sizes: cut a block into up to DEPTH+1 chunks (no smaller than MIN_CHUNK) so that
	 * sends can run ahead at all */
	if (ahead >= MIN_CHUNK && k < DEPTH + 1 && maxb >= 2 * MIN_CHUNK)
		k = maxb / MIN_CHUNK < DEPTH + 1 ? maxb / MIN_CHUNK : DEPTH + 1;
	c = (maxb + k - 1) / k; /* the largest chunk */
	d = c ? ahead / c : 0;
	d = d < DEPTH ? d : DEPTH;
	*depth = d < k - 1 ? d : k - 1;
	return k;
}

/* Where unit u's send comes from (*sb, *sl bytes) or its receive goes (*rb, *rl). */
static void unit_send(const struct pipe *p, int r, size_t u, const char **sb, size_t *sl)
{
	int n = p->l->n, s = (int)(u / p->nchunk);
	size_t k = u % p->nchunk, off, len, o, cl;

	blk(p->l, mod(r - s + p->k0, n), &off, &len);
	split(len, p->nchunk, k, &o, &cl);
	*sl = cl * p->es;
	if (s == 0 && p->rs_steps > 0)
		*sb = p->src + (off + o) * p->es;
	else
		*sb = p->acc + ((p->acc_fixed ? 0 : off) + o) * p->es;
}

static void unit_recv(const struct pipe *p, int r, size_t u, size_t *off, size_t *o, size_t *cl)
{
	int n = p->l->n, s = (int)(u / p->nchunk);
	size_t len;

	blk(p->l, mod(r - s - 1 + p->k0, n), off, &len);
	split(len, p->nchunk, u % p->nchunk, o, cl);
}

static int ring_pipe(struct comm__ctx *x, const struct pipe *p)
{
	int r = x->rank, n = x->nranks, right = mod(r + 1, n), left = mod(r - 1, n);
	size_t units = (size_t)p->steps * p->nchunk, es = p->es, next = 0;
	struct comm__xfer xf[DEPTH + 2];
	char *tmp = NULL;
	int rc;

	if (p->rs_steps) {
		size_t off, len;

		blk(p->l, 0, &off, &len); /* block 0 is never smaller than any other */
		if ((rc = x->need_scratch(x, ((len + p->nchunk - 1) / p->nchunk) * es)) != 0)
			return rc;
		tmp = x->scratch;
	}
	for (size_t u = 0; u < units; u++) {
		int s = (int)(u / p->nchunk);
		size_t nx = 0, off, o, cl;

		for (; next < units && next <= u + p->depth; next++) {
			const char *sb;
			size_t sl;

			unit_send(p, r, next, &sb, &sl);
			if (sl)
				xf[nx++] = (struct comm__xfer){.peer = right, .sbuf = sb, .slen = sl};
		}
		unit_recv(p, r, u, &off, &o, &cl);
		char *dst = s < p->rs_steps ? tmp : p->acc + (off + o) * es;
		if (cl)
			xf[nx++] = (struct comm__xfer){.peer = left, .rbuf = dst, .rlen = cl * es};
		if (nx && (rc = x->exchange(x, p->step0 + s, xf, nx)) != 0)
			return rc;
		if (s < p->rs_steps && cl) /* mine op incoming: one fixed order for every element */
			comm__reduce3(p->t, p->op, p->acc + ((p->acc_fixed ? 0 : off) + o) * es,
				      p->src + (off + o) * es, tmp, cl);
	}
	return 0;
}

static struct pipe pipe_of(const struct comm__ctx *x, const struct layout *l, int k0,
			   int rs_steps, int steps, int step0, enum comm_dtype t)
{
	struct pipe p = {.l = l, .k0 = k0, .rs_steps = rs_steps, .steps = steps,
			 .step0 = step0, .es = esize(t), .t = t};
	size_t off, maxb;

	blk(l, 0, &off, &maxb);
	p.nchunk = chunks(maxb * p.es, x->send_ahead, &p.depth);
	return p;
}

/* Reduce-scatter around the ring. At step s rank r sends block r-s+k0 and receives block
 * r-s-1+k0, so it ends owning block r+1+k0 fully reduced. src holds the raw input; the
 * partial of block b is kept at acc + off(b) (acc_fixed: always at acc, as reduce-scatter
 * out of place has only one block of room: a unit's send is posted, and so copied into the
 * socket, in an exchange call no later than the one whose reduction overwrites it). */
static int ring_rs(struct comm__ctx *x, const struct layout *l, const char *src, char *acc,
		   int acc_fixed, enum comm_dtype t, enum comm_op op, int k0)
{
	struct pipe p = pipe_of(x, l, k0, x->nranks - 1, x->nranks - 1, 0, t);

	p.src = src;
	p.acc = acc;
	p.acc_fixed = acc_fixed;
	p.op = op;
	return ring_pipe(x, &p);
}

/* Allgather around the ring on buf: at step s send block r-s+k0 and receive block r-s-1+k0,
 * straight into place. */
static int ring_ag(struct comm__ctx *x, const struct layout *l, char *buf, enum comm_dtype t,
		   int k0, int step0)
{
	struct pipe p = pipe_of(x, l, k0, 0, x->nranks - 1, step0, t);

	p.acc = buf;
	return ring_pipe(x, &p);
}

int comm__allreduce_ring(struct comm__ctx *x, const void *send, void *recv, size_t count,
			 enum comm_dtype t, enum comm_op op)
{
	struct layout l = {.count = count, .n = x->nranks, .uniform = 0};

	if (comm__alone(x, send, recv, count * esize(t)))
		return 0;
	/* rank r ends the reduce-scatter owning block r+1, and the allgather starts from it:
	 * at its step s' it sends block r-s'+1 = r-(s'+n-1) mod n, so both phases are one
	 * pipeline of 2(n-1) steps with the same block formula, and sends run ahead across the
	 * boundary too */
	struct pipe p = pipe_of(x, &l, 0, x->nranks - 1, 2 * (x->nranks - 1), 0, t);

	p.src = send;
	p.acc = recv;
	p.op = op;
	return ring_pipe(x, &p);
}

int comm__reduce_scatter_ring(struct comm__ctx *x, const void *send, void *recv, size_t count,
			      enum comm_dtype t, enum comm_op op)
{
	struct layout l = {.count = count, .n = x->nranks, .uniform = 1};
	size_t cb = count * esize(t), total = cb * (size_t)x->nranks;
	const char *s = send;
	char *d = recv;
	int rc;

	if (comm__alone(x, send, recv, cb))
		return 0;
	if (d + cb <= s || d >= s + total)
		/* out of place: the partial lives in recv, one block of room */
		return ring_rs(x, &l, s, d, 1, t, op, -1);
	/* in place: each block's partial replaces its own raw block in the caller's buffer
	 * (that raw block is consumed by the same reduction; the buffer is the caller's recv,
	 * so writable), then ours moves to recv */
	rc = ring_rs(x, &l, s, (char *)send, 0, t, op, -1);
	if (rc)
		return rc;
	if (s + (size_t)x->rank * cb != d)
		memmove(d, s + (size_t)x->rank * cb, cb);
	return 0;
}

int comm__allgather_ring(struct comm__ctx *x, const void *send, void *recv, size_t count,
			 enum comm_dtype t)
{
	struct layout l = {.count = count, .n = x->nranks, .uniform = 1};
	size_t cb = count * esize(t);
	char *mine = (char *)recv + (size_t)x->rank * cb;

	if (count == 0)
		return 0;
	if (send != mine) /* in place (send == recv) included: memmove copes with overlap */
		memmove(mine, send, cb);
	return ring_ag(x, &l, recv, t, 0, 0);
}

static size_t isqrt(size_t v)
{
	size_t r = 0, bit = (size_t)1 << (sizeof(size_t) * 8 - 2);

	while (bit > v)
		bit >>= 2;
	while (bit) {
		if (v >= r + bit) {
			v -= r + bit;
			r = (r >> 1) + bit;
		} else {
			r >>= 1;
		}
		bit >>= 2;
	}
	return r;
}

/* Pipelined chain root -> root+1 -> ... -> root-1. With K chunks it takes K+N-2 exchange
 * calls; call c moves chunk c-p+1 into the rank at chain position p and chunk c-p out of it.
 * The chunk size balances per-call latency against fill time: K* = sqrt((N-2) n beta /
 * alpha) for a chain, i.e. chunk ~ sqrt(n * alpha/beta / (N-1)) with alpha/beta ~ 32 KB
 * (tens of microseconds at 10-25 Gbit/s), kept within [32 KiB, 1 MiB]. */
int comm__broadcast_ring(struct comm__ctx *x, void *buf, size_t count, enum comm_dtype t, int root)
{
	int n = x->nranks, p = mod(x->rank - root, n);
	int next = mod(x->rank + 1, n), prev = mod(x->rank - 1, n);
	size_t es = esize(t), bytes = count * es, chunk, nchunk;
	char *b = buf;

	if (count == 0 || n == 1)
		return 0;
	chunk = isqrt(bytes / (size_t)(n - 1) * 32768);
	chunk = chunk < ((size_t)32 << 10) ? (size_t)32 << 10 : chunk;
	chunk = chunk > ((size_t)1 << 20) ? (size_t)1 << 20 : chunk;
	nchunk = n == 2 ? 1 : (bytes + chunk - 1) / chunk; /* one hop: nothing to overlap */
	if (nchunk > count)
		nchunk = count;

	for (size_t c = 0; c + 1 < nchunk + (size_t)n - 1; c++) {
		size_t so = 0, sl = 0, ro = 0, rl = 0;
		long cs = (long)c - p, cr = (long)c - p + 1;

		if (p < n - 1 && cs >= 0 && (size_t)cs < nchunk)
			split(count, nchunk, (size_t)cs, &so, &sl);
		if (p > 0 && cr >= 0 && (size_t)cr < nchunk)
			split(count, nchunk, (size_t)cr, &ro, &rl);
		int rc =
			comm__sendrecv(x, (int)c, next, b + so * es, sl * es, prev, b + ro * es, rl * es);
		if (rc)
			return rc;
	}
	return 0;
}
