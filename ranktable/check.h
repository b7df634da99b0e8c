/* Internals shared by the loader (load.c) and the per-format rules (check_*.c). */
#ifndef HCCLCTL_RANKTABLE_CHECK_H
#define HCCLCTL_RANKTABLE_CHECK_H

#include <stdarg.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "ranktable/jsonpos.h"
#include "ranktable/ranktable.h"

#define RT_PATHLEN 512

/* What rt_table.priv points to: the tree the model's strings point into, and its index. */
struct rt__priv {
	cJSON *root;
	struct rt__jpos pos;
};

/* One validation run over one table. */
struct rt__ctx {
	struct rt_table *t;
	struct rt_diags *d;
	const struct rt__jpos *pos;
	const cJSON *root;
	int err; /* first allocation failure; rules keep going but the load fails */
};

/* Looks a rule up by code; NULL for a code that is not in rt_rules (a bug). */
const struct rt_rule *rt__rule(const char *code);

/* Records a finding for rule code at node at (its key when at_key, which is what a
 * duplicate or unknown key points to). Severity and the "(HCCL EIxxxx)" suffix come from
 * rt_rules, so a rule's severity is stated once. */
void rt__report(struct rt__ctx *c, const char *code, const cJSON *at, int at_key,
		const char *path, const char *hint, const char *fmt, ...)
	__attribute__((format(printf, 7, 8)));

/* snprintf into buf (RT_PATHLEN bytes) and return buf, for JSON paths. */
const char *rt__path(char *buf, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A growable string for messages that list things. On allocation failure it stays
 * truncated (set ->oom) rather than failing the finding. */
struct rt__sb {
	char *s;
	size_t n, cap;
	int oom;
};
void rt__sb_add(struct rt__sb *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
const char *rt__sb_str(const struct rt__sb *b);
void rt__sb_release(struct rt__sb *b);

/* Appends sorted unique-or-not ids compactly ("0-2, 7, 9-12"), at most max runs. */
void rt__sb_ranges(struct rt__sb *b, const long *ids, size_t n, size_t max);

/* Parses a decimal string of digits only. Returns 0, -1 when not decimal, -2 when > max. */
int rt__dec(const char *s, unsigned long max, long *out);

/* What an address-like string is. */
enum rt__ipkind {
	RT_IP_V4,
	RT_IP_V6,
	RT_IP_EMPTY,
	RT_IP_PLACEHOLDER, /* "10.*.*.*", "xx.xx.xx.xx", "-.-.-.-", "192.168.1.xx", "reserve" */
	RT_IP_HOSTNAME,    /* "node-1", "worker.example.com" */
	RT_IP_INVALID,
};
enum rt__ipkind rt__ipkind(const char *s, size_t len);

/* Duplicate finding: items are sorted by (group, key) and each run of equal ones with more
 * than one member is passed to cb, in order of the first member's index. */
struct rt__item {
	size_t group; /* e.g. the server index, for "unique per server" */
	const char *s; /* string key, or NULL to use n */
	long n;
	size_t idx;   /* caller's index, the tie-break that keeps file order */
};
int rt__dups(struct rt__item *v, size_t n,
	     void (*cb)(struct rt__ctx *c, const struct rt__item *run, size_t k, void *arg),
	     struct rt__ctx *c, void *arg);

/* Warns about keys of obj not in known (NULL-terminated). */
void rt__unknown_keys(struct rt__ctx *c, const cJSON *obj, const char *path,
		      const char *const *known);

/* The JSON type of a node in words: "a string", "a number", "an object" ... */
const char *rt__type(const cJSON *node);

/* Status rules shared by every format: "completed", or the reason it is not usable. */
void rt__check_status(struct rt__ctx *c, const cJSON *root, int required);

/* Per format: extract the model into c->t and check it. */
int rt__load_v1(struct rt__ctx *c, int v12);
int rt__load_v2(struct rt__ctx *c);
int rt__load_legacy(struct rt__ctx *c);

#endif
