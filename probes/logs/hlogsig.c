/* The signatures of HCCL, HCCP, torch and NCCL lines: each a function that knows one message
 * (a heartbeat lost, an error CQE, a port already bound, a transport that did not come up, a
 * notify wait that timed out) and reads its values into an event, tried in a table's order
 * (hlog__recognise_signature). What the values mean and how they rank is hlogcause.c's. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "probes/npu/hcclcodes.h"
#include "probes/logs/catalog.h"
#include "probes/logs/extract.h"
#include "probes/logs/hlogint.h"
#include "probes/logs/logtext.h"
#include "probes/tool/ptext.h"
#include "ranktable/text.h"

#define find hlog__find
#define has hlog__has
#define has_nocase hlog__has_nocase
#define after hlog__after
#define num_at hlog__num_at
#define int_after hlog__int_after
#define ip_at hlog__ip_at
#define ip_after hlog__ip_after
#define nth_ip hlog__nth_ip
#define uid_after hlog__uid_after

/* One end of a link in a span that describes it: its device IP when the span says one
 * ("device IP 127.10.0.1", "deviceIp[127.11.0.1]"), else its first address. */
static void end_ip(struct pspan m, char *out, size_t outlen)
{
	if (!ip_after(m, "device IP", out, outlen) && !ip_after(m, "deviceIp", out, outlen))
		nth_ip(m, 0, out, outlen);
}

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
	*rank = v < 0x7fffffff ? (int)v : -1;
	return 1;
}

/* "| 10.20.0.31(29) | 16666 | 10.20.0.2(0) | 344832056 | server | time out | DISABLE |
 * LinkInfo": dest, dest_port, src, src_port, MyRole, Status, TlsStatus. The src is the rank
 * that wrote the line. Builds without the TlsStatus column are accepted. */
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
	if (nc < 2 || !ip_rank_cell(cell[0], e->peer_ip, sizeof(e->peer_ip), &e->peer_rank))
		return 0;
	/* older releases print "dest_ip(rank_id) | src_ip(rank_id) | Role | Status" */
	int old = ip_rank_cell(cell[1], e->ip, sizeof(e->ip), &e->rank);
	if (!old && (nc < 3 || !ip_rank_cell(cell[2], e->ip, sizeof(e->ip), &e->rank)))
		return 0;
	e->kind = HLOG_SOCKET_TIMEOUT;
	e->sub = HLOG_SUB_LINK_ROW;
	long long port;
	if (!old && num_at(probe__trim(cell[1]), &port) && port > 0 && port < 65536)
		e->result = port; /* the port the peer listens on */
	if (old)
		return 1;
	if (nc > 6) {
		struct pspan t = probe__trim(cell[6]);
		e->value = probe__eq_nocase(t, "ENABLE")    ? 1
			   : probe__eq_nocase(t, "DISABLE") ? 0
							    : -1;
	}
	return 1;
}

/* "srcRank (server 192.168.200.100, device ID 1)": the server and device after key. */
static int server_dev_after(struct pspan m, const char *key, char *ip, size_t iplen, int *dev)
{
	struct pspan a = after(m, key);
	if (!a.s)
		return 0;
	const char *close = memchr(a.s, ')', a.n < 120 ? a.n : 120);
	struct pspan in = {a.s, close ? (size_t)(close - a.s) : (a.n < 120 ? a.n : 120)};
	int ok = ip_after(in, "server", ip, iplen);
	int d;
	if (int_after(in, "device ID", &d))
		*dev = d;
	return ok;
}

/* The collective of a tag ("AllReduce_group_name_1654NHR...") or a call ("HcclAllreduce"). */
void hlog__op_name(struct pspan m, const char *key, char *out, size_t len)
{
	struct pspan a = hlog__value_after(m, key);
	size_t k = 0;
	while (a.s && k < a.n && k + 1 < len &&
	       ((a.s[k] >= 'A' && a.s[k] <= 'Z') || (a.s[k] >= 'a' && a.s[k] <= 'z') ||
		(a.s[k] >= '0' && a.s[k] <= '9')))
		k++;
	if (k) {
		memcpy(out, a.s, k);
		out[k] = '\0';
	}
}

/* "tag[AllGather_group_name_119]": the collective, and the group the ranks are numbered in
 * (HCCL's job-wide group, hccl_world_group, numbers them as the job does). */
