/* Launch mode 4 of `hcclctl run`: `--ranktable FILE --ssh` starts one rank per rank-table
 * entry on its server over SSH and coordinates them.
 *
 * The launcher (this process) hosts the rendezvous in a thread (it forks nothing, so a
 * thread is safe here) on an address the servers reach: --master-addr, else the local
 * address of the route to the first server. Each rank gets a fresh 128-bit secret on its
 * stdin (never on a command line, where `ps` would show it), its host name and the table's
 * digest in the environment, and `--ranktable PATH` when the table is a local file, so that
 * the rank computes the digest of its own node's copy and refuses to start when it differs.
 *
 * One SSH session per server: its command is `hcclctl run-node` (runnode.c), which forks
 * the server's ranks and relays their lines and ends tagged with the rank, so 64 servers of
 * 8 ranks are 64 sessions, not 512. HCCLCTL_SSH_SESSIONS=rank gives the older one session
 * per rank (the bench compares the two). Before its command, each session makes sure the
 * server has this hcclctl (deploy.c: its own when it is the same version, else a copy in the
 * login user's cache); --remote-hcclctl PATH is used as given.
 *
 * The SSH sessions are the status channel: rank 0's stdout streams to ours as its rows come;
 * every rank's stderr is kept. The first rank that cannot start, exits non-zero or is killed
 * cancels the others (their remote process groups get TERM, then KILL) and is named with
 * its last stderr lines. A rank that exits non-zero is often a consequence (a peer died and
 * it lost the connection), so its cancel waits a moment for a harder cause to arrive: a
 * killed rank or an unreachable node is named before the ranks that merely noticed it.
 *
 * Ctrl-C is a request, not a cancel: each session writes "interrupt" to its run-node's
 * stdin, run-node passes it to its ranks as SIGINT, and they stop together at the next
 * row as --local's do (runstop.c): rank 0's rows and footer come back as ever, each rank
 * ends with 130, and the report says "interrupted". A second Ctrl-C, a TERM, or ranks
 * still running RUNSSH_INTERRUPT_GRACE_MS later cancel as above. (One session per rank,
 * HCCLCTL_SSH_SESSIONS=rank, has no run-node to ask: Ctrl-C cancels there.) */
#include <arpa/inet.h>
#include <errno.h>
#include <limits.h>
#include <netdb.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "cmd/cli/cli.h"
#include "cmd/lib/nodeout.h"
#include "ranktable/ranktable.h"
#include "cmd/run/runssh.h"
#include "ranktable/base/clock.h"
#include "ranktable/base/env.h"
#include "ranktable/base/plural.h"

#define TABLE_CAP (64UL * 1024 * 1024)
#define DEFAULT_CONNECT_TIMEOUT 10 /* s, for SSH; HCCLCTL_CONNECT_TIMEOUT overrides */
#define DEFAULT_CONNECT_PARALLEL 32
#define KEEPALIVE_S 10
#define SOFT_GRACE_MS 500 /* a rank's non-zero exit waits this long for a harder cause */
#define HARD_WAIT_MS 1500 /* a lost node or killed rank waits this long for the verdict */
#define VERDICT_GRACE_MS 3000 /* survivors of a verdict get this long to end themselves */

/* ---- the launcher ---- */


static int rank_of(const struct ssh_run *s, const struct fo_host *h)
{
	return (int)(h - s->srv);
}


static void rank_ended(struct ssh_run *s, int r);

static void print_line(const struct ssh_run *s, const struct fo_host *h, int r, int stream,
		       const char *line, size_t len, int nl)
{
	(void)s;
	if (stream == SSH_STDOUT && r == 0 && !g_opts.json) {
		fwrite(line, 1, len, stdout);
		if (nl)
			putchar('\n');
		fflush(stdout);
	} else if (stream == SSH_STDERR && g_opts.verbose) {
		fprintf(stderr, "[rank %d %s] %.*s\n", r, h->name ? h->name : h->host, (int)len,
			line);
	}
}

/* A rank's "exit N" or "signal NAME" from run-node. After our own cancel, a rank ended by
 * a signal was stopped by it, not killed. */
