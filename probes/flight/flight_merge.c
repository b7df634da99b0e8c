/* Merging the flight-recorder dumps of one job: who is missing, where the ranks first diverge
 * (a collective some reached and others did not, or one called with different arguments; the
 * same for send/recv pairs), and the most likely culprit. Every finding is also written as one
 * line of text here, so that the text and JSON outputs say the same thing. */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>

#include "probes/flight/flight.h"
#include "ranktable/base/buf.h"

#define SB_MAX 16384 /* a message longer than this ends in "..." */
#define NOTES_MAX 64
#define MAX_OPEN_SHOWN 4 /* in a rank's line; the JSON has them all */

/* A message: text past SB_MAX ends in "..." rather than failing it; running out of memory
 * loses it (sb_take gives NULL). */
struct sbuf {
	struct buf b;
	int cut;
};
#define SBUF_INIT                                                                                  \
	{                                                                                          \
		BUF_INIT(SB_MAX - 1), 0                                                            \
	}

__attribute__((format(printf, 2, 3))) static void sb_add(struct sbuf *b, const char *fmt, ...)
{
	char tmp[1024];
	va_list ap;
	if (b->cut)
		return;
	va_start(ap, fmt);
	int n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	size_t add = (size_t)n < sizeof(tmp) ? (size_t)n : sizeof(tmp) - 1;
	if (add > SB_MAX - 4 - b->b.len) {
		add = SB_MAX - 4 - b->b.len;
		b->cut = 1;
	}
	buf_add(&b->b, tmp, add);
	if (b->cut)
		buf_add(&b->b, "...", 3);
}

/* The string, owned by the caller, or NULL when memory ran out (b is emptied either way). */
static char *sb_take(struct sbuf *b)
{
	b->cut = 0;
	return buf_take(&b->b);
}

static int ranks_add(struct flight_ranks *r, int64_t v)
{
	if (r->n == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 8;
		int64_t *nv = realloc(r->v, cap * sizeof(*nv));
		if (!nv)
			return -ENOMEM;
		r->v = nv;
		r->cap = cap;
	}
	r->v[r->n++] = v;
	return 0;
}

static void ranks_release(struct flight_ranks *r)
{
	free(r->v);
	memset(r, 0, sizeof(*r));
}

static void sb_ranks(struct sbuf *b, const struct flight_ranks *r)
{
	for (size_t i = 0; i < r->n;) {
		size_t j = i;
		while (j + 1 < r->n && r->v[j + 1] == r->v[j] + 1)
			j++;
		if (j - i >= 3) {
			sb_add(b, "%s%lld-%lld", i ? "," : "", (long long)r->v[i],
			       (long long)r->v[j]);
			i = j + 1;
		} else {
			sb_add(b, "%s%lld", i ? "," : "", (long long)r->v[i]);
			i++;
		}
	}
}

const char *flight_ranks_text(const struct flight_ranks *r, char *buf, size_t len)
{
	struct sbuf b = SBUF_INIT;
	sb_ranks(&b, r);
	char *s = sb_take(&b);
	if (len) {
		snprintf(buf, len, "%s", s ? s : "");
		if (s && strlen(s) >= len && len > 4)
			memcpy(buf + len - 4, "...", 4);
	}
	free(s);
	return buf;
}

/* "rank 3" or "ranks 0,1,2" */
static void sb_who(struct sbuf *b, const struct flight_ranks *r)
{
	sb_add(b, "rank%s ", r->n == 1 ? "" : "s");
	sb_ranks(b, r);
}

const char *flight_kind_name(enum flight_kind k)
{
	static const char *const names[] = {"ok", "dead-rank", "stuck-rank", "mismatch", "config"};
	return (size_t)k < sizeof(names) / sizeof(names[0]) ? names[k] : "?";
}

/* "allreduce #41", "send #3 to rank 1", "recv #3 from rank 0" */
static void sb_label(struct sbuf *b, const struct flight_record *r)
{
	sb_add(b, "%s #%lld", flight_coll_name(r->coll), (long long)r->seq);
	if (r->coll == FLIGHT_SEND)
		sb_add(b, " to rank %lld", (long long)r->root);
	else if (r->coll == FLIGHT_RECV)
		sb_add(b, " from rank %lld", (long long)r->root);
}

