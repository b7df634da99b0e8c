/* hcclctl probe roce --ping-list: the node side of --mesh. It pings the listed device IPs
 * through this server's own hccn_tool, one thread per local device so their runs overlap,
 * retries while hccn_tool says it is busy, and prints one JSON document (npumesh.h) for the
 * launcher. Apart from the launcher because it runs on another host and shares only the
 * document's format with it. */
#include <arpa/inet.h>
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "cmd/probe/probe_mesh.h"
#include "probes/nic/hccn.h"
#include "ranktable/base/clock.h"

#define MAX_ITEMS 256	 /* pings one node side runs in one call */
#define BUSY_RETRIES 5	 /* "hccn_tool is busy": tries again this often ... */
#define BUSY_WAIT_MS 500 /* ... this far apart */

static const char *const hccn_fallbacks[] = {"/usr/local/Ascend/driver/tools/hccn_tool", NULL};

static void sleep_ms(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
	nanosleep(&ts, NULL);
}

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
	int hccs; /* hccn_tool -hccs_ping, not -ping */
	const char *server_env; /* HCCLCTL_SERVER_ID=ID, or NULL: see node_run */
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
		int rc = probe_tool_run_env(w->hccn, argv, w->server_env, w->timeout_ms, r, err,
					    sizeof(err));
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
		const char *const *a = w->hccs ? hc : it->v6 ? v6 : v4;
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

/* Why the node side could not run, for its caller to print (a command) or to keep (the
 * launcher, for a server on this host). */
struct node_why {
	char what[PROBE_ERRLEN + 160];
	const char *hint;
};

