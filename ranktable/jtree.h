/* The tree of a rank table as the checks read it: every value a small record in one block,
 * in document order, that points only relative to itself, so a node alone is enough to read
 * its key, value, first child and next sibling (no tree argument, like cJSON's pointers).
 *
 * Why not cJSON: a cJSON node is 64 bytes, a malloc'd key and string beside it; a compact
 * 65 536-rank table (4.3 MB, 66 bytes a rank) took 21 MB of tree, five times itself. Here a
 * record is a 12-byte header, the key's text when this is its first use (keys repeat on every
 * rank, so later uses point back to it) and the decoded value: a string with its NUL, a
 * number's double; all padded to 4 bytes. A device of four values takes 72 bytes, and the
 * tree of that table 5.0 MB.
 *
 * Layout of a record at n (units are 4 bytes):
 *   off   where the value starts in the text (positions: jsonpos.h)
 *   key   0: no key; else the key's NUL-terminated text is at n + key units (key == 3: right
 *         after the header, the first use of that key)
 *   lt    type (RT_J_*) | RT_J_LAST (no next sibling) | size << RT_J_SHIFT, size the units
 *         from n to where its next sibling would start: the record, and for a container every
 *         record of its members, which follow it
 * Internal to ranktable/. */
#ifndef HCCLCTL_RANKTABLE_JTREE_H
#define HCCLCTL_RANKTABLE_JTREE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

enum rt__jtype {
	RT_J_FALSE = 1,
	RT_J_TRUE,
	RT_J_NULL,
	RT_J_NUMBER,
	RT_J_STRING,
	RT_J_ARRAY,
	RT_J_OBJECT,
};
#define RT_J_TYPE 7u
#define RT_J_LAST 8u
#define RT_J_SHIFT 4
#define RT_J_OWNKEY 3 /* the header's units */

struct rt__jnode {
	uint32_t off;
	int32_t key;
	uint32_t lt;
};

/* Sizes are 28 bits of units: a tree of at most 1 GiB. */
#define RT_J_MAXBYTES ((size_t)4 << 28)

static inline int rt__jtype(const struct rt__jnode *n)
{
	return n ? (int)(n->lt & RT_J_TYPE) : 0;
}

static inline const char *rt__jkey(const struct rt__jnode *n)
{
	return n->key ? (const char *)n + 4 * (ptrdiff_t)n->key : NULL;
}

/* Where the value's own bytes start: after the header and a key of its own. */
static inline const char *rt__jpayload(const struct rt__jnode *n)
{
	const char *p = (const char *)(n + 1);
	if (n->key == RT_J_OWNKEY)
		p += (strlen(p) + 4) & ~(size_t)3;
	return p;
}

static inline const struct rt__jnode *rt__jnext(const struct rt__jnode *n)
{
	return n->lt & RT_J_LAST ? NULL
				 : (const struct rt__jnode *)((const char *)n +
							      4 * (size_t)(n->lt >> RT_J_SHIFT));
}

/* The first member of an array or object; NULL for an empty one or another value. */
static inline const struct rt__jnode *rt__jchild(const struct rt__jnode *n)
{
	if (!n || rt__jtype(n) < RT_J_ARRAY)
		return NULL;
	const char *c = rt__jpayload(n);
	return c < (const char *)n + 4 * (size_t)(n->lt >> RT_J_SHIFT)
		       ? (const struct rt__jnode *)c
		       : NULL;
}

/* A string's text, NUL-terminated; NULL for another type. */
static inline const char *rt__jstr(const struct rt__jnode *n)
{
	return rt__jtype(n) == RT_J_STRING ? rt__jpayload(n) : NULL;
}

/* A number's value; 0 for another type. */
static inline double rt__jnum(const struct rt__jnode *n)
{
	double d = 0;
	if (rt__jtype(n) == RT_J_NUMBER)
		memcpy(&d, rt__jpayload(n), sizeof(d));
	return d;
}

static inline int rt__jis_str(const struct rt__jnode *n)
{
	return rt__jtype(n) == RT_J_STRING;
}
static inline int rt__jis_num(const struct rt__jnode *n)
{
	return rt__jtype(n) == RT_J_NUMBER;
}
static inline int rt__jis_arr(const struct rt__jnode *n)
{
	return rt__jtype(n) == RT_J_ARRAY;
}
static inline int rt__jis_obj(const struct rt__jnode *n)
{
	return rt__jtype(n) == RT_J_OBJECT;
}
static inline int rt__jis_bool(const struct rt__jnode *n)
{
	return rt__jtype(n) == RT_J_TRUE || rt__jtype(n) == RT_J_FALSE;
}
static inline int rt__jis_null(const struct rt__jnode *n)
{
	return rt__jtype(n) == RT_J_NULL;
}

/* The first member of obj named key (as cJSON_GetObjectItemCaseSensitive); NULL when obj is
 * not an object or has none. */
const struct rt__jnode *rt__jget(const struct rt__jnode *obj, const char *key);

/* Whether a and b hold the same value, as cJSON_Compare(a, b, 1) says: numbers equal within
 * a relative DBL_EPSILON, object members found by key in each other. */
int rt__jequal(const struct rt__jnode *a, const struct rt__jnode *b);

#endif
