/* hcclctl doctor: a preflight over every node before a job, and the root cause after one
 * failed. The launcher validates the rank table, starts `hcclctl doctor --node` on every node
 * over the SSH fan-out (or runs it in-process with --local), compares what only means
 * something across nodes (versions, TLS switch, MTU, clock, the table's digest), optionally
 * measures the network (--deep) and reads HCCL's logs (--logs), then prints one line per
 * check with identical results folded across nodes, a summary, and the most likely cause
 * with its fix. Exit codes are Nagios's: 0 all pass, 1 warnings, 2 a failure, 3 nothing could
 * be checked. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "cmd/lib/deploy.h"
#include "cmd/doctor/doctor.h"
#include "cmd/doctor/doctor_checks.h"
#include "cmd/doctor/doctor_mesh.h"
#include "cmd/lib/fanout.h"
#include "cmd/doctor/report_fold.h"
#include "cmd/lib/prom.h"
#include "probes/logs/hccllog.h"
#include "probes/logs/kb.h"
#include "probes/tool/tool.h"
#include "ranktable/ranktable.h"

#define TABLE_CAP RT_TABLE_MAX
#define DEFAULT_PORTS "60000,60031,16666,29500"

static const char *o_ranktable, *o_hosts, *o_hostfile, *o_user, *o_key, *o_known_hosts,
	*o_remote, *o_checks, *o_skip, *o_npu_smi, *o_hccn_tool, *o_sysfs, *o_ports, *o_logs,
	*o_digest, *o_server_id, *o_host_ip, *o_peers, *o_html;
static const char *o_env_file, *o_kernel_log, *o_fault_codes, *o_knowledge;
static const char *o_node_name, *o_on_fail, *o_on_pass, *o_exit_codes;
static long o_port, o_parallel, o_timeout;
static int o_local, o_node, o_insecure, o_deep, o_merge, o_list_checks;

const struct opt doctor_opts[] = {
	OPT_PATH("ranktable", 0, &o_ranktable, "FILE|URL",
		 "the job's rank table: its servers are the nodes, and it is checked on each",
		 COMPLETE_FILE),
	OPT_STR("hosts", 0, &o_hosts, "HOST[,HOST...]", "the nodes, without a rank table"),
	OPT_PATH("hostfile", 0, &o_hostfile, "FILE", "the nodes, one per line", COMPLETE_FILE),
	OPT_BOOL("local", 0, &o_local, "check this node only, without SSH"),
	OPT_LIST("checks", 0, &o_checks, "LIST",
		 "only these checks or groups (e.g. npu,link,net.ports; --list-checks names them)",
		 doctor_checks_complete),
	OPT_LIST("skip", 0, &o_skip, "LIST", "not these checks or groups",
		 doctor_checks_complete),
	OPT_BOOL("list-checks", 0, &o_list_checks,
		 "list the checks: code, group and what each checks, in the order of the report"),
	OPT_NUM("parallel", 0, &o_parallel, "N", "nodes at once (default 32)", 1, 4096),
	OPT_NUM("timeout", 0, &o_timeout, "SEC", "deadline per node (default 60)", 1, 86400),
	OPT_STR("ports", 0, &o_ports, "LIST",
		"TCP ports every node must reach on every other (default " DEFAULT_PORTS ")"),
	OPT_BOOL("deep", 0, &o_deep, "also measure the network: probe net between every pair"),
	OPT_PATH("logs", 0, &o_logs, "PATH",
		 "a failed job's logs: a directory (DIR/NODE/... for several nodes), one file, or - "
		 "for standard input; the most likely cause, its evidence and fix",
		 COMPLETE_FILE),
	OPT_PATH("knowledge", 0, &o_knowledge, "FILE",
		 "with --logs: an ascend-fd knowledge base (kg-config.json) to match the lines "
		 "against instead of the built-in one; its fault names and suggestions are shown",
		 COMPLETE_FILE),
	OPT_PATH("html", 0, &o_html, "FILE",
		 "also write the report as one HTML page: every node against every check, the "
		 "link heat map",
		 COMPLETE_FILE),
	OPT_PATH("env-file", 0, &o_env_file, "FILE",
		 "the job's environment on the nodes (KEY=VALUE lines) for env.hccl, instead of "
		 "their own",
		 COMPLETE_FILE),
	OPT_PATH("kernel-log", 0, &o_kernel_log, "FILE",
		 "the kernel log on the nodes, instead of dmesg or journalctl -k -b",
		 COMPLETE_FILE),
	OPT_PATH("fault-codes", 0, &o_fault_codes, "FILE",
		 "a MindCluster faultCode.json on the nodes, instead of the built-in table",
		 COMPLETE_FILE),
	OPT_PATH("npu-smi", 0, &o_npu_smi, "PATH", "npu-smi on the nodes", COMPLETE_FILE),
	OPT_PATH("hccn-tool", 0, &o_hccn_tool, "PATH", "hccn_tool on the nodes", COMPLETE_FILE),
	OPT_PATH("sysfs-root", 0, &o_sysfs, "DIR",
		 "another root for /sys (class/infiniband, bus/pci/devices)",
		 COMPLETE_DIR),
	OPT_STR("ssh-user", 0, &o_user, "USER", "log in as USER (default: $USER)"),
	OPT_NUM("ssh-port", 0, &o_port, "PORT", "SSH port (default 22)", 1, 65535),
	OPT_PATH("ssh-key", 0, &o_key, "FILE", "private key (default: agent, ~/.ssh/id_*)",
		 COMPLETE_FILE),
	OPT_PATH("ssh-known-hosts", 0, &o_known_hosts, "FILE",
		 "known host keys (default ~/.ssh/known_hosts)", COMPLETE_FILE),
	OPT_BOOL("ssh-insecure", 0, &o_insecure, "do not check host keys (warns)"),
	OPT_PATH("remote-hcclctl", 0, &o_remote, "PATH",
		 "hcclctl on the nodes (default: hcclctl in their PATH)", COMPLETE_FILE),
	OPT_BOOL("merge", 0, &o_merge,
		 "fold the documents of 'hcclctl --json doctor --local' from every node (the "
		 "FILE arguments, or - for standard input) into one cluster report"),
	OPT_STR("node-name", 0, &o_node_name, "NAME",
		"--local: this node's name in the report, and its Slurm name where "
		"SLURMD_NODENAME is not set (default: the host name)"),
	OPT_CHOICE("on-fail", 0, &o_on_fail, "ACTION",
		   "--local: on FAIL, drain: take this node out of Slurm (scontrol update "
		   "state=drain reason=\"hcclctl: CAUSE\")",
		   "drain none"),
	OPT_CHOICE("on-pass", 0, &o_on_pass, "ACTION",
		   "--local: on a pass, resume: return this node to Slurm if hcclctl drained it",
		   "resume none"),
	OPT_CHOICE("exit-codes", 0, &o_exit_codes, "STYLE",
		   "nagios (default: 0 OK, 1 WARN, 2 FAIL, 3 UNKNOWN) or npd: "
		   "node-problem-detector's (0 OK, 1 problem, 2 unknown) with one line of at most "
		   "80 bytes",
		   "nagios npd"),
	OPT_PROM,
	OPT_FETCH,
	/* the node side, started by the launcher */
	OPT_BOOL("node", 0, &o_node, "internal: run this node's checks, print them as JSON"),
	OPT_STR("digest", 0, &o_digest, "HEX", "internal (--node): the launcher's table digest"),
	OPT_STR("server-id", 0, &o_server_id, "ID", "internal (--node): this node in the table"),
	OPT_STR("host-ip", 0, &o_host_ip, "IP", "internal (--node): this node's host_ip"),
	OPT_STR("peers", 0, &o_peers, "LIST", "internal (--node): the other nodes"),
	OPT_TERM,
};

/* The code of a result (doctor_checks.c's row). */
static const char *code_of(int i)
{
	return doctor_checks[i].code;
}

enum st { ST_PASS, ST_SKIP, ST_WARN, ST_FAIL };
static const char *const st_name[] = { "PASS", "SKIP", "WARN", "FAIL" };

