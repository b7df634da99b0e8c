/* hcclctl doctor: the launcher (doctor.c, in the steps doctor_job.h names) and the node side
 * (doctor_node.c). */
#ifndef HCCLCTL_DOCTOR_H
#define HCCLCTL_DOCTOR_H

#include <cjson/cJSON.h>

#include "cmd/cli/cli.h"
#include "cmd/doctor/report_parse.h"
#include "probes/logs/hccllog.h"

#define DOCTOR_MAX_PORTS 16
#define DOCTOR_MAX_PEERS 1024

/* Which checks run: --checks and --skip, comma-separated codes or groups ("net", "link"). */
struct doctor_filter {
	const char *checks, *skip;
};
/* Whether a check code (or a whole group, "npu") is wanted (doctor_filter.c). */
int doctor_wanted(const struct doctor_filter *f, const char *code);

struct doctor_node_args {
	const char *npu_smi, *hccn_tool, *sysfs_root; /* the tools, as the probes take them */
	const char *ranktable, *digest;              /* this node's copy, the launcher's digest */
	const char *server_id, *host_ip;             /* this node in the table, when known */
	int local;                                   /* --local: the launcher is this node */
	const char *env_file, *kernel_log, *fault_codes; /* doctor_hw.c's inputs, or NULL */
	const struct doctor_filter *filter;
	long timeout_ms;                             /* per probe */
	long port_wait_ms;                           /* how long to retry a peer's port */
	const char *peers[DOCTOR_MAX_PEERS];
	int npeers;
	int ports[DOCTOR_MAX_PORTS];
	int nports;
};

/* The node's steps, each making the checks doctor_checks.c's rows give it (the table runs
 * each once, when one of its checks is wanted; it may report the others of its step too).
 * doctor_node.c: */
void doctor_ranktable_step(const struct doctor_node_args *a, cJSON *checks, cJSON *facts);
void doctor_hccs_step(const struct doctor_node_args *a, cJSON *checks, cJSON *facts);
void doctor_roce_step(const struct doctor_node_args *a, cJSON *checks, cJSON *facts);
void doctor_rdma_step(const struct doctor_node_args *a, cJSON *checks, cJSON *facts);
void doctor_versions_step(const struct doctor_node_args *a, cJSON *checks, cJSON *facts);
void doctor_cann_step(const struct doctor_node_args *a, cJSON *checks, cJSON *facts);
void doctor_host_step(const struct doctor_node_args *a, cJSON *checks, cJSON *facts);
void doctor_ports_step(const struct doctor_node_args *a, cJSON *checks, cJSON *facts);
/* doctor_hw.c: the hardware-health checks (npu.count, npu.faults, npu.ecc, npu.pcie,
 * npu.thermal), each as the filter wants it. */
void doctor_hw_checks(const struct doctor_node_args *a, cJSON *checks, cJSON *facts);
/* One check into the node's "checks" array; fix may be NULL. */
cJSON *doctor_check_add(cJSON *checks, const char *code, const char *status, const char *fix,
			const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* doctor_host.c: host.kernel-log, and env.hccl's node part (its HCCL_* variables in
 * facts.hccl_env, their ranges as a check). */
void doctor_kernel_log_check(const struct doctor_node_args *a, cJSON *checks, cJSON *facts);
void doctor_env_check(const struct doctor_node_args *a, cJSON *checks, cJSON *facts);

extern const struct opt doctor_opts[];
int cmd_doctor(int argc, char **argv);


/* doctor_html.c: one self-contained page (no scripts, no external files): what produced it
 * (time, command, rank table, version), the summary and cause, the findings in plain text
 * (check, nodes, message, fix), the grid of every node against the checks that failed or
 * warned with the passing ones folded by group, and the link matrix as a heat map when
 * probe net measured it (else why not). Printable; fits a 1400 px window without sideways
 * scrolling. 0, or -errno with err. */
struct doctor_cell {
	int node; /* index into names, -1: the cluster */
	const char *code, *status, *msg, *fix;
};
struct doctor_page {
	const char *const *names; /* the nodes */
	size_t nnames;
	const struct doctor_cell *cells; /* sorted by check, then node */
	size_t ncells;
	const char *summary, *cause;
	const cJSON *netmatrix; /* probe net's document, or NULL */
	const char *no_net;     /* without one: why the links were not measured */
	const char *when, *command, *ranktable, *version; /* where the page came from */
};
int doctor_html_write(const char *path, const struct doctor_page *p, char *err, size_t errlen);

/* doctor_logs.c: --logs. The statuses, in the order doctor_job.h's enum has them. */
enum { DOCTOR_PASS, DOCTOR_SKIP, DOCTOR_WARN, DOCTOR_FAIL };
/* Reads path (a directory, a file, "-"), concludes, and gives the check's status and message.
 * r is initialised here; the caller releases it. */
/* --knowledge FILE: reads an ascend-fd kg-config.json for the next doctor_logs_scan calls.
 * Returns 0 (*out to free with kb_free after the scans) or a negative errno, err filled. */
struct kb;
int doctor_logs_knowledge(const char *path, struct kb **out, char *err, size_t errlen);
void doctor_logs_scan(const char *path, struct hlog_report *r, int *status, char *msg,
		      size_t len);
/* The text after the summary: what was read, the evidence, the other findings. */
void doctor_logs_print(const struct hlog_report *r);
/* "logs", "evidence" and "findings" into doc; the cause's fields into cause (NULL when the
 * cause is another check's). */
void doctor_logs_json(cJSON *doc, cJSON *cause, const struct hlog_report *r, const char *path);

/* doctor_merge.c: --merge. Reads every path (FILE, URL or "-"), each one or more documents.
 * 0, or a negative errno with err located as "FILE: line L, column C: ...". m keeps what was
 * read until then. */
int doctor_merge_read(struct doctor_merged *m, char *const *paths, int n, char *err,
		      size_t errlen);
/* The nodes whose reports are expected (--hosts, --hostfile): one that sent none joins m
 * without a document, in name order with the rest. 0 or -ENOMEM. */
int doctor_merge_expect(struct doctor_merged *m, const char *const *names, size_t n);

/* doctor_act.c: --on-fail drain / --on-pass resume through scontrol, --exit-codes npd. */
struct doctor_action {
	const char *on_fail, *on_pass; /* "drain" / "resume", or NULL */
	const char *node_name;         /* --node-name, or NULL */
};
/* The node's Slurm name: $SLURMD_NODENAME (slurmd runs the health check with it), else
 * node_name, else the short host name (in buf); NULL when none can be had. */
const char *doctor_slurm_node(const char *node_name, char *buf, size_t len);
/* Acts on status (an exit code) with cause ("CHECK on NODE: message"): what it did in did
 * ("" when nothing), 0, or a negative errno with err. */
int doctor_act(const struct doctor_action *a, int status, const char *cause, char *did,
	       size_t didlen, char *err, size_t errlen);
/* node-problem-detector's plugin message is cut at max_output_length (80 by default). */
#define DOCTOR_NPD_MAX 80
int doctor_npd_exit(int code);
/* The one line NPD shows, at most DOCTOR_NPD_MAX bytes. */
void doctor_npd_line(int code, const char *cause, char *out, size_t len);

/* doctor_prom.c: --prometheus. Each cell once per node and check (the worst when a check
 * has several results on a node), the counts, and the exit code. 0 or -errno with err. */
int doctor_prom_write(const char *path, const char *const *names, size_t nnames,
		      const struct doctor_cell *cells, size_t ncells, int exit_code, char *err,
		      size_t errlen);

#endif
