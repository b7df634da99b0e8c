/* Rank-table generation in the exact layout of MindSpore's hccl_tools.py (its json.dump with
 * indent=4, keys in its order, every value a string). The text is written by hand rather
 * than with cJSON_Print, which indents with tabs and would not match byte for byte.
 * Everything is checked before the first byte is produced: a table with a missing or
 * repeated device IP is refused, never written. */
#include <arpa/inet.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>

#include "ranktable/base/buf.h"
#include "ranktable/ranktable.h"
#include "ranktable/text.h"

#define GEN_MAX_RANKS 65536     /* the largest table HCCL documents (2.0's rank_count) */
#define GEN_OUT_CAP (256u << 20) /* far above GEN_MAX_RANKS ranks of text */
#define SERVER_ID_MAX 64
#define V1_DEVICE_ID_MAX 15     /* 1.x device_id: HCCL's maxDeviceNum of 16 per server */

static void sb_indent(struct buf *b, int level)
{
	static const char sp[] = "                                "; /* 32 */

	buf_add(b, sp, (size_t)level * 4);
}

/* A JSON string as Python's json.dump writes it (short escapes for \b\f\n\r\t, \u00XX for
 * other controls). Bytes >= 0x80 pass through: server ids are the operator's text. */
static void sb_jstr(struct buf *b, const char *s)
{
	buf_add(b, "\"", 1);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		const char *short_esc = NULL;
		char esc[8];

		switch (c) {
		case '"':
			short_esc = "\\\"";
			break;
		case '\\':
			short_esc = "\\\\";
			break;
		case '\b':
			short_esc = "\\b";
			break;
		case '\f':
			short_esc = "\\f";
			break;
		case '\n':
			short_esc = "\\n";
			break;
		case '\r':
			short_esc = "\\r";
			break;
		case '\t':
			short_esc = "\\t";
			break;
		}
		if (short_esc) {
			buf_add(b, short_esc, 2);
		} else if (c < 0x20) {
			snprintf(esc, sizeof(esc), "\\u%04x", c);
			buf_add(b, esc, 6);
		} else {
			buf_add(b, s, 1);
		}
	}
	buf_add(b, "\"", 1);
}

/* One `"key": "value"` member line; last says whether a comma follows. */
static void sb_kv(struct buf *b, int level, const char *key, const char *val, bool last)
{
	sb_indent(b, level);
	sb_jstr(b, key);
	buf_add(b, ": ", 2);
	sb_jstr(b, val);
	buf_puts(b, last ? "\n" : ",\n");
}

static void sb_kn(struct buf *b, int level, const char *key, unsigned long v, bool last)
{
	char num[24];

	snprintf(num, sizeof(num), "%lu", v);
	sb_kv(b, level, key, num, last);
}

/* The device IP of physical device dev on server s, or NULL. */
static const char *dev_ip(const struct rt_gen_server *s, long dev)
{
	if (!s->hccn || !s->hccn->addr || dev < 0 || (size_t)dev >= s->hccn->naddr)
		return NULL;
	return s->hccn->addr[dev];
}

struct ip_ref {
	const char *ip;
	size_t server;
	long dev;
};

static int cmp_ip_ref(const void *pa, const void *pb)
{
	const struct ip_ref *a = pa, *b = pb;
	int r = strcmp(a->ip, b->ip);

	if (r)
		return r;
	if (a->server != b->server)
		return a->server < b->server ? -1 : 1;
	return a->dev < b->dev ? -1 : a->dev > b->dev;
}

static int check_devices(const struct rt_gen_spec *spec, char *err, size_t errlen)
{
	long max = V1_DEVICE_ID_MAX;

	if (!spec->devices || spec->ndevices == 0) {
		snprintf(err, errlen, "no devices given");
		return -EINVAL;
	}
	if (spec->ndevices > 64) {
		snprintf(err, errlen, "%zu devices per server; at most 64", spec->ndevices);
		return -EINVAL;
	}
	for (size_t d = 0; d < spec->ndevices; d++) {
		long id = spec->devices[d];

		if (id < 0 || id > max) {
			snprintf(err, errlen,
				 "device %ld is out of range 0..%ld: a version 1.x table holds at "
				 "most 16 NPUs per server",
				 id, max);
			return -EINVAL;
		}
		if (d && id <= spec->devices[d - 1]) {
			snprintf(err, errlen, "device ids must be ascending and unique (%ld after %ld)",
				 id, spec->devices[d - 1]);
			return -EINVAL;
		}
	}
	return 0;
}

