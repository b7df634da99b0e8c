/* Text helpers for the readers of outside input: quoting bad bytes back safely and
 * recognising IP literals without trusting a terminator. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>

#include "ranktable/text.h"

void rt__quote(char *out, size_t outlen, const char *s, size_t n)
{
	size_t o = 0, take = n > RT_QUOTE_MAX ? RT_QUOTE_MAX : n;

	for (size_t i = 0; i < take && o + 5 < outlen; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\')
			out[o++] = (char)c;
		else
			o += (size_t)snprintf(out + o, outlen - o, "\\x%02x", c);
	}
	if (take < n && o + 4 < outlen) {
		memcpy(out + o, "...", 3);
		o += 3;
	}
	out[o < outlen ? o : outlen - 1] = '\0';
}

/* inet_pton wants a C string; anything longer than the longest literal is not one. */
bool rt__is_ip_literal(const char *s, size_t n)
{
	char tmp[INET6_ADDRSTRLEN];
	unsigned char bin[sizeof(struct in6_addr)];

	if (n == 0 || n >= sizeof(tmp) || memchr(s, '\0', n))
		return false;
	memcpy(tmp, s, n);
	tmp[n] = '\0';
	return inet_pton(AF_INET, tmp, bin) == 1 || inet_pton(AF_INET6, tmp, bin) == 1;
}

const char *rt__next_line(const char *buf, size_t len, size_t *pos, size_t *n)
{
	if (*pos >= len)
		return NULL;
	const char *start = buf + *pos, *nl = memchr(start, '\n', len - *pos);
	size_t end = nl ? (size_t)(nl - buf) : len;
	*n = end - *pos;
	if (*n && buf[end - 1] == '\r')
		(*n)--;
	*pos = end + 1;
	return start;
}
