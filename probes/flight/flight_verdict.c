/* The flight-recorder merge's verdicts when no divergence explains the job: a rank that
 * died, one the others stalled on, a rank behind the rest, or all well. */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probes/flight/flight.h"
#include "probes/flight/flight_int.h"
#include "ranktable/base/plural.h"

static int same_label(const struct flight_record *x, const struct flight_record *y)
{
	return x->coll == y->coll && x->seq == y->seq &&
	       (!flight_is_p2p(x->coll) || x->root == y->root);
}

int flight__dead_rank(struct state *st)
{
	struct flight_analysis *a = st->a;
	struct sbuf b = SBUF_INIT;
	struct flight_ranks waiting = {0}, waiting_on = {0};
	const struct flight_record *in = NULL;
	int64_t in_rank = -1;
	int same = 1;
	a->kind = FLIGHT_DEAD_RANK;
	a->culprit = a->missing.v[0];
	for (size_t i = 0; i < a->nrank; i++) {
		const struct flight_rank_state *rs = &a->rank[i];
		int on = 0;
		for (size_t k = 0; k < rs->nopen && !on; k++)
			on = rs->open[k]->peer >= 0 && !st->by_rank[rs->open[k]->peer];
		if (rs->nopen) {
			if (!in) {
				in = rs->open[0];
				in_rank = rs->dump->rank;
			} else if (!same_label(in, rs->open[0])) {
				same = 0;
			}
		}
		if ((rs->nopen && flight__ranks_add(&waiting, rs->dump->rank)) ||
		    (on && flight__ranks_add(&waiting_on, rs->dump->rank)))
			goto nomem;
	}
	flight__sb_who(&b, &a->missing);
	flight__sb_add(&b, " left no readable dump (dead, or its dump was not given)");
	if (waiting.n) {
		flight__sb_add(&b, "; ");
		flight__sb_who(&b, &waiting);
		flight__sb_add(&b, " wait%s", waiting.n == 1 ? "s" : "");
		if (same)
			flight__sb_add(&b, " in ");
		else
			flight__sb_add(&b, ", rank %lld in ", (long long)in_rank);
		flight__sb_label(&b, in);
		if (waiting_on.n) {
			flight__sb_add(&b, "; ");
			flight__sb_who(&b, &waiting_on);
			flight__sb_add(&b, " wait%s for %s", waiting_on.n == 1 ? "s" : "",
			       a->missing.n == 1 ? "it" : "them");
		}
	} else if (a->last_seq >= 0) {
		flight__sb_add(&b, "; the others completed every collective up to ");
		flight__sb_coll_seq(&b, a->last_coll, a->last_seq);
	}
	a->verdict = flight__sb_take(&b);
	flight__ranks_release(&waiting);
	flight__ranks_release(&waiting_on);
	return a->verdict ? 0 : -ENOMEM;
nomem:
	flight__ranks_release(&waiting);
	flight__ranks_release(&waiting_on);
	return -ENOMEM;
}

static int cmp_i64(const void *x, const void *y)
{
	int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
	return (a > b) - (a < b);
}

/* Every rank is in step but some collective did not finish: the rank most waited on, or the
 * one that failed without waiting on anybody. */
