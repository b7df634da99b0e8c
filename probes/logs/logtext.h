/* Reading values out of log lines (internal to probes/): numbers, IPs and "IP/ID" pairs after
 * a key, and the CANN time stamp. Lines are (pointer, length) spans that need not be
 * NUL-terminated; nothing here reads past them. Real lines put a value after its key in
 * several ways ("rank[3]", "rank(3)", "rank: 3", "rank 3", "rank=3"), so every reader skips a
 * few of those separators before the value. */
#ifndef HCCLCTL_PROBES_LOGTEXT_H
#define HCCLCTL_PROBES_LOGTEXT_H

#include <stddef.h>
#include <stdint.h>

#include "probes/tool/ptext.h"

/* Marks line as the one being scanned (NULL: none): hlog__find and hlog__has_nocase then
 * rule out at once, for spans inside it, literals with a pair of bytes it does not have.
 * The scan loop sets it per line and clears it before its buffer goes. */
void hlog__line_pairs(struct pspan line);
const char *hlog__find(struct pspan m, const char *lit);
/* A letter, digit or underscore: a character of a name ("HCCL_E_TIMEOUT", "rtFooWithTimeout").
 * Inline: the readers call it on most bytes of every line. */
static inline int hlog__word_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_';
}
/* m without its first k bytes (all of them when it has fewer) */
void hlog__skip(struct pspan *m, size_t k);

/* Whether m reports an HTTP status of a failed request (400 to 599): "[status code: 404]",
 * "status code is 503", "HTTP status 500". */
int hlog__http_failure(struct pspan m);
/* The errno number m states after the word errno, as C libraries and Python print it:
 * "errno=99", "errno: 110", "errno 1", "[Errno 98]" (up to 3 of " =:[(" between, 1 to 3
 * digits and no more); -1 when none. */
int hlog__errno_of(struct pspan m);
/* The rank m says is its writer's own: BKCL's "myrank 0, recv 0 from 1, ...", Open MPI's "***
 * reported by process [1564344321,1]" (the job id, then the rank), NCCL's tree of a channel
 * "Trees [0] 1/-1/-1->0->-1" (its own rank between the arrows); -1 when none. */
int hlog__self_rank(struct pspan m);
int hlog__has(struct pspan m, const char *lit);
int hlog__has_nocase(struct pspan m, const char *lit);
/* Where lit first occurs in m, letters in any case; NULL when it does not. */
const char *hlog__find_nocase(struct pspan m, const char *lit);
/* s[0..n) without the terminal control sequences of coloured output (ESC [ ... m and the
 * like), in place; the new length. */
size_t hlog__strip_ansi(char *s, size_t n);
/* Whether buf[0..len) is no text file: a NUL or many control bytes in its first 4 KiB. */
int hlog__binary(const char *buf, size_t len);
/* The rest of m after the first lit, or {NULL, 0}. */
struct pspan hlog__after(struct pspan m, const char *lit);
struct pspan hlog__after_nocase(struct pspan m, const char *lit); /* letters in any case */
/* What follows key past up to 4 of " [(:=", or {NULL, 0}. */
struct pspan hlog__value_after(struct pspan m, const char *key);
/* A number at the start of m past up to 3 of " [(:=": decimal (up to 10 digits, a leading
 * '-' allowed) or "0x" hex (up to 16 digits). 1 when one was read. */
int hlog__num_at(struct pspan m, long long *v);
/* The number after key as a rank or id: 0..2^31-2. HCCL prints an unknown rank as
 * 4294967295 (and -1): those, and anything else out of range, give 0 and leave *out. */
int hlog__int_after(struct pspan m, const char *key, int *out);
/* An IPv4 or IPv6 address at the start of m: copied, and its length returned (0: none). */
size_t hlog__ip_at(struct pspan m, char *out, size_t outlen);
int hlog__ip_after(struct pspan m, const char *key, char *out, size_t outlen);
/* The n-th address anywhere in m (0-based); out is "" when there is none. */
int hlog__nth_ip(struct pspan m, int nth, char *out, size_t outlen);
/* "IP/ID" after key ("[127.10.0.1/1]"): a server id and a device id. */
int hlog__uid_after(struct pspan m, const char *key, char *ip, size_t iplen, int *dev);
/* A name after key up to one of "]), ;" (at most outlen-1 bytes of [A-Za-z0-9_.%-]: a
 * communicator made from root info is named "HOSTIP%NIC_PORT_..."). */
int hlog__name_after(struct pspan m, const char *key, char *out, size_t outlen);
/* "YYYY-MM-DD-hh:mm:ss.mmm.uuu" (CANN's stamp, 27 bytes) at s as µs since the epoch, local
 * time read as UTC; -1 when s is not one. */
int64_t hlog__stamp_at(const char *s, size_t n);
/* Days since 1970-01-01 of a proleptic Gregorian date. */
int64_t hlog__days(int y, int m, int d);

#endif
