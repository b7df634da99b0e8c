/* HCCL_* variables: parsing and the rules. The ranges are those of the CANN environment
 * variable reference (versions 8.0 to 9.0) and, for HCCL_EVENT_TIMEOUT, of torch_npu's:
 *   HCCL_CONNECT_TIMEOUT    integer [120, 7200] s, default 120
 *   HCCL_EXEC_TIMEOUT       [0, 2147483647] s on A2/A3 (0: never), default 1836; on Atlas
 *                           training (910) and 300I Duo boards (0, 17340], rounded down to a
 *                           multiple of 68 s (below 68: 68)
 *   HCCL_IF_BASE_PORT       [1024, 65520]; HCCL takes 16 ports from it
 *   HCCL_BUFFSIZE           integer >= 1, in MB, default 200
 *   HCCL_INTRA_PCIE_ENABLE, HCCL_INTRA_ROCE_ENABLE   0 or 1, never both 1
 *   HCCL_RDMA_TIMEOUT       [5, 20] on A2/A3, [5, 24] on Atlas training/inference, default
 *                           20; the NIC retransmits after 4.096 us x 2^value
 *   HCCL_RDMA_RETRY_CNT     [1, 7], default 7
 *   HCCL_RDMA_TC            [0, 255], a multiple of 4, default 132
 *   HCCL_EVENT_TIMEOUT      (torch_npu) [0, 2147483647] s, default 1868, must be above
 *                           HCCL_EXEC_TIMEOUT
 * A range that holds on some boards only is a note, not a finding: doctor does not know which
 * limit the job's board has. */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probes/host/hcclenv.h"
#include "probes/tool/ptext.h"
#include "ranktable/base/near.h"

static void put(struct henv *e, struct pspan key, struct pspan val, unsigned line)
{
	char k[64];
	probe__copy(k, sizeof(k), key);
	for (size_t i = 0; i < e->n; i++)
		if (!strcmp(e->v[i].key, k)) {
			probe__copy(e->v[i].val, sizeof(e->v[i].val), val);
			e->v[i].line = line;
			return;
		}
	if (e->n == HENV_MAX)
		return;
	struct henv_var *v = &e->v[e->n++];
	snprintf(v->key, sizeof(v->key), "%s", k);
	probe__copy(v->val, sizeof(v->val), val);
	v->line = line;
}

static int is_key_char(char c, int first)
{
	return c == '_' || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
	       (!first && c >= '0' && c <= '9');
}

int henv_parse(const char *buf, size_t len, struct henv *e, char *err, size_t errlen)
{
	struct pspan rest = { buf, len }, line;
	unsigned lineno = 0;
	memset(e, 0, sizeof(*e));
	while (probe__next_line(&rest, &line)) {
		lineno++;
		struct pspan t = probe__trim(line);
		if (!t.n || t.s[0] == '#')
			continue;
		if (t.n > 7 && !memcmp(t.s, "export", 6) && (t.s[6] == ' ' || t.s[6] == '\t')) {
			t.s += 7;
			t.n -= 7;
			t = probe__trim(t);
		}
		size_t k = 0;
		while (k < t.n && is_key_char(t.s[k], k == 0))
			k++;
		if (!k || k >= t.n || t.s[k] != '=' || k >= 64) {
			e->ignored++;
			continue;
		}
		struct pspan key = { t.s, k }, val = { t.s + k + 1, t.n - k - 1 };
		if (val.n && (val.s[0] == '"' || val.s[0] == '\'')) {
			const char *close = memchr(val.s + 1, val.s[0], val.n - 1);
			val = close ? (struct pspan){ val.s + 1, (size_t)(close - val.s) - 1 }
				    : (struct pspan){ val.s + 1, val.n - 1 };
		} else {
			/* an unquoted value ends at blanks or a comment */
			size_t n = 0;
			while (n < val.n && val.s[n] != ' ' && val.s[n] != '\t' &&
			       val.s[n] != '#' && val.s[n] != ';')
				n++;
			val.n = n;
		}
		if (k < 5 || memcmp(key.s, "HCCL_", 5)) {
			e->others++;
			continue;
		}
		if (val.n >= sizeof(e->v[0].val)) {
			snprintf(err, errlen, "line %u: the value of %.*s is longer than %zu bytes",
				 lineno, (int)key.n, key.s, sizeof(e->v[0].val) - 1);
			return -EINVAL;
		}
		put(e, key, val, lineno);
	}
	return 0;
}

