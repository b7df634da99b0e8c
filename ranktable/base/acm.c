/* See acm.h. The trie is built with sibling lists; at acm_build the nodes breadth first, up to
 * a budget of ROW_BYTES, get a full transition row over byte classes (the bytes the needles
 * use, folded when ACM_NOCASE, and one class for every other byte); the deeper ones keep their
 * children and fail link. A scan spends most bytes near the root, where a step is one table
 * read; a deep node has one or two children, and a miss falls back along fail links to a row.
 * Rows for every node cost the knowledge base's 19 000 nodes x 81 classes = 6 MB and 50 ms to
 * build at each start of doctor --logs; 2 MB of rows cover the catalog's automaton whole and
 * the knowledge base's to depth 4-5 (rows only to depth 3 made its scans twice as slow). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ranktable/base/acm.h"
#include "ranktable/base/acm_int.h"
#include "ranktable/base/bigmem.h"

#define ROW_BYTES (2u << 20)

static unsigned char fold(const struct acm *a, unsigned char c)
{
	return (a->flags & ACM_NOCASE) && c >= 'A' && c <= 'Z' ? (unsigned char)(c + 32) : c;
}

static int grow(void **p, size_t *cap, size_t n, size_t size)
{
	if (n < *cap)
		return 0;
	size_t c = *cap ? *cap * 2 : 256;
	void *q = realloc(*p, c * size);
	if (!q)
		return -ENOMEM;
	*p = q;
	*cap = c;
	return 0;
}

static int new_node(struct acm *a, unsigned char c)
{
	if (grow((void **)&a->node, &a->capnode, a->nnode, sizeof(*a->node)))
		return -ENOMEM;
	/* the padding too: an image (acm_save) holds the nodes' bytes */
	memset(&a->node[a->nnode], 0, sizeof(*a->node));
	a->node[a->nnode].minid = -1;
	a->node[a->nnode].c = c;
	return (int)a->nnode++;
}

struct acm *acm_new(int flags)
{
	struct acm *a = calloc(1, sizeof(*a));
	if (a && new_node(a, 0) < 0) {
		free(a);
		a = NULL;
	}
	if (a)
		a->flags = flags;
	return a;
}

void acm_free(struct acm *a)
{
	if (!a)
		return;
	if (!a->image) {
		free(a->node);
		free(a->out);
		free(a->delta);
	}
	free(a);
}

static int trie_child(const struct acm *a, int u, unsigned char c)
{
	for (int k = a->node[u].child; k; k = a->node[k].sibling)
		if (a->node[k].c == c)
			return k;
	return 0;
}

uint64_t acm__add_hash(uint64_t h, int id, const char *s, size_t n)
{
	unsigned char w[8] = {(unsigned char)id,	 (unsigned char)(id >> 8),
			      (unsigned char)(id >> 16), (unsigned char)(id >> 24),
			      (unsigned char)n,		 (unsigned char)(n >> 8),
			      (unsigned char)(n >> 16),	 (unsigned char)(n >> 24)};
	h = h ? h : 0xcbf29ce484222325ull;
	for (size_t i = 0; i < sizeof(w); i++)
		h = (h ^ w[i]) * 0x100000001b3ull;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 0x100000001b3ull;
	return h;
}

int acm_add(struct acm *a, const char *s, size_t n, int id)
{
	if (!a || a->err)
		return a ? a->err : -ENOMEM;
	if (n)
		a->inhash = acm__add_hash(a->inhash, id, s, n);
	if (!n || a->built)
		return 0;
	int u = 0;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = fold(a, (unsigned char)s[i]);
		int v = trie_child(a, u, c);
		if (!v) {
			if ((v = new_node(a, c)) < 0)
				return a->err = -ENOMEM;
			a->node[v].sibling = a->node[u].child;
			a->node[u].child = v;
		}
		u = v;
	}
	if (grow((void **)&a->out, &a->capout, a->nout, sizeof(*a->out)))
		return a->err = -ENOMEM;
	a->out[a->nout] = (struct acout){ id, a->node[u].out };
	a->node[u].out = (int)++a->nout;
	if (a->node[u].minid < 0 || id < a->node[u].minid)
		a->node[u].minid = id;
	return 0;
}