static void sb_coll_seq(struct sbuf *b, int coll, int64_t seq)
{
	if (coll >= 0)
		sb_add(b, "%s #%lld", flight_coll_name((enum flight_coll)coll), (long long)seq);
	else
		sb_add(b, "collective #%lld", (long long)seq);
}

/* "running allreduce #41 (step 3, waiting for rank 3, sent 786432, received 524288 of 1048576
 * bytes)" */
static void sb_open(struct sbuf *b, const struct flight_record *r)
{
	sb_add(b, "%s ", flight_state_name(r->state));
	sb_label(b, r);
	if (r->step < 0)
		sb_add(b, " (in the fingerprint exchange");
	else
		sb_add(b, " (step %lld", (long long)r->step);
	if (r->peer >= 0)
		sb_add(b, ", waiting for rank %lld", (long long)r->peer);
	sb_add(b, ", sent %lld, received %lld of %lld bytes)", (long long)r->sent,
	       (long long)r->received, (long long)r->bytes);
}

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
	sb_add(&b, "dumps of different jobs:");
	for (size_t i = 0; i < n; i++) {
		int seen = 0;
		for (size_t k = 0; k < i && !seen; k++)
			seen = same_job(d[k], d[i]);
		if (seen)
			continue;
		size_t count = 0;
		for (size_t k = i; k < n; k++)
			count += same_job(d[k], d[i]);
		sb_add(&b, "%s comm %s (world size %lld) in %s", njobs ? ";" : "", d[i]->comm_id,
		       (long long)d[i]->world_size, d[i]->name);
		if (count > 1)
			sb_add(&b, " and %zu more", count - 1);
		njobs++;
	}
	a->kind = FLIGHT_CONFIG;
	a->problem = sb_take(&b);
	if (!strcmp(d[0]->comm_id, d[first_other]->comm_id))
		sb_add(&b,
		       "the dumps disagree on the world size of comm %s: %lld in %s, %lld in %s",
		       d[0]->comm_id, (long long)d[0]->world_size, d[0]->name,
		       (long long)d[first_other]->world_size, d[first_other]->name);
	else
		sb_add(&b, "the dumps come from %zu jobs: comm %s in %s, comm %s in %s", njobs,
		       d[0]->comm_id, d[0]->name, d[first_other]->comm_id, d[first_other]->name);
	a->verdict = sb_take(&b);
	return 1;
}

static int add_note(struct flight_analysis *a, struct sbuf *b)
{
	char *s = sb_take(b);
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

struct state {
	struct flight_analysis *a;
	const struct flight_dump **by_rank; /* world_size entries, NULL: no dump */
	int64_t *last;			    /* per rank: newest collective seq, -1 when none */
	struct ent *ent;		    /* every collective record, by (seq, rank) */
	size_t nent;
	struct pent *p2p; /* every send and recv, by (from, to, seq, kind) */
	size_t np2p;
};

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
	sb_add(&b, "rank %lld (host %s, dumped on %s): ", (long long)d->rank, d->host,
	       flight_reason_name(d->reason));
	if (rs->last_done >= 0) {
		sb_add(&b, "last done ");
		sb_coll_seq(&b, rs->last_done_coll, rs->last_done);
	} else {
		sb_add(&b, "no collective done");
	}
	for (size_t k = 0; k < rs->nopen && k < MAX_OPEN_SHOWN; k++) {
		sb_add(&b, "; ");
		sb_open(&b, rs->open[k]);
	}
	if (rs->nopen > MAX_OPEN_SHOWN)
		sb_add(&b, "; %zu more running or failed", rs->nopen - MAX_OPEN_SHOWN);
	if (!rs->nopen)
		sb_add(&b, "; idle");
	rs->message = sb_take(&b);
	return rs->message ? 0 : -ENOMEM;
}

/* ---- collectives: the first seq where the ranks differ ---- */