static void tag_group(struct pspan m, struct hlog_event *e)
{
	char tag[HLOG_NAMELEN * 2];
	struct pspan a = hlog__value_after(m, "tag[");
	size_t k = 0;
	/* one printable word: a tag is printed in the cause, and a log line must not carry
	 * terminal escapes into it */
	while (a.s && k < a.n && k + 1 < sizeof(tag) && a.s[k] != ']' && a.s[k] != ',' &&
	       (unsigned char)a.s[k] > ' ' && a.s[k] != 0x7f)
		k++;
	if (!k)
		return;
	memcpy(tag, a.s, k);
	tag[k] = '\0';
	char *us = strchr(tag, '_');
	if (!us)
		return;
	*us = '\0';
	snprintf(e->op, sizeof(e->op), "%.*s", (int)sizeof(e->op) - 1, tag);
	if (strcmp(us + 1, "hccl_world_group") && !e->group[0])
		snprintf(e->group, sizeof(e->group), "%.*s", (int)sizeof(e->group) - 1, us + 1);
}

/* The key of "KEY: value" (the word before the first ':') and where the value starts; 0 when
 * the line has no such key. */
static int key_value(struct pspan m, struct pspan *key, size_t *value)
{
	const char *c = memchr(m.s, ':', m.n);
	if (!c || c == m.s)
		return 0;
	size_t k = (size_t)(c - m.s);
	while (k && (m.s[k - 1] == ' ' || m.s[k - 1] == '\t'))
		k--;
	size_t w = k;
	while (w && isalnum((unsigned char)m.s[w - 1]))
		w--;
	*key = (struct pspan){m.s + w, k - w};
	size_t i = (size_t)(c - m.s) + 1;
	while (i < m.n && (m.s[i] == ' ' || m.s[i] == '\t'))
		i++;
	*value = i;
	return key->n > 0;
}

/* Whether the value at m[i..] is word (any case) and nothing more: the line, a field, a
 * parenthesis or a table's cell ends after it ("down", not "downloading" or "down-scaled"). */
static int value_is(struct pspan m, size_t i, const char *word)
{
	size_t n = strlen(word);
	if (m.n - i < n || strncasecmp(m.s + i, word, n))
		return 0;
	for (i += n; i < m.n && (m.s[i] == ' ' || m.s[i] == '\t' || m.s[i] == '\r'); i++)
		;
	return i == m.n || m.s[i] == ',' || m.s[i] == ';' || m.s[i] == '(' || m.s[i] == ')' ||
	       m.s[i] == '|';
}

/* A state key whose value is the word down: "State: Down", "link state: DOWN (cable)", a
 * key that ends in state, status or link, or a port by its number ("link status : DOWN",
 * "port 5 : DOWN"); the word may follow the state's number ("state: 1: DOWN"). */
static int state_down(struct pspan m)
{
	struct pspan key;
	size_t i;
	if (!key_value(m, &key, &i))
		return 0;
	int is_key = (key.n == 5 && !strncasecmp(key.s, "state", 5)) ||
		     (key.n == 6 && !strncasecmp(key.s, "status", 6)) ||
		     (key.n == 4 && !strncasecmp(key.s, "link", 4));
	if (!is_key && isdigit((unsigned char)key.s[0])) {
		/* "port 5": digits after the word port */
		size_t d = 0, w = (size_t)(key.s - m.s);
		while (d < key.n && isdigit((unsigned char)key.s[d]))
			d++;
		is_key = d == key.n && w >= 5 && m.s[w - 1] == ' ' &&
			 !strncasecmp(m.s + w - 5, "port", 4);
	}
	/* infiniband-diags' ibstatus puts the state's number before its name: "state:\t\t 1:
	 * DOWN" */
	size_t d = i;
	while (d < m.n && isdigit((unsigned char)m.s[d]))
		d++;
	if (d > i && d < m.n && m.s[d] == ':')
		for (i = d + 1; i < m.n && (m.s[i] == ' ' || m.s[i] == '\t'); i++)
			;
	return is_key && value_is(m, i, "down");
}

/* A port's module that is not there: the HCCN tool's optical query, "present              :
 * not present" (no light, no link), a presence key whose value is "not present" or
 * "absent". */
static int module_absent(struct pspan m)
{
	struct pspan key;
	size_t i;
	if (!key_value(m, &key, &i) ||
	    !((key.n == 7 && !strncasecmp(key.s, "present", 7)) ||
	      (key.n == 8 && !strncasecmp(key.s, "presence", 8))))
		return 0;
	return value_is(m, i, "not present") || value_is(m, i, "absent");
}

