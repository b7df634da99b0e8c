/* The automaton's insides, shared by acm.c (building and scanning) and acm_image.c (saving
 * and opening a built one). */
#ifndef HCCLCTL_BASE_ACM_INT_H
#define HCCLCTL_BASE_ACM_INT_H

#include <stddef.h>
#include <stdint.h>

struct acnode {
	int child, sibling; /* the trie */
	int fail, out, olink; /* out: 1-based into outs; olink: nearest suffix with outputs */
	int minid;	      /* the smallest id ending here or at a suffix, -1 none */
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
	/* rows x ncls, after acm_build: the next state (enc()) */
	int *delta;
	size_t rows; /* nodes 0 .. rows-1 have a row (acm_build numbers them breadth first) */
	int built;
	int err; /* the first failure of acm_add, which acm_build returns */
	/* read in place from an image (acm_image.c): node, out and delta are its bytes */
	const void *image;
	uint64_t inhash;  /* of every acm_add so far (acm__add_hash) */
	uint64_t imghash; /* of the adds the image was built from */
};

/* The hash of the adds so far, with one more (FNV-1a over id, length and bytes): what tells an
 * image built from the same needles from a stale one. */
uint64_t acm__add_hash(uint64_t h, int id, const char *s, size_t n);

#endif
