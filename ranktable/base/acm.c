/* See acm.h. The trie is built with sibling lists, then turned into a full transition table
 * over byte classes (the bytes the needles use, folded when ACM_NOCASE, and one class for every
 * other byte): a scan then costs one table read per byte, whatever the number of needles. The
 * few hundred needles of the log catalogs make some 10 000 nodes and 80 classes, about 3 MB. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ranktable/base/acm.h"

struct acnode {
	int child, sibling; /* the trie, while needles are added */
	int fail, out, olink; /* out: 1-based into outs; olink: nearest suffix with outputs */
	int minid;	      /* the smallest id ending here or at a suffix, -1 none */
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
	int *delta; /* nnode x ncls, after acm_build: next node << 1 | 1 when it has outputs */
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
	a->node[a->nnode] = (struct acnode){ 0, 0, 0, 0, 0, -1, c };
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
	if (!n || a->delta)
		return 0;
	int u = 0;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = fold(a, (unsigned char)s[i]);
		int v = trie_child(a, u, c);
		if (!v) {
			if ((v = new_node(a, c)) < 0)
				return -ENOMEM;
			a->node[v].sibling = a->node[u].child;
			a->node[u].child = v;
		}
		u = v;
	}
	if (grow((void **)&a->out, &a->capout, a->nout, sizeof(*a->out)))
		return -ENOMEM;
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

int acm_build(struct acm *a)
{
	if (a->delta)
		return 0;
	classes(a);
	int *queue = malloc(a->nnode * sizeof(*queue));
	a->delta = calloc(a->nnode * a->ncls, sizeof(*a->delta));
	if (!queue || !a->delta) {
		free(queue);
		free(a->delta);
		a->delta = NULL;
		return -ENOMEM;
	}
	size_t head = 0, tail = 0;
	queue[tail++] = 0;
	while (head < tail) {
		int u = queue[head++];
		struct acnode *nu = &a->node[u];
		int *row = a->delta + (size_t)u * a->ncls;
		if (u)
			memcpy(row, a->delta + (size_t)nu->fail * a->ncls, a->ncls * sizeof(*row));
		for (int v = nu->child; v; v = a->node[v].sibling) {
			size_t c = a->cls[a->node[v].c];
			/* the fail of v: where the longest proper suffix of v's string leads */
			int f = u ? row[c] >> 1 : 0;
			struct acnode *nv = &a->node[v];
			nv->fail = f;
			nv->olink = a->node[f].out ? f : a->node[f].olink;
			int fm = a->node[f].minid;
			if (fm >= 0 && (nv->minid < 0 || fm < nv->minid))
				nv->minid = fm;
			row[c] = v << 1 | (nv->minid >= 0);
			queue[tail++] = v;
		}
	}
	free(queue);
	return 0;
}

int acm_scan(const struct acm *a, const char *s, size_t n,
	     int (*hit)(void *ctx, int id, size_t end), void *ctx)
{
	int u = 0;
	for (size_t i = 0; a->delta && i < n; i++) {
		int d = a->delta[(size_t)u * a->ncls + a->cls[(unsigned char)s[i]]];
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
	for (size_t i = 0; a->delta && i < n; i++) {
		int d = a->delta[(size_t)u * a->ncls + a->cls[(unsigned char)s[i]]];
		u = d >> 1;
		if (d & 1 && (best < 0 || a->node[u].minid < best))
			best = a->node[u].minid;
	}
	return best;
}