struct ent {
	int64_t seq, rank;
	const struct flight_record *r;
};

static int cmp_ent(const void *x, const void *y)
{
	const struct ent *a = x, *b = y;
	if (a->seq != b->seq)
		return a->seq < b->seq ? -1 : 1;
	return (a->rank > b->rank) - (a->rank < b->rank);
}

/* The fingerprint fields, as text (value) and as bytes where it is a size. */
enum { F_COLL, F_COUNT, F_DTYPE, F_OP, F_ROOT, F_ALGO, F_N };
static const char *const field_names[F_N] = {"coll", "count", "dtype", "op", "root", "algo"};

static void field_text(const struct flight_record *r, int f, char *buf, size_t len)
{
	switch (f) {
	case F_COLL:
		snprintf(buf, len, "%s", flight_coll_name(r->coll));
		break;
	case F_COUNT:
		snprintf(buf, len, "%lld", (long long)r->count);
		break;
	case F_DTYPE:
		snprintf(buf, len, "%s",
			 *flight_dtype_name(r->dtype) ? flight_dtype_name(r->dtype) : "none");
		break;
	case F_OP:
		snprintf(buf, len, "%s", *flight_op_name(r->op) ? flight_op_name(r->op) : "none");
		break;
	case F_ROOT:
		snprintf(buf, len, "%lld", (long long)r->root);
		break;
	default:
		snprintf(buf, len, "%s",
			 *flight_algo_name(r->algo) ? flight_algo_name(r->algo) : "none");
	}
}

static int64_t rec_size(const struct flight_record *r)
{
	size_t es = flight_dtype_size(r->dtype);
	if (es && r->count > INT64_MAX / (int64_t)es)
		return -1;
	return r->count * (int64_t)es;
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
		field_text(e[i].r, f, t, sizeof(t));
		size_t k = 0;
		while (k < out->nval && strcmp(out->val[k].text, t))
			k++;
		if (k == out->nval) {
			snprintf(out->val[k].text, sizeof(out->val[k].text), "%s", t);
			out->val[k].bytes = f == F_COUNT || f == F_DTYPE ? rec_size(e[i].r) : -1;
			out->nval++;
		}
		if (ranks_add(&out->val[k].ranks, e[i].rank))
			return -ENOMEM;
	}
	qsort(out->val, out->nval, sizeof(*out->val), cmp_value);
	return 0;
}

static void field_release(struct flight_field *f)
{
	for (size_t k = 0; f->val && k < f->nval; k++)
		ranks_release(&f->val[k].ranks);
	free(f->val);
	free(f->message);
	memset(f, 0, sizeof(*f));
}