/* Server ids: present, at most HCCL's 64 characters, unique. */
static int check_servers(const struct rt_gen_spec *spec, char *err, size_t errlen)
{
	struct rt__name_ref *v;
	int rc = 0;

	if (!spec->servers || spec->nservers == 0) {
		snprintf(err, errlen, "no servers given");
		return -EINVAL;
	}
	if (spec->nservers > GEN_MAX_RANKS / spec->ndevices) {
		snprintf(err, errlen, "%zu servers x %zu devices is more than %d ranks",
			 spec->nservers, spec->ndevices, GEN_MAX_RANKS);
		return -EINVAL;
	}
	for (size_t s = 0; s < spec->nservers; s++) {
		const char *id = spec->servers[s].server_id;

		if (!id || !*id) {
			snprintf(err, errlen, "server %zu has an empty server id", s + 1);
			return -EINVAL;
		}
		if (strlen(id) > SERVER_ID_MAX) {
			snprintf(err, errlen, "server id \"%.64s...\" is longer than HCCL's %d characters",
				 id, SERVER_ID_MAX);
			return -EINVAL;
		}
		if (spec->servers[s].host_ip && !rt__is_ip_literal(spec->servers[s].host_ip, strlen(spec->servers[s].host_ip))) {
			snprintf(err, errlen, "server \"%s\": host_ip \"%s\" is not an IP address", id,
				 spec->servers[s].host_ip);
			return -EINVAL;
		}
	}
	/* HCCL wants host_ip on every server or on none ("hostIp config bettewn ranks is
	 * different"). */
	for (size_t s = 1; s < spec->nservers; s++) {
		const struct rt_gen_server *a = &spec->servers[0], *b = &spec->servers[s];

		if (!a->host_ip == !b->host_ip)
			continue;
		if (!a->host_ip) {
			const struct rt_gen_server *t = a;

			a = b;
			b = t;
		}
		snprintf(err, errlen,
			 "server \"%s\" has no host_ip but server \"%s\" has one; give host_ip for "
			 "every server or none",
			 b->server_id, a->server_id);
		return -EINVAL;
	}
	v = malloc(spec->nservers * sizeof(*v));
	if (!v) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	for (size_t s = 0; s < spec->nservers; s++) {
		v[s].name = spec->servers[s].server_id;
		v[s].idx = s;
	}
	qsort(v, spec->nservers, sizeof(*v), rt__cmp_name_ref);
	for (size_t k = 1; k < spec->nservers; k++) {
		if (strcmp(v[k].name, v[k - 1].name) == 0) {
			snprintf(err, errlen, "server \"%s\" is listed twice (servers %zu and %zu)",
				 v[k].name, v[k - 1].idx + 1, v[k].idx + 1);
			rc = -EINVAL;
			break;
		}
	}
	free(v);
	return rc;
}

/* 1.2: every server names its super pod, and a pod's servers sit next to each other, so
 * super_device_id (the index within the pod) is well defined. */
static int check_pods(const struct rt_gen_spec *spec, char *err, size_t errlen)
{
	struct rt__name_ref *runs;
	size_t nruns = 0;
	int rc = 0;

	for (size_t s = 0; s < spec->nservers; s++) {
		const char *p = spec->servers[s].super_pod_id;

		if (!p || !*p) {
			snprintf(err, errlen,
				 "server \"%s\" has no super pod id; a 1.2 table needs one per server",
				 spec->servers[s].server_id);
			return -EINVAL;
		}
	}
	runs = malloc(spec->nservers * sizeof(*runs));
	if (!runs) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	for (size_t s = 0; s < spec->nservers; s++) {
		if (s && !strcmp(spec->servers[s].super_pod_id, spec->servers[s - 1].super_pod_id))
			continue;
		runs[nruns].name = spec->servers[s].super_pod_id;
		runs[nruns].idx = s;
		nruns++;
	}
	qsort(runs, nruns, sizeof(*runs), rt__cmp_name_ref);
	for (size_t k = 1; k < nruns; k++) {
		if (strcmp(runs[k].name, runs[k - 1].name) == 0) {
			snprintf(err, errlen,
				 "super pod \"%s\" is split: server \"%s\" is not next to the pod's other "
				 "servers; list a pod's servers together",
				 runs[k].name, spec->servers[runs[k].idx].server_id);
			rc = -EINVAL;
			break;
		}
	}
	free(runs);
	return rc;
}

