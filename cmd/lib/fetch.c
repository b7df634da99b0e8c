/* Reads the input of a command: a file, "-" for stdin, or an http(s) URL through libcurl.
 *
 * Every URL input of every command goes through here, so they all behave alike: https is
 * verified (the system's CAs, or --cacert / HCCLCTL_CACERT), a transfer has a deadline
 * (--url-timeout / HCCLCTL_URL_TIMEOUT, default 30 s) and a size cap (the caller's, lowered
 * by HCCLCTL_URL_MAX_SIZE), and each way of failing has its own message and hint: an HTTP
 * error with the server's status line, a TLS failure, a timeout, a body that is not JSON.
 *
 * Rank tables also wait: MindCluster's Ascend Operator writes hccl.json into a ConfigMap as
 * {"status":"initializing"} and fills it in later, and HCCL re-reads it every second until
 * its status is "completed". fetch_table does the same for --wait SEC, with progress.
 *
 * The same HTTP code serves JSON APIs (etcd's gateway, rdv_etcd.c) over one kept-alive
 * connection per struct fetch_http.
 *
 * libcurl is opened at the first URL (curlapi.h says why): a command that reads no URL
 * works without it, one that does fails, like any fetch, with the package to install. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "cmd/cli/cli.h"
#include "cmd/cli/curlapi.h"
#include "cmd/lib/deploy.h"
#include "ranktable/ranktable.h"
#include "ranktable/base/buf.h"
#include "ranktable/base/clock.h"
#include "ranktable/base/size.h"

#define DEFAULT_TIMEOUT_S 30
#define CONNECT_TIMEOUT_S 10
#define WAIT_POLL_MS 1000 /* HCCL re-reads an initializing table every second */
#define WAIT_REPORT_S 10  /* a progress line this often while waiting */

const char *fetch_cacert;
long fetch_timeout_s;
long fetch_wait_s = -1;

static char last_hint[256];

const char *fetch_hint(void)
{
	return *last_hint ? last_hint : NULL;
}

int fetch_is_url(const char *s)
{
	return !strncmp(s, "http://", 7) || !strncmp(s, "https://", 8);
}

static const char *cacert(void)
{
	if (fetch_cacert)
		return fetch_cacert;
	const char *e = getenv("HCCLCTL_CACERT");
	return e && *e ? e : NULL;
}

long fetch_timeout_ms(void)
{
	if (fetch_timeout_s > 0)
		return fetch_timeout_s * 1000;
	const char *e = getenv("HCCLCTL_URL_TIMEOUT");
	char *end;
	if (e && *e) {
		double v = strtod(e, &end);
		if (!*end && v > 0 && v <= 86400)
			return (long)(v * 1000);
	}
	return DEFAULT_TIMEOUT_S * 1000L;
}

static size_t capped(size_t cap)
{
	const char *e = getenv("HCCLCTL_URL_MAX_SIZE");
	unsigned long long v;
	if (e && *e && !parse_size(e, &v) && v > 0 && v < cap)
		return (size_t)v;
	return cap;
}

/* ---- HTTP ---- */

struct sink {
	struct buf b; /* the body, up to the caller's cap: past it the transfer is aborted */
	char status_line[128]; /* the last response's, e.g. "HTTP/1.1 404 Not Found" */
};

static size_t on_data(char *p, size_t size, size_t n, void *arg)
{
	struct sink *s = arg;
	size_t add = size * n;
	return buf_add(&s->b, p, add) ? 0 : add; /* 0 aborts the transfer */
}

static size_t on_header(char *p, size_t size, size_t n, void *arg)
{
	struct sink *s = arg;
	size_t len = size * n;
	if (len > 5 && !strncmp(p, "HTTP/", 5)) {
		while (len && (p[len - 1] == '\r' || p[len - 1] == '\n'))
			len--;
		if (len >= sizeof(s->status_line))
			len = sizeof(s->status_line) - 1;
		memcpy(s->status_line, p, len);
		s->status_line[len] = 0;
	}
	return size * n;
}

struct fetch_http {
	const struct libcurl_api *cu;
	CURL *c;
	struct curl_slist *headers;
};

