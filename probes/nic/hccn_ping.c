/* hccn_tool's answers about the network beyond the NIC: a ping run (-ping, -hccs_ping) and
 * the LLDP neighbour (-lldp). Both are read line by line; only the lines named in
 * probes/nic/hccn.h count, so an elided capture ("...") or a build that prints more still
 * parses. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "probes/nic/hccn.h"
#include "probes/tool/ptext.h"

/* The number at the start of s (digits and one '.'), into *v; its length, or 0. */
static size_t number_at(struct pspan s, double *v)
{
	char buf[40];
	size_t n = 0;
	int dot = 0;
	while (n < s.n && n < sizeof(buf) - 1 &&
	       ((s.s[n] >= '0' && s.s[n] <= '9') || (s.s[n] == '.' && !dot))) {
		dot |= s.s[n] == '.';
		buf[n] = s.s[n];
		n++;
	}
	if (!n || (n == 1 && buf[0] == '.'))
		return 0;
	buf[n] = '\0';
	*v = strtod(buf, NULL);
	return n;
}

static struct pspan after(struct pspan s, size_t k)
{
	return (struct pspan){s.s + k, s.n - k};
}

/* The position of lit in s (case-insensitive), or -1. */
static long find_in(struct pspan s, const char *lit)
{
	size_t n = strlen(lit);
	for (size_t i = 0; n <= s.n && i + n <= s.n; i++)
		if (!strncasecmp(s.s + i, lit, n))
			return (long)i;
	return -1;
}

/* "time=0.067000ms", "time-0.049000ms" (a doc's typo), "time = 12.345us": milliseconds. */
static int time_of(struct pspan line, double *ms)
{
	long at = find_in(line, "time");
	if (at < 0)
		return 0;
	struct pspan v = after(line, (size_t)at + 4);
	while (v.n && (*v.s == ' ' || *v.s == '=' || *v.s == '-' || *v.s == ':'))
		v = after(v, 1);
	double x;
	size_t k = number_at(v, &x);
	if (!k)
		return 0;
	v = probe__trim(after(v, k));
	if (probe__starts(v, "us"))
		x /= 1000.0;
	else if (!probe__starts(v, "ms"))
		return 0;
	*ms = x;
	return 1;
}

/* "3 packets transmitted, 2 received, 33.33% packet loss" (or "packets loss"). */
static int summary_of(struct pspan line, struct hccn_ping *p)
{
	double sent, recv, loss = -1;
	size_t k = number_at(line, &sent);
	if (!k)
		return 0;
	struct pspan v = probe__trim(after(line, k));
	if (!probe__starts(v, "packets transmitted"))
		return 0;
	v = after(v, strlen("packets transmitted"));
	while (v.n && (*v.s == ',' || *v.s == ' '))
		v = after(v, 1);
	k = number_at(v, &recv);
	if (!k)
		return 0;
	v = after(v, k);
	long at = find_in(v, ",");
	if (at >= 0) {
		v = probe__trim(after(v, (size_t)at + 1));
		k = number_at(v, &loss);
		if (!k || k >= v.n || v.s[k] != '%')
			loss = -1;
	}
	if (recv > sent || sent > 1e9)
		return 0;
	p->sent = (long)sent;
	p->received = (long)recv;
	p->loss_pct = loss >= 0 && loss <= 100 ? loss
		      : sent > 0	       ? 100.0 * (sent - recv) / sent
					       : -1;
	return 1;
}

