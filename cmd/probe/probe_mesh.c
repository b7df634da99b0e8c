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
 * this host (a loopback address, its name or one of its addresses) runs it as a child
 * process; the others run it over the SSH fan-out, all servers of the round at once. The
 * next round starts when every server answered or passed its deadline. The first round also
 * reads every NIC's LLDP neighbour (--lldp). A server whose side cannot run (no SSH, no
 * hcclctl) is named once and left out of the later rounds; the pings to its NICs go on. */
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
#include "cmd/probe/probe.h"
#include "cmd/lib/nodeself.h"
#include "probes/nic/hccn.h"
#include "cmd/lib/netperf.h"
#include "probes/npu/npumesh.h"
#include "ranktable/ranktable.h"
#include "ranktable/base/clock.h"

#define WHERE "probe roce"
#define TABLE_CAP RT_TABLE_MAX
#define MAX_ITEMS 256	 /* pings one node side runs in one call */
#define BUSY_RETRIES 5	 /* "hccn_tool is busy": tries again this often ... */
#define BUSY_WAIT_MS 500 /* ... this far apart */
#define MATRIX_MAX 32	 /* devices up to which the text output shows the matrix */
#define DEFAULT_CONNECT_TIMEOUT 10

struct probe_mesh_opts probe_mesh_opts;

static const char *const hccn_fallbacks[] = {"/usr/local/Ascend/driver/tools/hccn_tool", NULL};

static void sleep_ms(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
	nanosleep(&ts, NULL);
}

/* ---- where a server is ---- */

/* ==== the node side: --ping-list ==== */

struct item {
	long dev;
	char ip[48];
	int v6;
	/* result */
	int ok; /* p holds a parsed run */
	struct hccn_ping p;
	char error[200];
};

struct dev_work {
	long dev;
	struct item *items[MAX_ITEMS];
	size_t n;
	int lldp; /* read its neighbour */
	int lldp_ok;
	struct hccn_lldp l;
	char lldp_error[200];
	const char *hccn;
	long timeout_ms;
};

/* Runs hccn_tool -i DEV args..., trying again while it says it is busy. 0 with r filled, or
 * a negative code with why. */
static int run_hccn(const struct dev_work *w, const char *const *args, struct probe_tool_result *r,
		    char *why, size_t wlen)
{
	char ids[24], err[PROBE_ERRLEN];
	char *argv[16];
	size_t n = 0;
	snprintf(ids, sizeof(ids), "%ld", w->dev);
	argv[n++] = (char *)w->hccn;
	argv[n++] = (char *)"-i";
	argv[n++] = ids;
	for (size_t i = 0; args[i] && n < 15; i++)
		argv[n++] = (char *)args[i];
	argv[n] = NULL;
	for (int attempt = 0;; attempt++) {
		int rc = probe_tool_run(w->hccn, argv, w->timeout_ms, r, err, sizeof(err));
		if (rc == -ETIMEDOUT) {
			probe_tool_result_release(r);
			snprintf(why, wlen, "hccn_tool gave no answer within %ld s",
				 (w->timeout_ms + 999) / 1000);
			return rc;
		}
		if (rc) {
			probe_tool_result_release(r);
			snprintf(why, wlen, "%.180s", err);
			return rc;
		}
		const char *busy = "hccn_tool is busy";
		if (attempt < BUSY_RETRIES && (memmem(r->out, r->outlen, busy, strlen(busy)) ||
					       memmem(r->errout, r->errlen, busy, strlen(busy)))) {
			probe_tool_result_release(r);
			sleep_ms(BUSY_WAIT_MS);
			continue;
		}
		return 0;
	}
}

/* What went wrong when the output says nothing usable: hccn_tool's own sentence, else its
 * first line, else its exit status. */
