/* Many fixed strings found in one pass over a text: an Aho-Corasick automaton, built once from
 * the needles of a table and then only read (safe to share between threads). The log triage
 * asks "which of these few hundred needles occur in this line" of every line of a log; asking
 * it needle by needle searched each line hundreds of times. Part of the base every layer may
 * use. */
#ifndef HCCLCTL_BASE_ACM_H
#define HCCLCTL_BASE_ACM_H

#include <stddef.h>
#include <stdio.h>

#define ACM_NOCASE 1 /* ASCII letters match either case */
#define ACM_ROOT_ROW 2 /* a table row for the root only: the path of a large automaton's deep
			* nodes, for tests */

struct acm;

/* A new empty automaton (flags: ACM_NOCASE or 0); NULL when out of memory. Free with
 * acm_free. */
struct acm *acm_new(int flags);
void acm_free(struct acm *a);
/* Adds s[0..n) with id (>= 0; ids need not be distinct). An empty needle is never reported.
 * Returns 0 or -ENOMEM; only before acm_build. A failure sticks: later adds do nothing and
 * acm_build returns it, so a builder adds a table's needles and checks once (a NULL a, from a
 * failed acm_new, is one too). */
int acm_add(struct acm *a, const char *s, size_t n, int id);
/* Makes the automaton ready to scan: returns 0, or -ENOMEM (the first failure of acm_add
 * included). */
int acm_build(struct acm *a);

/* Calls hit(ctx, id, end) for every occurrence in s[0..n) of every needle (end: the offset
 * just past it), in order of end; stops when hit returns non-zero and returns that value,
 * else 0. */
int acm_scan(const struct acm *a, const char *s, size_t n,
	     int (*hit)(void *ctx, int id, size_t end), void *ctx);
/* acm_scan of a and of b over the same text in one pass: each one's hits in order of end (at
 * the same end, a's first); b may be NULL. The two automata's steps do not wait on each
 * other, so the processor overlaps their loads of rows, which a scan spends its time
 * waiting on. Stops when a hit returns non-zero and returns that value, else 0. */
int acm_scan2(const struct acm *a, int (*hit_a)(void *ctx, int id, size_t end), void *ctx_a,
	      const struct acm *b, int (*hit_b)(void *ctx, int id, size_t end), void *ctx_b,
	      const char *s, size_t n);
/* The smallest id of a needle that occurs in s[0..n), or -1 when none does. */
int acm_first_id(const struct acm *a, const char *s, size_t n);

/* A built automaton saved at build time and read in place at run time, so that a program
 * does not build its large automata at every start (the log triage's two took 10 ms of each
 * doctor --logs, 30 under ASan). acm_save writes a built automaton's bytes to f: 0, -EINVAL
 * (not built by acm_build), -EIO. acm_open_image reads such bytes in place (they must stay,
 * 8-byte aligned; acm_free leaves them): NULL when they are not an image of this build. The
 * builder then adds the same needles as it would to a new automaton and calls acm_build,
 * which returns -ESTALE when they are not the ones the image was built from: then it builds
 * one anew. */
int acm_save(const struct acm *a, FILE *f);
struct acm *acm_open_image(const void *bytes, size_t len);
/* 1 when a and b are the same automaton (the same nodes, outputs, classes and rows). */
int acm_same(const struct acm *a, const struct acm *b);
#endif
