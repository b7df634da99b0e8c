/* hcclctl probe net: TCP latency and bandwidth between every pair of nodes, both ways.
 *
 * The launcher (this process) starts `hcclctl probe net --agent` on every node over SSH
 * (or uses agents already running there, --agents). Each agent reads a fresh 128-bit secret
 * on its stdin (never on a command line), listens on a free TCP port and prints it. The
 * launcher connects to every agent (a control connection), then runs the round-robin
 * tournament: in each round the nodes form disjoint pairs, and the first agent of each pair
 * measures towards the second: one-byte round trips, then a stream each way, for --duration
 * or --bytes. Every connection, the launcher's and the agents' among themselves, answers an
 * HMAC challenge on the secret, so a stray connection is refused and never measured.
 *
 * Every wait has a deadline; a node that cannot be reached or whose agent is lost is named
 * once, and the others are measured without it. When the launcher ends, so do the agents:
 * they leave when their control connection closes, and the SSH fan-out's cancel kills what
 * is left.
 *
 * This file holds the options, the launcher and the command; the wire both sides speak is
 * probe_net_wire.c, the agent probe_net_agent.c, the printed report probe_net_report.c. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "cmd/lib/fanout.h"
#include "cmd/probe/probe_net.h"
#include "cmd/lib/netperf.h"
#include "cmd/lib/prom.h"
#include "ranktable/ranktable.h"
#include "ranktable/base/clock.h"
#include "ranktable/base/env.h"
#include "ranktable/base/size.h"

#define DEFAULT_PINGS 50
#define DEFAULT_CONNECT_TIMEOUT 10 /* s, SSH; HCCLCTL_CONNECT_TIMEOUT overrides */
#define HOSTFILE_CAP (16UL * 1024 * 1024)
#define TABLE_CAP RT_TABLE_MAX
#define QUIT_GRACE_MS 5000 /* the agents' SSH sessions may take this long to end */
#define TAIL_LINES 3

static const char *o_hosts, *o_hostfile, *o_ranktable, *o_agents, *o_user, *o_key, *o_known_hosts,
	*o_remote, *o_bytes, *o_secret_file;
static long o_port, o_parallel, o_timeout, o_duration, o_pings, o_listen;
static int o_insecure, o_agent;

const struct opt probe_net_opts[] = {
	OPT_STR("hosts", 0, &o_hosts, "HOST[,HOST...]", "the nodes to measure between"),
	OPT_PATH("hostfile", 0, &o_hostfile, "FILE",
		 "the nodes, one per line (SERVER [host_ip=IP])", COMPLETE_FILE),
	OPT_PATH("ranktable", 0, &o_ranktable, "FILE",
		 "the servers of this rank table (host_ip, else server_id)", COMPLETE_FILE),
	OPT_STR("agents", 0, &o_agents, "HOST:PORT[,...]",
		"agents already running there (--agent --listen), instead of SSH"),
	OPT_STR("ssh-user", 0, &o_user, "USER", "log in as USER (default: $USER)"),
	OPT_NUM("ssh-port", 0, &o_port, "PORT", "SSH port (default 22)", 1, 65535),
	OPT_PATH("ssh-key", 0, &o_key, "FILE",
		 "private key (default: ssh-agent, ~/.ssh/id_ed25519, ~/.ssh/id_rsa)",
		 COMPLETE_FILE),
	OPT_PATH("ssh-known-hosts", 0, &o_known_hosts, "FILE",
		 "known host keys (default ~/.ssh/known_hosts)", COMPLETE_FILE),
	OPT_BOOL("ssh-insecure", 0, &o_insecure, "do not check host keys (warns)"),
	OPT_NUM("parallel", 0, &o_parallel, "N", "SSH connects at once (default 32)", 1, 4096),
	OPT_PATH("remote-hcclctl", 0, &o_remote, "PATH",
		 "hcclctl on the nodes (default: hcclctl in their PATH)", COMPLETE_FILE),
	OPT_NUM("duration", 0, &o_duration, "MS",
		"how long each direction of each pair streams (default 400, unless --bytes)", 1,
		600000),
	OPT_STR("bytes", 0, &o_bytes, "SIZE", "stream SIZE bytes each way instead (K, M, G)"),
	OPT_NUM("pings", 0, &o_pings, "N", "one-byte round trips per pair (default 50)", 1, 100000),
	OPT_NUM("timeout", 0, &o_timeout, "SEC",
		"deadline of each pair's measurement and of the agents' start (default 30)", 1,
		3600),
	OPT_PATH("secret-file", 0, &o_secret_file, "FILE",
		 "the shared secret (32 hex digits) for --agents and --agent --listen",
		 COMPLETE_FILE),
	OPT_BOOL("agent", 0, &o_agent, "internal: be the agent on a node (secret on stdin)"),
	OPT_NUM("listen", 0, &o_listen, "PORT", "with --agent: listen on PORT and stay", 1, 65535),
	OPT_PROM,
	OPT_TERM,
};