/* Byte classes: each byte a needle uses gets its own, every other byte class 0 (which only
 * the root's row leads anywhere from, and it leads back to the root). */
static void classes(struct acm *a)
{
	memset(a->cls, 0, sizeof(a->cls));
	a->ncls = 1;
	for (size_t u = 1; u < a->nnode; u++)
		if (!a->cls[a->node[u].c])
			a->cls[a->node[u].c] = (unsigned short)a->ncls++;
	if (a->flags & ACM_NOCASE)
		for (int c = 'A'; c <= 'Z'; c++)
			a->cls[c] = a->cls[c + 32];
}

/* A state as the scan holds it and the rows store it: node v with a row as the offset of its
 * row, shifted left by one, else v shifted and the sign bit set; either way | 1 when v has
 * outputs. The offset saves the scan a multiplication in the chain of loads each byte waits
 * on (a step is one load, a shift and an add), and the sign tells it a node without a row
 * without a comparison with rows. */
static int enc(const struct acm *a, int v, int out)
{
	if ((size_t)v < a->rows)
		return (int)((size_t)v * a->ncls) << 1 | out;
	return (int)(0x80000000u | (unsigned)v << 1 | (unsigned)out);
}

/* The node of state e. */
static int node_of(const struct acm *a, int e)
{
	return e < 0 ? (int)((unsigned)e & 0x7fffffffu) >> 1 : (int)((size_t)(e >> 1) / a->ncls);
}

/* The transition from u on class k: next node << 1 | 1 when it has outputs. */
static inline int step(const struct acm *a, int u, unsigned k)
{
	while ((size_t)u >= a->rows) {
		const struct acnode *nu = &a->node[u];
		for (int v = nu->child; v; v = a->node[v].sibling)
			if (a->node[v].k == k)
				return v << 1 | (a->node[v].minid >= 0);
		u = nu->fail;
	}
	int e = a->delta[(size_t)u * a->ncls + k];
	return node_of(a, e) << 1 | (e & 1);
}

/* The state after e on class k (not 0, which leads to the root). */
static inline int next_state(const struct acm *a, int e, unsigned k)
{
	if (e >= 0)
		return a->delta[(size_t)(e >> 1) + k];
	int d = step(a, node_of(a, e), k);
	return enc(a, d >> 1, d & 1);
}

/* Numbers the nodes breadth first (the root stays 0) with their class, so that a node's
 * fail, being shallower, comes before it; the first ones, as many as ROW_BYTES holds (at
 * least the root), get a row: node u's is row u, and a scan tells a node with a row by its
 * number alone. Only before fail links are made. */
static int renumber(struct acm *a)
{
	int *q = malloc(a->nnode * sizeof(*q)), *id = malloc(a->nnode * sizeof(*id));
	struct acnode *nn = malloc(a->nnode * sizeof(*nn));
	if (!q || !id || !nn) {
		free(q);
		free(id);
		free(nn);
		return -ENOMEM;
	}
	size_t head = 0, tail = 0;
	q[tail++] = 0;
	while (head < tail)
		for (int v = a->node[q[head++]].child; v; v = a->node[v].sibling)
			q[tail++] = v;
	for (size_t i = 0; i < a->nnode; i++)
		id[q[i]] = (int)i;
	for (size_t i = 0; i < a->nnode; i++) {
		nn[i] = a->node[q[i]];
		nn[i].child = nn[i].child ? id[nn[i].child] : 0;
		nn[i].sibling = nn[i].sibling ? id[nn[i].sibling] : 0;
		nn[i].k = a->cls[nn[i].c];
	}
	free(a->node);
	a->node = nn;
	a->capnode = a->nnode;
	free(q);
	free(id);
	size_t most = a->flags & ACM_ROOT_ROW ? 1 : ROW_BYTES / (a->ncls * sizeof(int));
	a->rows = a->nnode < most ? a->nnode : most ? most : 1;
	return 0;
}

