/* Text helpers for the readers of outside input: quoting bad bytes back safely and
 * recognising IP literals without trusting a terminator. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>

#include "ranktable/ranktable.h"
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

int rt__utf8_len(const unsigned char *s, size_t n)
{
	unsigned char c = s[0], lo = 0x80, hi = 0xBF;
	int len;
	if (c >= 0xC2 && c <= 0xDF)
		len = 2;
	else if (c >= 0xE0 && c <= 0xEF)
		len = 3;
	else if (c >= 0xF0 && c <= 0xF4)
		len = 4;
	else
		return 0;
	if (c == 0xE0)
		lo = 0xA0;
	else if (c == 0xED)
		hi = 0x9F;
	else if (c == 0xF0)
		lo = 0x90;
	else if (c == 0xF4)
		hi = 0x8F;
	for (int k = 1; k < len; k++) {
		if ((size_t)k >= n)
			return -1;
		unsigned char d = s[k];
		if (k == 1 ? (d < lo || d > hi) : (d & 0xC0) != 0x80)
			return 0;
	}
	return len;
}

size_t rt_text_escape(char *out, size_t outlen, const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t o = 0;
	if (!outlen)
		return 0;
	for (size_t i = 0; i < n;) {
		unsigned char c = u[i];
		int l = c < 0x80 ? 1 : rt__utf8_len(u + i, n - i);
		size_t k = l > 0 ? (size_t)l : 0;
		/* C0 but newline and tab, DEL, C1 (U+0080..U+009F: 0xC2 0x80..0x9F) and bytes
		 * that are no UTF-8: a terminal would act on them */
		int esc = c < 0x80 ? (c < 0x20 && c != '\n' && c != '\t') || c == 0x7f
				   : !k || (c == 0xC2 && u[i + 1] < 0xA0);
		if (esc) {
			if (o + 4 >= outlen)
				break;
			o += (size_t)snprintf(out + o, outlen - o, "\\x%02x", c);
			i++;
			continue;
		}
		if (o + k >= outlen)
			break;
		memcpy(out + o, s + i, k);
		o += k;
		i += k;
	}
	out[o] = '\0';
	return o;
}

int rt__cmp_name_ref(const void *pa, const void *pb)
{
	const struct rt__name_ref *a = pa, *b = pb;
	int r = strcmp(a->name, b->name);

	if (r)
		return r;
	return a->idx < b->idx ? -1 : a->idx > b->idx;
}

char *rt_utf8_repair(const char *s)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t n = strlen(s), bad = 0;
	for (size_t i = 0; i < n;) {
		int l = u[i] < 0x80 ? 1 : rt__utf8_len(u + i, n - i);
		bad += l <= 0;
		i += l > 0 ? (size_t)l : 1;
	}
	if (!bad)
		return NULL;
	char *o = malloc(n + 3 * bad + 1);
	if (!o)
		return NULL;
	size_t k = 0;
	for (size_t i = 0; i < n;) {
		int l = u[i] < 0x80 ? 1 : rt__utf8_len(u + i, n - i);
		if (l <= 0) {
			k += (size_t)snprintf(o + k, 5, "\\x%02x", u[i]);
			i++;
			continue;
		}
		memcpy(o + k, s + i, (size_t)l);
		k += (size_t)l;
		i += (size_t)l;
	}
	o[k] = '\0';
	return o;
}
