/* probe net, the library side: the agent protocol's one parser, the challenge, the
 * schedule of disjoint pairs and the verdicts. See netperf.h. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include "cmd/lib/netperf.h"
#include "probes/tool/ptext.h"
#include "ranktable/base/hex.h"

/* ---- parsing ---- */

enum vtype { V_UINT, V_PORT, V_DOUBLE, V_HOST, V_HEX32, V_HEX64 };

struct key {
	const char *name;
	enum vtype type;
	size_t off; /* where the value goes in struct np_msg */
};

#define K(n, t, f)                                                                                 \
	{                                                                                          \
		n, t, offsetof(struct np_msg, f)                                                   \
	}

static const struct key k_ready[] = {K("port", V_PORT, port), {0}};
static const struct key k_hello[] = {K("nonce", V_HEX32, hex), {0}};
static const struct key k_auth[] = {K("mac", V_HEX64, hex), {0}};
static const struct key k_measure[] = {K("host", V_HOST, host),	  K("port", V_PORT, port),
				       K("ms", V_UINT, ms),	  K("bytes", V_UINT, bytes),
				       K("pings", V_UINT, pings), {0}};
static const struct key k_ping[] = {K("n", V_UINT, pings), {0}};
static const struct key k_rx[] = {K("bytes", V_UINT, bytes), K("ns", V_UINT, ns), {0}};
static const struct key k_send[] = {K("ms", V_UINT, ms), K("bytes", V_UINT, bytes), {0}};
static const struct key k_result[] = {K("rtt_us", V_DOUBLE, res.rtt_us),
				      K("rtt_p99_us", V_DOUBLE, res.rtt_p99_us),
				      K("fwd_bps", V_DOUBLE, res.fwd_bps),
				      K("rev_bps", V_DOUBLE, res.rev_bps),
				      K("fwd_bytes", V_UINT, res.fwd_bytes),
				      K("rev_bytes", V_UINT, res.rev_bytes),
				      {0}};
static const struct key k_none[] = {{0}};

struct verb {
	const char *word;
	int proto; /* preceded by "hcclnet1 " */
	enum np_kind kind;
	const struct key *keys;
};

static const struct verb verbs[] = {
	{"ready", 1, NP_READY, k_ready},    {"hello", 1, NP_HELLO, k_hello},
	{"auth", 0, NP_AUTH, k_auth},	    {"ok", 0, NP_OK, k_none},
	{"refused", 0, NP_REFUSED, k_none}, {"measure", 0, NP_MEASURE, k_measure},
	{"quit", 0, NP_QUIT, k_none},	    {"ping", 0, NP_PING, k_ping},
	{"recv", 0, NP_RECV, k_none},	    {"rx", 0, NP_RX, k_rx},
	{"send", 0, NP_SEND, k_send},	    {"result", 0, NP_RESULT, k_result},
	{"error", 0, NP_ERROR, NULL},
};

/* Upper bounds of the unsigned fields: beyond them a value is nonsense, not a measurement. */
#define MAX_MS (7LL * 86400 * 1000)
#define MAX_PINGS 1000000L
#define MAX_BYTES (1ULL << 50)
#define MAX_NS (7LL * 86400 * 1000000000LL)
#define MAX_DOUBLE 1e15 /* bits/s or microseconds */

__attribute__((format(printf, 4, 5))) static int bad(char *err, size_t errlen, size_t col,
						     const char *fmt, ...)
{
	char what[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (err && errlen)
		snprintf(err, errlen, "column %zu: %s", col, what);
	return -EINVAL;
}

static int is_hex(struct pspan s, size_t n)
{
	if (s.n != n)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!((s.s[i] >= '0' && s.s[i] <= '9') || (s.s[i] >= 'a' && s.s[i] <= 'f')))
			return 0;
	return 1;
}

static int host_ok(struct pspan s)
{
	if (!s.n || s.n >= NP_HOST_MAX || s.s[0] == '-' || s.s[0] == '.')
		return 0;
	for (size_t i = 0; i < s.n; i++) {
		char c = s.s[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '.' || c == '-' || c == '_' || c == ':' || c == '%'))
			return 0;
	}
	return 1;
}