/* The server a root or store client waited for: its address (or host name) and port. */
static void root_peer(const struct hx_vals *x, struct hlog_event *e)
{
	const struct hx_val *ip = hlog__xfind(x, HX_IP, HX_OTHER);
	const struct hx_val *host = hlog__xfind(x, HX_HOST, HX_OTHER);
	const struct hx_val *port = hlog__xfind(x, HX_PORT, HX_OTHER);
	if (ip || host)
		snprintf(e->peer_ip, sizeof(e->peer_ip), "%s", ip ? ip->s : host->s);
	if (port)
		e->value = port->n;
}

/* A rank table's address field, as a log prints the table (`"device_ip": "-.-.-.-",`),
 * whose value is not an IP address: HCCL cannot link that device. An empty value is a table
 * that leaves the field out on purpose (HCCS-only devices), not this. */
static int not_an_address(struct pspan m, const struct hlog_hits *h, struct hlog_event *e)
{
	for (size_t i = 0; hlog__hits_may(h, HLOG_HIT_IP_KEY) && i + 4 < m.n; i++) {
		if (memcmp(m.s + i, hlog__hitword[HLOG_HIT_IP_KEY], 4))
			continue;
		size_t k0 = i;
		while (k0 && m.s[k0 - 1] != '"')
			k0--;
		if (!k0 || i - k0 >= HLOG_NAMELEN - 4)
			continue;
		size_t j = i + 4;
		while (j < m.n && m.s[j] == ' ')
			j++;
		if (j >= m.n || m.s[j] != ':')
			continue;
		for (j++; j < m.n && m.s[j] == ' '; j++)
			;
		if (j >= m.n || m.s[j] != '"')
			continue;
		size_t v0 = ++j;
		while (j < m.n && m.s[j] != '"')
			j++;
		if (j >= m.n || j == v0 || rt__is_ip_literal(m.s + v0, j - v0))
			continue;
		e->kind = HLOG_DEVICE_IP;
		e->sub = HLOG_SUB_NOT_ADDR;
		/* the key and the value as the line has them, which may hold any byte */
		probe__copy(e->op, sizeof(e->op), (struct pspan){m.s + k0, i + 3 - k0});
		probe__copy(e->ip, sizeof(e->ip), (struct pspan){m.s + v0, j - v0 < 40 ? j - v0 : 40});
		return 1;
	}
	return 0;
}

/* One line, as every signature reads it: its message, its values and the needles the automaton
 * saw in it. */
struct sig_in {
	struct pspan m;
	const struct hx_vals *x;
	const struct hlog_hits *h;
};

static int sig_chain(const struct sig_in *in, struct hlog_event *e)
{
	return hlog__chain_line(in->m, e);
}

static int sig_not_address(const struct sig_in *in, struct hlog_event *e)
{
	return not_an_address(in->m, in->h, e);
}

static int sig_link_row(const struct sig_in *in, struct hlog_event *e)
{
	return link_row(in->m, e);
}

/* [HeartbeatAbnormal]Cluster Exception Location[IP/ID]:[127.10.0.1/1], ...,
 * ExceptionType:[Heartbeat Lost Occurred]. IP/ID is the server id and the device
 * (HCCL's Heartbeat::GetUId); "Discoverer:[IP/ID]" names the rank that wrote it. */
static int sig_heartbeat_location(const struct sig_in *in, struct hlog_event *e)
{
	struct pspan m = in->m;
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
	return 0;
}

/* EI0002's list of the devices whose heartbeat stopped (CANN 8.1's HCCL guide): "there
 * are(is) 1 abnormal device(s):" then "serverId[192.168.100.111], deviceId[4], Heartbeat
 * Lost Occurred, Possible Reason: ...": the device named is the one that went silent */
static int sig_heartbeat_list(const struct sig_in *in, struct hlog_event *e)
{
	struct pspan m = in->m;
	if (has(m, "Heartbeat") && has(m, "serverId[") && has(m, "deviceId[")) {
		e->kind = has_nocase(m, "Lost") ? HLOG_HEARTBEAT_LOST
			  : has_nocase(m, "Stuck") ? HLOG_HEARTBEAT_STUCK
						   : HLOG_HEARTBEAT;
		ip_after(m, "serverId[", e->peer_ip, sizeof(e->peer_ip));
		int_after(m, "deviceId[", &e->peer_dev);
		return 1;
	}
	return 0;
}

/* "[HeartbeatAbnormal][ROCE CQE ERROR]cqe error status[12], ...", ROCE "error cqe
 * status: 0x15", EI0013 "An error CQE occurred ... Local information: ..., device IP
 * .... Peer information: ...". */
