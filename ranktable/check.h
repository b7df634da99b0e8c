/* Internals shared by the loader (load.c) and the per-format rules (check_*.c). */
#ifndef HCCLCTL_RANKTABLE_CHECK_H
#define HCCLCTL_RANKTABLE_CHECK_H

#include <stdarg.h>
#include <stddef.h>

#include "ranktable/base/buf.h"
#include "ranktable/jsonpos.h"
#include "ranktable/ranktable.h"

#define RT_PATHLEN 512

/* What rt_table.priv points to: the tree the model's strings point into, and its index. */
struct rt__priv {
	struct rt__tree tree;
	struct rt__jpos pos;
};

/* One validation run over one table. */
struct rt__ctx {
	struct rt_table *t;
	struct rt_diags *d;
	const struct rt__jpos *pos;
	const struct rt__jnode *root;
	int err;     /* first allocation failure; rules keep going but the load fails */
	int foreign; /* a table HCCL does not read itself: no "(HCCL EIxxxx)" suffixes */
	int single;  /* the table (or group) being checked has one server: RT_RULE_ONE_SERVER
		      * rules are warnings */
};

/* Records a finding for rule code at node at (its key when at_key, which is what a
 * duplicate or unknown key points to). Severity and the "(HCCL EIxxxx)" suffix come from
 * rt_rules, so a rule's severity is stated once; c->single and c->foreign adjust them as
 * the rule's flags say. */
void rt__report(struct rt__ctx *c, const char *code, const struct rt__jnode *at, int at_key,
		const char *path, const char *hint, const char *fmt, ...)
	__attribute__((format(printf, 7, 8)));

/* snprintf into buf (RT_PATHLEN bytes) and return buf, for JSON paths. */
const char *rt__path(char *buf, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* rt__path(buf, "%s%s[%zu]", pre, name, idx), or without "[idx]" for RT_NO_IDX, cut the
 * same way: the paths each rank makes, without printf's cost (a fifth of validating 65 536
 * ranks went to formatting paths). */
#define RT_NO_IDX ((size_t)-1)
const char *rt__path_at(char *buf, const char *pre, const char *name, size_t idx);
/* Text joined without printf (a path, a device's name, built for every entry though only a
 * finding prints one): s, or v in decimal, at buf[at], as much as fits in len with the
 * terminator; the length so far. */
size_t rt__put(char *buf, size_t len, size_t at, const char *s);
size_t rt__put_num(char *buf, size_t len, size_t at, long v);

/* The most text a message that lists things builds (struct buf, BUF_INIT): past it, or
 * when memory runs out, the list stays cut where it was rather than failing the finding. */
#define RT_MSG_MAX (1u << 20)

/* "twice" or "3 times": how often a duplicated value is used, k >= 2. */
const char *rt__times(size_t k, char *buf, size_t len);

/* Appends sorted unique-or-not ids compactly ("0-2, 7, 9-12"), at most max runs. */
void rt__sb_ranges(struct buf *b, const long *ids, size_t n, size_t max);

/* The rule for a code; NULL for a code that is not in rt_rules (a bug). */
#define rt__rule rt_rule_find

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

/* Duplicate finding: each run of items equal in (group, key) with more than one member is
 * passed to cb, in order of the first member's index. v is left in any order. */
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
void rt__unknown_keys(struct rt__ctx *c, const struct rt__jnode *obj, const char *path,
		      const char *const *known);

/* The JSON type of a node in words: "a string", "a number", "an object" ... */
const char *rt__type(const struct rt__jnode *node);

/* Whether n (at path, named who) is an object; reported as value-type when not. */
int rt__object_at(struct rt__ctx *c, const struct rt__jnode *n, const char *path,
		  const char *who);

/* v as a rank table would write it: "8" for a whole number, else %g. Returns buf. */
const char *rt__fmt_num(char *buf, size_t len, double v);

