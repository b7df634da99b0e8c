/* hccn_tool output parsers. Lines are "label: value" with or without a space after the
 * colon; only the labels hccn_tool prints for the queries below (as its documented examples
 * and public captures show them) are read and everything else is skipped. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "probes/nic/hccn.h"
#include "probes/tool/ptext.h"

/* The value after "label" and a ':' on the first line that starts with label. */
static int find_value(const char *buf, size_t len, const char *label, struct pspan *val)
{
	struct pspan rest = {buf, len}, line;
	size_t ln = strlen(label);
	while (probe__next_line(&rest, &line)) {
		struct pspan t = probe__trim(line);
		if (t.n < ln || strncasecmp(t.s, label, ln))
			continue;
		struct pspan v = {t.s + ln, t.n - ln};
		v = probe__trim(v);
		if (!v.n || v.s[0] != ':')
			continue;
		v.s++;
		v.n--;
		*val = probe__trim(v);
		return 1;
	}
	return 0;
}

static int missing(char *err, size_t errlen, const char *what, const char *buf, size_t len)
{
	const char *known = hccn_known_error(buf, len);
	if (known)
		snprintf(err, errlen, "%s", known);
	else
		snprintf(err, errlen, "no \"%s\" in the output", what);
	return -EINVAL;
}

int hccn_parse_link(const char *buf, size_t len, int *up, char *err, size_t errlen)
{
	struct pspan v;
	if (!find_value(buf, len, "link status", &v))
		return missing(err, errlen, "link status:", buf, len);
	if (probe__eq_nocase(v, "UP"))
		*up = 1;
	else if (probe__eq_nocase(v, "DOWN"))
		*up = 0;
	else {
		char q[32];
		probe__copy(q, sizeof(q), v);
		snprintf(err, errlen, "link status \"%s\" is neither UP nor DOWN", q);
		return -EINVAL;
	}
	return 0;
}

int hccn_parse_net_health(const char *buf, size_t len, char *status, size_t slen, char *err,
			  size_t errlen)
{
	struct pspan v;
	if (!find_value(buf, len, "net health status", &v) || !v.n)
		return missing(err, errlen, "net health status:", buf, len);
	probe__copy(status, slen, v);
	return 0;
}

/* An IPv4 or IPv6 address: digits, hex letters, '.' and ':' only. */
static int addr_like(struct pspan v)
{
	if (!v.n || v.n > 45)
		return 0;
	int dots = 0, colons = 0;
	for (size_t i = 0; i < v.n; i++) {
		char c = v.s[i];
		if (c == '.')
			dots++;
		else if (c == ':')
			colons++;
		else if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
			   (c >= 'A' && c <= 'F')))
			return 0;
	}
	return dots == 3 || colons >= 2;
}

/* "ipaddr:10.0.0.1 netmask:255.255.255.0" or one per line: scans words for KEY:VALUE,
 * and for KEY: VALUE as two words. 1 with the address in out; 0 when no word has the key;
 * -1 when the key's value is not an address (a poster's "10.xx.xx.10"), with the value in
 * out, so that the error can show it. */
static int scan_kv(const char *buf, size_t len, const char *key, char *out, size_t olen)
{
	struct pspan rest = {buf, len}, w;
	size_t kl = strlen(key);
	while (probe__next_word(&rest, &w, ",")) {
		if (w.n < kl + 1 || strncasecmp(w.s, key, kl) || w.s[kl] != ':')
			continue;
		struct pspan v = {w.s + kl + 1, w.n - kl - 1};
		if (!v.n && !probe__next_word(&rest, &v, ","))
			return 0;
		probe__copy(out, olen, v);
		return addr_like(v) ? 1 : -1;
	}
	return 0;
}

static int not_address(char *err, size_t errlen, const char *key, const char *value)
{
	snprintf(err, errlen, "%s \"%.60s\" is not an IP address (masked or cut?)", key, value);
	return -EINVAL;
}

int hccn_parse_ip(const char *buf, size_t len, struct hccn_ip *ip, char *err, size_t errlen)
{
	memset(ip, 0, sizeof(*ip));
	int rc = scan_kv(buf, len, "ipaddr", ip->addr, sizeof(ip->addr));
	if (rc < 0) {
		char v[48];
		snprintf(v, sizeof(v), "%s", ip->addr);
		ip->addr[0] = '\0';
		return not_address(err, errlen, "ipaddr", v);
	}
	if (!rc)
		return missing(err, errlen, "ipaddr:", buf, len);
	if (scan_kv(buf, len, "netmask", ip->mask, sizeof(ip->mask)) < 0)
		ip->mask[0] = '\0';
	return 0;
}