static int sig_error_cqe(const struct sig_in *in, struct hlog_event *e)
{
	struct pspan m = in->m;
	long long v;
	if (has(m, "ROCE CQE ERROR") || has_nocase(m, "cqe error status") ||
	    has_nocase(m, "cqe err status") || has_nocase(m, "error cqe status") ||
	    has(m, "An error CQE occurred") || has(m, "EI0013")) {
		e->kind = HLOG_ERROR_CQE;
		struct pspan s = after(m, "status");
		while (s.s && s.n && !num_at(s, &v))
			s = after(s, "status");
		if (s.s && s.n && num_at(s, &v) && v >= 0)
			e->value = v;
		/* the words split the line into the local end and the remote one: "Local
		 * information: ... Peer information: ...", "localInfo{...}, remoteIP{server[A],
		 * deviceId[...],deviceIp[B]}"; each end's device IP when it says one */
		struct pspan peer = after(m, "Peer information");
		if (!peer.s)
			peer = hlog__after_nocase(m, "remote");
		if (peer.s) {
			struct pspan local = {m.s, (size_t)(peer.s - m.s)};
			end_ip(local, e->ip, sizeof(e->ip));
			end_ip(peer, e->peer_ip, sizeof(e->peer_ip));
			if (!strcmp(e->ip, e->peer_ip))
				e->ip[0] = '\0';
		} else {
			nth_ip(m, 0, e->ip, sizeof(e->ip));
			nth_ip(m, 1, e->peer_ip, sizeof(e->peer_ip));
		}
		return 1;
	}
	return 0;
}

static int sig_hccl_mismatch(const struct sig_in *in, struct hlog_event *e)
{
	struct pspan m = in->m;
	/* and EI0005's own comparison, on a line of its own where the code's line is not in the
	 * log: "parameter cmdType, local end 4, remote end 5" (the two ends of a receive called
	 * different operations) */
	if (has(m, "EI0005") || has(m, "arguments for collective communication are inconsistent") ||
	    (has(m, "CMD information") && has(m, "check fail")) || has(m, "cmdType check fail") ||
	    has(m, "[RankConsistentImpl][CompareFrame]") ||
	    (has(m, "parameter ") && has(m, ", local end ") && has(m, ", remote end "))) {
		e->kind = HLOG_MISMATCH;
		if (!int_after(m, "remote rank", &e->peer_rank))
			int_after(m, "remoteRank", &e->peer_rank);
		return 1;
	}
	return 0;
}

/* the same finding by other stacks. torch's collective check
 * (TORCH_DISTRIBUTED_DEBUG=DETAIL): "Detected mismatch between collectives on ranks.
 * Rank 1 is running collective: CollectiveFingerPrint(...), but Rank 0 is running
 * collective: ..."; NCCL's "Mismatched collective detected, please check your collective
 * calls at and around rank 39" and its receiver's "NET/IB : ... peer 10.10.23.6<58683>
 * collective mismatch error, local size 496640 remote size 65536" */
static int sig_collective_mismatch(const struct sig_in *in, struct hlog_event *e)
{
	struct pspan m = in->m;
	if (has(m, "mismatch between collectives") || has(m, "Mismatched collective detected") ||
	    has(m, "collective mismatch error")) {
		e->kind = HLOG_MISMATCH;
		if (!int_after(m, "Rank ", &e->rank))
			int_after(m, "around rank", &e->rank);
		int_after(m, "but Rank", &e->peer_rank);
		ip_after(m, "peer", e->peer_ip, sizeof(e->peer_ip));
		return 1;
	}
	return 0;
}

static int sig_tls(const struct sig_in *in, struct hlog_event *e)
{
	struct pspan m = in->m;
	if (has(m, "EI0016") || has(m, "tlsStatus are inconsistent") ||
	    has(m, "for config \"tls\" is invalid") || has(m, "rankList for enabled tls")) {
		e->kind = HLOG_TLS;
		return 1;
	}
	return 0;
}

static int sig_tls_switch(const struct sig_in *in, struct hlog_event *e)
{
	struct pspan m = in->m;
	long long v;
	if (has(m, "TLS SWITCH")) {
		e->kind = HLOG_TLS_SWITCH;
		struct pspan a = after(m, "TLS SWITCH");
		if (num_at(a, &v))
			e->value = v;
		return 1;
	}
	return 0;
}

/* the listen socket: "socket type[1], listen on ip[192.168.20.160] and specific
 * port[16666] fail. Please check the port status ...", EI0019 "... have already been
 * bound", EJ0003 "Failed to bind the IP port. Reason: The IP address and port have been
 * bound already.", "host nic listen start failed, port[60000], return[11]"; servers say
 * so in plain words: "[endpoint] Failed to listen 172.17.0.3:40032, please check ...",
 * "failed to listen on [::]:29500"; a launcher that checks the port first says who has it:
 * Accelerate's "Tried to launch distributed communication on port `29500`, but another
 * process is utilizing it." */