int fetch_http_init(struct fetch_http **out, char *err, size_t errlen)
{
	char why[512];
	const struct libcurl_api *cu = libcurl(why, sizeof(why));
	if (!cu) {
		const char *pkg = deploy_lib_packages(LIBCURL_SONAME);
		snprintf(err, errlen, "%s%s%s", why, pkg ? ": install " : "", pkg ? pkg : "");
		return -ELIBACC;
	}
	struct fetch_http *h = calloc(1, sizeof(*h));
	if (!h || !(h->c = cu->easy_init())) {
		free(h);
		snprintf(err, errlen, "cannot start libcurl: out of memory");
		return -ENOMEM;
	}
	h->cu = cu;
	*out = h;
	return 0;
}

void fetch_http_free(struct fetch_http *h)
{
	if (!h)
		return;
	h->cu->slist_free_all(h->headers);
	h->cu->easy_cleanup(h->c);
	free(h);
}

/* The status line without "HTTP/1.1 ": "404 Not Found". */
static const char *status_text(const struct sink *s, long status, char *buf, size_t len)
{
	const char *sp = strchr(s->status_line, ' ');
	if (sp && sp[1])
		snprintf(buf, len, "%s", sp + 1);
	else
		snprintf(buf, len, "%ld", status);
	return buf;
}

int fetch_http_request(struct fetch_http *h, const char *url, const char *body, size_t cap,
		       long timeout_ms, char **out, size_t *len, char *err, size_t errlen)
{
	struct sink s = {.b = BUF_INIT(capped(cap))};
	char cerr[CURL_ERROR_SIZE] = "", st[128];
	long status = 0;
	int rc = -EIO;
	const struct libcurl_api *cu = h->cu;
	CURL *c = h->c;

	*last_hint = 0;
	cu->easy_reset(c);
	cu->easy_setopt(c, CURLOPT_URL, url);
	cu->easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
	cu->easy_setopt(c, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
	cu->easy_setopt(c, CURLOPT_FOLLOWLOCATION, 1L);
	cu->easy_setopt(c, CURLOPT_MAXREDIRS, 3L);
	cu->easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS,
			 timeout_ms < CONNECT_TIMEOUT_S * 1000L ? timeout_ms :
								   CONNECT_TIMEOUT_S * 1000L);
	cu->easy_setopt(c, CURLOPT_TIMEOUT_MS, timeout_ms);
	cu->easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	cu->easy_setopt(c, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)s.b.max);
	cu->easy_setopt(c, CURLOPT_WRITEFUNCTION, on_data);
	cu->easy_setopt(c, CURLOPT_WRITEDATA, &s);
	cu->easy_setopt(c, CURLOPT_HEADERFUNCTION, on_header);
	cu->easy_setopt(c, CURLOPT_HEADERDATA, &s);
	cu->easy_setopt(c, CURLOPT_ERRORBUFFER, cerr);
	cu->easy_setopt(c, CURLOPT_USERAGENT, "hcclctl/" HCCLCTL_VERSION);
	if (cacert())
		cu->easy_setopt(c, CURLOPT_CAINFO, cacert());
	if (body) {
		if (!h->headers)
			h->headers = cu->slist_append(NULL, "Content-Type: application/json");
		cu->easy_setopt(c, CURLOPT_HTTPHEADER, h->headers);
		cu->easy_setopt(c, CURLOPT_POSTFIELDS, body);
	}
	CURLcode cc = cu->easy_perform(c);
	cu->easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
	const char *why = *cerr ? cerr : cu->easy_strerror(cc);
	if (s.b.err == -E2BIG || cc == CURLE_FILESIZE_EXCEEDED) {
		snprintf(err, errlen, "%s: larger than %zu bytes", url, s.b.max);
		snprintf(last_hint, sizeof(last_hint),
			 "is this the right URL? the limit is %zu bytes (HCCLCTL_URL_MAX_SIZE "
			 "lowers "
			 "it)",
			 s.b.max);
		rc = -EFBIG;
	} else if (cc == CURLE_OPERATION_TIMEDOUT) {
		snprintf(err, errlen, "%s: no complete answer within %.3g s (%zu bytes received)",
			 url, (double)timeout_ms / 1000, s.b.len);
		snprintf(last_hint, sizeof(last_hint),
			 "check the server; --url-timeout SEC (HCCLCTL_URL_TIMEOUT) waits longer");
		rc = -ETIMEDOUT;
	} else if (cc == CURLE_PEER_FAILED_VERIFICATION || cc == CURLE_SSL_CONNECT_ERROR ||
		   cc == CURLE_SSL_CACERT_BADFILE || cc == CURLE_SSL_CERTPROBLEM) {
		snprintf(err, errlen, "%s: TLS: %s", url, why);
		snprintf(last_hint, sizeof(last_hint), "%s",
			 cc == CURLE_SSL_CACERT_BADFILE ?
				 "--cacert (HCCLCTL_CACERT) must be a readable PEM file of CA "
				 "certificates" :
				 "give the CA certificate that signed the server's with --cacert FILE "
				 "(or HCCLCTL_CACERT); the certificate must name the host of the URL");
		rc = -EPROTO;
	} else if (cc != CURLE_OK) {
		snprintf(err, errlen, "%s: %s", url, why);
		rc = cc == CURLE_COULDNT_CONNECT || cc == CURLE_COULDNT_RESOLVE_HOST ? -ECONNREFUSED :
										       -EIO;
	} else if (status >= 400) {
		snprintf(err, errlen, "%s: HTTP %s", url, status_text(&s, status, st, sizeof(st)));
		if (status == 404)
			snprintf(last_hint, sizeof(last_hint), "check the URL's path");
		rc = status == 404 ? -ENOENT : -EIO;
		if (body && s.b.p) { /* a JSON API says why in the body: keep it for the caller */
			*len = s.b.len;
			*out = buf_take(&s.b);
		}
	} else {
		*len = s.b.len;
		*out = buf_take(&s.b);
		rc = *out ? 0 : -ENOMEM;
	}
	buf_release(&s.b);
	return rc;
}

