/* hcclctl doctor, before anything runs: the options' combinations, the rank table loaded
 * and checked, the node list read, and each node's plan (where to reach it, its name). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <unistd.h>

#include "cmd/doctor/doctor.h"
#include "cmd/doctor/doctor_checks.h"
#include "cmd/doctor/doctor_job.h"
#include "cmd/lib/prom.h"
#include "ranktable/ranktable.h"
#include "ranktable/base/plural.h"

/* --hosts or --hostfile: the nodes, or under --merge the nodes whose reports are expected.
 * 0, or the exit code (the message printed). */
int doctor_read_hosts(struct rt_hostfile *hf)
{
	char err[512];
	char *hb = NULL;
	size_t hl = 0;
	struct rt_diags d = { 0 };
	if (dopt.hosts) { /* a list, in Slurm's notation too: --hosts "$SLURM_JOB_NODELIST" */
		int erc = rt_hostlist_expand(dopt.hosts, strlen(dopt.hosts), &hb, &hl, err, sizeof(err));
		if (erc)
			return fail(erc == -ENOMEM ? EXIT_UNKNOWN : EXIT_USAGE, "doctor",
				    "e.g. --hosts gpu1,gpu2 or --hosts 'gpu[01-16]'", "--hosts: %s", err);
	} else if (rt_read_file(dopt.hostfile, TABLE_CAP, &hb, &hl, err, sizeof(err))) {
		return fail(EXIT_UNKNOWN, "doctor", NULL, "%s", err);
	}
	int hrc = dopt.hosts ? rt_hostfile_parse_list(hf, "--hosts", hb, hl, &d, err, sizeof(err))
			     : rt_hostfile_parse(hf, dopt.hostfile, hb, hl, &d, err, sizeof(err));
	free(hb);
	print_findings(&d, dopt.hosts ? "--hosts" : dopt.hostfile);
	rt_diags_release(&d);
	return hrc ? fail(dopt.hosts ? EXIT_USAGE : EXIT_FAIL, "doctor", NULL, "%s", err) : 0;
}

/* --merge with the nodes expected: whether each node's report came, and was expected. */
static void merge_reach(struct job *j, int i, const struct rt_hostfile *hf, const char *name)
{
	size_t k = 0;
	while (k < hf->n && strcmp(hf->v[k].server_id, name))
		k++;
	if (!j->docs[i])
		doctor_job_add(j, i, "node.reach", ST_FAIL,
		    "read the job's output for this node (its task did not start, or it ended "
		    "before it printed), or run hcclctl doctor --local there",
		    "no report from this node");
	else if (k == hf->n)
		doctor_job_add(j, i, "node.reach", ST_WARN,
		    "check the node list given, or the node's name (--node-name)",
		    "a report from a node that %s does not name",
		    dopt.hosts ? "--hosts" : dopt.hostfile);
	else
		doctor_job_add(j, i, "node.reach", ST_PASS, NULL, "report read");
}

/* --checks and --skip name checks or groups that exist: a misspelt name would run nothing,
 * or skip nothing, and say nothing. 0, or the exit code (the message printed). */
int doctor_check_filters(void)
{
	char err[1024];
	if (doctor_filter_valid("--checks", dopt.checks, err, sizeof(err)) ||
	    doctor_filter_valid("--skip", dopt.skip, err, sizeof(err)))
		return fail(EXIT_USAGE, "doctor", "hcclctl doctor --list-checks says what each checks",
			    "%s", err);
	return 0;
}
/* Each node: where to reach it (plan) and its name in the report; under --merge its report,
 * taken from merged. 0, or the exit code (the message printed). */
