/* hcclctl probe roce --mesh: every device IP of a rank table pings every other, each from
 * its own NPU's NIC. And its node side, probe roce --ping-list.
 *
 * Who pings whom: the devices (ranks with a device_ip) are paired in a round-robin
 * tournament (np_round_pairs, as probe net pairs nodes): in each round every device is in at
 * most one pair, and both devices of a pair ping each other, so each NIC sends one ping run
 * and answers one at a time, and a round lasts about one run. p devices take p-1 rounds (p
 * when odd), and every directed link is measured once.
 *
 * How a round runs: each server whose devices take part gets one command line, the node
 * side `hcclctl --json probe roce --ping-list DEV=IP,... --server-id ID`, which pings
 * through that server's own hccn_tool (one thread per device, so the devices' runs overlap)
 * and prints one JSON document (probes/npu/npumesh.h writes and reads it). A server that is
 * this host (a loopback address, its name or one of its addresses) runs the same node side
 * in a thread of this process (pmesh_node_answer: a program started per server and round
 * cost more than its pings); the others run it over the SSH fan-out, all servers of the
 * round at once. The
 * next round starts when every server answered or passed its deadline. The first round also
 * reads every NIC's LLDP neighbour (--lldp). A server whose side cannot run (no SSH, no
 * hcclctl) is named once and left out of the later rounds; the pings to its NICs go on.
 *
 * This file holds the launcher; the node side is probe_mesh_node.c, the printed report
 * probe_mesh_report.c, sharing probe_mesh.h. */
#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "cmd/lib/fanout.h"
#include "cmd/probe/probe_mesh.h"
#include "cmd/lib/nodeself.h"
#include "probes/nic/hccn.h"
#include "cmd/lib/netperf.h"
#include "probes/npu/npumesh.h"
#include "ranktable/ranktable.h"
#include "ranktable/base/clock.h"

#define TABLE_CAP RT_TABLE_MAX
#define DEFAULT_CONNECT_TIMEOUT 10

/* A server on this host: its node side runs here, in a thread beside the others. */
static void *local_thread(void *arg)
{
	struct job *j = arg;
	char err[PROBE_ERRLEN + 160];
	if (pmesh_node_answer(&j->req, &j->out, &j->outlen, err, sizeof(err)))
		snprintf(j->why, sizeof(j->why), "%s", err);
	else
		j->ran = 1;
	return NULL;
}

/* The words of a server's node side for one round. */
static char **node_words(const struct mesh_run *x, size_t s, const char *list, int lldp,
			 const char *devices, const char *argv0)
{
	const struct probe_mesh_common *c = x->c;
	char **w = calloc(20, sizeof(*w));
	char tmo[24];
	int k = 0;
	if (!w)
		return NULL;
	snprintf(tmo, sizeof(tmo), "%ld", c->timeout_s);
	const char *words[20];
	words[k++] = argv0;
	words[k++] = "--json";
	words[k++] = "probe";
	words[k++] = "roce";
	words[k++] = "--ping-list";
	words[k++] = list;
	words[k++] = "--server-id";
	words[k++] = x->m.srv[s].id;
	words[k++] = "--timeout";
	words[k++] = tmo;
	if (c->hccn_tool) {
		words[k++] = "--hccn-tool";
		words[k++] = c->hccn_tool;
	}
	if (probe_mesh_opts.hccs)
		words[k++] = "--hccs";
	if (lldp) {
		words[k++] = "--lldp";
		words[k++] = "--devices";
		words[k++] = devices;
	}
	for (int i = 0; i < k; i++) {
		w[i] = strdup(words[i]);
		if (!w[i]) {
			for (int q = 0; q < i; q++)
				free(w[q]);
			free(w);
			return NULL;
		}
	}
	w[k] = NULL;
	return w;
}

static void free_words(char **w)
{
	for (size_t i = 0; w && w[i]; i++)
		free(w[i]);
	free(w);
}