static enum st st_parse(const char *s)
{
	for (int i = 0; i < 4; i++)
		if (s && !strcmp(s, st_name[i]))
			return (enum st)i;
	return ST_FAIL;
}

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

static void add(struct job *j, int node, const char *code, enum st st, const char *fix,
		const char *fmt, ...) __attribute__((format(printf, 6, 7)));
static void add(struct job *j, int node, const char *code, enum st st, const char *fix,
		const char *fmt, ...)
{
	/* a node that gave no report is never filtered away: --checks would hide it */
	if (!doctor_wanted(&j->filter, code) && (st == ST_PASS || strcmp(code, "node.reach")))
		return;
	int ci = doctor_check_index(code);
	if (ci < 0) /* node reports are checked before; this is only ever our own mistake */
		return;
	if (j->n == j->cap) {
		size_t nc = j->cap ? j->cap * 2 : 64;
		struct doctor_row *nr = realloc(j->r, nc * sizeof(*nr));
		if (!nr)
			return;
		j->r = nr;
		j->cap = nc;
	}
	char msg[1200];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	j->r[j->n++] = (struct doctor_row){ node, ci, (int)st, strdup(msg),
					fix ? strdup(fix) : NULL };
}

/* ---- across nodes ---- */

static const char *fact_str(const cJSON *doc, const char *k)
{
	const cJSON *f = cJSON_GetObjectItemCaseSensitive(doc, "facts");
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(f, k);
	return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* A fact that must be equal everywhere: the majority value, and every node that differs. */
static void compare_fact(struct job *j, const char *fact, const char *code, const char *what,
			 const char *fix)
{
	const char *maj = NULL;
	size_t majn = 0, have = 0;
	for (size_t a = 0; a < j->nnodes; a++) {
		const char *va = j->docs[a] ? fact_str(j->docs[a], fact) : NULL;
		if (!va)
			continue;
		have++;
		size_t c = 0;
		for (size_t b = 0; b < j->nnodes; b++) {
			const char *vb = j->docs[b] ? fact_str(j->docs[b], fact) : NULL;
			c += vb && !strcmp(va, vb);
		}
		if (c > majn) {
			majn = c;
			maj = va;
		}
	}
	if (!have) {
		for (size_t a = 0; a < j->nnodes; a++)
			if (j->docs[a])
				add(j, (int)a, code, ST_SKIP, NULL, "no %s found", what);
		return;
	}
	for (size_t a = 0; a < j->nnodes; a++) {
		if (!j->docs[a])
			continue;
		const char *va = fact_str(j->docs[a], fact);
		if (!va)
			add(j, (int)a, code, ST_SKIP, NULL, "no %s found", what);
		else if (strcmp(va, maj))
			add(j, (int)a, code, ST_FAIL, fix, "%s %s, but %zu node%s have %s", what, va, majn,
			    majn == 1 ? "" : "s", maj);
		else
			add(j, (int)a, code, ST_PASS, NULL, "%s %s", what, va);
	}
}

/* Numbers a fact array holds on each node ("tls": 0/1 per NPU, "mtu" per port). */
static void compare_array(struct job *j, const char *fact, const char *code, const char *what,
			  const char *fix)
{
	double maj = NAN;
	size_t majn = 0, have = 0;
	for (size_t a = 0; a < j->nnodes; a++) {
		const cJSON *f = j->docs[a] ? cJSON_GetObjectItemCaseSensitive(
						      cJSON_GetObjectItemCaseSensitive(j->docs[a], "facts"), fact)
					    : NULL, *x;
		cJSON_ArrayForEach(x, f)
		{
			have++;
			size_t c = 0;
			for (size_t b = 0; b < j->nnodes; b++) {
				const cJSON *g = j->docs[b] ? cJSON_GetObjectItemCaseSensitive(
								      cJSON_GetObjectItemCaseSensitive(j->docs[b], "facts"), fact)
							    : NULL, *y;
				cJSON_ArrayForEach(y, g) c += y->valuedouble == x->valuedouble;
			}
			if (c > majn) {
				majn = c;
				maj = x->valuedouble;
			}
		}
	}
	if (!have)
		return;
	for (size_t a = 0; a < j->nnodes; a++) {
		const cJSON *f = j->docs[a] ? cJSON_GetObjectItemCaseSensitive(
						      cJSON_GetObjectItemCaseSensitive(j->docs[a], "facts"), fact)
					    : NULL, *x;
		if (!cJSON_GetArraySize(f))
			continue;
		int odd = 0;
		double ov = 0;
		cJSON_ArrayForEach(x, f) if (x->valuedouble != maj)
		{
			odd++;
			ov = x->valuedouble;
		}
		if (odd)
			add(j, (int)a, code, ST_FAIL, fix, "%s %g on %d of its ports/NPUs, the cluster's %g",
			    what, ov, odd, maj);
		else
			add(j, (int)a, code, ST_PASS, NULL, "%s %g", what, maj);
	}
}

static const cJSON *env_facts(const struct job *j, size_t a)
{
	const cJSON *f = j->docs[a] ? cJSON_GetObjectItemCaseSensitive(j->docs[a], "facts") : NULL;
	const cJSON *o = cJSON_GetObjectItemCaseSensitive(f, "hccl_env");
	return cJSON_IsObject(o) ? o : NULL;
}

static const char *env_of(const struct job *j, size_t a, const char *key)
{
	return cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(env_facts(j, a), key));
}

static int same_value(const char *x, const char *y)
{
	return x && y ? !strcmp(x, y) : x == y;
}

/* The HCCL_* variables the nodes reported (facts.hccl_env): each variable set on any node
 * must have the majority's value (unset counts as a value) on every node. */
static void compare_env(struct job *j)
{
	size_t have = 0, keys = 0, nbad = 0;
	for (size_t a = 0; a < j->nnodes; a++)
		have += env_facts(j, a) != NULL;
	char(*bad)[600] = have > 1 ? calloc(j->nnodes, sizeof(*bad)) : NULL;
	if (!bad)
		return;
	for (size_t a = 0; a < j->nnodes; a++) {
		const cJSON *kv;
		cJSON_ArrayForEach(kv, env_facts(j, a))
		{
			const char *key = kv->string, *maj = NULL;
			/* each key once: at the first node that sets it */
			size_t first = 0, majn = 0;
			while (first < a && !env_of(j, first, key))
				first++;
			if (first < a)
				continue;
			keys++;
			for (size_t b = 0; b < j->nnodes; b++) {
				size_t c = 0;
				for (size_t d = 0; env_facts(j, b) && d < j->nnodes; d++)
					c += env_facts(j, d) &&
					     same_value(env_of(j, b, key), env_of(j, d, key));
				if (c > majn) {
					majn = c;
					maj = env_of(j, b, key);
				}
			}
			for (size_t b = 0; b < j->nnodes; b++) {
				const char *vb = env_of(j, b, key);
				size_t at = strlen(bad[b]);
				if (!env_facts(j, b) || same_value(vb, maj) ||
				    at > sizeof(bad[b]) - 200)
					continue;
				char mine[120], theirs[120];
				if (vb)
					snprintf(mine, sizeof(mine), "%s=%.40s", key, vb);
				else
					snprintf(mine, sizeof(mine), "%s unset", key);
				if (maj)
					snprintf(theirs, sizeof(theirs), "%s %s=%.40s",
						 majn == 1 ? "has" : "have", key, maj);
				else
					snprintf(theirs, sizeof(theirs), "leave%s it unset",
						 majn == 1 ? "s" : "");
				snprintf(bad[b] + at, sizeof(bad[b]) - at, "%s%s, but %zu node%s %s",
					 at ? "; " : "", mine, majn, majn == 1 ? "" : "s", theirs);
			}
		}
	}
	for (size_t b = 0; b < j->nnodes; b++)
		if (bad[b][0]) {
			nbad++;
			add(j, (int)b, "env.hccl", ST_FAIL,
			    "set the same HCCL_* variables on every node (the job's launch script "
			    "or env file)",
			    "%s", bad[b]);
		}
	if (!nbad && keys)
		add(j, -1, "env.hccl", ST_PASS, NULL,
		    "the same %zu HCCL variable%s on all %zu nodes", keys, keys == 1 ? "" : "s",
		    have);
	else if (!nbad)
		add(j, -1, "env.hccl", ST_PASS, NULL, "no HCCL variable on any of the %zu nodes",
		    have);
	free(bad);
}

