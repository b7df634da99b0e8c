/* Direct (mesh) algorithms for small worlds: every rank exchanges with every other rank in
 * one step, so a collective costs one or two network latencies however large N/2 is, at the
 * price of N-1 concurrent flows per rank (fine for N <= 4 or so; incast beyond).
 *
 * allreduce = direct reduce-scatter (block j of every rank goes to rank j, which reduces all
 * N contributions in rank order 0..N-1) + direct allgather; up to 4 KiB, the whole vector to
 * every rank in one step. alltoall = pairwise exchange in
 * N-1 steps (step s: send to r+s, receive from r-s), one flow per direction per step.
 *
 * A step with more than BATCH peers is issued as several exchange calls, each pairing
 * "send to r+o" with "receive from r-o" for the same offsets o, so every call's partners are
 * in their own call with the same offsets: no rank can wait on a peer that is waiting on a
 * later batch. */
#include <string.h>

#include "libcomm/algo.h"


static int mod(int a, int n)
{
	return ((a % n) + n) % n;
}

static void split(size_t count, size_t n, size_t b, size_t *off, size_t *len)
{
	size_t q = count / n, r = count % n;

	*off = b * q + (b < r ? b : r);
	*len = q + (b < r);
}


/* Where the data for (or from) each peer is: block `peer` of count elements split in N
 * (split), or len bytes at base + peer * stride (stride 0: one buffer for every peer). */
struct side {
	const char *base;
	int split;
	size_t stride, len;
};

static const char *at(const struct side *s, int peer, int n, size_t count, size_t es, size_t *len)
{
	size_t off;

	if (!s->base) {
		*len = 0;
		return NULL;
	}
	if (s->split) {
		split(count, (size_t)n, (size_t)peer, &off, len);
		*len *= es;
		return s->base + off * es;
	}
	*len = s->len;
	return s->base + (size_t)peer * s->stride;
}

struct sides {
	const struct side *snd, *rcv;
	int n;
	size_t count, es;
};

static void side_bufs(const void *arg, int to, int from, const void **sb, size_t *sl, void **rb,
		      size_t *rl)
{
	const struct sides *s = arg;
	*sb = at(s->snd, to, s->n, s->count, s->es, sl);
	*rb = (char *)at(s->rcv, from, s->n, s->count, s->es, rl); /* rcv->base is ours */
}

/* One direct step with all peers: send to each what `snd` says, receive where `rcv` says. */
static int direct(struct comm__ctx *x, int step, const struct side *snd, const struct side *rcv,
		  size_t count, size_t es)
{
	struct sides s = { snd, rcv, x->nranks, count, es };
	return comm__direct(x, step, side_bufs, &s);
}

void comm__reduce_in_order(int n, int r, void *out, const void *mine_v, const void *slots_v,
			   size_t slot_bytes, size_t elems, enum comm_dtype t, enum comm_op op)
{
	char *dst = out;
	const char *mine = mine_v, *slots = slots_v;
	const char *c0 = r == 0 ? mine : slots;
	const char *c1 = r == 1 ? mine : slots + slot_bytes;

	comm__reduce3(t, op, dst, c0, c1, elems);
	for (int j = 2; j < n; j++)
		comm__reduce(t, op, dst, j == r ? mine : slots + (size_t)j * slot_bytes, elems);
}

/* A tiny vector goes whole to every peer in one step and every rank reduces all N in rank
 * order (the same chain everywhere, so identical bits): one network latency instead of
 * two, for N-1 times the bytes, which at this size cost less than a latency. */
#define ONE_STEP_MAX ((size_t)4 << 10)

static int allreduce_one_step(struct comm__ctx *x, const void *send, void *recv, size_t count,
			      enum comm_dtype t, enum comm_op op)
{
	int n = x->nranks, r = x->rank, rc;
	size_t es = comm_dtype_size(t), vb = count * es;
	const char *mine = send;

	if ((rc = x->need_scratch(x, vb * (size_t)n)) != 0)
		return rc;
	struct side snd = {.base = send, .len = vb};
	struct side rcv = {.base = x->scratch, .stride = vb, .len = vb};
	if ((rc = direct(x, 0, &snd, &rcv, count, es)) != 0)
		return rc;
	if (send == recv && r >= 2) { /* the first reduction overwrites ours before its turn */
		memcpy((char *)x->scratch + (size_t)r * vb, mine, vb);
		mine = (char *)x->scratch + (size_t)r * vb;
	}
	comm__reduce_in_order(n, r, recv, mine, x->scratch, vb, count, t, op);
	return 0;
}

int comm__allreduce_mesh(struct comm__ctx *x, const void *send, void *recv, size_t count,
			 enum comm_dtype t, enum comm_op op)
{
	int n = x->nranks, r = x->rank, rc;
	size_t es = comm_dtype_size(t), off, len, slot;
	char *out = recv;
	const char *mine;

