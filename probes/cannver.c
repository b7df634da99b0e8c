/* Reads the version out of CANN's version.info (probes/cannver.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "probes/cannver.h"

#define VERSION_MAX 63

static int version_byte(unsigned char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       c == '.' || c == '_' || c == '-';
}

int cann_version_parse(const char *buf, size_t len, char *out, size_t outlen, char *err,
		       size_t errlen)
{
	unsigned line = 1;
	for (size_t at = 0; at < len; line++) {
		const char *l = buf + at, *nl = memchr(l, '\n', len - at);
		size_t n = nl ? (size_t)(nl - l) : len - at, k = 0;
		at += n + (nl ? 1 : 0);
		while (k < n && (l[k] == ' ' || l[k] == '\t'))
			k++;
		if (n - k < 8 || strncasecmp(l + k, "version=", 8))
			continue;
		size_t v0 = k + 8, v1 = n;
		while (v1 > v0 && (l[v1 - 1] == '\r' || l[v1 - 1] == ' ' || l[v1 - 1] == '\t'))
			v1--;
		if (v1 == v0) {
			snprintf(err, errlen, "%u:%zu: the version is empty", line, v0 + 1);
			return -EINVAL;
		}
		if (v1 - v0 > VERSION_MAX) {
			snprintf(err, errlen, "%u:%zu: a version of %zu bytes, at most %d", line,
				 v0 + 1, v1 - v0, VERSION_MAX);
			return -EINVAL;
		}
		for (size_t i = v0; i < v1; i++)
			if (!version_byte((unsigned char)l[i])) {
				snprintf(err, errlen, "%u:%zu: byte 0x%02x in the version", line, i + 1,
					 (unsigned char)l[i]);
				return -EINVAL;
			}
		snprintf(out, outlen, "%.*s", (int)(v1 - v0), l + v0);
		return 0;
	}
	snprintf(err, errlen, "no version= line");
	return -ENOENT;
}