static int port_taken_words(struct pspan m)
{
	static const char *const taken[] = {"already in use", "another process is using it",
					    "another process is utilizing it", "in use by another",
					    "used by another process"};
	int taken_said = 0;
	for (size_t i = 0; i < sizeof(taken) / sizeof(taken[0]) && !taken_said; i++)
		taken_said = has_nocase(m, taken[i]);
	/* the word port, not the end of "transport" or "support" */
	for (struct pspan r = m; taken_said && r.n;) {
		const char *p = hlog__find_nocase(r, "port");
		if (!p)
			return 0;
		if (p == m.s || !isalpha((unsigned char)p[-1]))
			return 1;
		r.n -= (size_t)(p + 4 - r.s);
		r.s = p + 4;
	}
	return 0;
}

static int sig_port_bound(const struct sig_in *in, struct hlog_event *e)
{
	struct pspan m = in->m;
	const struct hx_vals *x = in->x;
	const struct hlog_hits *h = in->h;
	if (has(m, "EI0019") || has(m, "EJ0003") || has(m, "have already been bound") ||
	    has(m, "have been bound already") || has(m, "Failed to bind the IP port") ||
	    has(m, "listen start failed") || has_nocase(m, "address already in use") ||
	    /* EADDRINUSE, by its number; read only where the automaton saw "errno" */
	    (hlog__hits_may(h, HLOG_HIT_ERRNO) && hlog__errno_of(m) == 98) ||
	    has_nocase(m, "failed to listen") ||
	    (has(m, "listen on ip") && has(m, "port")) || port_taken_words(m)) {
		e->kind = HLOG_PORT_BOUND;
		/* the port in any of its forms: "port[16666]", "port:50000", "[::]:29500" */
		const struct hx_val *port = hlog__xfind(x, HX_PORT, HX_THIS);
		const struct hx_val *ip = hlog__xfind(x, HX_IP, HX_THIS);
		if (port)
			e->value = port->n;
		/* "[::]" and "0.0.0.0" are every address: they name no NIC */
		if (ip && strcmp(ip->s, "::") && strcmp(ip->s, "0.0.0.0"))
			snprintf(e->ip, sizeof(e->ip), "%s", ip->s);
		int_after(m, "socket type", &e->sub); /* 2: host (rootinfo), 0/1: device */
		e->peer_dev = e->sub;
		e->sub = HLOG_SUB_NONE;
		if (!has(m, "socket type"))
			e->peer_dev = has(m, "host nic") ? 2 : -1;
		return 1;
	}
	return 0;
}

static int sig_npu_busy(const struct sig_in *in, struct hlog_event *e)
{
	struct pspan m = in->m;
	if (has(m, "EJ0001") || has(m, "Failed to initialize the HCCP process") ||
	    has(m, "tsd client wait response fail") || has(m, "Open TsdClient failed")) {
		e->kind = HLOG_NPU_BUSY;
		return 1;
	}
	return 0;
}

/* "ra_rdev_init_check_ip ... [check][ip]fail ... inconsistent with the IP address(...)
 * of the network adapter": the NIC's IP is the one after "inconsistent with"; the rank
 * table's comes first, as "ip(...)" or, in later releases, as "the IP address(...) in
 * the ranktable". */
static int sig_device_ip(const struct sig_in *in, struct hlog_event *e)
{
	struct pspan m = in->m;
	const struct hx_vals *x = in->x;
	if (has(m, "ra_rdev_init_check_ip") || has(m, "[check][ip]fail") ||
	    (has(m, "inconsistent with the IP address") && has(m, "network adapter"))) {
		e->kind = HLOG_DEVICE_IP;
		/* ip: the rank table's, peer_ip: the NIC's, whichever way the release words it */
		const struct hx_val *table = hlog__xfind(x, HX_IP, HX_R(HX_TABLE));
		const struct hx_val *nic = hlog__xfind(x, HX_IP, HX_R(HX_NIC));
		if (table)
			snprintf(e->ip, sizeof(e->ip), "%s", table->s);
		if (nic)
			snprintf(e->peer_ip, sizeof(e->peer_ip), "%s", nic->s);
		return 1;
	}
	return 0;
}

