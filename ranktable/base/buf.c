#include <errno.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ranktable/base/buf.h"

#define BUF_FIRST 256 /* the first allocation when no hint was given */

int buf_init(struct buf *b, size_t hint, size_t max)
{
	memset(b, 0, sizeof(*b));
	b->max = max;
	if (hint) {
		b->p = malloc(hint);
		if (!b->p)
			return b->err = -ENOMEM;
		b->p[0] = '\0';
		b->cap = hint;
	}
	return 0;
}

/* Room for need more bytes and the NUL: doubling, never past max + 1. */
static int grow(struct buf *b, size_t need)
{
	if (need > b->max - b->len)
		return b->err = -E2BIG;
	size_t want = b->len + need + 1;
	if (want <= b->cap)
		return 0;
	size_t lim = b->max < SIZE_MAX ? b->max + 1 : SIZE_MAX;
	size_t nc = b->cap ? b->cap : BUF_FIRST;
	while (nc < want)
		nc = nc > lim / 2 ? lim : nc * 2;
	if (nc > lim) /* want <= lim: a small max smaller than the first allocation */
		nc = lim;
	char *np = realloc(b->p, nc);
	if (!np)
		return b->err = -ENOMEM;
	b->p = np;
	b->cap = nc;
	return 0;
}

int buf_add(struct buf *b, const void *d, size_t n)
{
	if (b->err || grow(b, n))
		return b->err;
	if (n)
		memcpy(b->p + b->len, d, n);
	b->len += n;
	b->p[b->len] = '\0';
	return 0;
}

int buf_puts(struct buf *b, const char *s)
{
	return buf_add(b, s, strlen(s));
}

int buf_printf(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	if (b->err)
		return b->err;
	va_start(ap, fmt);
	int k = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (k < 0)
		return b->err = -EINVAL;
	if (grow(b, (size_t)k))
		return b->err;
	va_start(ap, fmt);
	vsnprintf(b->p + b->len, b->cap - b->len, fmt, ap);
	va_end(ap);
	b->len += (size_t)k;
	return 0;
}

const char *buf_str(const struct buf *b)
{
	return b->p ? b->p : "";
}

char *buf_take(struct buf *b)
{
	char *s = b->err ? NULL : b->p ? b->p : calloc(1, 1);
	if (b->err)
		free(b->p);
	size_t max = b->max;
	memset(b, 0, sizeof(*b));
	b->max = max;
	return s;
}

void buf_release(struct buf *b)
{
	free(b->p);
	size_t max = b->max;
	memset(b, 0, sizeof(*b));
	b->max = max;
}