/* A non-negative decimal number with an optional fraction, finite and sane. */
static int parse_double(struct pspan s, double *out)
{
	char buf[48], *end;
	int digits = 0, dot = 0;
	if (!s.n || s.n >= sizeof(buf))
		return -1;
	for (size_t i = 0; i < s.n; i++) {
		if (s.s[i] >= '0' && s.s[i] <= '9')
			digits++;
		else if (s.s[i] == '.' && !dot && i > 0)
			dot = 1;
		else
			return -1;
	}
	if (!digits || s.s[s.n - 1] == '.')
		return -1;
	memcpy(buf, s.s, s.n);
	buf[s.n] = '\0';
	double v = strtod(buf, &end);
	if (*end || !isfinite(v) || v < 0 || v > MAX_DOUBLE)
		return -1;
	*out = v;
	return 0;
}

static int set_value(struct np_msg *m, const struct key *k, struct pspan v, size_t col, char *err,
		     size_t errlen)
{
	char *p = (char *)m + k->off;
	unsigned long long u;
	switch (k->type) {
	case V_UINT:
		if (probe__u64(v, &u))
			return bad(err, errlen, col, "%s: expected a whole number, got \"%.*s\"",
				   k->name, (int)(v.n > 32 ? 32 : v.n), v.s);
		if (p == (char *)&m->ms) {
			if (u > (unsigned long long)MAX_MS)
				return bad(err, errlen, col, "ms: %llu is out of range", u);
			m->ms = (long long)u;
		} else if (p == (char *)&m->pings) {
			if (u < 1 || u > (unsigned long long)MAX_PINGS)
				return bad(err, errlen, col, "%s: %llu is out of range 1..%ld",
					   k->name, u, MAX_PINGS);
			m->pings = (long)u;
		} else if (p == (char *)&m->ns) {
			if (u > (unsigned long long)MAX_NS)
				return bad(err, errlen, col, "ns: %llu is out of range", u);
			m->ns = (long long)u;
		} else {
			if (u > MAX_BYTES)
				return bad(err, errlen, col, "%s: %llu is out of range", k->name,
					   u);
			memcpy(p, &u, sizeof(u));
		}
		return 0;
	case V_PORT:
		if (probe__u64(v, &u) || u < 1 || u > 65535)
			return bad(err, errlen, col, "%s: expected a port 1..65535", k->name);
		m->port = (int)u;
		return 0;
	case V_DOUBLE: {
		double d;
		if (parse_double(v, &d))
			return bad(err, errlen, col, "%s: expected a number >= 0, got \"%.*s\"",
				   k->name, (int)(v.n > 32 ? 32 : v.n), v.s);
		memcpy(p, &d, sizeof(d));
		return 0;
	}
	case V_HOST:
		if (!host_ok(v))
			return bad(err, errlen, col,
				   "%s: not a host name or address (letters, digits, . - _ : %%)",
				   k->name);
		memcpy(m->host, v.s, v.n);
		m->host[v.n] = '\0';
		return 0;
	case V_HEX32:
	case V_HEX64: {
		size_t n = k->type == V_HEX32 ? NP_NONCE_HEX : NP_MAC_HEX;
		if (!is_hex(v, n))
			return bad(err, errlen, col, "%s: expected %zu lowercase hex digits",
				   k->name, n);
		memcpy(m->hex, v.s, n);
		m->hex[n] = '\0';
		return 0;
	}
	}
	return bad(err, errlen, col, "internal: unknown value type");
}

