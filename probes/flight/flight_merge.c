/* Merging the flight-recorder dumps of one job: who is missing, where the ranks first diverge
 * (a collective some reached and others did not, or one called with different arguments; the
 * same for send/recv pairs), and the most likely culprit. Every finding is also written as one
 * line of text here, so that the text and JSON outputs say the same thing. The words it
 * writes with are flight_words.c's, the send/recv pass flight_p2p.c, the verdicts when
 * nothing diverged flight_verdict.c. */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probes/flight/flight.h"
#include "probes/flight/flight_int.h"

#define NOTES_MAX 64
#define MAX_OPEN_SHOWN 4 /* in a rank's line; the JSON has them all */

/* ---- the job ---- */

static int same_job(const struct flight_dump *a, const struct flight_dump *b)
{
	return a->world_size == b->world_size && !strcmp(a->comm_id, b->comm_id);
}

/* Dumps of more than one job: which, in one message. Returns 1 when they were mixed. */
static int mixed_jobs(struct flight_analysis *a, const struct flight_dump *const *d, size_t n)
{
	size_t first_other = 0;
	for (size_t i = 1; i < n && !first_other; i++)
		if (!same_job(d[0], d[i]))
			first_other = i;
	if (!first_other)
		return 0;
	struct sbuf b = SBUF_INIT;
	size_t njobs = 0;
	flight__sb_add(&b, "dumps of different jobs:");
	for (size_t i = 0; i < n; i++) {
		int seen = 0;
		for (size_t k = 0; k < i && !seen; k++)
			seen = same_job(d[k], d[i]);
		if (seen)
			continue;
		size_t count = 0;
		for (size_t k = i; k < n; k++)
			count += same_job(d[k], d[i]);
		flight__sb_add(&b, "%s comm %s (world size %lld) in %s", njobs ? ";" : "", d[i]->comm_id,
		       (long long)d[i]->world_size, d[i]->name);
		if (count > 1)
			flight__sb_add(&b, " and %zu more", count - 1);
		njobs++;
	}
	a->kind = FLIGHT_CONFIG;
	a->problem = flight__sb_take(&b);
	if (!strcmp(d[0]->comm_id, d[first_other]->comm_id))
		flight__sb_add(&b,
		       "the dumps disagree on the world size of comm %s: %lld in %s, %lld in %s",
		       d[0]->comm_id, (long long)d[0]->world_size, d[0]->name,
		       (long long)d[first_other]->world_size, d[first_other]->name);
	else
		flight__sb_add(&b, "the dumps come from %zu jobs: comm %s in %s, comm %s in %s", njobs,
		       d[0]->comm_id, d[0]->name, d[first_other]->comm_id, d[first_other]->name);
	a->verdict = flight__sb_take(&b);
	return 1;
}

static int add_note(struct flight_analysis *a, struct sbuf *b)
{
	char *s = flight__sb_take(b);
	if (!s)
		return -ENOMEM;
	if (a->nnote == NOTES_MAX) {
		free(s);
		return 0;
	}
	if (!a->note) {
		a->note = calloc(NOTES_MAX, sizeof(*a->note));
		if (!a->note) {
			free(s);
			return -ENOMEM;
		}
	}
	a->note[a->nnote++] = s;
	return 0;
}

/* ---- one rank ---- */


