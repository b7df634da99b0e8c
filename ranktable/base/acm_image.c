/* See acm.h: a built automaton saved as bytes and read back in place. The bytes are a header
 * (a magic string naming the layout, the sizes of this build's node and output records, the
 * counts, the hash of the adds that built it, the byte classes), then the nodes, the outputs
 * and the rows, each as this build holds them in memory: an image is made and read by the
 * same build (the Makefile makes it with the program that will read it), so the header's
 * sizes only guard against bytes of another build. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ranktable/base/acm.h"
#include "ranktable/base/acm_int.h"

#define MAGIC "hcclctl-acm-1"

struct image_head {
	char magic[16];
	uint64_t node_size, out_size, flags, nnode, nout, ncls, rows, inhash;
	unsigned short cls[256];
};

int acm_save(const struct acm *a, FILE *f)
{
	if (!a || !a->built || a->image)
		return -EINVAL;
	struct image_head h;
	memset(&h, 0, sizeof(h));
	memcpy(h.magic, MAGIC, sizeof(MAGIC));
	h.node_size = sizeof(struct acnode);
	h.out_size = sizeof(struct acout);
	h.flags = (uint64_t)a->flags;
	h.nnode = a->nnode;
	h.nout = a->nout;
	h.ncls = a->ncls;
	h.rows = a->rows;
	h.inhash = a->inhash;
	memcpy(h.cls, a->cls, sizeof(h.cls));
	if (fwrite(&h, sizeof(h), 1, f) != 1 ||
	    fwrite(a->node, sizeof(*a->node), a->nnode, f) != a->nnode ||
	    (a->nout && fwrite(a->out, sizeof(*a->out), a->nout, f) != a->nout) ||
	    fwrite(a->delta, sizeof(*a->delta), a->rows * a->ncls, f) != a->rows * a->ncls)
		return -EIO;
	return 0;
}

struct acm *acm_open_image(const void *bytes, size_t len)
{
	struct image_head h;
	if (!bytes || len < sizeof(h) || ((uintptr_t)bytes & 7))
		return NULL;
	memcpy(&h, bytes, sizeof(h));
	if (memcmp(h.magic, MAGIC, sizeof(MAGIC)) || h.node_size != sizeof(struct acnode) ||
	    h.out_size != sizeof(struct acout) || !h.nnode || !h.ncls || h.ncls > 257 ||
	    !h.rows || h.rows > h.nnode || h.nnode > INT32_MAX / 2 || h.nout > INT32_MAX)
		return NULL;
	size_t need = sizeof(h) + h.nnode * sizeof(struct acnode) + h.nout * sizeof(struct acout) +
		      h.rows * h.ncls * sizeof(int);
	if (need != len)
		return NULL;
	struct acm *a = calloc(1, sizeof(*a));
	if (!a)
		return NULL;
	const unsigned char *p = (const unsigned char *)bytes + sizeof(h);
	/* read only: a built automaton is never written (acm_add returns before the trie) */
	a->node = (struct acnode *)(uintptr_t)p;
	p += h.nnode * sizeof(struct acnode);
	a->out = (struct acout *)(uintptr_t)p;
	p += h.nout * sizeof(struct acout);
	a->delta = (int *)(uintptr_t)p;
	a->flags = (int)h.flags;
	a->nnode = a->capnode = h.nnode;
	a->nout = a->capout = h.nout;
	a->ncls = h.ncls;
	a->rows = h.rows;
	memcpy(a->cls, h.cls, sizeof(a->cls));
	a->built = 1;
	a->image = bytes;
	a->imghash = h.inhash;
	return a;
}

/* Field by field: a node's padding is whatever its builder left there. */
static int same_nodes(const struct acm *a, const struct acm *b)
{
	for (size_t i = 0; i < a->nnode; i++) {
		const struct acnode *x = &a->node[i], *y = &b->node[i];
		if (x->child != y->child || x->sibling != y->sibling || x->fail != y->fail ||
		    x->out != y->out || x->olink != y->olink || x->minid != y->minid ||
		    x->k != y->k || x->c != y->c)
			return 0;
	}
	return 1;
}

int acm_same(const struct acm *a, const struct acm *b)
{
	return a && b && a->built && b->built && a->flags == b->flags && a->nnode == b->nnode &&
	       a->nout == b->nout && a->ncls == b->ncls && a->rows == b->rows &&
	       !memcmp(a->cls, b->cls, sizeof(a->cls)) && same_nodes(a, b) &&
	       (!a->nout || !memcmp(a->out, b->out, a->nout * sizeof(*a->out))) &&
	       !memcmp(a->delta, b->delta, a->rows * a->ncls * sizeof(*a->delta));
}
