/* Slurm's host list expressions ("gpu[01-04,07],login1", "rack[1-2]-n[1-3]"), as
 * SLURM_JOB_NODELIST and sinfo print them, expanded to one name per line for the host-file
 * parser. The width of a zero-padded bound is kept ("01-10" gives 01 .. 10); a list that would
 * expand past RT_HOSTLIST_MAX names, an unclosed, empty or reversed range, or a control byte
 * (a newline would split a name in two) is refused with its offset. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ranktable/ranktable.h"

struct out {
	char *p;
	size_t len, cap, names;
};

static int put(struct out *o, const char *s, size_t n)
{
	if (o->len + n + 1 > o->cap) {
		size_t nc = o->cap ? o->cap * 2 : 256;
		while (nc < o->len + n + 1)
			nc *= 2;
		char *np = realloc(o->p, nc);
		if (!np)
			return -ENOMEM;
		o->p = np;
		o->cap = nc;
	}
	memcpy(o->p + o->len, s, n);
	o->len += n;
	o->p[o->len] = '\0';
	return 0;
}

static int bad(char *err, size_t errlen, size_t at, const char *what)
{
	snprintf(err, errlen, "host list: at offset %zu: %s", at, what);
	return -EINVAL;
}

/* One bound of a range: its value and digits (a leading zero makes the width fixed). */
static int bound(const char *s, size_t n, size_t *i, unsigned long *v, int *digits)
{
	size_t k = *i;
	unsigned long x = 0;
	while (k < n && s[k] >= '0' && s[k] <= '9' && k - *i < 9)
		x = x * 10 + (unsigned long)(s[k++] - '0');
	if (k == *i || (k < n && s[k] >= '0' && s[k] <= '9'))
		return -1;
	*digits = (int)(k - *i);
	*v = x;
	*i = k;
	return 0;
}

/* Expands item s[0..n) (one name pattern) behind prefix pre[0..plen), writing each name and a
 * newline; base is the item's offset in the whole list, for messages. */
static int expand(struct out *o, const char *pre, size_t plen, const char *s, size_t n,
		  size_t base, int groups, char *err, size_t errlen)
{
	const char *open = memchr(s, '[', n);
	const char *close0 = memchr(s, ']', n);
	if (close0 && (!open || close0 < open))
		return bad(err, errlen, base + (size_t)(close0 - s), "']' without '['");
	if (!open) {
		if (o->names >= RT_HOSTLIST_MAX)
			return bad(err, errlen, base, "more than " RT_HOSTLIST_MAX_S " names");
		o->names++;
		int rc = put(o, pre, plen);
		if (!rc)
			rc = put(o, s, n);
		return rc ? rc : put(o, "\n", 1);
	}
	if (groups == 8)
		return bad(err, errlen, base + (size_t)(open - s), "more than 8 '[...]' in one name");
	size_t a = (size_t)(open - s) + 1;
	const char *close = memchr(s + a, ']', n - a);
	if (!close)
		return bad(err, errlen, base + a - 1, "'[' not closed");
	size_t z = (size_t)(close - s);
	if (z == a)
		return bad(err, errlen, base + a - 1, "empty '[]'");
	char *np = malloc(plen + (size_t)(open - s) + 16);
	if (!np)
		return -ENOMEM;
	memcpy(np, pre, plen);
	memcpy(np + plen, s, (size_t)(open - s));
	size_t head = plen + (size_t)(open - s);
	size_t i = a;
	int rc = 0;
	while (i < z && !rc) {
		unsigned long lo, hi;
		int dl, dh = 0;
		size_t at = i;
		if (bound(s, z, &i, &lo, &dl)) {
			rc = bad(err, errlen, base + at, "expected a number in '[...]'");
			break;
		}
		hi = lo;
		dh = dl;
		if (i < z && s[i] == '-') {
			i++;
			size_t at2 = i;
			if (bound(s, z, &i, &hi, &dh)) {
				rc = bad(err, errlen, base + at2, "expected a number after '-'");
				break;
			}
			if (hi < lo) {
				rc = bad(err, errlen, base + at, "range runs backwards");
				break;
			}
		}
		if (i < z && s[i] != ',') {
			rc = bad(err, errlen, base + i, "expected ',' or ']'");
			break;
		}
		if (i < z)
			i++;
		int width = dl > 1 && s[at] == '0' ? dl : 0;
		for (unsigned long v = lo; v <= hi && !rc; v++) {
			if (o->names >= RT_HOSTLIST_MAX) {
				rc = bad(err, errlen, base + at, "more than " RT_HOSTLIST_MAX_S " names");
				break;
			}
			int k = snprintf(np + head, 16, "%0*lu", width, v);
			rc = expand(o, np, head + (size_t)k, close + 1, n - z - 1, base + z + 1,
				    groups + 1, err, errlen);
		}
	}
	free(np);
	return rc;
}

int rt_hostlist_expand(const char *s, size_t n, char **out, size_t *outlen, char *err,
		       size_t errlen)
{
	struct out o = { 0 };
	size_t i = 0;
	int rc = 0;
	*out = NULL;
	*outlen = 0;
	for (size_t k = 0; k < n; k++)
		if ((unsigned char)s[k] < 0x20 || s[k] == 0x7f)
			return bad(err, errlen, k, "a control byte in the list");
	while (i < n && !rc) {
		/* an item ends at a comma outside brackets */
		size_t j = i;
		int depth = 0;
		while (j < n && (depth || s[j] != ',')) {
			depth += s[j] == '[' ? 1 : s[j] == ']' ? -1 : 0;
			if (depth < 0)
				depth = 0;
			j++;
		}
		if (j > i)
			rc = expand(&o, "", 0, s + i, j - i, i, 0, err, errlen);
		i = j + 1;
	}
	if (!rc && !o.names)
		rc = bad(err, errlen, 0, "no host named");
	if (rc) {
		free(o.p);
		return rc;
	}
	*out = o.p;
	*outlen = o.len;
	return 0;
}