static void rank_end_line(struct ssh_run *s, int r, const char *p, size_t len)
{
	struct fo_host *k = &s->hosts[r];
	char word[48];
	snprintf(word, sizeof(word), "%.*s", (int)len, p);
	k->connected = 1;
	int asked = fo_cancel_fired(&s->cancel) || fo_cancel_fired(&s->interrupt);
	if (!strncmp(word, "signal ", 7)) {
		snprintf(k->signal, sizeof(k->signal), "%.31s", word + 7);
		k->exit_status = -1;
		k->status = asked ? FO_CANCELED : FO_FAILED;
	} else {
		k->exit_status = atoi(word + 5);
		k->status = !k->exit_status ? FO_OK :
			    asked && k->exit_status == EXIT_INTERRUPT ? FO_CANCELED : FO_FAILED;
	}
	fo_host_clean_stderr(k);
	rank_ended(s, r);
}

/* A row rank 0 streamed as it measured it (RUN_ROW_LINE): kept for the document of a run
 * whose rank 0 ends without its own, up to a session's cap; 0 for any other line. */
static int row_line(struct ssh_run *s, const char *p, size_t len)
{
	size_t w = strlen(RUN_ROW_LINE);
	if (len < w || memcmp(p, RUN_ROW_LINE, w))
		return 0;
	if (s->rows_bytes + len > RUNSSH_KEEP_MAX)
		return 1;
	cJSON *row = cJSON_ParseWithLength(p + w, len - w);
	if (!cJSON_IsObject(row) || (!s->rows && !(s->rows = cJSON_CreateArray()))) {
		cJSON_Delete(row);
		return 1;
	}
	cJSON_AddItemToArray(s->rows, row);
	s->rows_bytes += len;
	if (g_opts.verbose) { /* progress, as -v shows the ranks' other lines */
		const struct fo_host *h0 = &s->hosts[0];
		fprintf(stderr, "[rank 0 %s] row %.*s\n", h0->name ? h0->name : h0->host,
			(int)(len - w), p + w);
	}
	return 1;
}

/* Called with the fan-out's lock held: lines never interleave. */
static void on_line(void *arg, const struct fo_host *h, int stream, const char *line,
		    size_t len)
{
	struct ssh_run *s = arg;
	int r;
	char kind;
	const char *p;
	size_t pl;
	if (s->per_rank) {
		print_line(s, h, rank_of(s, h), stream, line, len, 1);
		return;
	}
	if (!run_node_tag(line, len, &r, &kind, &p, &pl) || r < 0 || (size_t)r >= s->n ||
	    s->srv_of[r] != rank_of(s, h)) {
		if (stream == SSH_STDERR && g_opts.verbose) /* the session's own: a shell's error */
			fprintf(stderr, "[%s] %.*s\n", h->name ? h->name : h->host, (int)len, line);
		return;
	}
	if (kind == '=') {
		rank_end_line(s, r, p, pl);
		return;
	}
	if (r == 0 && stream == SSH_STDOUT && kind == ' ' && row_line(s, p, pl))
		return;
	struct ssh_buf *b = stream == SSH_STDOUT ? &s->hosts[r].out : &s->hosts[r].err;
	ssh_buf_keep(b, RUNSSH_KEEP_MAX, p, pl);
	if (kind == ' ')
		ssh_buf_keep(b, RUNSSH_KEEP_MAX, "\n", 1);
	print_line(s, h, r, stream, p, pl, kind == ' ');
}

/* A session's lines that are not its ranks' (the shell's or ssh's), into dst. */
static void untagged(const struct ssh_buf *src, struct ssh_buf *dst)
{
	const char *p = src->p, *end = p ? p + src->len : NULL;
	while (p && p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = nl ? (size_t)(nl - p) + 1 : (size_t)(end - p);
		if (*p != RUN_NODE_TAG)
			ssh_buf_keep(dst, 64 * 1024, p, l);
		p += l;
	}
}