/* ==== the launcher ==== */

static const char *exit_text(const struct fo_host *h, char *buf, size_t len)
{
	if (h->signal[0])
		snprintf(buf, len, "the agent was killed by signal %s", h->signal);
	else if (h->status == FO_FAILED && h->exit_status == 127)
		snprintf(buf, len,
			 "hcclctl not found there (exit 127); install it or pass "
			 "--remote-hcclctl PATH");
	else if (h->status == FO_FAILED && h->exit_status == 126)
		snprintf(buf, len, "hcclctl is not executable there (exit 126)");
	else if (h->status == FO_FAILED || h->status == FO_OK)
		snprintf(buf, len, "the agent exited %d", h->exit_status);
	else if (h->error[0])
		snprintf(buf, len, "%s", h->error);
	else
		snprintf(buf, len, "%s", fo_status_name(h->status));
	return buf;
}

static void launch_on_line(void *arg, const struct fo_host *h, int stream, const char *line,
			   size_t len)
{
	struct launch *L = arg;
	struct node *d = &L->nodes[h - L->hosts];
	struct np_msg m;
	char err[200];
	if (stream == SSH_STDERR) {
		if (g_opts.verbose)
			fprintf(stderr, "[%s] %.*s\n", d->name, (int)len, line);
		return;
	}
	pthread_mutex_lock(&L->mu);
	if (d->state == N_WAITING) {
		if (!np_msg_parse(&m, line, len, err, sizeof(err)) && m.kind == NP_READY) {
			d->port = m.port;
			d->state = N_READY;
		} else {
			d->state = N_DOWN;
			snprintf(d->why, sizeof(d->why), "the agent said \"%.*s\": %s",
				 (int)(len > 80 ? 80 : len), line, err);
		}
		pthread_cond_broadcast(&L->cv);
	}
	pthread_mutex_unlock(&L->mu);
}

static void launch_on_done(void *arg, const struct fo_host *h)
{
	struct launch *L = arg;
	struct node *d = &L->nodes[h - L->hosts];
	char what[SSH_ERRLEN + 100];
	pthread_mutex_lock(&L->mu);
	if (d->state == N_WAITING || d->state == N_READY) {
		const char *tail = fo_stderr_tail(h, 1);
		size_t tl = strcspn(tail, "\n");
		d->state = N_DOWN;
		/* no session: the situation "unreachable", as exec and run --ssh judge it */
		d->unreachable = (h->status == FO_UNREACHABLE || h->status == FO_TIMEOUT) &&
				 !h->connected;
		snprintf(d->why, sizeof(d->why), "%s%s%.*s", exit_text(h, what, sizeof(what)),
			 tl && h->connected ? ": " : "", h->connected ? (int)tl : 0, tail);
	}
	pthread_cond_broadcast(&L->cv);
	pthread_mutex_unlock(&L->mu);
}

static void *fanout_thread(void *arg)
{
	struct launch *L = arg;
	int rc = fanout_run(&L->f, L->hosts, L->n, L->fanout_err, sizeof(L->fanout_err));
	pthread_mutex_lock(&L->mu);
	L->fanout_rc = rc;
	L->fanout_done = 1;
	pthread_cond_broadcast(&L->cv);
	pthread_mutex_unlock(&L->mu);
	return NULL;
}

static void cond_wait_until(struct launch *L, long long deadline)
{
	struct timespec ts;
	long long l = deadline - mono_ms();
	if (l <= 0)
		return;
	if (l > 200)
		l = 200; /* wake up now and then for a signal */
	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += l / 1000;
	ts.tv_nsec += (l % 1000) * 1000000;
	if (ts.tv_nsec >= 1000000000) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000;
	}
	pthread_cond_timedwait(&L->cv, &L->mu, &ts);
}

/* Waits until every agent said its port or ended, or the deadline passes. */
static void wait_ready(struct launch *L, long long deadline)
{
	pthread_mutex_lock(&L->mu);
	for (;;) {
		size_t waiting = 0;
		for (size_t i = 0; i < L->n; i++)
			waiting += L->nodes[i].state == N_WAITING;
		if (!waiting || L->fanout_done || fo_signal_caught() || mono_ms() >= deadline)
			break;
		cond_wait_until(L, deadline);
	}
	for (size_t i = 0; i < L->n; i++)
		if (L->nodes[i].state == N_WAITING) {
			L->nodes[i].state = N_DOWN;
			snprintf(L->nodes[i].why, sizeof(L->nodes[i].why),
				 "the agent did not start within %lld s", L->timeout_ms / 1000);
		}
	pthread_mutex_unlock(&L->mu);
}

