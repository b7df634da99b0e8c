/* The verdicts on an NPU mesh, and the node side's answer on the wire.
 *
 * Every device pings every other (the schedule is the caller's: rounds of disjoint pairs),
 * so each directed link a -> b has a few packets sent, some received and a median round
 * trip. The verdicts go from the widest cause to the narrowest, and a link explained by a
 * wider one is not named again:
 *   - nothing replies anywhere: the network or the table as a whole (none-reach);
 *   - no device of a rail reaches another of it across servers: that rail's switch or its
 *     cabling (rail-down; a rail of at least 3 devices, else it is a pair);
 *   - a device that gets no reply from any peer and/or answers none: its NIC, route or IP
 *     (device-isolated, device-no-send, device-unreached; at least 2 peers each way);
 *   - what is left: one directed pair, or both directions (pair-down, pair-down-both);
 *   - partial loss and slow round trips, per device when most of its links show it, else
 *     per link;
 *   - LLDP: two NICs on one switch port, a rail on more switches than the other rails use.
 *
 * The thresholds. Loss: any packet lost between two NICs of a job is named, since the
 * parameter plane is meant to be lossless and a run sends 3 packets (one lost is 33 %).
 * Round trip: a link is slow when its median is above RTT_FACTOR times the median of the
 * links of its class (same server, same rail, across rails: the paths differ in hops, so
 * each is compared with its own) and above it by more than RTT_FLOOR_MS. Two public captures
 * show NPU-to-NPU medians of 0.040 and 0.065 ms behind one switch (the first packet of each
 * run costs 1 to 1.4 ms, which the median of three does not see); a spine hop adds a few
 * microseconds, so 3 times the median is far off, and the floor keeps a quiet fabric's
 * jitter of a few microseconds from being called out. No measurement on a loaded cluster
 * chose these; they are set to name only what is far off. A class needs RTT_MIN_LINKS links
 * for its own median, else the median of all links is used. A device is named instead of
 * its links when more than half of the links it replied on show the problem (and at least
 * 2 do). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "probes/npu/npumesh.h"
#include "ranktable/base/plural.h"

#define RTT_FACTOR 3.0
#define RTT_FLOOR_MS 0.05
#define RTT_MIN_LINKS 3
#define RAIL_MIN_DEVICES 3
#define NAMES_MAX 4 /* devices named in one finding before "and N more" */

static const struct nm_kind kinds[NM_NCODES] = {
	[NM_NONE_REACH] = {"none-reach", PROBE_FAIL, "no device reaches any other",
			   "check the parameter-plane network as a whole (its switches), and that "
			   "the rank table's device_ip are the NICs' addresses (hccn_tool -i N -ip "
			   "-g on each server)"},
	[NM_RAIL_DOWN] = {"rail-down", PROBE_FAIL,
			  "no device of a rail reaches another of it across servers",
			  "check that rail's switch and its cabling; hccn_tool -i N -lldp -g names "
			  "the switch port each NIC is on"},
	[NM_ISOLATED] =
		{"device-isolated", PROBE_FAIL, "a device reaches no peer and no peer reaches it",
		 "check that NIC on its server: hccn_tool -i N -link -g, -net_health -g and "
		 "-optical -g (hcclctl probe roce), its cable and its switch port"},
	[NM_NO_SEND] =
		{"device-no-send", PROBE_FAIL, "a device reaches no peer, though peers reach it",
		 "check that NIC's routes and gateway on its server (hccn_tool -i N -route -g "
		 "and -gateway -g)"},
	[NM_UNREACHED] = {"device-unreached", PROBE_FAIL,
			  "no peer reaches a device, though it reaches them",
			  "compare the rank table's device_ip with the NIC's address (hccn_tool -i "
			  "N -ip -g, or hcclctl probe roce --ranktable on its server)"},
	[NM_PAIR_DOWN] = {"pair-down", PROBE_FAIL, "one direction of a pair gets no reply",
			  "ping it by hand on the sending server (hccn_tool -i N -ping -g address "
			  "IP) and check the routes and ACLs on that path"},
	[NM_PAIR_DOWN_BOTH] = {"pair-down-both", PROBE_FAIL,
			       "a pair gets no reply in either direction",
			       "check the path between the two NICs: routes, VLANs and ACLs on "
			       "the switches between them"},
	[NM_SAME_PORT] = {"lldp-same-port", PROBE_FAIL, "two NICs report the same switch port",
			  "recable: every NIC needs its own switch port (hccn_tool -i N -lldp -g "
			  "shows the port each one is on)"},
	[NM_DEVICE_LOSS] =
		{"device-loss", PROBE_WARN, "a device loses packets on most of its links",
		 "check that NIC's optics and cable (hccn_tool -i N -optical -g and -stat "
		 "-g) and its switch port's error counters"},
	[NM_LOSS] = {"loss", PROBE_WARN, "a link loses some packets",
		     "check the optics and switch ports on that path (hccn_tool -i N -stat -g "
		     "on both ends)"},
	[NM_DEVICE_RTT] =
		{"device-rtt", PROBE_WARN,
		 "a device's round trips are far above its peers' on most links",
		 "check that NIC's speed and its PFC pause counters (hccn_tool -i N -stat "
		 "-g) and its switch port"},
	[NM_RTT] = {"rtt", PROBE_WARN, "a link's round trip is far above the links of its kind",
		    "check the hops and congestion on that path (PFC pauses: hccn_tool -i N -stat "
		    "-g on both ends)"},
	[NM_RAIL_SPLIT] = {"lldp-rail-split", PROBE_WARN,
			   "a rail spans more switches than the other rails do",
			   "check the cabling of the named NICs against the rail plan"},
	[NM_NOT_RUN] = {"server-not-run", PROBE_UNKNOWN, "a server's pings could not be run",
			"check that sshd runs there and hcclctl is installed (--remote-hcclctl "
			"PATH)"},
	/* its status is the caller's: struct npumesh's unreachable_status */
	[NM_UNREACHABLE] = {"unreachable", PROBE_UNKNOWN,
			    "a server could not be reached over SSH, so its pings did not run",
			    "check that the node is up, sshd runs and the key is accepted"},
	[NM_PING_ERROR] = {"ping-error", PROBE_UNKNOWN, "hccn_tool could not ping from a device",
			   "run the ping by hand on that server (hccn_tool -i N -ping -g address "
			   "IP) and read its error"},
	[NM_NO_IP] = {"no-device-ip", PROBE_UNKNOWN, "a rank has no device_ip in the rank table",
		      "write the NIC's address (hccn_tool -i N -ip -g) as that rank's device_ip"},
};

