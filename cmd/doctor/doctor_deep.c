/* hcclctl doctor --deep: the network measured by hcclctl itself (probe net between every
 * pair, run allreduce over the rank table) and link.npu-mesh; apart because each runs
 * another hcclctl and reads its JSON verdict. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "cmd/doctor/doctor.h"
#include "cmd/doctor/doctor_job.h"
#include "cmd/doctor/doctor_mesh.h"
#include "probes/tool/tool.h"

/* --deep with a rank table: a real allreduce over it, one rank per entry over SSH, on HCCL
 * where every rank loads it (--engine auto), so the NPUs' own links carry it. Its verdict
 * names the rank or link that makes it fail, its footer (libcomm's) the link or rank that
 * makes it slow: the bisection is the run's own. */
/* The SSH options of this doctor run, for the hcclctl commands --deep starts (at most 11
 * arguments); returns the new argument count. */
static int push_ssh_options(char **argv, int n, const char *port)
{
	const char *pairs[][2] = { { "--ssh-user", dopt.user }, { "--ssh-key", dopt.key },
				   { "--ssh-known-hosts", dopt.known_hosts },
				   { "--remote-hcclctl", dopt.remote } };
	for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++)
		if (pairs[i][1]) {
			argv[n++] = (char *)pairs[i][0];
			argv[n++] = (char *)pairs[i][1];
		}
	if (dopt.port) {
		argv[n++] = (char *)"--ssh-port";
		argv[n++] = (char *)port;
	}
	if (dopt.insecure)
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
	argv[n++] = (char *)dopt.ranktable;
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
		doctor_job_add(j, -1, "run.allreduce", ST_FAIL, NULL, "the allreduce did not run: %s",
		    rc ? err : "no JSON from it");
	} else if (cJSON_IsObject(v)) {
		const char *kind = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(v, "kind"));
		const char *msg = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(v, "message"));
		doctor_job_add(j, -1, "run.allreduce", ST_FAIL,
		    "hcclctl run allreduce --ranktable ... --ssh reproduces it; its verdict names the "
		    "rank or link (hcclctl-run(1), VERDICTS)",
		    "the allreduce over the rank table failed: %s: %s", kind ? kind : "?",
		    msg ? msg : "?");
	} else if (r.status) {
		const cJSON *e = cJSON_GetObjectItemCaseSensitive(doc, "error");
		const char *msg = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "message"));
		doctor_job_add(j, -1, "run.allreduce", ST_FAIL, NULL, "the allreduce over the rank table failed "
		    "(exit %d): %s", r.status, msg ? msg : "see hcclctl run");
	} else if (cJSON_IsObject(link)) {
		const cJSON *g = cJSON_GetObjectItemCaseSensitive(link, "GBps");
		const cJSON *m = cJSON_GetObjectItemCaseSensitive(link, "median_GBps");
		doctor_job_add(j, -1, "run.allreduce", ST_WARN,
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
		doctor_job_add(j, -1, "run.allreduce", ST_WARN,
		    "that rank's node is slow to take part: check its CPU load and NIC",
		    "allreduce %s %.3f GB/s busbw, the others waited most on rank %d (%s)",
		    on, cJSON_IsNumber(avg) ? avg->valuedouble : 0.0,
		    cJSON_GetObjectItemCaseSensitive(rank, "rank")->valueint,
		    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(rank, "host")));
	} else {
		doctor_job_add(j, -1, "run.allreduce", ST_PASS, NULL,
		    "allreduce 1 MiB to 16 MiB over the rank table %s, exact, %.3f GB/s busbw", on,
		    cJSON_IsNumber(avg) ? avg->valuedouble : 0.0);
	}
	cJSON_Delete(doc);
	probe_tool_result_release(&r);
}

void doctor_deep_checks(struct job *j, struct node_plan *plan)
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
	snprintf(port, sizeof(port), "%ld", dopt.port ? dopt.port : 22);
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
		doctor_job_add(j, -1, "net.bandwidth", ST_FAIL, NULL, "probe net failed: %s",
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
			doctor_job_add(j, -1, "net.bandwidth", ST_WARN,
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
			doctor_job_add(j, -1, "net.bandwidth", r.status > 1 ? ST_FAIL : ST_PASS,
			    r.status > 1 ? "hcclctl probe net names the pairs it could not measure" : NULL,
			    r.status > 1 ? "probe net could not measure every pair (exit %d)"
					 : "every link within 80 %% of the median (%d)",
			    r.status);
	}
	j->net = doc; /* kept for the HTML page */
	probe_tool_result_release(&r);
	if (dopt.ranktable && doctor_wanted(&j->filter, "run.allreduce"))
		deep_allreduce(j, exe, port);
}

/* link.npu-mesh: every device IP of the table pings every other (doctor_mesh.c). */
void doctor_mesh_check(struct job *j)
{
	char port[16], *extra[16];
	snprintf(port, sizeof(port), "%ld", dopt.port ? dopt.port : 22);
	extra[push_ssh_options(extra, 0, port)] = NULL;
	struct doctor_mesh_args a = { .ranktable = dopt.ranktable, .hccn_tool = dopt.hccn_tool,
				      .extra = (const char *const *)extra, .nodes = j->nodes,
				      .nnodes = j->nnodes, .local = dopt.local };
	struct doctor_mesh_result *r = NULL;
	size_t n = doctor_mesh_run(&a, &r);
	for (size_t i = 0; i < n; i++)
		doctor_job_add(j, r[i].node, "link.npu-mesh", (enum st)r[i].status, r[i].fix, "%s", r[i].msg);
	doctor_mesh_free(r, n);
}