/* d is out of the run from here: why is "prefix what". */
static void node_down(struct launch *L, struct node *d, const char *prefix, const char *what)
{
	pthread_mutex_lock(&L->mu);
	d->state = N_DOWN;
	snprintf(d->why, sizeof(d->why), "%s%s", prefix, what);
	pthread_mutex_unlock(&L->mu);
	if (d->fd >= 0)
		close(d->fd);
	d->fd = -1;
	d->busy = 0;
}

/* The control connection to every agent that is ready. */
static void connect_agents(struct launch *L)
{
	for (size_t i = 0; i < L->n; i++) {
		struct node *d = &L->nodes[i];
		char err[SSH_ERRLEN];
		if (d->state != N_READY)
			continue;
		int fd = pnet_open_peer(d->addr, d->port, L->key, mono_ms() + L->timeout_ms, err,
					sizeof(err));
		/* no connection at all is the situation "unreachable"; a refusal is not */
		d->unreachable = fd == -1;
		d->fd = fd < 0 ? -1 : fd;
		if (fd < 0)
			node_down(L, d, "cannot reach its agent: ", err);
		else
			d->state = N_LIVE;
	}
}

static void record(struct launch *L, size_t a, size_t b, const struct np_msg *r)
{
	struct np_link *ab = np_link_at(&L->m, a, b), *ba = np_link_at(&L->m, b, a);
	if (r->kind == NP_RESULT) {
		ab->tries++;
		ba->tries++;
		/* a second measurement (a confirmation) keeps the better bandwidth of the two */
		if (!ab->measured || r->res.fwd_bps > ab->bps) {
			ab->bps = r->res.fwd_bps;
			ab->bytes = r->res.fwd_bytes;
		}
		if (!ba->measured || r->res.rev_bps > ba->bps) {
			ba->bps = r->res.rev_bps;
			ba->bytes = r->res.rev_bytes;
		}
		if (!ab->measured) {
			ab->rtt_us = ba->rtt_us = r->res.rtt_us;
			ab->rtt_p99_us = ba->rtt_p99_us = r->res.rtt_p99_us;
		}
		ab->measured = ba->measured = 1;
		if (g_opts.verbose)
			fprintf(stderr, "hcclctl: %s: %s <-> %s: %.1f / %.1f Mbit/s, rtt %.1f us\n",
				WHERE, L->nodes[a].name, L->nodes[b].name, ab->bps / 1e6,
				ba->bps / 1e6, ab->rtt_us);
		return;
	}
	if (L->confirming && ab->measured)
		return; /* the first measurement stands */
	ab->failed = ba->failed = 1;
	snprintf(ab->reason, sizeof(ab->reason), "%s", r->text);
	snprintf(ba->reason, sizeof(ba->reason), "%s", r->text);
}

/* Takes a complete line out of d's buffer: 1 with m filled, 0 when none yet, -1 on a bad
 * line (d goes down). */
static int take_line(struct launch *L, struct node *d, struct np_msg *m)
{
	char *nl = memchr(d->buf, '\n', d->blen);
	char err[300];
	if (!nl) {
		if (d->blen >= sizeof(d->buf) - 1) {
			node_down(L, d, "its agent sent ", "a line that is too long");
			return -1;
		}
		return 0;
	}
	size_t len = (size_t)(nl - d->buf);
	int rc = np_msg_parse(m, d->buf, len, err, sizeof(err));
	memmove(d->buf, nl + 1, d->blen - len - 1);
	d->blen -= len + 1;
	if (rc || (m->kind != NP_RESULT && m->kind != NP_ERROR)) {
		node_down(L, d, "its agent sent a bad result: ", rc ? err : "not a result");
		return -1;
	}
	return 1;
}

/* One round of disjoint pairs (node indices): every pair's first node measures towards the
 * second, all at once. */
