/* hcclctl doctor's launcher, inside its folder: the options' values, the job every step
 * fills, and the steps doctor.c runs in order (plan, launch, collect, report). The files
 * below call only doctor_opts.c and doctor_job.c here, never each other in a circle. */
#ifndef HCCLCTL_DOCTOR_JOB_H
#define HCCLCTL_DOCTOR_JOB_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "cmd/doctor/doctor.h"
#include "cmd/doctor/report_fold.h"
#include "cmd/lib/fanout.h"
#include "probes/logs/hccllog.h"
#include "ranktable/ranktable.h"

#define TABLE_CAP RT_TABLE_MAX
#define DEFAULT_PORTS "60000,60031,16666,29500"

/* doctor_opts.c: what the options gave (doctor_opts fills it). */
struct doctor_o {
	const char *ranktable, *hosts, *hostfile, *user, *key, *known_hosts, *remote, *checks,
		*skip, *npu_smi, *hccn_tool, *sysfs, *ports, *logs, *digest, *server_id, *host_ip,
		*peers, *html;
	const char *env_file, *kernel_log, *fault_codes, *knowledge;
	const char *node_name, *on_fail, *on_pass, *exit_codes;
	long port, parallel, timeout;
	int local, node, insecure, deep, merge, list_checks, each;
};
extern struct doctor_o dopt;
/* --exit-codes npd */
int doctor_npd_mode(void);
/* --ports LIST into na->ports: 0, or -1 when a port is not one or there are too many. */
int doctor_parse_ports(struct doctor_node_args *na, const char *list);

/* doctor_job.c */
enum st { ST_PASS, ST_SKIP, ST_WARN, ST_FAIL };
extern const char *const doctor_st_name[];

struct job {
	const char **nodes; /* names as reported */
	size_t nnodes;
	struct doctor_row *r;
	size_t n, cap;
	cJSON **docs; /* each node's document, NULL when it gave none */
	double *arrived_us; /* when each node's report arrived, on the launcher's clock */
	cJSON *net;         /* --deep: probe net's document, for the HTML heat map */
	struct fo_host *hosts;
	struct doctor_filter filter;
};

struct node_plan {
	const char *host, *name, *server_id, *host_ip;
};

/* The triage of --logs, kept for the text and JSON that only it has; the caller of
 * doctor_launcher_checks releases it. */
extern struct hlog_report doctor_hlog;

/* The code of a result (doctor_checks.c's row). */
const char *doctor_code_of(int i);
/* One result into the job (copies msg and fix); one the filter leaves out is dropped. */
void doctor_job_add(struct job *j, int node, const char *code, enum st st, const char *fix,
		    const char *fmt, ...) __attribute__((format(printf, 6, 7)));
/* Now on the wall clock, in microseconds: when a node's report arrived. */
double doctor_real_us(void);

/* doctor_plan.c; each returns 0, or the exit code with the message printed. */
int doctor_check_filters(void);
int doctor_usage_valid(int argc, char **argv);
int doctor_read_hosts(struct rt_hostfile *hf);
int doctor_load_table(struct job *j, struct rt_table *t, char **buf, size_t *len, char *digest,
		      char *table_abs, const char **table_path);
int doctor_count_nodes(struct job *j, const struct rt_table *t, struct rt_hostfile *hf,
		       struct doctor_merged *merged, int argc, char **argv);
int doctor_plan_nodes(struct job *j, struct node_plan *plan, const struct rt_table *t,
		      const struct rt_hostfile *hf, struct doctor_merged *merged);

/* doctor_launch.c */
int doctor_node_main(void);
void doctor_run_local(struct job *j, const struct doctor_node_args *pa, const char *table_path);
int doctor_run_nodes(struct job *j, struct node_plan *plan, const char *digest,
		     const char *table_path);

/* doctor_collect.c */
void doctor_take_node_checks(struct job *j);
void doctor_launcher_checks(struct job *j, struct node_plan *plan);

/* doctor_deep.c */
void doctor_deep_checks(struct job *j, struct node_plan *plan);
void doctor_mesh_check(struct job *j);

/* doctor_report.c: prints the report, writes --html and --prometheus, acts (--on-fail,
 * --on-pass): the exit code. */
int doctor_report(struct job *j);
/* --each: where the reports' JSON documents go (an array) instead of standard output; NULL
 * for a single job. */
extern cJSON *doctor_each_docs;

#endif
