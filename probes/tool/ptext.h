/* Text helpers for the probe parsers (internal to probes/). Inputs are (pointer, length)
 * pairs that need not be NUL-terminated. */
#ifndef HCCLCTL_PROBES_PTEXT_H
#define HCCLCTL_PROBES_PTEXT_H

#include <stddef.h>

/* A view of part of the input. */
struct pspan {
	const char *s;
	size_t n;
};

/* Takes the next line (without "\n" or "\r\n") from *rest; returns 0 at the end. */
int probe__next_line(struct pspan *rest, struct pspan *line);
/* Drops spaces, tabs, CR and NUL bytes at both ends. */
struct pspan probe__trim(struct pspan s);
/* Takes the next run of non-blank characters (blank: space, tab, CR, NUL, and any of
 * extra); returns 0 when there is none. */
int probe__next_word(struct pspan *rest, struct pspan *word, const char *extra);
int probe__eq(struct pspan s, const char *lit);
/* How many bytes of s are one of set's: a line of rule characters ("-----", "_=_|") or dots
 * is one whose count over its set is its length. */
size_t probe__count_in(struct pspan s, const char *set);
int probe__eq_nocase(struct pspan s, const char *lit);
/* The whole key equals lit with runs of blanks folded to one space and case ignored, so that
 * "hccs  lane mode" and "HCCS lane mode" match; a longer key that contains lit does not. */
int probe__key_is(struct pspan key, const char *lit);
int probe__starts(struct pspan s, const char *lit);
/* A decimal number that fits in 64 bits, all of s. Returns 0 or -1. */
int probe__u64(struct pspan s, unsigned long long *v);
/* Copies s into buf as a C string, truncated, with a tab shown as a blank and other control
 * bytes replaced by '?'. */
void probe__copy(char *buf, size_t len, struct pspan s);

#endif
