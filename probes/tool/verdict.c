/* Verdict helpers shared by the probes. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "probes/tool/verdict.h"

const char *probe_status_name(enum probe_status s)
{
	static const char *const names[] = {"PASS", "SKIP", "WARN", "UNKNOWN", "FAIL"};
	return (unsigned)s < sizeof(names) / sizeof(names[0]) ? names[s] : "UNKNOWN";
}

enum probe_status probe_status_worst(enum probe_status a, enum probe_status b)
{
	return a > b ? a : b;
}

int probe_status_exit(enum probe_status s)
{
	switch (s) {
	case PROBE_PASS:
	case PROBE_SKIP:
		return 0;
	case PROBE_WARN:
		return 1;
	case PROBE_FAIL:
		return 2;
	case PROBE_UNKNOWN:
		break;
	}
	return 3;
}

void probe_reason_add(char *buf, size_t len, const char *fmt, ...)
{
	size_t off = strnlen(buf, len);
	va_list ap;
	if (off + 1 >= len)
		return;
	if (off) {
		int n = snprintf(buf + off, len - off, "; ");
		if (n < 0 || (size_t)n >= len - off)
			return;
		off += (size_t)n;
	}
	va_start(ap, fmt);
	vsnprintf(buf + off, len - off, fmt, ap);
	va_end(ap);
}