/* "FILE:LINE: address_N=IP", where the input says so. */
static const char *where_set(const struct rt_gen_server *s, long dev, char *buf, size_t len)
{
	const char *path = s->hccn_path ? s->hccn_path : "/etc/hccn.conf";
	unsigned line = s->hccn && s->hccn->line ? s->hccn->line[dev] : 0;
	if (line)
		snprintf(buf, len, "%s:%u: address_%ld=%s", path, line, dev, dev_ip(s, dev));
	else
		snprintf(buf, len, "%s: address_%ld=%s", path, dev, dev_ip(s, dev));
	return buf;
}

/* HCCL needs one address family for all ranks: the first device that differs from the
 * first device's family is named with the hccn.conf line it comes from. */
static int check_family(const struct rt_gen_spec *spec, char *err, size_t errlen)
{
	const struct rt_gen_server *fs = NULL;
	long fdev = -1;
	int ffam = 0;
	for (size_t s = 0; s < spec->nservers; s++) {
		const struct rt_gen_server *sv = &spec->servers[s];
		for (size_t d = 0; d < spec->ndevices; d++) {
			long dev = spec->devices[d];
			const char *ip = dev_ip(sv, dev);
			int fam = strchr(ip, ':') ? 6 : 4;
			if (!fs) {
				fs = sv;
				fdev = dev;
				ffam = fam;
				continue;
			}
			if (fam == ffam)
				continue;
			char a[512], b[512];
			snprintf(err, errlen,
				 "%s (server \"%s\" device %ld) is IPv%d, but %s (server \"%s\" "
				 "device %ld) is IPv%d; HCCL needs one address family for every "
				 "device: configure all NPUs with IPv4 or all with IPv6 "
				 "(hccn_tool -i N -ip -s ...)",
				 where_set(sv, dev, a, sizeof(a)), sv->server_id, dev, fam,
				 where_set(fs, fdev, b, sizeof(b)), fs->server_id, fdev, ffam);
			return -EINVAL;
		}
	}
	return 0;
}

/* Every device has an IP, and no IP appears twice (the same hccn.conf given for two
 * servers is the usual cause). */
static int check_ips(const struct rt_gen_spec *spec, char *err, size_t errlen)
{
	size_t n = spec->nservers * spec->ndevices, k = 0;
	struct ip_ref *v;
	int rc = 0;

	for (size_t s = 0; s < spec->nservers; s++) {
		const struct rt_gen_server *sv = &spec->servers[s];

		for (size_t d = 0; d < spec->ndevices; d++) {
			long dev = spec->devices[d];

			if (dev_ip(sv, dev))
				continue;
			if (!sv->hccn)
				snprintf(err, errlen,
					 "no device IP for server \"%s\" device %ld: no hccn.conf was "
					 "given for this server",
					 sv->server_id, dev);
			else
				snprintf(err, errlen,
					 "no device IP for server \"%s\" device %ld: %s has "
					 "no address_%ld (set it with: hccn_tool -i %ld -ip -s address IP "
					 "netmask MASK)",
					 sv->server_id, dev,
					 sv->hccn_path ? sv->hccn_path : "/etc/hccn.conf", dev, dev);
			return -EINVAL;
		}
	}
	v = malloc(n * sizeof(*v));
	if (!v) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	for (size_t s = 0; s < spec->nservers; s++) {
		for (size_t d = 0; d < spec->ndevices; d++) {
			v[k].ip = dev_ip(&spec->servers[s], spec->devices[d]);
			v[k].server = s;
			v[k].dev = spec->devices[d];
			k++;
		}
	}
	qsort(v, n, sizeof(*v), cmp_ip_ref);
	for (k = 1; k < n; k++) {
		const struct ip_ref *a = &v[k - 1], *b = &v[k];

		if (strcmp(a->ip, b->ip) != 0)
			continue;
		if (a->server == b->server)
			snprintf(err, errlen,
				 "device IP %s is used twice on server \"%s\": devices %ld and %ld",
				 a->ip, spec->servers[a->server].server_id, a->dev, b->dev);
		else
			snprintf(err, errlen,
				 "device IP %s is used twice: server \"%s\" device %ld and server \"%s\" "
				 "device %ld (was the same hccn.conf given for both?)",
				 a->ip, spec->servers[a->server].server_id, a->dev,
				 spec->servers[b->server].server_id, b->dev);
		rc = -EINVAL;
		break;
	}
	free(v);
	return rc;
}

