/* What every probe of this group shares: running its outside tool with a deadline, and the
 * status colours. Apart from the group table (probe.c), so the table's file calls each probe and
 * no probe calls back into it. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cmd/cli/situation.h"
#include "cmd/probe/probe.h"

int probe_run_tool(const char *where, const char *opt, const char *env, const char *path,
		   char *const argv[], long timeout_s, struct probe_tool_result *r)
{
	char err[PROBE_ERRLEN], hint[256];
	int rc = probe_tool_run(path, argv, timeout_s * 1000, r, err, sizeof(err));
	if (!rc)
		return 0;
	probe_tool_result_release(r);
	if (rc == -ENOENT || rc == -EACCES) {
		snprintf(hint, sizeof(hint), "install it, or pass --%s PATH (or set %s)", opt, env);
		return fail(EXIT_UNKNOWN, where, hint, "%s: %s (missing)",
			    strcmp(opt, "hccn-tool") ? opt : "hccn_tool", err);
	}
	if (rc == -ETIMEDOUT)
		return fail(EXIT_UNKNOWN, where,
			    "the tool hangs: check the driver (dmesg), or raise --timeout",
			    "%s (hung)", err);
	return fail(EXIT_UNKNOWN, where, NULL, "%s", err);
}

const char *probe_first_line(const char *s, char *buf, size_t len)
{
	buf[0] = '\0';
	while (s && *s) {
		while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')
			s++;
		const char *e = strchr(s, '\n');
		size_t n = e ? (size_t)(e - s) : strlen(s);
		while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
			n--;
		if (n) {
			snprintf(buf, len, "%.*s", (int)n, s);
			break;
		}
		s += e ? (size_t)(e - s) : strlen(s);
	}
	return buf;
}

const char *probe_status_color(int fd, enum probe_status s)
{
	switch (s) {
	case PROBE_FAIL:
		return color(fd, "\033[1;31m");
	case PROBE_WARN:
		return color(fd, "\033[1;33m");
	case PROBE_UNKNOWN:
		return color(fd, "\033[1;35m");
	case PROBE_PASS:
		return color(fd, "\033[32m");
	case PROBE_SKIP:
		break;
	}
	return "";
}

const char *probe_color_end(const char *col)
{
	return *col ? "\033[0m" : "";
}

enum probe_status probe_situation_status(const char *kind)
{
	switch (situation_exit(kind)) {
	case EXIT_OK:
		return PROBE_PASS;
	case EXIT_WARN:
		return PROBE_WARN;
	case EXIT_FAIL:
		return PROBE_FAIL;
	default:
		return PROBE_UNKNOWN;
	}
}
