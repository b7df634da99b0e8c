/* The HCCL_* environment of a job: read from an env file (KEY=VALUE lines, "export" allowed,
 * as the launch scripts write them) or from a process's environment, and checked against
 * HCCL's documented ranges and against each other (the RDMA retransmissions must give up
 * before HCCL's execution timeout, and that before the framework's). The rules are rows of
 * one table in probes/host/hcclenv.c. */
#ifndef HCCLCTL_PROBES_HCCLENV_H
#define HCCLCTL_PROBES_HCCLENV_H

#include <stddef.h>

#include "probes/tool/verdict.h"

#define HENV_MAX 128

struct henv_var {
	char key[64];
	char val[256];
	unsigned line; /* in the env file; 0 from an environment */
};

/* The HCCL_* variables only (other keys are counted, not kept). */
struct henv {
	struct henv_var v[HENV_MAX];
	size_t n;
	unsigned others;  /* assignments of other variables */
	unsigned ignored; /* lines that are not assignments (comments, commands) */
};

/* An env file: "KEY=VALUE", "export KEY=VALUE", values in '...' or "...", comments and
 * blank lines; a key set twice keeps the last value, as a shell would. Lines that are not
 * assignments (source ..., if ...) are counted in ignored. 0, or -EINVAL when a value is too
 * long to keep (err names the line). */
int henv_parse(const char *buf, size_t len, struct henv *e, char *err, size_t errlen);

/* The same from a NULL-terminated "KEY=VALUE" array (environ). */
void henv_from_environ(struct henv *e, char *const *env);

/* The value of key, or NULL when it is not set. */
const char *henv_get(const struct henv *e, const char *key);

/* 1 for the variables that differ between nodes by nature (the node's own address and
 * interface), which are not compared across nodes. */
int henv_per_node(const char *key);

struct henv_finding {
	enum probe_status st;
	char msg[300];
};

/* Unknown names (the closest known one named), range and coherence findings, the worst first; PASS findings are notes (a value HCCL
 * rounds, a limit that holds on some boards only). Returns how many (at most max). */
size_t henv_check(const struct henv *e, struct henv_finding *out, size_t max);

#endif
