/* Fingerprints compared: whether two agree, and the message that names the first field in
 * which the ranks differ, the same on every rank that holds the same fingerprints. */
#include "libcomm/internal.h"

/* The fingerprint has no field of its own for the compression (wire.h); an allreduce has no
 * root, so its root slot carries the compression (-1: none), shown as its own field. */
enum { F_COLL, F_SEQ, F_COUNT, F_DTYPE, F_OP, F_ROOT, F_COMPRESS, F_ALGO, F_END };
static const char *const field_name[F_END] = { "collective", "sequence number", "count",
					       "dtype",      "op",              "root",
					       "compression", "algorithm" };

static enum comm_compress fp_compress(const struct comm__fp *f)
{
	if (f->coll != COMM_COLL_ALLREDUCE || f->root < 0 || f->root >= COMM_COMPRESS_COUNT)
		return COMM_COMPRESS_NONE;
	return (enum comm_compress)f->root;
}

static uint64_t field(const struct comm__fp *f, int k)
{
	switch (k) {
	case F_COLL: return f->coll;
	case F_SEQ: return f->seq;
	case F_COUNT: return f->count;
	case F_DTYPE: return f->dtype;
	case F_OP: return f->op;
	case F_ROOT: /* an allreduce's root slot is its compression */
		return f->coll == COMM_COLL_ALLREDUCE ? UINT32_MAX : (uint64_t)(uint32_t)f->root;
	case F_COMPRESS: return fp_compress(f);
	default: return f->algo;
	}
}

static void show(const struct comm__fp *f, int k, char *buf, size_t len)
{
	switch (k) {
	case F_COLL: snprintf(buf, len, "%s #%u", comm__op_display(f->coll), f->seq); break;
	case F_SEQ: snprintf(buf, len, "#%u", f->seq); break;
	case F_COUNT: snprintf(buf, len, "%llu", (unsigned long long)f->count); break;
	case F_DTYPE: snprintf(buf, len, "%s", comm_dtype_name((enum comm_dtype)f->dtype)); break;
	case F_OP: snprintf(buf, len, "%s", comm_op_name((enum comm_op)f->op)); break;
	case F_ROOT: snprintf(buf, len, "%d", f->root); break;
	case F_COMPRESS: snprintf(buf, len, "%s", comm_compress_name(fp_compress(f))); break;
	default: snprintf(buf, len, "%s", comm_algo_name((enum comm_algo)f->algo)); break;
	}
}

int comm__fp_differ(struct comm *c, bool (*known)(const struct comm *c, int r, const void *arg),
		    const void *arg)
{
	bool *k = calloc((size_t)c->nranks, sizeof(*k));
	if (!k)
		return comm__fail(c, COMM_E_NOMEM, "out of memory");
	for (int r = 0; r < c->nranks; r++)
		k[r] = r == c->rank || known(c, r, arg);
	int rc = comm__fp_compare_all(c, c->fps, k);
	free(k);
	return rc ? rc : comm__fail(c, COMM_E_PROTO, "fingerprints differ but compare equal (bug)");
}

/* Every rank holds the same fps[], so every rank names the same two ranks and field: the
 * first field that differs, the lowest rank holding the majority value, and the lowest rank
 * that differs from it. known (NULL: all) leaves out the ranks whose fingerprint never came. */
int comm__fp_compare_all(struct comm *c, const struct comm__fp *fps, const bool *known)
{
	int n = c->nranks, nk = 0;
	for (int i = 0; i < n; i++)
		nk += !known || known[i];
	for (int k = 0; k < F_END; k++) {
		int maj = -1, majcnt = 0, odd = -1, nodd = 0;
		for (int i = 0; i < n; i++) {
			if (known && !known[i])
				continue;
			int cnt = 0;
			for (int j = 0; j < n; j++)
				cnt += (!known || known[j]) && field(&fps[i], k) == field(&fps[j], k);
			if (cnt > majcnt) {
				maj = i;
				majcnt = cnt;
			}
		}
		if (maj < 0 || majcnt == nk)
			continue;
		for (int i = 0; i < n; i++)
			if ((!known || known[i]) && field(&fps[i], k) != field(&fps[maj], k) &&
			    nodd++ == 0)
				odd = i;
		int a = maj < odd ? maj : odd, b = maj < odd ? odd : maj;
		char va[64], vb[64], more[48] = "";
		show(&fps[a], k, va, sizeof(va));
		show(&fps[b], k, vb, sizeof(vb));
		if (nodd > 1)
			snprintf(more, sizeof(more), " (%d ranks differ)", nodd);
		if (k == F_COLL)
			return comm__fail(c, COMM_E_MISMATCH, "rank %d is in %s but rank %d is in %s%s",
					  a, va, b, vb, more);
		return comm__fail(c, COMM_E_MISMATCH, "rank %d has %s %s but rank %d has %s %s%s", a,
				  field_name[k], va, b, field_name[k], vb, more);
	}
	return 0;
}

bool comm__fp_same(const struct comm__fp *a, const struct comm__fp *b)
{
	for (int k = 0; k < F_END; k++)
		if (field(a, k) != field(b, k))
			return false;
	return true;
}

/* send/recv: the peer's fingerprint o must be the mirror image of ours. */
int comm__fp_compare_pair(struct comm *c, const struct comm__fp *mine, const struct comm__fp *o,
			  int peer)
{
	int s = mine->coll == COMM_COLL_SEND ? c->rank : peer, d = s == c->rank ? peer : c->rank;
	const struct comm__fp *fs = s == c->rank ? mine : o, *fd = s == c->rank ? o : mine;
	char a[64], b[64];
	if (o->coll != (mine->coll == COMM_COLL_SEND ? COMM_COLL_RECV : COMM_COLL_SEND) ||
	    o->root != c->rank) {
		show(mine, F_COLL, a, sizeof(a));
		show(o, F_COLL, b, sizeof(b));
		return comm__fail(c, COMM_E_MISMATCH, "rank %d is in %s%s but rank %d is in %s%s",
				  c->rank, a, "", peer, b,
				  comm__is_p2p(o->coll) ? (o->root == c->rank ? "" : " with another rank") : "");
	}
	for (int k = F_SEQ; k <= F_DTYPE; k++) {
		if (field(fs, k) == field(fd, k))
			continue;
		show(fs, k, a, sizeof(a));
		show(fd, k, b, sizeof(b));
		return comm__fail(c, COMM_E_MISMATCH, "rank %d sends %s %s but rank %d receives %s %s",
				  s, field_name[k], a, d, field_name[k], b);
	}
	return 0;
}