static void run_round(struct launch *L, size_t (*pairs)[2], size_t np)
{
	size_t pending = 0;
	struct pollfd *p = calloc(L->n, sizeof(*p));
	size_t *who = calloc(L->n, sizeof(*who));
	if (!p || !who)
		np = 0;
	for (size_t k = 0; k < np; k++) {
		struct node *a = &L->nodes[pairs[k][0]], *b = &L->nodes[pairs[k][1]];
		if (a->state != N_LIVE || b->state != N_LIVE)
			continue;
		struct np_msg m = {.kind = NP_MEASURE,
				   .port = b->port,
				   .ms = L->ms,
				   .bytes = L->bytes,
				   .pings = L->pings};
		snprintf(m.host, sizeof(m.host), "%s", b->addr);
		int rc = pnet_send_msg(a->fd, &m, mono_ms() + L->timeout_ms);
		if (rc) {
			node_down(L, a, "lost its agent: ", pnet_errtext(rc));
			continue;
		}
		a->busy = 1;
		a->peer = pairs[k][1];
		pending++;
	}
	/* The agent gives up each step at the timeout and says so; a few seconds more here
	 * tell a slow answer from a lost agent. */
	long long deadline = mono_ms() + L->timeout_ms + 5000;
	while (pending && !fo_signal_caught()) {
		size_t np2 = 0;
		for (size_t i = 0; i < L->n; i++)
			if (L->nodes[i].busy) {
				p[np2] = (struct pollfd){.fd = L->nodes[i].fd, .events = POLLIN};
				who[np2++] = i;
			}
		int n = poll(p, np2, pnet_left_ms(deadline) > 200 ? 200 : pnet_left_ms(deadline));
		if (n < 0 && errno != EINTR)
			break;
		if (n <= 0) {
			if (mono_ms() < deadline)
				continue;
			for (size_t k = 0; k < np2; k++) {
				struct node *d = &L->nodes[who[k]];
				struct np_msg m = {.kind = NP_ERROR};
				snprintf(m.text, sizeof(m.text), "no result within %lld s",
					 (L->timeout_ms + 5000) / 1000);
				record(L, who[k], d->peer, &m);
				node_down(L, d, "its agent did not answer within ", "the timeout");
			}
			break;
		}
		for (size_t k = 0; k < np2; k++) {
			struct node *d = &L->nodes[who[k]];
			if (!p[k].revents)
				continue;
			ssize_t got = recv(d->fd, d->buf + d->blen, sizeof(d->buf) - 1 - d->blen,
					   MSG_DONTWAIT);
			if (got <= 0 && !(got < 0 && (errno == EAGAIN || errno == EINTR))) {
				node_down(L, d, "lost its agent: ",
					  got == 0 ? "connection closed" : strerror(errno));
				pending--;
				continue;
			}
			if (got > 0)
				d->blen += (size_t)got;
			struct np_msg m;
			int rc = take_line(L, d, &m);
			if (rc == 0)
				continue;
			pending--;
			if (rc > 0) {
				record(L, who[k], d->peer, &m);
				d->busy = 0;
			}
		}
	}
	free(p);
	free(who);
}

/* The tournament over the live nodes, then a second measurement of every pair with a link
 * that came out slow: a link is named only when both say so (the better one counts), so a
 * passing stall on a busy node is not reported as a slow link. */
static void measure_all(struct launch *L)
{
	size_t *live = calloc(L->n, sizeof(*live)), nlive = 0;
	size_t(*pairs)[2] = calloc(L->n / 2 + 1, sizeof(*pairs));
	char *unmeasured = calloc(L->n * L->n, 1);
	if (!live || !pairs || !unmeasured)
		goto out;
	for (size_t i = 0; i < L->n; i++)
		if (L->nodes[i].state == N_LIVE)
			live[nlive++] = i;
	L->rounds = np_rounds(nlive);
	for (size_t r = 0; r < L->rounds && !fo_signal_caught(); r++) {
		size_t np = np_round_pairs(nlive, r, pairs);
		for (size_t k = 0; k < np; k++) {
			pairs[k][0] = live[pairs[k][0]];
			pairs[k][1] = live[pairs[k][1]];
		}
		run_round(L, pairs, np);
	}

	np_matrix_judge(&L->m, SLOW_FRACTION);
	size_t left = 0;
	for (size_t i = 0; i < L->n; i++)
		for (size_t j = 0; j < L->n; j++)
			if (np_link_at(&L->m, i, j)->status == PROBE_WARN) {
				size_t a = i < j ? i : j, b = i < j ? j : i;
				left += !unmeasured[a * L->n + b];
				unmeasured[a * L->n + b] = 1;
			}
	L->confirming = 1;
	while (left && !fo_signal_caught()) {
		/* greedily, as many disjoint suspect pairs at once as there are */
		size_t np = 0;
		for (size_t a = 0; a < L->n; a++)
			for (size_t b = a + 1; b < L->n; b++) {
				if (!unmeasured[a * L->n + b])
					continue;
				int clash = 0;
				for (size_t k = 0; k < np && !clash; k++)
					clash = pairs[k][0] == a || pairs[k][1] == a ||
						pairs[k][0] == b || pairs[k][1] == b;
				if (clash)
					continue;
				pairs[np][0] = a;
				pairs[np][1] = b;
				np++;
				unmeasured[a * L->n + b] = 0;
				left--;
			}
		L->confirm_rounds++;
		run_round(L, pairs, np);
	}
	for (size_t i = 0; i < L->n; i++) {
		struct node *d = &L->nodes[i];
		if (d->fd < 0)
			continue;
		struct np_msg q = {.kind = NP_QUIT};
		pnet_send_msg(d->fd, &q, mono_ms() + 1000);
		close(d->fd);
		d->fd = -1;
	}
out:
	free(live);
	free(pairs);
	free(unmeasured);
}