/* EJ0002 "The network port is down."; HCCP "ra hdc message process failed ret(-67)"
 * (-ENOLINK from the device); "link down" / "link status: DOWN"; the port states that
 * iproute2's rdma tool and ibv_devinfo print, with no error word: "link mlx5_2/1 ...
 * state DOWN physical_state POLLING", "state: PORT_DOWN (1)", and ibstat's "State: Down"
 * (a key that ends in "state" whose whole value is the word down); an optical module
 * not present */
static int sig_link_down(const struct sig_in *in, struct hlog_event *e)
{
	struct pspan m = in->m;
	const struct hx_vals *x = in->x;
	if (has(m, "EJ0002") || has(m, "network port is down") ||
	    (has(m, "state DOWN") && has(m, "physical_state")) || has(m, "PORT_DOWN") ||
	    state_down(m) || module_absent(m) ||
	    (has(m, "ra hdc message process failed") && has(m, "-67")) ||
	    has_nocase(m, "link down") || has_nocase(m, "link status: down") ||
	    ((has(m, "async event") || has(m, "async error event")) &&
	     has_nocase(m, "port error"))) {
		e->kind = HLOG_LINK_DOWN;
		const struct hx_val *ip = hlog__xfind(x, HX_IP, HX_THIS);
		if (ip)
			snprintf(e->ip, sizeof(e->ip), "%s", ip->s);
		return 1;
	}
	return 0;
}

/* torch's bootstrap of a communicator through its key-value store: "[1] is setting up
 * NCCL communicator and retrieving ncclUniqueId from [0] via c10d key-value store by key
 * '0', but store->get('0') got error: Socket Timeout": rank 1 waited for rank 0 to
 * publish the communicator id, which it did not do in time. Any error of the get says
 * the same of rank 0: "got error: Connection reset by peer" is its store (in rank 0's
 * process) going away. */
/* (torch 1.x spells it "retreiving": "[nh]cclUniqueId from [" is what all say) */
static int sig_unique_id(const struct sig_in *in, struct hlog_event *e)
{
	struct pspan m = in->m;
	long long v;
	struct pspan root = has(m, "cclUniqueId from [") &&
					    (has_nocase(m, "timeout") || has(m, "got error"))
				    ? after(m, "from [")
				    : (struct pspan){NULL, 0};
	if (root.s && num_at(root, &v) && v >= 0 && v <= 0x7fffffff) {
		const char *own = find(m, "] is setting up");
		e->kind = HLOG_ROOT_TIMEOUT;
		e->sub = HLOG_SUB_STORE;
		e->peer_rank = (int)v;
		const char *p = own;
		while (p && p > m.s && p[-1] >= '0' && p[-1] <= '9')
			p--;
		if (p && p < own && p > m.s && p[-1] == '[' &&
		    num_at((struct pspan){p, (size_t)(own - p)}, &v))
			e->rank = (int)v;
		return 1;
	}
	return 0;
}

/* the root info: topo exchange server and agents */
/* "[DisplayConnectedRank]connected rankinfo[LINE 1]: [0000000000000008],[...10],...",
 * "total connected num is [15]" and "need connect rankNum is [16]": the ranks that did
 * reach the root, and how many should have (releases spell the tag
 * DisplayConnectionedRank too) */
static int sig_connected_ranks(const struct sig_in *in, struct hlog_event *e)
{
	struct pspan m = in->m;
	if (has(m, "[DisplayConnectedRank]") || has(m, "[DisplayConnectionedRank]")) {
		e->kind = HLOG_ROOT_TIMEOUT;
		e->sub = HLOG_SUB_CONNECTED;
		int n;
		if (int_after(m, "total connected num is", &n))
			e->value = n;
		if (int_after(m, "need connect rankNum is", &n) && n > 0)
			e->group_size = n;
		return 1;
	}
	return 0;
}

static int sig_topo_server(const struct sig_in *in, struct hlog_event *e)
{
	struct pspan m = in->m;
	if (has(m, "topo exchange server get socket timeout")) {
		e->kind = HLOG_ROOT_TIMEOUT;
		e->sub = HLOG_SUB_ROOT_SERVER;
		return 1;
	}
	return 0;
}

static int sig_topo_agent(const struct sig_in *in, struct hlog_event *e)
{
	struct pspan m = in->m;
	const struct hx_vals *x = in->x;
	if (has(m, "topo exchange agent get socket timeout") ||
	    (has(m, "TopoExchangeAgent") && has(m, "connect server"))) {
		e->kind = HLOG_ROOT_TIMEOUT;
		e->sub = HLOG_SUB_ROOT_AGENT;
		root_peer(x, e);
		return 1;
	}
	return 0;
}