/* The string member key of obj, or NULL when it is absent or not a string (reported as
 * value-type); *node is the member whatever its type. path and who say where and whose, for
 * the messages. RT_STR_REQUIRED reports an absent key (key-missing); RT_STR_NUMBER reports a
 * number as value-not-string, since HCCL reads every value with is_string() and then says
 * "Config X is missing" of a key that is there; RT_STR_QUOTE does that too, quoting the
 * number and the hint that fixes it. */
enum { RT_STR_REQUIRED = 1, RT_STR_NUMBER = 2, RT_STR_QUOTE = 4 };
const char *rt__str_field(struct rt__ctx *c, const struct rt__jnode *obj, const char *key,
			  const char *path, const char *who, int flags,
			  const struct rt__jnode **node);

/* Status rules shared by every format: "completed", or the reason it is not usable. */
void rt__check_status(struct rt__ctx *c, const struct rt__jnode *root, int required);
/* The version of a table derived from a 1.x one (ClusterD's, GE's): "1.0" or "1.2", else a
 * finding at base.version. Returns 1 for "1.2". */
struct rt__v1x_version {
	const char *base; /* JSON path of the object holding "version" */
	const char *in;	  /* appended to "missing \"version\"": "", " in RankTable" */
	const char *of;	  /* "version \"x\" of <of> is not ...": "a global rank table" */
	const char *hint_missing, *hint_unsupported;
};
int rt__check_v1x_version(struct rt__ctx *c, const struct rt__jnode *obj,
			  const struct rt__v1x_version *w);

/* The same for a table inside another object, whose JSON path is base. */
void rt__check_status_at(struct rt__ctx *c, const struct rt__jnode *root, const char *base,
			 int required);

/* Reorders c->t->ranks so each server's ranks are contiguous (servers in order of their
 * first rank, ranks in file order within one) and builds c->t->servers from server_id. */
int rt__group_servers(struct rt_table *t);

/* One object holding a server_list in the 1.x layout, checked by rt__check_servers: the
 * table itself, or one group of a global rank table. */
struct rt__v1_part {
	const struct rt__jnode *obj; /* the object with server_list, server_count, super_pod_list */
	const char *base;	  /* its JSON path: "$", "$.server_group_list[2]" */
	const char *who;	  /* for messages: "the table", "group \"2\"" */
	const char *const *keys;  /* its known keys */
	const char *const *srv_keys, *const *dev_keys; /* NULL: those of HCCL's 1.x */
	int v12;
	int devices_optional;	  /* servers without "device" are fine (ClusterD's groups 0, 1) */
	int clusterd;		  /* ClusterD's keys are checked: server_ip, device_logical_id */
	size_t nservers_all;	  /* servers of the whole file when it has more parts (0: this
				   * part's): one server means device IPs cross to no other */
	int offline;		  /* GE's offline compilation reads it: device IPs are optional
				   * however many servers there are, and so is server_count */
};

/* The server_id rules a server's id is checked against when it is not empty or too long:
 * server-id-placeholder, server-id-unsafe. m is a string member. */
void rt__check_server_id(struct rt__ctx *c, const struct rt__jnode *m, const char *path);

/* Whether s embeds a placeholder address such as "10.*.*.*" or "xx.xx.xx.xx". */
int rt__holds_placeholder(const char *s);

/* Extracts the servers and devices of p into c->t (which must be empty) and checks them. */
int rt__check_servers(struct rt__ctx *c, const struct rt__v1_part *p);

/* Per format: extract the model into c->t and check it. */
int rt__load_v1(struct rt__ctx *c, int v12);
int rt__load_v2(struct rt__ctx *c);
int rt__load_legacy(struct rt__ctx *c);
int rt__load_vllm_pd(struct rt__ctx *c);
int rt__load_global(struct rt__ctx *c);
int rt__load_ge_cluster(struct rt__ctx *c);

#endif
