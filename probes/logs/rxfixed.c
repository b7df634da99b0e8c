/* See rxfixed.h. Only what matches byte for byte as regexec matches character by character
 * is taken: ASCII members only (in a UTF-8 locale no byte of a multibyte character is ASCII),
 * no '.' and no negated class (each takes a whole multibyte character there). */
#include <string.h>

#include "probes/logs/rxfixed.h"

static void put(uint64_t set[2], unsigned c)
{
	set[c >> 6] |= 1ull << (c & 63);
}

static int ascii_range(unsigned a, unsigned b)
{
	int digits = a >= '0' && b <= '9', upper = a >= 'A' && b <= 'Z',
	    lower = a >= 'a' && b <= 'z';
	return a <= b && (digits || upper || lower);
}

/* The bracket expression at re (after its '['): its members into set; the byte after its ']',
 * or NULL when it is not one this file takes. */
static const char *bracket(const char *re, uint64_t set[2])
{
	const char *p = re;
	if (*p == '^')
		return NULL;
	for (int first = 1; *p && (*p != ']' || first); first = 0, p++) {
		unsigned c = (unsigned char)*p;
		if (c >= 0x80 || (c == '[' && (p[1] == ':' || p[1] == '.' || p[1] == '=')))
			return NULL;
		/* a '-' of its own only first or last: elsewhere ("A-A-Z") it is read otherwise */
		if (c == '-' && !first && p[1] != ']')
			return NULL;
		if (p[1] == '-' && p[2] && p[2] != ']') {
			unsigned d = (unsigned char)p[2];
			if (!ascii_range(c, d))
				return NULL;
			for (unsigned k = c; k <= d; k++)
				put(set, k);
			p += 2;
			continue;
		}
		put(set, c);
	}
	return *p == ']' ? p + 1 : NULL;
}

/* An exact count "{N}" at *pp (moved past it): N, 1 when there is none, -1 when it is another
 * form. */
static int count(const char **pp)
{
	const char *p = *pp;
	if (*p != '{')
		return strchr("*+?", *p) && *p ? -1 : 1;
	int v = 0;
	for (p++; *p >= '0' && *p <= '9' && v <= RX_FIXED_MAX; p++)
		v = v * 10 + (*p - '0');
	if (*p != '}' || p == *pp + 1)
		return -1;
	*pp = p + 1;
	return v;
}

/* Whether position k takes the byte c (ASCII only). */
static int in_set(const struct rx_fixed *f, size_t k, unsigned c)
{
	return c < 0x80 && (f->set[k][c >> 6] >> (c & 63) & 1);
}

int rx_fixed_compile(const char *re, struct rx_fixed *f)
{
	memset(f, 0, sizeof(*f));
	for (const char *p = re; *p;) {
		uint64_t set[2] = {0, 0};
		unsigned c = (unsigned char)*p;
		if (c == '[') {
			if (!(p = bracket(p + 1, set)))
				return -1;
		} else if (c == '\\' && p[1] && strchr(".[]()*+?{}|^$\\", p[1])) {
			put(set, (unsigned char)p[1]);
			p += 2;
		} else if (c < 0x80 && !strchr(".[]()*+?{}|^$\\", (int)c)) {
			put(set, c);
			p++;
		} else {
			return -1;
		}
		int k = count(&p);
		if (k < 1 || f->n + (size_t)k > RX_FIXED_MAX)
			return -1;
		while (k--) {
			f->set[f->n][0] = set[0];
			f->set[f->n][1] = set[1];
			f->n++;
		}
	}
	if (!f->n)
		return -1;
	for (unsigned c = 0; c < 128; c++) {
		f->shift[c] = (unsigned char)f->n;
		for (size_t k = 0; k + 1 < f->n; k++)
			if (in_set(f, k, c))
				f->shift[c] = (unsigned char)(f->n - 1 - k);
	}
	for (unsigned c = 1; c < 128; c++) {
		if (!in_set(f, f->n - 1, c))
			continue;
		if (f->nlast == RX_FIXED_LAST) {
			f->nlast = 0; /* many: the window's walk */
			break;
		}
		f->last[f->nlast++] = (unsigned char)c;
	}
	return 0;
}

/* Whether the window at s matches, its last byte known to. */
static int window_at(const struct rx_fixed *f, const char *s)
{
	for (size_t k = 0; k + 1 < f->n; k++)
		if (!in_set(f, k, (unsigned char)s[k]))
			return 0;
	return 1;
}

int rx_fixed_search(const struct rx_fixed *f, const char *s, size_t n, size_t max)
{
	const char *nul = memchr(s, '\0', n);
	if (nul)
		n = (size_t)(nul - s);
	if (n > max)
		n = max;
	if (f->nlast) { /* a match ends at one of the last position's few bytes */
		for (unsigned b = 0; b < f->nlast && n >= f->n; b++) {
			size_t from = f->n - 1;
			const char *p;
			while (from < n && (p = memchr(s + from, f->last[b], n - from))) {
				if (window_at(f, p - (f->n - 1)))
					return 1;
				from = (size_t)(p - s) + 1;
			}
		}
		return 0;
	}
	for (size_t i = 0; i + f->n <= n;) {
		unsigned last = (unsigned char)s[i + f->n - 1];
		if (last >= 0x80) {
			i += f->n;
			continue;
		}
		if (in_set(f, f->n - 1, last) && window_at(f, s + i))
			return 1;
		i += f->shift[last];
	}
	return 0;
}