/* ---- where the nodes come from ---- */

static int add_node(struct launch *L, const char *name, const char *addr)
{
	for (size_t i = 0; i < L->n; i++)
		if (!strcmp(L->nodes[i].addr, addr))
			return 0; /* a rank table lists a server once per device */
	struct node *d = &L->nodes[L->n++];
	d->name = name;
	d->addr = addr;
	d->fd = -1;
	return 0;
}

/* --hosts and --hostfile through the hostfile parser (names are checked there). */
static int load_hostfile(struct launch *L, struct rt_hostfile *hf)
{
	char err[RT_ERRLEN] = "";
	struct rt_diags d = {0};
	char *buf = NULL;
	size_t len = 0;
	const char *name;
	int rc;
	if (o_hosts) {
		rc = rt_hostlist_expand(o_hosts, strlen(o_hosts), &buf, &len, err, sizeof(err));
		if (rc)
			return fail(rc == -ENOMEM ? EXIT_UNKNOWN : EXIT_USAGE, WHERE,
				    "e.g. --hosts gpu1,gpu2 or --hosts 'gpu[01-16]'", "--hosts: %s", err);
		name = "--hosts";
	} else {
		rc = rt_read_file(o_hostfile, HOSTFILE_CAP, &buf, &len, err, sizeof(err));
		if (rc)
			return fail(EXIT_UNKNOWN, WHERE, NULL, "%s", err);
		name = o_hostfile;
	}
	rc = o_hosts ? rt_hostfile_parse_list(hf, name, buf, len, &d, err, sizeof(err))
		     : rt_hostfile_parse(hf, name, buf, len, &d, err, sizeof(err));
	free(buf);
	print_findings(&d, name);
	rt_diags_release(&d);
	if (rc == -ENOMEM)
		return fail(EXIT_UNKNOWN, WHERE, NULL, "out of memory");
	if (rc)
		return fail(o_hosts ? EXIT_USAGE : EXIT_FAIL, WHERE,
			    o_hosts ? "list hosts like --hosts node1,node2" : NULL, "%s", err);
	L->nodes = calloc(hf->n ? hf->n : 1, sizeof(*L->nodes));
	if (!L->nodes)
		return fail(EXIT_UNKNOWN, WHERE, NULL, "out of memory");
	for (size_t i = 0; i < hf->n; i++)
		add_node(L, hf->v[i].server_id,
			 hf->v[i].host_ip ? hf->v[i].host_ip : hf->v[i].server_id);
	return 0;
}

static int load_ranktable(struct launch *L, struct rt_table *t)
{
	char err[RT_ERRLEN] = "";
	struct rt_diags d = {0};
	char *buf = NULL;
	size_t len = 0;
	int rc = fetch_input(o_ranktable, TABLE_CAP, &buf, &len, err, sizeof(err));
	if (rc)
		return fail(EXIT_UNKNOWN, WHERE, NULL, "%s", err);
	rc = rt_table_load(t, o_ranktable, buf, len, &d, err, sizeof(err));
	free(buf);
	rt_diags_sort(&d);
	/* Where hcclctl connects, a server it cannot name or reach safely is an error. */
	rt_diags_connect(&d);
	if (!rc && (t->format == RT_FMT_VLLM_PD || t->format == RT_FMT_GLOBAL ||
		    t->format == RT_FMT_GE_CLUSTER)) {
		rt_diags_release(&d);
		return fail(EXIT_FAIL, WHERE,
			    "give the HCCL rank table of the job (server_list or rank_list)",
			    "%s is a %s table, which HCCL does not read; nothing was measured",
			    o_ranktable, rt_format_name(t->format));
	}
	if (rc || d.nerrors) {
		print_findings(&d, o_ranktable);
		rt_diags_release(&d);
		if (rc == -ENOMEM)
			return fail(EXIT_UNKNOWN, WHERE, NULL, "out of memory");
		return fail(EXIT_FAIL, WHERE, "fix it; 'hcclctl ranktable validate' checks it",
			    "the rank table %s has errors; nothing was measured", o_ranktable);
	}
	rt_diags_release(&d);
	L->nodes = calloc(t->nranks ? t->nranks : 1, sizeof(*L->nodes));
	if (!L->nodes)
		return fail(EXIT_UNKNOWN, WHERE, NULL, "out of memory");
	for (size_t i = 0; i < t->nranks; i++) {
		const struct rt_rank *k = &t->ranks[i];
		const char *addr = k->host_ip && *k->host_ip ? k->host_ip : k->server_id;
		if (!addr || !*addr || rt_host_unsafe_at(addr) >= 0 ||
		    (k->server_id && rt_host_unsafe_at(k->server_id) >= 0))
			return fail(
				EXIT_FAIL, WHERE, NULL,
				"%s: rank %ld: refusing server \"%.64s\": not a host name or IP",
				o_ranktable, k->rank_id, addr ? addr : "");
		add_node(L, k->server_id && *k->server_id ? k->server_id : addr, addr);
	}
	return 0;
}