static void on_done(void *arg, const struct fo_host *h)
{
	struct ssh_run *s = arg;
	if (s->per_rank) {
		rank_ended(s, rank_of(s, h));
		return;
	}
	/* the ranks that did not say how they ended share their session's end */
	for (size_t r = 0; r < s->n; r++) {
		struct fo_host *k = &s->hosts[r];
		if (s->srv_of[r] != rank_of(s, h) || s->end_seq[r])
			continue;
		k->status = h->status == FO_OK ? FO_FAILED : h->status;
		k->code = h->code;
		k->connected = h->connected;
		k->exit_status = h->exit_status;
		memcpy(k->signal, h->signal, sizeof(k->signal));
		memcpy(k->error, h->error, sizeof(k->error));
		untagged(&h->err, &k->err);
		fo_host_clean_stderr(k);
		s->from_srv[r] = 1;
		rank_ended(s, (int)r);
	}
}

static void rank_ended(struct ssh_run *s, int r)
{
	const struct fo_host *h = &s->hosts[r];
	pthread_mutex_lock(&s->mu);
	s->end_seq[r] = ++s->seq;
	s->ended++;
	switch (h->status) {
	case FO_OK:
	case FO_CANCELED:
	case FO_PENDING:
		break;
	case FO_FAILED:
		if (!h->signal[0]) {
			if (!s->soft++)
				s->soft_ms = mono_ms();
			break;
		}
		/* killed by a signal we did not send */
		if (!s->hard++)
			s->hard_ms = mono_ms();
		break;
	case FO_UNREACHABLE:
	case FO_TIMEOUT:
	case FO_NOSTART:
		if (!s->hard++)
			s->hard_ms = mono_ms();
		break;
	}
	pthread_cond_signal(&s->cv);
	pthread_mutex_unlock(&s->mu);
}

/* Decides when to stop the ranks still running. With the monitor's verdict: print it at
 * once, and cancel when only the culprit is left or after VERDICT_GRACE_MS (the survivors
 * end by themselves once they have it; a stopped or cut-off rank never will). Without one: a
 * hard failure (a node lost, a rank killed) waits HARD_WAIT_MS for the verdict, a rank that
 * merely exited non-zero SOFT_GRACE_MS for a harder cause; then the cancel fires. After
 * Ctrl-C: the ranks get RUNSSH_INTERRUPT_GRACE_MS to end, as they were asked. */
static void *watcher(void *arg)
{
	struct ssh_run *s = arg;
	pthread_mutex_lock(&s->mu);
	while (!s->finished) {
		long long now = mono_ms();
		if (!s->interrupt_ms && fo_cancel_fired(&s->interrupt))
			s->interrupt_ms = now;
		/* after Ctrl-C the ranks stop by themselves: a verdict would be of their stopping */
		if (!s->interrupt_ms && !s->have_verdict &&
		    comm_rendezvous_verdict(s->rdv, &s->verdict)) {
			s->have_verdict = 1;
			s->verdict_ms = now;
			run_verdict_print(&s->verdict);
		}
		int fire = 0;
		if (s->interrupt_ms) {
			fire = now - s->interrupt_ms > RUNSSH_INTERRUPT_GRACE_MS;
		} else if (s->have_verdict) {
			const struct comm_verdict *v = &s->verdict;
			int culprit_left = v->rank >= 0 && (size_t)v->rank < s->n &&
					   !s->end_seq[v->rank] && s->ended + 1 == (int)s->n;
			fire = culprit_left || now - s->verdict_ms > VERDICT_GRACE_MS;
		} else if (s->hard) {
			fire = now - s->hard_ms > HARD_WAIT_MS;
		} else if (s->soft) {
			fire = now - s->soft_ms > SOFT_GRACE_MS;
		}
		if (fire) {
			fo_cancel_fire(&s->cancel);
			break;
		}
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += 50 * 1000000L; /* the verdict is polled */
		if (ts.tv_nsec >= 1000000000) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000;
		}
		pthread_cond_timedwait(&s->cv, &s->mu, &ts);
	}
	pthread_mutex_unlock(&s->mu);
	return NULL;
}