static double real_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

/* Each node stamps its report as it leaves; the launcher notes when it arrived. The
 * difference is the node's clock against the launcher's, give or take the few milliseconds
 * the report took on the way. */
static void compare_time(struct job *j)
{
	for (size_t a = 0; a < j->nnodes; a++) {
		const cJSON *f = j->docs[a] ? cJSON_GetObjectItemCaseSensitive(j->docs[a], "facts") : NULL;
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(f, "time_us");
		if (!cJSON_IsNumber(v) || !j->arrived_us || !j->arrived_us[a])
			continue;
		double skew = (v->valuedouble - j->arrived_us[a]) / 1e6;
		if (fabs(skew) > 2.0)
			add(j, (int)a, "host.time", ST_WARN,
			    "run chrony or ntpd on every node; logs from nodes with skewed clocks "
			    "cannot be lined up",
			    "clock %+.1f s from the launcher's", skew);
		else
			add(j, (int)a, "host.time", ST_PASS, NULL, "clock within 2 s of the launcher's");
	}
}

/* ---- the nodes ---- */

struct node_plan {
	const char *host, *name, *server_id, *host_ip;
};

static int parse_ports(struct doctor_node_args *na, const char *list)
{
	na->nports = 0;
	for (const char *p = list; *p;) {
		char *end;
		long v = strtol(p, &end, 10);
		if (end == p || v < 1 || v > 65535 || (*end && *end != ',') ||
		    na->nports == DOCTOR_MAX_PORTS)
			return -1;
		na->ports[na->nports++] = (int)v;
		p = *end ? end + 1 : end;
	}
	return 0;
}

static char *node_cmd(const struct node_plan *np, const char *peers, const char *digest,
		      const char *table_path)
{
	const char *w[48];
	int k = 0;
	/* the words after hcclctl: deploy.c finds or copies it and puts its path first */
	w[k++] = "doctor";
	w[k++] = "--node";
	const char *pairs[][2] = { { "--checks", o_checks },	   { "--skip", o_skip },
				   { "--npu-smi", o_npu_smi },	   { "--hccn-tool", o_hccn_tool },
				   { "--sysfs-root", o_sysfs },	   { "--ports", o_ports },
				   { "--ranktable", table_path },  { "--digest", digest },
				   { "--server-id", np->server_id }, { "--host-ip", np->host_ip },
				   { "--peers", peers },	   { "--env-file", o_env_file },
				   { "--kernel-log", o_kernel_log },
				   { "--fault-codes", o_fault_codes } };
	for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		if (!pairs[i][1] || !*pairs[i][1])
			continue;
		w[k++] = pairs[i][0];
		w[k++] = pairs[i][1];
	}
	return sh_join(k, w);
}

static int node_main(void)
{
	struct doctor_filter f = { o_checks, o_skip };
	struct doctor_node_args a = { .npu_smi = o_npu_smi, .hccn_tool = o_hccn_tool,
				      .sysfs_root = o_sysfs, .ranktable = o_ranktable,
				      .digest = o_digest, .server_id = o_server_id,
				      .host_ip = o_host_ip, .filter = &f, .env_file = o_env_file,
				      .kernel_log = o_kernel_log, .fault_codes = o_fault_codes };
	if (parse_ports(&a, o_ports ? o_ports : DEFAULT_PORTS))
		return fail(EXIT_USAGE, "doctor", "e.g. --ports 60000,16666", "invalid --ports");
	char *peers = o_peers ? strdup(o_peers) : NULL;
	for (char *p = peers, *s; p && *p && a.npeers < DOCTOR_MAX_PEERS; p = s) {
		s = p + strcspn(p, ",");
		if (*s)
			*s++ = '\0';
		a.peers[a.npeers++] = p;
	}
	cJSON *doc = doctor_node_run(&a);
	char *txt = cJSON_PrintUnformatted(doc);
	if (txt)
		puts(txt);
	free(txt);
	cJSON_Delete(doc);
	free(peers);
	out_json_set_printed();
	return EXIT_OK;
}

/* ---- the report ---- */

static int cmp_result(const void *a, const void *b)
{
	const struct doctor_row *x = a, *y = b;
	if (x->code != y->code)
		return x->code - y->code;
	return x->node - y->node;
}

/* The nodes the cause was found on, folded (every node of its group). */
static char cause_nodes[1024];

/* What --on-fail or --on-pass did to the node ("" nothing), for the JSON document. */
static char acted[1400];

/* The triage of --logs, kept for the text and JSON that only it has. */
static struct hlog_report logs;

/* Where a cluster-wide result is: the node its logs name, for logs.cause. */
static const char *cluster_where(const struct doctor_row *r)
{
	if (strcmp(code_of(r->code), "logs.cause"))
		return "cluster";
	return logs.node[0] ? logs.node : logs.reported_on[0] ? logs.reported_on : "cluster";
}

/* The nodes a report covers: those checked, else those whose logs were read. */
static size_t nodes_seen(const struct job *j)
{
	if (j->nnodes || !o_logs)
		return j->nnodes;
	size_t n = 0;
	for (size_t i = 0; i < logs.nfile; i++) {
		size_t k = 0;
		while (k < i && strcmp(logs.file[k].node, logs.file[i].node))
			k++;
		n += k == i;
	}
	return n;
}

static int npd_mode(void)
{
	return o_exit_codes && !strcmp(o_exit_codes, "npd");
}

static void print_report(struct job *j, const struct doctor_row **cause)
{
	if (j->n) /* none when every check was left out: j->r is NULL then */
		qsort(j->r, j->n, sizeof(*j->r), cmp_result);
	struct doctor_fold f;
	char names[1024];
	size_t first, n;
	*cause = NULL;
	if (doctor_fold_init(&f, j->r, j->n)) {
		doctor_fold_release(&f);
		fail(EXIT_UNKNOWN, "doctor", NULL, "out of memory");
		return;
	}
	while (doctor_fold_next(&f, &first, &n)) {
		const struct doctor_row *r = &j->r[first];
		rt_hostlist_fold(j->nodes, f.idx, n, names, sizeof(names));
		if ((r->st == ST_FAIL && (!*cause || (*cause)->st != ST_FAIL)) ||
		    (r->st == ST_WARN && !*cause)) {
			*cause = r;
			snprintf(cause_nodes, sizeof(cause_nodes), "%s", n ? names : "");
		}
		if (g_opts.json || npd_mode() || (g_opts.quiet && r->st <= ST_SKIP))
			continue;
		const char *col = r->st == ST_FAIL   ? color(1, "\033[1;31m")
				  : r->st == ST_WARN ? color(1, "\033[1;33m")
				  : r->st == ST_PASS ? color(1, "\033[32m")
						     : "";
		printf("%s%-4s%s  %-15s %-22s %s\n", col, st_name[r->st],
		       use_color(1) ? "\033[0m" : "", code_of(r->code),
		       out_safe(n ? names : cluster_where(r)), out_safe(r->msg));
	}
	doctor_fold_release(&f);
}

static void on_done(void *arg, const struct fo_host *h)
{
	struct job *j = arg;
	size_t i = (size_t)(h - j->hosts);
	if (j->arrived_us && i < j->nnodes)
		j->arrived_us[i] = real_us();
}