static void tool_error(const struct probe_tool_result *r, const char *parse_err, char *buf,
		       size_t len)
{
	const char *known = hccn_known_error(r->out, r->outlen);
	char line[160];
	if (!known)
		known = hccn_known_error(r->errout, r->errlen);
	if (known) {
		snprintf(buf, len, "%s", known);
		return;
	}
	if (!r->status) { /* it ran and said something else */
		snprintf(buf, len, "%s", parse_err);
		return;
	}
	probe_first_line(r->errout, line, sizeof(line));
	if (!*line)
		probe_first_line(r->out, line, sizeof(line));
	snprintf(buf, len, "%s (exit %d)", *line ? line : parse_err, r->status);
}

static void *dev_thread(void *arg)
{
	struct dev_work *w = arg;
	struct probe_tool_result r;
	char perr[160];
	if (w->lldp) {
		const char *const a[] = {"-lldp", "-g", NULL};
		if (!run_hccn(w, a, &r, w->lldp_error, sizeof(w->lldp_error))) {
			if (!hccn_parse_lldp(r.out, r.outlen, &w->l, perr, sizeof(perr)))
				w->lldp_ok = 1;
			else
				tool_error(&r, perr, w->lldp_error, sizeof(w->lldp_error));
			probe_tool_result_release(&r);
		}
	}
	for (size_t i = 0; i < w->n; i++) {
		struct item *it = w->items[i];
		const char *const v4[] = {"-ping", "-g", "address", it->ip, NULL};
		const char *const v6[] = {"-ping", "-inet6", "-g", "ipv6_address", it->ip, NULL};
		const char *const hc[] = {"-hccs_ping", "-g", "address", it->ip, NULL};
		const char *const *a = probe_mesh_opts.hccs ? hc : it->v6 ? v6 : v4;
		if (run_hccn(w, a, &r, it->error, sizeof(it->error)))
			continue;
		if (!hccn_parse_ping(r.out, r.outlen, &it->p, perr, sizeof(perr)))
			it->ok = 1;
		else
			tool_error(&r, perr, it->error, sizeof(it->error));
		probe_tool_result_release(&r);
	}
	return NULL;
}

/* "0=10.0.0.2,1=10.0.0.3" into items; "" is no item. */
static int parse_items(const char *list, struct item **out, size_t *nout)
{
	struct item *v = calloc(MAX_ITEMS, sizeof(*v));
	size_t n = 0;
	if (!v)
		return fail(EXIT_UNKNOWN, WHERE, NULL, "out of memory");
	for (const char *p = list; p && *p;) {
		size_t k = strcspn(p, ",");
		char one[96], *eq, *end;
		if (k >= sizeof(one) || n == MAX_ITEMS)
			goto bad;
		memcpy(one, p, k);
		one[k] = '\0';
		p += k + (p[k] == ',');
		eq = strchr(one, '=');
		if (!eq)
			goto bad;
		*eq = '\0';
		long dev = strtol(one, &end, 10);
		if (end == one || *end || dev < 0 || dev > 1023)
			goto bad;
		struct in_addr a4;
		struct in6_addr a6;
		int v6 = inet_pton(AF_INET6, eq + 1, &a6) == 1;
		if (!v6 && inet_pton(AF_INET, eq + 1, &a4) != 1)
			goto bad;
		v[n].dev = dev;
		v[n].v6 = v6;
		snprintf(v[n].ip, sizeof(v[n].ip), "%s", eq + 1);
		n++;
	}
	*out = v;
	*nout = n;
	return 0;
bad:
	free(v);
	return fail(EXIT_USAGE, WHERE, "e.g. --ping-list 0=192.168.1.2,1=192.168.1.3",
		    "--ping-list: expected DEV=IP[,DEV=IP...] (device 0-1023, an IPv4 or IPv6 "
		    "address), at most %d",
		    MAX_ITEMS);
}