static int fetch_url(const char *url, size_t cap, char **buf, size_t *len, char **ctype,
		     char *err, size_t errlen)
{
	struct fetch_http *h;
	char why[512];
	int rc = fetch_http_init(&h, why, sizeof(why));
	if (rc) {
		snprintf(err, errlen, "%s: %s", url, why);
		return rc;
	}
	rc = fetch_http_request(h, url, NULL, cap, fetch_timeout_ms(), buf, len, err, errlen);
	if (!rc && ctype) {
		char *ct = NULL;
		h->cu->easy_getinfo(h->c, CURLINFO_CONTENT_TYPE, &ct);
		*ctype = ct ? strdup(ct) : NULL;
	}
	fetch_http_free(h);
	return rc;
}

int fetch_input(const char *what, size_t cap, char **buf, size_t *len, char *err, size_t errlen)
{
	*last_hint = 0;
	if (fetch_is_url(what))
		return fetch_url(what, cap, buf, len, NULL, err, errlen);
	return rt_read_file(what, cap, buf, len, err, errlen);
}

/* ---- JSON ---- */

int fetch_json_where(const char *buf, size_t len, const char *at, char *out, size_t outlen)
{
	unsigned line = 1, col = 1;
	if (!at || at < buf || at > buf + len)
		at = buf + len;
	for (const char *p = buf; p < at; p++) {
		if (*p == '\n') {
			line++;
			col = 1;
		} else {
			col++;
		}
	}
	char near[24];
	size_t k = 0;
	for (const char *p = at; p < buf + len && k < 16 && *p != '\n'; p++)
		near[k++] = (*p >= 32 && *p < 127) ? *p : '?';
	near[k] = 0;
	if (at >= buf + len)
		return snprintf(out, outlen, "line %u, column %u: unexpected end", line, col);
	return snprintf(out, outlen, "line %u, column %u: near '%s'", line, col, near);
}

/* ---- rank tables ---- */

long fetch_wait_limit(void)
{
	if (fetch_wait_s >= 0)
		return fetch_wait_s;
	const char *e = getenv("HCCLCTL_RANKTABLE_WAIT");
	char *end;
	if (e && *e) {
		long v = strtol(e, &end, 10);
		if (!*end && v >= 0 && v <= 86400)
			return v;
	}
	return 0;
}

/* 1 when buf is a JSON object whose "status" is "initializing", 0 when it is some other
 * JSON, -1 when it is not JSON (where says where it stops being JSON). */