/* "netdetect addr: A" (the HCCL docs) or "netdetect address: A" (a MindIE deployment doc). */
int hccn_parse_netdetect(const char *buf, size_t len, char *addr, size_t alen, char *err,
			 size_t errlen)
{
	struct pspan v;
	if (!find_value(buf, len, "netdetect address", &v) &&
	    !find_value(buf, len, "netdetect addr", &v))
		return missing(err, errlen, "netdetect addr:", buf, len);
	if (!addr_like(v)) {
		char q[64];
		probe__copy(q, sizeof(q), v);
		return not_address(err, errlen, "netdetect address", q);
	}
	probe__copy(addr, alen, v);
	return 0;
}

int hccn_parse_gateway(const char *buf, size_t len, char *addr, size_t alen, char *err,
		       size_t errlen)
{
	struct pspan rest = {buf, len}, line, w;
	while (probe__next_line(&rest, &line)) {
		if (!memmem(line.s, line.n, "gateway", 7) && !memmem(line.s, line.n, "Gateway", 7))
			continue;
		if (hccn_known_error(line.s, line.n))
			break;
		const char *c = memchr(line.s, ':', line.n);
		if (!c)
			continue;
		struct pspan v = {c + 1, line.n - (size_t)(c + 1 - line.s)};
		while (probe__next_word(&v, &w, ",;")) {
			if (addr_like(w)) {
				probe__copy(addr, alen, w);
				return 0;
			}
		}
	}
	return missing(err, errlen, "gateway", buf, len);
}

/* The number in "name[N]" after name, or -1. */
static long bracket_num(const char *buf, size_t len, const char *name)
{
	const char *p = memmem(buf, len, name, strlen(name));
	if (!p)
		return -1;
	p += strlen(name);
	size_t left = len - (size_t)(p - buf);
	while (left && *p == ' ') {
		p++;
		left--;
	}
	if (!left || *p != '[')
		return -1;
	const char *e = memchr(p, ']', left);
	unsigned long long v;
	if (!e || probe__u64((struct pspan){p + 1, (size_t)(e - p - 1)}, &v) || v > 1000000)
		return -1;
	return (long)v;
}

int hccn_parse_time(const char *s, size_t len, time_t *t)
{
	char buf[64];
	struct tm tm;
	struct pspan v = probe__trim((struct pspan){s, len});
	if (v.n >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, v.s, v.n);
	buf[v.n] = '\0';
	memset(&tm, 0, sizeof(tm));
	const char *end = strptime(buf, "%a %b %d %H:%M:%S %Y", &tm);
	if (!end)
		return -EINVAL;
	while (*end == ' ')
		end++;
	if (*end && strcmp(end, "GMT") && strcmp(end, "UTC"))
		return -EINVAL;
	*t = timegm(&tm);
	return *t == (time_t)-1 ? -EINVAL : 0;
}

int hccn_parse_tls(const char *buf, size_t len, struct hccn_tls *t, char *err, size_t errlen)
{
	struct pspan rest = {buf, len}, line;
	memset(t, 0, sizeof(*t));
	t->enabled = -1;
	t->preconfigured = -1;
	t->alarm_days = -1;
	t->expiry_status = -1;
	int in_crl = 0;
	while (probe__next_line(&rest, &line)) {
		if (t->enabled < 0 && memmem(line.s, line.n, "tls switch", 10)) {
			t->enabled = (int)bracket_num(line.s, line.n, "tls switch");
			t->preconfigured = (int)bracket_num(line.s, line.n, "tls preconfigured");
			t->alarm_days = (int)bracket_num(line.s, line.n, "alarm time threshold");
			continue;
		}
		/* "dev_id:0, [pub cert] info:" opens a certificate's block, "[crl] info:" the
		 * revocation list's, whose end_time is its next update, not an expiry */
		if (memmem(line.s, line.n, "] info", 6)) {
			in_crl = memmem(line.s, line.n, "[crl]", 5) != NULL;
			continue;
		}
		if (in_crl)
			continue;
		long st = bracket_num(line.s, line.n, "tls expiration status");
		if (st >= 0) {
			if (st > t->expiry_status)
				t->expiry_status = (int)st;
			continue;
		}
		const char *p = memmem(line.s, line.n, "end_time[", 9);
		if (!p)
			continue;
		p += 9;
		const char *e = memchr(p, ']', line.n - (size_t)(p - line.s));
		time_t when;
		if (!e || hccn_parse_time(p, (size_t)(e - p), &when))
			continue;
		t->ncerts++;
		if (!t->first_expiry || when < t->first_expiry) {
			t->first_expiry = when;
			probe__copy(t->first_expiry_text, sizeof(t->first_expiry_text),
				    (struct pspan){p, (size_t)(e - p)});
		}
	}
	if (t->enabled != 0 && t->enabled != 1)
		return missing(err, errlen, "tls switch[0|1]", buf, len);
	return 0;
}

