/* HCCL log reader: failure signatures of shared/reference/ascend.md §8 as events, then one root
 * cause. Lines are matched by the fixed substrings that §8 quotes ("Handy grep keys" and the
 * verbatim messages); the parts §8 elides with "..." are read tolerantly: numbers after a key
 * may be wrapped in "[]", "()" or follow ':' or a space, and IPs are taken wherever a key puts
 * them. Nothing is assumed about field order beyond what §8 shows. */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "probes/hccllog.h"
#include "probes/ptext.h"

static const char *const kind_names[HLOG_NKINDS] = {
	[HLOG_NONE] = "none",
	[HLOG_SOCKET_TIMEOUT] = "socket-timeout",
	[HLOG_NOTIFY_TIMEOUT] = "notify-timeout",
	[HLOG_ROOT_TIMEOUT] = "root-timeout",
	[HLOG_HEARTBEAT_LOST] = "heartbeat-lost",
	[HLOG_HEARTBEAT_STUCK] = "heartbeat-stuck",
	[HLOG_HEARTBEAT] = "heartbeat",
	[HLOG_ERROR_CQE] = "error-cqe",
	[HLOG_LINK_DOWN] = "link-down",
	[HLOG_MISMATCH] = "mismatch",
	[HLOG_PORT_BOUND] = "port-bound",
	[HLOG_TLS] = "tls",
	[HLOG_NPU_BUSY] = "npu-busy",
	[HLOG_DEVICE_IP] = "device-ip",
	[HLOG_TLS_SWITCH] = "tls-switch",
	[HLOG_ENTRY] = "entry",
};

const char *hlog_kind_name(int kind)
{
	return kind >= 0 && kind < HLOG_NKINDS ? kind_names[kind] : "?";
}

enum cls { CLS_CONSEQ, CLS_FAULT, CLS_CONFIG, CLS_INFO };

static enum cls kind_class(int kind)
{
	switch (kind) {
	case HLOG_SOCKET_TIMEOUT:
	case HLOG_NOTIFY_TIMEOUT:
	case HLOG_ROOT_TIMEOUT:
		return CLS_CONSEQ;
	case HLOG_HEARTBEAT_LOST:
	case HLOG_HEARTBEAT_STUCK:
	case HLOG_HEARTBEAT:
	case HLOG_ERROR_CQE:
	case HLOG_LINK_DOWN:
	case HLOG_MISMATCH:
		return CLS_FAULT;
	case HLOG_PORT_BOUND:
	case HLOG_TLS:
	case HLOG_NPU_BUSY:
	case HLOG_DEVICE_IP:
		return CLS_CONFIG;
	default:
		return CLS_INFO;
	}
}

void hlog_report_init(struct hlog_report *r)
{
	memset(r, 0, sizeof(*r));
	r->rank = r->peer_rank = -1;
}

void hlog_report_release(struct hlog_report *r)
{
	if (!r)
		return;
	free(r->ev);
	free(r->file);
	hlog_report_init(r);
}

/* ---- matching helpers on (s, n) spans ---- */

static const char *find(struct pspan m, const char *lit)
{
	return memmem(m.s, m.n, lit, strlen(lit));
}

static int has(struct pspan m, const char *lit)
{
	return find(m, lit) != NULL;
}

static int has_nocase(struct pspan m, const char *lit)
{
	size_t k = strlen(lit);
	for (size_t i = 0; i + k <= m.n; i++)
		if (!strncasecmp(m.s + i, lit, k))
			return 1;
	return 0;
}

/* The rest of m after the first lit, or {NULL, 0}. */
static struct pspan after(struct pspan m, const char *lit)
{
	const char *p = find(m, lit);
	struct pspan r = {NULL, 0};
	if (p) {
		r.s = p + strlen(lit);
		r.n = m.n - (size_t)(r.s - m.s);
	}
	return r;
}

/* Skips up to 3 of " [(:=" then reads a decimal number (up to 9 digits) or "0x" hex. */
static int num_at(struct pspan m, long long *v)
{
	size_t i = 0;
	while (i < m.n && i < 3 && strchr(" [(:=", m.s[i]) && m.s[i])
		i++;
	int neg = 0;
	if (i < m.n && m.s[i] == '-') {
		neg = 1;
		i++;
	}
	if (i + 2 < m.n && m.s[i] == '0' && (m.s[i + 1] == 'x' || m.s[i + 1] == 'X')) {
		size_t b = i + 2, k;
		long long x = 0;
		for (k = b; k < m.n && k - b < 8; k++) {
			char c = m.s[k];
			int d = c >= '0' && c <= '9'   ? c - '0'
				: c >= 'a' && c <= 'f' ? c - 'a' + 10
				: c >= 'A' && c <= 'F' ? c - 'A' + 10
						       : -1;
			if (d < 0)
				break;
			x = x * 16 + d;
		}
		if (k == b)
			return 0;
		*v = neg ? -x : x;
		return 1;
	}
	size_t b = i;
	long long x = 0;
	while (i < m.n && i - b < 9 && m.s[i] >= '0' && m.s[i] <= '9')
		x = x * 10 + (m.s[i++] - '0');
	if (i == b)
		return 0;
	*v = neg ? -x : x;
	return 1;
}

static int int_after(struct pspan m, const char *key, int *out)
{
	long long v;
	struct pspan a = after(m, key);
	if (!a.s || !num_at(a, &v) || v < 0)
		return 0;
	*out = (int)v;
	return 1;
}

static int is_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* An IPv4 address at the start of m (four decimal parts up to 255), or an IPv6 one (groups of
 * up to 4 hex digits, with "::" or 7 colons, so that a time "15:38:29" is not one). Copies it
 * and returns its length, or 0. */
static size_t ip_at(struct pspan m, char *out, size_t outlen)
{
	size_t i = 0;
	unsigned part = 0, parts = 0, dig = 0;
	for (; i <= m.n; i++) {
		char c = i < m.n ? m.s[i] : '\0';
		if (c >= '0' && c <= '9' && dig < 3) {
			part = part * 10 + (unsigned)(c - '0');
			dig++;
			continue;
		}
		if (!dig || part > 255)
			break;
		parts++;
		if (parts == 4 || c != '.')
			break;
		part = dig = 0;
	}
	if (parts == 4 && !(i < m.n && ((m.s[i] >= '0' && m.s[i] <= '9'))) &&
	    !(i + 1 < m.n && m.s[i] == '.' && m.s[i + 1] >= '0' && m.s[i + 1] <= '9')) {
		struct pspan ip = {m.s, i};
		probe__copy(out, outlen, ip);
		return i;
	}
	size_t colons = 0, grp = 0, dbl = 0;
	for (i = 0; i < m.n && i < 40; i++) {
		char c = m.s[i];
		if (is_hex(c)) {
			if (++grp > 4)
				return 0;
		} else if (c == ':') {
			dbl |= i && m.s[i - 1] == ':';
			colons++;
			grp = 0;
		} else {
			break;
		}
	}
	if (colons < 2 || (!dbl && colons != 7) || colons > 7 || (i < m.n && m.s[i] == '.'))
		return 0;
	struct pspan ip = {m.s, i};
	probe__copy(out, outlen, ip);
	return i;
}

/* What follows key, past up to 4 of " [(:" ({NULL, 0} when key is not there). */
static struct pspan value_after(struct pspan m, const char *key)
{
	struct pspan a = after(m, key);
	if (!a.s)
		return a;
	size_t i = 0;
	while (i < a.n && i < 4 && strchr(" [(:", a.s[i]) && a.s[i])
		i++;
	a.s += i;
	a.n -= i;
	return a;
}

/* The IP after key, past up to 4 of " [(:". */
static int ip_after(struct pspan m, const char *key, char *out, size_t outlen)
{
	struct pspan a = value_after(m, key);
	return a.s && ip_at(a, out, outlen) > 0;
}

/* The n-th IP address anywhere in m (0-based). */
static int nth_ip(struct pspan m, int nth, char *out, size_t outlen)
{
	for (size_t i = 0; i < m.n; i++) {
		if (i && (is_hex(m.s[i - 1]) || m.s[i - 1] == '.' || m.s[i - 1] == ':'))
			continue;
		struct pspan t = {m.s + i, m.n - i};
		size_t k = ip_at(t, out, outlen);
		if (k) {
			if (nth-- == 0)
				return 1;
			i += k;
		}
	}
	if (outlen)
		out[0] = '\0';
	return 0;
}

/* "IP/ID" after key: a server id and a device id, e.g. "[127.10.0.1/1]". */
static int uid_after(struct pspan m, const char *key, char *ip, size_t iplen, int *dev)
{
	struct pspan a = value_after(m, key);
	if (!a.s)
		return 0;
	size_t k = ip_at(a, ip, iplen);
	if (!k)
		return 0;
	long long v;
	struct pspan d = {a.s + k, a.n - k};
	if (d.n && d.s[0] == '/') {
		d.s++;
		d.n--;
		if (num_at(d, &v) && v >= 0)
			*dev = (int)v;
	}
	return 1;
}

/* ---- the plog prefix ---- */

static int digits(const char *s, size_t n, int *v)
{
	int x = 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return 0;
		x = x * 10 + (s[i] - '0');
	}
	*v = x;
	return 1;
}

/* Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's days_from_civil). */
static int64_t days_from_civil(int y, int m, int d)
{
	y -= m <= 2;
	int64_t era = (y >= 0 ? y : y - 399) / 400;
	int64_t yoe = y - era * 400;
	int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

/* "YYYY-MM-DD-hh:mm:ss.mmm.uuu" (§5) at s, 26 bytes; µs since the epoch or -1. */
static int64_t stamp_at(const char *s, size_t n)
{
	static const char shape[] = "dddd-dd-dd-dd:dd:dd.ddd.ddd";
	int y = 0, mo = 0, d = 0, h = 0, mi = 0, se = 0, ms = 0, us = 0;
	if (n < sizeof(shape) - 1)
		return -1;
	for (size_t i = 0; i < sizeof(shape) - 1; i++)
		if (shape[i] == 'd' ? s[i] < '0' || s[i] > '9' : s[i] != shape[i])
			return -1;
	digits(s, 4, &y);
	digits(s + 5, 2, &mo);
	digits(s + 8, 2, &d);
	digits(s + 11, 2, &h);
	digits(s + 14, 2, &mi);
	digits(s + 17, 2, &se);
	digits(s + 20, 3, &ms);
	digits(s + 24, 3, &us);
	if (y < 1970 || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || se > 60)
		return -1;
	int64_t days = days_from_civil(y, mo, d);
	return ((days * 86400 + h * 3600 + mi * 60 + se) * 1000 + ms) * 1000 + us;
}

/* The time and pid of a line: "[ERROR] HCCL(pid,proc):stamp" (§5), "[ERROR]HCCL(...)" without
 * the space, or the screen forms "EI0002: [PID: 7277] stamp" / "EI0005: stamp" (§8.10,
 * §8.14). Only the first 160 bytes are looked at. */
static void prefix(struct pspan l, int64_t *t_us, int *pid)
{
	size_t n = l.n < 160 ? l.n : 160;
	*t_us = -1;
	*pid = -1;
	for (size_t i = 0; i + 27 <= n; i++) {
		if (l.s[i] >= '0' && l.s[i] <= '9' &&
		    (i == 0 || l.s[i - 1] < '0' || l.s[i - 1] > '9')) {
			int64_t t = stamp_at(l.s + i, n - i);
			if (t >= 0) {
				*t_us = t;
				n = i; /* the pid comes before the time */
				break;
			}
		}
	}
	struct pspan head = {l.s, n};
	long long v;
	struct pspan a = after(head, "[PID:");
	if (a.s && num_at(a, &v)) {
		*pid = (int)v;
		return;
	}
	/* MODULE(pid,proc): the first '(' after a letter, followed by digits and ',' */
	for (size_t i = 1; i < n; i++) {
		char c = l.s[i - 1];
		if (l.s[i] != '(' || !((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z')))
			continue;
		size_t k = i + 1, b = k;
		long long x = 0;
		while (k < n && k - b < 9 && l.s[k] >= '0' && l.s[k] <= '9')
			x = x * 10 + (l.s[k++] - '0');
		if (k > b && k < n && l.s[k] == ',') {
			*pid = (int)x;
			return;
		}
	}
}

/* ---- report growth ---- */

/* Arrays grow by doubling from first up to max: n is full when it is 0 or first times a power
 * of two, below max. */
static int grow_at(size_t n, size_t first)
{
	if (!n)
		return 1;
	if (n < first || n % first)
		return 0;
	size_t q = n / first;
	return !(q & (q - 1));
}

static size_t new_cap(size_t n, size_t first, size_t max)
{
	size_t c = n ? 2 * n : first;
	return c < max ? c : max;
}

static int add_file(struct hlog_report *r, const char *name, const char *node, char *err,
		    size_t errlen)
{
	if (grow_at(r->nfile, 64)) {
		struct hlog_file *nf =
			realloc(r->file, new_cap(r->nfile, 64, HLOG_MAX_FILES) * sizeof(*nf));
		if (!nf) {
			snprintf(err, errlen, "%s: out of memory", name);
			return -ENOMEM;
		}
		r->file = nf;
	}
	struct hlog_file *f = &r->file[r->nfile++];
	memset(f, 0, sizeof(*f));
	snprintf(f->name, sizeof(f->name), "%s", name);
	snprintf(f->node, sizeof(f->node), "%s", node ? node : "");
	f->first_us = f->last_us = -1;
	f->rank = f->dev = f->pid = -1;
	return 0;
}

static struct hlog_event *add_event(struct hlog_report *r, int *rc)
{
	if (r->nev >= HLOG_MAX_EVENTS) {
		r->dropped++;
		return NULL;
	}
	if (grow_at(r->nev, 256)) {
		struct hlog_event *ne =
			realloc(r->ev, new_cap(r->nev, 256, HLOG_MAX_EVENTS) * sizeof(*ne));
		if (!ne) {
			*rc = -ENOMEM;
			return NULL;
		}
		r->ev = ne;
	}
	struct hlog_event *e = &r->ev[r->nev++];
	memset(e, 0, sizeof(*e));
	e->t_us = -1;
	e->pid = e->rank = e->peer_rank = e->dev = e->peer_dev = -1;
	e->value = -1;
	return e;
}

/* ---- recognising one line ---- */

/* A LINK_ERROR_INFO cell "ip(user_rank)". */
static int ip_rank_cell(struct pspan c, char *ip, size_t iplen, int *rank)
{
	c = probe__trim(c);
	size_t k = ip_at(c, ip, iplen);
	long long v;
	if (!k || k >= c.n || c.s[k] != '(')
		return 0;
	struct pspan d = {c.s + k + 1, c.n - k - 1};
	if (!num_at(d, &v) || v < 0)
		return 0;
	*rank = (int)v;
	return 1;
}

/* "| 192.0.2.199(0) | 16666 | 192.0.3.198(1) | 3234403008 | client | time out | DISABLE |
 * LinkInfo" (§8.10): dest, dest_port, src, src_port, MyRole, Status, TlsStatus. The src is
 * the rank that wrote the line (the HCCL-docs "dest_ip(user_rank) → 对端" reading). Builds
 * without the TlsStatus column are accepted. */
static int link_row(struct pspan m, struct hlog_event *e)
{
	const char *bar = memchr(m.s, '|', m.n);
	if (!bar)
		return 0;
	struct pspan rest = {bar + 1, m.n - (size_t)(bar + 1 - m.s)};
	struct pspan cell[8];
	size_t nc = 0;
	while (nc < 8 && rest.n) {
		const char *b = memchr(rest.s, '|', rest.n);
		size_t k = b ? (size_t)(b - rest.s) : rest.n;
		cell[nc].s = rest.s;
		cell[nc].n = k;
		nc++;
		rest.s += b ? k + 1 : k;
		rest.n -= b ? k + 1 : k;
	}
	if (nc < 3 || !ip_rank_cell(cell[0], e->peer_ip, sizeof(e->peer_ip), &e->peer_rank) ||
	    !ip_rank_cell(cell[2], e->ip, sizeof(e->ip), &e->rank))
		return 0;
	e->kind = HLOG_SOCKET_TIMEOUT;
	e->sub = HLOG_SUB_LINK_ROW;
	if (nc > 6) {
		struct pspan t = probe__trim(cell[6]);
		e->value = probe__eq_nocase(t, "ENABLE")    ? 1
			   : probe__eq_nocase(t, "DISABLE") ? 0
							    : -1;
	}
	return 1;
}

/* Sets e->kind and its fields when m is one of §8's signatures; 0 when it is none. */
static int recognise(struct pspan m, struct hlog_event *e)
{
	long long v;
	/* §8.15: [HeartbeatAbnormal]Cluster Exception Location[IP/ID]:[127.10.0.1/1], ...,
	 * ExceptionType:[Heartbeat Lost Occurred]. IP/ID is the server id and the device
	 * (HCCL's Heartbeat::GetUId); "Discoverer:[IP/ID]" names the rank that wrote it. */
	if (has(m, "Cluster Exception Location")) {
		struct pspan t = after(m, "ExceptionType");
		e->kind = !t.s			   ? HLOG_HEARTBEAT
			  : has_nocase(t, "Lost")  ? HLOG_HEARTBEAT_LOST
			  : has_nocase(t, "Stuck") ? HLOG_HEARTBEAT_STUCK
			  : has_nocase(t, "cqe")   ? HLOG_ERROR_CQE
						   : HLOG_HEARTBEAT;
		if (!uid_after(m, "Cluster Exception Location[IP/ID]:", e->peer_ip,
			       sizeof(e->peer_ip), &e->peer_dev))
			uid_after(m, "Cluster Exception Location", e->peer_ip, sizeof(e->peer_ip),
				  &e->peer_dev);
		uid_after(m, "Discoverer:", e->ip, sizeof(e->ip), &e->dev);
		return 1;
	}
	/* §8.16: "[HeartbeatAbnormal][ROCE CQE ERROR]cqe error status[12], ...", "[Heartbeat]cqe
	 * err status", ROCE "error cqe status: 0x15", EI0013 "An error CQE occurred ... Local
	 * information: ..., device IP .... Peer information: ...". */
	if (has(m, "ROCE CQE ERROR") || has_nocase(m, "cqe error status") ||
	    has_nocase(m, "cqe err status") || has_nocase(m, "error cqe status") ||
	    has(m, "An error CQE occurred") || has(m, "EI0013")) {
		e->kind = HLOG_ERROR_CQE;
		struct pspan s = after(m, "status");
		while (s.s && s.n && !num_at(s, &v))
			s = after(s, "status");
		if (s.s && s.n && num_at(s, &v) && v >= 0)
			e->value = v;
		struct pspan peer = after(m, "Peer information");
		if (peer.s) {
			struct pspan local = {m.s, (size_t)(peer.s - m.s)};
			if (!ip_after(local, "device IP", e->ip, sizeof(e->ip)))
				nth_ip(local, 0, e->ip, sizeof(e->ip));
			if (!ip_after(peer, "device IP", e->peer_ip, sizeof(e->peer_ip)))
				nth_ip(peer, 0, e->peer_ip, sizeof(e->peer_ip));
		} else if (ip_after(m, "remoteIP", e->peer_ip, sizeof(e->peer_ip)) ||
			   ip_after(m, "remote ip", e->peer_ip, sizeof(e->peer_ip))) {
			/* tolerant: §8 elides where the IPs are; take the first other one as local
			 */
			for (int i = 0; i < 3; i++)
				if (nth_ip(m, i, e->ip, sizeof(e->ip)) && strcmp(e->ip, e->peer_ip))
					break;
			if (!strcmp(e->ip, e->peer_ip))
				e->ip[0] = '\0';
		} else {
			nth_ip(m, 0, e->ip, sizeof(e->ip));
			nth_ip(m, 1, e->peer_ip, sizeof(e->peer_ip));
		}
		return 1;
	}
	/* §8.14 */
	if (has(m, "EI0005") || has(m, "arguments for collective communication are inconsistent") ||
	    (has(m, "CMD information") && has(m, "check fail")) || has(m, "cmdType check fail") ||
	    has(m, "[RankConsistentImpl][CompareFrame]")) {
		e->kind = HLOG_MISMATCH;
		if (!int_after(m, "remote rank", &e->peer_rank))
			int_after(m, "remoteRank", &e->peer_rank);
		return 1;
	}
	/* §8.11 */
	if (has(m, "EI0016") || has(m, "tlsStatus are inconsistent") ||
	    has(m, "for config \"tls\" is invalid") || has(m, "rankList for enabled tls")) {
		e->kind = HLOG_TLS;
		return 1;
	}
	if (has(m, "TLS SWITCH")) {
		e->kind = HLOG_TLS_SWITCH;
		struct pspan a = after(m, "TLS SWITCH");
		if (num_at(a, &v))
			e->value = v;
		return 1;
	}
	/* §8.9: "socket type[2], listen on ip[...] and specific port[60000] fail. Please check the
	 * port status...", EI0019 "The IP address ... and port 50001 have already been bound." */
	if (has(m, "EI0019") || has(m, "have already been bound") ||
	    (has(m, "listen on ip") && has(m, "Please check the port status"))) {
		e->kind = HLOG_PORT_BOUND;
		int port;
		if (!ip_after(m, "listen on ip", e->ip, sizeof(e->ip)))
			ip_after(m, "IP address", e->ip, sizeof(e->ip));
		if (int_after(m, "specific port", &port) || int_after(m, "and port", &port))
			e->value = port;
		int_after(m, "socket type", &e->dev); /* 2: host (rootinfo), 0/1: device */
		return 1;
	}
	/* §8.13 */
	if (has(m, "EJ0001") || has(m, "Failed to initialize the HCCP process") ||
	    has(m, "tsd client wait response fail") || has(m, "Open TsdClient failed")) {
		e->kind = HLOG_NPU_BUSY;
		return 1;
	}
	/* §8.4: "ra_rdev_init_check_ip ... [check][ip]fail ... inconsistent with the IP
	 * address(...) of the network adapter": the NIC's IP is the one in "IP address(...)". */
	if (has(m, "ra_rdev_init_check_ip") || has(m, "[check][ip]fail") ||
	    (has(m, "inconsistent with the IP address") && has(m, "network adapter"))) {
		e->kind = HLOG_DEVICE_IP;
		ip_after(m, "IP address(", e->peer_ip, sizeof(e->peer_ip));
		for (int i = 0; i < 3; i++)
			if (nth_ip(m, i, e->ip, sizeof(e->ip)) && strcmp(e->ip, e->peer_ip))
				break;
		if (!strcmp(e->ip, e->peer_ip))
			e->ip[0] = '\0';
		return 1;
	}
	/* §8.17: "ra hdc message process failed ret(-67)"; "link down" / "link status: DOWN" are
	 * tolerated as the same (their plog wording is not in §8). */
	if ((has(m, "ra hdc message process failed") && has(m, "-67")) ||
	    has_nocase(m, "link down") || has_nocase(m, "link status: down")) {
		e->kind = HLOG_LINK_DOWN;
		nth_ip(m, 0, e->ip, sizeof(e->ip));
		return 1;
	}
	/* §8.6, §8.7: rootinfo */
	if (has(m, "topo exchange server get socket timeout")) {
		e->kind = HLOG_ROOT_TIMEOUT;
		e->sub = HLOG_SUB_ROOT_SERVER;
		return 1;
	}
	if (has(m, "topo exchange agent get socket timeout") ||
	    (has(m, "TopoExchangeAgent") && has(m, "connect server"))) {
		e->kind = HLOG_ROOT_TIMEOUT;
		e->sub = HLOG_SUB_ROOT_AGENT;
		ip_after(m, "connect server", e->peer_ip, sizeof(e->peer_ip));
		int port;
		if (int_after(m, " : ", &port)) /* "connect server[127.10.0.1 : 60000]" */
			e->value = port;
		return 1;
	}
	if (has(m, "EI0015") || has(m, "List of unconnected ranks") ||
	    has(m, "Failed to connect agent")) {
		e->kind = HLOG_ROOT_TIMEOUT;
		e->sub = HLOG_SUB_UNCONNECTED;
		if (!int_after(m, "List of unconnected ranks", &e->peer_rank))
			int_after(m, "Failed to connect agent", &e->peer_rank);
		return 1;
	}
	/* §8.10 */
	if (link_row(m, e))
		return 1;
	if (has(m, "wait socket establish timeout")) {
		e->kind = HLOG_SOCKET_TIMEOUT;
		int_after(m, " rank", &e->rank);
		return 1;
	}
	if (has(m, "Transport init error")) {
		e->kind = HLOG_SOCKET_TIMEOUT;
		e->sub = HLOG_SUB_TRANSPORT;
		if (!int_after(m, "localUserrank", &e->rank))
			int_after(m, "para:rank", &e->rank);
		if (!int_after(m, "remoteUserrank", &e->peer_rank))
			int_after(m, "remoteRank", &e->peer_rank);
		uid_after(m, "localIpAddr", e->ip, sizeof(e->ip), &e->dev);
		uid_after(m, "remoteIpAddr", e->peer_ip, sizeof(e->peer_ip), &e->peer_dev);
		return 1;
	}
	/* "This node (server X, device ID 1) detects that srcRank ... fails to connect to dstRank
	 * ...": §8.10 elides the numbers; any of "srcRank[1]", "srcRank 1", "srcRank:1". */
	if (has(m, "fails to connect to dstRank")) {
		e->kind = HLOG_SOCKET_TIMEOUT;
		e->sub = HLOG_SUB_DETECT;
		int_after(m, "srcRank", &e->rank);
		int_after(m, "dstRank", &e->peer_rank);
		return 1;
	}
	if (has(m, "EI0006") || has(m, "Getting socket times out")) {
		e->kind = HLOG_SOCKET_TIMEOUT;
		return 1;
	}
	/* §8.15: "The Notify register has not received the Notify record from remote rank: [24]"
	 * ("remote rank [unknown]" gives no rank), "[TaskExecStage][Timeout][Host]Task run failed"
	 */
	if (has(m, "EI0002") || has(m, "has not received the Notify record") ||
	    (has(m, "Task run failed") && has(m, "[Timeout]"))) {
		e->kind = HLOG_NOTIFY_TIMEOUT;
		int_after(m, "remote rank", &e->peer_rank);
		return 1;
	}
	/* §5: "Entry-HcclAllReduce: tag[...], ..., localRank[0], ..."; §8.6
	 * "Entry-HcclCommInitRootInfoInner" */
	if (has(m, "Entry-Hccl")) {
		e->kind = HLOG_ENTRY;
		int_after(m, "localRank", &e->rank);
		int_after(m, "deviceLogicId", &e->dev);
		return 1;
	}
	return 0;
}

/* What the line tells about the process that wrote it. */
static void learn(struct hlog_file *f, const struct hlog_event *e)
{
	int own = e->kind == HLOG_ENTRY ||
		  (e->kind == HLOG_SOCKET_TIMEOUT && e->sub != HLOG_SUB_DETECT);
	if (own && f->rank < 0 && e->rank >= 0)
		f->rank = e->rank;
	if (e->sub == HLOG_SUB_LINK_ROW && !f->ip[0])
		snprintf(f->ip, sizeof(f->ip), "%s", e->ip);
	if (!f->host[0] && e->ip[0] &&
	    (e->sub == HLOG_SUB_TRANSPORT ||
	     (kind_class(e->kind) == CLS_FAULT && e->kind != HLOG_ERROR_CQE && e->dev >= 0))) {
		snprintf(f->host, sizeof(f->host), "%s", e->ip);
		f->dev = e->dev;
	}
}

/* Text files only: a NUL or many bytes below 0x09 in the first 4 KiB is a binary file. */
static int binary(const char *buf, size_t len)
{
	size_t n = len < 4096 ? len : 4096, odd = 0;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)buf[i];
		if (!c)
			return 1;
		odd += c < 0x09 || (c > 0x0d && c < 0x20);
	}
	return odd * 10 > n;
}

int hlog_scan_buf(const char *name, const char *node, const char *buf, size_t len,
		  struct hlog_report *r, char *err, size_t errlen)
{
	int rc = 0;
	if (!name || !r || (!buf && len)) {
		snprintf(err, errlen, "hlog_scan_buf: a NULL argument");
		return -EINVAL;
	}
	if (r->nfile >= HLOG_MAX_FILES || binary(buf, len)) {
		r->skipped++;
		return 0;
	}
	rc = add_file(r, name, node, err, errlen);
	if (rc)
		return rc;
	size_t fi = r->nfile - 1;
	struct hlog_file *f = &r->file[fi];
	struct pspan rest = {buf, len}, line;
	int64_t last_t = -1;
	int last_pid = -1;
	unsigned no = 0;
	r->bytes += len;
	while (probe__next_line(&rest, &line)) {
		no++;
		r->lines++;
		f->lines++;
		if (line.n > HLOG_MAX_LINE) {
			line.n = HLOG_MAX_LINE;
			r->truncated++;
		}
		line = probe__trim(line);
		if (!line.n)
			continue;
		int64_t t;
		int pid;
		prefix(line, &t, &pid);
		if (pid >= 0 && f->pid < 0)
			f->pid = pid;
		if (t >= 0) {
			last_t = t;
			last_pid = pid;
			if (f->first_us < 0 || t < f->first_us)
				f->first_us = t;
			if (t > f->last_us)
				f->last_us = t;
		}
		struct hlog_event tmp;
		memset(&tmp, 0, sizeof(tmp));
		tmp.t_us = -1;
		tmp.pid = tmp.rank = tmp.peer_rank = tmp.dev = tmp.peer_dev = -1;
		tmp.value = -1;
		if (!recognise(line, &tmp))
			continue;
		struct hlog_event *e = add_event(r, &rc);
		if (rc) {
			snprintf(err, errlen, "%s: out of memory", name);
			return rc;
		}
		/* a line without a time continues the previous one (a wrapped message) */
		tmp.t_us = t >= 0 ? t : last_t;
		tmp.pid = t >= 0 || pid >= 0 ? pid : last_pid;
		tmp.line = no;
		tmp.fi = fi;
		snprintf(tmp.file, sizeof(tmp.file), "%s", name);
		snprintf(tmp.node, sizeof(tmp.node), "%s", node ? node : "");
		probe__copy(tmp.text, sizeof(tmp.text), line);
		learn(f, &tmp);
		if (!e)
			continue; /* over the cap: counted in dropped, still learnt from */
		*e = tmp;
		f->nev++;
	}
	return 0;
}

/* ---- reading a directory ---- */

struct walk {
	struct hlog_report *r;
	char *err;
	size_t errlen;
};

static int ends_with(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);
	return a >= b && !strcmp(s + a - b, suf);
}

static int read_log(struct walk *w, const char *path, const char *rel, const char *node)
{
	struct hlog_report *r = w->r;
	if (r->bytes >= HLOG_MAX_TOTAL_BYTES || r->nfile >= HLOG_MAX_FILES) {
		r->skipped++;
		return 0;
	}
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		if (fd >= 0)
			close(fd);
		r->skipped++;
		return 0;
	}
	size_t cap = HLOG_MAX_FILE_BYTES, want = (size_t)st.st_size, part = 0;
	if (want > cap) {
		/* the end of a log is where a job fails: read the last cap bytes */
		if (lseek(fd, (off_t)(want - cap), SEEK_SET) < 0) {
			close(fd);
			r->skipped++;
			return 0;
		}
		want = cap;
		part = 1;
	}
	char *buf = malloc(want ? want : 1);
	if (!buf) {
		close(fd);
		snprintf(w->err, w->errlen, "%s: out of memory", rel);
		return -ENOMEM;
	}
	size_t got = 0;
	while (got < want) {
		ssize_t k = read(fd, buf + got, want - got);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			break;
		got += (size_t)k;
	}
	close(fd);
	const char *s = buf;
	size_t n = got;
	if (part) {
		const char *nl = memchr(s, '\n', n);
		n = nl ? n - (size_t)(nl + 1 - s) : 0;
		s = nl ? nl + 1 : s;
		r->truncated++;
	}
	int rc = hlog_scan_buf(rel, node, s, n, r, w->err, w->errlen);
	free(buf);
	return rc;
}