/* --agents HOST:PORT,...: the copy in *buf is cut in place and owned by the caller. */
static int load_agents(struct launch *L, char **buf)
{
	size_t cap = 1;
	*buf = strdup(o_agents);
	if (!*buf)
		return fail(EXIT_UNKNOWN, WHERE, NULL, "out of memory");
	for (const char *p = o_agents; *p; p++)
		cap += *p == ',';
	L->nodes = calloc(cap, sizeof(*L->nodes));
	if (!L->nodes)
		return fail(EXIT_UNKNOWN, WHERE, NULL, "out of memory");
	for (char *s = *buf, *next; s; s = next) {
		next = strchr(s, ',');
		if (next)
			*next++ = '\0';
		char *colon = strrchr(s, ':'), *end;
		long port = colon ? strtol(colon + 1, &end, 10) : 0;
		if (!colon || colon == s || !colon[1] || *end || port < 1 || port > 65535)
			return fail(EXIT_USAGE, WHERE, "like --agents node1:7700,node2:7700",
				    "--agents: \"%s\" is not HOST:PORT", s);
		*colon = '\0';
		if (rt_host_unsafe_at(s) >= 0)
			return fail(EXIT_USAGE, WHERE, NULL,
				    "--agents: \"%s\" is not a host name or IP", s);
		size_t before = L->n;
		add_node(L, s, s);
		if (L->n == before)
			return fail(EXIT_USAGE, WHERE, NULL, "--agents: %s is listed twice", s);
		L->nodes[L->n - 1].port = (int)port;
		L->nodes[L->n - 1].state = N_READY;
	}
	return 0;
}

/* ---- the command ---- */

static int check_usage(void)
{
	int nsrc = !!o_hosts + !!o_hostfile + !!o_ranktable + !!o_agents;
	if (o_agent) {
		if (nsrc || o_user || o_port || o_key || o_known_hosts || o_insecure ||
		    o_parallel || o_remote || o_duration || o_bytes || o_pings || prom_path)
			return fail(
				EXIT_USAGE, WHERE,
				"the agent takes only --listen, --secret-file "
				"and --timeout",
				"--agent is the node side: give it no nodes or measuring options");
		return 0;
	}
	if (o_listen)
		return fail(EXIT_USAGE, WHERE, NULL, "--listen is for --agent");
	if (nsrc != 1)
		return fail(EXIT_USAGE, WHERE, "see 'hcclctl probe net --help'",
			    "give exactly one of --hosts, --hostfile, --ranktable and --agents");
	if (o_agents &&
	    (o_user || o_port || o_key || o_known_hosts || o_insecure || o_parallel || o_remote))
		return fail(EXIT_USAGE, WHERE, NULL,
			    "--agents uses running agents: the --ssh-* options do not apply");
	if (o_agents && !o_secret_file)
		return fail(EXIT_USAGE, WHERE, "the file the agents were started with",
			    "--agents needs --secret-file");
	if (!o_agents && o_secret_file)
		return fail(EXIT_USAGE, WHERE, NULL,
			    "--secret-file is for --agents: over SSH a fresh secret is made");
	return 0;
}

/* The nodes from whichever of --agents, --ranktable and --hosts/--hostfile was given, at
 * least 2, and the SSH files readable. What is loaded stays the caller's to release. */
static int load_nodes(struct launch *L, char **agents_buf, struct rt_table *t,
		      struct rt_hostfile *hf)
{
	int rc;
	if (o_agents)
		rc = load_agents(L, agents_buf);
	else if (o_ranktable)
		rc = load_ranktable(L, t);
	else
		rc = load_hostfile(L, hf);
	if (rc)
		return rc;
	if (L->n < 2)
		return fail(EXIT_USAGE, WHERE, NULL,
			    "need at least 2 nodes to measure between, got %zu", L->n);
	if ((o_key && access(o_key, R_OK)) || (o_known_hosts && access(o_known_hosts, R_OK))) {
		const char *f = o_key && access(o_key, R_OK) ? o_key : o_known_hosts;
		return fail(EXIT_UNKNOWN, WHERE, NULL, "cannot read '%s': %s", f, strerror(errno));
	}
	return 0;
}

