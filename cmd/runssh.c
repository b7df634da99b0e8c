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
 * The SSH sessions are the status channel: rank 0's stdout streams to ours as its rows come;
 * every rank's stderr is kept. The first rank that cannot start, exits non-zero or is killed
 * cancels the others (their remote process groups get TERM, then KILL) and is named with
 * its last stderr lines. A rank that exits non-zero is often a consequence (a peer died and
 * it lost the connection), so its cancel waits a moment for a harder cause to arrive: a
 * killed rank or an unreachable node is named before the ranks that merely noticed it. */
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

#include "cli.h"
#include "fanout.h"
#include "ranktable/ranktable.h"
#include "run.h"

#define TABLE_CAP (64UL * 1024 * 1024)
#define DEFAULT_CONNECT_TIMEOUT 10 /* s, for SSH; HCCLCTL_CONNECT_TIMEOUT overrides */
#define DEFAULT_CONNECT_PARALLEL 32
#define KEEPALIVE_S 10
#define SOFT_GRACE_MS 500 /* a rank's non-zero exit waits this long for a harder cause */
#define HARD_WAIT_MS 1500 /* a lost node or killed rank waits this long for the verdict */
#define VERDICT_GRACE_MS 3000 /* survivors of a verdict get this long to end themselves */
#define TAIL_LINES 5

/* ---- the rank side: the digest of this node's copy of the table ---- */

int run_table_digest(const char *path, char out[17], char *err, size_t errlen)
{
	struct rt_table t = { 0 };
	struct rt_diags d = { 0 };
	char *buf = NULL;
	size_t len = 0;
	int rc = fetch_table(path, "run", TABLE_CAP, &buf, &len, err, errlen);
	if (rc)
		return rc < 0 ? rc : -ENOENT;
	rc = rt_table_load(&t, path, buf, len, &d, err, errlen);
	free(buf);
	if (rc == 0)
		rt_table_digest(&t, out);
	rt_table_release(&t);
	rt_diags_release(&d);
	return rc;
}

/* ---- the launcher ---- */

struct ssh_run {
	const struct run_ssh_args *a;
	struct fo_host *hosts; /* hosts[r] runs rank r */
	size_t n;
	int *end_seq;          /* the order in which the hosts ended, from 1 */
	int seq;
	struct fo_cancel cancel;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int hard, soft, finished, ended;
	long long soft_ms, hard_ms;
	struct comm_rendezvous *rdv;
	struct comm_verdict verdict; /* once have_verdict: the monitor's, printed at once */
	int have_verdict;
	long long verdict_ms;
};

static long long now_ms(void)
{
	return ssh_now_ms();
}

static int rank_of(const struct ssh_run *s, const struct fo_host *h)
{
	return (int)(h - s->hosts);
}

/* "rank 2 on n3 (10.0.0.3)", or "rank 2 on 10.0.0.3" when the address is the server id */
static void rank_name(const struct fo_host *h, int rank, char *buf, size_t len)
{
	if (h->name && strcmp(h->name, h->host))
		snprintf(buf, len, "rank %d on %s (%s)", rank, h->name, h->host);
	else
		snprintf(buf, len, "rank %d on %s", rank, h->host);
}

/* Called with the fan-out's lock held: lines never interleave. */
static void on_line(void *arg, const struct fo_host *h, int stream, const char *line,
		    size_t len)
{
	struct ssh_run *s = arg;
	int r = rank_of(s, h);
	if (stream == SSH_STDOUT && r == 0 && !g_opts.json) {
		fwrite(line, 1, len, stdout);
		putchar('\n');
		fflush(stdout);
	} else if (stream == SSH_STDERR && g_opts.verbose) {
		fprintf(stderr, "[rank %d %s] %.*s\n", r, h->name ? h->name : h->host, (int)len,
			line);
	}
}