static int rank_state(struct state *st, struct flight_rank_state *rs, const struct flight_dump *d)
{
	struct sbuf b = SBUF_INIT;
	rs->dump = d;
	rs->last_done = -1;
	rs->last_done_coll = -1;
	int64_t last = -1;
	for (size_t i = 0; i < d->nrec; i++) {
		const struct flight_record *r = &d->rec[i];
		if (r->state != FLIGHT_DONE)
			rs->nopen++;
		if (flight_is_p2p(r->coll))
			continue;
		last = r->seq; /* they grow (checked by the parser) */
		if (r->state == FLIGHT_DONE) {
			rs->last_done = r->seq;
			rs->last_done_coll = (int)r->coll;
		}
	}
	st->last[d->rank] = last;
	if (rs->nopen) {
		rs->open = calloc(rs->nopen, sizeof(*rs->open));
		if (!rs->open)
			return -ENOMEM;
		size_t k = 0;
		for (size_t i = 0; i < d->nrec; i++)
			if (d->rec[i].state != FLIGHT_DONE)
				rs->open[k++] = &d->rec[i];
	}
	flight__sb_add(&b, "rank %lld (host %s, dumped on %s): ", (long long)d->rank, d->host,
	       flight_reason_name(d->reason));
	if (rs->last_done >= 0) {
		flight__sb_add(&b, "last done ");
		flight__sb_coll_seq(&b, rs->last_done_coll, rs->last_done);
	} else {
		flight__sb_add(&b, "no collective done");
	}
	for (size_t k = 0; k < rs->nopen && k < MAX_OPEN_SHOWN; k++) {
		flight__sb_add(&b, "; ");
		flight__sb_open(&b, rs->open[k]);
	}
	if (rs->nopen > MAX_OPEN_SHOWN)
		flight__sb_add(&b, "; %zu more running or failed", rs->nopen - MAX_OPEN_SHOWN);
	if (!rs->nopen)
		flight__sb_add(&b, "; idle");
	rs->message = flight__sb_take(&b);
	return rs->message ? 0 : -ENOMEM;
}

/* ---- collectives: the first seq where the ranks differ ---- */

static const char *const field_names[F_N] = {"coll", "count", "dtype", "op", "root", "algo"};


static int cmp_ent(const void *x, const void *y)
{
	const struct ent *a = x, *b = y;
	if (a->seq != b->seq)
		return a->seq < b->seq ? -1 : 1;
	return (a->rank > b->rank) - (a->rank < b->rank);
}

static int cmp_value(const void *x, const void *y)
{
	const struct flight_value *a = x, *b = y;
	if (a->ranks.n != b->ranks.n)
		return a->ranks.n > b->ranks.n ? -1 : 1;
	return (a->ranks.v[0] > b->ranks.v[0]) - (a->ranks.v[0] < b->ranks.v[0]);
}

/* Groups the ranks of e[0..n) (one seq) by the value of field f. */
static int group_field(const struct ent *e, size_t n, int f, struct flight_field *out)
{
	char t[48];
	memset(out, 0, sizeof(*out));
	out->name = field_names[f];
	out->val = calloc(n, sizeof(*out->val));
	if (!out->val)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		flight__field_text(e[i].r, f, t, sizeof(t));
		size_t k = 0;
		while (k < out->nval && strcmp(out->val[k].text, t))
			k++;
		if (k == out->nval) {
			snprintf(out->val[k].text, sizeof(out->val[k].text), "%s", t);
			out->val[k].bytes = f == F_COUNT || f == F_DTYPE ? flight__rec_size(e[i].r) : -1;
			out->nval++;
		}
		if (flight__ranks_add(&out->val[k].ranks, e[i].rank))
			return -ENOMEM;
	}
	qsort(out->val, out->nval, sizeof(*out->val), cmp_value);
	return 0;
}

static void field_release(struct flight_field *f)
{
	for (size_t k = 0; f->val && k < f->nval; k++)
		flight__ranks_release(&f->val[k].ranks);
	free(f->val);
	free(f->message);
	memset(f, 0, sizeof(*f));
}

/* "count: ranks 0,1,3 have 262144 (1048576 bytes), rank 2 has 131072 (524288 bytes)" */
static void sb_field(struct sbuf *b, const struct flight_field *f)
{
	flight__sb_add(b, "%s: ", f->name);
	for (size_t k = 0; k < f->nval; k++) {
		const struct flight_value *v = &f->val[k];
		flight__sb_add(b, "%s", k ? ", " : "");
		flight__sb_who(b, &v->ranks);
		flight__sb_add(b, " ha%s %s", v->ranks.n == 1 ? "s" : "ve", v->text);
		if (v->bytes >= 0)
			flight__sb_add(b, " (%lld bytes)", (long long)v->bytes);
	}
}