static int parse_keys(struct np_msg *m, const struct key *keys, const char *line, struct pspan rest,
		      char *err, size_t errlen)
{
	unsigned seen = 0, want = 0;
	size_t nk = 0;
	while (keys[nk].name)
		want |= 1u << nk++;
	while (rest.n) {
		size_t col = (size_t)(rest.s - line) + 1;
		if (rest.s[0] != ' ')
			return bad(err, errlen, col, "expected a space");
		rest.s++;
		rest.n--;
		col++;
		const char *sp = memchr(rest.s, ' ', rest.n);
		struct pspan w = {rest.s, sp ? (size_t)(sp - rest.s) : rest.n};
		const char *eq = memchr(w.s, '=', w.n);
		if (!w.n)
			return bad(err, errlen, col, "expected key=value, got an empty word");
		if (!eq)
			return bad(err, errlen, col, "expected key=value, got \"%.*s\"",
				   (int)(w.n > 32 ? 32 : w.n), w.s);
		struct pspan name = {w.s, (size_t)(eq - w.s)};
		struct pspan val = {eq + 1, w.n - name.n - 1};
		size_t k = 0;
		while (keys[k].name && !probe__eq(name, keys[k].name))
			k++;
		if (!keys[k].name)
			return bad(err, errlen, col, "unknown key \"%.*s\"",
				   (int)(name.n > 32 ? 32 : name.n), name.s);
		if (seen & (1u << k))
			return bad(err, errlen, col, "%s given twice", keys[k].name);
		seen |= 1u << k;
		int rc = set_value(m, &keys[k], val, col + name.n + 1, err, errlen);
		if (rc)
			return rc;
		rest.s += w.n;
		rest.n -= w.n;
	}
	if (seen != want) {
		size_t k = 0;
		while (seen & (1u << k))
			k++;
		return bad(err, errlen, (size_t)(rest.s - line) + 1, "missing %s=", keys[k].name);
	}
	return 0;
}

int np_msg_parse(struct np_msg *m, const char *line, size_t len, char *err, size_t errlen)
{
	struct pspan rest = {line, len};
	memset(m, 0, sizeof(*m));
	if (len >= NP_LINE_MAX)
		return bad(err, errlen, NP_LINE_MAX, "line longer than %d bytes", NP_LINE_MAX - 1);
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)line[i] < 0x20 || (unsigned char)line[i] >= 0x7f)
			return bad(err, errlen, i + 1, "control or non-ASCII byte 0x%02x",
				   (unsigned char)line[i]);
	int proto = len >= sizeof(NP_PROTO) && !memcmp(line, NP_PROTO " ", sizeof(NP_PROTO));
	if (proto) {
		rest.s += sizeof(NP_PROTO);
		rest.n -= sizeof(NP_PROTO);
	}
	const char *sp = memchr(rest.s, ' ', rest.n);
	struct pspan w = {rest.s, sp ? (size_t)(sp - rest.s) : rest.n};
	size_t v = 0;
	while (v < sizeof(verbs) / sizeof(verbs[0]) && !probe__eq(w, verbs[v].word))
		v++;
	if (v == sizeof(verbs) / sizeof(verbs[0]) || verbs[v].proto != proto)
		return bad(err, errlen, (size_t)(w.s - line) + 1, "unknown message \"%.*s%.*s\"",
			   proto ? (int)sizeof(NP_PROTO) : 0, line, (int)(w.n > 32 ? 32 : w.n),
			   w.s);
	m->kind = verbs[v].kind;
	rest.s += w.n;
	rest.n -= w.n;
	if (m->kind == NP_ERROR) {
		if (rest.n < 2 || rest.s[0] != ' ')
			return bad(err, errlen, (size_t)(rest.s - line) + 1,
				   "error without a text");
		size_t n = rest.n - 1 < sizeof(m->text) - 1 ? rest.n - 1 : sizeof(m->text) - 1;
		memcpy(m->text, rest.s + 1, n);
		m->text[n] = '\0';
		return 0;
	}
	return parse_keys(m, verbs[v].keys, line, rest, err, errlen);
}