/* "count: ranks 0,1,3 have 262144 (1048576 bytes), rank 2 has 131072 (524288 bytes)" */
static void sb_field(struct sbuf *b, const struct flight_field *f)
{
	sb_add(b, "%s: ", f->name);
	for (size_t k = 0; k < f->nval; k++) {
		const struct flight_value *v = &f->val[k];
		sb_add(b, "%s", k ? ", " : "");
		sb_who(b, &v->ranks);
		sb_add(b, " ha%s %s", v->ranks.n == 1 ? "s" : "ve", v->text);
		if (v->bytes >= 0)
			sb_add(b, " (%lld bytes)", (long long)v->bytes);
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
	sb_coll_seq(&b, dv->coll, dv->seq);
	sb_add(&b, ": called with different arguments: ");
	for (size_t k = 0; k < dv->nfield; k++) {
		struct sbuf fb = SBUF_INIT;
		sb_field(&fb, &dv->field[k]);
		dv->field[k].message = sb_take(&fb);
		if (!dv->field[k].message)
			return -ENOMEM;
		sb_add(&b, "%s%s", k ? "; " : "", dv->field[k].message);
	}
	dv->message = sb_take(&b);
	if (!dv->message)
		return -ENOMEM;

	/* the culprit: the first rank of the smallest group of the first field that differs */
	const struct flight_field *f0 = &dv->field[0];
	const struct flight_value *odd = &f0->val[f0->nval - 1], *common = &f0->val[0];
	struct flight_analysis *a = st->a;
	a->kind = FLIGHT_MISMATCH;
	a->culprit = odd->ranks.v[0];
	sb_add(&b, "rank %lld (host %s) called ", (long long)a->culprit,
	       st->by_rank[a->culprit]->host);
	sb_coll_seq(&b, dv->coll, dv->seq);
	sb_add(&b, " with %s %s", f0->name, odd->text);
	if (odd->bytes >= 0)
		sb_add(&b, " (%lld bytes)", (long long)odd->bytes);
	sb_add(&b, ", ");
	sb_who(&b, &common->ranks);
	sb_add(&b, " with %s", common->text);
	if (common->bytes >= 0)
		sb_add(&b, " (%lld bytes)", (long long)common->bytes);
	if (f0->nval > 2)
		sb_add(&b, " (%zu different values)", f0->nval);
	if (dv->nfield > 1)
		sb_add(&b, "; %zu fields differ", dv->nfield);
	a->verdict = sb_take(&b);
	return a->verdict ? 0 : -ENOMEM;
}

/* The collective a rank holds at seq, or NULL. */
static const struct flight_record *find_seq(const struct state *st, int64_t seq, int64_t rank)
{
	size_t lo = 0, hi = st->nent;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct ent *e = &st->ent[mid];
		if (e->seq < seq || (e->seq == seq && e->rank < rank))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < st->nent && st->ent[lo].seq == seq && st->ent[lo].rank == rank)
		return st->ent[lo].r;
	return NULL;
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
			if (ranks_add(&dv->behind, r))
				return -ENOMEM;
			continue;
		}
		if (ranks_add(&dv->ahead, r))
			return -ENOMEM;
		const struct flight_record *x = find_seq(st, seq, r);
		if (x && dv->coll < 0)
			dv->coll = (int)x->coll;
		if (!x || x->state == FLIGHT_DONE)
			dv->waiting = 0;
	}
	sb_who(&b, &dv->behind);
	sb_add(&b, " never started ");
	sb_coll_seq(&b, dv->coll, seq);
	sb_add(&b, "; ");
	sb_who(&b, &dv->ahead);
	if (dv->waiting)
		sb_add(&b, " wait%s in it", dv->ahead.n == 1 ? "s" : "");
	else
		sb_add(&b, " reached it");
	dv->message = sb_take(&b);
	return dv->message ? 0 : -ENOMEM;
}

/* ---- send/recv: rank a's send #k to b against rank b's recv #k from a ---- */

struct pent {
	int64_t from, to, seq;
	int recv; /* 0: the sender's record, 1: the receiver's */
	const struct flight_record *r;
};

static int cmp_pent(const void *x, const void *y)
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

