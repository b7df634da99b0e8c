/* Small text helpers shared by the line-oriented readers (hccn.conf, hostfile) and gen.
 * Internal to ranktable/. */
#ifndef HCCLCTL_RT_TEXT_H
#define HCCLCTL_RT_TEXT_H

#include <stdbool.h>
#include <stddef.h>

#define RT_QUOTE_MAX 40 /* bytes of bad input quoted back in a message */
#define RT_QUOTE_BUF (RT_QUOTE_MAX * 4 + 8)

static inline bool rt__is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* Copies at most RT_QUOTE_MAX bytes of s (n bytes, any byte, NUL included) for a message,
 * escaping what a terminal should not see raw. */
void rt__quote(char *out, size_t outlen, const char *s, size_t n);
/* Length of the valid UTF-8 sequence starting s[0..n) (n >= 1), 0 if invalid (overlong
 * forms, surrogates and code points above U+10FFFF are invalid), -1 if s ends inside it. */
int rt__utf8_len(const unsigned char *s, size_t n);
/* True when s[0..n) is exactly an IPv4 or IPv6 literal. */
bool rt__is_ip_literal(const char *s, size_t n);

/* The next line of buf[0..len) from *pos, without its LF or CR LF (the last line may lack
 * one); *n is its length. Returns NULL at the end. */
const char *rt__next_line(const char *buf, size_t len, size_t *pos, size_t *n);

/* A name and where it stood, sorted by rt__cmp_name_ref (by name, then by index, so equal
 * names keep their order): repeated names are then neighbours, found in O(n log n). */
struct rt__name_ref {
	const char *name;
	size_t idx;
};
int rt__cmp_name_ref(const void *pa, const void *pb);

#endif