/* The first seq whose ranks disagree on a fingerprint field, or 0 (the fields are then in
 * div). */
static int fingerprint(struct state *st, int64_t *seq, size_t *at, size_t *len)
{
	const struct ent *e = st->ent;
	for (size_t i = 0; i < st->nent;) {
		size_t j = i + 1;
		while (j < st->nent && e[j].seq == e[i].seq)
			j++;
		for (size_t k = i + 1; k < j; k++) {
			const struct flight_record *x = e[i].r, *y = e[k].r;
			if (x->coll != y->coll || x->count != y->count || x->dtype != y->dtype ||
			    x->op != y->op || x->root != y->root || x->algo != y->algo) {
				*seq = e[i].seq;
				*at = i;
				*len = j - i;
				return 1;
			}
		}
		i = j;
	}
	return 0;
}

static int set_fingerprint(struct state *st, size_t at, size_t len)
{
	struct flight_divergence *dv = &st->a->div;
	const struct ent *e = st->ent + at;
	struct flight_field f[F_N];
	struct sbuf b = SBUF_INIT;
	int rc = 0;
	dv->kind = FLIGHT_DIV_FINGERPRINT;
	dv->seq = e->seq;
	dv->field = calloc(F_N, sizeof(*dv->field));
	if (!dv->field)
		return -ENOMEM;
	for (int k = 0; k < F_N && !rc; k++) {
		rc = group_field(e, len, k, &f[k]);
		if (!rc && f[k].nval > 1)
			dv->field[dv->nfield++] = f[k];
		else
			field_release(&f[k]);
	}
	if (rc)
		return rc;
	/* the seq is named by the collective most ranks called */
	const struct flight_field *coll =
		dv->field[0].name == field_names[F_COLL] ? &dv->field[0] : NULL;
	dv->coll = -1;
	for (size_t i = 0; i < len && dv->coll < 0; i++)
		if (!coll || !strcmp(flight_coll_name(e[i].r->coll), coll->val[0].text))
			dv->coll = (int)e[i].r->coll;
	flight__sb_coll_seq(&b, dv->coll, dv->seq);
	flight__sb_add(&b, ": called with different arguments: ");
	for (size_t k = 0; k < dv->nfield; k++) {
		struct sbuf fb = SBUF_INIT;
		sb_field(&fb, &dv->field[k]);
		dv->field[k].message = flight__sb_take(&fb);
		if (!dv->field[k].message)
			return -ENOMEM;
		flight__sb_add(&b, "%s%s", k ? "; " : "", dv->field[k].message);
	}
	dv->message = flight__sb_take(&b);
	if (!dv->message)
		return -ENOMEM;

	/* the culprit: the first rank of the smallest group of the first field that differs */
	const struct flight_field *f0 = &dv->field[0];
	const struct flight_value *odd = &f0->val[f0->nval - 1], *common = &f0->val[0];
	struct flight_analysis *a = st->a;
	a->kind = FLIGHT_MISMATCH;
	a->culprit = odd->ranks.v[0];
	flight__sb_add(&b, "rank %lld (host %s) called ", (long long)a->culprit,
	       st->by_rank[a->culprit]->host);
	flight__sb_coll_seq(&b, dv->coll, dv->seq);
	flight__sb_add(&b, " with %s %s", f0->name, odd->text);
	if (odd->bytes >= 0)
		flight__sb_add(&b, " (%lld bytes)", (long long)odd->bytes);
	flight__sb_add(&b, ", ");
	flight__sb_who(&b, &common->ranks);
	flight__sb_add(&b, " with %s", common->text);
	if (common->bytes >= 0)
		flight__sb_add(&b, " (%lld bytes)", (long long)common->bytes);
	if (f0->nval > 2)
		flight__sb_add(&b, " (%zu different values)", f0->nval);
	if (dv->nfield > 1)
		flight__sb_add(&b, "; %zu fields differ", dv->nfield);
	a->verdict = flight__sb_take(&b);
	return a->verdict ? 0 : -ENOMEM;
}

/* Some ranks reached a seq that others never started: the first such seq. Returns 1 when
 * found (with *seq). */