int flight__stall(struct state *st)
{
	struct flight_analysis *a = st->a;
	struct sbuf b = SBUF_INIT;
	struct flight_ranks waiters = {0};
	const struct flight_record *first = NULL, *failed = NULL, *wait = NULL;
	int64_t failed_rank = -1, best = -1, first_rank = -1, wait_rank = -1;
	size_t best_n = 0, nv = 0;
	for (size_t i = 0; i < a->nrank; i++)
		nv += a->rank[i].nopen;
	int64_t *v = calloc(nv ? nv : 1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	nv = 0;
	for (size_t i = 0; i < a->nrank; i++) {
		const struct flight_rank_state *rs = &a->rank[i];
		for (size_t k = 0; k < rs->nopen; k++) {
			const struct flight_record *r = rs->open[k];
			if (!first) {
				first = r;
				first_rank = rs->dump->rank;
			}
			if (r->state == FLIGHT_FAILED && r->peer < 0 && !failed) {
				failed = r;
				failed_rank = rs->dump->rank;
			}
			if (r->peer >= 0)
				v[nv++] = r->peer;
		}
	}
	/* votes per waited-on peer */
	qsort(v, nv, sizeof(*v), cmp_i64);
	for (size_t i = 0; i < nv;) {
		size_t j = i;
		while (j < nv && v[j] == v[i])
			j++;
		if (j - i > best_n) {
			best_n = j - i;
			best = v[i];
		}
		i = j;
	}
	free(v);
	a->kind = FLIGHT_STUCK_RANK;
	if (best >= 0) {
		for (size_t i = 0; i < a->nrank; i++) {
			const struct flight_rank_state *rs = &a->rank[i];
			int on = 0;
			for (size_t k = 0; k < rs->nopen; k++)
				if (rs->open[k]->peer == best && !on++ && !wait) {
					wait = rs->open[k];
					wait_rank = rs->dump->rank;
				}
			if (on && flight__ranks_add(&waiters, rs->dump->rank)) {
				flight__ranks_release(&waiters);
				return -ENOMEM;
			}
		}
		a->culprit = best;
		flight__sb_add(&b, "rank %lld (host %s) is the rank the others wait on: ", (long long)best,
		       st->by_rank[best] ? st->by_rank[best]->host : "?");
		flight__sb_who(&b, &waiters);
		flight__sb_add(&b, " wait%s for it, rank %lld in ", waiters.n == 1 ? "s" : "",
		       (long long)wait_rank);
		flight__sb_label(&b, wait);
		flight__sb_add(&b, " at step %lld with %lld bytes received of a %lld-byte buffer",
			       (long long)wait->step, (long long)wait->received,
			       (long long)wait->bytes);
		flight__ranks_release(&waiters);
	} else if (failed) {
		a->culprit = failed_rank;
		flight__sb_host(&b, st, failed_rank);
		flight__sb_add(&b, " failed ");
		flight__sb_label(&b, failed);
		flight__sb_add(&b, " at step %lld without waiting on another rank",
		       (long long)failed->step);
		if (failed->error)
			flight__sb_add(&b, ": %s", failed->error);
	} else {
		a->culprit = first_rank;
		flight__sb_host(&b, st, first_rank);
		flight__sb_add(&b, " did not finish ");
		flight__sb_label(&b, first);
	}
	a->verdict = flight__sb_take(&b);
	return a->verdict ? 0 : -ENOMEM;
}

int flight__progress_verdict(struct state *st)
{
	struct flight_analysis *a = st->a;
	struct flight_divergence *dv = &a->div;
	struct sbuf b = SBUF_INIT;
	a->kind = FLIGHT_STUCK_RANK;
	a->culprit = dv->behind.v[0];
	/* the rank furthest behind */
	for (size_t i = 1; i < dv->behind.n; i++)
		if (st->last[dv->behind.v[i]] < st->last[a->culprit])
			a->culprit = dv->behind.v[i];
	flight__sb_host(&b, st, a->culprit);
	flight__sb_add(&b, " never started ");
	flight__sb_coll_seq(&b, dv->coll, dv->seq);
	if (st->last[a->culprit] >= 0) {
		const struct flight_record *l = flight__find_seq(st, st->last[a->culprit], a->culprit);
		flight__sb_add(&b, " (its last: %s ", l ? flight_coll_name(l->coll) : "collective");
		flight__sb_add(&b, "#%lld, %s)", (long long)st->last[a->culprit],
		       l ? flight_state_name(l->state) : "?");
	} else {
		flight__sb_add(&b, " (it recorded no collective)");
	}
	if (dv->behind.n > 1) {
		flight__sb_add(&b, "; ");
		flight__sb_who(&b, &dv->behind);
		flight__sb_add(&b, " are behind");
	}
	flight__sb_ahead(&b, &dv->ahead, dv->waiting);
	a->verdict = flight__sb_take(&b);
	return a->verdict ? 0 : -ENOMEM;
}

int flight__ok_verdict(struct state *st)
{
	struct flight_analysis *a = st->a;
	struct sbuf b = SBUF_INIT;
	a->kind = FLIGHT_OK;
	a->culprit = -1;
	flight__sb_add(&b, "%zu rank%s agree", a->present.n, plural_s(a->present.n));
	if (a->last_seq >= 0) {
		flight__sb_add(&b, " up to ");
		flight__sb_coll_seq(&b, a->last_coll, a->last_seq);
		flight__sb_add(&b, " and completed every collective");
	} else {
		flight__sb_add(&b, "; no collective recorded");
	}
	a->verdict = flight__sb_take(&b);
	return a->verdict ? 0 : -ENOMEM;
}