int doctor_plan_nodes(struct job *j, struct node_plan *plan, const struct rt_table *t,
		      const struct rt_hostfile *hf, struct doctor_merged *merged)
{
	for (size_t i = 0; i < j->nnodes; i++) {
		if (dopt.merge) {
			plan[i].host = plan[i].name = merged->v[i].name;
			j->docs[i] = merged->v[i].doc; /* the job's now */
			merged->v[i].doc = NULL;
			j->arrived_us[i] = doctor_real_us();
			if (dopt.hosts || dopt.hostfile)
				merge_reach(j, (int)i, hf, merged->v[i].name);
		} else if (dopt.local) {
			static char hn[256];
			gethostname(hn, sizeof(hn) - 1);
			plan[i].host = plan[i].name = dopt.node_name ? (char *)dopt.node_name : hn;
		} else if (dopt.ranktable && t->nservers) {
			const struct rt_server *s = &t->servers[i];
			plan[i].host = s->host_ip && *s->host_ip ? s->host_ip : s->server_id;
			plan[i].name = s->server_id;
			plan[i].server_id = s->server_id;
			plan[i].host_ip = s->host_ip;
			if (!plan[i].host || rt_host_unsafe_at(plan[i].host) >= 0)
				return fail(EXIT_FAIL, "doctor", NULL,
					    "%s: refusing server \"%.64s\": not a host name or IP",
					    dopt.ranktable, plan[i].host ? plan[i].host : "");
		} else {
			plan[i].host = hf->v[i].host_ip ? hf->v[i].host_ip : hf->v[i].server_id;
			plan[i].name = hf->v[i].server_id;
		}
		j->nodes[i] = plan[i].name;
	}
	return 0;
}
/* --ranktable: fetched, loaded and checked (ranktable.valid), its digest for the nodes to
 * compare theirs with, and its absolute path when it is a file. 0, or the exit code (the
 * message printed). *buf holds the text, t the table, for the caller to release. */
int doctor_load_table(struct job *j, struct rt_table *t, char **buf, size_t *len, char *digest,
		      char *table_abs, const char **table_path)
{
	char err[600];
	struct rt_diags d = { 0 };
	int rc = fetch_table(dopt.ranktable, "doctor", TABLE_CAP, buf, len, err, sizeof(err));
	if (rc)
		return fail(rc == -EAGAIN ? EXIT_FAIL : EXIT_UNKNOWN, "doctor", fetch_hint(), "%s",
			    err);
	rc = rt_table_load(t, dopt.ranktable, *buf, *len, &d, err, sizeof(err));
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
			    "%s is a %s table, which HCCL does not read", dopt.ranktable,
			    rt_format_name(t->format));
	}
	if (d.nerrors || t->nranks == 0) {
		print_findings(&d, dopt.ranktable);
		doctor_job_add(j, -1, "ranktable.valid", ST_FAIL,
		    "hcclctl ranktable validate shows each error with its line; fix them",
		    "%s has %zu error%s", dopt.ranktable, d.nerrors, plural_s(d.nerrors));
	} else {
		doctor_job_add(j, -1, "ranktable.valid", d.nwarnings ? ST_WARN : ST_PASS, NULL,
		    "%s: %zu rank%s on %zu server%s, %zu warning%s", dopt.ranktable, t->nranks,
		    plural_s(t->nranks), t->nservers, plural_s(t->nservers), d.nwarnings,
		    plural_s(d.nwarnings));
		rt_table_digest(t, digest);
	}
	rt_diags_release(&d);
	if (strcmp(dopt.ranktable, "-") && !strstr(dopt.ranktable, "://") &&
	    realpath(dopt.ranktable, table_abs))
		*table_path = table_abs;
	return EXIT_OK;
}

/* The options' combinations, and the names --checks and --skip give. 0, or the exit code
 * (the message printed). */
