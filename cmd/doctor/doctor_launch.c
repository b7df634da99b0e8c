/* hcclctl doctor: the node side's entry (--node) and the launcher starting it on every node
 * over the SSH fan-out, each answer read as untrusted input into node.reach. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cmd/doctor/doctor.h"
#include "cmd/doctor/doctor_checks.h"
#include "cmd/doctor/doctor_job.h"
#include "cmd/lib/deploy.h"
#include "cmd/lib/fanout.h"

static char *node_cmd(const struct node_plan *np, const char *peers, const char *digest,
		      const char *table_path)
{
	const char *w[48];
	int k = 0;
	/* the words after hcclctl: deploy.c finds or copies it and puts its path first */
	w[k++] = "doctor";
	w[k++] = "--node";
	const char *pairs[][2] = { { "--checks", dopt.checks },	   { "--skip", dopt.skip },
				   { "--npu-smi", dopt.npu_smi },	   { "--hccn-tool", dopt.hccn_tool },
				   { "--sysfs-root", dopt.sysfs },	   { "--ports", dopt.ports },
				   { "--ranktable", table_path },  { "--digest", digest },
				   { "--server-id", np->server_id }, { "--host-ip", np->host_ip },
				   { "--peers", peers },	   { "--env-file", dopt.env_file },
				   { "--kernel-log", dopt.kernel_log },
				   { "--fault-codes", dopt.fault_codes } };
	for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		if (!pairs[i][1] || !*pairs[i][1])
			continue;
		w[k++] = pairs[i][0];
		w[k++] = pairs[i][1];
	}
	return sh_join(k, w);
}

int doctor_node_main(void)
{
	struct doctor_filter f = { dopt.checks, dopt.skip };
	struct doctor_node_args a = { .npu_smi = dopt.npu_smi, .hccn_tool = dopt.hccn_tool,
				      .sysfs_root = dopt.sysfs, .ranktable = dopt.ranktable,
				      .digest = dopt.digest, .server_id = dopt.server_id,
				      .host_ip = dopt.host_ip, .filter = &f, .env_file = dopt.env_file,
				      .kernel_log = dopt.kernel_log, .fault_codes = dopt.fault_codes };
	if (doctor_parse_ports(&a, dopt.ports ? dopt.ports : DEFAULT_PORTS))
		return fail(EXIT_USAGE, "doctor", "e.g. --ports 60000,16666", "invalid --ports");
	char *peers = dopt.peers ? strdup(dopt.peers) : NULL;
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

static void on_done(void *arg, const struct fo_host *h)
{
	struct job *j = arg;
	size_t i = (size_t)(h - j->hosts);
	if (j->arrived_us && i < j->nnodes)
		j->arrived_us[i] = doctor_real_us();
}

/* One node's answer into node.reach: why it gave none, or its document, refused unless it
 * holds only checks we know. */
static void take_answer(struct job *j, size_t i, const struct fo_host *h)
{
	if (h->status == FO_UNREACHABLE || (h->status == FO_TIMEOUT && !h->connected)) {
		/* the situation "unreachable" (cmd/cli/situation.c): its word, FAIL for its 2 */
		doctor_job_add(j, (int)i, "node.reach", ST_FAIL,
		    "check that the node is up, sshd runs and the key is accepted",
		    "unreachable: cannot reach the node: %s", h->error);
		return;
	}
	if (h->status == FO_NOSTART) {
		doctor_job_add(j, (int)i, "node.reach", ST_FAIL,
		    h->code == -ELIBACC ? "install the package named, or pass "
					  "--remote-hcclctl PATH to an hcclctl that runs there"
					: "pass --remote-hcclctl PATH to an hcclctl that runs there",
		    "%s", h->error);
		return;
	}
	cJSON *doc = h->out.len ? cJSON_ParseWithLength(h->out.p, h->out.len) : NULL;
	if (!doc || !cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(doc, "checks"))) {
		const char *tail = fo_stderr_tail(h, 1);
		/* the shell's 127 and 126: no hcclctl there, or not one it can run */
		if (h->status == FO_FAILED && !h->signal[0] &&
		    (h->exit_status == 127 || h->exit_status == 126))
			doctor_job_add(j, (int)i, "node.reach", ST_FAIL,
			    "fix --remote-hcclctl PATH, or leave it out to copy this hcclctl "
			    "there",
			    "hcclctl %s on the node (exit %d)%s%s",
			    h->exit_status == 127 ? "is not installed" : "is not executable",
			    h->exit_status, *tail ? ": " : "", tail);
		else
			doctor_job_add(j, (int)i, "node.reach", ST_FAIL,
			    "install the same hcclctl on every node, or pass --remote-hcclctl "
			    "PATH",
			    "hcclctl doctor --node gave no report (%s%s%s)",
			    h->status == FO_TIMEOUT ? "timed out" : fo_status_name(h->status),
			    *tail ? ": " : "", tail);
		cJSON_Delete(doc);
		return;
	}
	/* what a node prints is input like any other: an unknown or repeated check
	 * would index past the code table or overrun the fold */
	char why[400];
	if (doctor_doc_check(h->name, h->out.p, h->out.len, doc, h->name,
			     doctor_check_index, why, sizeof(why))) {
		doctor_job_add(j, (int)i, "node.reach", ST_FAIL,
		    "install the same hcclctl on every node, or pass --remote-hcclctl PATH",
		    "its report is refused: %s", why);
		cJSON_Delete(doc);
		return;
	}
	doctor_job_add(j, (int)i, "node.reach", ST_PASS, NULL, "reached in %.1f s", h->seconds);
	j->docs[i] = doc;
}

int doctor_run_nodes(struct job *j, struct node_plan *plan, const char *digest,
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
	if (deploy_init(&dep, dopt.remote, err, sizeof(err))) {
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
		.ssh = { .user = dopt.user, .port = (int)dopt.port, .key = dopt.key,
			 .known_hosts = dopt.known_hosts, .insecure = dopt.insecure, .cancel_fd = -1 },
		.parallel = dopt.parallel ? (int)dopt.parallel : 32,
		.connect_timeout_ms = 10000,
		.cmd_timeout_ms = (dopt.timeout ? dopt.timeout : 60) * 1000LL,
		.cap = 4UL << 20,
		.progress = !g_opts.quiet,
	};
	if (fanout_run(&f, hosts, j->nnodes, err, sizeof(err))) {
		rc = fail(EXIT_UNKNOWN, "doctor", NULL, "%s", err);
		goto out;
	}
	for (size_t i = 0; i < j->nnodes; i++)
		take_answer(j, i, &hosts[i]);
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

/* --local: this node's checks in-process, with the ports pa holds. */
void doctor_run_local(struct job *j, const struct doctor_node_args *pa, const char *table_path)
{
	struct doctor_node_args a = *pa;
	a.npu_smi = dopt.npu_smi;
	a.hccn_tool = dopt.hccn_tool;
	a.sysfs_root = dopt.sysfs;
	a.env_file = dopt.env_file;
	a.kernel_log = dopt.kernel_log;
	a.fault_codes = dopt.fault_codes;
	/* the launcher's table itself (a URL fetched again): no other copy, no digest */
	a.ranktable = table_path ? table_path
		    : dopt.ranktable && strcmp(dopt.ranktable, "-") ? dopt.ranktable : NULL;
	a.digest = NULL;
	a.local = 1;
	a.filter = &j->filter;
	a.npeers = 0;
	j->docs[0] = doctor_node_run(&a);
	j->arrived_us[0] = doctor_real_us();
	/* no node.reach: this node was not reached over anything, so there is nothing to say */
}
