/* Recursive halving-doubling family: ~log2(N) steps, for latency-bound (small and mid) sizes.
 *
 * allreduce (Rabenseifner) and reduce-scatter for ANY N, after Thakur, Rabenseifner and Gropp
 * (IJHPCA 2005): with p2 the largest power of two <= N and rem = N - p2, the first 2*rem ranks
 * pair up and each even rank folds its whole vector into its odd neighbour (one step), the
 * p2 remaining "core" ranks run recursive halving (reduce-scatter) and, for allreduce,
 * recursive doubling (allgather), and the odd ranks hand the result back (one step).
 * Each element is reduced on exactly one rank per level, lower group first, so the result is
 * the same bits wherever it ends up.
 *
 * allgather: recursive doubling for powers of two, Bruck's algorithm (ceil(log2 N) steps, no
 * extra data) otherwise. broadcast: binomial tree. barrier: dissemination. */
#include <stdbool.h>
#include <string.h>

#include "libcomm/algo.h"

static int mod(int a, int n)
{
	return ((a % n) + n) % n;
}

static int pow2_floor(int n)
{
	int p = 1;

	while (p * 2 <= n)
		p *= 2;
	return p;
}

static int log2i(int p)
{
	int l = 0;

	while ((1 << l) < p)
		l++;
	return l;
}


/* The core of p2 ranks after the fold. Core rank v is real rank 2v+1 for v < rem (it holds
 * its even neighbour's contribution too), else v + rem. Core block b (b = 0..p2) starts at
 * element off(b): allreduce splits count in p2 near-equal blocks; reduce-scatter gives core
 * rank v the blocks of the real ranks it stands for (2v and 2v+1, or v+rem), contiguous. */
struct core {
	int n, p2, rem, steps; /* steps = log2(p2) */
	size_t count;	       /* allreduce: elements; reduce-scatter: elements per rank */
	int rs;
};

static void core_init(struct core *c, int n, size_t count, int rs)
{
	c->n = n;
	c->p2 = pow2_floor(n);
	c->rem = n - c->p2;
	c->steps = log2i(c->p2);
	c->count = count;
	c->rs = rs;
}

static int core_real(const struct core *c, int v)
{
	return v < c->rem ? 2 * v + 1 : v + c->rem;
}

static size_t core_off(const struct core *c, int b)
{
	if (c->rs)
		return c->count * (size_t)(b < c->rem ? 2 * b : b + c->rem);
	size_t q = c->count / (size_t)c->p2, r = c->count % (size_t)c->p2, ub = (size_t)b;
	return ub * q + (ub < r ? ub : r);
}

/* Core rank of real rank r, or -1 for an even rank folded out of the core. */
static int core_rank(const struct core *c, int r)
{
	if (r < 2 * c->rem)
		return (r & 1) ? r / 2 : -1;
	return r - c->rem;
}

/* Fold (step 0): even rank r < 2*rem sends its vector to r+1, which reduces it into acc as
 * the lower operand. *cur is where this rank's data is afterwards. */
static int fold(struct comm__ctx *x, const struct core *c, const char *src, char *acc, char *tmp,
		size_t bytes, size_t elems, enum comm_dtype t, enum comm_op op, const char **cur)
{
	int r = x->rank, rc;

	*cur = src;
	if (c->rem == 0 || r >= 2 * c->rem)
		return 0;
	if (!(r & 1))
		return comm__sendrecv(x, 0, r + 1, src, bytes, r + 1, NULL, 0);
	rc = comm__sendrecv(x, 0, r - 1, NULL, 0, r - 1, tmp, bytes);
	if (rc)
		return rc;
	comm__reduce3(t, op, acc, tmp, src, elems);
	*cur = acc;
	return 0;
}

/* Recursive halving over the core: at distance d = p2/2 .. 1 keep the half of the current
 * block range on our side of bit d, send the other half to v^d, reduce what comes back.
 * cur holds the input (the whole vector), results go to acc at the same offsets; tmp holds
 * half a vector. Ends with core block v of acc reduced over all ranks. */
