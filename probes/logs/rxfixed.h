/* Regular expressions that are a fixed run of ASCII character classes ("[EWI][A-Z0-9][0-9]{4}
 * [):]"), matched by a table instead of regexec: the knowledge base tries such an expression on
 * every line of a log, where regexec (and the copy it needs) was a tenth of reading it. */
#ifndef HCCLCTL_PROBES_LOGS_RXFIXED_H
#define HCCLCTL_PROBES_LOGS_RXFIXED_H

#include <stddef.h>
#include <stdint.h>

#define RX_FIXED_MAX 32
#define RX_FIXED_LAST 4

struct rx_fixed {
	size_t n;			/* positions */
	uint64_t set[RX_FIXED_MAX][2];	/* the ASCII bytes each position takes */
	/* how far the window may move on when its last byte is c (Horspool's rule, by class):
	 * most bytes of a line are in no class, and the window then moves on by n */
	unsigned char shift[128];
	/* the bytes the last position takes when they are few (nlast > 0): a match ends at one
	 * of them, which memchr finds faster than the window walks (a line of digits and
	 * colons moved it on by one byte at a time) */
	unsigned char nlast, last[RX_FIXED_LAST];
};

/* 0 when the extended expression re is only ASCII literals, escaped specials and positive
 * bracket expressions of ASCII members and ranges, each with an optional exact count
 * ("{4}"), RX_FIXED_MAX positions at most; -1 otherwise (regexec must read it). */
int rx_fixed_compile(const char *re, struct rx_fixed *f);
/* Whether f matches anywhere in s[0..n), read as regexec reads the line it is given: up to
 * its first NUL, and its first max bytes. */
int rx_fixed_search(const struct rx_fixed *f, const char *s, size_t n, size_t max);

#endif