int np_msg_format(const struct np_msg *m, char *buf, size_t len)
{
	int n;
	const struct np_result *r = &m->res;
	switch (m->kind) {
	case NP_READY:
		n = snprintf(buf, len, NP_PROTO " ready port=%d\n", m->port);
		break;
	case NP_HELLO:
		n = snprintf(buf, len, NP_PROTO " hello nonce=%s\n", m->hex);
		break;
	case NP_AUTH:
		n = snprintf(buf, len, "auth mac=%s\n", m->hex);
		break;
	case NP_OK:
		n = snprintf(buf, len, "ok\n");
		break;
	case NP_REFUSED:
		n = snprintf(buf, len, "refused\n");
		break;
	case NP_MEASURE:
		n = snprintf(buf, len, "measure host=%s port=%d ms=%lld bytes=%llu pings=%ld\n",
			     m->host, m->port, m->ms, m->bytes, m->pings);
		break;
	case NP_QUIT:
		n = snprintf(buf, len, "quit\n");
		break;
	case NP_PING:
		n = snprintf(buf, len, "ping n=%ld\n", m->pings);
		break;
	case NP_RECV:
		n = snprintf(buf, len, "recv\n");
		break;
	case NP_RX:
		n = snprintf(buf, len, "rx bytes=%llu ns=%lld\n", m->bytes, m->ns);
		break;
	case NP_SEND:
		n = snprintf(buf, len, "send ms=%lld bytes=%llu\n", m->ms, m->bytes);
		break;
	case NP_RESULT:
		n = snprintf(buf, len,
			     "result rtt_us=%.1f rtt_p99_us=%.1f fwd_bps=%.0f rev_bps=%.0f "
			     "fwd_bytes=%llu rev_bytes=%llu\n",
			     r->rtt_us, r->rtt_p99_us, r->fwd_bps, r->rev_bps, r->fwd_bytes,
			     r->rev_bytes);
		break;
	case NP_ERROR: {
		/* the text goes on one line of printable ASCII, whatever it held */
		char t[sizeof(m->text)];
		size_t k = 0;
		for (; m->text[k] && k < sizeof(t) - 1; k++)
			t[k] = (unsigned char)m->text[k] < 0x20 || (unsigned char)m->text[k] >= 0x7f
				       ? '?'
				       : m->text[k];
		t[k] = '\0';
		n = snprintf(buf, len, "error %s\n", k ? t : "?");
		break;
	}
	default:
		return -EINVAL;
	}
	if (n < 0)
		return -EINVAL;
	if ((size_t)n >= len || n >= NP_LINE_MAX)
		return -ENOSPC;
	return n;
}

/* ---- the secret and the challenge ---- */

int np_secret_parse(unsigned char key[NP_KEY_LEN], const char *s, size_t len, char *err,
		    size_t errlen)
{
	struct pspan t = probe__trim((struct pspan){s, len});
	while (t.n && t.s[t.n - 1] == '\n')
		t = probe__trim((struct pspan){t.s, t.n - 1});
	if (t.n != NP_SECRET_HEX) {
		snprintf(err, errlen, "the secret must be %d hex digits, got %zu characters",
			 NP_SECRET_HEX, t.n);
		return -EINVAL;
	}
	for (size_t i = 0; i < NP_KEY_LEN; i++) {
		int hi = hex_val(t.s[2 * i]), lo = hex_val(t.s[2 * i + 1]);
		if (hi < 0 || lo < 0) {
			snprintf(err, errlen, "the secret must be hex digits: column %zu is not",
				 hi < 0 ? 2 * i + 1 : 2 * i + 2);
			return -EINVAL;
		}
		key[i] = (unsigned char)(hi << 4 | lo);
	}
	return 0;
}

int np_mac(const unsigned char key[NP_KEY_LEN], const char *nonce, char out[NP_MAC_HEX + 1])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int mdlen = 0;
	char msg[sizeof(NP_PROTO) + NP_NONCE_HEX + 1];
	int n = snprintf(msg, sizeof(msg), NP_PROTO " %s", nonce);
	if (n < 0 || (size_t)n >= sizeof(msg) ||
	    !HMAC(EVP_sha256(), key, NP_KEY_LEN, (const unsigned char *)msg, (size_t)n, md,
		  &mdlen) ||
	    mdlen != NP_MAC_HEX / 2)
		return -EPROTO;
	for (unsigned i = 0; i < mdlen; i++)
		snprintf(out + 2 * i, 3, "%02x", md[i]);
	return 0;
}

