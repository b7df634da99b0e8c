/* `run --rendezvous etcd://HOST:PORT/PREFIX`: the ranks of a job meet through etcd (its v3
 * JSON gateway, over libcurl) instead of a --master address known in advance, as torchrun's
 * etcd rendezvous does. etcd only says where to meet: rank 0 hosts libcomm's rendezvous on
 * an ephemeral port and publishes its token; everything after is libcomm's, unchanged (it
 * knows nothing of etcd or libcurl).
 *
 * Keys under PREFIX, each under a lease of its writer (TTL HCCLCTL_ETCD_TTL, default 10 s,
 * kept alive while waiting, revoked at the end), so a dead rank's entries go by themselves:
 *   PREFIX/root                   rank 0: {"token", "world_size", "host", "pid"}
 *   PREFIX/run/E/rank/R           rank R: {"rank", "host", "pid"}, created only if absent
 *   PREFIX/run/E/go               rank 0, once all world_size ranks are there
 * E, the run's epoch, is the revision at which this run's root was created: entries of an
 * earlier run of the same job (same PREFIX) live under another E and are never counted.
 *   - Rank 0 creates the root only if there is none. One that is there is an earlier run's
 *     whose lease has not yet expired (it waits up to the TTL for it to go), or a second
 *     rank 0 that keeps it alive: a duplicate, named with its host and pid.
 *   - Rank R reads the root, checks the world size and creates its key under E. Taken: a
 *     duplicate rank R, named. A "go" under E older than its key: that run met without this
 *     rank (an earlier run's root not yet expired), so it waits for the next root. A root
 *     that changes while it waits (rank 0 restarted) makes it register again.
 *   - Everything has the meeting deadline; on a timeout rank 0 names the missing ranks and
 *     those that registered under an earlier run.
 * Every etcd answer is checked: not JSON, an error object, a missing or mistyped field, bad
 * base64 are errors that name the call and the JSON path. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "cmd/cli/cli.h"
#include "cmd/run/etcd_parse.h"
#include "cmd/run/run.h"
#include "ranktable/base/clock.h"
#include "ranktable/base/plural.h"

#define RESP_CAP (8UL << 20)
#define DEFAULT_TTL_S 10
#define REQ_TIMEOUT_MS 5000L
#define POLL_MIN_MS 5
#define POLL_MAX_MS 100
#define REPORT_S 10

struct rdv_etcd {
	struct fetch_http *h;
	char base[300];   /* http://HOST:PORT */
	char prefix[256]; /* /PREFIX, no trailing slash */
	char where[600];  /* etcd://HOST:PORT/PREFIX, for messages */
	int64_t lease;
	int ttl;
	double last_keepalive;
};


/* One etcd call: POSTs body to /v3/<api>, parses the answer. 0 and *out (the caller's), or
 * a negative errno with err naming the call. */
static int call(struct rdv_etcd *e, const char *api, const char *body, long timeout_ms,
		cJSON **out, char *err, size_t errlen)
{
	char url[400], loc[96], why[600];
	char *buf = NULL;
	size_t len = 0;
	snprintf(url, sizeof(url), "%s/v3/%s", e->base, api);
	int rc = fetch_http_request(e->h, url, body, RESP_CAP, timeout_ms, &buf, &len, why,
				    sizeof(why));
	if (rc && !buf) {
		snprintf(err, errlen, "etcd: %s", why);
		return rc;
	}
	const char *end = NULL;
	cJSON *j = cJSON_ParseWithLengthOpts(buf, len, &end, 0);
	if (!j && rc) { /* an HTTP error from something that is not etcd's gateway */
		snprintf(err, errlen, "etcd: %s", why);
		free(buf);
		return rc;
	}
	if (!j) {
		fetch_json_where(buf, len, cJSON_GetErrorPtr(), loc, sizeof(loc));
		snprintf(err, errlen, "etcd: %s: the answer is not JSON (%zu bytes): %s", url, len,
			 loc);
		free(buf);
		return -EBADMSG;
	}
	free(buf);
	const cJSON *msg = cJSON_GetObjectItemCaseSensitive(j, "message");
	if (!msg)
		msg = cJSON_GetObjectItemCaseSensitive(j, "error");
	if (rc || msg) {
		snprintf(err, errlen, "etcd: %s: %s", url,
			 cJSON_IsString(msg) ? msg->valuestring : why);
		cJSON_Delete(j);
		return rc ? rc : -EIO;
	}
	if (!cJSON_IsObject(j)) {
		snprintf(err, errlen, "etcd: %s: $: expected an object", url);
		cJSON_Delete(j);
		return -EBADMSG;
	}
	*out = j;
	return 0;
}

