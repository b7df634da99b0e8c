/* The flight-recorder merge's words: a bounded message builder, and the text of ranks,
 * records, fields and hosts that every finding is written with (flight_int.h); apart so that
 * the merge, the send/recv pass and the verdicts share them without calling each other. */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probes/flight/flight.h"
#include "probes/flight/flight_int.h"
#include "ranktable/base/plural.h"

__attribute__((format(printf, 2, 3))) void flight__sb_add(struct sbuf *b, const char *fmt, ...)
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
char *flight__sb_take(struct sbuf *b)
{
	b->cut = 0;
	return buf_take(&b->b);
}

int flight__ranks_add(struct flight_ranks *r, int64_t v)
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

void flight__ranks_release(struct flight_ranks *r)
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
			flight__sb_add(b, "%s%lld-%lld", i ? "," : "", (long long)r->v[i],
			       (long long)r->v[j]);
			i = j + 1;
		} else {
			flight__sb_add(b, "%s%lld", i ? "," : "", (long long)r->v[i]);
			i++;
		}
	}
}

const char *flight_ranks_text(const struct flight_ranks *r, char *buf, size_t len)
{
	struct sbuf b = SBUF_INIT;
	sb_ranks(&b, r);
	char *s = flight__sb_take(&b);
	if (len) {
		snprintf(buf, len, "%s", s ? s : "");
		if (s && strlen(s) >= len && len > 4)
			memcpy(buf + len - 4, "...", 4);
	}
	free(s);
	return buf;
}

/* "rank 3" or "ranks 0,1,2" */
void flight__sb_who(struct sbuf *b, const struct flight_ranks *r)
{
	flight__sb_add(b, "rank%s ", plural_s(r->n));
	sb_ranks(b, r);
}

/* "; rank 1 waits in it" or "; ranks 1,2 reached it": the ranks ahead of a divergence */
void flight__sb_ahead(struct sbuf *b, const struct flight_ranks *ahead, int waiting)
{
	flight__sb_add(b, "; ");
	flight__sb_who(b, ahead);
	if (waiting)
		flight__sb_add(b, " wait%s in it", ahead->n == 1 ? "s" : "");
	else
		flight__sb_add(b, " reached it");
}

const char *flight_kind_name(enum flight_kind k)
{
	static const char *const names[] = {"ok", "dead-rank", "stuck-rank", "mismatch", "config"};
	return (size_t)k < sizeof(names) / sizeof(names[0]) ? names[k] : "?";
}

/* "allreduce #41", "send #3 to rank 1", "recv #3 from rank 0" */
void flight__sb_label(struct sbuf *b, const struct flight_record *r)
{
	flight__sb_add(b, "%s #%lld", flight_coll_name(r->coll), (long long)r->seq);
	if (r->coll == FLIGHT_SEND)
		flight__sb_add(b, " to rank %lld", (long long)r->root);
	else if (r->coll == FLIGHT_RECV)
		flight__sb_add(b, " from rank %lld", (long long)r->root);
}

void flight__sb_coll_seq(struct sbuf *b, int coll, int64_t seq)
{
	if (coll >= 0)
		flight__sb_add(b, "%s #%lld", flight_coll_name((enum flight_coll)coll), (long long)seq);
	else
		flight__sb_add(b, "collective #%lld", (long long)seq);
}

/* "running allreduce #41 (step 3, waiting for rank 3, sent 786432 and received 524288 bytes
 * of a 1048576-byte buffer)": sent and received count every step's bytes, so they may pass
 * the buffer's size (a ring allreduce moves 2(n-1)/n of it each way) */
void flight__sb_open(struct sbuf *b, const struct flight_record *r)
{
	flight__sb_add(b, "%s ", flight_state_name(r->state));
	flight__sb_label(b, r);
	if (r->step < 0)
		flight__sb_add(b, " (in the fingerprint exchange");
	else
		flight__sb_add(b, " (step %lld", (long long)r->step);
	if (r->peer >= 0)
		flight__sb_add(b, ", waiting for rank %lld", (long long)r->peer);
	flight__sb_add(b, ", sent %lld and received %lld bytes of a %lld-byte buffer)",
		       (long long)r->sent, (long long)r->received, (long long)r->bytes);
}

/* The fingerprint fields, as text (value) and as bytes where it is a size. */

void flight__field_text(const struct flight_record *r, int f, char *buf, size_t len)
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

int64_t flight__rec_size(const struct flight_record *r)
{
	size_t es = flight_dtype_size(r->dtype);
	if (es && r->count > INT64_MAX / (int64_t)es)
		return -1;
	return r->count * (int64_t)es;
}

/* The collective a rank holds at seq, or NULL. */
const struct flight_record *flight__find_seq(const struct state *st, int64_t seq, int64_t rank)
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

void flight__sb_host(struct sbuf *b, const struct state *st, int64_t rank)
{
	flight__sb_add(b, "rank %lld (host %s)", (long long)rank, st->by_rank[rank]->host);
}