static int run_nodes(struct job *j, struct node_plan *plan, const char *digest,
		     const char *table_path)
{
	char *peers = NULL;
	size_t pl = 1;
	for (size_t i = 0; i < j->nnodes; i++)
		pl += strlen(plan[i].host) + 1;
	peers = calloc(1, pl);
	for (size_t i = 0, at = 0; peers && i < j->nnodes; i++)
		at += (size_t)snprintf(peers + at, pl - at, "%s%s", i ? "," : "", plan[i].host);
	if (!peers)
		return fail(EXIT_UNKNOWN, "doctor", NULL, "out of memory");
	struct fo_host *hosts = calloc(j->nnodes, sizeof(*hosts));
	char **cmds = calloc(j->nnodes, sizeof(*cmds)), **rest = calloc(j->nnodes, sizeof(*rest));
	struct deploy dep = { 0 };
	char err[SSH_ERRLEN];
	int rc = 0;
	if (!hosts || !cmds || !rest) {
		rc = fail(EXIT_UNKNOWN, "doctor", NULL, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < j->nnodes; i++) {
		rest[i] = node_cmd(&plan[i], peers, digest, table_path);
		hosts[i].host = plan[i].host;
		hosts[i].name = plan[i].name;
	}
	j->hosts = hosts;
	if (deploy_init(&dep, o_remote, err, sizeof(err))) {
		rc = fail(EXIT_UNKNOWN, "doctor", NULL, "%s", err);
		goto out;
	}
	struct deploy_fan df = { .d = &dep, .hosts = hosts, .rest = rest, .cmds = cmds,
				 .where = "doctor", .verbose = g_opts.verbose };
	struct fanout f = {
		.on_done = on_done,
		.prepare = deploy_prepare,
		.prepare_arg = &df,
		.arg = j,
		.ssh = { .user = o_user, .port = (int)o_port, .key = o_key,
			 .known_hosts = o_known_hosts, .insecure = o_insecure, .cancel_fd = -1 },
		.parallel = o_parallel ? (int)o_parallel : 32,
		.connect_timeout_ms = 10000,
		.cmd_timeout_ms = (o_timeout ? o_timeout : 60) * 1000LL,
		.cap = 4UL << 20,
		.progress = !g_opts.quiet,
	};
	if (fanout_run(&f, hosts, j->nnodes, err, sizeof(err))) {
		rc = fail(EXIT_UNKNOWN, "doctor", NULL, "%s", err);
		goto out;
	}
	for (size_t i = 0; i < j->nnodes; i++) {
		const struct fo_host *h = &hosts[i];
		if (h->status == FO_UNREACHABLE || (h->status == FO_TIMEOUT && !h->connected)) {
			add(j, (int)i, "node.reach", ST_FAIL,
			    "check that the node is up, sshd runs and the key is accepted",
			    "cannot reach the node: %s", h->error);
			continue;
		}
		if (h->status == FO_NOSTART) {
			add(j, (int)i, "node.reach", ST_FAIL,
			    h->code == -ELIBACC ? "install the package named, or pass "
						  "--remote-hcclctl PATH to an hcclctl that runs there"
						: "pass --remote-hcclctl PATH to an hcclctl that runs there",
			    "%s", h->error);
			continue;
		}
		cJSON *doc = h->out.len ? cJSON_ParseWithLength(h->out.p, h->out.len) : NULL;
		if (!doc || !cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(doc, "checks"))) {
			const char *tail = fo_stderr_tail(h, 1);
			/* the shell's 127 and 126: no hcclctl there, or not one it can run */
			if (h->status == FO_FAILED && !h->signal[0] &&
			    (h->exit_status == 127 || h->exit_status == 126))
				add(j, (int)i, "node.reach", ST_FAIL,
				    "fix --remote-hcclctl PATH, or leave it out to copy this hcclctl "
				    "there",
				    "hcclctl %s on the node (exit %d)%s%s",
				    h->exit_status == 127 ? "is not installed" : "is not executable",
				    h->exit_status, *tail ? ": " : "", tail);
			else
				add(j, (int)i, "node.reach", ST_FAIL,
				    "install the same hcclctl on every node, or pass --remote-hcclctl "
				    "PATH",
				    "hcclctl doctor --node gave no report (%s%s%s)",
				    h->status == FO_TIMEOUT ? "timed out" : fo_status_name(h->status),
				    *tail ? ": " : "", tail);
			cJSON_Delete(doc);
			continue;
		}
		/* what a node prints is input like any other: an unknown or repeated check
		 * would index past the code table or overrun the fold */
		char why[400];
		if (doctor_doc_check(h->name, h->out.p, h->out.len, doc, h->name,
				     doctor_check_index, why, sizeof(why))) {
			add(j, (int)i, "node.reach", ST_FAIL,
			    "install the same hcclctl on every node, or pass --remote-hcclctl PATH",
			    "its report is refused: %s", why);
			cJSON_Delete(doc);
			continue;
		}
		add(j, (int)i, "node.reach", ST_PASS, NULL, "reached in %.1f s", h->seconds);
		j->docs[i] = doc;
	}
out:
	for (size_t i = 0; hosts && i < j->nnodes; i++)
		fo_host_release(&hosts[i]);
	for (size_t i = 0; cmds && rest && i < j->nnodes; i++) {
		free(cmds[i]);
		free(rest[i]);
	}
	free(cmds);
	free(rest);
	deploy_release(&dep);
	free(hosts);
	free(peers);
	return rc;
}

/* The nodes' own checks into the job. */
static void take_node_checks(struct job *j)
{
	for (size_t i = 0; i < j->nnodes; i++) {
		const cJSON *c, *cs = j->docs[i] ? cJSON_GetObjectItemCaseSensitive(j->docs[i], "checks")
						 : NULL;
		cJSON_ArrayForEach(c, cs)
		{
			const cJSON *code = cJSON_GetObjectItemCaseSensitive(c, "code");
			const cJSON *st = cJSON_GetObjectItemCaseSensitive(c, "status");
			const cJSON *msg = cJSON_GetObjectItemCaseSensitive(c, "message");
			const cJSON *fix = cJSON_GetObjectItemCaseSensitive(c, "fix");
			if (!cJSON_IsString(code) || !cJSON_IsString(st) || !cJSON_IsString(msg))
				continue;
			add(j, (int)i, code->valuestring, st_parse(st->valuestring),
			    cJSON_IsString(fix) ? fix->valuestring : NULL, "%s", msg->valuestring);
		}
	}
}

static void logs_check(struct job *j)
{
	char msg[1100];
	int st;
	doctor_logs_scan(o_logs, &logs, &st, msg, sizeof(msg));
	add(j, -1, "logs.cause", (enum st)st, st >= DOCTOR_WARN ? logs.fix : NULL, "%s", msg);
}

/* --deep with a rank table: a real allreduce over it, one rank per entry over SSH, on HCCL
 * where every rank loads it (--engine auto), so the NPUs' own links carry it. Its verdict
 * names the rank or link that makes it fail, its footer (libcomm's) the link or rank that
 * makes it slow: the bisection is the run's own. */
/* The SSH options of this doctor run, for the hcclctl commands --deep starts (at most 11
 * arguments); returns the new argument count. */
static int push_ssh_options(char **argv, int n, const char *port)
{
	const char *pairs[][2] = { { "--ssh-user", o_user }, { "--ssh-key", o_key },
				   { "--ssh-known-hosts", o_known_hosts },
				   { "--remote-hcclctl", o_remote } };
	for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++)
		if (pairs[i][1]) {
			argv[n++] = (char *)pairs[i][0];
			argv[n++] = (char *)pairs[i][1];
		}
	if (o_port) {
		argv[n++] = (char *)"--ssh-port";
		argv[n++] = (char *)port;
	}
	if (o_insecure)
		argv[n++] = (char *)"--ssh-insecure";
	return n;
}