static int why(struct node_why *y, int code, const char *hint, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int why(struct node_why *y, int code, const char *hint, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(y->what, sizeof(y->what), fmt, ap);
	va_end(ap);
	y->hint = hint;
	return code;
}

/* One call's pings and LLDP queries, done: its items and per-device workers. */
struct node_run {
	char hccn[1024];
	char server_env[300];
	struct item *it;
	struct dev_work *w;
	size_t n, nw;
};

static void node_run_free(struct node_run *r)
{
	free(r->w);
	free(r->it);
}

/* "0=10.0.0.2,1=10.0.0.3" into items; "" is no item. 0, or an exit code with why. */
static int parse_items(const char *list, struct item **out, size_t *nout, struct node_why *y)
{
	struct item *v = calloc(MAX_ITEMS, sizeof(*v));
	size_t n = 0;
	if (!v)
		return why(y, EXIT_UNKNOWN, NULL, "out of memory");
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
	return why(y, EXIT_USAGE, "e.g. --ping-list 0=192.168.1.2,1=192.168.1.3",
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

/* Runs the pings and LLDP queries q asks for; 0 with r filled (free it with node_run_free),
 * or an exit code with why. */
static int node_run(const struct pmesh_node_req *q, struct node_run *r, struct node_why *y)
{
	char err[PROBE_ERRLEN];
	pthread_t *th = NULL;
	long *lldp_ids = NULL;
	size_t nlldp = 0;
	int rc;

	memset(r, 0, sizeof(*r));
	if ((rc = parse_items(q->ping_list, &r->it, &r->n, y)))
		return rc;
	if (q->lldp && q->devices && rt_parse_devices(q->devices, &lldp_ids, &nlldp, err, sizeof(err))) {
		rc = why(y, EXIT_USAGE, "e.g. --devices 0-7", "--devices: %s", err);
		goto out;
	}
	if (probe_tool_find("hccn_tool", q->hccn_tool, "HCCLCTL_HCCN_TOOL", hccn_fallbacks, r->hccn,
			    sizeof(r->hccn), err, sizeof(err))) {
		rc = why(y, EXIT_UNKNOWN,
			 "install the Ascend driver, or pass --hccn-tool PATH (or set "
			 "HCCLCTL_HCCN_TOOL)",
			 "%s (missing)", err);
		goto out;
	}
	if (access(r->hccn, X_OK)) {
		rc = why(y, EXIT_UNKNOWN,
			 "install the Ascend driver, or pass --hccn-tool PATH (or set "
			 "HCCLCTL_HCCN_TOOL)",
			 "hccn_tool %s cannot be run: %s", r->hccn, strerror(errno));
		goto out;
	}
	/* which server of the table hccn_tool runs for, in its environment: every server's
	 * side may run in one process (the launcher's, for servers on its host), so a wrapper
	 * of hccn_tool cannot tell from its parent */
	if (q->server_id)
		snprintf(r->server_env, sizeof(r->server_env), "HCCLCTL_SERVER_ID=%s", q->server_id);
	size_t n = r->n;
	r->w = calloc(n + nlldp + 1, sizeof(*r->w));
	th = calloc(n + nlldp + 1, sizeof(*th));
	if (!r->w || !th) {
		rc = why(y, EXIT_UNKNOWN, NULL, "out of memory");
		goto out;
	}
	/* one worker per device: its LLDP first, then its pings in order */
	for (size_t i = 0; i < n + nlldp; i++) {
		long dev = i < n ? r->it[i].dev : lldp_ids[i - n];
		size_t k = 0;
		while (k < r->nw && r->w[k].dev != dev)
			k++;
		if (k == r->nw) {
			r->w[k].dev = dev;
			r->w[k].hccn = r->hccn;
			r->w[k].timeout_ms = q->timeout_s * 1000;
			r->w[k].hccs = q->hccs;
			r->w[k].server_env = r->server_env[0] ? r->server_env : NULL;
			r->nw++;
		}
		if (i < n && r->w[k].n < MAX_ITEMS)
			r->w[k].items[r->w[k].n++] = &r->it[i];
		if (q->lldp && (!q->devices || i >= n))
			r->w[k].lldp = 1;
	}
	size_t started = 0;
	for (; started < r->nw; started++)
		if (pthread_create(&th[started], NULL, dev_thread, &r->w[started]))
			break;
	for (size_t k = started; k < r->nw; k++)
		dev_thread(&r->w[k]); /* no thread left: run it here */
	for (size_t k = 0; k < started; k++)
		pthread_join(th[k], NULL);
	rc = EXIT_OK;
out:
	if (rc)
		node_run_free(r);
	free(th);
	free(lldp_ids);
	return rc;
}

/* The answer document of a run (npumesh.h), or NULL when out of memory. */
static cJSON *node_doc(const struct node_run *r, const char *server_id)
{
	cJSON *doc = npumesh_reply_new(server_id);
	if (!doc)
		return NULL;
	cJSON_AddStringToObject(doc, "hccn_tool", r->hccn);
	for (size_t i = 0; i < r->n; i++)
		npumesh_reply_ping(doc, r->it[i].dev, r->it[i].ip, r->it[i].ok ? &r->it[i].p : NULL,
				   r->it[i].error);
	for (size_t k = 0; k < r->nw; k++)
		if (r->w[k].lldp)
			npumesh_reply_lldp(doc, r->w[k].dev, r->w[k].lldp_ok ? &r->w[k].l : NULL,
					   r->w[k].lldp_error);
	cJSON_AddNumberToObject(doc, "exit_code", 0);
	return doc;
}

int pmesh_node_answer(const struct pmesh_node_req *q, char **out, size_t *outlen, char *err,
		      size_t errlen)
{
	struct node_run r;
	struct node_why y = {{0}, NULL};
	int rc = node_run(q, &r, &y);
	if (rc) {
		snprintf(err, errlen, "%s", y.what);
		return rc;
	}
	cJSON *doc = node_doc(&r, q->server_id);
	*out = doc ? cJSON_PrintUnformatted(doc) : NULL;
	*outlen = *out ? strlen(*out) : 0;
	cJSON_Delete(doc);
	node_run_free(&r);
	if (!*out) {
		snprintf(err, errlen, "out of memory");
		return EXIT_UNKNOWN;
	}
	return EXIT_OK;
}

int pmesh_node_main(const struct probe_mesh_common *c)
{
	const struct pmesh_node_req q = {probe_mesh_opts.ping_list, c->devices, c->hccn_tool,
					 c->server_id, probe_mesh_opts.lldp,
					 probe_mesh_opts.hccs, c->timeout_s};
	struct node_run r;
	struct node_why y = {{0}, NULL};
	int rc = node_run(&q, &r, &y);
	if (rc)
		return fail(rc, WHERE, y.hint, "%s", y.what);
	if (!g_opts.json) {
		print_node_text(r.it, r.n, r.w, r.nw);
	} else {
		cJSON *doc = node_doc(&r, c->server_id);
		if (!doc)
			rc = fail(EXIT_UNKNOWN, WHERE, NULL, "out of memory");
		else
			out_json(doc);
	}
	node_run_free(&r);
	return rc;
}