const struct nm_kind *npumesh_kind(enum nm_code c)
{
	return (unsigned)c < NM_NCODES ? &kinds[c] : &kinds[NM_PING_ERROR];
}

int npumesh_init(struct npumesh *m, size_t nservers, size_t n)
{
	memset(m, 0, sizeof(*m));
	m->srv = calloc(nservers ? nservers : 1, sizeof(*m->srv));
	m->ep = calloc(n ? n : 1, sizeof(*m->ep));
	m->l = calloc(n ? n * n : 1, sizeof(*m->l));
	if (!m->srv || !m->ep || !m->l) {
		npumesh_release(m);
		return -ENOMEM;
	}
	m->nsrv = nservers;
	m->n = n;
	m->unreachable_status = PROBE_UNKNOWN;
	for (size_t i = 0; i < n; i++) {
		m->ep[i].sdid = -1;
		m->ep[i].rank = -1;
	}
	for (size_t i = 0; i < n * n; i++)
		m->l[i].rtt_ms = -1;
	for (int c = 0; c < NM_NCLASS; c++)
		m->median_rtt[c] = -1;
	return 0;
}

void npumesh_release(struct npumesh *m)
{
	free(m->srv);
	free(m->ep);
	free(m->l);
	free(m->rails);
	free(m->f);
	memset(m, 0, sizeof(*m));
}

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;
	return x < y ? -1 : x > y;
}

int npumesh_index(struct npumesh *m)
{
	free(m->rails);
	m->rails = calloc(m->n ? m->n : 1, sizeof(*m->rails));
	m->nrails = 0;
	if (!m->rails)
		return -ENOMEM;
	for (size_t i = 0; i < m->n; i++) {
		size_t k = 0;
		while (k < m->nrails && m->rails[k] != m->ep[i].device)
			k++;
		if (k == m->nrails)
			m->rails[m->nrails++] = m->ep[i].device;
	}
	qsort(m->rails, m->nrails, sizeof(*m->rails), cmp_long);
	return 0;
}

enum nm_class npumesh_class(const struct npumesh *m, size_t a, size_t b)
{
	if (m->ep[a].server == m->ep[b].server)
		return NM_SAME_SERVER;
	return m->ep[a].device == m->ep[b].device ? NM_RAIL : NM_CROSS_RAIL;
}

void npumesh_name(const struct npumesh *m, size_t i, char *buf, size_t len)
{
	const struct nm_endpoint *e = &m->ep[i];
	snprintf(buf, len, "server %s device %ld (%s)", m->srv[e->server].id, e->device,
		 e->ip[0] ? e->ip : "no IP");
}