int run_route_addr(const char *host, char *out, size_t len, char *err, size_t errlen)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_DGRAM,
				  .ai_flags = AI_NUMERICSERV };
	struct addrinfo *res = NULL;
	int rc = getaddrinfo(host, "22", &hints, &res);
	if (rc) {
		snprintf(err, errlen, "%s: cannot resolve: %s", host, gai_strerror(rc));
		return -1;
	}
	rc = -1;
	snprintf(err, errlen, "%s: no route", host);
	for (struct addrinfo *ai = res; ai && rc; ai = ai->ai_next) {
		int fd = socket(ai->ai_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
		struct sockaddr_storage ss;
		socklen_t sl = sizeof(ss);
		if (fd < 0)
			continue;
		/* a UDP connect sends nothing: it only picks the route and the source address */
		if (connect(fd, ai->ai_addr, ai->ai_addrlen) == 0 &&
		    getsockname(fd, (struct sockaddr *)&ss, &sl) == 0) {
			const void *a = ss.ss_family == AF_INET6 ?
						(const void *)&((struct sockaddr_in6 *)&ss)->sin6_addr :
						(const void *)&((struct sockaddr_in *)&ss)->sin_addr;
			if (inet_ntop(ss.ss_family, a, out, (socklen_t)len))
				rc = 0;
		} else {
			snprintf(err, errlen, "%s: no route: %s", host, strerror(errno));
		}
		close(fd);
	}
	freeaddrinfo(res);
	return rc;
}

/* Loads and validates the table; refuses it with its findings when it has errors. */
static int load_table(const struct run_ssh_args *a, struct rt_table *t, char digest[17])
{
	char err[RT_ERRLEN] = "";
	struct rt_diags d = { 0 };
	char *buf = NULL;
	size_t len = 0;
	int rc = fetch_table(a->ranktable, a->where, TABLE_CAP, &buf, &len, err, sizeof(err));
	if (rc)
		return fail(EXIT_UNKNOWN, a->where, fetch_hint(), "%s", err);
	rc = rt_table_load(t, a->ranktable, buf, len, &d, err, sizeof(err));
	free(buf);
	if (rc == -ENOMEM) {
		rt_diags_release(&d);
		return fail(EXIT_UNKNOWN, a->where, NULL, "%s: out of memory", a->ranktable);
	}
	rt_diags_sort(&d);
	/* Where hcclctl connects, a server it cannot name or reach safely is an error. */
	rt_diags_connect(&d);
	if (!rc && (t->format == RT_FMT_VLLM_PD || t->format == RT_FMT_GLOBAL ||
		    t->format == RT_FMT_GE_CLUSTER)) {
		rt_diags_release(&d);
		return fail(EXIT_FAIL, a->where,
			    "give the HCCL rank table of the job (server_list or rank_list)",
			    "%s is a %s table, which HCCL does not read; nothing was started",
			    a->ranktable, rt_format_name(t->format));
	}
	if (rc || d.nerrors) {
		print_findings(&d, a->ranktable);
		size_t ne = d.nerrors;
		rt_diags_release(&d);
		return fail(EXIT_FAIL, a->where, "fix it; 'hcclctl ranktable validate' checks it",
			    "the rank table %s has %zu error%s; nothing was started", a->ranktable,
			    ne ? ne : 1, ne == 1 || !ne ? "" : "s");
	}
	if (g_opts.verbose)
		print_findings(&d, a->ranktable);
	rt_diags_release(&d);
	rt_table_digest(t, digest);
	return 0;
}

/* Session i's command line around the path of hcclctl there (deploy.c puts it between):
 * the secret comes on stdin, the rest as quoted words. One rank runs `run` itself, a
 * server `run-node` with its ranks. 0 or -ENOMEM. */