static void print_node_text(const struct item *it, size_t n, const struct dev_work *w, size_t nw)
{
	if (n)
		printf("%-4s %-16s %-4s %-4s %-8s %-9s %s\n", "DEV", "TARGET", "SENT", "RECV",
		       "LOSS", "RTT(ms)", "ERROR");
	for (size_t i = 0; i < n; i++) {
		char loss[32] = "-", rtt[32] = "-", sent[32] = "-", recv[32] = "-";
		if (it[i].ok) {
			double m = hccn_ping_rtt_ms(&it[i].p);
			if (it[i].p.sent >= 0)
				snprintf(sent, sizeof(sent), "%ld", it[i].p.sent);
			if (it[i].p.received >= 0)
				snprintf(recv, sizeof(recv), "%ld", it[i].p.received);
			if (it[i].p.loss_pct >= 0)
				snprintf(loss, sizeof(loss), "%.2f%%", it[i].p.loss_pct);
			if (m >= 0)
				snprintf(rtt, sizeof(rtt), "%.3f", m);
		}
		printf("%-4ld %-16s %-4s %-4s %-8s %-9s %s\n", it[i].dev, it[i].ip, sent, recv,
		       loss, rtt, it[i].ok ? "-" : it[i].error);
	}
	for (size_t k = 0; k < nw; k++) {
		if (!w[k].lldp)
			continue;
		if (w[k].lldp_ok)
			printf("lldp %ld: switch %s port %s\n", w[k].dev,
			       *hccn_lldp_switch(&w[k].l) ? hccn_lldp_switch(&w[k].l) : "unknown",
			       *w[k].l.port ? w[k].l.port : "unknown");
		else
			printf("lldp %ld: %s\n", w[k].dev, w[k].lldp_error);
	}
}

static int node_main(const struct probe_mesh_common *c)
{
	char hccn[1024], err[PROBE_ERRLEN];
	struct item *it = NULL;
	struct dev_work *w = NULL;
	pthread_t *th = NULL;
	size_t n = 0, nw = 0;
	long *lldp_ids = NULL;
	size_t nlldp = 0;
	int rc;

	if ((rc = parse_items(probe_mesh_opts.ping_list, &it, &n)))
		return rc;
	if (probe_mesh_opts.lldp && c->devices &&
	    rt_parse_devices(c->devices, &lldp_ids, &nlldp, err, sizeof(err))) {
		rc = fail(EXIT_USAGE, WHERE, "e.g. --devices 0-7", "--devices: %s", err);
		goto out;
	}
	if (probe_tool_find("hccn_tool", c->hccn_tool, "HCCLCTL_HCCN_TOOL", hccn_fallbacks, hccn,
			    sizeof(hccn), err, sizeof(err))) {
		rc = fail(EXIT_UNKNOWN, WHERE,
			  "install the Ascend driver, or pass --hccn-tool PATH (or set "
			  "HCCLCTL_HCCN_TOOL)",
			  "%s (missing)", err);
		goto out;
	}
	if (access(hccn, X_OK)) {
		rc = fail(EXIT_UNKNOWN, WHERE,
			  "install the Ascend driver, or pass --hccn-tool PATH (or set "
			  "HCCLCTL_HCCN_TOOL)",
			  "hccn_tool %s cannot be run: %s", hccn, strerror(errno));
		goto out;
	}
	w = calloc(n + nlldp + 1, sizeof(*w));
	th = calloc(n + nlldp + 1, sizeof(*th));
	if (!w || !th) {
		rc = fail(EXIT_UNKNOWN, WHERE, NULL, "out of memory");
		goto out;
	}
	/* one worker per device: its LLDP first, then its pings in order */
	for (size_t i = 0; i < n + nlldp; i++) {
		long dev = i < n ? it[i].dev : lldp_ids[i - n];
		size_t k = 0;
		while (k < nw && w[k].dev != dev)
			k++;
		if (k == nw) {
			w[nw].dev = dev;
			w[nw].hccn = hccn;
			w[nw].timeout_ms = c->timeout_s * 1000;
			nw++;
		}
		if (i < n && w[k].n < MAX_ITEMS)
			w[k].items[w[k].n++] = &it[i];
		if (probe_mesh_opts.lldp && (!c->devices || i >= n))
			w[k].lldp = 1;
	}
	size_t started = 0;
	for (; started < nw; started++)
		if (pthread_create(&th[started], NULL, dev_thread, &w[started]))
			break;
	for (size_t k = started; k < nw; k++)
		dev_thread(&w[k]); /* no thread left: run it here */
	for (size_t k = 0; k < started; k++)
		pthread_join(th[k], NULL);

	if (!g_opts.json) {
		print_node_text(it, n, w, nw);
		rc = EXIT_OK;
		goto out;
	}
	cJSON *doc = npumesh_reply_new(c->server_id);
	if (!doc) {
		rc = fail(EXIT_UNKNOWN, WHERE, NULL, "out of memory");
		goto out;
	}
	cJSON_AddStringToObject(doc, "hccn_tool", hccn);
	for (size_t i = 0; i < n; i++)
		npumesh_reply_ping(doc, it[i].dev, it[i].ip, it[i].ok ? &it[i].p : NULL,
				   it[i].error);
	for (size_t k = 0; k < nw; k++)
		if (w[k].lldp)
			npumesh_reply_lldp(doc, w[k].dev, w[k].lldp_ok ? &w[k].l : NULL,
					   w[k].lldp_error);
	cJSON_AddNumberToObject(doc, "exit_code", 0);
	out_json(doc);
	rc = EXIT_OK;
out:
	free(th);
	free(w);
	free(it);
	free(lldp_ids);
	return rc;
}

