/* hcclctl doctor's report: the results sorted and folded across nodes, the most likely
 * cause, in text, JSON or node-problem-detector's line, with --html, --prometheus and the
 * node's action (doctor_act.c) on the way: the exit code. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cjson/cJSON.h>

#include "cmd/doctor/doctor.h"
#include "cmd/doctor/doctor_job.h"
#include "cmd/doctor/report_fold.h"
#include "cmd/lib/prom.h"
#include "ranktable/base/plural.h"

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

cJSON *doctor_each_docs;

/* What --on-fail or --on-pass did to the node ("" nothing), for the JSON document. */
static char acted[1400];

/* Where a cluster-wide result is: the node its logs name, for logs.cause. */
static const char *cluster_where(const struct doctor_row *r)
{
	if (strcmp(doctor_code_of(r->code), "logs.cause"))
		return "cluster";
	return doctor_hlog.node[0] ? doctor_hlog.node : doctor_hlog.reported_on[0] ? doctor_hlog.reported_on : "cluster";
}

/* The nodes a report covers: those checked, else those whose logs were read. */
/* The nodes the report covers: those checked, else (--logs alone) those whose logs were
 * read, each once; into names when it is not NULL. */
static size_t nodes_seen(const struct job *j, cJSON *names)
{
	for (size_t i = 0; names && i < j->nnodes; i++)
		cJSON_AddItemToArray(names, cJSON_CreateString(j->nodes[i]));
	if (j->nnodes || !dopt.logs)
		return j->nnodes;
	size_t n = 0;
	for (size_t i = 0; i < doctor_hlog.nfile; i++) {
		size_t k = 0;
		while (k < i && strcmp(doctor_hlog.file[k].node, doctor_hlog.file[i].node))
			k++;
		n += k == i;
		if (k == i && names)
			cJSON_AddItemToArray(names, cJSON_CreateString(doctor_hlog.file[i].node));
	}
	return n;
}
static void print_report(struct job *j, const struct doctor_row **cause)
{
	if (j->n) /* none when every check was left out: j->r is NULL then */
		qsort(j->r, j->n, sizeof(*j->r), cmp_result);
	struct doctor_fold f;
	char names[1024];
	size_t first, n;
	*cause = NULL;
	cause_nodes[0] = '\0';
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
		if (g_opts.json || doctor_npd_mode() || (g_opts.quiet && r->st <= ST_SKIP))
			continue;
		const char *col = r->st == ST_FAIL   ? color(1, "\033[1;31m")
				  : r->st == ST_WARN ? color(1, "\033[1;33m")
				  : r->st == ST_PASS ? color(1, "\033[32m")
						     : "";
		printf("%s%-4s%s  %-15s %-22s %s\n", col, doctor_st_name[r->st],
		       *col ? "\033[0m" : "", doctor_code_of(r->code),
		       out_safe(n ? names : cluster_where(r)), out_safe(r->msg));
	}
	doctor_fold_release(&f);
}
static void json_report(const struct job *j, const struct doctor_row *cause, int code)
{
	cJSON *doc = cJSON_CreateObject();
	cJSON_AddStringToObject(doc, "schema", "hcclctl-doctor/1");
	nodes_seen(j, cJSON_AddArrayToObject(doc, "nodes"));
	cJSON *checks = cJSON_AddArrayToObject(doc, "checks");
	int count[4] = { 0 };
	for (size_t i = 0; i < j->n; i++) {
		const struct doctor_row *r = &j->r[i];
		count[r->st]++;
		cJSON *c = cJSON_CreateObject();
		cJSON_AddStringToObject(c, "code", doctor_code_of(r->code));
		if (r->node >= 0)
			cJSON_AddStringToObject(c, "node", j->nodes[r->node]);
		else
			cJSON_AddNullToObject(c, "node");
		cJSON_AddStringToObject(c, "status", doctor_st_name[r->st]);
		cJSON_AddStringToObject(c, "message", r->msg);
		if (r->fix)
			cJSON_AddStringToObject(c, "fix", r->fix);
		else
			cJSON_AddNullToObject(c, "fix");
		cJSON_AddItemToArray(checks, c);
	}
	cJSON *s = cJSON_AddObjectToObject(doc, "summary");
	for (int i = 0; i < 4; i++)
		cJSON_AddNumberToObject(s, doctor_st_name[i], count[i]);
	if (cause) {
		cJSON *c = cJSON_AddObjectToObject(doc, "cause");
		cJSON_AddStringToObject(c, "code", doctor_code_of(cause->code));
		if (cause->node >= 0)
			cJSON_AddStringToObject(c, "node", j->nodes[cause->node]);
		else
			cJSON_AddNullToObject(c, "node");
		cJSON_AddStringToObject(c, "nodes", cause_nodes);
		cJSON_AddStringToObject(c, "status", doctor_st_name[cause->st]);
		cJSON_AddStringToObject(c, "message", cause->msg);
		if (cause->fix)
			cJSON_AddStringToObject(c, "fix", cause->fix);
		else
			cJSON_AddNullToObject(c, "fix");
	} else {
		cJSON_AddNullToObject(doc, "cause");
	}
	if (dopt.logs) {
		int mine = cause && !strcmp(doctor_code_of(cause->code), "logs.cause");
		doctor_logs_json(doc, mine ? cJSON_GetObjectItemCaseSensitive(doc, "cause") : NULL,
				 &doctor_hlog, dopt.logs);
	}
	if (dopt.local && j->nnodes == 1 && j->docs[0]) {
		/* what --merge compares across nodes (versions, MTU, TLS, the clock) */
		const cJSON *f = cJSON_GetObjectItemCaseSensitive(j->docs[0], "facts");
		cJSON *fs = cJSON_AddObjectToObject(doc, "facts");
		if (cJSON_IsObject(f))
			cJSON_AddItemToObject(fs, j->nodes[0], cJSON_Duplicate(f, 1));
	}
	if (dopt.on_fail || dopt.on_pass) {
		if (*acted)
			cJSON_AddStringToObject(doc, "action", acted);
		else
			cJSON_AddNullToObject(doc, "action");
	}
	cJSON_AddNumberToObject(doc, "exit_code", doctor_npd_mode() ? doctor_npd_exit(code) : code);
	if (doctor_each_docs)
		cJSON_AddItemToArray(doctor_each_docs, doc);
	else
		out_json(doc);
}
/* Why the page has no heat map of the links: what would have measured them. */
static const char *no_net_reason(const struct job *j)
{
	if (dopt.merge)
		return "--merge reads each node's own report; doctor --deep over SSH (or hcclctl "
		       "probe net) measures the links between nodes";
	if (dopt.local)
		return "--local checks this node alone; doctor --deep over SSH measures the links "
		       "between nodes";
	if (j->nnodes < 2)
		return "one node, no link between nodes to measure";
	if (!dopt.deep)
		return "not measured: add --deep (or --checks net.bandwidth) to run probe net "
		       "between every pair of nodes";
	return "probe net gave no measurement (see net.bandwidth)";
}