static void on_done(void *arg, const struct fo_host *h)
{
	struct ssh_run *s = arg;
	int r = rank_of(s, h);
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
				s->soft_ms = now_ms();
			break;
		}
		/* killed by a signal we did not send */
		if (!s->hard++)
			s->hard_ms = now_ms();
		break;
	case FO_UNREACHABLE:
	case FO_TIMEOUT:
		if (!s->hard++)
			s->hard_ms = now_ms();
		break;
	}
	pthread_cond_signal(&s->cv);
	pthread_mutex_unlock(&s->mu);
}

/* Decides when to stop the ranks still running. With the monitor's verdict: print it at
 * once, and cancel when only the culprit is left or after VERDICT_GRACE_MS (the survivors
 * end by themselves once they have it; a stopped or cut-off rank never will). Without one: a
 * hard failure (a node lost, a rank killed) waits HARD_WAIT_MS for the verdict, a rank that
 * merely exited non-zero SOFT_GRACE_MS for a harder cause; then the cancel fires. */
static void *watcher(void *arg)
{
	struct ssh_run *s = arg;
	pthread_mutex_lock(&s->mu);
	while (!s->finished) {
		long long now = now_ms();
		if (!s->have_verdict && comm_rendezvous_verdict(s->rdv, &s->verdict)) {
			s->have_verdict = 1;
			s->verdict_ms = now;
			run_verdict_print(&s->verdict);
		}
		int fire = 0;
		if (s->have_verdict) {
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
	if (!rc && (t->format == RT_FMT_VLLM_PD || t->format == RT_FMT_GLOBAL)) {
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

static const char *exit_text(const struct fo_host *h, char *buf, size_t len)
{
	if (h->signal[0])
		snprintf(buf, len, "was killed by signal %s", h->signal);
	else if (h->status == FO_FAILED && h->exit_status == 127)
		snprintf(buf, len, "could not start: hcclctl not found there (exit 127); install "
				   "it or pass --remote-hcclctl PATH");
	else if (h->status == FO_FAILED && h->exit_status == 126)
		snprintf(buf, len, "could not start: hcclctl is not executable there (exit 126)");
	else if (h->status == FO_FAILED)
		snprintf(buf, len, "exited %d", h->exit_status);
	else if (h->status == FO_TIMEOUT && !h->connected)
		snprintf(buf, len, "could not start: %s", h->error);
	else if (h->status == FO_TIMEOUT)
		snprintf(buf, len, "lost: %s", h->error);
	else if (h->status == FO_UNREACHABLE && h->connected)
		snprintf(buf, len, "lost its SSH session: %s", h->error);
	else if (h->status == FO_UNREACHABLE)
		snprintf(buf, len, "could not start: %s", h->error);
	else
		snprintf(buf, len, "%s", fo_status_name(h->status));
	return buf;
}

/* How bad an ending is, for naming the cause: a node we could not reach or lost, then a
 * rank killed by a signal, then a rank that exited non-zero. */
static int severity(const struct fo_host *h)
{
	switch (h->status) {
	case FO_UNREACHABLE:
	case FO_TIMEOUT:
		return 3;
	case FO_FAILED:
		return h->signal[0] ? 2 : 1;
	default:
		return 0;
	}
}

static int exit_code_of(const struct fo_host *h)
{
	if (h->status == FO_UNREACHABLE || (h->status == FO_TIMEOUT && !h->connected))
		return EXIT_UNKNOWN;
	if (h->status == FO_FAILED && !h->signal[0] &&
	    (h->exit_status == 127 || h->exit_status == 126 || h->exit_status == EXIT_USAGE ||
	     h->exit_status == EXIT_UNKNOWN))
		return EXIT_UNKNOWN;
	return EXIT_FAIL;
}

static void print_tail(const struct fo_host *h, const char *who)
{
	const char *tail = fo_stderr_tail(h, TAIL_LINES);
	if (!*tail)
		return;
	fprintf(stderr, "  last stderr of %s:\n", who);
	while (*tail) {
		size_t l = strcspn(tail, "\n");
		fprintf(stderr, "    %.*s\n", (int)l, tail);
		tail += l + (tail[l] == '\n');
	}
}

/* The last non-empty stderr line of h, for one-line mentions. */
static void last_line(const struct fo_host *h, char *buf, size_t len)
{
	const char *tail = fo_stderr_tail(h, 1);
	size_t l = strcspn(tail, "\n");
	snprintf(buf, len, "%.*s", (int)l, tail);
}

static cJSON *rank_json(const struct fo_host *h, int r)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddNumberToObject(o, "rank", r);
	cJSON_AddStringToObject(o, "server", h->name ? h->name : h->host);
	cJSON_AddStringToObject(o, "address", h->host);
	cJSON_AddStringToObject(o, "status", fo_status_name(h->status));
	if (h->exit_status >= 0 && !h->signal[0])
		cJSON_AddNumberToObject(o, "exit_status", h->exit_status);
	else
		cJSON_AddNullToObject(o, "exit_status");
	if (h->signal[0])
		cJSON_AddStringToObject(o, "signal", h->signal);
	else
		cJSON_AddNullToObject(o, "signal");
	if (h->error[0] && h->status != FO_OK && h->status != FO_FAILED)
		cJSON_AddStringToObject(o, "error", h->error);
	else
		cJSON_AddNullToObject(o, "error");
	cJSON_AddStringToObject(o, "stderr_tail", fo_stderr_tail(h, TAIL_LINES));
	return o;
}

/* Names the cause, the other failures and what was stopped. Returns the exit code. */
static int report(struct ssh_run *s, double seconds)
{
	const struct run_ssh_args *a = s->a;
	int culprit = -1;
	size_t nstopped = 0, nok = 0;
	for (size_t r = 0; r < s->n; r++) {
		const struct fo_host *h = &s->hosts[r];
		if (h->status == FO_CANCELED)
			nstopped++;
		if (h->status == FO_OK)
			nok++;
		int sev = severity(h);
		if (!sev)
			continue;
		if (culprit < 0 || sev > severity(&s->hosts[culprit]) ||
		    (sev == severity(&s->hosts[culprit]) && s->end_seq[r] < s->end_seq[culprit]))
			culprit = (int)r;
	}
	if (fo_signal_caught()) {
		fail(128 + fo_signal_caught(), a->where, NULL, "interrupted by %s: stopped every rank",
		     strsignal(fo_signal_caught()));
		if (g_opts.json) {
			cJSON *doc = cJSON_CreateObject();
			cJSON *ranks = cJSON_AddArrayToObject(doc, "ranks");
			for (size_t r = 0; r < s->n; r++)
				cJSON_AddItemToArray(ranks, rank_json(&s->hosts[r], (int)r));
			cJSON_AddNumberToObject(doc, "exit_code", 128 + fo_signal_caught());
			out_json(doc);
		}
		return 128 + fo_signal_caught();
	}
	if (culprit < 0 && nok == s->n) {
		if (g_opts.json) {
			const struct fo_host *h0 = &s->hosts[0];
			if (h0->out.len) {
				fwrite(h0->out.p, 1, h0->out.len, stdout);
				out_json_set_printed();
			}
		}
		if (g_opts.verbose)
			fprintf(stderr, "hcclctl: %s: %zu ranks over SSH ended well (%.2f s)\n", a->where,
				s->n, seconds);
		return EXIT_OK;
	}

	char who[600], what[SSH_ERRLEN + 200], line[2048];
	int code = EXIT_FAIL;
	if (!s->have_verdict && comm_rendezvous_verdict(s->rdv, &s->verdict))
		s->have_verdict = 2; /* decided as the ranks ended: not printed yet */
	if (s->have_verdict && s->verdict.rank >= 0 && (size_t)s->verdict.rank < s->n &&
	    severity(&s->hosts[s->verdict.rank]))
		culprit = s->verdict.rank; /* the monitor knows better than exit order */
	if (culprit >= 0) {
		const struct fo_host *h = &s->hosts[culprit];
		rank_name(h, culprit, who, sizeof(who));
		code = exit_code_of(h);
		fail(code, a->where, NULL, "%s %s", who, exit_text(h, what, sizeof(what)));
		print_tail(h, who);
	} else {
		fail(code, a->where, NULL, "the run was stopped before every rank ended");
	}
	for (size_t r = 0; r < s->n; r++) {
		const struct fo_host *h = &s->hosts[r];
		if ((int)r == culprit || !severity(h))
			continue;
		rank_name(h, (int)r, who, sizeof(who));
		last_line(h, line, sizeof(line));
		fprintf(stderr, "hcclctl: %s: %s also %s%s%s\n", a->where, who,
			exit_text(h, what, sizeof(what)), *line ? ": " : "", line);
	}
	if (nstopped) {
		char list[1024] = "";
		size_t off = 0, shown = 0;
		for (size_t r = 0; r < s->n && off < sizeof(list); r++) {
			if (s->hosts[r].status != FO_CANCELED)
				continue;
			if (shown++ == 8) {
				snprintf(list + off, sizeof(list) - off, ", ...");
				break;
			}
			off += (size_t)snprintf(list + off, sizeof(list) - off, "%s%zu", shown > 1 ? ", " : "",
						r);
		}
		fprintf(stderr, "hcclctl: %s: stopped the other %zu rank%s (%s) and their processes\n",
			a->where, nstopped, nstopped == 1 ? "" : "s", list);
	}
	if (!s->have_verdict && culprit >= 0) {
		/* a verdict the ranks reached among themselves (--engine hccl): the culprit's */
		const char *tail = fo_stderr_tail(&s->hosts[culprit], TAIL_LINES);
		if (!run_verdict_parse(tail, strlen(tail), &s->verdict)) {
			s->have_verdict = 2;
			if (s->verdict.rank >= 0 && (size_t)s->verdict.rank < s->n)
				snprintf(s->verdict.host, sizeof(s->verdict.host), "%s",
					 s->hosts[s->verdict.rank].name ? s->hosts[s->verdict.rank].name :
					 s->hosts[s->verdict.rank].host);
		}
	}
	if (!s->have_verdict && culprit >= 0) {
		/* no monitor verdict (the job never met, or no rank could say): the launcher's */
		const struct fo_host *h = &s->hosts[culprit];
		struct comm_verdict *v = &s->verdict;
		run_verdict_from_status(v, 0, "");
		v->kind = h->signal[0] ? COMM_VERDICT_DEAD_RANK
			  : (h->status == FO_UNREACHABLE || h->status == FO_TIMEOUT)
				  ? COMM_VERDICT_LINK_DOWN
			  : (h->exit_status == 127 || h->exit_status == 126 ||
			     h->exit_status == EXIT_USAGE)
				  ? COMM_VERDICT_CONFIG
				  : COMM_VERDICT_ERROR;
		v->rank = culprit;
		snprintf(v->host, sizeof(v->host), "%s", h->name ? h->name : h->host);
		rank_name(h, culprit, who, sizeof(who));
		snprintf(v->msg, sizeof(v->msg), "%.200s %.290s", who,
			 exit_text(h, what, sizeof(what)));
		s->have_verdict = 2;
	}
	if (s->have_verdict == 2)
		run_verdict_print(&s->verdict);
	if (s->have_verdict == 1)
		code = run_verdict_exit(&s->verdict);
	if (g_opts.json) {
		cJSON *doc = cJSON_CreateObject();
		cJSON *e = cJSON_AddObjectToObject(doc, "error");
		cJSON_AddStringToObject(e, "where", a->where);
		if (culprit >= 0) {
			rank_name(&s->hosts[culprit], culprit, who, sizeof(who));
			snprintf(line, sizeof(line), "%s %s", who,
				 exit_text(&s->hosts[culprit], what, sizeof(what)));
			cJSON_AddStringToObject(e, "message", line);
			cJSON_AddNumberToObject(e, "rank", culprit);
		} else {
			cJSON_AddStringToObject(e, "message", "stopped");
		}
		if (s->have_verdict)
			cJSON_AddItemToObject(doc, "verdict", run_verdict_json(&s->verdict));
		cJSON *ranks = cJSON_AddArrayToObject(doc, "ranks");
		for (size_t r = 0; r < s->n; r++)
			cJSON_AddItemToArray(ranks, rank_json(&s->hosts[r], (int)r));
		cJSON_AddNumberToObject(doc, "exit_code", code);
		out_json(doc);
	}
	return code;
}

static long seconds_env(const char *name, long deflt)
{
	const char *v = getenv(name);
	char *end;
	if (!v || !*v)
		return deflt;
	long n = strtol(v, &end, 10);
	return *end || n < 1 || n > 86400 ? -1 : n;
}

/* Builds rank r's remote command line: the secret comes on stdin, the rest as quoted
 * words. */
static char *remote_cmd(const struct run_ssh_args *a, int r, int n, const char *master,
			const char *server, const char *digest, const char *table_path)
{
	const char *w[96];
	char rs[16], ns[16];
	int k = 0;
	snprintf(rs, sizeof(rs), "%d", r);
	snprintf(ns, sizeof(ns), "%d", n);
	w[k++] = a->remote_hcclctl ? a->remote_hcclctl : "hcclctl";
	w[k++] = "run";
	w[k++] = a->coll_name;
	if (g_opts.json)
		w[k++] = "--json";
	if (g_opts.quiet)
		w[k++] = "--quiet";
	if (g_opts.verbose)
		w[k++] = "--verbose";
	for (int i = 0; i < a->nfwd && k < 80; i++)
		w[k++] = a->fwd[i];
	w[k++] = "--rank";
	w[k++] = rs;
	w[k++] = "--world-size";
	w[k++] = ns;
	w[k++] = "--master";
	w[k++] = master;
	if (table_path) {
		w[k++] = "--ranktable";
		w[k++] = table_path;
	}
	char *words = sh_join(k, w);
	char qs[300], qd[64];
	if (!words)
		return NULL;
	sh_quote(qs, sizeof(qs), server);
	sh_quote(qd, sizeof(qd), digest);
	/* the heartbeat budget must be the same on every rank and the launcher's monitor */
	char hb[128] = "", qh[64];
	const char *hbe = getenv("HCCLCTL_HEARTBEAT_TIMEOUT");
	if (hbe && *hbe && strlen(hbe) < 32) {
		sh_quote(qh, sizeof(qh), hbe);
		snprintf(hb, sizeof(hb), "HCCLCTL_HEARTBEAT_TIMEOUT=%s ", qh);
	}
	size_t len = strlen(words) + sizeof(qs) + sizeof(qd) + sizeof(hb) + 200;
	char *cmd = malloc(len);
	if (cmd)
		snprintf(cmd, len,
			 "read -r HCCLCTL_SECRET || exit 97; export HCCLCTL_SECRET; "
			 "%sHCCLCTL_HOST=%s HCCLCTL_LAUNCH=ssh HCCLCTL_DIGEST=%s exec %s",
			 hb, qs, qd, words);
	free(words);
	return cmd;
}

int run_ssh_launch(const struct run_ssh_args *a)
{
	struct rt_table t = { 0 };
	struct ssh_run s = { .a = a };
	struct comm_rendezvous *rdv = NULL;
	struct comm_root_info ri;
	char digest[17] = "", maddr[INET6_ADDRSTRLEN + 2], err[COMM_ERRLEN] = "";
	char master[COMM_TOKEN_MAX], secret_line[40], table_abs[PATH_MAX];
	const char *table_path = NULL;
	char **cmds = NULL;
	pthread_t wt;
	int rc, watcher_up = 0;

	s.cancel.fd[0] = s.cancel.fd[1] = -1;
	long ctmo = seconds_env("HCCLCTL_CONNECT_TIMEOUT", DEFAULT_CONNECT_TIMEOUT);
	if (ctmo < 0)
		return fail(EXIT_USAGE, a->where, "a whole number of seconds, at least 1",
			    "invalid HCCLCTL_CONNECT_TIMEOUT");
	if (a->key && access(a->key, R_OK))
		return fail(EXIT_UNKNOWN, a->where, NULL, "cannot read --ssh-key '%s': %s", a->key,
			    strerror(errno));
	if (a->known_hosts && access(a->known_hosts, R_OK))
		return fail(EXIT_UNKNOWN, a->where, NULL, "cannot read --ssh-known-hosts '%s': %s",
			    a->known_hosts, strerror(errno));

	rc = load_table(a, &t, digest);
	if (rc)
		goto out;
	s.n = t.nranks;
	if (s.n == 0) {
		rc = fail(EXIT_FAIL, a->where, NULL, "the rank table %s has no ranks", a->ranktable);
		goto out;
	}
	if (a->root >= (long)s.n) {
		rc = fail(EXIT_USAGE, a->where, NULL, "--root %ld is not a rank of %zu", a->root, s.n);
		goto out;
	}
	s.hosts = calloc(s.n, sizeof(*s.hosts));
	s.end_seq = calloc(s.n, sizeof(*s.end_seq));
	cmds = calloc(s.n, sizeof(*cmds));
	if (!s.hosts || !s.end_seq || !cmds) {
		rc = fail(EXIT_UNKNOWN, a->where, NULL, "out of memory");
		goto out;
	}
	/* Rank r runs on the server of the entry with rank_id r. The table validated, so the
	 * ids are 0..n-1 once each; checked again, as is every address, since nothing from the
	 * table may reach a shell or ssh unvetted. */
	for (size_t i = 0; i < s.n; i++) {
		const struct rt_rank *k = &t.ranks[i];
		const char *addr = k->host_ip && *k->host_ip ? k->host_ip : k->server_id;
		if (k->rank_id < 0 || (size_t)k->rank_id >= s.n || s.hosts[k->rank_id].host) {
			rc = fail(EXIT_FAIL, a->where, NULL,
				  "%s: rank ids are not 0..%zu once each (rank_id %ld)", a->ranktable,
				  s.n - 1, k->rank_id);
			goto out;
		}
		if (!addr || !*addr || rt_host_unsafe_at(addr) >= 0 ||
		    (k->server_id && rt_host_unsafe_at(k->server_id) >= 0)) {
			rc = fail(EXIT_FAIL, a->where,
				  "a server is a host name or IP: letters, digits, '.', '-', '_', ':'",
				  "%s: rank %ld: refusing server \"%.64s\": not a host name or IP; "
				  "nothing was started",
				  a->ranktable, k->rank_id,
				  k->server_id ? k->server_id : addr ? addr : "");
			goto out;
		}
		s.hosts[k->rank_id].host = addr;
		s.hosts[k->rank_id].name = k->server_id && *k->server_id ? k->server_id : addr;
	}

	/* The rendezvous, on an address the servers can reach. */
	if (a->master_addr) {
		if (rt_host_unsafe_at(a->master_addr) >= 0 || !*a->master_addr) {
			rc = fail(EXIT_USAGE, a->where, NULL, "invalid --master-addr '%s'",
				  a->master_addr);
			goto out;
		}
		snprintf(maddr, sizeof(maddr), "%s", a->master_addr);
	} else if (run_route_addr(s.hosts[0].host, maddr, sizeof(maddr), err, sizeof(err))) {
		rc = fail(EXIT_UNKNOWN, a->where, "give --master-addr IP",
			  "cannot find the local address towards rank 0's server: %s", err);
		goto out;
	}
	if (comm_root_info_make(&ri, maddr, 0, NULL, err, sizeof(err)) ||
	    comm_rendezvous_start(&rdv, &ri, (int)s.n, a->rdv_timeout_ms, err, sizeof(err))) {
		rc = fail(EXIT_UNKNOWN, a->where, NULL, "cannot host the rendezvous on %s: %s", maddr,
			  err);
		goto out;
	}
	/* The token is "comm2:HOST:PORT:<32 hex>": --master is HOST:PORT, the secret the rest */
	size_t tl = strlen(ri.token);
	if (tl < 6 + 33 + 3 || strncmp(ri.token, "comm", 4)) {
		rc = fail(EXIT_UNKNOWN, a->where, NULL, "unexpected root info '%s'", ri.token);
		goto out;
	}
	const char *c1 = strchr(ri.token, ':') + 1;
	snprintf(master, sizeof(master), "%.*s", (int)(ri.token + tl - 33 - c1), c1);
	snprintf(secret_line, sizeof(secret_line), "%s\n", ri.token + tl - 32);

	/* A local file: the ranks read the same path on their nodes and prove they agree. */
	if (strcmp(a->ranktable, "-") && !strstr(a->ranktable, "://") &&
	    realpath(a->ranktable, table_abs))
		table_path = table_abs;
	for (size_t r = 0; r < s.n; r++) {
		cmds[r] = remote_cmd(a, (int)r, (int)s.n, master, s.hosts[r].name, digest,
				     table_path);
		if (!cmds[r]) {
			rc = fail(EXIT_UNKNOWN, a->where, NULL, "out of memory");
			goto out;
		}
		s.hosts[r].cmd = cmds[r];
	}
	if (g_opts.verbose)
		fprintf(stderr, "hcclctl: %s: %zu ranks over SSH, rendezvous at %s, table digest %s\n",
			a->where, s.n, master, digest);

	if ((rc = fo_cancel_init(&s.cancel))) {
		rc = fail(EXIT_UNKNOWN, a->where, NULL, "pipe: %s", strerror(-rc));
		goto out;
	}
	pthread_mutex_init(&s.mu, NULL);
	pthread_cond_init(&s.cv, NULL);
	s.rdv = rdv;
	if (pthread_create(&wt, NULL, watcher, &s)) {
		rc = fail(EXIT_UNKNOWN, a->where, NULL, "cannot start a thread");
		goto out_sync;
	}
	watcher_up = 1;
	if (a->insecure)
		warn_msg(a->where, "--ssh-insecure: host keys are not checked; anyone on the path "
				   "can pose as these hosts");
	struct fanout f = {
		.ssh = { .user = a->user, .port = (int)a->port, .key = a->key,
			 .known_hosts = a->known_hosts, .insecure = a->insecure,
			 .cancel_fd = s.cancel.fd[0] },
		/* every rank's session stays open for the whole run: all must be in flight */
		.parallel = (int)s.n,
		.connect_parallel = a->parallel > 0 ? (int)a->parallel : DEFAULT_CONNECT_PARALLEL,
		.connect_timeout_ms = ctmo * 1000,
		.keepalive_s = KEEPALIVE_S,
		.cap = 4UL << 20,
		.input = secret_line,
		.input_len = strlen(secret_line),
		.on_line = on_line,
		.on_done = on_done,
		.arg = &s,
	};
	fo_cancel_on_signals(&s.cancel, 1);
	long long t0 = now_ms();
	rc = fanout_run(&f, s.hosts, s.n, err, sizeof(err));
	fo_cancel_signals_off();
	double secs = (double)(now_ms() - t0) / 1000.0;
	pthread_mutex_lock(&s.mu);
	s.finished = 1;
	pthread_cond_signal(&s.cv);
	pthread_mutex_unlock(&s.mu);
	pthread_join(wt, NULL);
	watcher_up = 0;
	if (rc) {
		rc = fail(EXIT_UNKNOWN, a->where, NULL, "%s", err);
		goto out_sync;
	}
	char why[COMM_ERRLEN] = "";
	unsigned refused = comm_rendezvous_refused(rdv, why, sizeof(why));
	if (refused)
		warn_msg(a->where, "the rendezvous refused %u connection%s; the last: %s", refused,
			 refused == 1 ? "" : "s", why);
	rc = report(&s, secs);
out_sync:
	if (watcher_up) {
		pthread_mutex_lock(&s.mu);
		s.finished = 1;
		pthread_cond_signal(&s.cv);
		pthread_mutex_unlock(&s.mu);
		pthread_join(wt, NULL);
	}
	pthread_cond_destroy(&s.cv);
	pthread_mutex_destroy(&s.mu);
out:
	comm_rendezvous_stop(rdv);
	fo_cancel_release(&s.cancel);
	for (size_t r = 0; s.hosts && r < s.n; r++)
		fo_host_release(&s.hosts[r]);
	for (size_t r = 0; cmds && r < s.n; r++)
		free(cmds[r]);
	free(cmds);
	free(s.hosts);
	free(s.end_seq);
	rt_table_release(&t);
	return rc;
}