/* The agents leave on "quit"; what has not ended soon is stopped. Joins the fan-out. */
static void fanout_finish(struct launch *L, pthread_t ft)
{
	long long dl = mono_ms() + QUIT_GRACE_MS;
	pthread_mutex_lock(&L->mu);
	while (!L->fanout_done && mono_ms() < dl && !fo_signal_caught())
		cond_wait_until(L, dl);
	pthread_mutex_unlock(&L->mu);
	fo_cancel_fire(&L->cancel);
	pthread_join(ft, NULL);
}

/* The measuring options into L, and the SSH connect timeout (s) into *ctmo. */
static int read_settings(struct launch *L, long *ctmo)
{
	L->timeout_ms = (o_timeout ? o_timeout : 30) * 1000;
	L->pings = o_pings ? o_pings : DEFAULT_PINGS;
	if (o_bytes) {
		if (parse_size(o_bytes, &L->bytes) || L->bytes < 1 || L->bytes > (1ULL << 40))
			return fail(EXIT_USAGE, WHERE, "a size like 64M or 1G, at least 1",
				    "invalid --bytes '%s'", o_bytes);
	}
	L->ms = o_duration ? o_duration : o_bytes ? 0 : DEFAULT_DURATION_MS;
	*ctmo = env_seconds("HCCLCTL_CONNECT_TIMEOUT", DEFAULT_CONNECT_TIMEOUT);
	if (*ctmo < 0)
		return fail(EXIT_USAGE, WHERE, "a whole number of seconds, at least 1",
			    "invalid HCCLCTL_CONNECT_TIMEOUT");
	return 0;
}

/* A fresh secret and the fan-out that starts an agent on every node over SSH. *cmdline (the
 * remote command) and L->hosts are the caller's to free, also on failure. */
static int fanout_setup(struct launch *L, long ctmo, char **cmdline, char *secret_line)
{
	int rc;
	/* A fresh secret for this run, to the agents on their stdin. */
	if (getrandom(L->key, sizeof(L->key), 0) != (ssize_t)sizeof(L->key))
		return fail(EXIT_UNKNOWN, WHERE, NULL, "getrandom: %s", strerror(errno));
	pnet_hex_of(L->key, sizeof(L->key), secret_line);
	secret_line[NP_SECRET_HEX] = '\n';
	secret_line[NP_SECRET_HEX + 1] = '\0';
	char tmo[24];
	snprintf(tmo, sizeof(tmo), "%lld", L->timeout_ms / 1000);
	const char *w[] = {
		o_remote ? o_remote : "hcclctl", "probe", "net", "--agent", "--timeout", tmo};
	char *words = sh_join(6, w);
	L->hosts = calloc(L->n, sizeof(*L->hosts));
	*cmdline = words ? malloc(strlen(words) + 8) : NULL;
	if (!L->hosts || !*cmdline) {
		free(words);
		return fail(EXIT_UNKNOWN, WHERE, NULL, "out of memory");
	}
	snprintf(*cmdline, strlen(words) + 8, "exec %s", words);
	free(words);
	for (size_t i = 0; i < L->n; i++) {
		L->hosts[i].host = L->nodes[i].addr;
		L->hosts[i].name = L->nodes[i].name;
	}
	if ((rc = fo_cancel_init(&L->cancel)))
		return fail(EXIT_UNKNOWN, WHERE, NULL, "pipe: %s", strerror(-rc));
	if (o_insecure)
		warn_msg(WHERE, "--ssh-insecure: host keys are not checked; anyone on the "
				"path can pose as these hosts");
	L->f = (struct fanout){
		.ssh = {.user = o_user,
			.port = (int)o_port,
			.key = o_key,
			.known_hosts = o_known_hosts,
			.insecure = o_insecure,
			.cancel_fd = L->cancel.fd[0]},
		.cmd = *cmdline,
		.parallel = (int)L->n, /* every agent stays up for the whole run */
		.connect_parallel = o_parallel ? (int)o_parallel : 32,
		.connect_timeout_ms = ctmo * 1000,
		.keepalive_s = 10,
		.cap = 256 * 1024,
		.input = secret_line,
		.input_len = strlen(secret_line),
		.on_line = launch_on_line,
		.on_done = launch_on_done,
		.arg = L,
	};
	return 0;
}

/* The verdict of the run: every link's and node's, a node out of the run's own
 * (pnet_down_status: the situation table's for one never reached), and UNKNOWN for a run
 * that measured nothing; *ndown counts the nodes out. */
static enum probe_status judge(struct launch *L, size_t *ndown)
{
	np_matrix_judge(&L->m, SLOW_FRACTION);
	enum probe_status overall = PROBE_PASS;
	*ndown = 0;
	for (size_t i = 0; i < L->n; i++) {
		if (L->nodes[i].state == N_DOWN) {
			(*ndown)++;
			overall = probe_status_worst(overall, pnet_down_status(&L->nodes[i]));
		}
		overall = probe_status_worst(overall, L->m.node[i].status);
	}
	for (size_t i = 0; i < L->n * L->n; i++)
		if (L->m.l[i].status != PROBE_SKIP)
			overall = probe_status_worst(overall, L->m.l[i].status);
	if (!L->m.nmeasured)
		overall = probe_status_worst(overall, PROBE_UNKNOWN);
	return overall;
}