/* The answer a side gave, or why there is none, into the mesh. */
static void take_answer(struct mesh_run *x, struct job *j, int round)
{
	struct nm_server *s = &x->m.srv[j->server];
	char err[300];
	if (!j->ran || !j->outlen) {
		s->down = 1;
		s->unreachable = j->unreachable;
		/* the precision only says what snprintf cuts anyway, which gcc asks to see */
		snprintf(s->why, sizeof(s->why), "%.*s", (int)sizeof(s->why) - 1,
			 j->why[0] ? j->why : "no answer");
		return;
	}
	if (!npumesh_reply_parse(&x->m, j->server, round, j->out, j->outlen, err, sizeof(err)))
		return;
	/* an error document of its own ("hccn_tool ... (missing)"), or something else */
	cJSON *d = cJSON_ParseWithLength(j->out, j->outlen);
	const char *msg = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(
		cJSON_GetObjectItemCaseSensitive(d, "error"), "message"));
	s->down = 1;
	snprintf(s->why, sizeof(s->why), "%.200s", msg ? msg : err);
	cJSON_Delete(d);
}

static void remote_result(struct job *j, const struct fo_host *h)
{
	if (h->status == FO_OK || h->status == FO_FAILED) {
		if (h->status == FO_FAILED && !h->signal[0] &&
		    (h->exit_status == 127 || h->exit_status == 126)) {
			snprintf(j->why, sizeof(j->why), "hcclctl is not %s there (exit %d)",
				 h->exit_status == 127 ? "installed" : "executable",
				 h->exit_status);
			return;
		}
		if (h->out.len) {
			j->out = malloc(h->out.len + 1);
			if (j->out) {
				memcpy(j->out, h->out.p, h->out.len);
				j->out[h->out.len] = '\0';
				j->outlen = h->out.len;
				j->ran = 1;
			}
			return;
		}
		const char *tail = fo_stderr_line(h);
		snprintf(j->why, sizeof(j->why), "exit %d%s%s", h->exit_status, *tail ? ": " : "",
			 tail);
		return;
	}
	snprintf(j->why, sizeof(j->why), "%s", h->error[0] ? h->error : fo_status_name(h->status));
	/* no session: the situation "unreachable", as exec and run --ssh judge it */
	j->unreachable = (h->status == FO_UNREACHABLE || h->status == FO_TIMEOUT) && !h->connected;
}

/* One round: the pairs' pings (and with lldp every NIC's neighbour), every server at once. */
/* Each server's ping list ("DEV=IP,...", both directions of every pair it takes part in)
 * and, with lldp, its devices; maxper counts each server's pings. */
static void fill_lists(const struct mesh_run *x, size_t (*pairs)[2], size_t npairs, int lldp,
		       char **lists, char **devs, size_t *maxper)
{
	const struct npumesh *m = &x->m;
	for (size_t p = 0; p < npairs; p++)
		for (int dir = 0; dir < 2; dir++) {
			size_t a = x->pinged[pairs[p][dir]], b = x->pinged[pairs[p][!dir]];
			size_t s = m->ep[a].server;
			char *l = lists[s];
			size_t at = strlen(l);
			snprintf(l + at, 64 * (npairs * 2 + 1) + 1 - at, "%s%ld=%s", at ? "," : "",
				 m->ep[a].device, m->ep[b].ip);
			maxper[s]++;
		}
	for (size_t i = 0; lldp && i < x->np; i++) {
		const struct nm_endpoint *e = &m->ep[x->pinged[i]];
		char *d = devs[e->server];
		size_t at = strlen(d);
		snprintf(d + at, 16 * (m->n + 1) + 1 - at, "%s%ld", at ? "," : "", e->device);
	}
}

/* The remote servers' jobs of a round, all at once over the SSH fan-out; each job gets
 * its server's answer, or why there is none. */
static void run_remote(const struct mesh_run *x, struct job *jobs, struct fo_host *hosts,
		       const size_t *host_job, size_t nh)
{
	long long longest = 0;
	for (size_t k = 0; k < nh; k++)
		if (jobs[host_job[k]].timeout_ms > longest)
			longest = jobs[host_job[k]].timeout_ms;
	struct fanout f = {
		.ssh = {.user = probe_mesh_opts.user,
			.port = (int)probe_mesh_opts.port,
			.key = probe_mesh_opts.key,
			.known_hosts = probe_mesh_opts.known_hosts,
			.insecure = probe_mesh_opts.insecure,
			.cancel_fd = -1},
		.parallel = probe_mesh_opts.parallel ? (int)probe_mesh_opts.parallel : 32,
		.connect_timeout_ms = x->connect_timeout_s * 1000,
		.cmd_timeout_ms = longest,
		.cap = 4UL << 20,
	};
	char err[SSH_ERRLEN];
	if (fanout_run(&f, hosts, nh, err, sizeof(err)))
		for (size_t k = 0; k < nh; k++)
			snprintf(jobs[host_job[k]].why, sizeof(jobs[0].why), "%s", err);
	else
		for (size_t k = 0; k < nh; k++)
			remote_result(&jobs[host_job[k]], &hosts[k]);
}

