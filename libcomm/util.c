/* Small helpers every engine file uses: the monotonic clock, error-buffer formatting, a
 * bounded string copy, operation names for messages, and a capped text buffer for the JSON
 * the flight recorder and the profiler write. */
#include <stdarg.h>
#include <time.h>

#include "libcomm/internal.h"

int64_t comm__now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int comm__errf(char *err, size_t errlen, int code, const char *fmt, ...)
{
	if (err && errlen) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return code;
}

void comm__strlcpy(char *dst, const char *src, size_t n)
{
	if (!n)
		return;
	size_t k = strnlen(src, n - 1);
	memmove(dst, src, k);
	dst[k] = '\0';
}

const char *comm__op_display(int coll)
{
	if (coll == COMM__COLL_SPLIT)
		return "split";
	return comm_coll_name((enum comm_coll)coll);
}

int comm__buf_init(struct comm__buf *b, size_t cap, size_t max)
{
	b->p = malloc(cap);
	b->len = 0;
	b->cap = b->p ? cap : 0;
	b->max = max;
	b->bad = !b->p;
	return b->bad ? -1 : 0;
}

void comm__buf_put(struct comm__buf *b, const char *fmt, ...)
{
	for (;;) {
		if (b->bad)
			return;
		va_list ap;
		va_start(ap, fmt);
		int k = vsnprintf(b->p + b->len, b->cap - b->len, fmt, ap);
		va_end(ap);
		if (k < 0) {
			b->bad = true;
			return;
		}
		if ((size_t)k < b->cap - b->len) {
			b->len += (size_t)k;
			return;
		}
		size_t ncap = b->cap * 2 + (size_t)k;
		char *np = ncap <= b->max ? realloc(b->p, ncap) : NULL;
		if (!np) { /* over the cap or out of memory: the whole text is void */
			b->bad = true;
			return;
		}
		b->p = np;
		b->cap = ncap;
	}
}

void comm__buf_str(struct comm__buf *b, const char *s)
{
	comm__buf_put(b, "\"");
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;
		if (ch == '"' || ch == '\\')
			comm__buf_put(b, "\\%c", ch);
		else if (ch < 0x20 || ch >= 0x7f)
			comm__buf_put(b, "\\u%04x", ch);
		else
			comm__buf_put(b, "%c", ch);
	}
	comm__buf_put(b, "\"");
}
