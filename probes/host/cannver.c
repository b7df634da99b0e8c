/* Reads the version out of CANN's version files (probes/host/cannver.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "probes/host/cannver.h"

#define VERSION_MAX 63

static int version_byte(unsigned char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       c == '.' || c == '_' || c == '-';
}

/* The value l[v0..v1) of line `line` into out, checked. */
static int take(const char *l, size_t v0, size_t v1, unsigned line, char *out, size_t outlen,
		char *err, size_t errlen)
{
	if (v1 == v0) {
		snprintf(err, errlen, "%u:%zu: the version is empty", line, v0 + 1);
		return -EINVAL;
	}
	if (v1 - v0 > VERSION_MAX) {
		snprintf(err, errlen, "%u:%zu: a version of %zu bytes, at most %d", line, v0 + 1,
			 v1 - v0, VERSION_MAX);
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

/* The keys, in the order they are preferred: version.info's and the install info's own
 * line, then version.cfg's HCCL line, then its runtime line. */
static const struct {
	const char *key;
	int bracket; /* "[INNER:VERSION]": the part after the colon (all when none) */
} keys[] = {
	{ "version=", 0 },
	{ "hccl_running_version=", 1 },
	{ "runtime_running_version=", 1 },
};

/* The first line of buf whose key is keys[k]: its value's bounds, 0; -ENOENT when none;
 * -EINVAL when a bracketed value has no closing bracket. */
static int find_key(const char *buf, size_t len, size_t k, const char **lp, size_t *v0,
		    size_t *v1, unsigned *lineno, char *err, size_t errlen)
{
	size_t kl = strlen(keys[k].key);
	unsigned line = 1;
	for (size_t at = 0; at < len; line++) {
		const char *l = buf + at, *nl = memchr(l, '\n', len - at);
		size_t n = nl ? (size_t)(nl - l) : len - at, i = 0;
		at += n + (nl ? 1 : 0);
		while (i < n && (l[i] == ' ' || l[i] == '\t'))
			i++;
		if (n - i < kl || strncasecmp(l + i, keys[k].key, kl))
			continue;
		size_t a = i + kl, b = n;
		while (b > a && (l[b - 1] == '\r' || l[b - 1] == ' ' || l[b - 1] == '\t'))
			b--;
		if (keys[k].bracket) {
			if (b == a || l[a] != '[' || l[b - 1] != ']') {
				snprintf(err, errlen, "%u:%zu: %s takes [INNER:VERSION]", line, a + 1,
					 keys[k].key);
				return -EINVAL;
			}
			a++, b--;
			const char *colon = memchr(l + a, ':', b - a);
			if (colon)
				a = (size_t)(colon - l) + 1;
		}
		*lp = l, *v0 = a, *v1 = b, *lineno = line;
		return 0;
	}
	return -ENOENT;
}

int cann_version_parse(const char *buf, size_t len, char *out, size_t outlen, char *err,
		       size_t errlen)
{
	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
		const char *l;
		size_t a, b;
		unsigned line;
		int rc = find_key(buf, len, k, &l, &a, &b, &line, err, errlen);
		if (rc == -ENOENT)
			continue;
		return rc ? rc : take(l, a, b, line, out, outlen, err, errlen);
	}
	snprintf(err, errlen, "no version= line");
	return -ENOENT;
}