static int walk_dir(struct walk *w, const char *path, const char *rel, int depth)
{
	struct dirent **names = NULL;
	int n = scandir(path, &names, NULL, alphasort);
	if (n < 0) {
		if (!depth) {
			int e = errno;
			snprintf(w->err, w->errlen, "cannot read directory '%s': %s", path,
				 strerror(e));
			return -e;
		}
		w->r->skipped++;
		return 0;
	}
	int rc = 0;
	for (int i = 0; i < n; i++) {
		const char *nm = names[i]->d_name;
		if (rc || !strcmp(nm, ".") || !strcmp(nm, ".."))
			continue;
		char full[4096], sub[HLOG_PATHLEN];
		int a = snprintf(full, sizeof(full), "%s/%s", path, nm);
		int b = *rel ? snprintf(sub, sizeof(sub), "%s/%s", rel, nm)
			     : snprintf(sub, sizeof(sub), "%s", nm);
		struct stat st;
		if (a < 0 || (size_t)a >= sizeof(full) || b < 0 || (size_t)b >= sizeof(sub) ||
		    lstat(full, &st)) {
			w->r->skipped++;
			continue;
		}
		if (S_ISLNK(st.st_mode)) {
			w->r->skipped++; /* not followed */
		} else if (S_ISDIR(st.st_mode)) {
			if (depth + 1 >= HLOG_MAX_DEPTH)
				w->r->skipped++;
			else
				rc = walk_dir(w, full, sub, depth + 1);
		} else if (S_ISREG(st.st_mode) && ends_with(nm, ".log")) {
			/* DIR/<node>/...: the node is the first component, for files below it */
			char node[HLOG_NODELEN] = "";
			const char *slash = strchr(sub, '/');
			if (slash && (size_t)(slash - sub) < sizeof(node)) {
				memcpy(node, sub, (size_t)(slash - sub));
				node[slash - sub] = '\0';
			}
			rc = read_log(w, full, sub, node);
		}
	}
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return rc;
}