static int halving(struct comm__ctx *x, const struct core *c, int v, const char *cur, char *acc,
		   char *tmp, enum comm_dtype t, enum comm_op op, int step0)
{
	size_t es = comm_dtype_size(t);
	int lo = 0, hi = c->p2, i = 0, rc;

	for (int d = c->p2 / 2; d >= 1; d /= 2, i++) {
		int mid = lo + d, upper = v & d;
		int klo = upper ? mid : lo, khi = upper ? hi : mid; /* kept */
		int slo = upper ? lo : mid, shi = upper ? mid : hi; /* sent */
		size_t ko = core_off(c, klo), kn = core_off(c, khi) - ko;
		size_t so = core_off(c, slo), sn = core_off(c, shi) - so;

		rc = comm__sendrecv(x, step0 + i, core_real(c, v ^ d), cur + so * es, sn * es,
			      core_real(c, v ^ d), tmp, kn * es);
		if (rc)
			return rc;
		if (upper) /* the lower group's partial is the first operand */
			comm__reduce3(t, op, acc + ko * es, tmp, cur + ko * es, kn);
		else
			comm__reduce3(t, op, acc + ko * es, cur + ko * es, tmp, kn);
		cur = acc;
		lo = klo;
		hi = khi;
	}
	return 0;
}

/* Recursive doubling over the core on buf: own range of d blocks grows to 2d each step. */
static int doubling(struct comm__ctx *x, const struct core *c, int v, char *buf, enum comm_dtype t,
		    int step0)
{
	size_t es = comm_dtype_size(t);
	int i = 0, rc;

	for (int d = 1; d < c->p2; d *= 2, i++) {
		int u = v ^ d, mlo = v & ~(d - 1), plo = u & ~(d - 1);
		size_t mo = core_off(c, mlo), mn = core_off(c, mlo + d) - mo;
		size_t po = core_off(c, plo), pn = core_off(c, plo + d) - po;

		rc = comm__sendrecv(x, step0 + i, core_real(c, u), buf + mo * es, mn * es,
			      core_real(c, u), buf + po * es, pn * es);
		if (rc)
			return rc;
	}
	return 0;
}

/* Recursive doubling on the whole vector: at distance d = 1 .. p2/2 trade the partial with
 * v^d and reduce, the lower group's first, so both sides compute the same bits. log2(p2)
 * steps where halving then doubling takes twice as many, for log2(p2) times the data: what a
 * latency-bound vector wants. cur holds the input, the result goes to acc. */
static int whole_doubling(struct comm__ctx *x, const struct core *c, int v, const char *cur,
			  char *acc, char *tmp, size_t count, enum comm_dtype t, enum comm_op op,
			  int step0)
{
	size_t bytes = count * comm_dtype_size(t);
	int i = 0, rc;

	for (int d = 1; d < c->p2; d *= 2, i++) {
		int u = core_real(c, v ^ d);

		rc = comm__sendrecv(x, step0 + i, u, cur, bytes, u, tmp, bytes);
		if (rc)
			return rc;
		if (v & d)
			comm__reduce3(t, op, acc, tmp, cur, count);
		else
			comm__reduce3(t, op, acc, cur, tmp, count);
		cur = acc;
	}
	if (cur != acc)
		memcpy(acc, cur, bytes);
	return 0;
}

int comm__allreduce_rhd(struct comm__ctx *x, const void *send, void *recv, size_t count,
			enum comm_dtype t, enum comm_op op)
{
	size_t es = comm_dtype_size(t), bytes = count * es;
	struct core c;
	const char *cur;
	int v, rc, s0;

	if (comm__alone(x, send, recv, bytes))
		return 0;
	core_init(&c, x->nranks, count, 0);
	if ((rc = x->need_scratch(x, bytes)) != 0)
		return rc;
	rc = fold(x, &c, send, recv, x->scratch, bytes, count, t, op, &cur);
	if (rc)
		return rc;
	v = core_rank(&c, x->rank);
	s0 = c.rem ? 1 : 0;
	bool whole = bytes <= COMM__RD_WHOLE_MAX;
	if (v >= 0 && whole) {
		rc = whole_doubling(x, &c, v, cur, recv, x->scratch, count, t, op, s0);
		if (rc)
			return rc;
	} else if (v >= 0) {
		rc = halving(x, &c, v, cur, recv, x->scratch, t, op, s0);
		if (!rc)
			rc = doubling(x, &c, v, recv, t, s0 + c.steps);
		if (rc)
			return rc;
	}
	if (x->rank < 2 * c.rem) { /* unfold: the odd rank hands the result back */
		int r = x->rank, last = s0 + (whole ? 1 : 2) * c.steps;
		if (r & 1)
			return comm__sendrecv(x, last, r - 1, recv, bytes, r - 1, NULL, 0);
		return comm__sendrecv(x, last, r + 1, NULL, 0, r + 1, recv, bytes);
	}
	return 0;
}

int comm__reduce_scatter_rhd(struct comm__ctx *x, const void *send, void *recv, size_t count,
			     enum comm_dtype t, enum comm_op op)
{
	int n = x->nranks, r = x->rank, v, rc, s0;
	size_t es = comm_dtype_size(t), cb = count * es, total = cb * (size_t)n;
	const char *s = send, *cur;
	char *d = recv, *acc, *tmp;
	struct core c;