static void deep_allreduce(struct job *j, const char *exe, const char *port)
{
	char *argv[40];
	int n = 0;
	argv[n++] = (char *)exe;
	argv[n++] = (char *)"--json";
	argv[n++] = (char *)"run";
	argv[n++] = (char *)"allreduce";
	argv[n++] = (char *)"--ranktable";
	argv[n++] = (char *)o_ranktable;
	argv[n++] = (char *)"--ssh";
	const char *sweep[] = { "-b", "1M", "-e", "16M", "-f", "4", "-n", "3", "-w", "1",
				"--timeout", "60", "--engine", "auto" };
	for (size_t i = 0; i < sizeof(sweep) / sizeof(sweep[0]); i++)
		argv[n++] = (char *)sweep[i];
	n = push_ssh_options(argv, n, port);
	argv[n] = NULL;
	struct probe_tool_result r = { 0 };
	char err[PROBE_ERRLEN];
	int rc = probe_tool_run("/proc/self/exe", argv, 900000, &r, err, sizeof(err));
	cJSON *doc = rc ? NULL : cJSON_ParseWithLength(r.out, r.outlen);
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(doc, "verdict");
	const cJSON *sl = cJSON_GetObjectItemCaseSensitive(doc, "slowest");
	const cJSON *link = cJSON_GetObjectItemCaseSensitive(sl, "link");
	const cJSON *rank = cJSON_GetObjectItemCaseSensitive(sl, "rank");
	const cJSON *avg = cJSON_GetObjectItemCaseSensitive(doc, "avg_busbw_GBps");
	const char *engine = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(doc, "engine"));
	const char *on = engine && !strcmp(engine, "hccl") ? "on HCCL" : "on libcomm over host TCP";
	if (!doc) {
		add(j, -1, "run.allreduce", ST_FAIL, NULL, "the allreduce did not run: %s",
		    rc ? err : "no JSON from it");
	} else if (cJSON_IsObject(v)) {
		const char *kind = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(v, "kind"));
		const char *msg = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(v, "message"));
		add(j, -1, "run.allreduce", ST_FAIL,
		    "hcclctl run allreduce --ranktable ... --ssh reproduces it; its verdict names the "
		    "rank or link (hcclctl-run(1), VERDICTS)",
		    "the allreduce over the rank table failed: %s: %s", kind ? kind : "?",
		    msg ? msg : "?");
	} else if (r.status) {
		const cJSON *e = cJSON_GetObjectItemCaseSensitive(doc, "error");
		const char *msg = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "message"));
		add(j, -1, "run.allreduce", ST_FAIL, NULL, "the allreduce over the rank table failed "
		    "(exit %d): %s", r.status, msg ? msg : "see hcclctl run");
	} else if (cJSON_IsObject(link)) {
		const cJSON *g = cJSON_GetObjectItemCaseSensitive(link, "GBps");
		const cJSON *m = cJSON_GetObjectItemCaseSensitive(link, "median_GBps");
		add(j, -1, "run.allreduce", ST_WARN,
		    "check that link's cables, NIC and switch port; hcclctl probe net measures it",
		    "allreduce %s %.3f GB/s busbw, slowed by the link rank %d (%s) -> rank %d (%s): "
		    "%.3f GB/s, the median link %.3f GB/s",
		    on, cJSON_IsNumber(avg) ? avg->valuedouble : 0.0,
		    cJSON_GetObjectItemCaseSensitive(link, "from")->valueint,
		    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(link, "from_host")),
		    cJSON_GetObjectItemCaseSensitive(link, "to")->valueint,
		    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(link, "to_host")),
		    cJSON_IsNumber(g) ? g->valuedouble : 0.0, cJSON_IsNumber(m) ? m->valuedouble : 0.0);
	} else if (cJSON_IsObject(rank)) {
		add(j, -1, "run.allreduce", ST_WARN,
		    "that rank's node is slow to take part: check its CPU load and NIC",
		    "allreduce %s %.3f GB/s busbw, the others waited most on rank %d (%s)",
		    on, cJSON_IsNumber(avg) ? avg->valuedouble : 0.0,
		    cJSON_GetObjectItemCaseSensitive(rank, "rank")->valueint,
		    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(rank, "host")));
	} else {
		add(j, -1, "run.allreduce", ST_PASS, NULL,
		    "allreduce 1 MiB to 16 MiB over the rank table %s, exact, %.3f GB/s busbw", on,
		    cJSON_IsNumber(avg) ? avg->valuedouble : 0.0);
	}
	cJSON_Delete(doc);
	probe_tool_result_release(&r);
}

static void deep_checks(struct job *j, struct node_plan *plan)
{
	char exe[4096], hosts[8192] = "";
	ssize_t k = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (k <= 0)
		return;
	exe[k] = '\0';
	size_t at = 0;
	for (size_t i = 0; i < j->nnodes && at < sizeof(hosts) - 300; i++)
		if (j->docs[i])
			at += (size_t)snprintf(hosts + at, sizeof(hosts) - at, "%s%s", at ? "," : "",
					       plan[i].host);
	char port[16];
	snprintf(port, sizeof(port), "%ld", o_port ? o_port : 22);
	char *argv[32];
	int n = 0;
	argv[n++] = exe;
	argv[n++] = (char *)"--json";
	argv[n++] = (char *)"probe";
	argv[n++] = (char *)"net";
	argv[n++] = (char *)"--hosts";
	argv[n++] = hosts;
	n = push_ssh_options(argv, n, port);
	argv[n] = NULL;
	struct probe_tool_result r = { 0 };
	char err[PROBE_ERRLEN];
	int rc = probe_tool_run("/proc/self/exe", argv, 600000, &r, err, sizeof(err));
	cJSON *doc = rc ? NULL : cJSON_ParseWithLength(r.out, r.outlen);
	if (!doc) {
		add(j, -1, "net.bandwidth", ST_FAIL, NULL, "probe net failed: %s",
		    rc ? err : "no JSON from it");
	} else {
		/* probe net's own judgement: the links it measured slow, the nodes it named */
		const cJSON *links = cJSON_GetObjectItemCaseSensitive(doc, "links"), *x;
		const cJSON *med = cJSON_GetObjectItemCaseSensitive(doc, "median_bps");
		int named = 0;
		cJSON_ArrayForEach(x, links)
		{
			const cJSON *slow = cJSON_GetObjectItemCaseSensitive(x, "slow");
			const cJSON *bps = cJSON_GetObjectItemCaseSensitive(x, "bandwidth_bps");
			const char *from = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(x, "from"));
			const char *to = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(x, "to"));
			if (!cJSON_IsTrue(slow) || !from || !to || !cJSON_IsNumber(bps))
				continue;
			named++;
			add(j, -1, "net.bandwidth", ST_WARN,
			    "check that link's cables, NIC and switch port (ethtool -S, the switch's "
			    "counters, tc qdisc); hcclctl probe net measures it again",
			    "link %s -> %s: %.0f Mbit/s, %.0f %% of the median %.0f Mbit/s", from, to,
			    bps->valuedouble / 1e6,
			    cJSON_IsNumber(med) && med->valuedouble > 0
				    ? 100.0 * bps->valuedouble / med->valuedouble
				    : 0.0,
			    cJSON_IsNumber(med) ? med->valuedouble / 1e6 : 0.0);
		}
		if (!named)
			add(j, -1, "net.bandwidth", r.status > 1 ? ST_FAIL : ST_PASS,
			    r.status > 1 ? "hcclctl probe net names the pairs it could not measure" : NULL,
			    r.status > 1 ? "probe net could not measure every pair (exit %d)"
					 : "every link within 80 %% of the median (%d)",
			    r.status);
	}
	j->net = doc; /* kept for the HTML page */
	probe_tool_result_release(&r);
	if (o_ranktable && doctor_wanted(&j->filter, "run.allreduce"))
		deep_allreduce(j, exe, port);
}

/* link.npu-mesh: every device IP of the table pings every other (doctor_mesh.c). */
static void mesh_check(struct job *j)
{
	char port[16], *extra[16];
	snprintf(port, sizeof(port), "%ld", o_port ? o_port : 22);
	extra[push_ssh_options(extra, 0, port)] = NULL;
	struct doctor_mesh_args a = { .ranktable = o_ranktable, .hccn_tool = o_hccn_tool,
				      .extra = (const char *const *)extra, .nodes = j->nodes,
				      .nnodes = j->nnodes, .local = o_local };
	struct doctor_mesh_result *r = NULL;
	size_t n = doctor_mesh_run(&a, &r);
	for (size_t i = 0; i < n; i++)
		add(j, r[i].node, "link.npu-mesh", (enum st)r[i].status, r[i].fix, "%s", r[i].msg);
	doctor_mesh_free(r, n);
}