int hlog_scan_dir(const char *dir, struct hlog_report *r, char *err, size_t errlen)
{
	struct walk w = {r, err, errlen};
	struct stat st;
	if (!dir || !r) {
		snprintf(err, errlen, "hlog_scan_dir: a NULL argument");
		return -EINVAL;
	}
	if (stat(dir, &st)) {
		int e = errno;
		snprintf(err, errlen, "cannot read '%s': %s", dir, strerror(e));
		return -e;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "'%s' is not a directory", dir);
		return -ENOTDIR;
	}
	return walk_dir(&w, dir, "", 0);
}

/* ---- the root cause ---- */

static int ev_cmp(const void *pa, const void *pb)
{
	const struct hlog_event *a = pa, *b = pb;
	if ((a->t_us < 0) != (b->t_us < 0))
		return a->t_us < 0 ? 1 : -1;
	if (a->t_us != b->t_us)
		return a->t_us < b->t_us ? -1 : 1;
	int c = strcmp(a->file, b->file);
	if (c)
		return c;
	return a->line < b->line ? -1 : a->line > b->line;
}

/* A bounded text builder: appends that do not fit are cut, never overflow. */
struct sbuf {
	char *s;
	size_t cap, n;
};

static void sb_add(struct sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_add(struct sbuf *b, const char *fmt, ...)
{
	if (b->n + 1 >= b->cap)
		return;
	va_list ap;
	va_start(ap, fmt);
	int k = vsnprintf(b->s + b->n, b->cap - b->n, fmt, ap);
	va_end(ap);
	if (k > 0)
		b->n = b->n + (size_t)k < b->cap ? b->n + (size_t)k : b->cap - 1;
}

static int is_heartbeat(int kind)
{
	return kind == HLOG_HEARTBEAT_LOST || kind == HLOG_HEARTBEAT_STUCK ||
	       kind == HLOG_HEARTBEAT;
}

static int ev_rank(const struct hlog_report *r, const struct hlog_event *e)
{
	if (e->rank >= 0 && e->sub != HLOG_SUB_DETECT)
		return e->rank;
	return e->fi < r->nfile ? r->file[e->fi].rank : -1;
}

static const char *hms(int64_t t, char *buf, size_t len)
{
	time_t s = (time_t)(t / 1000000);
	struct tm tm;
	if (t < 0 || !gmtime_r(&s, &tm))
		snprintf(buf, len, "?");
	else
		snprintf(buf, len, "%02d:%02d:%02d", tm.tm_hour, tm.tm_min, tm.tm_sec);
	return buf;
}

/* Lists where the events of class CONSEQ (other than those of skip_fi) were written: "the EI0006
 * socket timeouts on ranks 0,1,2 and the EI0002 notify timeouts on ranks 4,5". */
static void list_conseq(const struct hlog_report *r, struct sbuf *b, const char *what,
			int skip_rank)
{
	static const struct {
		int kind;
		const char *name;
	} ks[] = {{HLOG_SOCKET_TIMEOUT, "EI0006 socket timeouts"},
		  {HLOG_NOTIFY_TIMEOUT, "EI0002 notify timeouts"},
		  {HLOG_ROOT_TIMEOUT, "rootinfo timeouts"}};
	int any = 0;
	for (size_t k = 0; k < sizeof(ks) / sizeof(ks[0]); k++) {
		char *seen = calloc(r->nfile ? r->nfile : 1, 1);
		if (!seen)
			return;
		int ranks[17], nr = 0, more = 0, nnodes = 0, found = 0;
		char nodes[160] = "";
		/* the nodes whose lines of this kind name a rank (up to 64) */
		const char *named[64];
		size_t nnamed = 0;
		for (size_t i = 0; i < r->nev && nnamed < 64; i++) {
			const struct hlog_event *e = &r->ev[i];
			if (e->kind != ks[k].kind || ev_rank(r, e) < 0)
				continue;
			int dup = 0;
			for (size_t j = 0; j < nnamed && !dup; j++)
				dup = !strcmp(named[j], e->node);
			if (!dup)
				named[nnamed++] = e->node;
		}
		for (size_t i = 0; i < r->nev; i++) {
			const struct hlog_event *e = &r->ev[i];
			if (e->kind != ks[k].kind)
				continue;
			int rk = ev_rank(r, e);
			if (rk >= 0 && rk == skip_rank)
				continue;
			found = 1;
			if (e->fi >= r->nfile || seen[e->fi])
				continue;
			seen[e->fi] = 1;
			if (rk >= 0) {
				int dup = 0;
				for (int j = 0; j < nr; j++)
					dup |= ranks[j] == rk;
				if (!dup && nr < 16)
					ranks[nr++] = rk;
				else if (!dup)
					more = 1;
			} else if (nnodes < 8) {
				int dup = 0;
				for (size_t j = 0; j < nnamed && !dup; j++)
					dup = !strcmp(named[j], e->node);
				if (dup)
					continue;
				size_t l = strlen(nodes);
				snprintf(nodes + l, sizeof(nodes) - l, "%s%.40s", nnodes ? "," : "",
					 e->node[0] ? e->node : e->file);
				nnodes++;
			}
		}
		free(seen);
		if (!found)
			continue;
		/* ascending rank order */
		for (int i = 1; i < nr; i++)
			for (int j = i; j > 0 && ranks[j - 1] > ranks[j]; j--) {
				int t = ranks[j];
				ranks[j] = ranks[j - 1];
				ranks[j - 1] = t;
			}
		sb_add(b, "%s%s", any ? " and the " : "; the ", ks[k].name);
		if (nr) {
			sb_add(b, " on rank%s ", nr > 1 ? "s" : "");
			for (int j = 0; j < nr; j++)
				sb_add(b, "%s%d", j ? "," : "", ranks[j]);
			if (more)
				sb_add(b, ",...");
		}
		if (nnodes)
			sb_add(b, "%s %s", nr ? " and on" : " on", nodes);
		any = 1;
	}
	if (any)
		sb_add(b, "%s are consequences", what);
}

/* The file written by rank (or, for rank -1, by host/dev or device ip); NULL. */
static const struct hlog_file *file_of(const struct hlog_report *r, int rank, const char *host,
				       int dev, const char *ip)
{
	for (size_t i = 0; i < r->nfile; i++) {
		const struct hlog_file *f = &r->file[i];
		if (rank >= 0 && f->rank == rank)
			return f;
		if (host && host[0] && !strcmp(f->host, host) && (dev < 0 || f->dev == dev))
			return f;
		if (ip && ip[0] && !strcmp(f->ip, ip))
			return f;
	}
	return NULL;
}

/* Describes a culprit: "rank 3 (node n4, 192.168.10.4)", "10.0.0.3 device 0 (node n3)". */
static void who(struct sbuf *b, int rank, const char *node, const char *ip, int dev)
{
	char addr[HLOG_IPLEN + 24] = "";
	if (ip[0] && dev >= 0)
		snprintf(addr, sizeof(addr), "%s device %d", ip, dev);
	else if (ip[0])
		snprintf(addr, sizeof(addr), "%s", ip);
	if (rank >= 0)
		sb_add(b, "rank %d", rank);
	else
		sb_add(b, "%s", addr[0] ? addr : "an unknown rank");
	if (node[0] && rank >= 0 && addr[0])
		sb_add(b, " (node %s, %s)", node, addr);
	else if (node[0])
		sb_add(b, " (node %s)", node);
	else if (rank >= 0 && addr[0])
		sb_add(b, " (%s)", addr);
}

static void set_fix(struct hlog_report *r, const char *fix)
{
	snprintf(r->fix, sizeof(r->fix), "%s", fix);
}

/* How many ranks wrote an event that match()es key: distinct ranks (or heartbeat
 * Discoverers), plus the nodes of lines that name no rank and come from a node without one. */
static size_t reporters(const struct hlog_report *r,
			int (*match)(const struct hlog_event *, const struct hlog_event *),
			const struct hlog_event *key)
{
	char(*k)[HLOG_PATHLEN + 16] = malloc((r->nev ? r->nev : 1) * sizeof(*k));
	size_t n = 0, count = 0;
	if (!k)
		return 1;
	for (size_t i = 0; i < r->nev; i++) {
		const struct hlog_event *e = &r->ev[i];
		if (!match(e, key))
			continue;
		int rk = ev_rank(r, e);
		if (rk >= 0)
			snprintf(k[n++], sizeof(*k), "r%d", rk);
		else if (is_heartbeat(e->kind) && e->ip[0])
			snprintf(k[n++], sizeof(*k), "u%s/%d", e->ip, e->dev);
		else
			snprintf(k[n++], sizeof(*k), "~%s", e->node[0] ? e->node : e->file);
	}
	qsort(k, n, sizeof(*k), (int (*)(const void *, const void *))strcmp);
	for (size_t i = 0; i < n; i++) {
		if (i && !strcmp(k[i], k[i - 1]))
			continue;
		if (k[i][0] == '~') {
			/* a node counts only when none of its lines named a rank */
			int named = 0;
			for (size_t j = 0; j < r->nev && !named; j++)
				named = match(&r->ev[j], key) && !strcmp(r->ev[j].node, k[i] + 1) &&
					(ev_rank(r, &r->ev[j]) >= 0 || r->ev[j].ip[0]);
			if (named)
				continue;
		}
		count++;
	}
	free(k);
	return count;
}

static int same_culprit(const struct hlog_event *e, const struct hlog_event *k)
{
	return (is_heartbeat(e->kind) || e->kind == HLOG_ERROR_CQE) && e->kind == k->kind &&
	       !strcmp(e->peer_ip, k->peer_ip) && e->peer_dev == k->peer_dev;
}

struct vote {
	int peer;
	size_t fi, idx;
};

static int vote_cmp(const void *pa, const void *pb)
{
	const struct vote *a = pa, *b = pb;
	if (a->peer != b->peer)
		return a->peer < b->peer ? -1 : 1;
	if (a->fi != b->fi)
		return a->fi < b->fi ? -1 : 1;
	return a->idx < b->idx ? -1 : a->idx > b->idx;
}

/* The rank most EI0006/EI0002 lines (of kind, or of both for 0) wait for, counted once per
 * file; ties go to the one waited for first. *first is the earliest such line. -1 if none. */
static int most_waited(const struct hlog_report *r, int kind, size_t *votes,
		       const struct hlog_event **first)
{
	struct vote *v = malloc((r->nev ? r->nev : 1) * sizeof(*v));
	size_t n = 0;
	int best = -1;
	*votes = 0;
	*first = NULL;
	if (!v)
		return -1;
	for (size_t i = 0; i < r->nev; i++) {
		const struct hlog_event *e = &r->ev[i];
		if ((e->kind != HLOG_SOCKET_TIMEOUT && e->kind != HLOG_NOTIFY_TIMEOUT) ||
		    (kind && e->kind != kind) || e->peer_rank < 0 || ev_rank(r, e) == e->peer_rank)
			continue;
		v[n].peer = e->peer_rank;
		v[n].fi = e->fi;
		v[n++].idx = i;
	}
	qsort(v, n, sizeof(*v), vote_cmp);
	for (size_t i = 0; i < n;) {
		size_t j = i, files = 0, idx = v[i].idx;
		for (; j < n && v[j].peer == v[i].peer; j++) {
			files += j == i || v[j].fi != v[j - 1].fi;
			if (v[j].idx < idx)
				idx = v[j].idx;
		}
		if (files > *votes ||
		    (files == *votes && *first && idx < (size_t)(*first - r->ev))) {
			*votes = files;
			best = v[i].peer;
			*first = &r->ev[idx];
		}
		i = j;
	}
	free(v);
	return best;
}

static void conclude_heartbeat(struct hlog_report *r, const struct hlog_event *c)
{
	struct sbuf b = {r->cause, sizeof(r->cause), 0};
	size_t n = reporters(r, same_culprit, c);
	const struct hlog_file *f = file_of(r, -1, c->peer_ip, c->peer_dev, NULL);
	int rank = f ? f->rank : -1;
	if (rank < 0) {
		/* IP/ID is a server and a device, not a rank: the rank the EI0002 lines wait
		 * for, when they agree on one, is the same process */
		size_t votes;
		const struct hlog_event *w;
		rank = most_waited(r, HLOG_NOTIFY_TIMEOUT, &votes, &w);
		if (rank >= 0 && !f)
			f = file_of(r, rank, NULL, -1, NULL);
	}
	r->rank = rank;
	snprintf(r->ip, sizeof(r->ip), "%s", c->peer_ip);
	snprintf(r->node, sizeof(r->node), "%s", f ? f->node : "");
	who(&b, rank, r->node, c->peer_ip, c->peer_dev);
	const char *what = c->kind == HLOG_HEARTBEAT_LOST    ? "stopped answering: heartbeat lost"
			   : c->kind == HLOG_HEARTBEAT_STUCK ? "hung: heartbeat stuck"
							     : "had a heartbeat exception";
	sb_add(&b, " %s reported by %zu rank%s", what, n, n == 1 ? "" : "s");
	list_conseq(r, &b, " waiting for it", rank);
	if (c->kind == HLOG_HEARTBEAT_STUCK)
		set_fix(r,
			"the process stopped making progress (checkpoint saving, uneven data, a "
			"hang): dump its stack, find the first-failing rank; raise "
			"HCCL_EXEC_TIMEOUT if it is only slow, check with HCCL_ENTRY_LOG_ENABLE=1 "
			"(ascend.md §8.15)");
	else
		set_fix(r,
			"the process has exited or its network is disconnected: read its log "
			"and dmesg (crash, OOM), check the NPU link (hccn_tool -i <dev> -link -g, "
			"-ping -g address <peer device IP>); raise HCCL_EXEC_TIMEOUT only if it "
			"was "
			"slow (ascend.md §8.15)");
}

static int is_cqe(const struct hlog_event *e, const struct hlog_event *k)
{
	(void)k;
	return e->kind == HLOG_ERROR_CQE;
}

static void conclude_cqe(struct hlog_report *r, const struct hlog_event *c)
{
	struct sbuf b = {r->cause, sizeof(r->cause), 0};
	const struct hlog_event *ipe = NULL;
	long long status = -1;
	/* the status and the two IPs may come on different lines (ROCE log, EI0013) */
	for (size_t i = 0; i < r->nev; i++) {
		const struct hlog_event *e = &r->ev[i];
		if (e->kind != HLOG_ERROR_CQE)
			continue;
		if (status < 0 && e->value >= 0)
			status = e->value;
		/* device IPs (EI0013, ROCE) before the heartbeat's server ids */
		if ((!ipe || ipe->peer_dev >= 0) && e->ip[0] && e->peer_ip[0] &&
		    (!ipe || e->peer_dev < 0))
			ipe = e;
	}
	if (!ipe)
		ipe = c;
	const struct hlog_file *f = ipe->fi < r->nfile ? &r->file[ipe->fi] : NULL;
	r->rank = f ? f->rank : -1;
	snprintf(r->node, sizeof(r->node), "%s", ipe->node);
	snprintf(r->ip, sizeof(r->ip), "%s", ipe->ip);
	snprintf(r->peer_ip, sizeof(r->peer_ip), "%s", ipe->peer_ip);
	const struct hlog_file *pf = file_of(r, -1, NULL, -1, ipe->peer_ip);
	r->peer_rank = pf ? pf->rank : -1;
	sb_add(&b, "the RoCE link %s", ipe->ip[0] ? ipe->ip : "?");
	if (r->node[0] || r->rank >= 0) {
		sb_add(&b, " (");
		if (r->node[0])
			sb_add(&b, "node %s%s", r->node, r->rank >= 0 ? ", " : "");
		if (r->rank >= 0)
			sb_add(&b, "rank %d", r->rank);
		sb_add(&b, ")");
	}
	sb_add(&b, " -> %s failed: error CQE", ipe->peer_ip[0] ? ipe->peer_ip : "?");
	if (status >= 0)
		sb_add(&b, " status %lld%s", status, status == 12 ? " (retransmit timeout)" : "");
	size_t n = reporters(r, is_cqe, c);
	sb_add(&b, " reported by %zu rank%s", n, n == 1 ? "" : "s");
	list_conseq(r, &b, "", -1);
	set_fix(r,
		"check hccn_tool -i <dev> -link_stat -g (flaps), -stat -g (PFC, "
		"roce_new_pkt_rty_num), -optical -g (Rx/Tx power, LoS/LoL), -fec -g (fix with -fec "
		"-s encoding rs), MTU, PFC and QoS against the switch; raise HCCL_RDMA_TIMEOUT / "
		"HCCL_RDMA_RETRY_CNT (ascend.md §8.16)");
}

/* A short quote of the line from the first of keys, for the cause. */
static void quote(struct sbuf *b, const struct hlog_event *e, const char *const *keys)
{
	const char *t = e->text;
	for (size_t i = 0; keys[i]; i++) {
		const char *p = strstr(e->text, keys[i]);
		if (p) {
			t = p;
			break;
		}
	}
	sb_add(b, ": %.150s", t);
}

static void conclude_mismatch(struct hlog_report *r, const struct hlog_event *c)
{
	struct sbuf b = {r->cause, sizeof(r->cause), 0};
	int ranks[2] = {-1, -1};
	const char *nodes[2] = {"", ""};
	const struct hlog_event *detail = NULL;
	for (size_t i = 0; i < r->nev; i++) {
		const struct hlog_event *e = &r->ev[i];
		if (e->kind != HLOG_MISMATCH)
			continue;
		if (!detail && strstr(e->text, "parameter "))
			detail = e;
		int rk[2] = {ev_rank(r, e), e->peer_rank};
		for (int k = 0; k < 2; k++) {
			if (rk[k] < 0 || rk[k] == ranks[0] || rk[k] == ranks[1])
				continue;
			int slot = ranks[0] < 0 ? 0 : ranks[1] < 0 ? 1 : -1;
			if (slot < 0)
				continue;
			ranks[slot] = rk[k];
			const struct hlog_file *f = k ? file_of(r, rk[k], NULL, -1, NULL)
						      : (e->fi < r->nfile ? &r->file[e->fi] : NULL);
			nodes[slot] = f ? f->node : "";
		}
	}
	r->rank = ranks[0];
	r->peer_rank = ranks[1];
	snprintf(r->node, sizeof(r->node), "%s", ranks[0] >= 0 ? nodes[0] : c->node);
	sb_add(&b, "collective mismatch between ");
	if (ranks[0] >= 0) {
		who(&b, ranks[0], nodes[0], "", -1);
		sb_add(&b, " and ");
		if (ranks[1] >= 0)
			who(&b, ranks[1], nodes[1], "", -1);
		else
			sb_add(&b, "its peer");
	} else {
		sb_add(&b, "the ranks on node %s and their peers", c->node[0] ? c->node : c->file);
	}
	static const char *const keys[] = {"parameter ", "CMD information", "cmdType", "EI0005",
					   NULL};
	quote(&b, detail ? detail : c, keys);
	list_conseq(r, &b, "", -1);
	set_fix(r, "fix the script so every rank calls the same collectives in the same order with "
		   "the same count, dtype and op; check that the CANN versions match on every node "
		   "(ascend.md §8.14)");
}

static int rank_list(const char *text, const char *key, int *out, int max);

static void conclude_config(struct hlog_report *r, const struct hlog_event *c)
{
	struct sbuf b = {r->cause, sizeof(r->cause), 0};
	const struct hlog_file *f = c->fi < r->nfile ? &r->file[c->fi] : NULL;
	r->rank = ev_rank(r, c);
	snprintf(r->node, sizeof(r->node), "%s", c->node);
	snprintf(r->ip, sizeof(r->ip), "%s", c->ip);
	snprintf(r->peer_ip, sizeof(r->peer_ip), "%s", c->peer_ip);
	const char *where = c->node[0] ? c->node : (f ? f->name : "?");
	switch (c->kind) {
	case HLOG_PORT_BOUND:
		sb_add(&b, "port %lld", c->value);
		if (c->ip[0])
			sb_add(&b, " on %s", c->ip);
		sb_add(&b, " (node %s%s) is already bound by another process", where,
		       c->dev == 2   ? ", host side"
		       : c->dev >= 0 ? ", NPU side"
				     : "");
		set_fix(r, "another process holds the port (several processes per NPU, a leftover "
			   "job): set HCCL_IF_BASE_PORT or HCCL_HOST_SOCKET_PORT_RANGE / "
			   "HCCL_NPU_SOCKET_PORT_RANGE=\"auto\" (or device_port in the rank table) "
			   "and "
			   "sysctl net.ipv4.ip_local_reserved_ports=60000-60031 (ascend.md §8.9)");
		break;
	case HLOG_TLS: {
		static const char *const keys[] = {"rankList for enabled", "tlsStatus", "EI0016",
						   NULL};
		int on[16], off[16];
		int non = rank_list(c->text, "enabled tls", on, 16);
		int noff = rank_list(c->text, "disabled tls", off, 16);
		sb_add(&b, "TLS switch differs between NPUs (reported on node %s)", where);
		if (non && noff) {
			sb_add(&b, ": enabled on rank%s ", non > 1 ? "s" : "");
			for (int i = 0; i < non; i++)
				sb_add(&b, "%s%d", i ? "," : "", on[i]);
			sb_add(&b, ", disabled on rank%s ", noff > 1 ? "s" : "");
			for (int i = 0; i < noff; i++)
				sb_add(&b, "%s%d", i ? "," : "", off[i]);
			/* the smaller group is the odd one out */
			if (non != noff) {
				r->rank = non < noff ? on[0] : off[0];
				const struct hlog_file *g = file_of(r, r->rank, NULL, -1, NULL);
				snprintf(r->node, sizeof(r->node), "%s", g ? g->node : "");
			}
		} else {
			quote(&b, c, keys);
		}
		set_fix(r,
			"check: for i in {0..7}; do hccn_tool -i $i -tls -g; done | grep switch; "
			"then hccn_tool -i N -tls -s enable 1 (or 0) on all NPUs of the job, with "
			"the same certificates (ascend.md §8.11)");
		break;
	}
	case HLOG_NPU_BUSY:
		sb_add(&b,
		       "NPU busy on node %s: HCCP could not start (EJ0001): the last training "
		       "process is still running or two ranks share one NPU",
		       where);
		set_fix(r,
			"check npu-smi info's process table and fuser -uv /dev/davinci*; kill the "
			"leftover process, wait 10 s and start again (ascend.md §8.13)");
		break;
	case HLOG_DEVICE_IP:
		sb_add(&b, "device_ip in the rank table differs from the NPU NIC's IP on node %s",
		       where);
		if (c->ip[0] || c->peer_ip[0])
			sb_add(&b, " (%s vs NIC %s)", c->ip[0] ? c->ip : "?",
			       c->peer_ip[0] ? c->peer_ip : "?");
		set_fix(r, "compare the rank table's device_ip with hccn_tool -i <phy> -ip -g and "
			   "/etc/hccn.conf, and look for a --visible_devices or container remap "
			   "mistake; regenerate the rank table (ascend.md §8.4)");
		break;
	case HLOG_LINK_DOWN:
	default:
		sb_add(&b, "an NPU NIC link is down on node %s", where);
		if (c->ip[0])
			sb_add(&b, " (%s)", c->ip);
		{
			static const char *const keys[] = {"ra hdc", "link", NULL};
			quote(&b, c, keys);
		}
		set_fix(r,
			"check hccn_tool -i <dev> -link -g, -net_health -g and -ip -g; recover "
			"with hccn_tool -i <dev> -cfg recovery, configure a missing IP with -ip -s "
			"address ... netmask ..., check the optics (ascend.md §8.17)");
		break;
	}
	list_conseq(r, &b, "", r->rank);
}

/* TLS SWITCH (n) lines or LINK_ERROR_INFO TlsStatus values that differ: the earliest line of
 * the less common value. */
static const struct hlog_event *tls_split(const struct hlog_report *r, int *ntls)
{
	size_t cnt[2][2] = {{0, 0}, {0, 0}}; /* [switch lines, link rows][value] */
	for (size_t i = 0; i < r->nev; i++) {
		const struct hlog_event *e = &r->ev[i];
		int src = e->kind == HLOG_TLS_SWITCH ? 0 : e->sub == HLOG_SUB_LINK_ROW ? 1 : -1;
		if (src >= 0 && (e->value == 0 || e->value == 1))
			cnt[src][e->value]++;
	}
	for (int src = 0; src < 2; src++) {
		if (!cnt[src][0] || !cnt[src][1])
			continue;
		int minority = cnt[src][1] < cnt[src][0];
		*ntls = src;
		for (size_t i = 0; i < r->nev; i++) {
			const struct hlog_event *e = &r->ev[i];
			if ((src ? e->sub == HLOG_SUB_LINK_ROW : e->kind == HLOG_TLS_SWITCH) &&
			    e->value == minority)
				return e;
		}
	}
	return NULL;
}

static void conclude_tls_split(struct hlog_report *r, const struct hlog_event *c, int rows)
{
	struct sbuf b = {r->cause, sizeof(r->cause), 0};
	r->rank = ev_rank(r, c);
	snprintf(r->node, sizeof(r->node), "%s", c->node);
	snprintf(r->ip, sizeof(r->ip), "%s", c->ip);
	sb_add(&b, "TLS switch differs between NPUs: ");
	who(&b, r->rank, c->node, c->ip, -1);
	if (rows)
		sb_add(&b, " has TlsStatus %s, its peers %s", c->value ? "ENABLE" : "DISABLE",
		       c->value ? "DISABLE" : "ENABLE");
	else
		sb_add(&b, " logs TLS SWITCH (%lld), the others (%d)", c->value, !c->value);
	list_conseq(r, &b, "", -1);
	set_fix(r, "check: for i in {0..7}; do hccn_tool -i $i -tls -g; done | grep switch; then "
		   "hccn_tool -i N -tls -s enable 1 (or 0) on all NPUs of the job, with the same "
		   "certificates (ascend.md §8.11)");
}

/* Parses a rank list "[1,3,5,7,]" after key into out; returns how many. */
static int rank_list(const char *text, const char *key, int *out, int max)
{
	const char *p = strstr(text, key);
	int n = 0;
	if (!p)
		return 0;
	p = strchr(p, '[');
	if (!p)
		return 0;
	for (p++; *p && *p != ']' && n < max;) {
		if (*p >= '0' && *p <= '9') {
			char *end;
			long v = strtol(p, &end, 10);
			if (v >= 0 && v < 1 << 30)
				out[n++] = (int)v;
			p = end;
		} else {
			p++;
		}
	}
	return n;
}

static int conclude_root(struct hlog_report *r)
{
	struct sbuf b = {r->cause, sizeof(r->cause), 0};
	const struct hlog_event *lst = NULL, *srv = NULL, *agent = NULL;
	for (size_t i = 0; i < r->nev; i++) {
		const struct hlog_event *e = &r->ev[i];
		if (e->kind != HLOG_ROOT_TIMEOUT)
			continue;
		if (!lst && e->sub == HLOG_SUB_UNCONNECTED)
			lst = e;
		if (!srv && e->sub == HLOG_SUB_ROOT_SERVER)
			srv = e;
		if (!agent && e->sub == HLOG_SUB_ROOT_AGENT && e->peer_ip[0])
			agent = e;
	}
	if (!lst && !srv && !agent)
		return 0;
	r->kind = HLOG_ROOT_TIMEOUT;
	const char *fix = "compare the start times (grep -r \"Entry-HcclCommInitRootInfoInner\" on "
			  "every node), raise HCCL_CONNECT_TIMEOUT, set HCCL_SOCKET_IFNAME / "
			  "HCCL_IF_IP to a routable NIC, open the host firewall, raise somaxconn, "
			  "tcp_max_syn_backlog and ulimit -n on the root (ascend.md §8.6, §8.7)";
	int ranks[16];
	int n = 0;
	if (lst)
		n = rank_list(lst->text,
			      strstr(lst->text, "unconnected ranks") ? "unconnected ranks"
								     : "agent",
			      ranks, 16);
	if (n) {
		r->first = lst;
		r->rank = ranks[0];
		const struct hlog_file *f = file_of(r, ranks[0], NULL, -1, NULL);
		snprintf(r->node, sizeof(r->node), "%s", f ? f->node : "");
		sb_add(&b, "rank%s ", n > 1 ? "s" : "");
		for (int i = 0; i < n; i++)
			sb_add(&b, "%s%d", i ? "," : "", ranks[i]);
		sb_add(&b,
		       " never connected to the root (node %s): they did not call init, started "
		       "late or chose an unroutable NIC",
		       lst->node[0] ? lst->node : lst->file);
	} else if (agent) {
		r->first = agent;
		snprintf(r->ip, sizeof(r->ip), "%s", agent->peer_ip);
		snprintf(r->node, sizeof(r->node), "%s", agent->node);
		sb_add(&b, "node %s cannot reach the root %s", agent->node[0] ? agent->node : "?",
		       agent->peer_ip);
		if (agent->value >= 0)
			sb_add(&b, ":%lld", agent->value);
		sb_add(&b, " (topo exchange agent timeout): wrong NIC chosen or a firewall");
	} else {
		/* a server timeout, or a list of unconnected ranks that could not be read */
		const struct hlog_event *e = srv ? srv : lst;
		r->first = e;
		snprintf(r->node, sizeof(r->node), "%s", e->node);
		sb_add(&b, "the root (node %s) did not see every rank within HCCL_CONNECT_TIMEOUT",
		       e->node[0] ? e->node : e->file);
	}
	set_fix(r, fix);
	return 1;
}

static void conclude_chain(struct hlog_report *r)
{
	size_t votes;
	const struct hlog_event *w;
	int p = most_waited(r, 0, &votes, &w);
	if (p < 0) {
		if (conclude_root(r))
			return;
		/* timeouts that name no peer: report the earliest */
		for (size_t i = 0; i < r->nev && !w; i++)
			if (kind_class(r->ev[i].kind) == CLS_CONSEQ)
				w = &r->ev[i];
		if (!w)
			return;
		struct sbuf b = {r->cause, sizeof(r->cause), 0};
		r->kind = w->kind;
		r->first = w;
		r->rank = ev_rank(r, w);
		snprintf(r->node, sizeof(r->node), "%s", w->node);
		sb_add(&b, "%s on node %s names no peer: read the logs of the other ranks",
		       w->kind == HLOG_SOCKET_TIMEOUT ? "an EI0006 socket timeout"
						      : "an EI0002 notify timeout",
		       w->node[0] ? w->node : w->file);
		set_fix(r,
			w->kind == HLOG_SOCKET_TIMEOUT
				? "find the rank that never connected: check its log and start "
				  "time, "
				  "that every rank calls the same ops, hccn_tool -ping between the "
				  "device IPs, -link -g and -tls -g (ascend.md §8.10)"
				: "find the first-failing rank (crash, hang, checkpoint saving, "
				  "uneven data); raise HCCL_EXEC_TIMEOUT if it is only slow "
				  "(ascend.md §8.15)");
		return;
	}
	/* follow the chain: the rank waited for may itself wait for another */
	int seen[8] = {p}, nseen = 1, cycle = -1;
	for (;;) {
		const struct hlog_event *next = NULL;
		for (size_t i = 0; i < r->nev && !next; i++) {
			const struct hlog_event *e = &r->ev[i];
			if (kind_class(e->kind) == CLS_CONSEQ && e->kind != HLOG_ROOT_TIMEOUT &&
			    ev_rank(r, e) == p && e->peer_rank >= 0 && e->peer_rank != p)
				next = e;
		}
		if (!next || nseen == 8)
			break;
		int loop = 0;
		for (int i = 0; i < nseen; i++)
			loop |= seen[i] == next->peer_rank;
		if (loop) {
			cycle = next->peer_rank;
			p = seen[0];
			break;
		}
		p = next->peer_rank;
		seen[nseen++] = p;
		w = next;
	}
	r->kind = w->kind;
	r->first = w;
	r->rank = p;
	const struct hlog_file *f = file_of(r, p, NULL, -1, NULL);
	/* its IP: its own LINK_ERROR_INFO src, or the dest_ip the others wait on */
	const char *ip = f && f->ip[0] ? f->ip : "";
	for (size_t i = 0; i < r->nev && !ip[0]; i++)
		if (r->ev[i].sub == HLOG_SUB_LINK_ROW && r->ev[i].peer_rank == p)
			ip = r->ev[i].peer_ip;
	snprintf(r->ip, sizeof(r->ip), "%s", ip);
	snprintf(r->node, sizeof(r->node), "%s", f ? f->node : "");
	struct sbuf b = {r->cause, sizeof(r->cause), 0};
	who(&b, p, r->node, r->ip, -1);
	int sock = w->kind == HLOG_SOCKET_TIMEOUT;
	sb_add(&b, " is the rank the others wait for");
	/* t0: the first timeout of a waiter */
	int64_t t0 = -1;
	for (size_t i = 0; i < r->nev && t0 < 0; i++)
		if (kind_class(r->ev[i].kind) == CLS_CONSEQ && ev_rank(r, &r->ev[i]) != p)
			t0 = r->ev[i].t_us;
	char t1[16], t2[16];
	if (cycle >= 0) {
		sb_add(&b,
		       ", and it waits for rank %d in turn: the ranks wait on each other (a "
		       "collective called in a different order)",
		       cycle);
	} else if (!f) {
		sb_add(&b, ", and no log from it was found: it never started, or its log is "
			   "missing");
	} else {
		/* when it reached an op, else its first line */
		int64_t start = f->first_us;
		for (size_t i = 0; i < r->nev; i++)
			if (r->ev[i].kind == HLOG_ENTRY && ev_rank(r, &r->ev[i]) == p &&
			    r->ev[i].t_us >= 0) {
				start = r->ev[i].t_us;
				break;
			}
		int has_err = 0;
		for (size_t i = 0; i < r->nev; i++)
			has_err |=
				ev_rank(r, &r->ev[i]) == p && kind_class(r->ev[i].kind) != CLS_INFO;
		if (t0 >= 0 && start > t0)
			sb_add(&b, ": it started late, at %s, after the first timeout at %s",
			       hms(start, t1, sizeof(t1)), hms(t0, t2, sizeof(t2)));
		else if (t0 >= 0 && f->last_us >= 0 && f->last_us < t0)
			sb_add(&b,
			       ": its log ends at %s, before the first timeout at %s (the "
			       "process exited or hung)",
			       hms(f->last_us, t1, sizeof(t1)), hms(t0, t2, sizeof(t2)));
		else if (!has_err)
			sb_add(&b, ": its log shows no error: it did not call the same collective");
	}
	list_conseq(r, &b, " waiting for it", p);
	if (sock)
		set_fix(r,
			"check the log and start time of that rank (grep -r "
			"\"Entry-HcclCommInitRootInfoInner\"), that every rank calls the same "
			"collectives in the same order, hccn_tool -i <dev> -ping -g address <its "
			"device IP>, -link -g and -tls -g; raise HCCL_CONNECT_TIMEOUT if the start "
			"skew is expected (ascend.md §8.10)");
	else
		set_fix(r,
			"find why that rank stopped (crash, hang, checkpoint saving, uneven data) "
			"in its log; raise HCCL_EXEC_TIMEOUT if it is only slow; trace the ops "
			"with "
			"HCCL_ENTRY_LOG_ENABLE=1 (ascend.md §8.15)");
}

static int by_pid(const void *pa, const void *pb, void *arg)
{
	const struct hlog_report *r = arg;
	const struct hlog_file *a = &r->file[*(const size_t *)pa];
	const struct hlog_file *b = &r->file[*(const size_t *)pb];
	int c = strcmp(a->node, b->node);
	if (c)
		return c;
	return a->pid < b->pid ? -1 : a->pid > b->pid;
}

/* A job log line "EI0002: [PID: 3001] ..." and the plog of HCCL(3001,...) on the same node are
 * one process: files without a rank take it from a file of the same node and pid. */
static void share_ranks(struct hlog_report *r)
{
	size_t *ix = malloc((r->nfile ? r->nfile : 1) * sizeof(*ix));
	if (!ix)
		return;
	for (size_t i = 0; i < r->nfile; i++)
		ix[i] = i;
	qsort_r(ix, r->nfile, sizeof(*ix), by_pid, r);
	for (size_t i = 0; i < r->nfile;) {
		size_t j = i;
		int rank = -1;
		for (; j < r->nfile && !by_pid(&ix[i], &ix[j], r); j++)
			if (rank < 0)
				rank = r->file[ix[j]].rank;
		for (size_t k = i; k < j && r->file[ix[i]].pid >= 0; k++)
			if (r->file[ix[k]].rank < 0)
				r->file[ix[k]].rank = rank;
		i = j;
	}
	free(ix);
}

int hlog_conclude(struct hlog_report *r)
{
	if (!r)
		return -EINVAL;
	if (r->nev > 1)
		qsort(r->ev, r->nev, sizeof(*r->ev), ev_cmp);
	share_ranks(r);
	r->kind = HLOG_NONE;
	r->node[0] = r->ip[0] = r->peer_ip[0] = r->cause[0] = r->fix[0] = '\0';
	r->rank = r->peer_rank = -1;
	r->first = NULL;
	const struct hlog_event *c = NULL;
	for (size_t i = 0; i < r->nev && !c; i++)
		if (kind_class(r->ev[i].kind) == CLS_FAULT ||
		    kind_class(r->ev[i].kind) == CLS_CONFIG)
			c = &r->ev[i];
	int rows = 0;
	const struct hlog_event *tls = tls_split(r, &rows);
	if (tls && (!c || ev_cmp(tls, c) < 0)) {
		r->kind = HLOG_TLS;
		r->first = tls;
		conclude_tls_split(r, tls, rows);
		return 0;
	}
	if (c) {
		r->kind = c->kind;
		r->first = c;
		if (is_heartbeat(c->kind))
			conclude_heartbeat(r, c);
		else if (c->kind == HLOG_ERROR_CQE)
			conclude_cqe(r, c);
		else if (c->kind == HLOG_MISMATCH)
			conclude_mismatch(r, c);
		else
			conclude_config(r, c);
		return 0;
	}
	conclude_chain(r);
	if (r->kind == HLOG_NONE)
		snprintf(r->cause, sizeof(r->cause),
			 "no HCCL failure signature in %zu lines of %zu files", r->lines, r->nfile);
	return 0;
}