	if (comm__alone(x, send, recv, cb))
		return 0;
	core_init(&c, n, count, 1);
	if (d + cb <= s || d >= s + total) {
		/* out of place: partials in scratch, the input stays untouched */
		if ((rc = x->need_scratch(x, 2 * total)) != 0)
			return rc;
		acc = x->scratch;
		tmp = acc + total;
	} else {
		/* in place: the caller's buffer is recv, so partials may overwrite it */
		if ((rc = x->need_scratch(x, total)) != 0)
			return rc;
		acc = (char *)send;
		tmp = x->scratch;
	}
	rc = fold(x, &c, s, acc, tmp, total, count * (size_t)n, t, op, &cur);
	if (rc)
		return rc;
	v = core_rank(&c, r);
	s0 = c.rem ? 1 : 0;
	if (v >= 0 && (rc = halving(x, &c, v, cur, acc, tmp, t, op, s0)) != 0)
		return rc;
	if (r < 2 * c.rem) { /* unfold: core rank v held blocks 2v and 2v+1 */
		int last = s0 + c.steps;
		if (r & 1)
			rc = comm__sendrecv(x, last, r - 1, acc + (size_t)(r - 1) * cb, cb, r - 1, NULL,
				      0);
		else
			return comm__sendrecv(x, last, r + 1, NULL, 0, r + 1, recv, cb);
		if (rc)
			return rc;
	}
	/* after the unfold send, which may read the block this move overwrites */
	if (acc + (size_t)r * cb != d)
		memmove(d, acc + (size_t)r * cb, cb);
	return 0;
}

int comm__allgather_rhd(struct comm__ctx *x, const void *send, void *recv, size_t count,
			enum comm_dtype t)
{
	int n = x->nranks, r = x->rank, rc, i = 0;
	size_t cb = count * comm_dtype_size(t);
	char *out = recv, *tmp;

	if (count == 0)
		return 0;
	if ((n & (n - 1)) == 0) {
		struct core c;

		if (send != out + (size_t)r * cb)
			memmove(out + (size_t)r * cb, send, cb);
		core_init(&c, n, count, 1);
		return doubling(x, &c, r, out, t, 0);
	}
	/* Bruck: tmp block i holds rank r+i's block; at distance d send our first min(d, N-d)
	 * blocks to r-d and receive r+d's into blocks d.., then rotate into place. */
	if ((rc = x->need_scratch(x, cb * (size_t)n)) != 0)
		return rc;
	tmp = x->scratch;
	memcpy(tmp, send, cb);
	for (int d = 1; d < n; d *= 2, i++) {
		size_t k = (size_t)(d < n - d ? d : n - d);

		rc = comm__sendrecv(x, i, mod(r - d, n), tmp, k * cb, mod(r + d, n), tmp + (size_t)d * cb,
			      k * cb);
		if (rc)
			return rc;
	}
	memcpy(out + (size_t)r * cb, tmp, (size_t)(n - r) * cb);
	memcpy(out, tmp + (size_t)(n - r) * cb, (size_t)r * cb);
	return 0;
}

/* Binomial tree from root: in round k the 2^k ranks that have the data (relative rank
 * < 2^k) each send it 2^k further. */
int comm__broadcast_rhd(struct comm__ctx *x, void *buf, size_t count, enum comm_dtype t, int root)
{
	int n = x->nranks, vr = mod(x->rank - root, n), k = 0, rc;
	size_t bytes = count * comm_dtype_size(t);

	if (count == 0)
		return 0;
	for (int d = 1; d < n; d *= 2, k++) {
		if (vr < d && vr + d < n)
			rc = comm__sendrecv(x, k, mod(vr + d + root, n), buf, bytes, 0, NULL, 0);
		else if (vr >= d && vr < 2 * d)
			rc = comm__sendrecv(x, k, 0, NULL, 0, mod(vr - d + root, n), buf, bytes);
		else
			rc = 0;
		if (rc)
			return rc;
	}
	return 0;
}

/* Dissemination: in round k send a token to r+2^k and wait for one from r-2^k; after
 * ceil(log2 N) rounds every rank has (transitively) heard from every other. The engine's
 * transfers cannot be empty, so the token is one byte. */
int comm__barrier_rhd(struct comm__ctx *x)
{
	int n = x->nranks, r = x->rank, k = 0, rc;
	unsigned char out = 0, in = 0;

	for (int d = 1; d < n; d *= 2, k++) {
		rc = comm__sendrecv(x, k, mod(r + d, n), &out, 1, mod(r - d, n), &in, 1);
		if (rc)
			return rc;
	}
	return 0;
}