/* ==== the launcher: --mesh ==== */

struct job {
	size_t server;
	char *cmd;   /* remote: the command line; local: NULL */
	char **argv; /* the words (local: argv[0] is this program) */
	long timeout_ms;
	/* result */
	char *out;
	size_t outlen;
	char why[SSH_ERRLEN + 64];
	int ran; /* out holds what the side printed */
};

struct mesh_run {
	struct npumesh m;
	struct rt_table t;
	size_t *pinged; /* endpoints with an IP, in schedule order */
	size_t np;
	char exe[4096];
	size_t rounds;
	double seconds;
	long connect_timeout_s;
	const struct probe_mesh_common *c;
};

static void *local_thread(void *arg)
{
	struct job *j = arg;
	struct probe_tool_result r;
	char err[PROBE_ERRLEN];
	int rc = probe_tool_run("/proc/self/exe", j->argv, j->timeout_ms, &r, err, sizeof(err));
	if (rc) {
		snprintf(j->why, sizeof(j->why), "%s", err);
	} else {
		j->out = r.out;
		j->outlen = r.outlen;
		r.out = NULL;
		j->ran = 1;
		if (!r.outlen) {
			char line[200];
			probe_first_line(r.errout, line, sizeof(line));
			snprintf(j->why, sizeof(j->why), "exit %d%s%s", r.status, *line ? ": " : "",
				 line);
		}
	}
	probe_tool_result_release(&r);
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
		snprintf(s->why, sizeof(s->why), "%s", j->why[0] ? j->why : "no answer");
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
}