static int table_state(const char *buf, size_t len, char *where, size_t wlen)
{
	const char *end = NULL;
	int init = rt_json_status(buf, len, &end);
	if (init < 0) {
		/* where cJSON stops, as the message always said (a column past ours at ",,"),
		 * unless cJSON reads what ours refuses (a NUL escape) */
		cJSON *doc = cJSON_ParseWithLength(buf, len);
		fetch_json_where(buf, len, doc ? end : cJSON_GetErrorPtr(), where, wlen);
		cJSON_Delete(doc);
	}
	return init;
}

size_t fetch_table_max(size_t cap)
{
	const char *e = getenv("HCCLCTL_RANKTABLE_MAX");
	unsigned long long v;
	if (!e || !*e || parse_size(e, &v) || !v || v > (1ULL << 40))
		return cap;
	return (size_t)v;
}

int fetch_table(const char *what, const char *where, size_t cap, char **buf, size_t *len,
		char *err, size_t errlen)
{
	cap = fetch_table_max(cap);
	long limit = strcmp(what, "-") ? fetch_wait_limit() : 0;
	double t0 = mono_s(), next_report = WAIT_REPORT_S;
	int seen_init = 0;
	char loc[96];

	for (;;) {
		char *ctype = NULL;
		int rc = fetch_is_url(what) ?
				 fetch_url(what, cap, buf, len, &ctype, err, errlen) :
				 rt_read_file(what, cap, buf, len, err, errlen);
		/* the rank tables' own limit, not a lower one the user set for URLs */
		if (rc == -EFBIG && (!fetch_is_url(what) || capped(cap) == cap)) {
			snprintf(err, errlen,
				 "%s: larger than %zu bytes, the most a rank table may be (65536 "
				 "ranks take about 15 MB)",
				 what, cap);
			snprintf(last_hint, sizeof(last_hint),
				 "if this is a real rank table, raise the limit: "
				 "HCCLCTL_RANKTABLE_MAX=%zuM",
				 ((cap >> 20) ? (cap >> 20) : 1) * 4);
		}
		if (rc) {
			free(ctype);
			return rc;
		}
		/* a file read once needs no state: nothing waits on it (a whole parse of a
		 * 65 536-rank table, a fifth of validating it) */
		int state = limit > 0 || fetch_is_url(what) ? table_state(*buf, *len, loc, sizeof(loc))
							    : 0;
		double waited = mono_s() - t0;
		/* a server that answers with an error page: say so, it is no rank table */
		if (state < 0 && fetch_is_url(what) && !(seen_init && waited < limit)) {
			snprintf(err, errlen, "%s: the response is not JSON (Content-Type %s, %zu bytes): %s",
				 what, ctype ? ctype : "unknown", *len, loc);
			snprintf(last_hint, sizeof(last_hint),
				 "is this the rank table's URL? 'curl -i URL' shows what it serves");
			free(ctype);
			free(*buf);
			*buf = NULL;
			return -EBADMSG;
		}
		free(ctype);
		/* not JSON while waiting: a writer that is not atomic, caught mid-write */
		int again = state == 1 || (state < 0 && seen_init);
		if (!again || waited >= limit) {
			if (seen_init && !again)
				info_msg("hcclctl: %s: %s: status \"completed\" after %.0f s\n", where,
					 what, waited);
			else if (again && limit > 0)
				warn_msg(where, "%s: still \"initializing\" after %ld s (--wait)", what,
					 limit);
			return 0;
		}
		if (!seen_init)
			info_msg("hcclctl: %s: %s: status is \"initializing\": waiting up to %ld s for "
				 "\"completed\", re-reading it every second\n",
				 where, what, limit);
		else if (waited >= next_report) {
			info_msg("hcclctl: %s: %s: still \"initializing\" after %.0f s of %ld\n", where,
				 what, waited, limit);
			next_report += WAIT_REPORT_S;
		}
		seen_init = 1;
		free(*buf);
		*buf = NULL;
		double left = (double)limit - waited;
		usleep((useconds_t)((left < WAIT_POLL_MS / 1000.0 ? left : WAIT_POLL_MS / 1000.0) * 1e6));
	}
}
