/* The one growable text buffer, with a hard cap (as curl's dynbuf): an append that would
 * pass the cap or finds no memory fails the buffer, and every later append does nothing, so
 * a builder appends freely and checks once at the end (what came before the failure stays
 * readable). Part of the base every layer may use. */
#ifndef HCCLCTL_BASE_BUF_H
#define HCCLCTL_BASE_BUF_H

#include <stddef.h>

struct buf {
	char *p;    /* the text, NUL-terminated once anything was added; owned by the buffer */
	size_t len; /* bytes of text, the NUL not counted */
	size_t cap; /* bytes allocated */
	size_t max; /* len never passes this */
	int err;    /* the first failure (-ENOMEM, -E2BIG), else 0 */
};

/* An empty buffer of at most m bytes, for a declaration: struct buf b = BUF_INIT(4096); */
#define BUF_INIT(m)                                                                                \
	{                                                                                          \
		.p = NULL, .len = 0, .cap = 0, .max = (m), .err = 0                                \
	}

/* An empty buffer that holds at most max bytes; hint bytes are allocated now when it is not
 * 0 (so that a caller fails early). 0, or -ENOMEM (b->err set too). */
int buf_init(struct buf *b, size_t hint, size_t max);
/* Appends n bytes of d; buf_puts a string, buf_printf formatted text. 0, or the buffer's
 * error: -E2BIG when the text would pass max, -ENOMEM, -EINVAL for a bad format. */
int buf_add(struct buf *b, const void *d, size_t n);
int buf_puts(struct buf *b, const char *s);
__attribute__((format(printf, 2, 3))) int buf_printf(struct buf *b, const char *fmt, ...);
/* The text so far, "" when there is none; after a failure, what was appended before it. */
const char *buf_str(const struct buf *b);
/* The text, from then on the caller's to free ("" rather than NULL for an empty buffer), or
 * NULL when the buffer failed or memory ran out; b is empty afterwards either way. */
char *buf_take(struct buf *b);
/* Frees the text; b is an empty buffer of the same max afterwards. */
void buf_release(struct buf *b);

#endif