/* One round: the pairs' pings (and with lldp every NIC's neighbour), every server at once. */
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
	for (size_t s = 0; s < ns; s++) {
		if (m->srv[s].down || (!lists[s][0] && !(lldp && devs[s][0])))
			continue;
		struct job *j = &jobs[nj++];
		j->server = s;
		/* its slowest device runs maxper pings and one LLDP query after another */
		j->timeout_ms = (x->c->timeout_s * (long)(maxper[s] + 1) * 2 + 15) * 1000;
		int with_lldp = lldp && devs[s][0];
		j->argv = node_words(x, s, lists[s], with_lldp, devs[s],
				     m->srv[s].local	      ? x->exe
				     : probe_mesh_opts.remote ? probe_mesh_opts.remote
							      : "hcclctl");
		if (!j->argv) {
			rc = fail(EXIT_UNKNOWN, WHERE, NULL, "out of memory");
			goto out;
		}
		if (!m->srv[s].local) {
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
	}
	for (size_t k = 0; k < nj; k++) {
		if (m->srv[jobs[k].server].local) {
			if (pthread_create(&th[k], NULL, local_thread, &jobs[k]))
				local_thread(&jobs[k]);
			else
				th_up[k] = 1;
		}
	}
	if (nh) {
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

/* ---- the report ---- */

static const char *link_status(const struct nm_link *l)
{
	if (l->state == NM_ERROR)
		return "UNKNOWN";
	if (l->state != NM_MEASURED)
		return "SKIP";
	return l->flags & NM_F_DOWN ? "FAIL" : l->flags & (NM_F_LOSS | NM_F_SLOW) ? "WARN" : "PASS";
}

static char cell_of(const struct npumesh *m, size_t a, size_t b)
{
	const struct nm_link *l = npumesh_link(m, a, b);
	if (a == b)
		return '-';
	if (l->state == NM_ERROR || (l->state == NM_UNTRIED && m->ep[a].ip[0] && m->ep[b].ip[0]))
		return '?';
	if (l->state != NM_MEASURED)
		return ' ';
	return l->flags & NM_F_DOWN   ? 'X'
	       : l->flags & NM_F_LOSS ? 'L'
	       : l->flags & NM_F_SLOW ? 'R'
				      : '.';
}

static void rail_stats(const struct npumesh *m, long rail, size_t *devs, size_t *links, size_t *ok,
		       double *median)
{
	double *v = malloc((m->n * m->n + 1) * sizeof(*v));
	size_t k = 0;
	*devs = *links = *ok = 0;
	*median = -1;
	for (size_t a = 0; a < m->n; a++) {
		if (m->ep[a].device != rail)
			continue;
		*devs += m->ep[a].ip[0] != 0;
		for (size_t b = 0; b < m->n; b++) {
			const struct nm_link *l = npumesh_link(m, a, b);
			if (b == a || npumesh_class(m, a, b) != NM_RAIL || l->state != NM_MEASURED)
				continue;
			(*links)++;
			if (l->received) {
				(*ok)++;
				if (v && l->rtt_ms >= 0)
					v[k++] = l->rtt_ms;
			}
		}
	}
	if (v && k) {
		for (size_t i = 1; i < k; i++)
			for (size_t q = i; q > 0 && v[q - 1] > v[q]; q--) {
				double t = v[q];
				v[q] = v[q - 1];
				v[q - 1] = t;
			}
		*median = k % 2 ? v[k / 2] : (v[k / 2 - 1] + v[k / 2]) / 2;
	}
	free(v);
}

static void class_stats(const struct npumesh *m, enum nm_class c, size_t *links, size_t *ok)
{
	*links = *ok = 0;
	for (size_t a = 0; a < m->n; a++)
		for (size_t b = 0; b < m->n; b++) {
			const struct nm_link *l = npumesh_link(m, a, b);
			if (a == b || npumesh_class(m, a, b) != c || l->state != NM_MEASURED)
				continue;
			(*links)++;
			*ok += l->received > 0;
		}
}

static void print_text(const struct mesh_run *x)
{
	const struct npumesh *m = &x->m;
	const char *off = probe_color_off(1);
	if (!g_opts.quiet) {
		printf("servers:");
		for (size_t s = 0; s < m->nsrv; s++)
			printf("%s s%zu %s%s", s ? "," : "", s, m->srv[s].id,
			       m->srv[s].local ? " (here)" : "");
		printf("\n");
		if (m->n <= MATRIX_MAX || g_opts.verbose) {
			int w = 4;
			char lab[48];
			for (size_t b = 0; b < m->n; b++) {
				int k = snprintf(lab, sizeof(lab), "s%zud%ld", m->ep[b].server,
						 m->ep[b].device);
				w = k > w ? k : w;
			}
			printf("\n%-*s", w + 2, "from\\to");
			for (size_t b = 0; b < m->n; b++) {
				snprintf(lab, sizeof(lab), "s%zud%ld", m->ep[b].server,
					 m->ep[b].device);
				printf(" %-*s", w, lab);
			}
			printf("\n");
			for (size_t a = 0; a < m->n; a++) {
				snprintf(lab, sizeof(lab), "s%zud%ld", m->ep[a].server,
					 m->ep[a].device);
				printf("%-*s", w + 2, lab);
				for (size_t b = 0; b < m->n; b++)
					printf(" %-*c", w, cell_of(m, a, b));
				printf(" %s\n", m->ep[a].ip[0] ? m->ep[a].ip : "no IP");
			}
			printf(". replies  X no reply  L loss  R slow  ? not known\n\n");
		}
		for (size_t r = 0; r < m->nrails; r++) {
			size_t devs, links, ok;
			double med;
			rail_stats(m, m->rails[r], &devs, &links, &ok, &med);
			printf("rail %ld: %zu device%s, %zu of %zu links within the rail reply",
			       m->rails[r], devs, devs == 1 ? "" : "s", ok, links);
			if (med >= 0)
				printf(", median %.3f ms", med);
			printf("\n");
		}
		static const char *const cname[NM_NCLASS] = {"within servers", "within rails",
							     "across rails"};
		for (int c = 0; c < NM_NCLASS; c++) {
			size_t links, ok;
			class_stats(m, (enum nm_class)c, &links, &ok);
			if (!links)
				continue;
			printf("%s: %zu of %zu links reply", cname[c], ok, links);
			if (m->median_rtt[c] >= 0)
				printf(", median %.3f ms", m->median_rtt[c]);
			printf("\n");
		}
		size_t nl = 0, nsw = 0, nfail = 0, nnone = 0;
		for (size_t i = 0; i < m->n; i++) {
			if (m->ep[i].lldp == 1) {
				nl++;
				size_t q = 0;
				while (q < i && !(m->ep[q].lldp == 1 && m->ep[i].sw[0] &&
						  !strcmp(m->ep[q].sw, m->ep[i].sw)))
					q++;
				nsw += q == i && m->ep[i].sw[0];
			} else if (m->ep[i].lldp < 0 &&
				   strstr(m->ep[i].lldp_err, "no LLDP neighbour")) {
				nnone++;
			} else if (m->ep[i].lldp < 0) {
				nfail++;
			}
		}
		printf("lldp: %zu of %zu NICs report their switch port, on %zu known switch%s", nl,
		       x->np, nsw, nsw == 1 ? "" : "es");
		if (nnone)
			printf("; %zu hear none", nnone);
		if (nfail)
			printf("; %zu could not be read", nfail);
		printf("\n");
		if (g_opts.verbose)
			for (size_t i = 0; i < m->n; i++) {
				char name[200];
				npumesh_name(m, i, name, sizeof(name));
				if (m->ep[i].lldp == 1)
					printf("  %s: switch %s port %s\n", name,
					       m->ep[i].sw[0] ? m->ep[i].sw : "unknown",
					       m->ep[i].port[0] ? m->ep[i].port : "unknown");
				else if (m->ep[i].lldp < 0)
					printf("  %s: %s\n", name, m->ep[i].lldp_err);
			}
		printf("\n");
	}
	unsigned char fixed[NM_NCODES] = {0};
	for (size_t k = 0; k < m->nf; k++) {
		const struct nm_finding *f = &m->f[k];
		const struct nm_kind *kd = npumesh_kind(f->code);
		const char *col = probe_status_color(1, kd->status);
		char fix[400];
		printf("%s%-7s%s %-16s %s\n", col, probe_status_name(kd->status), *col ? off : "",
		       kd->code, f->msg);
		npumesh_fix(m, f, fix, sizeof(fix));
		if (!fixed[f->code]++)
			printf("        fix: %s\n", fix);
	}
	printf("npu-mesh: %s: %zu devices on %zu servers, %zu links: %zu reply, %zu no reply, %zu "
	       "lossy, %zu slow, %zu not known; %zu finding%s; %zu round%s\n",
	       probe_status_name(m->status), x->np, m->nsrv, m->tried + m->unknown, m->replied,
	       m->down, m->lost, m->slow, m->unknown, m->nf, m->nf == 1 ? "" : "s", x->rounds,
	       x->rounds == 1 ? "" : "s");
}

static void num_or_null(cJSON *o, const char *k, double v)
{
	if (v >= 0)
		cJSON_AddNumberToObject(o, k, (double)(long long)(v * 1e6 + 0.5) / 1e6);
	else
		cJSON_AddNullToObject(o, k);
}

static void print_json(const struct mesh_run *x, int code)
{
	const struct npumesh *m = &x->m;
	static const char *const cname[NM_NCLASS] = {"server", "rail", "cross_rail"};
	cJSON *doc = cJSON_CreateObject(), *a;
	cJSON_AddStringToObject(doc, "ranktable", x->c->ranktable);
	cJSON_AddStringToObject(doc, "ping", probe_mesh_opts.hccs ? "hccs_ping" : "ping");
	a = cJSON_AddArrayToObject(doc, "servers");
	for (size_t s = 0; s < m->nsrv; s++) {
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "server_id", m->srv[s].id);
		cJSON_AddStringToObject(o, "host", m->srv[s].host);
		cJSON_AddBoolToObject(o, "local", m->srv[s].local);
		cJSON_AddBoolToObject(o, "ran", !m->srv[s].down);
		if (m->srv[s].down)
			cJSON_AddStringToObject(o, "reason", m->srv[s].why);
		else
			cJSON_AddNullToObject(o, "reason");
		cJSON_AddItemToArray(a, o);
	}
	a = cJSON_AddArrayToObject(doc, "devices");
	for (size_t i = 0; i < m->n; i++) {
		const struct nm_endpoint *e = &m->ep[i];
		cJSON *o = cJSON_CreateObject();
		cJSON_AddNumberToObject(o, "index", (double)i);
		cJSON_AddStringToObject(o, "server_id", m->srv[e->server].id);
		cJSON_AddNumberToObject(o, "device", (double)e->device);
		cJSON_AddNumberToObject(o, "rank", (double)e->rank);
		if (e->ip[0])
			cJSON_AddStringToObject(o, "device_ip", e->ip);
		else
			cJSON_AddNullToObject(o, "device_ip");
		cJSON_AddStringToObject(o, "status", probe_status_name(e->status));
		if (e->lldp == 1) {
			cJSON *l = cJSON_AddObjectToObject(o, "lldp");
			cJSON_AddStringToObject(l, "switch", e->sw);
			cJSON_AddStringToObject(l, "port", e->port);
		} else {
			cJSON_AddNullToObject(o, "lldp");
		}
		if (e->lldp < 0)
			cJSON_AddStringToObject(o, "lldp_error", e->lldp_err);
		cJSON_AddItemToArray(a, o);
	}
	a = cJSON_AddArrayToObject(doc, "links");
	for (size_t i = 0; i < m->n; i++)
		for (size_t k = 0; k < m->n; k++) {
			const struct nm_link *l = npumesh_link(m, i, k);
			if (i == k || l->state == NM_UNTRIED)
				continue;
			cJSON *o = cJSON_CreateObject();
			cJSON_AddNumberToObject(o, "from", (double)i);
			cJSON_AddNumberToObject(o, "to", (double)k);
			cJSON_AddStringToObject(o, "class", cname[npumesh_class(m, i, k)]);
			cJSON_AddNumberToObject(o, "round", l->round);
			cJSON_AddStringToObject(o, "status", link_status(l));
			if (l->state == NM_MEASURED) {
				cJSON_AddNumberToObject(o, "sent", (double)l->sent);
				cJSON_AddNumberToObject(o, "received", (double)l->received);
				num_or_null(o, "loss_pct", l->loss_pct);
				num_or_null(o, "rtt_ms", l->rtt_ms);
				cJSON_AddNullToObject(o, "error");
			} else {
				cJSON_AddStringToObject(o, "error", l->reason);
			}
			cJSON_AddItemToArray(a, o);
		}
	a = cJSON_AddArrayToObject(doc, "rails");
	for (size_t r = 0; r < m->nrails; r++) {
		size_t devs, links, ok;
		double med;
		rail_stats(m, m->rails[r], &devs, &links, &ok, &med);
		cJSON *o = cJSON_CreateObject();
		cJSON_AddNumberToObject(o, "rail", (double)m->rails[r]);
		cJSON_AddNumberToObject(o, "devices", (double)devs);
		cJSON_AddNumberToObject(o, "links", (double)links);
		cJSON_AddNumberToObject(o, "replied", (double)ok);
		num_or_null(o, "median_rtt_ms", med);
		cJSON_AddItemToArray(a, o);
	}
	cJSON *md = cJSON_AddObjectToObject(doc, "median_rtt_ms");
	for (int c = 0; c < NM_NCLASS; c++)
		num_or_null(md, cname[c], m->median_rtt[c]);
	a = cJSON_AddArrayToObject(doc, "findings");
	for (size_t k = 0; k < m->nf; k++) {
		const struct nm_finding *f = &m->f[k];
		const struct nm_kind *kd = npumesh_kind(f->code);
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "code", kd->code);
		cJSON_AddStringToObject(o, "status", probe_status_name(kd->status));
		cJSON_AddStringToObject(o, "message", f->msg);
		char fix[400];
		npumesh_fix(m, f, fix, sizeof(fix));
		cJSON_AddStringToObject(o, "fix", fix);
		const struct nm_endpoint *fa = f->a >= 0 ? &m->ep[f->a] : NULL;
		const struct nm_endpoint *fb = f->b >= 0 ? &m->ep[f->b] : NULL;
		long srv = fa ? (long)fa->server : f->server;
		if (srv >= 0)
			cJSON_AddStringToObject(o, "server_id", m->srv[srv].id);
		else
			cJSON_AddNullToObject(o, "server_id");
		if (fa) {
			cJSON_AddNumberToObject(o, "device", (double)fa->device);
			cJSON_AddStringToObject(o, "device_ip", fa->ip);
		} else {
			cJSON_AddNullToObject(o, "device");
			cJSON_AddNullToObject(o, "device_ip");
		}
		if (fb) {
			cJSON *p = cJSON_AddObjectToObject(o, "peer");
			cJSON_AddStringToObject(p, "server_id", m->srv[fb->server].id);
			cJSON_AddNumberToObject(p, "device", (double)fb->device);
			cJSON_AddStringToObject(p, "device_ip", fb->ip);
		} else {
			cJSON_AddNullToObject(o, "peer");
		}
		if (f->rail >= 0)
			cJSON_AddNumberToObject(o, "rail", (double)f->rail);
		else
			cJSON_AddNullToObject(o, "rail");
		cJSON_AddItemToArray(a, o);
	}
	cJSON *s = cJSON_AddObjectToObject(doc, "summary");
	cJSON_AddNumberToObject(s, "devices", (double)x->np);
	cJSON_AddNumberToObject(s, "servers", (double)m->nsrv);
	cJSON_AddNumberToObject(s, "links", (double)(m->tried + m->unknown));
	cJSON_AddNumberToObject(s, "replied", (double)m->replied);
	cJSON_AddNumberToObject(s, "no_reply", (double)m->down);
	cJSON_AddNumberToObject(s, "lossy", (double)m->lost);
	cJSON_AddNumberToObject(s, "slow", (double)m->slow);
	cJSON_AddNumberToObject(s, "not_known", (double)m->unknown);
	cJSON_AddNumberToObject(doc, "rounds", (double)x->rounds);
	cJSON_AddNumberToObject(doc, "seconds", (double)(long long)(x->seconds * 1000) / 1000);
	cJSON_AddStringToObject(doc, "status", probe_status_name(m->status));
	cJSON_AddNumberToObject(doc, "exit_code", code);
	out_json(doc);
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
	ssize_t k = readlink("/proc/self/exe", x->exe, sizeof(x->exe) - 1);
	if (k <= 0) {
		rc = fail(EXIT_UNKNOWN, WHERE, NULL, "cannot find this program: %s",
			  strerror(errno));
		goto out;
	}
	x->exe[k] = '\0';
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
		print_json(x, g_opts.strict && rc == EXIT_WARN ? EXIT_FAIL : rc);
	else
		print_text(x);
	for (size_t s = 0; s < x->m.nsrv; s++)
		if (x->m.srv[s].down)
			fail(rc, WHERE, NULL, "server %s: its pings did not run: %s",
			     x->m.srv[s].id, x->m.srv[s].why);
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
		return node_main(c);
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