static int progress(const struct state *st, int64_t *seq)
{
	const struct flight_ranks *p = &st->a->present;
	int64_t hi = -1, low = INT64_MAX, first = INT64_MAX;
	for (size_t i = 0; i < p->n; i++)
		if (st->last[p->v[i]] > hi)
			hi = st->last[p->v[i]];
	if (hi < 0 || !st->nent)
		return 0;
	first = st->ent[0].seq;
	for (size_t i = 0; i < p->n; i++) {
		int64_t l = st->last[p->v[i]];
		if (l == hi)
			continue;
		int64_t s = l < 0 ? first : l + 1;
		if (s < low)
			low = s;
	}
	if (low == INT64_MAX)
		return 0;
	*seq = low;
	return 1;
}

static int set_progress(struct state *st, int64_t seq)
{
	struct flight_analysis *a = st->a;
	struct flight_divergence *dv = &a->div;
	struct sbuf b = SBUF_INIT;
	dv->kind = FLIGHT_DIV_PROGRESS;
	dv->seq = seq;
	dv->coll = -1;
	dv->waiting = 1;
	for (size_t i = 0; i < a->present.n; i++) {
		int64_t r = a->present.v[i];
		if (st->last[r] < seq) {
			if (flight__ranks_add(&dv->behind, r))
				return -ENOMEM;
			continue;
		}
		if (flight__ranks_add(&dv->ahead, r))
			return -ENOMEM;
		const struct flight_record *x = flight__find_seq(st, seq, r);
		if (x && dv->coll < 0)
			dv->coll = (int)x->coll;
		if (!x || x->state == FLIGHT_DONE)
			dv->waiting = 0;
	}
	flight__sb_who(&b, &dv->behind);
	flight__sb_add(&b, " never started ");
	flight__sb_coll_seq(&b, dv->coll, seq);
	flight__sb_ahead(&b, &dv->ahead, dv->waiting);
	dv->message = flight__sb_take(&b);
	return dv->message ? 0 : -ENOMEM;
}

/* ---- putting it together ---- */

static int build_index(struct state *st)
{
	struct flight_analysis *a = st->a;
	size_t nc = 0, np = 0;
	for (size_t i = 0; i < a->nrank; i++) {
		const struct flight_dump *d = a->rank[i].dump;
		for (size_t k = 0; k < d->nrec; k++) {
			if (flight_is_p2p(d->rec[k].coll))
				np++;
			else
				nc++;
		}
	}
	st->ent = calloc(nc ? nc : 1, sizeof(*st->ent));
	st->p2p = calloc(np ? np : 1, sizeof(*st->p2p));
	if (!st->ent || !st->p2p)
		return -ENOMEM;
	for (size_t i = 0; i < a->nrank; i++) {
		const struct flight_dump *d = a->rank[i].dump;
		for (size_t k = 0; k < d->nrec; k++) {
			const struct flight_record *r = &d->rec[k];
			if (!flight_is_p2p(r->coll)) {
				st->ent[st->nent++] = (struct ent){r->seq, d->rank, r};
				continue;
			}
			int recv = r->coll == FLIGHT_RECV;
			st->p2p[st->np2p++] =
				(struct pent){recv ? r->root : d->rank, recv ? d->rank : r->root,
					      r->seq, recv, r};
		}
	}
	qsort(st->ent, st->nent, sizeof(*st->ent), cmp_ent);
	qsort(st->p2p, st->np2p, sizeof(*st->p2p), flight__cmp_pent);
	a->last_seq = -1;
	a->last_coll = -1;
	if (st->nent) {
		a->last_seq = st->ent[st->nent - 1].seq;
		a->last_coll = (int)st->ent[st->nent - 1].r->coll;
	}
	return 0;
}

