/* Look-ups on the tree of jtree.h that are too big to inline. */
#include <float.h>
#include <math.h>

#include "ranktable/jtree.h"

const struct rt__jnode *rt__jget(const struct rt__jnode *obj, const char *key)
{
	if (rt__jtype(obj) != RT_J_OBJECT)
		return NULL;
	/* the first byte first: most keys of an object differ there, and a call of strcmp per
	 * member was a seventh of validating a 65536-rank table */
	for (const struct rt__jnode *m = rt__jchild(obj); m; m = rt__jnext(m)) {
		const char *k = rt__jkey(m);
		if (k[0] == key[0] && !strcmp(k, key))
			return m;
	}
	return NULL;
}

static int same_double(double a, double b)
{
	double max = fabs(a) > fabs(b) ? fabs(a) : fabs(b);
	return fabs(a - b) <= max * DBL_EPSILON;
}

/* Every member of a has an equal one of its name in b. */
static int members_in(const struct rt__jnode *a, const struct rt__jnode *b)
{
	for (const struct rt__jnode *m = rt__jchild(a); m; m = rt__jnext(m)) {
		const struct rt__jnode *o = rt__jget(b, rt__jkey(m));
		if (!o || !rt__jequal(m, o))
			return 0;
	}
	return 1;
}

int rt__jequal(const struct rt__jnode *a, const struct rt__jnode *b)
{
	if (!a || !b || rt__jtype(a) != rt__jtype(b))
		return 0;
	if (a == b)
		return 1;
	switch (rt__jtype(a)) {
	case RT_J_NUMBER:
		return same_double(rt__jnum(a), rt__jnum(b));
	case RT_J_STRING:
		return !strcmp(rt__jstr(a), rt__jstr(b));
	case RT_J_ARRAY: {
		const struct rt__jnode *x = rt__jchild(a), *y = rt__jchild(b);
		for (; x && y; x = rt__jnext(x), y = rt__jnext(y))
			if (!rt__jequal(x, y))
				return 0;
		return !x && !y;
	}
	case RT_J_OBJECT:
		return members_in(a, b) && members_in(b, a);
	default:
		return 1;
	}
}