void henv_from_environ(struct henv *e, char *const *env)
{
	memset(e, 0, sizeof(*e));
	for (size_t i = 0; env && env[i]; i++) {
		const char *eq = strchr(env[i], '=');
		if (!eq)
			continue;
		size_t k = (size_t)(eq - env[i]);
		if (k < 5 || k >= 64 || strncmp(env[i], "HCCL_", 5)) {
			e->others++;
			continue;
		}
		put(e, (struct pspan){ env[i], k }, (struct pspan){ eq + 1, strlen(eq + 1) }, 0);
	}
}

const char *henv_get(const struct henv *e, const char *key)
{
	for (size_t i = 0; i < e->n; i++)
		if (!strcmp(e->v[i].key, key))
			return e->v[i].val;
	return NULL;
}

int henv_per_node(const char *key)
{
	return !strcmp(key, "HCCL_IF_IP") || !strcmp(key, "HCCL_SOCKET_IFNAME");
}

/* Every range once: a row per variable. */
static const struct {
	const char *key;
	long long min, max;
	long long multiple; /* the value must be a multiple of this; 0: any */
} ranges[] = {
	{ "HCCL_CONNECT_TIMEOUT", 120, 7200, 0 },
	{ "HCCL_EXEC_TIMEOUT", 0, INT_MAX, 0 },
	{ "HCCL_IF_BASE_PORT", 1024, 65520, 0 },
	{ "HCCL_BUFFSIZE", 1, INT_MAX, 0 },
	{ "HCCL_INTRA_PCIE_ENABLE", 0, 1, 0 },
	{ "HCCL_INTRA_ROCE_ENABLE", 0, 1, 0 },
	{ "HCCL_RDMA_TIMEOUT", 5, 24, 0 },
	{ "HCCL_RDMA_RETRY_CNT", 1, 7, 0 },
	{ "HCCL_RDMA_TC", 0, 255, 4 },
	{ "HCCL_EVENT_TIMEOUT", 0, INT_MAX, 0 },
};

/* Every HCCL_* variable a job may set, for naming the one a misspelt variable meant: those
 * of the CANN environment variable reference (8.0 to 9.0: its function, network, security and
 * maintenance sections, and the earlier HCCL_P2P_DISABLE, HCCL_HOST_RDMA_ENABLE and
 * HCCL_ALLTOALL_Z_COPY) and torch_npu's (HCCL_ASYNC_ERROR_HANDLING, HCCL_DESYNC_DEBUG,
 * HCCL_EVENT_TIMEOUT). A variable not here is named as unknown; HCCL ignores it. */
static const char *const known[] = {
	"HCCL_CONNECT_TIMEOUT", "HCCL_EXEC_TIMEOUT", "HCCL_ALGO", "HCCL_BUFFSIZE",
	"HCCL_INTRA_PCIE_ENABLE", "HCCL_INTRA_ROCE_ENABLE", "HCCL_INTER_HCCS_DISABLE",
	"HCCL_OP_EXPANSION_MODE", "HCCL_DETERMINISTIC", "HCCL_LOGIC_SUPERPOD_ID",
	"HCCL_IF_IP", "HCCL_IF_BASE_PORT", "HCCL_HOST_SOCKET_PORT_RANGE",
	"HCCL_NPU_SOCKET_PORT_RANGE", "HCCL_SOCKET_IFNAME", "HCCL_SOCKET_FAMILY", "HCCL_RDMA_TC",
	"HCCL_RDMA_SL", "HCCL_RDMA_TIMEOUT", "HCCL_RDMA_RETRY_CNT", "HCCL_WHITELIST_DISABLE",
	"HCCL_WHITELIST_FILE", "HCCL_DIAGNOSE_ENABLE", "HCCL_ENTRY_LOG_ENABLE",
	"HCCL_DEBUG_CONFIG", "HCCL_DFS_CONFIG", "HCCL_P2P_DISABLE", "HCCL_HOST_RDMA_ENABLE",
	"HCCL_ALLTOALL_Z_COPY", "HCCL_ASYNC_ERROR_HANDLING", "HCCL_DESYNC_DEBUG",
	"HCCL_EVENT_TIMEOUT",
};
#define NKNOWN (sizeof(known) / sizeof(known[0]))
/* A name this many edits from a known one is taken for a misspelling of it. */
#define MISSPELT_EDITS 3