static void json_report(const struct job *j, const struct doctor_row *cause, int code)
{
	cJSON *doc = cJSON_CreateObject();
	cJSON_AddStringToObject(doc, "schema", "hcclctl-doctor/1");
	cJSON *nodes = cJSON_AddArrayToObject(doc, "nodes");
	for (size_t i = 0; i < j->nnodes; i++)
		cJSON_AddItemToArray(nodes, cJSON_CreateString(j->nodes[i]));
	cJSON *checks = cJSON_AddArrayToObject(doc, "checks");
	int count[4] = { 0 };
	for (size_t i = 0; i < j->n; i++) {
		const struct doctor_row *r = &j->r[i];
		count[r->st]++;
		cJSON *c = cJSON_CreateObject();
		cJSON_AddStringToObject(c, "code", code_of(r->code));
		if (r->node >= 0)
			cJSON_AddStringToObject(c, "node", j->nodes[r->node]);
		else
			cJSON_AddNullToObject(c, "node");
		cJSON_AddStringToObject(c, "status", st_name[r->st]);
		cJSON_AddStringToObject(c, "message", r->msg);
		if (r->fix)
			cJSON_AddStringToObject(c, "fix", r->fix);
		else
			cJSON_AddNullToObject(c, "fix");
		cJSON_AddItemToArray(checks, c);
	}
	cJSON *s = cJSON_AddObjectToObject(doc, "summary");
	for (int i = 0; i < 4; i++)
		cJSON_AddNumberToObject(s, st_name[i], count[i]);
	if (cause) {
		cJSON *c = cJSON_AddObjectToObject(doc, "cause");
		cJSON_AddStringToObject(c, "code", code_of(cause->code));
		if (cause->node >= 0)
			cJSON_AddStringToObject(c, "node", j->nodes[cause->node]);
		else
			cJSON_AddNullToObject(c, "node");
		cJSON_AddStringToObject(c, "nodes", cause_nodes);
		cJSON_AddStringToObject(c, "status", st_name[cause->st]);
		cJSON_AddStringToObject(c, "message", cause->msg);
		if (cause->fix)
			cJSON_AddStringToObject(c, "fix", cause->fix);
		else
			cJSON_AddNullToObject(c, "fix");
	} else {
		cJSON_AddNullToObject(doc, "cause");
	}
	if (o_logs) {
		int mine = cause && !strcmp(code_of(cause->code), "logs.cause");
		doctor_logs_json(doc, mine ? cJSON_GetObjectItemCaseSensitive(doc, "cause") : NULL,
				 &logs, o_logs);
	}
	if (o_local && j->nnodes == 1 && j->docs[0]) {
		/* what --merge compares across nodes (versions, MTU, TLS, the clock) */
		const cJSON *f = cJSON_GetObjectItemCaseSensitive(j->docs[0], "facts");
		cJSON *fs = cJSON_AddObjectToObject(doc, "facts");
		if (cJSON_IsObject(f))
			cJSON_AddItemToObject(fs, j->nodes[0], cJSON_Duplicate(f, 1));
	}
	if (o_on_fail || o_on_pass) {
		if (*acted)
			cJSON_AddStringToObject(doc, "action", acted);
		else
			cJSON_AddNullToObject(doc, "action");
	}
	cJSON_AddNumberToObject(doc, "exit_code", npd_mode() ? doctor_npd_exit(code) : code);
	out_json(doc);
}

/* --hosts or --hostfile: the nodes, or under --merge the nodes whose reports are expected.
 * 0, or the exit code (the message printed). */
static int read_hosts(struct rt_hostfile *hf)
{
	char err[512];
	char *hb = NULL;
	size_t hl = 0;
	struct rt_diags d = { 0 };
	if (o_hosts) { /* a list, in Slurm's notation too: --hosts "$SLURM_JOB_NODELIST" */
		int erc = rt_hostlist_expand(o_hosts, strlen(o_hosts), &hb, &hl, err, sizeof(err));
		if (erc)
			return fail(erc == -ENOMEM ? EXIT_UNKNOWN : EXIT_USAGE, "doctor",
				    "e.g. --hosts gpu1,gpu2 or --hosts 'gpu[01-16]'", "--hosts: %s", err);
	} else if (rt_read_file(o_hostfile, TABLE_CAP, &hb, &hl, err, sizeof(err))) {
		return fail(EXIT_UNKNOWN, "doctor", NULL, "%s", err);
	}
	int hrc = rt_hostfile_parse(hf, o_hosts ? "--hosts" : o_hostfile, hb, hl, &d, err,
				    sizeof(err));
	free(hb);
	print_findings(&d, o_hosts ? "--hosts" : o_hostfile);
	rt_diags_release(&d);
	return hrc ? fail(o_hosts ? EXIT_USAGE : EXIT_FAIL, "doctor", NULL, "%s", err) : 0;
}

/* --merge with the nodes expected: whether each node's report came, and was expected. */
static void merge_reach(struct job *j, int i, const struct rt_hostfile *hf, const char *name)
{
	size_t k = 0;
	while (k < hf->n && strcmp(hf->v[k].server_id, name))
		k++;
	if (!j->docs[i])
		add(j, i, "node.reach", ST_FAIL,
		    "read the job's output for this node (its task did not start, or it ended "
		    "before it printed), or run hcclctl doctor --local there",
		    "no report from this node");
	else if (k == hf->n)
		add(j, i, "node.reach", ST_WARN,
		    "check the node list given, or the node's name (--node-name)",
		    "a report from a node that %s does not name",
		    o_hosts ? "--hosts" : o_hostfile);
	else
		add(j, i, "node.reach", ST_PASS, NULL, "report read");
}

/* --checks and --skip name checks or groups that exist: a misspelt name would run nothing,
 * or skip nothing, and say nothing. 0, or the exit code (the message printed). */
static int filter_valid(void)
{
	char err[1024];
	if (doctor_filter_valid("--checks", o_checks, err, sizeof(err)) ||
	    doctor_filter_valid("--skip", o_skip, err, sizeof(err)))
		return fail(EXIT_USAGE, "doctor", "hcclctl doctor --list-checks says what each checks",
			    "%s", err);
	return 0;
}

/* --html: the page of every node against every check. */
static void write_html(const struct job *j, const struct doctor_row *cause, const int *count)
{
	struct doctor_cell *cells = calloc(j->n + 1, sizeof(*cells));
	char sum[200], cz[2000] = "";
	snprintf(sum, sizeof(sum), "%d passed, %d warnings, %d failed, %d skipped on %zu node%s",
		 count[ST_PASS], count[ST_WARN], count[ST_FAIL], count[ST_SKIP], j->nnodes,
		 j->nnodes == 1 ? "" : "s");
	if (cause)
		snprintf(cz, sizeof(cz), "%s%s%s: %.600s%s%.300s", code_of(cause->code),
			 *cause_nodes ? " on " : "", cause_nodes, cause->msg,
			 cause->fix ? " | fix: " : "", cause->fix ? cause->fix : "");
	for (size_t i = 0; cells && i < j->n; i++)
		cells[i] = (struct doctor_cell){ j->r[i].node, code_of(j->r[i].code),
						 st_name[j->r[i].st], j->r[i].msg, j->r[i].fix };
	int hrc = cells ? doctor_html_write(o_html, j->nodes, j->nnodes, cells, j->n, sum, cz,
					    j->net)
			: -ENOMEM;
	free(cells);
	if (hrc)
		warn_msg("doctor", "cannot write %s: %s", o_html, strerror(-hrc));
	else if (!g_opts.quiet && !g_opts.json)
		fprintf(stderr, "hcclctl: doctor: wrote %s\n", o_html);
}

/* --prometheus: the gauges of every result and the exit code. */
static void write_prom(const struct job *j, int rc)
{
	char err[600];
	struct doctor_cell *cells = calloc(j->n + 1, sizeof(*cells));
	int prc = cells ? 0 : -ENOMEM;
	for (size_t i = 0; cells && i < j->n; i++)
		cells[i] = (struct doctor_cell){ j->r[i].node, code_of(j->r[i].code),
						 st_name[j->r[i].st], j->r[i].msg, j->r[i].fix };
	if (cells)
		prc = doctor_prom_write(prom_path, j->nodes, j->nnodes, cells, j->n, rc, err,
					sizeof(err));
	else
		snprintf(err, sizeof(err), "%s: out of memory", prom_path);
	if (prc)
		warn_msg("doctor", "cannot write the metrics: %s", err);
	free(cells);
}