int hccn_parse_ping(const char *buf, size_t len, struct hccn_ping *p, char *err, size_t errlen)
{
	struct pspan rest = {buf, len}, raw;
	int summary = 0, pend = -1; /* -hccs_ping: the verdict of the packet line that follows */
	memset(p, 0, sizeof(*p));
	p->device = -1;
	p->sent = p->received = -1;
	p->loss_pct = -1;
	while (probe__next_line(&rest, &raw)) {
		struct pspan l = probe__trim(raw);
		double ms;
		if (probe__starts(l, "device ")) {
			struct pspan w = after(l, 7), word;
			double d;
			size_t k = number_at(w, &d);
			if (!k)
				continue;
			w = after(w, k);
			if (!probe__next_word(&w, &word, NULL) ||
			    (!probe__eq(word, "PING") && !probe__eq(word, "PING6")))
				continue;
			p->device = d < 1e6 ? (int)d : -1;
			if (probe__next_word(&w, &word, NULL))
				probe__copy(p->target, sizeof(p->target), word);
		} else if (probe__starts(l, "This pkt ")) {
			p->hccs = 1;
			if (find_in(l, "ping success") >= 0) {
				pend = 1;
			} else {
				pend = 0;
				p->nlost++;
			}
		} else if (probe__starts(l, "recv time out") || probe__starts(l, "pkt send fail")) {
			p->nlost++;
		} else if (probe__starts(l, "recv seq")) {
			int take = p->hccs ? pend == 1 : 1;
			pend = -1;
			if (take && time_of(l, &ms) && ms >= 0) {
				if (p->nrtt < HCCN_PING_MAX)
					p->rtt_ms[p->nrtt] = ms;
				p->nrtt++;
			}
		} else if (find_in(l, "packets transmitted") > 0) {
			summary = summary_of(l, p) || summary;
		} else if (find_in(l, "Destination Host Unreachable") >= 0) {
			p->unreachable = 1;
		} else if (find_in(l, "Message too long") >= 0) {
			p->too_long = 1;
		}
	}
	if (p->nrtt > HCCN_PING_MAX)
		p->nrtt = HCCN_PING_MAX;
	if (summary)
		return 0;
	if (p->nrtt + p->nlost) {
		p->sent = (long)(p->nrtt + p->nlost);
		p->received = (long)p->nrtt;
		p->loss_pct = 100.0 * (double)p->nlost / (double)p->sent;
		return 0;
	}
	if (p->unreachable) {
		p->loss_pct = 100;
		return 0;
	}
	const char *known = hccn_known_error(buf, len);
	snprintf(err, errlen, "%s", known ? known : "no ping result in the output");
	return -EINVAL;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

double hccn_ping_rtt_ms(const struct hccn_ping *p)
{
	double v[HCCN_PING_MAX];
	size_t n = p->nrtt < HCCN_PING_MAX ? p->nrtt : HCCN_PING_MAX;
	if (!n)
		return -1;
	memcpy(v, p->rtt_ms, n * sizeof(*v));
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* ---- lldp ---- */

enum tlv {
	T_NONE,
	T_CHASSIS,
	T_PORT,
	T_PORT_DESC,
	T_SYS_NAME,
	T_SYS_DESC,
	T_MGMT,
	T_TTL,
	T_MFS,
	T_OTHER
};

static enum tlv tlv_of(struct pspan name)
{
	static const struct {
		const char *name;
		enum tlv t;
	} names[] = {
		{"Chassis ID", T_CHASSIS},
		{"Port ID", T_PORT},
		{"Port Description", T_PORT_DESC},
		{"System Name", T_SYS_NAME},
		{"System Description", T_SYS_DESC},
		{"Management Address", T_MGMT},
		{"Time to Live", T_TTL},
		{"Maximum Frame Size", T_MFS},
	};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (probe__eq_nocase(name, names[i].name))
			return names[i].t;
	return T_OTHER;
}

/* A value as the poster left it masked: "...", or "xx" in place of digits. */
static int masked(const char *v)
{
	return !*v || !strcmp(v, "...") || strstr(v, "xx") || strstr(v, "XX") || strchr(v, '*');
}

/* "MAC: 00:11:22:33:44:55" into its kind and value; a value without "KIND: " is all value. */
static void kind_value(struct pspan v, char *kind, size_t klen, char *val, size_t vlen)
{
	long at = find_in(v, ": ");
	kind[0] = '\0';
	if (at > 0 && at < 16) {
		int word = 1;
		for (long i = 0; i < at; i++)
			word &= v.s[i] != ' ' && v.s[i] != '\t';
		if (word) {
			probe__copy(kind, klen, (struct pspan){v.s, (size_t)at});
			v = probe__trim(after(v, (size_t)at + 1));
		}
	}
	probe__copy(val, vlen, v);
}

int hccn_parse_lldp(const char *buf, size_t len, struct hccn_lldp *l, char *err, size_t errlen)
{
	struct pspan rest = {buf, len}, raw;
	enum tlv cur = T_NONE;
	int got = 0; /* value lines taken for cur */
	memset(l, 0, sizeof(*l));
	l->ttl = l->max_frame = -1;
	int seen = 0;
	while (probe__next_line(&rest, &raw)) {
		struct pspan t = probe__trim(raw);
		if (!t.n || probe__eq(t, "..."))
			continue;
		int indented = raw.n && (raw.s[0] == ' ' || raw.s[0] == '\t');
		if (!indented && t.n > 4 && !strncmp(t.s + t.n - 4, " TLV", 4)) {
			cur = tlv_of(probe__trim((struct pspan){t.s, t.n - 4}));
			got = 0;
			seen |= cur == T_CHASSIS || cur == T_PORT;
			continue;
		}
		double d;
		switch (cur) {
		case T_CHASSIS:
			if (!got++)
				kind_value(t, l->chassis_kind, sizeof(l->chassis_kind), l->chassis,
					   sizeof(l->chassis));
			break;
		case T_PORT:
			if (!got++)
				kind_value(t, l->port_kind, sizeof(l->port_kind), l->port,
					   sizeof(l->port));
			break;
		case T_PORT_DESC:
			if (!got++)
				probe__copy(l->port_desc, sizeof(l->port_desc), t);
			break;
		case T_SYS_NAME:
			if (!got++)
				probe__copy(l->system_name, sizeof(l->system_name), t);
			break;
		case T_SYS_DESC: {
			size_t at = strlen(l->system_desc);
			if (at && at + 1 < sizeof(l->system_desc))
				l->system_desc[at++] = ' ';
			if (at + 1 < sizeof(l->system_desc))
				probe__copy(l->system_desc + at, sizeof(l->system_desc) - at, t);
			got++;
			break;
		}
		case T_MGMT:
			if (!got++)
				kind_value(t, l->mgmt_kind, sizeof(l->mgmt_kind), l->mgmt,
					   sizeof(l->mgmt));
			break;
		case T_TTL:
		case T_MFS:
			if (got++)
				break;
			if (number_at(t, &d) == t.n && d < 1e9) {
				if (cur == T_TTL)
					l->ttl = (long)d;
				else
					l->max_frame = (long)d;
			}
			break;
		case T_NONE:
		case T_OTHER:
			break;
		}
	}
	if (!seen) {
		const char *known = hccn_known_error(buf, len);
		snprintf(err, errlen, "%s", known ? known : "no LLDP neighbour in the output");
		return -EINVAL;
	}
	l->chassis_masked = masked(l->chassis);
	l->mgmt_masked = masked(l->mgmt);
	return 0;
}

const char *hccn_lldp_switch(const struct hccn_lldp *l)
{
	if (!l->chassis_masked)
		return l->chassis;
	if (l->system_name[0])
		return l->system_name;
	if (!l->mgmt_masked)
		return l->mgmt;
	return "";
}
