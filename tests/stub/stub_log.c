#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/stub/stub_log.h"

int stub_log_on(void)
{
	static int on = -1;

	if (on < 0) {
		const char *v = getenv("HCCL_STUB_LOG");

		on = v && strcmp(v, "1") == 0;
	}
	return on;
}

void stub_log(const char *fmt, ...)
{
	char line[1024];
	va_list ap;
	int n;

	if (!stub_log_on())
		return;
	n = snprintf(line, sizeof(line), "hccl-stub[%ld]: ", (long)getpid());
	va_start(ap, fmt);
	vsnprintf(line + n, sizeof(line) - (size_t)n - 1, fmt, ap);
	va_end(ap);
	/* One write per line, so lines of concurrent threads and ranks do not interleave. */
	n = (int)strlen(line);
	line[n++] = '\n';
	if (write(STDERR_FILENO, line, (size_t)n) < 0)
		return;
}
