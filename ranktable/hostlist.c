/* Slurm's host list expressions ("gpu[01-04,07],login1", "rack[1-2]-n[1-3]"), as
 * SLURM_JOB_NODELIST and sinfo print them, expanded to one name per line for the host-file
 * parser. The width of a zero-padded bound is kept ("01-10" gives 01 .. 10); a list that would
 * expand past RT_HOSTLIST_MAX names, an unclosed, empty or reversed range, or a control byte
 * (a newline would split a name in two) is refused with its offset. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ranktable/base/buf.h"
#include "ranktable/ranktable.h"

/* The expanded names; no cap of its own beyond size_t's, since RT_HOSTLIST_MAX names of an
 * input's length bound it. */
struct out {
	struct buf b;
	size_t names;
};

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
		buf_add(&o->b, pre, plen);
		buf_add(&o->b, s, n);
		return buf_add(&o->b, "\n", 1) ? -ENOMEM : 0;
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
	struct out o = {BUF_INIT(SIZE_MAX / 2), 0};
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
		buf_release(&o.b);
		return rc;
	}
	*outlen = o.b.len;
	*out = buf_take(&o.b);
	return 0;
}

/* ---- folding: the other way ---- */

/* The numeric suffix of a name: where its digits start (n when none). */
static size_t stem_len(const char *s, size_t n)
{
	while (n && s[n - 1] >= '0' && s[n - 1] <= '9')
		n--;
	return n;
}

/* Suffixes are compared as digit strings, never converted: a 20-digit one overflows every
 * integer type, and "007" must come back as "007". By value (leading zeros aside), then
 * the shorter spelling first. */
static int cmp_digits(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), za = 0, zb = 0;
	while (za + 1 < la && a[za] == '0')
		za++;
	while (zb + 1 < lb && b[zb] == '0')
		zb++;
	if (la - za != lb - zb)
		return la - za < lb - zb ? -1 : 1;
	int r = strcmp(a + za, b + zb);
	return r ? r : (la > lb) - (la < lb);
}

/* Whether b is a + 1 at a's width, as rt_hostlist_expand would count from a ("09" then
 * "10", "99" then "100"). */
static int is_next(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i = la;
	if (lb != la && !(lb == la + 1 && b[0] == '1'))
		return 0;
	/* a + 1: trailing nines become zeros, the digit before them goes up one */
	while (i && a[i - 1] == '9')
		i--;
	if (!i) /* all nines: one more digit, "1" then zeros */
		return lb == la + 1 && strspn(b + 1, "0") == la;
	if (lb != la || memcmp(a, b, i - 1) || b[i - 1] != a[i - 1] + 1)
		return 0;
	return strspn(b + i, "0") == la - i;
}

struct sfx {
	const char *d;
};

static int by_digits(const void *x, const void *y)
{
	return cmp_digits(((const struct sfx *)x)->d, ((const struct sfx *)y)->d);
}

static void app(char *out, size_t len, size_t *at, const char *s, size_t n)
{
	if (*at >= len)
		return;
	size_t room = len - 1 - *at;
	if (n > room)
		n = room;
	memcpy(out + *at, s, n);
	*at += n;
	out[*at] = '\0';
}

void rt_hostlist_fold(const char *const *names, const int *idx, size_t n, char *out, size_t len)
{
	if (!len)
		return;
	out[0] = '\0';
	if (!n)
		return;
	size_t at = 0;
	const char *n0 = names[idx[0]];
	size_t sl = stem_len(n0, strlen(n0));
	int same = n > 1 && sl < strlen(n0);
	for (size_t i = 1; i < n && same; i++) {
		const char *s = names[idx[i]];
		size_t l = strlen(s);
		same = stem_len(s, l) == sl && sl < l && !strncmp(s, n0, sl);
	}
	struct sfx *v = same ? malloc(n * sizeof(*v)) : NULL;
	if (!v) { /* not one stem with numbers (or no memory): the names, the first eight */
		for (size_t i = 0; i < n && at + 1 < len; i++) {
			if (i == 8) {
				snprintf(out + at, len - at, " and %zu more", n - 8);
				return;
			}
			if (i)
				app(out, len, &at, ",", 1);
			app(out, len, &at, names[idx[i]], strlen(names[idx[i]]));
		}
		return;
	}
	for (size_t i = 0; i < n; i++)
		v[i].d = names[idx[i]] + sl;
	qsort(v, n, sizeof(*v), by_digits);
	app(out, len, &at, n0, sl);
	app(out, len, &at, "[", 1);
	for (size_t a = 0; a < n; a++) {
		size_t b = a;
		while (b + 1 < n && is_next(v[b].d, v[b + 1].d))
			b++;
		if (a)
			app(out, len, &at, ",", 1);
		app(out, len, &at, v[a].d, strlen(v[a].d));
		if (b > a) {
			app(out, len, &at, "-", 1);
			app(out, len, &at, v[b].d, strlen(v[b].d));
		}
		a = b;
	}
	app(out, len, &at, "]", 1);
	free(v);
}