/* --html: the page (doctor_html.c). 0, or -1 with the message printed. */
static int write_html(const struct job *j, const struct doctor_row *cause, const int *count,
		      char *why, size_t wlen)
{
	struct doctor_cell *cells = calloc(j->n + 1, sizeof(*cells));
	char sum[200], cz[2000] = "", when[64] = "", cmdline[4096], version[300];
	snprintf(sum, sizeof(sum), "%d passed, %d warning%s, %d failed, %d skipped on %zu node%s",
		 count[ST_PASS], count[ST_WARN], plural_s((unsigned)count[ST_WARN]), count[ST_FAIL],
		 count[ST_SKIP], nodes_seen(j, NULL), plural_s(nodes_seen(j, NULL)));
	if (cause)
		snprintf(cz, sizeof(cz), "%s%s%s: %.600s%s%.300s", doctor_code_of(cause->code),
			 *cause_nodes ? " on " : "", cause_nodes, cause->msg,
			 cause->fix ? " | fix: " : "", cause->fix ? cause->fix : "");
	for (size_t i = 0; cells && i < j->n; i++)
		cells[i] = (struct doctor_cell){ j->r[i].node, doctor_code_of(j->r[i].code),
						 doctor_st_name[j->r[i].st], j->r[i].msg, j->r[i].fix };
	time_t now = time(NULL);
	struct tm tm;
	if (localtime_r(&now, &tm))
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S %z", &tm);
	cli_command_line(cmdline, sizeof(cmdline));
	snprintf(version, sizeof(version), "%s, commit %s, build-id %s", HCCLCTL_VERSION,
		 cli_commit(), cli_build_id());
	const struct doctor_page page = {
		.names = j->nodes, .nnames = j->nnodes, .cells = cells, .ncells = j->n,
		.summary = sum, .cause = cz, .netmatrix = j->net, .no_net = no_net_reason(j),
		.when = when, .command = cmdline,
		.ranktable = dopt.ranktable ? dopt.ranktable : "none given",
		.version = version,
	};
	char err[PATH_MAX + 200] = "out of memory";
	int hrc = cells ? doctor_html_write(dopt.html, &page, err, sizeof(err)) : -ENOMEM;
	free(cells);
	if (hrc) {
		snprintf(why, wlen, "--html: cannot write the page: %.900s", err);
		fail(EXIT_UNKNOWN, "doctor", "give a FILE in a directory that exists and you can write",
		     "%s", why);
		return -1;
	}
	if (!g_opts.quiet && !g_opts.json)
		fprintf(stderr, "hcclctl: doctor: wrote %s\n", dopt.html);
	return 0;
}

