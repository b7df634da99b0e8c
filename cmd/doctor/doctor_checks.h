/* doctor's checks, one row each (doctor_checks.c): the table behind the node's dispatch,
 * --checks and --skip, --list-checks, the completion of their names, and the order of the
 * report (the order of the rows is the order of the lines and of root-cause priority). */
#ifndef HCCLCTL_DOCTOR_CHECKS_H
#define HCCLCTL_DOCTOR_CHECKS_H

#include <stddef.h>

#include <cjson/cJSON.h>

struct doctor_node_args;

/* Who makes a check: the launcher (from what it has: the table, the nodes' reports, its own
 * measurements), the node (`doctor --node`), or both (the node reports a fact, the launcher
 * compares it across nodes). */
enum doctor_side { DOCTOR_LAUNCHER, DOCTOR_NODE, DOCTOR_BOTH };

/* A node step: adds its results to checks and what the launcher compares to facts. One
 * step may make several checks (one npu-smi call answers for them all): it runs once when
 * any of its checks is wanted, and the launcher drops the results not asked for. */
typedef void doctor_node_step(const struct doctor_node_args *a, cJSON *checks, cJSON *facts);

struct doctor_check {
	const char *code; /* "group.name": the group is the part before the dot */
	enum doctor_side side;
	doctor_node_step *node; /* the node's part, NULL when it has none to run */
	const char *summary;    /* one line, for --list-checks */
};
extern const struct doctor_check doctor_checks[];
extern const size_t doctor_nchecks;

/* The row of code, -1 when it is no check. */
int doctor_check_index(const char *code);
/* The length of code's group ("npu" of "npu.ecc"). */
size_t doctor_check_group_len(const char *code);
/* "launcher", "node", "both". */
const char *doctor_side_name(enum doctor_side s);

/* A --checks or --skip list (named opt in the message): every comma-separated name a check
 * or a group. 0, or -EINVAL with err: the name, the closest one when it is close, the checks
 * and the groups. */
int doctor_filter_valid(const char *opt, const char *list, char *err, size_t errlen);

/* --list-checks: code, group and summary per line, or with --json one document. */
void doctor_checks_print(void);
/* The completion words of --checks and --skip: every group, then every check. */
void doctor_checks_complete(void);

/* The node's checks in the table's order, each step once: {"schema", "hostname", "checks":
 * [...], "facts": {...}}. The caller owns the document. */
cJSON *doctor_node_run(const struct doctor_node_args *a);

#endif