/* Closes the control connections and frees what L holds (not L). */
static void launch_release(struct launch *L)
{
	for (size_t i = 0; L->nodes && i < L->n; i++)
		if (L->nodes[i].fd >= 0)
			close(L->nodes[i].fd);
	for (size_t i = 0; L->hosts && i < L->n; i++)
		fo_host_release(&L->hosts[i]);
	fo_cancel_release(&L->cancel);
	np_matrix_release(&L->m);
	free(L->hosts);
	free(L->nodes);
}

int probe_net_run(int argc, char **argv)
{
	struct launch L = {.cancel = {{-1, -1}}};
	struct rt_hostfile hf = {0};
	struct rt_table t = {0};
	char *agents_buf = NULL, *cmdline = NULL, secret_line[NP_SECRET_HEX + 2];
	pthread_t ft;
	int rc, ft_up = 0, sync_up = 0;
	(void)argc;
	(void)argv;

	if ((rc = check_usage()))
		return rc;
	if (o_agent)
		return pnet_agent_main(o_timeout, o_listen, o_secret_file);

	long ctmo = 0;
	if ((rc = read_settings(&L, &ctmo)))
		return rc;

	if ((rc = load_nodes(&L, &agents_buf, &t, &hf)))
		goto out;
	if (np_matrix_init(&L.m, L.n)) {
		rc = fail(EXIT_UNKNOWN, WHERE, NULL, "out of memory");
		goto out;
	}
	signal(SIGPIPE, SIG_IGN);
	pthread_mutex_init(&L.mu, NULL);
	pthread_cond_init(&L.cv, NULL);
	sync_up = 1;
	long long t0 = mono_ms();

	if (o_agents) {
		if ((rc = pnet_read_secret(L.key, "--secret-file", o_secret_file)))
			goto out;
	} else {
		if ((rc = fanout_setup(&L, ctmo, &cmdline, secret_line)))
			goto out;
	}
	/* no SA_RESTART: a signal also ends this thread's waits */
	fo_cancel_on_signals(o_agents ? NULL : &L.cancel, 0);

	if (!o_agents) {
		if (pthread_create(&ft, NULL, fanout_thread, &L)) {
			rc = fail(EXIT_UNKNOWN, WHERE, NULL, "cannot start a thread");
			goto out_sig;
		}
		ft_up = 1;
		wait_ready(&L, mono_ms() + ctmo * 1000 + L.timeout_ms);
	}
	connect_agents(&L);
	measure_all(&L);

	if (ft_up) {
		fanout_finish(&L, ft);
		ft_up = 0;
		if (L.fanout_rc) {
			rc = fail(EXIT_UNKNOWN, WHERE, NULL, "%s", L.fanout_err);
			goto out_sig;
		}
	}
	L.seconds = (double)(mono_ms() - t0) / 1000.0;
	if (fo_signal_caught()) {
		rc = fail(128 + fo_signal_caught(), WHERE, NULL,
			  "interrupted by %s: stopped every agent", strsignal(fo_signal_caught()));
		goto out_sig;
	}

	size_t ndown;
	enum probe_status overall = judge(&L, &ndown);
	rc = probe_status_exit(overall);
	if (g_opts.json || prom_path)
		pnet_print_json(&L, overall, g_opts.strict && rc == EXIT_WARN ? EXIT_FAIL : rc);
	if (!g_opts.json)
		pnet_print_text(&L, overall);
	rc = probe_prom_exit(rc);
	for (size_t i = 0; i < L.n; i++)
		if (L.nodes[i].state == N_DOWN)
			fail(rc, WHERE, NULL, "%s: not measured: %s%s", L.nodes[i].name,
			     L.nodes[i].unreachable ? "unreachable: " : "", L.nodes[i].why);
	if (ndown && !o_agents)
		fprintf(stderr, "hint: check that sshd runs there and that hcclctl is installed "
				"(--remote-hcclctl PATH)\n");
out_sig:
	fo_cancel_signals_off();
out:
	if (ft_up) {
		fo_cancel_fire(&L.cancel);
		pthread_join(ft, NULL);
	}
	if (sync_up) {
		pthread_cond_destroy(&L.cv);
		pthread_mutex_destroy(&L.mu);
	}
	launch_release(&L);
	free(cmdline);
	free(agents_buf);
	rt_hostfile_release(&hf);
	rt_table_release(&t);
	return rc;
}