int np_mac_equal(const char *a, const char *b)
{
	if (strlen(a) != NP_MAC_HEX || strlen(b) != NP_MAC_HEX)
		return 0;
	return CRYPTO_memcmp(a, b, NP_MAC_HEX) == 0;
}

/* ---- the schedule ---- */

size_t np_rounds(size_t n)
{
	if (n < 2)
		return 0;
	return n % 2 ? n : n - 1;
}

size_t np_round_pairs(size_t n, size_t r, size_t (*pairs)[2])
{
	/* The circle method over m = n rounded up to even slots: slot 0 stays, the others
	 * rotate by one each round; slot k meets slot m-1-k. With odd n the extra slot is a
	 * bye. */
	size_t m = n + n % 2, np = 0;
	if (n < 2 || r >= np_rounds(n))
		return 0;
	for (size_t k = 0; k < m / 2; k++) {
		size_t a = k == 0 ? 0 : 1 + (k - 1 + r) % (m - 1);
		size_t kb = m - 1 - k;
		size_t b = 1 + (kb - 1 + r) % (m - 1);
		if (a >= n || b >= n)
			continue;
		pairs[np][0] = a < b ? a : b;
		pairs[np][1] = a < b ? b : a;
		np++;
	}
	return np;
}

/* ---- the verdicts ---- */

int np_matrix_init(struct np_matrix *m, size_t n)
{
	memset(m, 0, sizeof(*m));
	m->l = calloc(n ? n * n : 1, sizeof(*m->l));
	m->node = calloc(n ? n : 1, sizeof(*m->node));
	if (!m->l || !m->node) {
		np_matrix_release(m);
		return -ENOMEM;
	}
	m->n = n;
	for (size_t i = 0; i < n * n; i++)
		m->l[i].status = PROBE_SKIP;
	return 0;
}

void np_matrix_release(struct np_matrix *m)
{
	free(m->l);
	free(m->node);
	m->l = NULL;
	m->node = NULL;
	m->n = 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

double np_percentile(double *v, size_t n, double p)
{
	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), cmp_double);
	if (p == 50)
		return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	size_t rank = (size_t)ceil(p / 100.0 * (double)n);
	return v[rank ? rank - 1 : 0];
}

void np_matrix_judge(struct np_matrix *m, double frac)
{
	size_t n = m->n, k = 0;
	double *v = malloc((n ? n * n : 1) * sizeof(*v));
	m->nmeasured = m->nslow = m->nfailed = 0;
	for (size_t i = 0; i < n * n; i++)
		if (m->l[i].measured && !m->l[i].failed && v)
			v[k++] = m->l[i].bps;
	m->nmeasured = k;
	m->median_bps = v ? np_percentile(v, k, 50) : 0;
	m->threshold_bps = m->median_bps * frac;
	free(v);
	memset(m->node, 0, n * sizeof(*m->node));
	for (size_t i = 0; i < n; i++) {
		for (size_t j = 0; j < n; j++) {
			struct np_link *l = np_link_at(m, i, j);
			if (i == j || (!l->measured && !l->failed)) {
				l->status = PROBE_SKIP;
				continue;
			}
			if (l->failed) {
				l->status = PROBE_FAIL;
				m->nfailed++;
				m->node[i].failed++;
				m->node[j].failed++;
			} else {
				l->ratio = m->median_bps > 0 ? l->bps / m->median_bps : 1;
				l->status = l->bps < m->threshold_bps ? PROBE_WARN : PROBE_PASS;
				if (l->status == PROBE_WARN) {
					m->nslow++;
					m->node[i].slow++;
					m->node[j].slow++;
				}
			}
			m->node[i].links++;
			m->node[j].links++;
		}
	}
	for (size_t i = 0; i < n; i++) {
		struct np_node *d = &m->node[i];
		d->status = PROBE_PASS;
		if (d->links && 2 * (d->slow + d->failed) > d->links)
			d->status = d->failed > d->slow ? PROBE_FAIL : PROBE_WARN;
	}
}