void npumesh_fix(const struct npumesh *m, const struct nm_finding *f, char *buf, size_t len)
{
	const char *src = npumesh_kind(f->code)->fix;
	char dev[24] = "", ip[64] = "";
	size_t at = 0;
	if (f->a >= 0 && (size_t)f->a < m->n)
		snprintf(dev, sizeof(dev), "-i %ld", m->ep[f->a].device);
	else if (f->rail >= 0) /* a rail is a device id */
		snprintf(dev, sizeof(dev), "-i %ld", f->rail);
	if (f->b >= 0 && (size_t)f->b < m->n && m->ep[f->b].ip[0])
		snprintf(ip, sizeof(ip), "address %s", m->ep[f->b].ip);
	while (*src && at + 1 < len) {
		const char *with = NULL;
		size_t skip = 0;
		if (*dev && !strncmp(src, "-i N", 4)) {
			with = dev;
			skip = 4;
		} else if (*ip && !strncmp(src, "address IP", 10)) {
			with = ip;
			skip = 10;
		}
		if (with) {
			int w = snprintf(buf + at, len - at, "%s", with);
			if (w > 0)
				at += (size_t)w < len - at ? (size_t)w : len - 1 - at;
			src += skip;
			continue;
		}
		buf[at++] = *src++;
	}
	if (len)
		buf[at < len ? at : len - 1] = '\0';
}

/* ---- the node side's answer ---- */

void *npumesh_reply_new(const char *server_id)
{
	cJSON *d = cJSON_CreateObject();
	if (!d)
		return NULL;
	cJSON_AddStringToObject(d, "schema", NM_SCHEMA);
	if (server_id)
		cJSON_AddStringToObject(d, "server_id", server_id);
	else
		cJSON_AddNullToObject(d, "server_id");
	cJSON_AddArrayToObject(d, "pings");
	cJSON_AddArrayToObject(d, "lldp");
	return d;
}

static double round6(double v)
{
	return (double)(long long)(v * 1e6 + (v < 0 ? -0.5 : 0.5)) / 1e6;
}

void npumesh_reply_ping(void *doc, long device, const char *target, const struct hccn_ping *p,
			const char *error)
{
	cJSON *arr = cJSON_GetObjectItemCaseSensitive(doc, "pings");
	cJSON *o = cJSON_CreateObject();
	if (!arr || !o) {
		cJSON_Delete(o);
		return;
	}
	cJSON_AddNumberToObject(o, "device", (double)device);
	cJSON_AddStringToObject(o, "target", target);
	if (p) {
		long sent = p->sent >= 0 ? p->sent : 0, recv = p->received >= 0 ? p->received : 0;
		cJSON_AddNumberToObject(o, "sent", (double)sent);
		cJSON_AddNumberToObject(o, "received", (double)recv);
		cJSON_AddNumberToObject(o, "loss_pct",
					round6(p->loss_pct >= 0 ? p->loss_pct : 100));
		double rtt = hccn_ping_rtt_ms(p);
		if (rtt >= 0)
			cJSON_AddNumberToObject(o, "rtt_ms", round6(rtt));
		else
			cJSON_AddNullToObject(o, "rtt_ms");
		cJSON *t = cJSON_AddArrayToObject(o, "times_ms");
		for (size_t i = 0; t && i < p->nrtt; i++)
			cJSON_AddItemToArray(t, cJSON_CreateNumber(round6(p->rtt_ms[i])));
		if (p->unreachable)
			cJSON_AddStringToObject(o, "note", "Destination Host Unreachable");
		cJSON_AddNullToObject(o, "error");
	} else {
		cJSON_AddStringToObject(o, "error", error && *error ? error : "no result");
	}
	cJSON_AddItemToArray(arr, o);
}

void npumesh_reply_lldp(void *doc, long device, const struct hccn_lldp *l, const char *error)
{
	cJSON *arr = cJSON_GetObjectItemCaseSensitive(doc, "lldp");
	cJSON *o = cJSON_CreateObject();
	if (!arr || !o) {
		cJSON_Delete(o);
		return;
	}
	cJSON_AddNumberToObject(o, "device", (double)device);
	if (l) {
		cJSON_AddStringToObject(o, "switch", hccn_lldp_switch(l));
		cJSON_AddStringToObject(o, "port", l->port);
		cJSON_AddStringToObject(o, "chassis", l->chassis);
		cJSON_AddStringToObject(o, "system_name", l->system_name);
		cJSON_AddStringToObject(o, "management", l->mgmt);
		cJSON_AddNullToObject(o, "error");
	} else {
		cJSON_AddStringToObject(o, "error", error && *error ? error : "no result");
	}
	cJSON_AddItemToArray(arr, o);
}

static const char *jstr(const cJSON *o, const char *k)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
	return cJSON_IsString(v) ? v->valuestring : NULL;
}

static int jnum(const cJSON *o, const char *k, double lo, double hi, double *out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
	if (!cJSON_IsNumber(v) || !(v->valuedouble >= lo && v->valuedouble <= hi))
		return 0;
	*out = v->valuedouble;
	return 1;
}

static long endpoint_of(const struct npumesh *m, size_t server, double device)
{
	for (size_t i = 0; i < m->n; i++)
		if (m->ep[i].server == server && (double)m->ep[i].device == device)
			return (long)i;
	return -1;
}

