/* Source positions for a cJSON tree. cJSON keeps no positions, so a strict scanner reads the
 * same bytes first: it reports a syntax error with its line and column, and otherwise lists
 * where every value (and every member's key) starts, in document order. cJSON builds its
 * tree in that same pre-order, duplicate keys included, so the n-th node of a pre-order walk
 * is the n-th value scanned; rt__jpos_bind writes n into the node's valueint (unused but for
 * numbers, whose value is valuedouble), so the tree must not be read for valueint after.
 *
 * Lines and columns are 1-based. A column counts UTF-8 characters, not bytes (a tab is one
 * column, a '\r' none), the way editors show it for non-ASCII server names. A UTF-8 byte
 * order mark at the start is skipped and not counted. Internal to ranktable/. */
#ifndef HCCLCTL_RANKTABLE_JSONPOS_H
#define HCCLCTL_RANKTABLE_JSONPOS_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#define RT_JPOS_MAXDEPTH 512
/* cJSON's parse_number reads at most 63 characters; longer ones make it fail, so the
 * scanner refuses them first with a located message. */
#define RT_JPOS_MAXNUM 63

/* Offsets, not lines and columns: 8 bytes a value instead of 16 (a compact table has a
 * value every 15 bytes or so). A line and column is counted when asked for, from the
 * checkpoint before it: they are at most RT_JPOS_CK_BYTES apart, a few percent of the text. */
struct rt__jpos_val {
	uint32_t off;  /* the value's first byte */
	uint32_t koff; /* its key's opening quote; 0 when not an object member */
};

#define RT_JPOS_CK_BYTES 256
struct rt__jpos_ck {
	uint32_t off;
	unsigned line, col;
};

/* Positions are asked for only while the text scanned lives (buf). */
struct rt__jpos {
	struct rt__jpos_val *v; /* document order */
	size_t n, cap;
	struct rt__jpos_ck *ck; /* in order of offset */
	size_t nck, ckcap;
	const char *buf;
	size_t len;
	int bound;          /* the tree's nodes carry their index (rt__jpos_bind) */
	size_t bom;         /* bytes of byte order mark skipped (0 or 3) */
	unsigned eline, ecol; /* syntax error position */
	char emsg[128];       /* syntax error, e.g. "expected ',' or '}' after object member" */
};

/* Scans buf[0..len) (which need not be NUL-terminated and may hold NUL bytes).
 * Returns 0 for one valid JSON document, -EINVAL with emsg/eline/ecol set for a syntax
 * error, -ENOMEM. p is zeroed first; release it with rt__jpos_release in every case. */
int rt__jpos_scan(struct rt__jpos *p, const char *buf, size_t len);

/* Pairs each node of root (parsed from the same bytes) with its scanned position.
 * Returns 0, or -EINVAL when the tree does not match the scan. */
int rt__jpos_bind(struct rt__jpos *p, cJSON *root);

/* Where node of root (not bound) starts, found by walking root: for one look-up, on a tree
 * that is not to be written. 0, or -ENOENT leaving 0:0. */
int rt__jpos_find(const struct rt__jpos *p, const cJSON *root, const cJSON *node,
		  unsigned *line, unsigned *col);

/* Where node starts / where its key starts. Return 0, or -ENOENT leaving 0:0. */
int rt__jpos_get(const struct rt__jpos *p, const cJSON *node, unsigned *line, unsigned *col);
int rt__jpos_key(const struct rt__jpos *p, const cJSON *node, unsigned *line, unsigned *col);

/* Line and column of byte offset off (counted from buf, BOM included) in buf[0..len). */
void rt__jpos_locate(const char *buf, size_t len, size_t off, unsigned *line, unsigned *col);

void rt__jpos_release(struct rt__jpos *p);

#endif