/* torch's store client in the same role: "[c10d] The client socket has timed out after
 * 1800s while trying to connect to (172.17.0.2, 44737)." (a wrapped line may end
 * after the address) */
static int sig_store_client(const struct sig_in *in, struct hlog_event *e)
{
	struct pspan m = in->m;
	const struct hx_vals *x = in->x;
	if (has(m, "client socket has timed out") && has(m, "trying to connect to")) {
		e->kind = HLOG_ROOT_TIMEOUT;
		e->sub = HLOG_SUB_ROOT_AGENT;
		root_peer(x, e);
		return 1;
	}
	return 0;
}

static int sig_unconnected(const struct sig_in *in, struct hlog_event *e)
{
	struct pspan m = in->m;
	if (has(m, "EI0015") || has(m, "List of unconnected ranks") ||
	    has(m, "Failed to connect agent")) {
		e->kind = HLOG_ROOT_TIMEOUT;
		e->sub = HLOG_SUB_UNCONNECTED;
		if (!int_after(m, "List of unconnected ranks", &e->peer_rank))
			int_after(m, "Failed to connect agent", &e->peer_rank);
		return 1;
	}
	return 0;
}

static int sig_socket_establish(const struct sig_in *in, struct hlog_event *e)
{
	struct pspan m = in->m;
	if (has(m, "wait socket establish timeout")) {
		e->kind = HLOG_SOCKET_TIMEOUT;
		int_after(m, " rank", &e->rank);
		return 1;
	}
	return 0;
}

/* EI0009 "Transport init error. Reason: [Create][DestLink]Create Dest error! createLink
 * para:rank[1]-localUserrank[1]-localIpAddr[172.16.0.114], dst_rank[0]-remoteUserrank[0]-
 * remote_ip_addr[172.16.0.114]" */
static int sig_transport_init(const struct sig_in *in, struct hlog_event *e)
{
	struct pspan m = in->m;
	if (has(m, "Transport init error") || has(m, "EI0009")) {
		e->kind = HLOG_SOCKET_TIMEOUT;
		e->sub = HLOG_SUB_TRANSPORT;
		if (!int_after(m, "localUserrank", &e->rank))
			int_after(m, "para:rank", &e->rank);
		if (!int_after(m, "remoteUserrank", &e->peer_rank) &&
		    !int_after(m, "remoteRank", &e->peer_rank))
			int_after(m, "dst_rank", &e->peer_rank);
		uid_after(m, "localIpAddr", e->ip, sizeof(e->ip), &e->dev);
		if (!uid_after(m, "remoteIpAddr", e->peer_ip, sizeof(e->peer_ip), &e->peer_dev))
			uid_after(m, "remote_ip_addr", e->peer_ip, sizeof(e->peer_ip),
				  &e->peer_dev);
		tag_group(m, e);
		return 1;
	}
	return 0;
}

/* HCCL's own detector: "This node (server X, device ID 1) detects that srcRank (server
 * X, device ID 1) fails to connect to dstRank (server Y, device ID 0)", or that it saw
 * nothing wrong with the network ("detects no exception event", "No abnormal periods") */
static int sig_detector_link(const struct sig_in *in, struct hlog_event *e)
{
	struct pspan m = in->m;
	if (has(m, "fails to connect to dstRank")) {
		e->kind = HLOG_SOCKET_TIMEOUT;
		e->sub = HLOG_SUB_DETECT;
		if (!server_dev_after(m, "srcRank", e->ip, sizeof(e->ip), &e->dev))
			int_after(m, "srcRank", &e->rank);
		if (!server_dev_after(m, "dstRank", e->peer_ip, sizeof(e->peer_ip), &e->peer_dev))
			int_after(m, "dstRank", &e->peer_rank);
		return 1;
	}
	return 0;
}

static int sig_detector_none(const struct sig_in *in, struct hlog_event *e)
{
	struct pspan m = in->m;
	if (has(m, "detects no exception event") || has(m, "No abnormal periods") ||
	    has(m, "consistency of cluster script behavior") ||
	    has(m, "behaviors of different ranks are inconsistent")) {
		e->kind = HLOG_DETECT_NONE;
		return 1;
	}
	return 0;
}

static int sig_socket_timeout(const struct sig_in *in, struct hlog_event *e)
{
	struct pspan m = in->m;
	if (has(m, "EI0006") || has(m, "Getting socket times out") || has(m, "Get_Socket_Timeout")) {
		e->kind = HLOG_SOCKET_TIMEOUT;
		if (has(m, "did not send the data in time") || has(m, "rank being stuck"))
			e->sub = HLOG_SUB_STUCK;
		return 1;
	}
	return 0;
}