/* The text report's end: the summary, --logs' findings, the most likely cause and its fix. */
static void print_end(const struct job *j, const struct doctor_row *cause, const int *count)
{
	size_t seen = nodes_seen(j);
	printf("\n%d passed, %d warnings, %d failed, %d skipped on %zu node%s\n",
	       count[ST_PASS], count[ST_WARN], count[ST_FAIL], count[ST_SKIP], seen,
	       seen == 1 ? "" : "s");
	if (o_logs)
		doctor_logs_print(&logs);
	if (cause) {
		const char *where = cause_nodes, *on = " on ";
		if (!*where && !strcmp(code_of(cause->code), "logs.cause")) {
			/* the culprit's node, else the one whose lines show it */
			where = logs.node[0] ? logs.node : logs.reported_on;
			on = logs.node[0] ? " on " : " reported on ";
		}
		printf("most likely cause: %s%s%s: %s\n", code_of(cause->code),
		       *where ? on : "", out_safe(where), out_safe(cause->msg));
		if (cause->fix)
			printf("fix: %s\n", out_safe(cause->fix));
	}
}

/* The results into the report, the page, the metrics and the node's action: the exit code. */
static int report(struct job *j)
{
	char err[600];
	int rc;
	const struct doctor_row *cause = NULL;
	print_report(j, &cause);
	int count[4] = { 0 };
	for (size_t i = 0; i < j->n; i++)
		count[j->r[i].st]++;
	rc = count[ST_FAIL] ? EXIT_FAIL : count[ST_WARN] ? EXIT_WARN
	     : count[ST_PASS]			      ? EXIT_OK
							      : EXIT_UNKNOWN;
	if (o_html)
		write_html(j, cause, count);
	char cz_line[1400] = "";
	if (cause)
		snprintf(cz_line, sizeof(cz_line), "%s%s%s: %s", code_of(cause->code),
			 *cause_nodes ? " on " : "", cause_nodes, cause->msg);
	if (prom_path)
		write_prom(j, rc);
	if (o_local) {
		struct doctor_action act = { o_on_fail, o_on_pass, o_node_name };
		char *did = acted;
		/* --strict makes a warning a failure here too, as main will for the exit */
		int st = g_opts.strict && rc == EXIT_WARN ? EXIT_FAIL : rc;
		if (doctor_act(&act, st, cz_line, did, sizeof(acted), err, sizeof(err))) {
			/* the check's own result stands; that it could not act is said */
			warn_msg("doctor", "--on-%s: %s", st == EXIT_FAIL ? "fail" : "pass", err);
		} else if (*did && !g_opts.quiet) {
			fprintf(stderr, "hcclctl: doctor: %s\n", did);
		}
	}
	if (g_opts.json) {
		json_report(j, cause, rc);
	} else if (npd_mode()) {
		char line[DOCTOR_NPD_MAX + 1];
		doctor_npd_line(rc, cz_line, line, sizeof(line));
		puts(out_safe(line));
	} else {
		print_end(j, cause, count);
	}
	return rc;
}

/* Each node: where to reach it (plan) and its name in the report; under --merge its report,
 * taken from merged. 0, or the exit code (the message printed). */
static int plan_nodes(struct job *j, struct node_plan *plan, const struct rt_table *t,
		      const struct rt_hostfile *hf, struct doctor_merged *merged)
{
	for (size_t i = 0; i < j->nnodes; i++) {
		if (o_merge) {
			plan[i].host = plan[i].name = merged->v[i].name;
			j->docs[i] = merged->v[i].doc; /* the job's now */
			merged->v[i].doc = NULL;
			j->arrived_us[i] = real_us();
			if (o_hosts || o_hostfile)
				merge_reach(j, (int)i, hf, merged->v[i].name);
		} else if (o_local) {
			static char hn[256];
			gethostname(hn, sizeof(hn) - 1);
			plan[i].host = plan[i].name = o_node_name ? (char *)o_node_name : hn;
		} else if (o_ranktable && t->nservers) {
			const struct rt_server *s = &t->servers[i];
			plan[i].host = s->host_ip && *s->host_ip ? s->host_ip : s->server_id;
			plan[i].name = s->server_id;
			plan[i].server_id = s->server_id;
			plan[i].host_ip = s->host_ip;
			if (!plan[i].host || rt_host_unsafe_at(plan[i].host) >= 0)
				return fail(EXIT_FAIL, "doctor", NULL,
					    "%s: refusing server \"%.64s\": not a host name or IP",
					    o_ranktable, plan[i].host ? plan[i].host : "");
		} else {
			plan[i].host = hf->v[i].host_ip ? hf->v[i].host_ip : hf->v[i].server_id;
			plan[i].name = hf->v[i].server_id;
		}
		j->nodes[i] = plan[i].name;
	}
	return 0;
}

/* The launcher's own checks, after the nodes': what only means something across nodes, the
 * network measured (--deep) and the logs read (--logs). */
static void launcher_checks(struct job *j, struct node_plan *plan)
{
	if (j->nnodes > 1) {
		compare_fact(j, "driver", "npu.driver", "NPU driver",
			     "install the same driver on every node (npu-smi info -t board -i 0)");
		compare_fact(j, "firmware", "npu.firmware", "NPU firmware",
			     "upgrade the firmware to the same version on every node "
			     "(npu-smi info -t board -i 0)");
		compare_fact(j, "cann", "cann.version", "CANN",
			     "install the same CANN toolkit on every node (ascend_toolkit_install.info)");
		compare_array(j, "tls", "nic.tls", "TLS switch",
			      "hccn_tool -i N -tls -s enable 0 (or 1) on every NPU of the cluster");
		compare_array(j, "mtu", "link.mtu", "active MTU",
			      "set the same MTU on every port and on the switch");
		if (doctor_wanted(&j->filter, "env.hccl"))
			compare_env(j);
	}
	if (!o_merge) /* reports read later have no arrival time to compare a clock with */
		compare_time(j);
	/* one ping run per device: with the other network measurements, or when asked for */
	if (o_ranktable && j->nnodes && doctor_wanted(&j->filter, "link.npu-mesh")) {
		if (o_deep || o_checks)
			mesh_check(j);
		else
			add(j, -1, "link.npu-mesh", ST_SKIP, NULL,
			    "not run: add --deep (or --checks link.npu-mesh) to ping every device IP "
			    "from every other device's NIC");
	}
	if (o_deep && j->nnodes > 1 && !o_local)
		deep_checks(j, plan);
	if (o_logs)
		logs_check(j);

}

/* --ranktable: fetched, loaded and checked (ranktable.valid), its digest for the nodes to
 * compare theirs with, and its absolute path when it is a file. 0, or the exit code (the
 * message printed). *buf holds the text, t the table, for the caller to release. */
static int load_table(struct job *j, struct rt_table *t, char **buf, size_t *len, char *digest,
		      char *table_abs, const char **table_path)
{
	char err[600];
	struct rt_diags d = { 0 };
	int rc = fetch_table(o_ranktable, "doctor", TABLE_CAP, buf, len, err, sizeof(err));
	if (rc)
		return fail(rc == -EAGAIN ? EXIT_FAIL : EXIT_UNKNOWN, "doctor", fetch_hint(), "%s",
			    err);
	rc = rt_table_load(t, o_ranktable, *buf, *len, &d, err, sizeof(err));
	if (rc == -ENOMEM) {
		rt_diags_release(&d);
		return fail(EXIT_UNKNOWN, "doctor", NULL, "out of memory");
	}
	rt_diags_connect(&d); /* doctor connects: hcclctl's own server_id rules are errors */
	if (t->format == RT_FMT_VLLM_PD || t->format == RT_FMT_GLOBAL ||
	    t->format == RT_FMT_GE_CLUSTER) {
		rt_diags_release(&d);
		return fail(EXIT_FAIL, "doctor",
			    "give the job's HCCL rank table (server_list or rank_list)",
			    "%s is a %s table, which HCCL does not read", o_ranktable,
			    rt_format_name(t->format));
	}
	if (d.nerrors || t->nranks == 0) {
		print_findings(&d, o_ranktable);
		add(j, -1, "ranktable.valid", ST_FAIL,
		    "hcclctl ranktable validate shows each error with its line; fix them",
		    "%s has %zu error%s", o_ranktable, d.nerrors, d.nerrors == 1 ? "" : "s");
	} else {
		add(j, -1, "ranktable.valid", d.nwarnings ? ST_WARN : ST_PASS, NULL,
		    "%s: %zu ranks on %zu servers, %zu warning%s", o_ranktable, t->nranks,
		    t->nservers, d.nwarnings, d.nwarnings == 1 ? "" : "s");
		rt_table_digest(t, digest);
	}
	rt_diags_release(&d);
	if (strcmp(o_ranktable, "-") && !strstr(o_ranktable, "://") &&
	    realpath(o_ranktable, table_abs))
		*table_path = table_abs;
	return EXIT_OK;
}