int acm_build(struct acm *a)
{
	if (!a || a->err)
		return a ? a->err : -ENOMEM;
	/* an image is the automaton of exactly the needles added since it was opened */
	if (a->image)
		return a->inhash == a->imghash ? 0 : -ESTALE;
	if (a->built)
		return 0;
	classes(a);
	if (renumber(a) || !(a->delta = calloc(a->rows * a->ncls, sizeof(*a->delta))))
		return a->err = -ENOMEM;
	/* every row is written below: fault the rows in at once, not a page at a time */
	big_populate(a->delta, a->rows * a->ncls * sizeof(*a->delta));
	for (size_t u = 0; u < a->nnode; u++) {
		struct acnode *nu = &a->node[u];
		int *row = u < a->rows ? a->delta + u * a->ncls : NULL;
		/* a row starts as its fail's, which comes before it and so has one */
		if (row && u)
			memcpy(row, a->delta + (size_t)nu->fail * a->ncls, a->ncls * sizeof(*row));
		for (int v = nu->child; v; v = a->node[v].sibling) {
			struct acnode *nv = &a->node[v];
			/* the fail of v: where the longest proper suffix of v's string leads */
			int f = u ? step(a, nu->fail, nv->k) >> 1 : 0;
			nv->fail = f;
			nv->olink = a->node[f].out ? f : a->node[f].olink;
			int fm = a->node[f].minid;
			if (fm >= 0 && (nv->minid < 0 || fm < nv->minid))
				nv->minid = fm;
			if (row)
				row[nv->k] = enc(a, v, nv->minid >= 0);
		}
	}
	a->built = 1;
	return 0;
}

/* Reports the needles that end at i + 1 in state e (which has outputs). */
static int report(const struct acm *a, int e, size_t i,
		  int (*hit)(void *ctx, int id, size_t end), void *ctx)
{
	int u = node_of(a, e);
	for (int m = a->node[u].out ? u : a->node[u].olink; m; m = a->node[m].olink)
		for (int o = a->node[m].out; o; o = a->out[o - 1].next) {
			int rc = hit(ctx, a->out[o - 1].id, i + 1);
			if (rc)
				return rc;
		}
	return 0;
}

int acm_scan(const struct acm *a, const char *s, size_t n,
	     int (*hit)(void *ctx, int id, size_t end), void *ctx)
{
	int e = 0, rc;
	for (size_t i = 0; a->built && i < n; i++) {
		unsigned k = a->cls[(unsigned char)s[i]];
		e = k ? next_state(a, e, k) : 0;
		if (e & 1 && (rc = report(a, e, i, hit, ctx)))
			return rc;
	}
	return 0;
}

int acm_scan2(const struct acm *a, int (*hit_a)(void *ctx, int id, size_t end), void *ctx_a,
	      const struct acm *b, int (*hit_b)(void *ctx, int id, size_t end), void *ctx_b,
	      const char *s, size_t n)
{
	if (!b || !b->built)
		return acm_scan(a, s, n, hit_a, ctx_a);
	if (!a->built)
		return acm_scan(b, s, n, hit_b, ctx_b);
	int e = 0, f = 0, rc;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		unsigned k = a->cls[c], l = b->cls[c];
		e = k ? next_state(a, e, k) : 0;
		f = l ? next_state(b, f, l) : 0;
		if (e & 1 && (rc = report(a, e, i, hit_a, ctx_a)))
			return rc;
		if (f & 1 && (rc = report(b, f, i, hit_b, ctx_b)))
			return rc;
	}
	return 0;
}

int acm_first_id(const struct acm *a, const char *s, size_t n)
{
	int e = 0, best = -1;
	for (size_t i = 0; a->built && i < n; i++) {
		unsigned k = a->cls[(unsigned char)s[i]];
		e = k ? next_state(a, e, k) : 0;
		if (e & 1 && (best < 0 || a->node[node_of(a, e)].minid < best))
			best = a->node[node_of(a, e)].minid;
	}
	return best;
}