/* EI0002 "The Notify register has not received the Notify record from remote rank:
 * [24]. base information: [..., tag[AllReduce_group_name_1654...], ...]. ... group
 * information: [group:[group_name_1654], ..., rankSize[32], rankId[25 24]]"; the task
 * exception handler's report of a wait task that failed ("Task run failed, base
 * information is streamID:[3], taskID[76651905], taskType[Notify Wait], tag[...]", then
 * "Task run failed, para information is notify id:[0x...], stage:[ffffffff], remote
 * rank:[1].", "Task run failed, groupRank information is group:[G], rankSize[4],
 * rankId[1].") is the same wait seen from the stream */
static int sig_notify_timeout(const struct sig_in *in, struct hlog_event *e)
{
	struct pspan m = in->m;
	if (has(m, "EI0002") || has(m, "has not received the Notify record") ||
	    (has(m, "Task run failed") &&
	     (has(m, "[Timeout]") || has(m, "taskType[Notify Wait]") || has(m, "notify id:") ||
	      has(m, "groupRank information")))) {
		e->kind = HLOG_NOTIFY_TIMEOUT;
		int_after(m, "remote rank", &e->peer_rank);
		hlog__name_after(m, "group:", e->group, sizeof(e->group));
		int sz;
		if (int_after(m, "rankSize", &sz))
			e->group_size = sz;
		if (e->group[0])
			int_after(m, "rankId", &e->rank);
		hlog__op_name(m, "tag[", e->op, sizeof(e->op));
		int_after(m, "index[", &e->step);
		char *us = strchr(e->op, '_');
		if (us)
			*us = '\0';
		return 1;
	}
	return 0;
}

/* the device side of a collective that waited too long: "The error from
 * device(chipId:3, dieId:0), ... hccl fftsplus task timeout occurred during task
 * execution, ..., stuck notify num:1, timeout:30min(default)." */
static int sig_ffts_timeout(const struct sig_in *in, struct hlog_event *e)
{
	struct pspan m = in->m;
	if (has(m, "fftsplus task timeout") || has(m, "stuck notify num")) {
		e->kind = HLOG_FFTS_TIMEOUT;
		int n;
		if (int_after(m, "stuck notify num", &n))
			e->value = n;
		return 1;
	}
	return 0;
}

static int sig_entry(const struct sig_in *in, struct hlog_event *e)
{
	struct pspan m = in->m;
	if (has(m, "Entry-Hccl")) {
		e->kind = HLOG_ENTRY;
		int_after(m, "localRank", &e->rank);
		int_after(m, "deviceLogicId", &e->dev);
		return 1;
	}
	return 0;
}

/* The signatures, tried in this order: a line of a chain or an address first, then HCCL's,
 * HCCP's, torch's and NCCL's own words, from the fault that explains the most (a heartbeat
 * lost, an error CQE) to the line that only says a rank entered (Entry-Hccl). */
static int (*const signatures[])(const struct sig_in *, struct hlog_event *) = {
	sig_chain,
	sig_not_address,
	sig_heartbeat_location,
	sig_heartbeat_list,
	sig_error_cqe,
	sig_hccl_mismatch,
	sig_collective_mismatch,
	sig_tls,
	sig_tls_switch,
	sig_port_bound,
	sig_npu_busy,
	sig_device_ip,
	sig_link_down,
	sig_unique_id,
	sig_connected_ranks,
	sig_topo_server,
	sig_topo_agent,
	sig_store_client,
	sig_unconnected,
	sig_link_row,
	sig_socket_establish,
	sig_transport_init,
	sig_detector_link,
	sig_detector_none,
	sig_socket_timeout,
	sig_notify_timeout,
	sig_ffts_timeout,
	sig_entry,
};

int hlog__recognise_signature(struct pspan m, const struct hx_vals *x,
			      const struct hlog_hits *h, struct hlog_event *e)
{
	const struct sig_in in = {m, x, h};
	/* every signature needs a word of the recognition gate (gatewords.c), but for
	 * not_an_address's IP key and link_row's bar: a line with a bar alone is tried for a
	 * link row only */
	if (!hlog__hits_gate(h, HLOG_GATE_RECOG) && !hlog__hits_may(h, HLOG_HIT_IP_KEY))
		return hlog__hits_gate(h, HLOG_GATE_PIPE) && sig_link_row(&in, e);
	for (size_t i = 0; i < sizeof(signatures) / sizeof(signatures[0]); i++)
		if (signatures[i](&in, e))
			return 1;
	return 0;
}
