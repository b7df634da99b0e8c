/* Small helpers every engine file uses: the monotonic clock, error-buffer formatting, a
 * bounded string copy, operation names for messages. */
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