static void emit_server(struct buf *b, const struct rt_gen_spec *spec, size_t s,
			unsigned long pod_base, bool v12)
{
	const struct rt_gen_server *sv = &spec->servers[s];

	sb_indent(b, 2);
	buf_puts(b, "{\n");
	sb_kv(b, 3, "server_id", sv->server_id, false);
	if (sv->host_ip)
		sb_kv(b, 3, "host_ip", sv->host_ip, false);
	sb_indent(b, 3);
	buf_puts(b, "\"device\": [\n");
	for (size_t d = 0; d < spec->ndevices; d++) {
		long dev = spec->devices[d];

		sb_indent(b, 4);
		buf_puts(b, "{\n");
		sb_kn(b, 5, "device_id", (unsigned long)dev, false);
		if (v12)
			sb_kn(b, 5, "super_device_id", pod_base + d, false);
		sb_kv(b, 5, "device_ip", dev_ip(sv, dev), false);
		sb_kn(b, 5, "rank_id", (unsigned long)(s * spec->ndevices + d), true);
		sb_indent(b, 4);
		buf_puts(b, d + 1 < spec->ndevices ? "},\n" : "}\n");
	}
	sb_indent(b, 3);
	buf_puts(b, "],\n");
	sb_kv(b, 3, "host_nic_ip", "reserve", true);
	sb_indent(b, 2);
	buf_puts(b, s + 1 < spec->nservers ? "},\n" : "}\n");
}

static void emit_pods(struct buf *b, const struct rt_gen_spec *spec)
{
	sb_indent(b, 1);
	buf_puts(b, "\"super_pod_list\": [\n");
	for (size_t s = 0; s < spec->nservers;) {
		const char *pod = spec->servers[s].super_pod_id;
		size_t e = s;

		while (e < spec->nservers && !strcmp(spec->servers[e].super_pod_id, pod))
			e++;
		sb_indent(b, 2);
		buf_puts(b, "{\n");
		sb_kv(b, 3, "super_pod_id", pod, false);
		sb_indent(b, 3);
		buf_puts(b, "\"server_list\": [\n");
		for (size_t k = s; k < e; k++) {
			sb_indent(b, 4);
			buf_puts(b, "{\n");
			sb_kv(b, 5, "server_id", spec->servers[k].server_id, true);
			sb_indent(b, 4);
			buf_puts(b, k + 1 < e ? "},\n" : "}\n");
		}
		sb_indent(b, 3);
		buf_puts(b, "]\n");
		sb_indent(b, 2);
		buf_puts(b, e < spec->nservers ? "},\n" : "}\n");
		s = e;
	}
	sb_indent(b, 1);
	buf_puts(b, "],\n");
}

int rt_gen(const struct rt_gen_spec *spec, char **out, size_t *outlen, char *err,
	   size_t errlen)
{
	struct buf b = BUF_INIT(GEN_OUT_CAP);
	bool v12;
	unsigned long pod_base = 0;
	int rc;

	*out = NULL;
	*outlen = 0;
	if (spec->format != RT_FMT_V1_0 && spec->format != RT_FMT_V1_2) {
		snprintf(err, errlen, "can only generate 1.0 and 1.2 tables");
		return -EINVAL;
	}
	v12 = spec->format == RT_FMT_V1_2;
	rc = check_devices(spec, err, errlen);
	if (!rc)
		rc = check_servers(spec, err, errlen);
	if (!rc && v12)
		rc = check_pods(spec, err, errlen);
	if (!rc)
		rc = check_ips(spec, err, errlen);
	if (!rc)
		rc = check_family(spec, err, errlen);
	if (rc)
		return rc;

	buf_puts(&b, "{\n");
	sb_kv(&b, 1, "version", v12 ? "1.2" : "1.0", false);
	sb_kn(&b, 1, "server_count", spec->nservers, false);
	sb_indent(&b, 1);
	buf_puts(&b, "\"server_list\": [\n");
	for (size_t s = 0; s < spec->nservers; s++) {
		if (v12 && s && strcmp(spec->servers[s].super_pod_id, spec->servers[s - 1].super_pod_id))
			pod_base = 0;
		emit_server(&b, spec, s, pod_base, v12);
		pod_base += spec->ndevices;
	}
	sb_indent(&b, 1);
	buf_puts(&b, "],\n");
	if (v12)
		emit_pods(&b, spec);
	sb_kv(&b, 1, "status", "completed", true);
	/* hccl_tools.py ends without a newline; we add one so the file is a proper text file
	 * (cat, diff and git stop complaining). JSON readers do not care. */
	buf_puts(&b, "}\n");
	if (b.err) {
		buf_release(&b);
		snprintf(err, errlen, "out of memory building the rank table");
		return -ENOMEM;
	}
	*outlen = b.len;
	*out = buf_take(&b);
	return 0;
}