/* The options' combinations, and the names --checks and --skip give. 0, or the exit code
 * (the message printed). */
static int usage_valid(int argc, char **argv)
{
	int rc = filter_valid();
	if (rc)
		return rc;
	if (argc && !o_merge)
		return fail(EXIT_USAGE, "doctor", "doctor --merge FILE... reads reports",
			    "unexpected argument '%s'", argv[0]);
	if (o_merge && (!argc || o_local || o_ranktable || o_logs))
		return fail(EXIT_USAGE, "doctor", "e.g. srun -N4 hcclctl --json doctor --local | "
						  "hcclctl doctor --merge -",
			    argc ? "--merge reads reports only: no --local, --ranktable or --logs "
				   "(--hosts or --hostfile name the nodes expected)"
				 : "--merge needs FILE... or - (the documents of doctor --local --json)");
	if ((o_on_fail || o_on_pass || o_node_name) && !o_local)
		return fail(EXIT_USAGE, "doctor", "add --local: a health check acts on its own node",
			    "--%s acts on this node: it needs --local",
			    o_on_fail ? "on-fail" : o_on_pass ? "on-pass" : "node-name");
	int srcs = !!o_ranktable + (o_merge ? 1 : !!o_hosts + !!o_hostfile);
	if (o_local ? (o_hosts || o_hostfile) : srcs != 1 && !o_logs && !o_merge)
		return fail(EXIT_USAGE, "doctor", "see 'hcclctl doctor --help'",
			    o_local ? "--local checks this node: no --hosts or --hostfile"
				    : "give one of --ranktable, --hosts, --hostfile (or --local)");
	if (o_hosts && o_hostfile)
		return fail(EXIT_USAGE, "doctor", NULL, "--hosts and --hostfile together");
	if (o_knowledge && !o_logs)
		return fail(EXIT_USAGE, "doctor", "add --logs DIR", "--knowledge is read with --logs");
	return 0;
}

int cmd_doctor(int argc, char **argv)
{
	if (o_list_checks) {
		if (argc)
			return fail(EXIT_USAGE, "doctor", NULL, "unexpected argument '%s'", argv[0]);
		doctor_checks_print();
		return EXIT_OK;
	}
	if (o_node) {
		int frc = filter_valid();
		return frc ? frc : node_main();
	}
	if (npd_mode())
		cli_exit_map = doctor_npd_exit;
	if (o_local && (getenv("SLURM_PROCID") || getenv("OMPI_COMM_WORLD_RANK")))
		out_json_oneline();
	int urc = usage_valid(argc, argv);
	if (urc)
		return urc;
	struct doctor_merged merged = { 0 };
	struct kb *kb = NULL;
	if (o_knowledge) {
		char kerr[512];
		int krc = doctor_logs_knowledge(o_knowledge, &kb, kerr, sizeof(kerr));
		if (krc)
			return fail(EXIT_UNKNOWN, "doctor",
				    "give an ascend-fd kg-config.json, or leave --knowledge out for "
				    "the built-in knowledge base", "cannot use --knowledge: %s", kerr);
	}
	struct doctor_node_args pa = { 0 };
	if (parse_ports(&pa, o_ports ? o_ports : DEFAULT_PORTS))
		return fail(EXIT_USAGE, "doctor", "e.g. --ports 60000,16666", "invalid --ports '%s'",
			    o_ports);
	struct job j = { .filter = { o_checks, o_skip } };
	struct rt_table t = { 0 };
	struct rt_hostfile hf = { 0 };
	struct node_plan *plan = NULL;
	char digest[17] = "", table_abs[PATH_MAX];
	const char *table_path = NULL;
	int rc = EXIT_OK;
	char *buf = NULL;
	size_t len = 0;
	char err[600];

	if (o_ranktable &&
	    (rc = load_table(&j, &t, &buf, &len, digest, table_abs, &table_path)) != 0)
		goto out;
	/* the nodes */
	if (o_merge) {
		if (doctor_merge_read(&merged, argv, argc, err, sizeof(err))) {
			rc = fail(EXIT_UNKNOWN, "doctor", NULL, "--merge: %s", err);
			goto out;
		}
		if ((o_hosts || o_hostfile) && (rc = read_hosts(&hf)) != 0)
			goto out;
		const char **want = calloc(hf.n + 1, sizeof(*want));
		for (size_t i = 0; want && i < hf.n; i++)
			want[i] = hf.v[i].server_id;
		int erc = want ? doctor_merge_expect(&merged, want, hf.n) : -ENOMEM;
		free(want);
		if (erc) {
			rc = fail(EXIT_UNKNOWN, "doctor", NULL, "out of memory");
			goto out;
		}
		j.nnodes = merged.n;
	} else if (o_local) {
		j.nnodes = 1;
	} else if (o_ranktable && t.nservers) {
		j.nnodes = t.nservers;
	} else if (o_hosts || o_hostfile) {
		if ((rc = read_hosts(&hf)) != 0)
			goto out;
		j.nnodes = hf.n;
	}
	plan = calloc(j.nnodes + 1, sizeof(*plan));
	j.nodes = calloc(j.nnodes + 1, sizeof(*j.nodes));
	j.docs = calloc(j.nnodes + 1, sizeof(*j.docs));
	j.arrived_us = calloc(j.nnodes + 1, sizeof(*j.arrived_us));
	if (!plan || !j.nodes || !j.docs || !j.arrived_us) {
		rc = fail(EXIT_UNKNOWN, "doctor", NULL, "out of memory");
		goto out;
	}
	if ((rc = plan_nodes(&j, plan, &t, &hf, &merged)) != 0)
		goto out;
	if (!g_opts.quiet && !g_opts.json && !npd_mode() && j.nnodes && !o_merge)
		fprintf(stderr, "hcclctl: doctor: checking %zu node%s...\n", j.nnodes,
			j.nnodes == 1 ? "" : "s");
	if (o_local && j.nnodes) {
		struct doctor_node_args a = pa;
		a.npu_smi = o_npu_smi;
		a.hccn_tool = o_hccn_tool;
		a.sysfs_root = o_sysfs;
		a.env_file = o_env_file;
		a.kernel_log = o_kernel_log;
		a.fault_codes = o_fault_codes;
		a.ranktable = table_path;
		a.digest = *digest ? digest : NULL;
		a.filter = &j.filter;
		a.npeers = 0;
		j.docs[0] = doctor_node_run(&a);
		j.arrived_us[0] = real_us();
		add(&j, 0, "node.reach", ST_PASS, NULL, "this node");
	} else if (j.nnodes && !o_merge) {
		rc = run_nodes(&j, plan, *digest ? digest : NULL, table_path);
		if (rc)
			goto out;
	}
	take_node_checks(&j);
	launcher_checks(&j, plan);
	rc = report(&j);
out:
	for (size_t i = 0; j.docs && i < j.nnodes; i++)
		cJSON_Delete(j.docs[i]);
	for (size_t i = 0; i < j.n; i++) {
		free(j.r[i].msg);
		free(j.r[i].fix);
	}
	free(j.r);
	free(j.docs);
	free(j.arrived_us);
	cJSON_Delete(j.net);
	hlog_report_release(&logs);
	kb_free(kb);
	free(j.nodes);
	free(plan);
	free(buf);
	rt_table_release(&t);
	rt_hostfile_release(&hf);
	doctor_merged_release(&merged);
	return rc;
}