int doctor_usage_valid(int argc, char **argv)
{
	int rc = doctor_check_filters();
	if (rc)
		return rc;
	if (dopt.each) {
		int stdin_twice = dopt.logs && !strcmp(dopt.logs, "-");
		for (int i = 0; i < argc; i++)
			stdin_twice += !strcmp(argv[i], "-");
		if (!dopt.logs || dopt.ranktable || dopt.hosts || dopt.hostfile || dopt.local ||
		    dopt.merge || dopt.html || prom_path || doctor_npd_mode() || stdin_twice > 1)
			return fail(EXIT_USAGE, "doctor", "e.g. hcclctl doctor --each --logs jobs/*/",
				    "--each judges logs only, each PATH of --logs PATH [PATH...] "
				    "alone: no --ranktable, --hosts, --hostfile, --local, --merge, "
				    "--html, --prometheus or --exit-codes npd, and - (standard input) "
				    "at most once");
	} else if (argc && !dopt.merge) {
		return fail(EXIT_USAGE, "doctor",
			    dopt.logs ? "--each --logs PATH... judges each PATH as a job of its own"
				      : "doctor --merge FILE... reads reports",
			    "unexpected argument '%s'", argv[0]);
	}
	if (dopt.merge && (!argc || dopt.local || dopt.ranktable || dopt.logs))
		return fail(EXIT_USAGE, "doctor", "e.g. srun -N4 hcclctl --json doctor --local | "
						  "hcclctl doctor --merge -",
			    argc ? "--merge reads reports only: no --local, --ranktable or --logs "
				   "(--hosts or --hostfile name the nodes expected)"
				 : "--merge needs FILE... or - (the documents of doctor --local --json)");
	if ((dopt.on_fail || dopt.on_pass || dopt.node_name) && !dopt.local)
		return fail(EXIT_USAGE, "doctor", "add --local: a health check acts on its own node",
			    "--%s acts on this node: it needs --local",
			    dopt.on_fail ? "on-fail" : dopt.on_pass ? "on-pass" : "node-name");
	int srcs = !!dopt.ranktable + (dopt.merge ? 1 : !!dopt.hosts + !!dopt.hostfile);
	if (dopt.local ? (dopt.hosts || dopt.hostfile) : srcs != 1 && !dopt.logs && !dopt.merge)
		return fail(EXIT_USAGE, "doctor", "see 'hcclctl doctor --help'",
			    dopt.local ? "--local checks this node: no --hosts or --hostfile"
				    : "give one of --ranktable, --hosts, --hostfile (or --local)");
	if (dopt.hosts && dopt.hostfile)
		return fail(EXIT_USAGE, "doctor", NULL, "--hosts and --hostfile together");
	if (dopt.knowledge && !dopt.logs)
		return fail(EXIT_USAGE, "doctor", "add --logs DIR", "--knowledge is read with --logs");
	return 0;
}

/* How many nodes: the reports --merge read (with those expected but missing), this one
 * (--local), the table's servers, or the node list. */
int doctor_count_nodes(struct job *j, const struct rt_table *t, struct rt_hostfile *hf,
		       struct doctor_merged *merged, int argc, char **argv)
{
	char err[600];
	int rc;
	if (dopt.merge) {
		if (doctor_merge_read(merged, argv, argc, err, sizeof(err)))
			return fail(EXIT_UNKNOWN, "doctor", NULL, "--merge: %s", err);
		if ((dopt.hosts || dopt.hostfile) && (rc = doctor_read_hosts(hf)) != 0)
			return rc;
		const char **want = calloc(hf->n + 1, sizeof(*want));
		for (size_t i = 0; want && i < hf->n; i++)
			want[i] = hf->v[i].server_id;
		int erc = want ? doctor_merge_expect(merged, want, hf->n) : -ENOMEM;
		free(want);
		if (erc)
			return fail(EXIT_UNKNOWN, "doctor", NULL, "out of memory");
		j->nnodes = merged->n;
	} else if (dopt.local) {
		j->nnodes = 1;
	} else if (dopt.ranktable && t->nservers) {
		j->nnodes = t->nservers;
	} else if (dopt.hosts || dopt.hostfile) {
		if ((rc = doctor_read_hosts(hf)) != 0)
			return rc;
		j->nnodes = hf->n;
	}
	return 0;
}
