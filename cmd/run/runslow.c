/* After a sweep: the slowest directed link and the slowest rank, when one is clearly slower
 * than the others. Every rank knows what it received from each peer and how fast (libcomm's
 * link stats: bytes over the time from first to last byte, which is the link's pace whatever
 * the sender's delays); the matrices are gathered to every rank and rank 0 judges. A link is
 * named when its pace is under SLOW_RATIO of the median link's and apart from the others
 * (they are close together, or it is under half the next slowest); a rank when the others
 * waited on it (posting a receive to its first byte) more than twice the median, no slow
 * link explains it, and their wait on it is a real part of the run (RANK_MIN_SHARE of the
 * time since the communicator was up): on a loaded machine a rank the scheduler held back
 * for a few tens of ms of a second's sweep is 3x the median, and no straggler. Links with
 * less than LINK_MIN_BYTES, and links between two ranks of one host (which share its CPUs
 * and loopback), say nothing. */
#include <stdlib.h>
#include <string.h>

#include "cmd/cli/cli.h"
#include "cmd/run/run.h"

#define SLOW_RATIO 0.7
#define ALONE_RATIO 0.85 /* the second slowest link is at least this close to the median */
/* ... or the slowest is under this fraction of the second slowest: with the ring's sends
 * running ahead, the fast links' paces scatter (a receive partly queued before it was read
 * looks faster than its link), yet one link at 1 % of the rest is no part of a scatter */
#define APART_RATIO 0.5
#define LINK_MIN_BYTES (4ULL << 20)
#define RANK_MIN_WAIT_S 0.05
#define RANK_MIN_SHARE 0.1 /* of the run's time, each other rank's mean wait on it */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double median(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int run_slow_judge(struct comm *c, double run_s, struct run_slow *s)
{
	int n = comm_size(c), me = comm_rank(c);
	memset(s, 0, sizeof(*s));
	s->from = s->to = s->rank = -1;
	if (n < 3) /* two ranks have two links: nothing to compare with */
		return 0;
	/* Ranks of one host say nothing (below), and the gather is n^2 numbers (16 MiB to every
	 * one of 1024 ranks): every rank sees the same hosts, so all skip it together. */
	int hosts = 0; /* a straggler among ranks that share one host is the scheduler's */
	for (int q = 1; q < n && !hosts; q++)
		hosts = strcmp(comm_peer_host(c, q), comm_peer_host(c, 0)) != 0;
	if (!hosts)
		return 0;
	struct comm_link_stat *ls = calloc((size_t)n, sizeof(*ls));
	/* per rank: n paces (bytes/s, 0 when too little data), then n waits (s) */
	double *mine = calloc(2 * (size_t)n, sizeof(double));
	double *all = calloc(2 * (size_t)n * (size_t)n, sizeof(double));
	double *v = calloc((size_t)n * (size_t)n, sizeof(double));
	int rc = COMM_E_NOMEM;
	if (!ls || !mine || !all || !v || comm_link_stats(c, ls))
		goto out;
	for (int p = 0; p < n; p++) {
		if (p != me && ls[p].bytes >= LINK_MIN_BYTES && ls[p].active_s > 0)
			mine[p] = (double)ls[p].bytes / ls[p].active_s;
		mine[n + p] = ls[p].waited_s;
	}
	rc = comm_allgather(c, mine, all, 2 * (size_t)n, COMM_FP64);
	if (rc || me != 0)
		goto out;
	/* all[to * 2n + from]: the pace of link from -> to, as rank `to` measured it */
	size_t k = 0;
	int sf = -1, st = -1;
	for (int to = 0; to < n; to++)
		for (int from = 0; from < n; from++) {
			double r = all[(size_t)to * 2 * n + (size_t)from];
			/* two ranks of one host share its CPUs and loopback: not a network link */
			if (!(r > 0) || !strcmp(comm_peer_host(c, from), comm_peer_host(c, to)))
				continue;
			v[k++] = r;
			if (sf < 0 || r < all[(size_t)st * 2 * n + (size_t)sf]) {
				sf = from;
				st = to;
			}
		}
	if (k >= 3) {
		s->links = (int)k;
		s->median = median(v, k); /* sorts v: v[1] is the second slowest */
		double r = all[(size_t)st * 2 * n + (size_t)sf];
		/* one link apart from the rest, not a spread: on links that share CPUs (loopback,
		 * oversubscribed nodes) paces scatter, and the slowest of a scatter is no culprit */
		if (r < SLOW_RATIO * s->median &&
		    (v[1] >= ALONE_RATIO * s->median || r < APART_RATIO * v[1])) {
			s->have_link = 1;
			s->from = sf;
			s->to = st;
			s->rate = r;
		}
	}
	/* how long the others waited on each rank */
	int slow = -1;
	for (int q = 0; q < n; q++) {
		double w = 0;
		for (int r = 0; r < n; r++)
			if (r != q)
				w += all[(size_t)r * 2 * n + (size_t)n + (size_t)q];
		v[q] = w;
		if (slow < 0 || w > v[slow])
			slow = q;
	}
	double mw_of = v[slow];
	double mw = median(v, (size_t)n);
	if (!s->have_link && mw_of > RANK_MIN_WAIT_S && mw_of > 2 * mw &&
	    mw_of / (n - 1) >= RANK_MIN_SHARE * run_s) {
		s->have_rank = 1;
		s->rank = slow;
		s->waited = mw_of;
		s->median_waited = mw;
	}
	rc = 0;
out:
	free(ls);
	free(mine);
	free(all);
	free(v);
	return rc;
}