static int session_cmd(struct ssh_run *s, size_t i)
{
	const struct run_ssh_args *a = s->a;
	const char *w[100];
	char rs[24], ns[24];
	int k = 0;
	snprintf(rs, sizeof(rs), "%zu", i);
	snprintf(ns, sizeof(ns), "%zu", s->n);
	if (!s->per_rank) {
		w[k++] = "run-node";
		w[k++] = "--ranks";
		w[k++] = s->srv_ranks[i];
		w[k++] = "--";
	}
	w[k++] = "run";
	w[k++] = a->coll_name;
	if (g_opts.json)
		w[k++] = "--json";
	if (g_opts.quiet)
		w[k++] = "--quiet";
	if (g_opts.verbose)
		w[k++] = "--verbose";
	for (int f = 0; f < a->nfwd && k < 80; f++)
		w[k++] = a->fwd[f];
	if (s->per_rank) {
		w[k++] = "--rank";
		w[k++] = rs;
	}
	w[k++] = "--world-size";
	w[k++] = ns;
	w[k++] = "--master";
	w[k++] = s->master;
	if (s->table_path) {
		w[k++] = "--ranktable";
		w[k++] = s->table_path;
	}
	char qs[300], qd[64];
	sh_quote(qs, sizeof(qs), s->srv[i].name);
	sh_quote(qd, sizeof(qd), s->digest);
	/* the heartbeat budget must be the same on every rank and the launcher's monitor */
	char hb[128] = "", qh[64];
	const char *hbe = getenv("HCCLCTL_HEARTBEAT_TIMEOUT");
	if (hbe && *hbe && strlen(hbe) < 32) {
		sh_quote(qh, sizeof(qh), hbe);
		snprintf(hb, sizeof(hb), "HCCLCTL_HEARTBEAT_TIMEOUT=%s ", qh);
	}
	size_t bl = strlen(hb) + sizeof(qs) + sizeof(qd) + 200;
	s->rest[i] = sh_join(k, w);
	s->before[i] = malloc(bl);
	if (!s->rest[i] || !s->before[i])
		return -ENOMEM;
	snprintf(s->before[i], bl,
		 "read -r HCCLCTL_SECRET || exit 97; export HCCLCTL_SECRET; "
		 "%sHCCLCTL_HOST=%s HCCLCTL_LAUNCH=ssh HCCLCTL_DIGEST=%s exec ",
		 hb, qs, qd);
	return 0;
}

/* One session per server (the default), or per rank (HCCLCTL_SSH_SESSIONS=rank). */
static int plan_sessions(struct ssh_run *s)
{
	const char *mode = getenv("HCCLCTL_SSH_SESSIONS");
	if (mode && *mode && strcmp(mode, "server") && strcmp(mode, "rank"))
		return fail(EXIT_USAGE, s->a->where, "server (one per server) or rank",
			    "invalid HCCLCTL_SSH_SESSIONS '%s'", mode);
	s->per_rank = mode && !strcmp(mode, "rank");
	s->srv_of = calloc(s->n, sizeof(*s->srv_of));
	s->from_srv = calloc(s->n, sizeof(*s->from_srv));
	if (!s->srv_of || !s->from_srv)
		return fail(EXIT_UNKNOWN, s->a->where, NULL, "out of memory");
	if (s->per_rank) {
		s->srv = s->hosts;
		s->nsrv = s->n;
		for (size_t r = 0; r < s->n; r++)
			s->srv_of[r] = (int)r;
	} else {
		s->srv = calloc(s->n, sizeof(*s->srv));
		if (!s->srv)
			return fail(EXIT_UNKNOWN, s->a->where, NULL, "out of memory");
		for (size_t r = 0; r < s->n; r++) {
			size_t j = 0;
			while (j < s->nsrv && strcmp(s->srv[j].host, s->hosts[r].host))
				j++;
			if (j == s->nsrv) {
				s->srv[j].host = s->hosts[r].host;
				s->srv[j].name = s->hosts[r].name;
				s->nsrv++;
			}
			s->srv_of[r] = (int)j;
		}
	}
	s->srv_ranks = calloc(s->nsrv, sizeof(*s->srv_ranks));
	s->cmds = calloc(s->nsrv, sizeof(*s->cmds));
	s->before = calloc(s->nsrv, sizeof(*s->before));
	s->rest = calloc(s->nsrv, sizeof(*s->rest));
	if (!s->srv_ranks || !s->cmds || !s->before || !s->rest)
		return fail(EXIT_UNKNOWN, s->a->where, NULL, "out of memory");
	for (size_t j = 0; !s->per_rank && j < s->nsrv; j++) {
		size_t len = 0, off = 0;
		for (size_t r = 0; r < s->n; r++)
			len += s->srv_of[r] == (int)j ? 12 : 0;
		if (!(s->srv_ranks[j] = malloc(len + 1)))
			return fail(EXIT_UNKNOWN, s->a->where, NULL, "out of memory");
		s->srv_ranks[j][0] = '\0';
		for (size_t r = 0; r < s->n; r++)
			if (s->srv_of[r] == (int)j)
				off += (size_t)snprintf(s->srv_ranks[j] + off, len + 1 - off, "%s%zu",
							off ? "," : "", r);
	}
	return 0;
}

