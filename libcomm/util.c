/* Small helpers every engine file uses: error-buffer formatting, a
 * bounded string copy, operation names for messages, and JSON strings for the text the flight
 * recorder and the profiler write. */
#include <stdarg.h>

#include "libcomm/internal.h"

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

void comm__buf_str(struct buf *b, const char *s)
{
	buf_add(b, "\"", 1);
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;
		if (ch == '"' || ch == '\\')
			buf_printf(b, "\\%c", ch);
		else if (ch < 0x20 || ch >= 0x7f)
			buf_printf(b, "\\u%04x", ch);
		else
			buf_add(b, s, 1);
	}
	buf_add(b, "\"", 1);
}