static void sb_host(struct sbuf *b, const struct state *st, int64_t rank)
{
	sb_add(b, "rank %lld (host %s)", (long long)rank, st->by_rank[rank]->host);
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
	sb_add(&b, "send #%lld from rank %lld to rank %lld: ", (long long)s->seq,
	       (long long)s->from, (long long)s->to);
	if (x->count != y->count)
		sb_add(&b,
		       "count: rank %lld sends %lld (%lld bytes), rank %lld receives %lld "
		       "(%lld bytes)",
		       (long long)s->from, (long long)x->count, (long long)rec_size(x),
		       (long long)s->to, (long long)y->count, (long long)rec_size(y));
	if (x->dtype != y->dtype) {
		char tx[48], ty[48];
		field_text(x, F_DTYPE, tx, sizeof(tx));
		field_text(y, F_DTYPE, ty, sizeof(ty));
		sb_add(&b,
		       "%sdtype: rank %lld sends %s (%lld bytes), rank %lld receives %s (%lld "
		       "bytes)",
		       x->count != y->count ? "; " : "", (long long)s->from, tx,
		       (long long)rec_size(x), (long long)s->to, ty, (long long)rec_size(y));
	}
	dv->message = sb_take(&b);
	a->kind = FLIGHT_MISMATCH;
	a->culprit = s->from;
	sb_host(&b, st, s->from);
	sb_add(&b, " sends %lld %s (%lld bytes) in send #%lld to ", (long long)x->count,
	       flight_dtype_name(x->dtype), (long long)rec_size(x), (long long)s->seq);
	sb_host(&b, st, s->to);
	sb_add(&b, ", which receives %lld %s (%lld bytes)", (long long)y->count,
	       flight_dtype_name(y->dtype), (long long)rec_size(y));
	a->verdict = sb_take(&b);
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
	if (ranks_add(&dv->behind, other) || ranks_add(&dv->ahead, waiter))
		return -ENOMEM;
	sb_add(&b, "rank %lld never posted %s #%lld %s rank %lld; rank %lld %s in ",
	       (long long)other, w->recv ? "send" : "recv", (long long)w->seq,
	       w->recv ? "to" : "from", (long long)waiter, (long long)waiter,
	       w->r->state == FLIGHT_FAILED ? "failed" : "waits");
	sb_label(&b, w->r);
	dv->message = sb_take(&b);
	a->kind = FLIGHT_STUCK_RANK;
	a->culprit = other;
	sb_host(&b, st, other);
	sb_add(&b, " never posted %s #%lld %s rank %lld; ", w->recv ? "send" : "recv",
	       (long long)w->seq, w->recv ? "to" : "from", (long long)waiter);
	sb_host(&b, st, waiter);
	sb_add(&b, " %s in it", w->r->state == FLIGHT_FAILED ? "failed" : "waits");
	a->verdict = sb_take(&b);
	return dv->message && a->verdict ? 0 : -ENOMEM;
}

/* Finds the first send/recv pair that differs. Returns 1 when one was set, 0, or -ENOMEM. */
static int p2p(struct state *st, int only_mismatch)
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

/* ---- the verdict when no divergence explains it ---- */

static int same_label(const struct flight_record *x, const struct flight_record *y)
{
	return x->coll == y->coll && x->seq == y->seq &&
	       (!flight_is_p2p(x->coll) || x->root == y->root);
}

static int dead_rank(struct state *st)
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
		if ((rs->nopen && ranks_add(&waiting, rs->dump->rank)) ||
		    (on && ranks_add(&waiting_on, rs->dump->rank)))
			goto nomem;
	}
	sb_who(&b, &a->missing);
	sb_add(&b, " left no readable dump (dead, or its dump was not given)");
	if (waiting.n) {
		sb_add(&b, "; ");
		sb_who(&b, &waiting);
		sb_add(&b, " wait%s", waiting.n == 1 ? "s" : "");
		if (same)
			sb_add(&b, " in ");
		else
			sb_add(&b, ", rank %lld in ", (long long)in_rank);
		sb_label(&b, in);
		if (waiting_on.n) {
			sb_add(&b, "; ");
			sb_who(&b, &waiting_on);
			sb_add(&b, " wait%s for %s", waiting_on.n == 1 ? "s" : "",
			       a->missing.n == 1 ? "it" : "them");
		}
	} else if (a->last_seq >= 0) {
		sb_add(&b, "; the others completed every collective up to ");
		sb_coll_seq(&b, a->last_coll, a->last_seq);
	}
	a->verdict = sb_take(&b);
	ranks_release(&waiting);
	ranks_release(&waiting_on);
	return a->verdict ? 0 : -ENOMEM;
nomem:
	ranks_release(&waiting);
	ranks_release(&waiting_on);
	return -ENOMEM;
}

static int cmp_i64(const void *x, const void *y)
{
	int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
	return (a > b) - (a < b);
}

/* Every rank is in step but some collective did not finish: the rank most waited on, or the
 * one that failed without waiting on anybody. */
