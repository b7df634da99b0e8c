/* See acm.h. The trie is built with sibling lists; at acm_build its shallow nodes get a full
 * transition row over byte classes (the bytes the needles use, folded when ACM_NOCASE, and
 * one class for every other byte), the deeper ones keep their children and fail link. A
 * scan spends most bytes near the root, where a step is one table read; a node below
 * DENSE_DEPTH has one or two children, and a miss falls back along fail links to a row.
 * Rows for every node cost the knowledge base's 19 000 nodes x 81 classes = 6 MB and 50 ms
 * to build at each start; rows to depth 3 cost a few hundred KB for the same scan speed. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ranktable/base/acm.h"

#define DENSE_DEPTH 3

struct acnode {
	int child, sibling; /* the trie */
	int fail, out, olink; /* out: 1-based into outs; olink: nearest suffix with outputs */
	int minid;	      /* the smallest id ending here or at a suffix, -1 none */
	int row;	      /* its row in delta, -1 for a node below DENSE_DEPTH */
	int depth;
	unsigned short k;     /* the class of c */
	unsigned char c;
};

struct acout {
	int id, next;
};

struct acm {
	int flags;
	struct acnode *node;
	size_t nnode, capnode;
	struct acout *out;
	size_t nout, capout;
	unsigned short cls[256];
	size_t ncls;
	/* rows x ncls, after acm_build: next node << 1 | 1 when it has outputs */
	int *delta;
	int built;
	int err; /* the first failure of acm_add, which acm_build returns */
};

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
	a->node[a->nnode] = (struct acnode){ 0, 0, 0, 0, 0, -1, -1, 0, 0, c };
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
	free(a->node);
	free(a->out);
	free(a->delta);
	free(a);
}

static int trie_child(const struct acm *a, int u, unsigned char c)
{
	for (int k = a->node[u].child; k; k = a->node[k].sibling)
		if (a->node[k].c == c)
			return k;
	return 0;
}

int acm_add(struct acm *a, const char *s, size_t n, int id)
{
	if (!a || a->err)
		return a ? a->err : -ENOMEM;
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

/* The transition from u on class k: next node << 1 | 1 when it has outputs. */
static int step(const struct acm *a, int u, unsigned k)
{
	for (;;) {
		const struct acnode *nu = &a->node[u];
		if (nu->row >= 0)
			return a->delta[(size_t)nu->row * a->ncls + k];
		for (int v = nu->child; v; v = a->node[v].sibling)
			if (a->node[v].k == k)
				return v << 1 | (a->node[v].minid >= 0);
		u = nu->fail;
	}
}

/* The nodes breadth first into q (shallow ones first), their depth and class; the number of
 * nodes with a row. */
static size_t order(struct acm *a, int *q)
{
	size_t head = 0, tail = 0, rows = 0;
	q[tail++] = 0;
	while (head < tail) {
		struct acnode *nu = &a->node[q[head++]];
		nu->k = a->cls[nu->c];
		if (nu->depth <= DENSE_DEPTH)
			nu->row = (int)rows++;
		for (int v = nu->child; v; v = a->node[v].sibling) {
			a->node[v].depth = nu->depth + 1;
			q[tail++] = v;
		}
	}
	return rows;
}

int acm_build(struct acm *a)
{
	if (!a || a->err)
		return a ? a->err : -ENOMEM;
	if (a->built)
		return 0;
	classes(a);
	int *q = malloc(a->nnode * sizeof(*q));
	if (!q)
		return -ENOMEM;
	size_t rows = order(a, q);
	if (!(a->delta = calloc(rows * a->ncls, sizeof(*a->delta)))) {
		free(q);
		return -ENOMEM;
	}
	for (size_t i = 0; i < a->nnode; i++) {
		int u = q[i];
		struct acnode *nu = &a->node[u];
		int *row = nu->row >= 0 ? a->delta + (size_t)nu->row * a->ncls : NULL;
		/* a row starts as its fail's, which is shallower and so has one */
		if (row && u)
			memcpy(row, a->delta + (size_t)a->node[nu->fail].row * a->ncls,
			       a->ncls * sizeof(*row));
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
				row[nv->k] = v << 1 | (nv->minid >= 0);
		}
	}
	free(q);
	a->built = 1;
	return 0;
}

int acm_scan(const struct acm *a, const char *s, size_t n,
	     int (*hit)(void *ctx, int id, size_t end), void *ctx)
{
	int u = 0;
	for (size_t i = 0; a->built && i < n; i++) {
		unsigned k = a->cls[(unsigned char)s[i]];
		int d = k ? step(a, u, k) : 0;
		u = d >> 1;
		if (!(d & 1))
			continue;
		for (int m = a->node[u].out ? u : a->node[u].olink; m; m = a->node[m].olink)
			for (int o = a->node[m].out; o; o = a->out[o - 1].next) {
				int rc = hit(ctx, a->out[o - 1].id, i + 1);
				if (rc)
					return rc;
			}
	}
	return 0;
}

int acm_first_id(const struct acm *a, const char *s, size_t n)
{
	int u = 0, best = -1;
	for (size_t i = 0; a->built && i < n; i++) {
		unsigned k = a->cls[(unsigned char)s[i]];
		int d = k ? step(a, u, k) : 0;
		u = d >> 1;
		if (d & 1 && (best < 0 || a->node[u].minid < best))
			best = a->node[u].minid;
	}
	return best;
}