static double num_prefix(struct pspan v)
{
	char b[32];
	probe__copy(b, sizeof(b), v);
	char *end;
	double d = strtod(b, &end);
	return end == b ? -1 : d;
}

static long hex_flag(struct pspan v)
{
	char b[24], *end;
	probe__copy(b, sizeof(b), v);
	long x = strtol(b, &end, 0);
	return end == b || x < 0 ? -1 : x;
}

/* "Rx Power" or "Rx Power2" (lane 2 of a four-lane module): the lane (0 for the one-lane
 * form), or -1 when key is not name[N]. */
static int lane_key(struct pspan key, const char *name)
{
	size_t n = strlen(name);
	if (key.n < n || strncasecmp(key.s, name, n))
		return -1;
	struct pspan d = probe__trim((struct pspan){ key.s + n, key.n - n });
	unsigned long long lane = 0;
	if (d.n && (probe__u64(d, &lane) || lane >= 64))
		return -1;
	return (int)lane;
}

/* Every "Key : value" line: the present line, the flags, the thresholds and the power of
 * each lane, in whichever order and spacing they come. */
static void optical_line(struct hccn_optical *o, struct pspan key, struct pspan v)
{
	/* the thresholds are doubles, the flags longs */
	static const struct {
		const char *key;
		size_t off;
		int flag;
	} fields[] = {
		{ "TxPower High Thres", offsetof(struct hccn_optical, tx_high_mw), 0 },
		{ "TxPower Low Thres", offsetof(struct hccn_optical, tx_low_mw), 0 },
		{ "RxPower High Thres", offsetof(struct hccn_optical, rx_high_mw), 0 },
		{ "RxPower Low Thres", offsetof(struct hccn_optical, rx_low_mw), 0 },
		{ "Tx Los Flag", offsetof(struct hccn_optical, tx_los), 1 },
		{ "Rx Los Flag", offsetof(struct hccn_optical, rx_los), 1 },
		{ "Tx LoL Flag", offsetof(struct hccn_optical, tx_lol), 1 },
		{ "Rx LoL Flag", offsetof(struct hccn_optical, rx_lol), 1 },
	};
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		if (!probe__key_is(key, fields[i].key))
			continue;
		char *at = (char *)o + fields[i].off;
		if (fields[i].flag)
			*(long *)at = hex_flag(v);
		else
			*(double *)at = num_prefix(v);
		return;
	}
	int lane;
	double mw = num_prefix(v);
	if (mw < 0)
		return;
	if ((lane = lane_key(key, "Tx Power")) >= 0) {
		o->ntx++;
		if (mw > o->tx_mw) {
			o->tx_mw = mw;
			o->tx_lane = lane;
		}
	} else if ((lane = lane_key(key, "Rx Power")) >= 0) {
		o->nrx++;
		if (o->rx_mw < 0 || mw < o->rx_mw) {
			o->rx_mw = mw;
			o->rx_lane = lane;
		}
	}
}