/* The SSH files named readable and the connect timeout valid: 0, or the exit code. */
static int check_inputs(const struct run_ssh_args *a, long *ctmo)
{
	*ctmo = env_seconds("HCCLCTL_CONNECT_TIMEOUT", DEFAULT_CONNECT_TIMEOUT);
	if (*ctmo < 0)
		return fail(EXIT_USAGE, a->where, "a whole number of seconds, at least 1",
			    "invalid HCCLCTL_CONNECT_TIMEOUT");
	if (a->key && access(a->key, R_OK))
		return fail(EXIT_UNKNOWN, a->where, NULL, "cannot read --ssh-key '%s': %s", a->key,
			    strerror(errno));
	if (a->known_hosts && access(a->known_hosts, R_OK))
		return fail(EXIT_UNKNOWN, a->where, NULL, "cannot read --ssh-known-hosts '%s': %s",
			    a->known_hosts, strerror(errno));
	return 0;
}

/* Rank r runs on the server of the entry with rank_id r. The table validated, so the ids are
 * 0..n-1 once each; checked again, as is every address, since nothing from the table may
 * reach a shell or ssh unvetted. */
static int place_ranks(struct ssh_run *s, const struct rt_table *t)
{
	const struct run_ssh_args *a = s->a;
	s->n = t->nranks;
	if (s->n == 0)
		return fail(EXIT_FAIL, a->where, NULL, "the rank table %s has no ranks", a->ranktable);
	if (a->root >= (long)s->n)
		return fail(EXIT_USAGE, a->where, NULL, "--root %ld is not a rank of %zu", a->root,
			    s->n);
	s->hosts = calloc(s->n, sizeof(*s->hosts));
	s->end_seq = calloc(s->n, sizeof(*s->end_seq));
	if (!s->hosts || !s->end_seq)
		return fail(EXIT_UNKNOWN, a->where, NULL, "out of memory");
	for (size_t i = 0; i < s->n; i++) {
		const struct rt_rank *k = &t->ranks[i];
		const char *addr = k->host_ip && *k->host_ip ? k->host_ip : k->server_id;
		if (k->rank_id < 0 || (size_t)k->rank_id >= s->n || s->hosts[k->rank_id].host)
			return fail(EXIT_FAIL, a->where, NULL,
				    "%s: rank ids are not 0..%zu once each (rank_id %ld)",
				    a->ranktable, s->n - 1, k->rank_id);
		if (!addr || !*addr || rt_host_unsafe_at(addr) >= 0 ||
		    (k->server_id && rt_host_unsafe_at(k->server_id) >= 0))
			return fail(EXIT_FAIL, a->where,
				    "a server is a host name or IP: letters, digits, '.', '-', '_', ':'",
				    "%s: rank %ld: refusing server \"%.64s\": not a host name or IP; "
				    "nothing was started",
				    a->ranktable, k->rank_id,
				    k->server_id ? k->server_id : addr ? addr : "");
		s->hosts[k->rank_id].host = addr;
		s->hosts[k->rank_id].name = k->server_id && *k->server_id ? k->server_id : addr;
		s->hosts[k->rank_id].exit_status = -1;
	}
	return 0;
}

/* The rendezvous, on an address the servers can reach; --master (HOST:PORT) and the secret's
 * line for the ranks' stdin, from its token "comm3:HOST:PORT:<32 hex>". */
