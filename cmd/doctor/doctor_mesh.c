/* doctor's link.npu-mesh: the NICs of the job, device IP to device IP. It runs this very
 * binary's `probe roce --mesh` (every device pings every other from its own NIC, in rounds,
 * over SSH for the other servers; cmd/probe/probe_mesh.c), so doctor and the probe cannot disagree,
 * and puts each finding on the node that sends (a pair) or owns (a device) it, a whole rail's
 * on the cluster. "Could not check" (a server whose side did not run, a ping hccn_tool could
 * not make) is SKIP, never a failure. With --local the mesh runs only when every server of
 * the table is this host, since it would otherwise log in to the others. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "cmd/doctor/doctor.h"
#include "cmd/doctor/doctor_mesh.h"
#include "cmd/lib/nodeself.h"
#include "probes/tool/tool.h"
#include "ranktable/ranktable.h"

#define TABLE_CAP RT_TABLE_MAX
#define CODE "link.npu-mesh"

struct results {
	struct doctor_mesh_result *v;
	size_t n, cap;
};

static void put(struct results *r, int node, int status, const char *fix, const char *msg)
{
	if (r->n == r->cap) {
		size_t nc = r->cap ? r->cap * 2 : 16;
		struct doctor_mesh_result *nv = realloc(r->v, nc * sizeof(*nv));
		if (!nv)
			return;
		r->v = nv;
		r->cap = nc;
	}
	r->v[r->n++] = (struct doctor_mesh_result){node, status, strdup(msg ? msg : ""),
						   fix ? strdup(fix) : NULL};
}

/* Every server of the table is this host (for --local), or why not. */
static int all_local(const char *table, char *why, size_t wlen)
{
	char *buf = NULL, err[RT_ERRLEN];
	size_t len = 0;
	struct rt_table t = {0};
	struct rt_diags d = {0};
	int ok = 0;
	if (fetch_table(table, "doctor", TABLE_CAP, &buf, &len, err, sizeof(err)) ||
	    rt_table_load(&t, table, buf, len, &d, err, sizeof(err))) {
		snprintf(why, wlen, "cannot read %.100s: %.200s", table, err);
		goto out;
	}
	ok = t.nservers > 0;
	for (size_t s = 0; s < t.nservers && ok; s++) {
		const struct rt_server *sv = &t.servers[s];
		const char *host = sv->host_ip && *sv->host_ip ? sv->host_ip : sv->server_id;
		if (!node_is_local(host) && !node_is_local(sv->server_id)) {
			ok = 0;
			snprintf(
				why, wlen,
				"--local: server %.64s of the table is not this host, and the mesh "
				"needs every server's NICs; run doctor without --local",
				sv->server_id ? sv->server_id : host);
		}
	}
out:
	free(buf);
	rt_diags_release(&d);
	rt_table_release(&t);
	return ok;
}

static int status_of(const char *s)
{
	if (!s)
		return DOCTOR_SKIP;
	if (!strcmp(s, "FAIL"))
		return DOCTOR_FAIL;
	if (!strcmp(s, "WARN"))
		return DOCTOR_WARN;
	if (!strcmp(s, "PASS") || !strcmp(s, "SKIP"))
		return DOCTOR_PASS;
	return DOCTOR_SKIP; /* UNKNOWN: could not check */
}

static int node_of(const struct doctor_mesh_args *a, const char *server)
{
	if (!server)
		return -1;
	if (a->local)
		return 0;
	for (size_t i = 0; i < a->nnodes; i++)
		if (a->nodes[i] && !strcmp(a->nodes[i], server))
			return (int)i;
	return -1;
}

