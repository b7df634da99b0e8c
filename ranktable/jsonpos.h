/* Source positions of JSON values. The tree of a rank table is built by our own strict
 * reader (jsonparse.c), which reports a syntax error with its line and column and keeps in
 * each node (jtree.h) the offset where its value starts; its key's is found from there.
 * Other documents are parsed by cJSON, which keeps no positions: rt__jpos_scan lists where
 * every value starts, in document order, and rt__jpos_bind puts those offsets in the
 * valueint of the nodes of cJSON's tree of the same bytes (cJSON builds it in that same
 * pre-order, duplicate keys included), which then must not be read for valueint.
 *
 * Lines and columns are 1-based. A column counts UTF-8 characters, not bytes (a tab is one
 * column, a '\r' none), the way editors show it for non-ASCII server names. A UTF-8 byte
 * order mark at the start is skipped and not counted. Internal to ranktable/. */
#ifndef HCCLCTL_RANKTABLE_JSONPOS_H
#define HCCLCTL_RANKTABLE_JSONPOS_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "ranktable/jtree.h"

#define RT_JPOS_MAXDEPTH 512
/* cJSON's parse_number reads at most 63 characters (the reader stays within what cJSON
 * reads, for the trees it parses): longer ones are refused with a located message. */
#define RT_JPOS_MAXNUM 63

/* Offsets, not lines and columns: a line and column is counted when asked for, from the
 * checkpoint before it: they are at most RT_JPOS_CK_BYTES apart, a few percent of the text. */
#define RT_JPOS_CK_BYTES 256
struct rt__jpos_ck {
	uint32_t off;
	unsigned line, col;
};

/* Positions are asked for only while the text scanned lives (buf). */
struct rt__jpos {
	uint32_t *v; /* where each value starts, in document order (rt__jpos_scan only) */
	size_t n, cap;
	struct rt__jpos_ck *ck; /* in order of offset */
	size_t nck, ckcap;
	const char *buf;
	size_t len;
	int bound;          /* the cJSON tree's nodes carry their offsets (rt__jpos_bind) */
	size_t bom;         /* bytes of byte order mark skipped (0 or 3) */
	unsigned eline, ecol; /* syntax error position */
	size_t eoff;          /* and its offset */
	char emsg[128];       /* syntax error, e.g. "expected ',' or '}' after object member" */
};

/* Scans buf[0..len) (which need not be NUL-terminated and may hold NUL bytes).
 * Returns 0 for one valid JSON document, -EINVAL with emsg/eline/ecol set for a syntax
 * error, -ENOMEM. p is zeroed first; release it with rt__jpos_release in every case. */
int rt__jpos_scan(struct rt__jpos *p, const char *buf, size_t len);

/* A tree read from buf (jtree.h), in a mapping of its own; root is its first record. */
struct rt__tree {
	const struct rt__jnode *root;
	char *mem;
	size_t cap;
};

/* Reads buf[0..len) as rt__jpos_scan does, and builds its tree in t, each node carrying its
 * offset. 0, -EINVAL (emsg...) or -ENOMEM; release p with rt__jpos_release and t with
 * rt__tree_release in every case. Positions of t's nodes need buf and p; the tree needs
 * neither. */
int rt__jpos_parse(struct rt__jpos *p, struct rt__tree *t, const char *buf, size_t len);
void rt__tree_release(struct rt__tree *t);

/* Where node of the tree rt__jpos_parse built starts / where its key starts. 0, or -ENOENT
 * (no node, no key) leaving 0:0. */
int rt__jpos_node(const struct rt__jpos *p, const struct rt__jnode *node, unsigned *line,
		  unsigned *col);
int rt__jpos_nodekey(const struct rt__jpos *p, const struct rt__jnode *node, unsigned *line,
		     unsigned *col);

/* Pairs each node of root (cJSON's parse of the bytes scanned) with its scanned position.
 * Returns 0, or -EINVAL when the tree does not match the scan. */
int rt__jpos_bind(struct rt__jpos *p, cJSON *root);

/* Where node of root (not bound) starts, found by walking root: for one look-up, on a tree
 * that is not to be written. 0, or -ENOENT leaving 0:0. */
int rt__jpos_find(const struct rt__jpos *p, const cJSON *root, const cJSON *node,
		  unsigned *line, unsigned *col);

/* Where node starts / where its key starts. Return 0, or -ENOENT leaving 0:0. */
int rt__jpos_get(const struct rt__jpos *p, const cJSON *node, unsigned *line, unsigned *col);
int rt__jpos_key(const struct rt__jpos *p, const cJSON *node, unsigned *line, unsigned *col);

/* *line and *col, those of buf[from], moved on to buf[to]. */
void rt__jpos_advance(const char *buf, size_t from, size_t to, unsigned *line, unsigned *col);

/* Line and column of byte offset off (counted from buf, BOM included) in buf[0..len). */
void rt__jpos_locate(const char *buf, size_t len, size_t off, unsigned *line, unsigned *col);

void rt__jpos_release(struct rt__jpos *p);

#endif