/* --prometheus: the gauges of every result and the exit code. 0, or -1 with the message
 * printed. */
static int write_prom(const struct job *j, int rc, char *why, size_t wlen)
{
	char err[600];
	struct doctor_cell *cells = calloc(j->n + 1, sizeof(*cells));
	int prc = cells ? 0 : -ENOMEM;
	for (size_t i = 0; cells && i < j->n; i++)
		cells[i] = (struct doctor_cell){ j->r[i].node, doctor_code_of(j->r[i].code),
						 doctor_st_name[j->r[i].st], j->r[i].msg, j->r[i].fix };
	if (cells)
		prc = doctor_prom_write(prom_path, j->nodes, j->nnodes, cells, j->n, rc, err,
					sizeof(err));
	else
		snprintf(err, sizeof(err), "%s: out of memory", prom_path);
	if (prc) {
		snprintf(why, wlen, "--prometheus: cannot write the metrics: %.900s", err);
		fail(EXIT_UNKNOWN, "doctor",
		     "give a FILE in a directory that exists and you can write (node_exporter's "
		     "textfile directory)",
		     "%s", why);
	}
	free(cells);
	return prc ? -1 : 0;
}

/* The text report's end: the summary, --logs' findings, the most likely cause and its fix. */
static void print_end(const struct job *j, const struct doctor_row *cause, const int *count)
{
	size_t seen = nodes_seen(j, NULL);
	printf("\n%d passed, %d warning%s, %d failed, %d skipped on %zu node%s\n",
	       count[ST_PASS], count[ST_WARN], plural_s((unsigned)count[ST_WARN]), count[ST_FAIL],
	       count[ST_SKIP], seen,
	       plural_s(seen));
	if (dopt.logs)
		doctor_logs_print(&doctor_hlog);
	if (cause) {
		const char *where = cause_nodes, *on = " on ";
		if (!*where && !strcmp(doctor_code_of(cause->code), "logs.cause")) {
			/* the culprit's node, else the one whose lines show it */
			where = doctor_hlog.node[0] ? doctor_hlog.node : doctor_hlog.reported_on;
			on = doctor_hlog.node[0] ? " on " : " reported on ";
		}
		printf("most likely cause: %s%s%s: %s\n", doctor_code_of(cause->code),
		       *where ? on : "", out_safe(where), out_safe(cause->msg));
		if (cause->fix)
			printf("fix: %s\n", out_safe(cause->fix));
	}
}

/* The results into the report, the page, the metrics and the node's action: the exit code. */
int doctor_report(struct job *j)
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
	/* an output asked for and not written is a run that could not do its job (a cron job
	 * or node_exporter would go on serving the last one): exit 3, unless a check failed */
	char unwritten[1000] = "";
	int checked = rc, failed = rc == EXIT_FAIL || (g_opts.strict && rc == EXIT_WARN);
	if (dopt.html && write_html(j, cause, count, unwritten, sizeof(unwritten)) && !failed)
		rc = EXIT_UNKNOWN;
	if (prom_path && write_prom(j, rc, unwritten, sizeof(unwritten)) && !failed)
		rc = EXIT_UNKNOWN;
	char cz_line[1400] = "";
	if (cause && rc != EXIT_UNKNOWN)
		snprintf(cz_line, sizeof(cz_line), "%s%s%s: %s", doctor_code_of(cause->code),
			 *cause_nodes ? " on " : "", cause_nodes, cause->msg);
	else /* node-problem-detector's line says why it is unknown */
		snprintf(cz_line, sizeof(cz_line), "%s", unwritten);
	if (dopt.local) {
		struct doctor_action act = { dopt.on_fail, dopt.on_pass, dopt.node_name };
		char *did = acted;
		/* what the checks found, not whether the outputs were written; --strict makes a
		 * warning a failure here too, as main will for the exit */
		int st = g_opts.strict && checked == EXIT_WARN ? EXIT_FAIL : checked;
		if (doctor_act(&act, st, cz_line, did, sizeof(acted), err, sizeof(err))) {
			/* the check's own result stands; that it could not act is said */
			warn_msg("doctor", "--on-%s: %s", st == EXIT_FAIL ? "fail" : "pass", err);
		} else if (*did && !g_opts.quiet) {
			fprintf(stderr, "hcclctl: doctor: %s\n", did);
		}
	}
	if (g_opts.json) {
		json_report(j, cause, rc);
	} else if (doctor_npd_mode()) {
		char line[DOCTOR_NPD_MAX + 1];
		doctor_npd_line(rc, cz_line, line, sizeof(line));
		puts(out_safe(line));
	} else {
		print_end(j, cause, count);
	}
	return rc;
}