int hccn_parse_optical(const char *buf, size_t len, struct hccn_optical *o, char *err,
		       size_t errlen)
{
	struct pspan v;
	memset(o, 0, sizeof(*o));
	o->tx_mw = o->rx_mw = -1;
	o->tx_lane = o->rx_lane = -1;
	o->tx_high_mw = o->tx_low_mw = o->rx_high_mw = o->rx_low_mw = -1;
	o->tx_los = o->rx_los = o->tx_lol = o->rx_lol = -1;
	if (find_value(buf, len, "present", &v)) {
		if (probe__eq_nocase(v, "present"))
			o->present = 1;
		else if (probe__eq_nocase(v, "not present"))
			o->present = 0;
		else
			return missing(err, errlen, "present: present|not present", buf, len);
	} else if (memmem(buf, len, "Optical module is not present", 29)) {
		o->present = 0;
	} else {
		return missing(err, errlen, "present:", buf, len);
	}
	struct pspan rest = { buf, len }, line;
	while (probe__next_line(&rest, &line)) {
		const char *c = memchr(line.s, ':', line.n);
		if (!c)
			continue;
		struct pspan key = probe__trim((struct pspan){ line.s, (size_t)(c - line.s) });
		struct pspan val =
			probe__trim((struct pspan){ c + 1, line.n - (size_t)(c + 1 - line.s) });
		optical_line(o, key, val);
	}
	return 0;
}

int hccn_parse_link_stat(const char *buf, size_t len, struct hccn_link_stat *s, char *err,
			 size_t errlen)
{
	struct pspan rest = {buf, len}, line;
	int seen = 0;
	memset(s, 0, sizeof(*s));
	s->up_count = s->down_count = -1;
	while (probe__next_line(&rest, &line)) {
		struct pspan t = probe__trim(line);
		if (!t.n || t.s[0] != '[')
			continue;
		const char *rb = memchr(t.s, ']', t.n);
		if (!rb)
			continue;
		struct pspan body = {rb + 1, t.n - (size_t)(rb + 1 - t.s)};
		struct pspan bt = probe__trim(body);
		const char *colon = memchr(bt.s, ':', bt.n);
		struct pspan key = {bt.s, colon ? (size_t)(colon - bt.s) : 0};
		key = probe__trim(key);
		struct pspan val = {"", 0};
		if (colon)
			val = probe__trim(
				(struct pspan){colon + 1, (size_t)(bt.s + bt.n - colon - 1)});
		if (colon && probe__eq_nocase(key, "current time")) {
			hccn_parse_time(val.s, val.n, &s->now);
			seen = 1;
		} else if (colon && (probe__eq_nocase(key, "link up count") ||
				     probe__eq_nocase(key, "link down count"))) {
			unsigned long long v;
			if (probe__u64(val, &v) || v > 1000000000)
				continue;
			if (key.s[5] == 'u')
				s->up_count = (long)v;
			else
				s->down_count = (long)v;
			seen = 1;
		} else if (colon && probe__eq_nocase(key, "link change records")) {
			seen = 1;
		} else if (bt.n > 8 &&
			   (probe__eq((struct pspan){bt.s + bt.n - 7, 7}, "LINK UP") ||
			    probe__eq((struct pspan){bt.s + bt.n - 9, 9}, "LINK DOWN"))) {
			int up = bt.s[bt.n - 1] == 'P';
			size_t tl = bt.n - (up ? 7 : 9);
			if (!up)
				s->ndown_records++;
			if (s->nrecords == HCCN_MAX_RECORDS)
				continue;
			s->rec[s->nrecords].up = up;
			struct pspan when = probe__trim((struct pspan){bt.s, tl});
			probe__copy(s->rec[s->nrecords].text, sizeof(s->rec[0].text), when);
			if (hccn_parse_time(when.s, when.n, &s->rec[s->nrecords].when))
				s->rec[s->nrecords].when = 0;
			s->nrecords++;
			seen = 1;
		}
	}
	if (!seen)
		return missing(err, errlen, "link up count", buf, len);
	return 0;
}

const char *hccn_known_error(const char *buf, size_t len)
{
	static const struct {
		const char *needle, *what;
	} known[] = {
		{"no ip was preset", "no IP configured"},
		{"no gateway was preset", "no gateway configured"},
		{"not supported on this product", "not supported on this product"},
		{"device is not exist", "the device does not exist"},
		{"Link status is down", "link is down"},
		{"Certificate has expired", "certificate expired"},
		{"Optical module is not present", "optical module not present"},
		{"hccn_tool is busy", "hccn_tool is busy"},
		{"permission denied", "permission denied"},
		{"hccn.conf can't access", "cannot access /etc/hccn.conf"},
		{"Cmd execute failed", "command failed"},
	};
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (memmem(buf, len, known[i].needle, strlen(known[i].needle)))
			return known[i].what;
	return NULL;
}
