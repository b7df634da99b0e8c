/* How close a misspelt name is to the names it may have meant, for the "did you mean"
 * of every table of names (doctor's checks, HCCL's variables). Part of the base every layer
 * may use. */
#ifndef HCCLCTL_BASE_NEAR_H
#define HCCLCTL_BASE_NEAR_H

#include <stddef.h>

/* Names longer than this are never near anything (the distance needs a row per letter). */
#define NEAR_MAX 64

/* The Levenshtein distance of a[0..n) and b (insertions, deletions and substitutions, one
 * each), or (size_t)-1 when either is longer than NEAR_MAX. */
size_t near_distance(const char *a, size_t n, const char *b);
/* The first of names[0..count) closest to s[0..n), within most edits, or NULL when none is
 * that close (or s is one of them: nothing to suggest). */
const char *near_name(const char *s, size_t n, const char *const *names, size_t count,
		      size_t most);

#endif