static int run_round(struct mesh_run *x, int round, size_t (*pairs)[2], size_t npairs, int lldp)
{
	struct npumesh *m = &x->m;
	size_t ns = m->nsrv;
	char **lists = calloc(ns, sizeof(*lists)), **devs = calloc(ns, sizeof(*devs));
	size_t *maxper = calloc(ns, sizeof(*maxper));
	struct job *jobs = calloc(ns, sizeof(*jobs));
	pthread_t *th = calloc(ns, sizeof(*th));
	unsigned char *th_up = calloc(ns, 1);
	struct fo_host *hosts = calloc(ns, sizeof(*hosts));
	size_t *host_job = calloc(ns, sizeof(*host_job));
	size_t nj = 0, nh = 0;
	int rc = 0;
	if (!lists || !devs || !maxper || !jobs || !th || !th_up || !hosts || !host_job) {
		rc = fail(EXIT_UNKNOWN, WHERE, NULL, "out of memory");
		goto out;
	}
	for (size_t s = 0; s < ns; s++) {
		lists[s] = calloc(1, 64 * (npairs * 2 + 1) + 1);
		devs[s] = calloc(1, 16 * (m->n + 1) + 1);
		if (!lists[s] || !devs[s]) {
			rc = fail(EXIT_UNKNOWN, WHERE, NULL, "out of memory");
			goto out;
		}
	}
	fill_lists(x, pairs, npairs, lldp, lists, devs, maxper);
	for (size_t s = 0; s < ns; s++) {
		if (m->srv[s].down || (!lists[s][0] && !(lldp && devs[s][0])))
			continue;
		struct job *j = &jobs[nj++];
		j->server = s;
		/* its slowest device runs maxper pings and one LLDP query after another */
		j->timeout_ms = (x->c->timeout_s * (long)(maxper[s] + 1) * 2 + 15) * 1000;
		int with_lldp = lldp && devs[s][0];
		if (m->srv[s].local) {
			j->req = (struct pmesh_node_req){lists[s], with_lldp ? devs[s] : NULL,
							 x->c->hccn_tool, m->srv[s].id, with_lldp,
							 probe_mesh_opts.hccs, x->c->timeout_s};
			continue;
		}
		j->argv = node_words(x, s, lists[s], with_lldp, devs[s],
				     probe_mesh_opts.remote ? probe_mesh_opts.remote : "hcclctl");
		if (!j->argv) {
			rc = fail(EXIT_UNKNOWN, WHERE, NULL, "out of memory");
			goto out;
		}
		int wc = 0;
		while (j->argv[wc])
			wc++;
		j->cmd = sh_join(wc, (const char *const *)j->argv);
		if (!j->cmd) {
			rc = fail(EXIT_UNKNOWN, WHERE, NULL, "out of memory");
			goto out;
		}
		hosts[nh].host = m->srv[s].host;
		hosts[nh].name = m->srv[s].id;
		hosts[nh].cmd = j->cmd;
		host_job[nh++] = (size_t)(j - jobs);
	}
	for (size_t k = 0; k < nj; k++) {
		if (m->srv[jobs[k].server].local) {
			if (pthread_create(&th[k], NULL, local_thread, &jobs[k]))
				local_thread(&jobs[k]);
			else
				th_up[k] = 1;
		}
	}
	if (nh)
		run_remote(x, jobs, hosts, host_job, nh);
	for (size_t k = 0; k < nj; k++)
		if (th_up[k])
			pthread_join(th[k], NULL);
	for (size_t k = 0; k < nj; k++)
		take_answer(x, &jobs[k], round);
out:
	for (size_t k = 0; hosts && k < nh; k++)
		fo_host_release(&hosts[k]);
	for (size_t k = 0; jobs && k < nj; k++) {
		free_words(jobs[k].argv);
		free(jobs[k].cmd);
		free(jobs[k].out);
	}
	for (size_t s = 0; s < ns; s++) {
		if (lists)
			free(lists[s]);
		if (devs)
			free(devs[s]);
	}
	free(lists);
	free(devs);
	free(maxper);
	free(jobs);
	free(th);
	free(th_up);
	free(hosts);
	free(host_job);
	return rc;
}