/* The endpoint whose address is ip, one not yet measured from a first. */
static long target_of(const struct npumesh *m, long a, const char *ip)
{
	long any = -1;
	for (size_t i = 0; i < m->n; i++) {
		if ((long)i == a || !m->ep[i].ip[0] || strcmp(m->ep[i].ip, ip))
			continue;
		if (npumesh_link(m, (size_t)a, i)->state == NM_UNTRIED)
			return (long)i;
		if (any < 0)
			any = (long)i;
	}
	return any;
}

static void copy_str(char *dst, size_t len, const char *s)
{
	size_t i = 0;
	for (; s && s[i] && i + 1 < len; i++)
		dst[i] = (unsigned char)s[i] < ' ' ? '?' : s[i];
	dst[i] = '\0';
}

int npumesh_reply_parse(struct npumesh *m, size_t server, int round, const char *buf, size_t len,
			char *err, size_t errlen)
{
	cJSON *d = cJSON_ParseWithLength(buf, len);
	const cJSON *x;
	int rc = 0;
	if (!d || !cJSON_IsObject(d)) {
		snprintf(err, errlen, "the answer is not a JSON object");
		rc = -EINVAL;
		goto out;
	}
	const char *schema = jstr(d, "schema"), *sid = jstr(d, "server_id");
	const cJSON *pings = cJSON_GetObjectItemCaseSensitive(d, "pings");
	const cJSON *lldp = cJSON_GetObjectItemCaseSensitive(d, "lldp");
	if (!schema || strcmp(schema, NM_SCHEMA) || !cJSON_IsArray(pings)) {
		snprintf(err, errlen, "the answer is not %s (an older hcclctl there?)", NM_SCHEMA);
		rc = -EINVAL;
		goto out;
	}
	if (server >= m->nsrv || (sid && strcmp(sid, m->srv[server].id))) {
		snprintf(err, errlen, "the answer is from server '%.64s', not '%.64s'",
			 sid ? sid : "?", server < m->nsrv ? m->srv[server].id : "?");
		rc = -EINVAL;
		goto out;
	}
	cJSON_ArrayForEach(x, pings)
	{
		double dev, sent, recv, loss, rtt;
		const char *target = jstr(x, "target"), *e = jstr(x, "error");
		if (!jnum(x, "device", 0, 1e6, &dev) || !target)
			continue;
		long a = endpoint_of(m, server, dev), b = a >= 0 ? target_of(m, a, target) : -1;
		if (b < 0)
			continue;
		struct nm_link *l = npumesh_link(m, (size_t)a, (size_t)b);
		l->round = round;
		if (e) {
			l->state = NM_ERROR;
			copy_str(l->reason, sizeof(l->reason), e);
			continue;
		}
		if (!jnum(x, "sent", 0, 1e6, &sent) || !jnum(x, "received", 0, sent, &recv) ||
		    !jnum(x, "loss_pct", 0, 100, &loss)) {
			l->state = NM_ERROR;
			copy_str(l->reason, sizeof(l->reason), "a malformed ping result");
			continue;
		}
		l->state = NM_MEASURED;
		l->sent = (long)sent;
		l->received = (long)recv;
		l->loss_pct = loss;
		l->rtt_ms = jnum(x, "rtt_ms", 0, 1e7, &rtt) && recv > 0 ? rtt : -1;
	}
	cJSON_ArrayForEach(x, lldp)
	{
		double dev;
		if (!jnum(x, "device", 0, 1e6, &dev))
			continue;
		long a = endpoint_of(m, server, dev);
		if (a < 0)
			continue;
		struct nm_endpoint *ep = &m->ep[a];
		const char *e = jstr(x, "error");
		if (e) {
			ep->lldp = -1;
			copy_str(ep->lldp_err, sizeof(ep->lldp_err), e);
			continue;
		}
		ep->lldp = 1;
		copy_str(ep->sw, sizeof(ep->sw), jstr(x, "switch"));
		copy_str(ep->port, sizeof(ep->port), jstr(x, "port"));
	}
out:
	cJSON_Delete(d);
	return rc;
}

/* ---- the verdicts ---- */

