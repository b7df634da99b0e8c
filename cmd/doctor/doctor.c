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
#include <stdio.h>
#include <stdlib.h>

#include <cjson/cJSON.h>

#include "cmd/doctor/doctor.h"
#include "cmd/doctor/doctor_checks.h"
#include "cmd/doctor/doctor_job.h"
#include "probes/logs/hccllog.h"
#include "probes/logs/kb.h"
#include "ranktable/ranktable.h"
#include "ranktable/base/plural.h"

/* What the job holds: the nodes' documents, the results, probe net's document. */
static void job_release(struct job *j)
{
	for (size_t i = 0; j->docs && i < j->nnodes; i++)
		cJSON_Delete(j->docs[i]);
	for (size_t i = 0; i < j->n; i++) {
		free(j->r[i].msg);
		free(j->r[i].fix);
	}
	free(j->r);
	free(j->docs);
	free(j->arrived_us);
	cJSON_Delete(j->net);
}

/* One job: the nodes or the logs the options name, checked and reported; its exit code.
 * The steps in order: the options checked (doctor_plan.c), the nodes run (doctor_launch.c),
 * their answers compared and the launcher's checks (doctor_collect.c), the report
 * (doctor_report.c). */
static int doctor_once(int argc, char **argv, const struct doctor_node_args *pa)
{
	struct doctor_merged merged = { 0 };
	struct job j = { .filter = { dopt.checks, dopt.skip } };
	struct rt_table t = { 0 };
	struct rt_hostfile hf = { 0 };
	struct node_plan *plan = NULL;
	char digest[17] = "", table_abs[PATH_MAX];
	const char *table_path = NULL;
	int rc = EXIT_OK;
	char *buf = NULL;
	size_t len = 0;

	if (dopt.ranktable &&
	    (rc = doctor_load_table(&j, &t, &buf, &len, digest, table_abs, &table_path)) != 0)
		goto out;
	if ((rc = doctor_count_nodes(&j, &t, &hf, &merged, argc, argv)) != 0)
		goto out;
	plan = calloc(j.nnodes + 1, sizeof(*plan));
	j.nodes = calloc(j.nnodes + 1, sizeof(*j.nodes));
	j.docs = calloc(j.nnodes + 1, sizeof(*j.docs));
	j.arrived_us = calloc(j.nnodes + 1, sizeof(*j.arrived_us));
	if (!plan || !j.nodes || !j.docs || !j.arrived_us) {
		rc = fail(EXIT_UNKNOWN, "doctor", NULL, "out of memory");
		goto out;
	}
	if ((rc = doctor_plan_nodes(&j, plan, &t, &hf, &merged)) != 0)
		goto out;
	if (!g_opts.quiet && !g_opts.json && !doctor_npd_mode() && j.nnodes && !dopt.merge)
		fprintf(stderr, "hcclctl: doctor: checking %zu node%s...\n", j.nnodes,
			plural_s(j.nnodes));
	if (dopt.local && j.nnodes) {
		doctor_run_local(&j, pa, table_path);
	} else if (j.nnodes && !dopt.merge) {
		rc = doctor_run_nodes(&j, plan, *digest ? digest : NULL, table_path);
		if (rc)
			goto out;
	}
	doctor_take_node_checks(&j);
	doctor_launcher_checks(&j, plan);
	rc = doctor_report(&j);
out:
	job_release(&j);
	hlog_report_release(&doctor_hlog);
	free(j.nodes);
	free(plan);
	free(buf);
	rt_table_release(&t);
	rt_hostfile_release(&hf);
	doctor_merged_release(&merged);
	return rc;
}

/* --each: the job of --logs PATH, then one for each PATH argument, each judged alone, as if
 * doctor had been run once for each. The exit code is the worst: a failure, else a job that
 * could not be judged, else a warning. */
static int doctor_each(int argc, char **argv, const struct doctor_node_args *pa)
{
	static const char *const name[] = { "OK", "WARN", "FAIL", "UNKNOWN" };
	static const int worse[] = { 0, 1, 3, 2 }; /* by exit code 0-3 */
	const char *first = dopt.logs;
	int count[4] = { 0 }, rc = EXIT_OK;
	cJSON *doc = g_opts.json ? cJSON_CreateObject() : NULL;
	if (g_opts.json && (!doc || !(doctor_each_docs = cJSON_AddArrayToObject(doc, "jobs")))) {
		cJSON_Delete(doc);
		return fail(EXIT_UNKNOWN, "doctor", NULL, "out of memory");
	}
	for (int i = -1; i < argc; i++) {
		dopt.logs = i < 0 ? first : argv[i];
		if (!g_opts.json)
			printf("%s==> %s <==\n", i < 0 ? "" : "\n", out_safe(dopt.logs));
		int one = doctor_once(0, NULL, pa);
		if (one < EXIT_OK || one > EXIT_UNKNOWN)
			one = EXIT_UNKNOWN; /* out of memory inside a job: it was not judged */
		count[one]++;
		if (worse[one] > worse[rc])
			rc = one;
	}
	dopt.logs = first;
	doctor_each_docs = NULL;
	if (g_opts.json) {
		cJSON_AddStringToObject(doc, "schema", "hcclctl-doctor-each/1");
		cJSON *s = cJSON_AddObjectToObject(doc, "summary");
		for (int i = 0; i < 4; i++)
			cJSON_AddNumberToObject(s, name[i], count[i]);
		cJSON_AddNumberToObject(doc, "exit_code", rc);
		out_json(doc);
	} else {
		printf("\n%d job%s: %d OK, %d WARN, %d FAIL, %d UNKNOWN\n", argc + 1,
		       plural_s((unsigned)argc + 1), count[0], count[1], count[2], count[3]);
	}
	return rc;
}

int cmd_doctor(int argc, char **argv)
{
	if (dopt.list_checks) {
		if (argc)
			return fail(EXIT_USAGE, "doctor", NULL, "unexpected argument '%s'", argv[0]);
		doctor_checks_print();
		return EXIT_OK;
	}
	if (dopt.node) {
		int frc = doctor_check_filters();
		return frc ? frc : doctor_node_main();
	}
	if (doctor_npd_mode())
		cli_exit_map = doctor_npd_exit;
	if (dopt.local && (getenv("SLURM_PROCID") || getenv("OMPI_COMM_WORLD_RANK")))
		out_json_oneline();
	int urc = doctor_usage_valid(argc, argv);
	if (urc)
		return urc;
	struct kb *kb = NULL;
	if (dopt.knowledge) {
		char kerr[512];
		int krc = doctor_logs_knowledge(dopt.knowledge, &kb, kerr, sizeof(kerr));
		if (krc)
			return fail(EXIT_UNKNOWN, "doctor",
				    "give an ascend-fd kg-config.json, or leave --knowledge out for "
				    "the built-in knowledge base", "cannot use --knowledge: %s", kerr);
	}
	struct doctor_node_args pa = { 0 };
	int rc;
	if (doctor_parse_ports(&pa, dopt.ports ? dopt.ports : DEFAULT_PORTS))
		rc = fail(EXIT_USAGE, "doctor", "e.g. --ports 60000,16666", "invalid --ports '%s'",
			  dopt.ports);
	else
		rc = dopt.each ? doctor_each(argc, argv, &pa) : doctor_once(argc, argv, &pa);
	kb_free(kb);
	return rc;
}