static int analyze(struct state *st, const struct flight_dump *const *dumps, size_t n)
{
	struct flight_analysis *a = st->a;
	int64_t ws = dumps[0]->world_size;
	int rc;
	a->world_size = ws;
	snprintf(a->comm_id, sizeof(a->comm_id), "%s", dumps[0]->comm_id);
	st->by_rank = calloc((size_t)ws, sizeof(*st->by_rank));
	st->last = calloc((size_t)ws, sizeof(*st->last));
	if (!st->by_rank || !st->last)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		const struct flight_dump *d = dumps[i], *old = st->by_rank[d->rank];
		if (old) {
			const struct flight_dump *keep =
				d->dumped_at_us > old->dumped_at_us ? d : old;
			struct sbuf b = SBUF_INIT;
			flight__sb_add(&b, "rank %lld has two dumps, %s and %s; using the newer, %s",
			       (long long)d->rank, old->name, d->name, keep->name);
			if ((rc = add_note(a, &b)))
				return rc;
			st->by_rank[d->rank] = keep;
			continue;
		}
		st->by_rank[d->rank] = d;
	}
	for (int64_t r = 0; r < ws; r++)
		if (flight__ranks_add(st->by_rank[r] ? &a->present : &a->missing, r))
			return -ENOMEM;
	a->rank = calloc(a->present.n, sizeof(*a->rank));
	if (!a->rank)
		return -ENOMEM;
	a->all_done = 1;
	for (size_t i = 0; i < a->present.n; i++) {
		a->nrank++; /* before it is filled, so that a failure still frees it */
		if ((rc = rank_state(st, &a->rank[i], st->by_rank[a->present.v[i]])))
			return rc;
		if (a->rank[i].nopen)
			a->all_done = 0;
	}
	if ((rc = build_index(st)))
		return rc;

	int64_t sm = -1, sp = -1;
	size_t at = 0, len = 0;
	int has_m = fingerprint(st, &sm, &at, &len), has_p = progress(st, &sp);
	if (has_m && (!has_p || sm <= sp))
		return set_fingerprint(st, at, len);
	if ((rc = flight__p2p(st, 1)))
		return rc < 0 ? rc : 0;
	if (has_p && (rc = set_progress(st, sp)))
		return rc;
	if (a->missing.n)
		return flight__dead_rank(st);
	if (has_p)
		return flight__progress_verdict(st);
	if ((rc = flight__p2p(st, 0)))
		return rc < 0 ? rc : 0;
	if (!a->all_done)
		return flight__stall(st);
	return flight__ok_verdict(st);
}

int flight_analyze(struct flight_analysis *a, const struct flight_dump *const *dumps, size_t n,
		   char *err, size_t errlen)
{
	struct state st = {a, NULL, NULL, NULL, 0, NULL, 0};
	int rc = 0;
	memset(a, 0, sizeof(*a));
	a->culprit = -1;
	a->last_seq = -1;
	a->last_coll = -1;
	a->div.coll = -1;
	if (!n)
		return 0;
	if (mixed_jobs(a, dumps, n))
		rc = a->problem && a->verdict ? 0 : -ENOMEM;
	else
		rc = analyze(&st, dumps, n);
	if (!rc && a->culprit >= 0 && a->culprit < a->world_size && st.by_rank &&
	    st.by_rank[a->culprit])
		a->culprit_host = (char *)st.by_rank[a->culprit]->host;
	free(st.by_rank);
	free(st.last);
	free(st.ent);
	free(st.p2p);
	if (rc)
		snprintf(err, errlen, "out of memory");
	return rc;
}

void flight_analysis_release(struct flight_analysis *a)
{
	for (size_t i = 0; i < a->nrank; i++) {
		free(a->rank[i].open);
		free(a->rank[i].message);
	}
	free(a->rank);
	flight__ranks_release(&a->present);
	flight__ranks_release(&a->missing);
	flight__ranks_release(&a->div.behind);
	flight__ranks_release(&a->div.ahead);
	for (size_t k = 0; k < a->div.nfield; k++)
		field_release(&a->div.field[k]);
	free(a->div.field);
	free(a->div.message);
	free(a->verdict);
	free(a->problem);
	for (size_t k = 0; k < a->nnote; k++)
		free(a->note[k]);
	free(a->note);
	memset(a, 0, sizeof(*a));
}