static void take(const struct doctor_mesh_args *a, const cJSON *doc, struct results *r)
{
	const cJSON *fs = cJSON_GetObjectItemCaseSensitive(doc, "findings"), *f;
	const cJSON *sum = cJSON_GetObjectItemCaseSensitive(doc, "summary");
	unsigned char *named = calloc(a->nnodes + 1, 1);
	cJSON_ArrayForEach(f, fs)
	{
		const char *sid =
			cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(f, "server_id"));
		const cJSON *peer = cJSON_GetObjectItemCaseSensitive(f, "peer");
		const char *psid =
			cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(peer, "server_id"));
		const char *code =
			cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(f, "code"));
		const char *msg =
			cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(f, "message"));
		const char *fix = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(f, "fix"));
		int st = status_of(
			cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(f, "status")));
		int node = node_of(a, sid), peer_node = node_of(a, psid);
		char line[1100];
		snprintf(line, sizeof(line), "%s: %s", code ? code : "?", msg ? msg : "?");
		put(r, node, st, st == DOCTOR_SKIP ? NULL : fix, line);
		if (named && node >= 0)
			named[node] = 1;
		if (named && peer_node >= 0)
			named[peer_node] = 1;
	}
	int cluster_wide = 0;
	for (size_t i = 0; i < r->n; i++)
		cluster_wide |= r->v[i].node < 0 && r->v[i].status >= DOCTOR_WARN;
	double devs = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(sum, "devices"));
	double links = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(sum, "replied"));
	char ok[200];
	if (cJSON_GetArraySize(fs))
		snprintf(ok, sizeof(ok), "every ping to and from its devices replied");
	else
		snprintf(
			ok, sizeof(ok),
			"every device IP of the job reaches every other (%.0f devices, %.0f links)",
			devs == devs ? devs : 0, links == links ? links : 0);
	size_t nn = a->local ? 1 : a->nnodes;
	for (size_t i = 0; named && !cluster_wide && i < nn; i++)
		if (!named[i])
			put(r, (int)i, DOCTOR_PASS, NULL, ok);
	free(named);
}

size_t doctor_mesh_run(const struct doctor_mesh_args *a, struct doctor_mesh_result **out)
{
	struct results r = {0};
	char why[400], exe[4096];
	*out = NULL;
	if (a->local && !all_local(a->ranktable, why, sizeof(why))) {
		put(&r, 0, DOCTOR_SKIP, NULL, why);
		goto out;
	}
	ssize_t k = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (k <= 0) {
		snprintf(why, sizeof(why), "cannot find this program: %s", strerror(errno));
		put(&r, -1, DOCTOR_SKIP, NULL, why);
		goto out;
	}
	exe[k] = '\0';
	const char *argv[40];
	int n = 0;
	argv[n++] = exe;
	argv[n++] = "--json";
	argv[n++] = "probe";
	argv[n++] = "roce";
	argv[n++] = "--mesh";
	argv[n++] = "--ranktable";
	argv[n++] = a->ranktable;
	if (a->hccn_tool) {
		argv[n++] = "--hccn-tool";
		argv[n++] = a->hccn_tool;
	}
	for (size_t i = 0; a->extra && a->extra[i] && n < 38; i++)
		argv[n++] = a->extra[i];
	argv[n] = NULL;
	struct probe_tool_result res = {0};
	char err[PROBE_ERRLEN];
	/* every round is about one ping run; allow a slow fabric many of them */
	long timeout_ms = (600 + 20 * (long)(a->nnodes ? a->nnodes : 1) * 16) * 1000L;
	int rc = probe_tool_run("/proc/self/exe", (char *const *)argv, timeout_ms, &res, err,
				sizeof(err));
	cJSON *doc = rc ? NULL : cJSON_ParseWithLength(res.out, res.outlen);
	if (!doc || !cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(doc, "findings"))) {
		const cJSON *e = cJSON_GetObjectItemCaseSensitive(doc, "error");
		const char *msg =
			cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "message"));
		snprintf(why, sizeof(why), "probe roce --mesh could not check: %.300s",
			 rc    ? err
			 : msg ? msg
			       : "no report from it");
		put(&r, -1, DOCTOR_SKIP, NULL, why);
	} else {
		take(a, doc, &r);
	}
	cJSON_Delete(doc);
	probe_tool_result_release(&res);
out:
	*out = r.v;
	return r.n;
}

void doctor_mesh_free(struct doctor_mesh_result *r, size_t n)
{
	for (size_t i = 0; r && i < n; i++) {
		free(r[i].msg);
		free(r[i].fix);
	}
	free(r);
}