static int host_rendezvous(struct ssh_run *s, char *master, size_t mlen, char *secret,
			   size_t slen)
{
	const struct run_ssh_args *a = s->a;
	char maddr[INET6_ADDRSTRLEN + 2], err[COMM_ERRLEN] = "";
	struct comm_root_info ri;
	if (a->master_addr) {
		if (rt_host_unsafe_at(a->master_addr) >= 0 || !*a->master_addr)
			return fail(EXIT_USAGE, a->where, NULL, "invalid --master-addr '%s'",
				    a->master_addr);
		snprintf(maddr, sizeof(maddr), "%s", a->master_addr);
	} else if (run_route_addr(s->hosts[0].host, maddr, sizeof(maddr), err, sizeof(err))) {
		return fail(EXIT_UNKNOWN, a->where, "give --master-addr IP",
			    "cannot find the local address towards rank 0's server: %s", err);
	}
	if (comm_root_info_make(&ri, maddr, 0, NULL, err, sizeof(err)) ||
	    comm_rendezvous_start(&s->rdv, &ri, (int)s->n, a->rdv_timeout_ms, err, sizeof(err)))
		return fail(EXIT_UNKNOWN, a->where, NULL, "cannot host the rendezvous on %s: %s",
			    maddr, err);
	size_t tl = strlen(ri.token);
	if (tl < 6 + 33 + 3 || strncmp(ri.token, "comm", 4))
		return fail(EXIT_UNKNOWN, a->where, NULL, "unexpected root info '%s'", ri.token);
	const char *c1 = strchr(ri.token, ':') + 1;
	snprintf(master, mlen, "%.*s", (int)(ri.token + tl - 33 - c1), c1);
	snprintf(secret, slen, "%s\n", ri.token + tl - 32);
	return 0;
}

/* The watcher told the run is over, and gone. */
static void stop_watcher(struct ssh_run *s, pthread_t wt)
{
	pthread_mutex_lock(&s->mu);
	s->finished = 1;
	pthread_cond_signal(&s->cv);
	pthread_mutex_unlock(&s->mu);
	pthread_join(wt, NULL);
}

/* Every session at once, with the watcher over the rendezvous beside them, to the end of the
 * run; then the report. */
static int run_sessions(struct ssh_run *s, struct deploy_fan *df, long ctmo,
			const char *secret_line)
{
	const struct run_ssh_args *a = s->a;
	char err[COMM_ERRLEN] = "";
	pthread_t wt;
	int rc;
	if ((rc = fo_cancel_init(&s->cancel)) || (rc = fo_cancel_init(&s->interrupt)))
		return fail(EXIT_UNKNOWN, a->where, NULL, "pipe: %s", strerror(-rc));
	if (pthread_create(&wt, NULL, watcher, s))
		return fail(EXIT_UNKNOWN, a->where, NULL, "cannot start a thread");
	if (a->insecure)
		warn_msg(a->where, "--ssh-insecure: host keys are not checked; anyone on the path "
				   "can pose as these hosts");
	struct fanout f = {
		.ssh = { .user = a->user, .port = (int)a->port, .key = a->key,
			 .known_hosts = a->known_hosts, .insecure = a->insecure,
			 .cancel_fd = s->cancel.fd[0] },
		/* every session stays open for the whole run: all must be in flight */
		.parallel = (int)s->nsrv,
		.connect_parallel = a->parallel > 0 ? (int)a->parallel : DEFAULT_CONNECT_PARALLEL,
		.connect_timeout_ms = ctmo * 1000,
		.keepalive_s = KEEPALIVE_S,
		.cap = RUNSSH_KEEP_MAX,
		.input = secret_line,
		.input_len = strlen(secret_line),
		.keep_stdin = !s->per_rank, /* run-node stops its ranks when its stdin ends */
		.interrupt_fd = s->per_rank ? 0 : s->interrupt.fd[0],
		.interrupt = "interrupt\n",
		.interrupt_len = strlen("interrupt\n"),
		.prepare = deploy_prepare,
		.prepare_arg = df,
		.on_line = on_line,
		.on_done = on_done,
		.arg = s,
	};
	if (!s->per_rank)
		fo_cancel_soft_first(&s->interrupt);
	fo_cancel_on_signals(&s->cancel, 1);
	long long t0 = mono_ms();
	rc = fanout_run(&f, s->srv, s->nsrv, err, sizeof(err));
	fo_cancel_signals_off();
	double secs = (double)(mono_ms() - t0) / 1000.0;
	stop_watcher(s, wt);
	if (rc)
		return fail(EXIT_UNKNOWN, a->where, NULL, "%s", err);
	char why[COMM_ERRLEN] = "";
	unsigned refused = comm_rendezvous_refused(s->rdv, why, sizeof(why));
	if (refused)
		warn_msg(a->where, "the rendezvous refused %u connection%s; the last: %s", refused,
			 plural_s(refused), why);
	return runssh_report(s, secs);
}