static int load(struct mesh_run *x)
{
	const struct probe_mesh_common *c = x->c;
	char *buf = NULL, err[RT_ERRLEN];
	size_t len = 0;
	struct rt_diags d = {0};
	int rc = fetch_table(c->ranktable, WHERE, TABLE_CAP, &buf, &len, err, sizeof(err));
	if (rc)
		return fail(rc == -EAGAIN ? EXIT_FAIL : EXIT_UNKNOWN, WHERE, fetch_hint(), "%s",
			    err);
	rc = rt_table_load(&x->t, c->ranktable, buf, len, &d, err, sizeof(err));
	free(buf);
	rt_diags_release(&d);
	if (rc)
		return fail(EXIT_UNKNOWN, WHERE, "check it with: hcclctl ranktable validate FILE",
			    "%s: %s", c->ranktable, *err ? err : "not a rank table");
	if (x->t.format == RT_FMT_VLLM_PD || x->t.format == RT_FMT_GLOBAL ||
	    x->t.format == RT_FMT_GE_CLUSTER)
		return fail(EXIT_FAIL, WHERE,
			    "give the job's HCCL rank table (server_list or rank_list)",
			    "%s is a %s table, which HCCL does not read", c->ranktable,
			    rt_format_name(x->t.format));
	if (!x->t.nservers || !x->t.nranks)
		return fail(EXIT_FAIL, WHERE, "check it with: hcclctl ranktable validate FILE",
			    "%s has no servers with devices", c->ranktable);
	if (npumesh_init(&x->m, x->t.nservers, x->t.nranks))
		return fail(EXIT_UNKNOWN, WHERE, NULL, "out of memory");
	x->m.unreachable_status = probe_situation_status("unreachable");
	size_t e = 0;
	for (size_t s = 0; s < x->t.nservers; s++) {
		const struct rt_server *sv = &x->t.servers[s];
		const char *host = sv->host_ip && *sv->host_ip ? sv->host_ip : sv->server_id;
		if (!host || rt_host_unsafe_at(host) >= 0)
			return fail(EXIT_FAIL, WHERE, NULL,
				    "%s: refusing server \"%.64s\": not a host name or IP",
				    c->ranktable, host ? host : "");
		snprintf(x->m.srv[s].id, sizeof(x->m.srv[s].id), "%s",
			 sv->server_id ? sv->server_id : host);
		snprintf(x->m.srv[s].host, sizeof(x->m.srv[s].host), "%s", host);
		x->m.srv[s].local = node_is_local(host) ||
				    (sv->server_id && node_is_local(sv->server_id));
		for (size_t r = sv->first_rank; r < sv->first_rank + sv->nranks && r < x->t.nranks;
		     r++) {
			const struct rt_rank *k = &x->t.ranks[r];
			struct nm_endpoint *ep = &x->m.ep[e++];
			ep->server = s;
			ep->device = k->device_id;
			ep->rank = k->rank_id;
			ep->sdid = k->super_device_id;
			struct in_addr a4;
			struct in6_addr a6;
			if (k->device_ip && (inet_pton(AF_INET, k->device_ip, &a4) == 1 ||
					     inet_pton(AF_INET6, k->device_ip, &a6) == 1))
				snprintf(ep->ip, sizeof(ep->ip), "%s", k->device_ip);
		}
	}
	x->m.n = e;
	if (npumesh_index(&x->m))
		return fail(EXIT_UNKNOWN, WHERE, NULL, "out of memory");
	x->pinged = calloc(e + 1, sizeof(*x->pinged));
	if (!x->pinged)
		return fail(EXIT_UNKNOWN, WHERE, NULL, "out of memory");
	for (size_t i = 0; i < e; i++)
		if (x->m.ep[i].ip[0] && x->m.ep[i].device >= 0)
			x->pinged[x->np++] = i;
	return 0;
}

