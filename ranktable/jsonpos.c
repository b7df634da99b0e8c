/* Positions of a tree's values (see jsonpos.h): line and column from an offset, and the
 * offsets of a tree cJSON parsed bound to its nodes. The reader is jsonparse.c. */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ranktable/jsonpos.h"

/* Line and column of byte off (one the scan recorded), counted from the last checkpoint
 * at or before it. */
static void off_at(const struct rt__jpos *p, size_t off, unsigned *line, unsigned *col)
{
	size_t lo = 0, hi = p->nck; /* the first checkpoint is the first value's */
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (p->ck[mid].off <= off)
			lo = mid;
		else
			hi = mid;
	}
	const struct rt__jpos_ck *k = p->nck ? &p->ck[lo] : NULL;
	size_t from = p->bom;
	*line = *col = 1;
	if (k && k->off <= off) { /* else a key before the first value: from the top */
		*line = k->line;
		*col = k->col;
		from = k->off;
	}
	rt__jpos_advance(p->buf, from, off, line, col);
}

/* Calls fn on each node of root in pre-order with its index, until fn returns non-zero
 * (which is returned) or the nodes outnumber the scan's values (-EINVAL); 0 at the end with
 * *count the nodes seen. */
static int preorder(const struct rt__jpos *p, cJSON *root, size_t *count,
		    int (*fn)(cJSON *node, size_t idx, void *arg), void *arg)
{
	/* without recursion: the stack holds the next sibling of each open level */
	cJSON *stack[RT_JPOS_MAXDEPTH + 2];
	size_t depth = 0, idx = 0;
	cJSON *node = root;
	while (node) {
		if (idx >= p->n)
			return -EINVAL;
		int rc = fn(node, idx++, arg);
		if (rc)
			return rc;
		if (node->child) {
			if (node->next) {
				if (depth == RT_JPOS_MAXDEPTH + 2)
					return -EINVAL;
				stack[depth++] = node->next;
			}
			node = node->child;
		} else if (node->next) {
			node = node->next;
		} else {
			node = depth ? stack[--depth] : NULL;
		}
	}
	*count = idx;
	return 0;
}

static int set_offset(cJSON *node, size_t idx, void *arg)
{
	const struct rt__jpos *p = arg;
	node->valueint = (int)p->v[idx];
	return 0;
}

/* Each node's offset goes in its valueint, which cJSON fills only for numbers and none of
 * its functions we call read (a number's value is valuedouble): a pointer hash of twice the
 * nodes' count cost 24 to 48 bytes a node, more than the positions themselves. */
int rt__jpos_bind(struct rt__jpos *p, cJSON *root)
{
	size_t n = 0;
	if (preorder(p, root, &n, set_offset, p))
		return -EINVAL;
	p->bound = n == p->n;
	return p->bound ? 0 : -EINVAL;
}

struct find {
	const cJSON *node;
	size_t idx;
};

static int is_node(cJSON *node, size_t idx, void *arg)
{
	struct find *f = arg;
	f->idx = idx;
	return node == f->node;
}

int rt__jpos_find(const struct rt__jpos *p, const cJSON *root, const cJSON *node,
		  unsigned *line, unsigned *col)
{
	struct find f = { node, 0 };
	size_t n;
	*line = *col = 0;
	/* the walk only reads: the cast is preorder's, shared with rt__jpos_bind */
	if (preorder(p, (cJSON *)root, &n, is_node, &f) != 1)
		return -ENOENT;
	off_at(p, p->v[f.idx], line, col);
	return 0;
}

/* The cJSON type a value starting with byte c has. */
static int type_of(unsigned char c)
{
	switch (c) {
	case '{':
		return cJSON_Object;
	case '[':
		return cJSON_Array;
	case '"':
		return cJSON_String;
	case 't':
		return cJSON_True;
	case 'f':
		return cJSON_False;
	case 'n':
		return cJSON_NULL;
	default:
		return cJSON_Number;
	}
}

static int is_ws(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Where node starts, or -1; a node of another tree (whose valueint means something else) is
 * told by its type or its key not being those of the value at that offset. */
static long lookup(const struct rt__jpos *p, const cJSON *node)
{
	if (!p || !p->bound || !node)
		return -1;
	if (node->valueint < (int)p->bom || (size_t)node->valueint >= p->len)
		return -1;
	size_t off = (size_t)node->valueint;
	if ((node->type & 0xFF) != type_of((unsigned char)p->buf[off]))
		return -1;
	size_t j = off;
	while (j > p->bom && is_ws(p->buf[j - 1]))
		j--;
	int keyed = j > p->bom && p->buf[j - 1] == ':';
	if (!node->string != !keyed)
		return -1;
	return (long)off;
}

/* The opening quote of the key before the value at off (after its ':'): the first '"'
 * back from the key's closing one that no odd run of backslashes escapes. */
static size_t key_at(const struct rt__jpos *p, size_t off)
{
	const char *b = p->buf;
	size_t j = off;
	while (is_ws(b[j - 1]))
		j--;
	j--; /* the ':' */
	while (is_ws(b[j - 1]))
		j--;
	j--; /* the closing quote */
	for (;;) {
		while (b[j - 1] != '"')
			j--;
		size_t k = j - 1, bs = 0;
		while (b[k - 1 - bs] == '\\')
			bs++;
		if (!(bs & 1))
			return k;
		j = k;
	}
}

int rt__jpos_get(const struct rt__jpos *p, const cJSON *node, unsigned *line, unsigned *col)
{
	long off = lookup(p, node);
	*line = *col = 0;
	if (off < 0)
		return -ENOENT;
	off_at(p, (size_t)off, line, col);
	return 0;
}

int rt__jpos_key(const struct rt__jpos *p, const cJSON *node, unsigned *line, unsigned *col)
{
	long off = lookup(p, node);
	*line = *col = 0;
	if (off < 0 || !node->string)
		return -ENOENT;
	off_at(p, key_at(p, (size_t)off), line, col);
	return 0;
}

int rt__jpos_node(const struct rt__jpos *p, const struct rt__jnode *node, unsigned *line,
		  unsigned *col)
{
	*line = *col = 0;
	if (!node)
		return -ENOENT;
	off_at(p, node->off, line, col);
	return 0;
}

int rt__jpos_nodekey(const struct rt__jpos *p, const struct rt__jnode *node, unsigned *line,
		     unsigned *col)
{
	*line = *col = 0;
	if (!node || !node->key)
		return -ENOENT;
	off_at(p, key_at(p, node->off), line, col);
	return 0;
}

void rt__jpos_release(struct rt__jpos *p)
{
	free(p->v);
	free(p->ck);
	memset(p, 0, sizeof(*p));
}