static int is_known(const char *key)
{
	for (size_t i = 0; i < NKNOWN; i++)
		if (!strcmp(known[i], key))
			return 1;
	return 0;
}

#define DEFAULT_EXEC_TIMEOUT 1836
#define DEFAULT_EVENT_TIMEOUT 1868
#define DEFAULT_RDMA_TIMEOUT 20
#define DEFAULT_RDMA_RETRY 7

/* A decimal integer (all of s, an optional '-'), or -1 with *ok 0. */
static long long int_of(const char *s, int *ok)
{
	char *end;
	errno = 0;
	long long v = strtoll(s, &end, 10);
	*ok = *s && !*end && !errno && (*s == '-' || (*s >= '0' && *s <= '9'));
	return *ok ? v : -1;
}

static void add(struct henv_finding *out, size_t max, size_t *n, enum probe_status st,
		const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static void add(struct henv_finding *out, size_t max, size_t *n, enum probe_status st,
		const char *fmt, ...)
{
	if (*n >= max)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(out[*n].msg, sizeof(out[*n].msg), fmt, ap);
	va_end(ap);
	out[(*n)++].st = st;
}

/* The value of a variable that passed its range check, or def when it is unset or bad. */
static long long value_or(const struct henv *e, const char *key, long long def, int *set)
{
	const char *s = henv_get(e, key);
	int ok = 0;
	long long v = s ? int_of(s, &ok) : 0;
	*set = s && ok;
	if (!*set)
		return def;
	for (size_t i = 0; i < sizeof(ranges) / sizeof(ranges[0]); i++)
		if (!strcmp(ranges[i].key, key) && (v < ranges[i].min || v > ranges[i].max)) {
			*set = 0;
			return def;
		}
	return v;
}

/* The variables HCCL does not know: a misspelling of one it knows (a warning: the value the
 * job meant to set is not set), or a name of its own (a note). */
static void unknown_check(const struct henv *e, struct henv_finding *out, size_t max, size_t *n)
{
	for (size_t i = 0; i < e->n; i++) {
		const char *key = e->v[i].key;
		if (is_known(key))
			continue;
		const char *near = near_name(key, strlen(key), known, NKNOWN, MISSPELT_EDITS);
		if (near)
			add(out, max, n, PROBE_WARN,
			    "%s is not a variable HCCL reads: did you mean %s?", key, near);
		else
			add(out, max, n, PROBE_PASS,
			    "%s is not among the HCCL variables CANN documents", key);
	}
}

size_t henv_check(const struct henv *e, struct henv_finding *out, size_t max)
{
	size_t n = 0;
	unknown_check(e, out, max, &n);
	for (size_t i = 0; i < sizeof(ranges) / sizeof(ranges[0]); i++) {
		const char *s = henv_get(e, ranges[i].key);
		int ok;
		if (!s)
			continue;
		long long v = int_of(s, &ok);
		if (!ok)
			add(out, max, &n, PROBE_FAIL, "%s=%s is not an integer: HCCL rejects it",
			    ranges[i].key, s);
		else if (v < ranges[i].min || v > ranges[i].max)
			add(out, max, &n, PROBE_FAIL, "%s=%lld is outside %lld..%lld",
			    ranges[i].key, v, ranges[i].min, ranges[i].max);
		else if (ranges[i].multiple && v % ranges[i].multiple)
			add(out, max, &n, PROBE_FAIL, "%s=%lld is not a multiple of %lld",
			    ranges[i].key, v, ranges[i].multiple);
	}
	int set_exec, set_event, set_to, set_retry, set_pcie, set_roce;
	long long exec = value_or(e, "HCCL_EXEC_TIMEOUT", DEFAULT_EXEC_TIMEOUT, &set_exec);
	long long event = value_or(e, "HCCL_EVENT_TIMEOUT", DEFAULT_EVENT_TIMEOUT, &set_event);
	long long to = value_or(e, "HCCL_RDMA_TIMEOUT", DEFAULT_RDMA_TIMEOUT, &set_to);
	long long retry = value_or(e, "HCCL_RDMA_RETRY_CNT", DEFAULT_RDMA_RETRY, &set_retry);
	long long pcie = value_or(e, "HCCL_INTRA_PCIE_ENABLE", 1, &set_pcie);
	long long roce = value_or(e, "HCCL_INTRA_ROCE_ENABLE", 0, &set_roce);

	/* the board-dependent limits: notes */
	if (set_exec && exec > 17340)
		add(out, max, &n, PROBE_PASS,
		    "HCCL_EXEC_TIMEOUT=%lld: Atlas training (910) boards accept at most 17340",
		    exec);
	else if (set_exec && exec > 0 && exec % 68)
		add(out, max, &n, PROBE_PASS,
		    "HCCL_EXEC_TIMEOUT=%lld is not a multiple of 68: Atlas training (910) boards "
		    "round it down to %lld s",
		    exec, exec < 68 ? 68 : exec / 68 * 68);
	if (set_to && to > 20)
		add(out, max, &n, PROBE_PASS,
		    "HCCL_RDMA_TIMEOUT=%lld: A2 and A3 boards accept 5..20", to);

	/* the intra-server link choice */
	if (set_pcie && set_roce && pcie == 1 && roce == 1)
		add(out, max, &n, PROBE_FAIL,
		    "HCCL_INTRA_PCIE_ENABLE=1 and HCCL_INTRA_ROCE_ENABLE=1 together are not "
		    "supported");
	else if ((set_pcie && !set_roce && pcie == 0) || (!set_pcie && set_roce && roce == 0))
		add(out, max, &n, PROBE_WARN,
		    "HCCL_INTRA_%s_ENABLE=0 alone is not a supported combination: set "
		    "HCCL_INTRA_PCIE_ENABLE=1 (PCIe) or HCCL_INTRA_ROCE_ENABLE=1 (RoCE), or "
		    "neither",
		    set_pcie ? "PCIE" : "ROCE");

	/* the RDMA retransmissions give up before HCCL does */
	if ((set_to || set_retry || set_exec) && exec > 0) {
		double rdma = 4.096e-6 * (double)(1LL << to) * (double)retry;
		if (rdma >= (double)exec)
			add(out, max, &n, PROBE_WARN,
			    "a lost RDMA packet is retried for %.0f s (4.096 us x 2^%lld x %lld), "
			    "not less than HCCL_EXEC_TIMEOUT=%lld s: a broken link shows as an "
			    "execution timeout instead of an RDMA error",
			    rdma, to, retry, exec);
	}
	/* and HCCL before the framework (torch_npu's event wait) */
	if ((set_exec || set_event) && event > 0 && (exec == 0 || event <= exec))
		add(out, max, &n, PROBE_WARN,
		    "HCCL_EVENT_TIMEOUT=%lld%s is not above HCCL_EXEC_TIMEOUT=%lld%s: torch_npu "
		    "gives up before HCCL can say which rank or link hung",
		    event, set_event ? "" : " (torch_npu's default)", exec,
		    exec == 0 ? " (never)" : "");
	/* the worst first, in the order above among equals (a stable insertion sort) */
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && out[j - 1].st < out[j].st; j--) {
			struct henv_finding t = out[j];
			out[j] = out[j - 1];
			out[j - 1] = t;
		}
	return n;
}