static int mesh_main(const struct probe_mesh_common *c)
{
	struct mesh_run *x = calloc(1, sizeof(*x));
	size_t(*pairs)[2] = NULL;
	int rc;
	if (!x)
		return fail(EXIT_UNKNOWN, WHERE, NULL, "out of memory");
	x->c = c;
	const char *ct = getenv("HCCLCTL_CONNECT_TIMEOUT");
	char *end = NULL;
	x->connect_timeout_s = ct && *ct ? strtol(ct, &end, 10) : DEFAULT_CONNECT_TIMEOUT;
	if ((end && *end) || x->connect_timeout_s < 1 || x->connect_timeout_s > 86400) {
		rc = fail(EXIT_USAGE, WHERE, "a whole number of seconds, at least 1",
			  "invalid HCCLCTL_CONNECT_TIMEOUT");
		goto out;
	}
	if ((rc = load(x)))
		goto out;
	if (probe_mesh_opts.insecure)
		warn_msg(WHERE, "--ssh-insecure: host keys are not checked; anyone on the path can "
				"pose as these hosts");
	pairs = calloc(x->np / 2 + 1, sizeof(*pairs));
	if (!pairs) {
		rc = fail(EXIT_UNKNOWN, WHERE, NULL, "out of memory");
		goto out;
	}
	long long t0 = mono_ms();
	size_t rounds = np_rounds(x->np);
	x->rounds = rounds ? rounds : 1;
	int tty = isatty(2) && !g_opts.quiet && !g_opts.json;
	for (size_t r = 0; r < x->rounds; r++) {
		size_t npairs = rounds ? np_round_pairs(x->np, r, pairs) : 0;
		if (tty)
			fprintf(stderr, "\rhcclctl: probe roce: round %zu of %zu", r + 1,
				x->rounds);
		if ((rc = run_round(x, (int)r, pairs, npairs, r == 0)))
			goto out;
	}
	if (tty)
		fprintf(stderr, "\n");
	x->seconds = (double)(mono_ms() - t0) / 1000.0;
	if (npumesh_judge(&x->m)) {
		rc = fail(EXIT_UNKNOWN, WHERE, NULL, "out of memory");
		goto out;
	}
	rc = probe_status_exit(x->m.status);
	if (g_opts.json)
		pmesh_print_json(x, g_opts.strict && rc == EXIT_WARN ? EXIT_FAIL : rc);
	else
		pmesh_print_text(x);
	for (size_t s = 0; s < x->m.nsrv; s++)
		if (x->m.srv[s].down)
			fail(rc, WHERE, NULL, "server %s: %s: %s", x->m.srv[s].id,
			     x->m.srv[s].unreachable ? "unreachable" : "its pings did not run",
			     x->m.srv[s].why);
out:
	free(pairs);
	free(x->pinged);
	npumesh_release(&x->m);
	rt_table_release(&x->t);
	free(x);
	return rc;
}

int probe_mesh_run(const struct probe_mesh_common *c)
{
	const struct probe_mesh_opts *o = &probe_mesh_opts;
	int ssh = o->user || o->port || o->key || o->known_hosts || o->insecure || o->parallel ||
		  o->remote;
	if (ssh && !o->mesh)
		return fail(EXIT_USAGE, WHERE, NULL,
			    "the --ssh-*, --parallel and --remote-hcclctl options are for --mesh");
	if (o->mesh && o->ping_list)
		return fail(EXIT_USAGE, WHERE, NULL,
			    "--mesh and --ping-list: --ping-list is the node side of --mesh");
	if (o->ping_list) {
		if (ssh || c->ranktable)
			return fail(EXIT_USAGE, WHERE, NULL,
				    "--ping-list pings from this host: no --ranktable or --ssh-* "
				    "options");
		return pmesh_node_main(c);
	}
	if (o->lldp)
		return fail(EXIT_USAGE, WHERE, "--mesh reads every NIC's LLDP neighbour itself",
			    "--lldp is for --ping-list");
	if (!c->ranktable)
		return fail(EXIT_USAGE, WHERE,
			    "e.g. hcclctl probe roce --mesh --ranktable rank_table.json",
			    "--mesh needs --ranktable: its device IPs are what is pinged");
	if (c->devices || c->server_id)
		return fail(EXIT_USAGE, WHERE, NULL,
			    "--mesh pings every device of the rank table: no --devices or "
			    "--server-id");
	return mesh_main(c);
}