	if (comm__alone(x, send, recv, count * es))
		return 0;
	if (count * es <= ONE_STEP_MAX)
		return allreduce_one_step(x, send, recv, count, t, op);
	split(count, (size_t)n, (size_t)r, &off, &len);
	slot = (count + (size_t)n - 1) / (size_t)n * es;
	if ((rc = x->need_scratch(x, slot * (size_t)n)) != 0)
		return rc;
	/* block j of every rank to rank j, into scratch slot `sender` */
	struct side snd = {.base = send, .split = 1};
	struct side rcv = {.base = x->scratch, .stride = slot, .len = len * es};
	if ((rc = direct(x, 0, &snd, &rcv, count, es)) != 0)
		return rc;
	mine = (const char *)send + off * es;
	if (send == recv && r >= 2) { /* the first reduction overwrites ours before its turn */
		memcpy((char *)x->scratch + (size_t)r * slot, mine, len * es);
		mine = (char *)x->scratch + (size_t)r * slot;
	}
	comm__reduce_in_order(n, r, out + off * es, mine, x->scratch, slot, len, t, op);

	/* our reduced block to everyone, theirs into place */
	struct side snd2 = {.base = out + off * es, .len = len * es};
	struct side rcv2 = {.base = out, .split = 1};
	return direct(x, 1, &snd2, &rcv2, count, es);
}

int comm__reduce_scatter_mesh(struct comm__ctx *x, const void *send, void *recv, size_t count,
			      enum comm_dtype t, enum comm_op op)
{
	int n = x->nranks, r = x->rank, rc;
	size_t es = comm_dtype_size(t), cb = count * es, total = cb * (size_t)n;
	const char *s = send, *mine = s + (size_t)r * cb;
	char *d = recv;

	if (comm__alone(x, send, recv, cb))
		return 0;
	if ((rc = x->need_scratch(x, total)) != 0)
		return rc;
	struct side snd = {.base = s, .stride = cb, .len = cb};
	struct side rcv = {.base = x->scratch, .stride = cb, .len = cb};
	if ((rc = direct(x, 0, &snd, &rcv, count, es)) != 0)
		return rc;
	if (!(d + cb <= s || d >= s + total)) { /* in place: ours would be overwritten */
		memcpy((char *)x->scratch + (size_t)r * cb, mine, cb);
		mine = (char *)x->scratch + (size_t)r * cb;
	}
	comm__reduce_in_order(n, r, d, mine, x->scratch, cb, count, t, op);
	return 0;
}

int comm__allgather_mesh(struct comm__ctx *x, const void *send, void *recv, size_t count,
			 enum comm_dtype t)
{
	size_t cb = count * comm_dtype_size(t);
	char *mine = (char *)recv + (size_t)x->rank * cb;

	if (count == 0)
		return 0;
	if (send != mine)
		memmove(mine, send, cb);
	struct side snd = {.base = mine, .len = cb};
	struct side rcv = {.base = recv, .stride = cb, .len = cb};
	return direct(x, 0, &snd, &rcv, count, comm_dtype_size(t));
}

int comm__broadcast_mesh(struct comm__ctx *x, void *buf, size_t count, enum comm_dtype t, int root)
{
	size_t bytes = count * comm_dtype_size(t);

	if (count == 0 || x->nranks == 1)
		return 0;
	if (x->rank == root) {
		struct side snd = {.base = buf, .len = bytes}, none = {0};
		return direct(x, 0, &snd, &none, count, comm_dtype_size(t));
	}
	struct comm__xfer xf = {.peer = root, .rbuf = buf, .rlen = bytes};
	return x->exchange(x, 0, &xf, 1);
}

int comm__alltoall_mesh(struct comm__ctx *x, const void *send, void *recv, size_t count,
			enum comm_dtype t)
{
	int n = x->nranks, r = x->rank, rc;
	size_t cb = count * comm_dtype_size(t), total = cb * (size_t)n;
	const char *s = send;
	char *d = recv;

	if (count == 0)
		return 0;
	if (!(d + total <= s || d >= s + total)) {
		/* in place: block r-s arrives before block r+s' has left for some s < s', so
		 * the input is copied aside first */
		if ((rc = x->need_scratch(x, total)) != 0)
			return rc;
		memcpy(x->scratch, s, total);
		s = x->scratch;
	}
	if (s + (size_t)r * cb != d + (size_t)r * cb)
		memcpy(d + (size_t)r * cb, s + (size_t)r * cb, cb);
	for (int k = 1; k < n; k++) {
		struct comm__xfer xf[2];
		size_t m = 0;

		comm__xfer_add(xf, &m, mod(r + k, n), s + (size_t)mod(r + k, n) * cb, cb, NULL, 0);
		comm__xfer_add(xf, &m, mod(r - k, n), NULL, 0, d + (size_t)mod(r - k, n) * cb, cb);
		if ((rc = x->exchange(x, k - 1, xf, m)) != 0)
			return rc;
	}
	return 0;
}