static void release_run(struct ssh_run *s)
{
	comm_rendezvous_stop(s->rdv);
	fo_cancel_release(&s->cancel);
	fo_cancel_release(&s->interrupt);
	for (size_t r = 0; s->hosts && r < s->n; r++)
		fo_host_release(&s->hosts[r]);
	for (size_t j = 0; !s->per_rank && s->srv && j < s->nsrv; j++)
		fo_host_release(&s->srv[j]);
	for (size_t j = 0; s->cmds && s->before && s->rest && j < s->nsrv; j++) {
		free(s->cmds[j]);
		free(s->before[j]);
		free(s->rest[j]);
	}
	free(s->before);
	free(s->rest);
	for (size_t j = 0; s->srv_ranks && j < s->nsrv; j++)
		free(s->srv_ranks[j]);
	if (!s->per_rank)
		free(s->srv);
	free(s->cmds);
	free(s->srv_ranks);
	free(s->srv_of);
	free(s->from_srv);
	cJSON_Delete(s->rows);
	deploy_release(&s->dep);
	free(s->hosts);
	free(s->end_seq);
}

int run_ssh_launch(const struct run_ssh_args *a)
{
	struct rt_table t = { 0 };
	struct ssh_run s = { .a = a };
	char digest[17] = "", err[COMM_ERRLEN] = "";
	char master[COMM_TOKEN_MAX], secret_line[40], table_abs[PATH_MAX];
	long ctmo;
	int rc;

	s.cancel.fd[0] = s.cancel.fd[1] = -1;
	s.interrupt.fd[0] = s.interrupt.fd[1] = -1;
	if ((rc = check_inputs(a, &ctmo)))
		return rc;
	if ((rc = load_table(a, &t, digest)) || (rc = place_ranks(&s, &t)) ||
	    (rc = plan_sessions(&s)))
		goto out;
	if ((rc = deploy_init(&s.dep, a->remote_hcclctl, err, sizeof(err)))) {
		rc = fail(EXIT_UNKNOWN, a->where, NULL, "%s", err);
		goto out;
	}
	if ((rc = host_rendezvous(&s, master, sizeof(master), secret_line, sizeof(secret_line))))
		goto out;
	/* A local file: the ranks read the same path on their nodes and prove they agree. */
	if (strcmp(a->ranktable, "-") && !strstr(a->ranktable, "://") &&
	    realpath(a->ranktable, table_abs))
		s.table_path = table_abs;
	s.master = master;
	s.digest = digest;
	for (size_t j = 0; j < s.nsrv; j++)
		if (session_cmd(&s, j)) {
			rc = fail(EXIT_UNKNOWN, a->where, NULL, "out of memory");
			goto out;
		}
	struct deploy_fan df = { .d = &s.dep, .hosts = s.srv, .before = s.before,
				 .rest = s.rest, .cmds = s.cmds, .where = a->where, .verbose = g_opts.verbose };
	if (g_opts.verbose)
		fprintf(stderr,
			"hcclctl: %s: %zu ranks over SSH in %zu session%s, rendezvous at %s, table "
			"digest %s\n",
			a->where, s.n, s.nsrv, plural_s(s.nsrv), master, digest);
	pthread_mutex_init(&s.mu, NULL);
	pthread_cond_init(&s.cv, NULL);
	rc = run_sessions(&s, &df, ctmo, secret_line);
	pthread_cond_destroy(&s.cv);
	pthread_mutex_destroy(&s.mu);
out:
	release_run(&s);
	rt_table_release(&t);
	return rc;
}
