/* The flight-recorder merge's send/recv pass: rank a's send #k to b against rank b's
 * recv #k from a, a pair whose arguments differ or a send no one posted a recv for. */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probes/flight/flight.h"
#include "probes/flight/flight_int.h"

int flight__cmp_pent(const void *x, const void *y)
{
	const struct pent *a = x, *b = y;
	if (a->from != b->from)
		return a->from < b->from ? -1 : 1;
	if (a->to != b->to)
		return a->to < b->to ? -1 : 1;
	if (a->seq != b->seq)
		return a->seq < b->seq ? -1 : 1;
	return a->recv - b->recv;
}

/* The newest seq the given side of (from, to) recorded in pe[lo..hi), -1 when none. */
static int64_t side_last(const struct pent *pe, size_t lo, size_t hi, int recv)
{
	int64_t last = -1;
	for (size_t i = lo; i < hi; i++)
		if (pe[i].recv == recv && pe[i].seq > last)
			last = pe[i].seq;
	return last;
}

static int p2p_mismatch(struct state *st, const struct pent *s, const struct pent *r)
{
	struct flight_analysis *a = st->a;
	struct flight_divergence *dv = &a->div;
	struct sbuf b = SBUF_INIT;
	const struct flight_record *x = s->r, *y = r->r;
	dv->kind = FLIGHT_DIV_P2P_FINGERPRINT;
	dv->seq = s->seq;
	dv->coll = FLIGHT_SEND;
	dv->from = s->from;
	dv->to = s->to;
	flight__sb_add(&b, "send #%lld from rank %lld to rank %lld: ", (long long)s->seq,
	       (long long)s->from, (long long)s->to);
	if (x->count != y->count)
		flight__sb_add(&b,
		       "count: rank %lld sends %lld (%lld bytes), rank %lld receives %lld "
		       "(%lld bytes)",
		       (long long)s->from, (long long)x->count, (long long)flight__rec_size(x),
		       (long long)s->to, (long long)y->count, (long long)flight__rec_size(y));
	if (x->dtype != y->dtype) {
		char tx[48], ty[48];
		flight__field_text(x, F_DTYPE, tx, sizeof(tx));
		flight__field_text(y, F_DTYPE, ty, sizeof(ty));
		flight__sb_add(&b,
		       "%sdtype: rank %lld sends %s (%lld bytes), rank %lld receives %s (%lld "
		       "bytes)",
		       x->count != y->count ? "; " : "", (long long)s->from, tx,
		       (long long)flight__rec_size(x), (long long)s->to, ty, (long long)flight__rec_size(y));
	}
	dv->message = flight__sb_take(&b);
	a->kind = FLIGHT_MISMATCH;
	a->culprit = s->from;
	flight__sb_host(&b, st, s->from);
	flight__sb_add(&b, " sends %lld %s (%lld bytes) in send #%lld to ", (long long)x->count,
	       flight_dtype_name(x->dtype), (long long)flight__rec_size(x), (long long)s->seq);
	flight__sb_host(&b, st, s->to);
	flight__sb_add(&b, ", which receives %lld %s (%lld bytes)", (long long)y->count,
	       flight_dtype_name(y->dtype), (long long)flight__rec_size(y));
	a->verdict = flight__sb_take(&b);
	return dv->message && a->verdict ? 0 : -ENOMEM;
}

/* One side waits in send/recv #k that the other side never posted. */
static int p2p_unposted(struct state *st, const struct pent *w)
{
	struct flight_analysis *a = st->a;
	struct flight_divergence *dv = &a->div;
	struct sbuf b = SBUF_INIT;
	int64_t waiter = w->recv ? w->to : w->from, other = w->recv ? w->from : w->to;
	dv->kind = FLIGHT_DIV_P2P_PROGRESS;
	dv->seq = w->seq;
	dv->coll = w->recv ? FLIGHT_RECV : FLIGHT_SEND;
	dv->from = w->from;
	dv->to = w->to;
	if (flight__ranks_add(&dv->behind, other) || flight__ranks_add(&dv->ahead, waiter))
		return -ENOMEM;
	flight__sb_add(&b, "rank %lld never posted %s #%lld %s rank %lld; rank %lld %s in ",
	       (long long)other, w->recv ? "send" : "recv", (long long)w->seq,
	       w->recv ? "to" : "from", (long long)waiter, (long long)waiter,
	       w->r->state == FLIGHT_FAILED ? "failed" : "waits");
	flight__sb_label(&b, w->r);
	dv->message = flight__sb_take(&b);
	a->kind = FLIGHT_STUCK_RANK;
	a->culprit = other;
	flight__sb_host(&b, st, other);
	flight__sb_add(&b, " never posted %s #%lld %s rank %lld; ", w->recv ? "send" : "recv",
	       (long long)w->seq, w->recv ? "to" : "from", (long long)waiter);
	flight__sb_host(&b, st, waiter);
	flight__sb_add(&b, " %s in it", w->r->state == FLIGHT_FAILED ? "failed" : "waits");
	a->verdict = flight__sb_take(&b);
	return dv->message && a->verdict ? 0 : -ENOMEM;
}

/* Finds the first send/recv pair that differs. Returns 1 when one was set, 0, or -ENOMEM. */
int flight__p2p(struct state *st, int only_mismatch)
{
	const struct pent *pe = st->p2p;
	for (size_t i = 0; i < st->np2p;) {
		size_t j = i;
		while (j < st->np2p && pe[j].from == pe[i].from && pe[j].to == pe[i].to)
			j++;
		const struct flight_dump *sd = st->by_rank[pe[i].from], *rd = st->by_rank[pe[i].to];
		int64_t last_send = side_last(pe, i, j, 0), last_recv = side_last(pe, i, j, 1);
		for (size_t k = i; k < j; k++) {
			if (k + 1 < j && !pe[k].recv && pe[k + 1].recv &&
			    pe[k + 1].seq == pe[k].seq) {
				const struct flight_record *x = pe[k].r, *y = pe[k + 1].r;
				if (x->count != y->count || x->dtype != y->dtype)
					return p2p_mismatch(st, &pe[k], &pe[k + 1]) ? -ENOMEM : 1;
				k++;
				continue;
			}
			if (only_mismatch || pe[k].r->state == FLIGHT_DONE)
				continue;
			/* unpaired and waiting: did the other side never post it? Only when its
			 * dump shows it: it recorded an older one of the pair, or it recorded
			 * everything it did (its ring never wrapped). */
			const struct flight_dump *od = pe[k].recv ? sd : rd;
			int64_t olast = pe[k].recv ? last_send : last_recv;
			if (!od)
				continue;
			if ((olast >= 0 && olast < pe[k].seq) || (olast < 0 && od->nrec < 1000))
				return p2p_unposted(st, &pe[k]) ? -ENOMEM : 1;
		}
		i = j;
	}
	return 0;
}