/* ---- requests ---- */

static char *key_of(const struct rdv_etcd *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static char *key_of(const struct rdv_etcd *e, const char *fmt, ...)
{
	char k[512], tail[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(tail, sizeof(tail), fmt, ap);
	va_end(ap);
	snprintf(k, sizeof(k), "%s/%s", e->prefix, tail);
	return etcdj_b64_encode(k, strlen(k));
}

/* The end of the range of every key that starts with key (base64 of key + 1 in its last
 * byte), as etcdctl --prefix does. */
static char *prefix_end(const struct rdv_etcd *e, const char *tail)
{
	char k[512];
	snprintf(k, sizeof(k), "%s/%s", e->prefix, tail);
	size_t n = strlen(k);
	k[n - 1]++;
	return etcdj_b64_encode(k, n);
}

static int keepalive(struct rdv_etcd *e, double now, char *err, size_t errlen)
{
	if (!e->lease || now - e->last_keepalive < e->ttl / 3.0)
		return 0;
	char body[96];
	cJSON *j = NULL;
	int64_t ttl = 0;
	snprintf(body, sizeof(body), "{\"ID\":\"%" PRId64 "\"}", e->lease);
	int rc = call(e, "lease/keepalive", body, REQ_TIMEOUT_MS, &j, err, errlen);
	if (rc)
		return rc;
	const cJSON *r = cJSON_GetObjectItemCaseSensitive(j, "result");
	rc = cJSON_IsObject(r) ? etcdj_i64(r, "TTL", "$.result", &ttl, err, errlen) : -EBADMSG;
	if (rc == -EBADMSG && !cJSON_IsObject(r))
		snprintf(err, errlen, "etcd: answer: $.result: missing");
	cJSON_Delete(j);
	if (!rc && ttl <= 0) {
		snprintf(err, errlen, "etcd: this rank's lease %" PRId64 " expired (the process was "
				      "stopped longer than its TTL of %d s?)", e->lease, e->ttl);
		return -ETIMEDOUT;
	}
	e->last_keepalive = now;
	return rc;
}

/* "etcd://HOST:PORT/PREFIX" or "etcds://..." (https, verified with --cacert). */
static int parse_url(struct rdv_etcd *e, const char *url, char *host, size_t hlen, char *err,
		     size_t errlen)
{
	int tls = !strncmp(url, "etcds://", 8);
	const char *p = tls ? url + 8 : !strncmp(url, "etcd://", 7) ? url + 7 : NULL;
	if (!p) {
		snprintf(err, errlen, "'%s': expected etcd://HOST:PORT/PREFIX", url);
		return -EINVAL;
	}
	const char *slash = strchr(p, '/');
	if (!slash || slash == p || !slash[1] || (size_t)(slash - p) >= hlen) {
		snprintf(err, errlen, "'%s': expected etcd://HOST:PORT/PREFIX (a job prefix, e.g. "
				      "/hcclctl/job-42)", url);
		return -EINVAL;
	}
	memcpy(host, p, (size_t)(slash - p));
	host[slash - p] = 0;
	snprintf(e->base, sizeof(e->base), "%s://%s", tls ? "https" : "http", host);
	size_t pl = strlen(slash);
	while (pl > 1 && slash[pl - 1] == '/')
		pl--;
	if (pl >= sizeof(e->prefix) - 64) {
		snprintf(err, errlen, "'%s': the prefix is longer than %zu characters", url,
			 sizeof(e->prefix) - 64);
		return -EINVAL;
	}
	memcpy(e->prefix, slash, pl);
	e->prefix[pl] = 0;
	snprintf(e->where, sizeof(e->where), "%s", url);
	/* the host part without the port, for the route to it */
	char *colon = strrchr(host, ':');
	if (host[0] == '[') {
		char *rb = strchr(host, ']');
		if (rb) {
			*rb = 0;
			memmove(host, host + 1, strlen(host));
		}
	} else if (colon) {
		*colon = 0;
	}
	return 0;
}

/* ---- the meeting ---- */

/* Reads PREFIX/root (and PREFIX/run/E/go when E is known) in one txn. */
static int read_root(struct rdv_etcd *e, int64_t epoch, struct etcdj_kv *root, struct etcdj_kv *go,
		     char *err, size_t errlen)
{
	char body[1400], path[96];
	char *rk = key_of(e, "root"), *gk = epoch ? key_of(e, "run/%" PRId64 "/go", epoch) : NULL;
	cJSON *j = NULL;
	int64_t cnt;
	int rc = -ENOMEM;
	memset(go, 0, sizeof(*go));
	if (!rk || (epoch && !gk))
		goto out;
	if (epoch)
		snprintf(body, sizeof(body),
			 "{\"success\":[{\"request_range\":{\"key\":\"%s\"}},"
			 "{\"request_range\":{\"key\":\"%s\"}}]}", rk, gk);
	else
		snprintf(body, sizeof(body), "{\"success\":[{\"request_range\":{\"key\":\"%s\"}}]}",
			 rk);
	rc = call(e, "kv/txn", body, REQ_TIMEOUT_MS, &j, err, errlen);
	if (rc)
		goto out;
	const cJSON *r = etcdj_txn_resp(j, 0, "response_range", path, sizeof(path), err, errlen);
	rc = r ? etcdj_range_kvs(r, path, root, &cnt, err, errlen) : -EBADMSG;
	if (!rc && epoch) {
		r = etcdj_txn_resp(j, 1, "response_range", path, sizeof(path), err, errlen);
		rc = r ? etcdj_range_kvs(r, path, go, &cnt, err, errlen) : -EBADMSG;
	}
out:
	cJSON_Delete(j);
	free(rk);
	free(gk);
	return rc;
}

struct root_info {
	char token[COMM_TOKEN_MAX];
	char host[256];
	long world, pid;
};

/* The value of PREFIX/root. */
static int parse_root(const struct etcdj_kv *k, struct root_info *ri, char *err, size_t errlen)
{
	cJSON *j = cJSON_ParseWithLength(k->value, k->value_len);
	char loc[96];
	int rc = -EBADMSG;
	memset(ri, 0, sizeof(*ri));
	if (!j) {
		fetch_json_where(k->value, k->value_len, cJSON_GetErrorPtr(), loc, sizeof(loc));
		snprintf(err, errlen, "etcd: %s: not JSON: %s", k->key, loc);
		return rc;
	}
	const cJSON *t = cJSON_GetObjectItemCaseSensitive(j, "token"),
		    *w = cJSON_GetObjectItemCaseSensitive(j, "world_size"),
		    *h = cJSON_GetObjectItemCaseSensitive(j, "host"),
		    *p = cJSON_GetObjectItemCaseSensitive(j, "pid");
	if (!cJSON_IsString(t) || strlen(t->valuestring) >= sizeof(ri->token))
		snprintf(err, errlen, "etcd: %s: $.token: expected a string of at most %zu "
				      "characters", k->key, sizeof(ri->token) - 1);
	else if (!cJSON_IsNumber(w) || w->valuedouble < 1 || w->valuedouble > 65536)
		snprintf(err, errlen, "etcd: %s: $.world_size: expected a number from 1 to 65536",
			 k->key);
	else
		rc = 0;
	if (!rc) {
		snprintf(ri->token, sizeof(ri->token), "%s", t->valuestring);
		ri->world = (long)w->valuedouble;
		snprintf(ri->host, sizeof(ri->host), "%s", cJSON_IsString(h) ? h->valuestring : "?");
		ri->pid = cJSON_IsNumber(p) ? (long)p->valuedouble : -1;
	}
	cJSON_Delete(j);
	return rc;
}

/* host and pid of a rank's entry, for messages ("?" when it does not say). */
static void holder(const struct etcdj_kv *k, char *out, size_t len)
{
	cJSON *j = cJSON_ParseWithLength(k->value, k->value_len);
	const cJSON *h = cJSON_GetObjectItemCaseSensitive(j, "host"),
		    *p = cJSON_GetObjectItemCaseSensitive(j, "pid");
	snprintf(out, len, "host %s, pid %ld", cJSON_IsString(h) ? h->valuestring : "?",
		 cJSON_IsNumber(p) ? (long)p->valuedouble : -1L);
	cJSON_Delete(j);
}

/* Creates key with value under our lease if it does not exist. 1: created (*rev its
 * revision), 0: it existed (*was filled), or a negative errno. With go_epoch, also reads
 * PREFIX/run/E/go into *go. */
static int create_key(struct rdv_etcd *e, const char *key64, const char *value, int64_t go_epoch,
		      int64_t *rev, struct etcdj_kv *was, struct etcdj_kv *go, char *err, size_t errlen)
{
	char *v64 = etcdj_b64_encode(value, strlen(value)),
	     *gk = go_epoch ? key_of(e, "run/%" PRId64 "/go", go_epoch) : NULL;
	char gr[600] = "", path[96];
	cJSON *j = NULL;
	int rc = -ENOMEM;
	if (!v64 || (go_epoch && !gk))
		goto out;
	if (gk)
		snprintf(gr, sizeof(gr), ",{\"request_range\":{\"key\":\"%s\"}}", gk);
	size_t blen = strlen(key64) * 3 + strlen(v64) + strlen(gr) * 2 + 400;
	char *body = malloc(blen);
	if (!body)
		goto out;
	snprintf(body, blen,
		 "{\"compare\":[{\"key\":\"%s\",\"target\":\"CREATE\",\"result\":\"EQUAL\","
		 "\"create_revision\":\"0\"}],"
		 "\"success\":[{\"request_put\":{\"key\":\"%s\",\"value\":\"%s\",\"lease\":\"%"
		 PRId64 "\"}}%s],"
		 "\"failure\":[{\"request_range\":{\"key\":\"%s\"}}%s]}",
		 key64, key64, v64, e->lease, gr, key64, gr);
	rc = call(e, "kv/txn", body, REQ_TIMEOUT_MS, &j, err, errlen);
	free(body);
	if (rc)
		goto out;
	const cJSON *ok = cJSON_GetObjectItemCaseSensitive(j, "succeeded");
	const cJSON *hdr = cJSON_GetObjectItemCaseSensitive(j, "header");
	int64_t cnt;
	if (ok && !cJSON_IsBool(ok)) {
		snprintf(err, errlen, "etcd: answer: $.succeeded: expected true or false");
		rc = -EBADMSG;
		goto out;
	}
	if (cJSON_IsTrue(ok)) {
		rc = cJSON_IsObject(hdr) ? etcdj_i64(hdr, "revision", "$.header", rev, err, errlen) :
					   -EBADMSG;
		if (rc == -EBADMSG && !cJSON_IsObject(hdr))
			snprintf(err, errlen, "etcd: answer: $.header: missing");
		if (!rc && gk) {
			const cJSON *r = etcdj_txn_resp(j, 1, "response_range", path, sizeof(path), err,
						  errlen);
			rc = r ? etcdj_range_kvs(r, path, go, &cnt, err, errlen) : -EBADMSG;
		}
		rc = rc ? rc : 1;
	} else {
		const cJSON *r = etcdj_txn_resp(j, 0, "response_range", path, sizeof(path), err, errlen);
		rc = r ? etcdj_range_kvs(r, path, was, &cnt, err, errlen) : -EBADMSG;
		if (!rc && gk) {
			r = etcdj_txn_resp(j, 1, "response_range", path, sizeof(path), err, errlen);
			rc = r ? etcdj_range_kvs(r, path, go, &cnt, err, errlen) : -EBADMSG;
		}
	}
out:
	cJSON_Delete(j);
	free(v64);
	free(gk);
	return rc;
}

static int delete_key(struct rdv_etcd *e, const char *key64, char *err, size_t errlen)
{
	char body[700];
	cJSON *j = NULL;
	snprintf(body, sizeof(body), "{\"key\":\"%s\"}", key64);
	int rc = call(e, "kv/deleterange", body, REQ_TIMEOUT_MS, &j, err, errlen);
	cJSON_Delete(j);
	return rc;
}

/* The rank numbers under PREFIX/run/ (keys only): bits in present[] for epoch E, and the
 * others (earlier runs) in stale[]. */
static int list_ranks(struct rdv_etcd *e, int64_t epoch, int n, char *present, char *stale,
		      char *err, size_t errlen)
{
	char *k = key_of(e, "run/"), *end = prefix_end(e, "run/"), body[1400];
	cJSON *j = NULL;
	int rc = -ENOMEM;
	if (!k || !end)
		goto out;
	snprintf(body, sizeof(body), "{\"key\":\"%s\",\"range_end\":\"%s\",\"keys_only\":true,"
				     "\"limit\":\"200000\"}", k, end);
	rc = call(e, "kv/range", body, REQ_TIMEOUT_MS, &j, err, errlen);
	if (rc)
		goto out;
	const cJSON *kvs = cJSON_GetObjectItemCaseSensitive(j, "kvs"), *x;
	size_t pl = strlen(e->prefix);
	cJSON_ArrayForEach(x, kvs)
	{
		char *key = NULL;
		if (etcdj_b64(x, "key", "$.kvs[]", &key, NULL, err, errlen))
			continue;
		long long ep;
		int r, used = 0;
		if (!strncmp(key, e->prefix, pl) &&
		    sscanf(key + pl, "/run/%lld/rank/%d%n", &ep, &r, &used) == 2 &&
		    !key[pl + (size_t)used] && r >= 0 && r < n)
			(ep == epoch ? present : stale)[r] = 1;
		free(key);
	}
out:
	cJSON_Delete(j);
	free(k);
	free(end);
	return rc;
}

static void rank_list(const char *bits, int n, int want, char *out, size_t len)
{
	size_t at = 0;
	int shown = 0;
	out[0] = 0;
	for (int r = 0; r < n && at + 24 < len; r++) {
		if (!bits[r] != !want)
			continue;
		int s = r;
		while (r + 1 < n && !bits[r + 1] == !want)
			r++;
		at += (size_t)snprintf(out + at, len - at, "%s%d", shown++ ? "," : "", s);
		if (r > s)
			at += (size_t)snprintf(out + at, len - at, "-%d", r);
	}
}

static int count_ranks(struct rdv_etcd *e, int64_t epoch, int64_t *count, char *err,
		       size_t errlen)
{
	char ep[32], body[1400];
	snprintf(ep, sizeof(ep), "run/%" PRId64 "/rank/", epoch);
	char *k = key_of(e, "%s", ep), *end = prefix_end(e, ep);
	cJSON *j = NULL;
	int rc = -ENOMEM;
	if (k && end) {
		snprintf(body, sizeof(body),
			 "{\"key\":\"%s\",\"range_end\":\"%s\",\"count_only\":true}", k, end);
		rc = call(e, "kv/range", body, REQ_TIMEOUT_MS, &j, err, errlen);
		if (!rc)
			rc = etcdj_range_kvs(j, "$", NULL, count, err, errlen);
	}
	cJSON_Delete(j);
	free(k);
	free(end);
	return rc;
}

static unsigned poll_ms(unsigned *cur)
{
	unsigned v = *cur;
	*cur = *cur * 2 > POLL_MAX_MS ? POLL_MAX_MS : *cur * 2;
	return v;
}

/* Rank 0: the root, waiting out an earlier run's. E in *epoch. */
static int publish_root(struct rdv_etcd *e, const char *value, double deadline,
			const char *label, int64_t *epoch, char *err, size_t errlen)
{
	char *rk = key_of(e, "root");
	double t0 = mono_s(), grace = e->ttl + 2.0;
	int64_t seen_rev = 0;
	int told = 0, rc;
	if (!rk)
		return -ENOMEM;
	for (;;) {
		struct etcdj_kv was = { 0 }, go = { 0 };
		rc = create_key(e, rk, value, 0, epoch, &was, &go, err, errlen);
		if (rc == 1) {
			rc = 0;
			break;
		}
		if (rc < 0)
			break;
		char who[300];
		holder(&was, who, sizeof(who));
		if (seen_rev != was.create_rev) { /* a new one: its own grace */
			seen_rev = was.create_rev;
			t0 = mono_s();
		}
		double now = mono_s();
		if (now - t0 > grace || now > deadline) {
			snprintf(err, errlen, "etcd %s: rank 0 is already there (%s) and keeps its "
					      "entry alive: a second rank 0 of this job",
				 e->where, who);
			etcdj_kv_release(&was);
			rc = -EEXIST;
			break;
		}
		if (!told++ && !g_opts.quiet)
			fprintf(stderr, "hcclctl: %s: rank 0: %s holds an entry of rank 0 (%s), from "
					"an earlier run?: waiting up to %.0f s for its lease to expire\n",
				label, e->where, who, grace);
		etcdj_kv_release(&was);
		if ((rc = keepalive(e, now, err, errlen)))
			break;
		usleep(200 * 1000);
	}
	free(rk);
	return rc;
}

/* Where one rank stands in the meeting: the run it registered under (the root's create
 * revision), its own key there, the clock, and what the timeout's message should add. */
struct meet {
	const struct rdv_etcd_args *a;
	struct rdv_etcd *e;
	char value[COMM_TOKEN_MAX + 600]; /* what this rank registers */
	char *mykey;
	int64_t epoch, myrev;
	double t0, deadline, next_report;
	char skipped[1024]; /* the run that met without us, for the timeout's message */
};

/* The connection to etcd and a lease: what we write goes when we do. */
static int open_lease(struct rdv_etcd *e, const char *url, char *host, size_t hostlen,
		      char *err, size_t errlen)
{
	cJSON *j = NULL;
	int rc = parse_url(e, url, host, hostlen, err, errlen);
	if (rc || (rc = fetch_http_init(&e->h, err, errlen)))
		return rc;
	const char *t = getenv("HCCLCTL_ETCD_TTL");
	e->ttl = t && atoi(t) >= 2 && atoi(t) <= 3600 ? atoi(t) : DEFAULT_TTL_S;
	char body[160];
	snprintf(body, sizeof(body), "{\"TTL\":\"%d\"}", e->ttl);
	if ((rc = call(e, "lease/grant", body, REQ_TIMEOUT_MS, &j, err, errlen)))
		return rc;
	rc = etcdj_i64(j, "ID", "$", &e->lease, err, errlen);
	cJSON_Delete(j);
	if (!rc && !e->lease) {
		snprintf(err, errlen, "etcd: answer of lease/grant: $.ID: missing");
		rc = -EBADMSG;
	}
	e->last_keepalive = mono_s();
	return rc;
}

/* Rank 0: host libcomm's rendezvous where the others reach us (an ephemeral port on the
 * address that routes to etcd, or the one given) and publish it as the run's root. */
static int host_root(struct meet *m, const char *host, struct comm_root_info *ri,
		     struct comm_rendezvous **rdv, char *err, size_t errlen)
{
	const struct rdv_etcd_args *a = m->a;
	char addr[256], cerr[COMM_ERRLEN];
	if (a->bind_addr)
		snprintf(addr, sizeof(addr), "%s", a->bind_addr);
	else if (run_route_addr(host, addr, sizeof(addr), err, errlen))
		return -EHOSTUNREACH;
	if (comm_root_info_make(ri, addr, 0, NULL, cerr, sizeof(cerr)) ||
	    comm_rendezvous_start(rdv, ri, a->nranks, a->rdv_timeout_ms, cerr, sizeof(cerr))) {
		snprintf(err, errlen, "rank 0 cannot host the rendezvous on %s: %s", addr, cerr);
		return -EADDRNOTAVAIL;
	}
	cJSON *v = cJSON_CreateObject();
	cJSON_AddStringToObject(v, "token", ri->token);
	cJSON_AddNumberToObject(v, "world_size", a->nranks);
	cJSON_AddStringToObject(v, "host", a->host);
	cJSON_AddNumberToObject(v, "pid", getpid());
	char *s = cJSON_PrintUnformatted(v);
	cJSON_Delete(v);
	if (!s)
		return -ENOMEM;
	snprintf(m->value, sizeof(m->value), "%s", s);
	free(s);
	return publish_root(m->e, m->value, m->deadline, a->label, &m->epoch, err, errlen);
}

/* Rank 0 past its deadline: which ranks never registered, and which did only under an earlier
 * run. */
static int root_timeout(struct meet *m, double now, char *err, size_t errlen)
{
	int n = m->a->nranks, missing = 0;
	char *present = calloc((size_t)n, 2), list[400], stale[400];
	if (!present)
		return -ENOMEM;
	int rc = list_ranks(m->e, m->epoch, n, present, present + n, err, errlen);
	if (rc) {
		free(present);
		return rc;
	}
	for (int r = 0; r < n; r++)
		missing += !present[r];
	rank_list(present, n, 0, list, sizeof(list));
	for (int r = 0; r < n; r++) /* stale and not here */
		present[n + r] &= !present[r];
	rank_list(present + n, n, 1, stale, sizeof(stale));
	snprintf(err, errlen, "etcd %s: %d of %d ranks never registered within %.1f s: rank%s %s%s%s",
		 m->e->where, missing, n, now - m->t0, plural_s(missing), list,
		 *stale ? "; registered under an earlier run only: " : "", stale);
	free(present);
	return -ETIMEDOUT;
}

/* One look of rank 0's: its own entry, then the count; every rank there, it says go. 1 met, 0
 * not yet, < 0 an error. */
static int root_step(struct meet *m, double now, char *err, size_t errlen)
{
	const struct rdv_etcd_args *a = m->a;
	int rc;
	if (!m->mykey) {
		struct etcdj_kv was = { 0 }, go = { 0 };
		m->mykey = key_of(m->e, "run/%" PRId64 "/rank/0", m->epoch);
		if (!m->mykey)
			return -ENOMEM;
		rc = create_key(m->e, m->mykey, m->value, 0, &m->myrev, &was, &go, err, errlen);
		etcdj_kv_release(&was);
		if (rc < 0)
			return rc;
	}
	int64_t count = 0;
	if ((rc = count_ranks(m->e, m->epoch, &count, err, errlen)))
		return rc;
	if (count >= a->nranks) {
		char *gk = key_of(m->e, "run/%" PRId64 "/go", m->epoch);
		struct etcdj_kv was = { 0 }, go = { 0 };
		int64_t rev;
		char n[32];
		snprintf(n, sizeof(n), "%d", a->nranks);
		rc = gk ? create_key(m->e, gk, n, 0, &rev, &was, &go, err, errlen) : -ENOMEM;
		etcdj_kv_release(&was);
		free(gk);
		return rc < 0 ? rc : 1;
	}
	if (now > m->deadline)
		return root_timeout(m, now, err, errlen);
	if (now - m->t0 > m->next_report && !g_opts.quiet) {
		fprintf(stderr, "hcclctl: %s: rank 0: %" PRId64 " of %d ranks at %s after %.0f s\n",
			a->label, count, a->nranks, m->e->where, now - m->t0);
		m->next_report += REPORT_S;
	}
	return 0;
}

/* A rank's entry taken under a root that turned out to have met already: an earlier run's
 * root, not expired. Noted for the timeout's message; this rank waits for this run's. */
static int met_without_us(struct meet *m, const struct root_info *rinfo, int created,
			  const struct etcdj_kv *was, char *err, size_t errlen)
{
	const struct rdv_etcd_args *a = m->a;
	char who[300] = "?";
	int rc = 0;
	if (created)
		rc = delete_key(m->e, m->mykey, err, errlen);
	else
		holder(was, who, sizeof(who));
	snprintf(m->skipped, sizeof(m->skipped),
		 "; the only rank 0 (host %s, pid %ld) led a run that met without this rank "
		 "(rank %d there: %s): a rank 0 of this run never came, or this rank %d is a "
		 "duplicate that came late",
		 rinfo->host, rinfo->pid, a->rank, who, a->rank);
	m->myrev = 0;
	if (!g_opts.quiet && !rc)
		fprintf(stderr, "hcclctl: %s: rank %d: the rank 0 entry at %s (host %s, pid %ld) "
				"is of an earlier run that met already: waiting for this run's\n",
			a->label, a->rank, m->e->where, rinfo->host, rinfo->pid);
	return rc;
}

/* A root new to this rank: leave what it had and register under it, with its token. */
static int join_root(struct meet *m, struct etcdj_kv *root, struct comm_root_info *ri,
		     char *err, size_t errlen)
{
	const struct rdv_etcd_args *a = m->a;
	struct root_info rinfo;
	int rc = parse_root(root, &rinfo, err, errlen);
	if (!rc && rinfo.world != a->nranks) {
		snprintf(err, errlen, "etcd %s: world size mismatch: rank 0 (host %s, pid %ld) has "
				      "%ld ranks, rank %d has %d",
			 m->e->where, rinfo.host, rinfo.pid, rinfo.world, a->rank, a->nranks);
		rc = -EINVAL;
	}
	if (!rc && m->mykey && m->myrev)
		rc = delete_key(m->e, m->mykey, err, errlen);
	free(m->mykey);
	m->mykey = NULL;
	m->myrev = 0;
	if (!rc) {
		m->epoch = root->create_rev;
		snprintf(ri->token, sizeof(ri->token), "%s", rinfo.token);
		m->mykey = key_of(m->e, "run/%" PRId64 "/rank/%d", m->epoch, a->rank);
		rc = m->mykey ? 0 : -ENOMEM;
	}
	struct etcdj_kv was = { 0 }, go = { 0 };
	if (!rc)
		rc = create_key(m->e, m->mykey, m->value, m->epoch, &m->myrev, &was, &go, err,
				errlen);
	if (rc == 0 && !go.create_rev) { /* taken, and that run still meets */
		char who[300];
		holder(&was, who, sizeof(who));
		snprintf(err, errlen, "etcd %s: rank %d is already registered for this run (%s): a "
				      "duplicate rank %d",
			 m->e->where, a->rank, who, a->rank);
		rc = -EEXIST;
	} else if (rc >= 0 && go.create_rev) {
		rc = met_without_us(m, &rinfo, rc == 1, &was, err, errlen);
	} else if (rc == 1) {
		rc = 0;
	}
	etcdj_kv_release(&was);
	etcdj_kv_release(&go);
	return rc;
}

/* One look of another rank's: a new root to join, or the go of the run it is in. 1 met, 0 not
 * yet, < 0 an error. */
static int member_step(struct meet *m, double now, struct comm_root_info *ri, char *err,
		       size_t errlen)
{
	const struct rdv_etcd_args *a = m->a;
	struct etcdj_kv root, go;
	int rc = read_root(m->e, m->myrev ? m->epoch : 0, &root, &go, err, errlen), met = 0;
	if (rc)
		return rc;
	if (root.create_rev && root.create_rev != m->epoch)
		rc = join_root(m, &root, ri, err, errlen);
	else if (root.create_rev && m->myrev && go.create_rev)
		met = 1; /* rank 0 counted every rank: meet in libcomm */
	etcdj_kv_release(&root);
	etcdj_kv_release(&go);
	if (rc < 0 || met)
		return rc < 0 ? rc : 1;
	/* a second later than rank 0, which names the missing ranks */
	if (now > m->deadline + 1) {
		snprintf(err, errlen, "etcd %s: rank %d: %s within %.1f s%s", m->e->where, a->rank,
			 m->myrev ? "rank 0 did not see every rank" : "no rank 0 registered",
			 now - m->t0, m->skipped);
		return -ETIMEDOUT;
	}
	if (now - m->t0 > m->next_report && !g_opts.quiet) {
		fprintf(stderr, "hcclctl: %s: rank %d: waiting for %s at %s after %.0f s\n", a->label,
			a->rank, m->epoch ? "the other ranks" : "rank 0", m->e->where, now - m->t0);
		m->next_report += REPORT_S;
	}
	return 0;
}

int rdv_etcd_meet(const struct rdv_etcd_args *a, struct comm_root_info *ri,
		  struct comm_rendezvous **rdv, struct rdv_etcd **out, char *err, size_t errlen)
{
	struct meet m = { .a = a, .e = calloc(1, sizeof(struct rdv_etcd)) };
	char host[256];
	unsigned wait = POLL_MIN_MS;
	int rc = -ENOMEM;

	*out = NULL;
	*rdv = NULL;
	if (!m.e)
		return rc;
	m.t0 = mono_s();
	m.deadline = m.t0 + a->timeout_ms / 1000.0;
	m.next_report = REPORT_S;
	if ((rc = open_lease(m.e, a->url, host, sizeof(host), err, errlen)))
		goto fail;
	if (a->rank == 0 && (rc = host_root(&m, host, ri, rdv, err, errlen)))
		goto fail;
	snprintf(m.value, sizeof(m.value), "{\"rank\":%d,\"host\":\"%.200s\",\"pid\":%ld}",
		 a->rank, a->host, (long)getpid());
	for (;;) {
		double now = mono_s();
		if ((rc = keepalive(m.e, now, err, errlen)))
			goto fail;
		rc = a->rank == 0 ? root_step(&m, now, err, errlen) :
				    member_step(&m, now, ri, err, errlen);
		if (rc < 0)
			goto fail;
		if (rc == 1)
			break;
		usleep(poll_ms(&wait) * 1000);
	}
	free(m.mykey);
	*out = m.e;
	return 0;
fail:
	free(m.mykey);
	if (*rdv) {
		comm_rendezvous_stop(*rdv);
		*rdv = NULL;
	}
	rdv_etcd_finish(m.e);
	return rc;
}

void rdv_etcd_finish(struct rdv_etcd *e)
{
	if (!e)
		return;
	if (e->lease && e->h) { /* our entries go now, not after the TTL */
		char body[96], err[256];
		cJSON *j = NULL;
		snprintf(body, sizeof(body), "{\"ID\":\"%" PRId64 "\"}", e->lease);
		if (!call(e, "lease/revoke", body, 2000, &j, err, sizeof(err)))
			cJSON_Delete(j);
	}
	fetch_http_free(e->h);
	free(e);
}
