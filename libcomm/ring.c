/* Ring algorithms: bandwidth-optimal for large messages, every rank talks only to its two
 * neighbours (left = rank-1, right = rank+1), so traffic is contention-free on any switch.
 *
 * allreduce = reduce-scatter then allgather, N-1 steps each. Every element is reduced exactly
 * once, on one rank, in one fixed order (the chain of ranks its block travels), and then
 * copied around the ring, so all ranks end with identical bits.
 *
 * Pipelining: a reduce-scatter step's block is cut into sub-chunks of at most CHUNK bytes,
 * each moved by its own exchange call and reduced as soon as it lands. The exchange call is
 * blocking, so the overlap comes from the socket buffers: while this rank reduces chunk k, its
 * left neighbour is already sending chunk k+1 into our receive buffer. Chunks also keep the
 * reduction cache-resident and the scratch bounded (one chunk). Broadcast is a chain in which
 * chunk k leaves rank i while chunk k+1 arrives, so all links carry data at once. */
#include <string.h>

#include "libcomm/algo.h"

/* Small enough to sit in the kernel socket buffers (so the next chunk streams in while this
 * one is reduced) and in L2; large enough that the per-exchange cost is a few percent. */
#define CHUNK ((size_t)512 << 10)

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

/* Reduce-scatter around the ring. At step s rank r sends block r-s+k0 and receives block
 * r-s-1+k0, so it ends owning block r+1+k0 fully reduced. src holds the raw input; the
 * partial of block b is kept at acc + off(b) (acc_fixed: always at acc, as reduce-scatter
 * out of place has only one block of room: chunk k of the partial being sent is sent by
 * exchange call k before call k's reduction overwrites it). */
static int ring_rs(struct comm__ctx *x, const struct layout *l, const char *src, char *acc,
		   int acc_fixed, enum comm_dtype t, enum comm_op op, int k0)
{
	int r = x->rank, n = x->nranks, right = mod(r + 1, n), left = mod(r - 1, n);
	size_t es = esize(t), maxb, nchunk, piece, o0;
	char *tmp;
	int rc;

	blk(l, 0, &o0, &maxb); /* block 0 is never smaller than any other */
	nchunk = maxb * es > CHUNK ? (maxb * es + CHUNK - 1) / CHUNK : 1;
	piece = (maxb + nchunk - 1) / nchunk;
	if ((rc = x->need_scratch(x, piece * es)) != 0)
		return rc;
	tmp = x->scratch;

	for (int s = 0; s < n - 1; s++) {
		int sb = mod(r - s + k0, n), rb = mod(r - s - 1 + k0, n);
		size_t soff, slen, roff, rlen;

		blk(l, sb, &soff, &slen);
		blk(l, rb, &roff, &rlen);
		const char *sbase = s == 0 ? src + soff * es : acc + (acc_fixed ? 0 : soff * es);
		char *dbase = acc + (acc_fixed ? 0 : roff * es);
		for (size_t k = 0; k < nchunk; k++) {
			size_t so, sl, ro, rl;

			split(slen, nchunk, k, &so, &sl);
			split(rlen, nchunk, k, &ro, &rl);
			rc = comm__sendrecv(x, s, right, sbase + so * es, sl * es, left, tmp, rl * es);
			if (rc)
				return rc;
			/* mine op incoming: one fixed order for every element */
			comm__reduce3(t, op, dbase + ro * es, src + (roff + ro) * es, tmp, rl);
		}
	}
	return 0;
}

/* Allgather around the ring on buf: at step s send block r-s+k0 and receive block r-s-1+k0.
 * No reduction, so no sub-chunks: each step is one exchange straight into place. */
static int ring_ag(struct comm__ctx *x, const struct layout *l, char *buf, enum comm_dtype t,
		   int k0, int step0)
{
	int r = x->rank, n = x->nranks, right = mod(r + 1, n), left = mod(r - 1, n);
	size_t es = esize(t);
	int rc;

	for (int s = 0; s < n - 1; s++) {
		size_t soff, slen, roff, rlen;

		blk(l, mod(r - s + k0, n), &soff, &slen);
		blk(l, mod(r - s - 1 + k0, n), &roff, &rlen);
		rc = comm__sendrecv(x, step0 + s, right, buf + soff * es, slen * es, left,
			      buf + roff * es, rlen * es);
		if (rc)
			return rc;
	}
	return 0;
}

int comm__allreduce_ring(struct comm__ctx *x, const void *send, void *recv, size_t count,
			 enum comm_dtype t, enum comm_op op)
{
	struct layout l = {.count = count, .n = x->nranks, .uniform = 0};
	int rc;

	if (count == 0)
		return 0;
	if (x->nranks == 1) {
		if (send != recv)
			memmove(recv, send, count * esize(t));
		return 0;
	}
	/* rank r ends the reduce-scatter owning block r+1, the allgather starts from it */
	rc = ring_rs(x, &l, send, recv, 0, t, op, 0);
	if (rc)
		return rc;
	return ring_ag(x, &l, recv, t, 1, x->nranks - 1);
}

int comm__reduce_scatter_ring(struct comm__ctx *x, const void *send, void *recv, size_t count,
			      enum comm_dtype t, enum comm_op op)
{
	struct layout l = {.count = count, .n = x->nranks, .uniform = 1};
	size_t cb = count * esize(t), total = cb * (size_t)x->nranks;
	const char *s = send;
	char *d = recv;
	int rc;

	if (count == 0)
		return 0;
	if (x->nranks == 1) {
		if (send != recv)
			memmove(recv, send, cb);
		return 0;
	}
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