__attribute__((format(printf, 6, 7))) static int add(struct npumesh *m, enum nm_code code, long a,
						     long b, long rail, const char *fmt, ...)
{
	if (m->nf == m->fcap) {
		size_t nc = m->fcap ? m->fcap * 2 : 16;
		struct nm_finding *nf = realloc(m->f, nc * sizeof(*nf));
		if (!nf)
			return -ENOMEM;
		m->f = nf;
		m->fcap = nc;
	}
	struct nm_finding *f = &m->f[m->nf++];
	memset(f, 0, sizeof(*f));
	f->code = code;
	f->a = a;
	f->b = b;
	f->rail = rail;
	f->server = -1;
	f->status = code == NM_UNREACHABLE ? m->unreachable_status : kinds[code].status;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(f->msg, sizeof(f->msg), fmt, ap);
	va_end(ap);
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double median_of(double *v, size_t n)
{
	if (!n)
		return -1;
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static int measured(const struct nm_link *l)
{
	return l->state == NM_MEASURED;
}

static int replied(const struct nm_link *l)
{
	return l->state == NM_MEASURED && l->received > 0;
}

/* "A, B and C" (or "A, B, C, D and 3 more") of the endpoints in idx. */
static void join_names(const struct npumesh *m, const size_t *idx, size_t n, char *buf, size_t len)
{
	size_t at = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < n && at + 1 < len; i++) {
		char name[200];
		if (i == NAMES_MAX && n > NAMES_MAX + 1) {
			snprintf(buf + at, len - at, " and %zu more", n - i);
			return;
		}
		npumesh_name(m, idx[i], name, sizeof(name));
		int w = snprintf(buf + at, len - at, "%s%s",
				 !i	      ? ""
				 : i + 1 == n ? " and "
					      : ", ",
				 name);
		if (w < 0)
			return;
		at += (size_t)w;
	}
}

static void flags_and_medians(struct npumesh *m)
{
	double *v = malloc((m->n * m->n + 1) * sizeof(*v));
	size_t nv[NM_NCLASS + 1] = {0};
	double med_all = -1;
	for (int pass = 0; v && pass <= NM_NCLASS; pass++) {
		size_t k = 0;
		for (size_t a = 0; a < m->n; a++)
			for (size_t b = 0; b < m->n; b++) {
				const struct nm_link *l = npumesh_link(m, a, b);
				if (a == b || !replied(l) || l->rtt_ms < 0)
					continue;
				if (pass < NM_NCLASS && (int)npumesh_class(m, a, b) != pass)
					continue;
				v[k++] = l->rtt_ms;
			}
		nv[pass] = k;
		double med = median_of(v, k);
		if (pass < NM_NCLASS)
			m->median_rtt[pass] = med;
		else
			med_all = med;
	}
	for (size_t a = 0; a < m->n; a++)
		for (size_t b = 0; b < m->n; b++) {
			struct nm_link *l = npumesh_link(m, a, b);
			if (a == b)
				continue;
			if (l->state != NM_MEASURED) {
				if (m->ep[a].ip[0] && m->ep[b].ip[0])
					m->unknown++;
				continue;
			}
			m->tried++;
			if (!l->received) {
				l->flags |= NM_F_DOWN;
				m->down++;
				continue;
			}
			m->replied++;
			if (l->received < l->sent) {
				l->flags |= NM_F_LOSS;
				m->lost++;
			}
			int c = npumesh_class(m, a, b);
			double med = nv[c] >= RTT_MIN_LINKS ? m->median_rtt[c] : med_all;
			if (l->rtt_ms >= 0 && med >= 0 && l->rtt_ms > RTT_FACTOR * med &&
			    l->rtt_ms - med > RTT_FLOOR_MS) {
				l->flags |= NM_F_SLOW;
				m->slow++;
			}
		}
	free(v);
}

/* The median a link of a -> b was compared with, as in flags_and_medians. */
static double median_for(const struct npumesh *m, size_t a, size_t b)
{
	double med = m->median_rtt[npumesh_class(m, a, b)];
	return med >= 0 ? med : m->median_rtt[NM_SAME_SERVER];
}

static const char *class_name(enum nm_class c)
{
	return c == NM_SAME_SERVER ? "links within a server"
	       : c == NM_RAIL	   ? "links within a rail"
				   : "links across rails";
}

static int rail_and_device_findings(struct npumesh *m, unsigned char *explained)
{
	size_t n = m->n, *idx = malloc((n + 1) * sizeof(*idx));
	unsigned char *in_rail_down = calloc(n + 1, 1);
	char name[200];
	int rc = 0;
	if (!idx || !in_rail_down) {
		rc = -ENOMEM;
		goto out;
	}
	for (size_t r = 0; r < m->nrails && !rc; r++) {
		size_t k = 0, tried = 0, ok = 0, other = 0, other_ok = 0;
		for (size_t i = 0; i < n; i++)
			if (m->ep[i].device == m->rails[r] && m->ep[i].ip[0])
				idx[k++] = i;
		if (k < RAIL_MIN_DEVICES)
			continue;
		for (size_t x = 0; x < k; x++)
			for (size_t b = 0; b < n; b++) {
				const struct nm_link *l = npumesh_link(m, idx[x], b);
				if (b == idx[x] || !measured(l))
					continue;
				if (npumesh_class(m, idx[x], b) == NM_RAIL) {
					tried++;
					ok += replied(l);
				} else {
					other++;
					other_ok += replied(l);
				}
			}
		if (!tried || ok)
			continue;
		for (size_t x = 0; x < k; x++) {
			in_rail_down[idx[x]] = 1;
			for (size_t b = 0; b < n; b++) {
				explained[idx[x] * n + b] = 1;
				explained[b * n + idx[x]] = 1;
			}
		}
		if (other)
			rc = add(m, NM_RAIL_DOWN, -1, -1, m->rails[r],
				 "rail %ld: none of its %zu devices reaches another across servers "
				 "(%zu links), and %zu of their %zu links to other devices reply",
				 m->rails[r], k, tried, other_ok, other);
		else
			rc = add(m, NM_RAIL_DOWN, -1, -1, m->rails[r],
				 "rail %ld: none of its %zu devices reaches another across servers "
				 "(%zu links)",
				 m->rails[r], k, tried);
	}
	for (size_t a = 0; a < n && !rc; a++) {
		size_t out_t = 0, out_r = 0, in_t = 0, in_r = 0;
		if (in_rail_down[a])
			continue;
		for (size_t b = 0; b < n; b++) {
			if (b == a)
				continue;
			const struct nm_link *o = npumesh_link(m, a, b), *i = npumesh_link(m, b, a);
			out_t += measured(o);
			out_r += replied(o);
			in_t += measured(i);
			in_r += replied(i);
		}
		enum nm_code code;
		if (out_t >= 2 && !out_r && in_t >= 2 && !in_r)
			code = NM_ISOLATED;
		else if (out_t >= 2 && !out_r && in_r)
			code = NM_NO_SEND;
		else if (in_t >= 2 && !in_r && out_r)
			code = NM_UNREACHED;
		else
			continue;
		for (size_t b = 0; b < n; b++) {
			if (code != NM_UNREACHED)
				explained[a * n + b] = 1;
			if (code != NM_NO_SEND)
				explained[b * n + a] = 1;
		}
		npumesh_name(m, a, name, sizeof(name));
		if (code == NM_ISOLATED)
			rc = add(m, code, (long)a, -1, -1,
				 "%s reaches none of its %zu peers and none of %zu reaches it",
				 name, out_t, in_t);
		else if (code == NM_NO_SEND)
			rc = add(m, code, (long)a, -1, -1,
				 "%s reaches none of its %zu peers, though %zu of %zu reach it",
				 name, out_t, in_r, in_t);
		else
			rc = add(m, code, (long)a, -1, -1,
				 "none of %zu peers reaches %s, though it reaches %zu of %zu", in_t,
				 name, out_r, out_t);
	}
out:
	free(idx);
	free(in_rail_down);
	return rc;
}

static int pair_findings(struct npumesh *m, const unsigned char *explained)
{
	size_t n = m->n;
	char x[200], y[200];
	for (size_t a = 0; a < n; a++)
		for (size_t b = 0; b < n; b++) {
			if (a == b)
				continue;
			const struct nm_link *ab = npumesh_link(m, a, b),
					     *ba = npumesh_link(m, b, a);
			int dab = (ab->flags & NM_F_DOWN) && !explained[a * n + b];
			int dba = (ba->flags & NM_F_DOWN) && !explained[b * n + a];
			if (!dab || (dba && b < a))
				continue;
			npumesh_name(m, a, x, sizeof(x));
			npumesh_name(m, b, y, sizeof(y));
			int rc;
			if (dba)
				rc = add(m, NM_PAIR_DOWN_BOTH, (long)a, (long)b, -1,
					 "%s <-> %s: no reply either way (0 of %ld, 0 of %ld)", x,
					 y, ab->sent, ba->sent);
			else if (replied(ba))
				rc = add(m, NM_PAIR_DOWN, (long)a, (long)b, -1,
					 "%s -> %s: no reply (0 of %ld), though the other way "
					 "replies",
					 x, y, ab->sent);
			else
				rc = add(m, NM_PAIR_DOWN, (long)a, (long)b, -1,
					 "%s -> %s: no reply (0 of %ld)", x, y, ab->sent);
			if (rc)
				return rc;
		}
	return 0;
}

/* Loss or slowness (flag), per device when most of its replying links show it, else per
 * link. */
static int quality_findings(struct npumesh *m, unsigned flag)
{
	size_t n = m->n;
	unsigned char *done = calloc(n * n + 1, 1);
	char x[200], y[200];
	int rc = 0;
	if (!done)
		return -ENOMEM;
	for (size_t a = 0; a < n && !rc; a++) {
		size_t bad = 0, rep = 0;
		double worst = 0;
		for (size_t b = 0; b < n; b++) {
			if (b == a)
				continue;
			const struct nm_link *ls[2] = {npumesh_link(m, a, b),
						       npumesh_link(m, b, a)};
			for (int k = 0; k < 2; k++) {
				if (!replied(ls[k]))
					continue;
				rep++;
				if (!(ls[k]->flags & flag))
					continue;
				bad++;
				double v = flag == NM_F_LOSS ? ls[k]->loss_pct : ls[k]->rtt_ms;
				worst = v > worst ? v : worst;
			}
		}
		if (bad < 2 || bad * 2 <= rep)
			continue;
		for (size_t b = 0; b < n; b++)
			done[a * n + b] = done[b * n + a] = 1;
		npumesh_name(m, a, x, sizeof(x));
		if (flag == NM_F_LOSS)
			rc = add(m, NM_DEVICE_LOSS, (long)a, -1, -1,
				 "%s loses packets on %zu of its %zu links (in and out), up to "
				 "%.2f %%",
				 x, bad, rep, worst);
		else
			rc = add(m, NM_DEVICE_RTT, (long)a, -1, -1,
				 "%s: %zu of its %zu links (in and out) are slow, up to %.3f ms", x,
				 bad, rep, worst);
	}
	for (size_t a = 0; a < n && !rc; a++)
		for (size_t b = 0; b < n && !rc; b++) {
			const struct nm_link *l = npumesh_link(m, a, b);
			if (a == b || !(l->flags & flag) || done[a * n + b])
				continue;
			npumesh_name(m, a, x, sizeof(x));
			npumesh_name(m, b, y, sizeof(y));
			if (flag == NM_F_LOSS) {
				rc = add(m, NM_LOSS, (long)a, (long)b, -1,
					 "%s -> %s: %.2f %% loss (%ld of %ld replied)", x, y,
					 l->loss_pct, l->received, l->sent);
			} else {
				double med = median_for(m, a, b);
				rc = add(m, NM_RTT, (long)a, (long)b, -1,
					 "%s -> %s: %.3f ms, %.1f times the median %.3f ms of %s",
					 x, y, l->rtt_ms, med > 0 ? l->rtt_ms / med : 0.0, med,
					 class_name(npumesh_class(m, a, b)));
			}
		}
	free(done);
	return rc;
}

static int lldp_findings(struct npumesh *m)
{
	size_t n = m->n, *idx = malloc((n + 1) * sizeof(*idx)), *nsw = NULL;
	unsigned char *grouped = calloc(n + 1, 1);
	char names[900], name[200];
	int rc = 0;
	if (!idx || !grouped) {
		rc = -ENOMEM;
		goto out;
	}
	for (size_t a = 0; a < n && !rc; a++) {
		const struct nm_endpoint *e = &m->ep[a];
		if (grouped[a] || e->lldp != 1 || !e->sw[0] || !e->port[0])
			continue;
		size_t k = 0;
		idx[k++] = a;
		for (size_t b = a + 1; b < n; b++)
			if (m->ep[b].lldp == 1 && !strcmp(m->ep[b].sw, e->sw) &&
			    !strcmp(m->ep[b].port, e->port)) {
				idx[k++] = b;
				grouped[b] = 1;
			}
		if (k < 2)
			continue;
		join_names(m, idx, k, names, sizeof(names));
		rc = add(m, NM_SAME_PORT, (long)idx[0], (long)idx[1], -1,
			 "%s are %s on switch %s port %s", names, k == 2 ? "both" : "all", e->sw,
			 e->port);
	}
	/* switches per rail, against the most common count */
	nsw = calloc(m->nrails + 1, sizeof(*nsw));
	if (!nsw || rc) {
		rc = rc ? rc : -ENOMEM;
		goto out;
	}
	size_t hist_best = 0, mode = 0;
	for (size_t r = 0; r < m->nrails; r++) {
		for (size_t a = 0; a < n; a++) {
			if (m->ep[a].device != m->rails[r] || m->ep[a].lldp != 1 || !m->ep[a].sw[0])
				continue;
			size_t b = 0;
			while (b < a && !(m->ep[b].device == m->rails[r] && m->ep[b].lldp == 1 &&
					  !strcmp(m->ep[b].sw, m->ep[a].sw)))
				b++;
			nsw[r] += b == a;
		}
	}
	for (size_t r = 0; r < m->nrails; r++) {
		size_t c = 0;
		if (!nsw[r])
			continue;
		for (size_t q = 0; q < m->nrails; q++)
			c += nsw[q] == nsw[r];
		if (c > hist_best || (c == hist_best && nsw[r] < mode)) {
			hist_best = c;
			mode = nsw[r];
		}
	}
	for (size_t r = 0; r < m->nrails && !rc; r++) {
		if (!mode || nsw[r] <= mode)
			continue;
		/* the rail's own switch: the one most of its devices are on */
		const char *major = NULL;
		size_t best = 0, total = 0;
		for (size_t a = 0; a < n; a++) {
			if (m->ep[a].device != m->rails[r] || m->ep[a].lldp != 1 || !m->ep[a].sw[0])
				continue;
			total++;
			size_t c = 0;
			for (size_t b = 0; b < n; b++)
				c += m->ep[b].device == m->rails[r] && m->ep[b].lldp == 1 &&
				     !strcmp(m->ep[b].sw, m->ep[a].sw);
			if (c > best) {
				best = c;
				major = m->ep[a].sw;
			}
		}
		size_t k = 0;
		for (size_t a = 0; a < n; a++)
			if (m->ep[a].device == m->rails[r] && m->ep[a].lldp == 1 &&
			    m->ep[a].sw[0] && strcmp(m->ep[a].sw, major))
				idx[k++] = a;
		if (!k)
			continue;
		names[0] = '\0';
		size_t at = 0;
		for (size_t i = 0; i < k && at + 1 < sizeof(names); i++) {
			npumesh_name(m, idx[i], name, sizeof(name));
			int w = snprintf(names + at, sizeof(names) - at, "%s%s on %s",
					 i ? ", " : "", name, m->ep[idx[i]].sw);
			if (w < 0)
				break;
			at += (size_t)w;
		}
		rc = add(
			m, NM_RAIL_SPLIT, (long)idx[0], -1, m->rails[r],
			"rail %ld spans %zu switches where the other rails span %zu: %s; %zu other "
			"device%s of rail %ld on %s",
			m->rails[r], nsw[r], mode, names, total - k, plural_s(total - k),
			m->rails[r], major);
	}
out:
	free(idx);
	free(nsw);
	free(grouped);
	return rc;
}

static int unknown_findings(struct npumesh *m)
{
	char name[200];
	int rc = 0;
	for (size_t s = 0; s < m->nsrv && !rc; s++) {
		if (!m->srv[s].down)
			continue;
		size_t k = 0;
		for (size_t i = 0; i < m->n; i++)
			k += m->ep[i].server == s;
		if (m->srv[s].unreachable)
			rc = add(m, NM_UNREACHABLE, -1, -1, -1,
				 "server %s: unreachable: %s, so what its %zu devices reach is "
				 "not known",
				 m->srv[s].id, m->srv[s].why[0] ? m->srv[s].why : "no answer", k);
		else
			rc = add(m, NM_NOT_RUN, -1, -1, -1,
				 "server %s: its pings did not run (%s), so what its %zu devices "
				 "reach is not known",
				 m->srv[s].id, m->srv[s].why[0] ? m->srv[s].why : "no answer", k);
		if (!rc)
			m->f[m->nf - 1].server = (long)s;
	}
	for (size_t a = 0; a < m->n && !rc; a++) {
		size_t k = 0, t = 0;
		const char *why = NULL;
		for (size_t b = 0; b < m->n; b++) {
			const struct nm_link *l = npumesh_link(m, a, b);
			if (b == a || !m->ep[b].ip[0])
				continue;
			t++;
			if (l->state == NM_ERROR) {
				k++;
				if (!why)
					why = l->reason;
			}
		}
		if (!k)
			continue;
		npumesh_name(m, a, name, sizeof(name));
		rc = add(m, NM_PING_ERROR, (long)a, -1, -1,
			 "%s: hccn_tool could not ping %zu of its %zu peers: %s", name, k, t, why);
	}
	return rc;
}

int npumesh_judge(struct npumesh *m)
{
	size_t n = m->n;
	unsigned char *explained = calloc(n * n + 1, 1);
	char name[200];
	int rc = 0;
	if (!explained)
		return -ENOMEM;
	flags_and_medians(m);
	for (size_t a = 0; a < n && !rc; a++)
		if (!m->ep[a].ip[0]) {
			snprintf(name, sizeof(name), "server %s device %ld (rank %ld)",
				 m->srv[m->ep[a].server].id, m->ep[a].device, m->ep[a].rank);
			rc = add(m, NM_NO_IP, (long)a, -1, -1,
				 "%s has no device_ip in the rank table, so it was not pinged",
				 name);
		}
	if (!rc)
		rc = unknown_findings(m);
	if (!rc && m->tried >= 2 && !m->replied) {
		rc = add(m, NM_NONE_REACH, -1, -1, -1,
			 "none of the %zu devices reaches another: no reply on any of %zu links", n,
			 m->tried);
	} else if (!rc) {
		rc = rail_and_device_findings(m, explained);
		if (!rc)
			rc = pair_findings(m, explained);
	}
	if (!rc)
		rc = lldp_findings(m);
	if (!rc)
		rc = quality_findings(m, NM_F_LOSS);
	if (!rc)
		rc = quality_findings(m, NM_F_SLOW);
	free(explained);
	if (rc)
		return rc;

	enum probe_status all = m->tried ? PROBE_PASS : PROBE_UNKNOWN;
	for (size_t i = 0; i < n; i++)
		m->ep[i].status = PROBE_PASS;
	for (size_t k = 0; k < m->nf; k++) {
		const struct nm_finding *f = &m->f[k];
		enum probe_status s = f->status;
		all = probe_status_worst(all, s);
		for (size_t i = 0; i < n; i++) {
			int hit = (long)i == f->a || (long)i == f->b ||
				  (f->rail >= 0 && m->ep[i].device == f->rail &&
				   f->code == NM_RAIL_DOWN) ||
				  (f->server >= 0 && m->ep[i].server == (size_t)f->server) ||
				  f->code == NM_NONE_REACH;
			if (hit)
				m->ep[i].status = probe_status_worst(m->ep[i].status, s);
		}
	}
	m->status = all;
	return 0;
}
