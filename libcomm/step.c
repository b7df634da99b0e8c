/* Step helpers shared by the algorithms. */
#include "libcomm/algo.h"

int comm__sendrecv(struct comm__ctx *x, int step, int to, const void *sb, size_t sl, int from,
		   void *rb, size_t rl)
{
	struct comm__xfer xf[2];
	size_t n = 0;

	if (sl)
		xf[n++] = (struct comm__xfer){.peer = to, .sbuf = sb, .slen = sl};
	if (rl) {
		if (n && xf[0].peer == from) {
			xf[0].rbuf = rb;
			xf[0].rlen = rl;
		} else {
			xf[n++] = (struct comm__xfer){.peer = from, .rbuf = rb, .rlen = rl};
		}
	}
	return n ? x->exchange(x, step, xf, n) : 0;
}

void comm__xfer_add(struct comm__xfer *x, size_t *n, int peer, const void *sb, size_t sl,
		    void *rb, size_t rl)
{
	size_t i;

	if (!sl && !rl)
		return;
	for (i = 0; i < *n && x[i].peer != peer; i++)
		;
	if (i == *n) {
		x[i] = (struct comm__xfer){.peer = peer};
		(*n)++;
	}
	if (sl) {
		x[i].sbuf = sb;
		x[i].slen = sl;
	}
	if (rl) {
		x[i].rbuf = rb;
		x[i].rlen = rl;
	}
}

int comm__direct(struct comm__ctx *x, int step, comm__peer_bufs_fn bufs, const void *arg)
{
	struct comm__xfer xf[2 * COMM__DIRECT_BATCH];
	int n = x->nranks, r = x->rank;

	for (int o0 = 1; o0 < n; o0 += COMM__DIRECT_BATCH) {
		size_t k = 0;

		for (int o = o0; o < n && o < o0 + COMM__DIRECT_BATCH; o++) {
			int to = (r + o) % n, from = ((r - o) % n + n) % n;
			const void *sb;
			void *rb;
			size_t sl, rl;

			bufs(arg, to, from, &sb, &sl, &rb, &rl);
			comm__xfer_add(xf, &k, to, sb, sl, NULL, 0);
			comm__xfer_add(xf, &k, from, NULL, 0, rb, rl);
		}
		if (k) {
			int rc = x->exchange(x, step, xf, k);
			if (rc)
				return rc;
		}
	}
	return 0;
}

int comm__alone(const struct comm__ctx *x, const void *send, void *recv, size_t bytes)
{
	if (bytes && x->nranks > 1)
		return 0;
	if (bytes && send != recv)
		memmove(recv, send, bytes);
	return 1;
}