static int stall(struct state *st)
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
			if (on && ranks_add(&waiters, rs->dump->rank)) {
				ranks_release(&waiters);
				return -ENOMEM;
			}
		}
		a->culprit = best;
		sb_add(&b, "rank %lld (host %s) is the rank the others wait on: ", (long long)best,
		       st->by_rank[best] ? st->by_rank[best]->host : "?");
		sb_who(&b, &waiters);
		sb_add(&b, " wait%s for it, rank %lld in ", waiters.n == 1 ? "s" : "",
		       (long long)wait_rank);
		sb_label(&b, wait);
		sb_add(&b, " at step %lld with %lld of %lld bytes received", (long long)wait->step,
		       (long long)wait->received, (long long)wait->bytes);
		ranks_release(&waiters);
	} else if (failed) {
		a->culprit = failed_rank;
		sb_host(&b, st, failed_rank);
		sb_add(&b, " failed ");
		sb_label(&b, failed);
		sb_add(&b, " at step %lld without waiting on another rank",
		       (long long)failed->step);
		if (failed->error)
			sb_add(&b, ": %s", failed->error);
	} else {
		a->culprit = first_rank;
		sb_host(&b, st, first_rank);
		sb_add(&b, " did not finish ");
		sb_label(&b, first);
	}
	a->verdict = sb_take(&b);
	return a->verdict ? 0 : -ENOMEM;
}

static int progress_verdict(struct state *st)
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
	sb_host(&b, st, a->culprit);
	sb_add(&b, " never started ");
	sb_coll_seq(&b, dv->coll, dv->seq);
	if (st->last[a->culprit] >= 0) {
		const struct flight_record *l = find_seq(st, st->last[a->culprit], a->culprit);
		sb_add(&b, " (its last: %s ", l ? flight_coll_name(l->coll) : "collective");
		sb_add(&b, "#%lld, %s)", (long long)st->last[a->culprit],
		       l ? flight_state_name(l->state) : "?");
	} else {
		sb_add(&b, " (it recorded no collective)");
	}
	if (dv->behind.n > 1) {
		sb_add(&b, "; ");
		sb_who(&b, &dv->behind);
		sb_add(&b, " are behind");
	}
	sb_add(&b, "; ");
	sb_who(&b, &dv->ahead);
	if (dv->waiting)
		sb_add(&b, " wait%s in it", dv->ahead.n == 1 ? "s" : "");
	else
		sb_add(&b, " reached it");
	a->verdict = sb_take(&b);
	return a->verdict ? 0 : -ENOMEM;
}

static int ok_verdict(struct state *st)
{
	struct flight_analysis *a = st->a;
	struct sbuf b = SBUF_INIT;
	a->kind = FLIGHT_OK;
	a->culprit = -1;
	sb_add(&b, "%zu rank%s agree", a->present.n, a->present.n == 1 ? "" : "s");
	if (a->last_seq >= 0) {
		sb_add(&b, " up to ");
		sb_coll_seq(&b, a->last_coll, a->last_seq);
		sb_add(&b, " and completed every collective");
	} else {
		sb_add(&b, "; no collective recorded");
	}
	a->verdict = sb_take(&b);
	return a->verdict ? 0 : -ENOMEM;
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
	qsort(st->p2p, st->np2p, sizeof(*st->p2p), cmp_pent);
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
			sb_add(&b, "rank %lld has two dumps, %s and %s; using the newer, %s",
			       (long long)d->rank, old->name, d->name, keep->name);
			if ((rc = add_note(a, &b)))
				return rc;
			st->by_rank[d->rank] = keep;
			continue;
		}
		st->by_rank[d->rank] = d;
	}
	for (int64_t r = 0; r < ws; r++)
		if (ranks_add(st->by_rank[r] ? &a->present : &a->missing, r))
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
	if ((rc = p2p(st, 1)))
		return rc < 0 ? rc : 0;
	if (has_p && (rc = set_progress(st, sp)))
		return rc;
	if (a->missing.n)
		return dead_rank(st);
	if (has_p)
		return progress_verdict(st);
	if ((rc = p2p(st, 0)))
		return rc < 0 ? rc : 0;
	if (!a->all_done)
		return stall(st);
	return ok_verdict(st);
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
	ranks_release(&a->present);
	ranks_release(&a->missing);
	ranks_release(&a->div.behind);
	ranks_release(&a->div.ahead);
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
