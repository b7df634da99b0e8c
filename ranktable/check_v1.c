/* Versions 1.0 and 1.2: server_list[].device[] with string values, as the HCCL user guide's
 * rank-table pages describe them (Atlas 910/A2 and A3 super-pod layouts). The same checks
 * run on each group of a MindCluster global rank table, whose groups hold hccl.json's
 * server_list. */
#include <errno.h>
#include <math.h>
#include <sys/socket.h>

#include "ranktable/check.h"
#include "ranktable/base/bigmem.h"
#include "ranktable/base/plural.h"

#define SERVERID_MAX 64  /* HCCL's SERVERID_MAX_LENGTH */
#define DEVICE_ID_MAX 15 /* maxDeviceNum 16 on 910B/910_93 */

/* What the checks need to point back at, per rank (parallel to t->ranks). A finding's
 * member of the device is looked up again in obj (dev_member): a pointer to each was 48
 * bytes a rank, 3 MB of 65 536 ranks, for findings that are rare. */
struct dev {
	const struct rt__jnode *obj;
	char *iplist;  /* a copy with ',' replaced by NUL when device_ip lists several */
	uint32_t srv;  /* index into t->servers and struct srv */
	uint32_t di;   /* index in its server's device array */
	int nips, fam;
};

struct srv {
	const struct rt__jnode *obj, *id;
	size_t si;   /* index in server_list */
	long pod;    /* index into super_pod_list, -1 when none */
	const char *pod_id;
};

struct v1 {
	struct rt__ctx *c;
	const struct rt__v1_part *p;
	int v12;
	struct dev *dev;
	struct srv *srv;
	size_t nsrv;
	char sname[128]; /* srv_name of the server being read, for each of its devices */
	char spath[RT_PATHLEN]; /* and its path */
};

static const char *const srv_keys[] = { "server_id", "device", "host_ip", "host_nic_ip",
					"container_ip", "hardware_type", "pod_ip", "server_ip",
					NULL };
static const char *const dev_keys[] = {
	"device_id",	"device_ip",	      "rank_id",      "device_port",  "host_port",
	"super_device_id", "backup_device_ip", "backup_device_port", "net_position", "net_protocol",
	"super_pod_id",	"rack_id",	      "server_id",    "dpu_ip",	      "numa_id",
	NULL
};
static const char *const top_keys_v1[] = { "status", "version", "server_count", "server_list",
					   "super_pod_list", "IsMindIEEPJob", "cluster_list",
					   NULL };
static const char *const pod_keys[] = { "super_pod_id", "server_list", NULL };
static const char *const pod_srv_keys[] = { "server_id", NULL };

/* "server "node_0"" or "server_list[1]" */
static const char *srv_name(const struct v1 *v, size_t s, char *buf, size_t len)
{
	const struct rt__jnode *id = v->srv[s].id;
	if (rt__jis_str(id) && *rt__jstr(id))
		snprintf(buf, len, "server \"%s\"", rt__jstr(id));
	else
		snprintf(buf, len, "server_list[%zu]", v->srv[s].si);
	return buf;
}

/* "server "node_0" device 1": the device by its device_id, or by index when that is bad;
 * s names its server (srv_name). */
static const char *dev_where_in(const struct v1 *v, size_t i, const char *s, char *buf,
				size_t len)
{
	const struct rt_rank *r = &v->c->t->ranks[i];
	if (r->device_id >= 0)
		snprintf(buf, len, "%s device %ld", s, r->device_id);
	else
		snprintf(buf, len, "%s device[%u]", s, v->dev[i].di);
	return buf;
}

/* Device i's member key, which device_pass read. */
static const struct rt__jnode *dev_member(const struct v1 *v, size_t i, const char *key)
{
	return rt__jget(v->dev[i].obj, key);
}

/* Its device_ip when a string, its host_port and super_device_id when valid numbers. */
static const struct rt__jnode *dev_ip(const struct v1 *v, size_t i)
{
	const struct rt__jnode *m = dev_member(v, i, "device_ip");
	return rt__jis_str(m) ? m : NULL;
}

static long dec_value(const struct rt__jnode *m, unsigned long max);

static const struct rt__jnode *dev_hport(const struct v1 *v, size_t i)
{
	const struct rt__jnode *m = dev_member(v, i, "host_port");
	return dec_value(m, 65535) > 0 ? m : NULL;
}

static const struct rt__jnode *dev_sdid(const struct v1 *v, size_t i)
{
	const struct rt__jnode *m = dev_member(v, i, "super_device_id");
	return dec_value(m, 0xffffffffUL) >= 0 ? m : NULL;
}

static const char *dev_where(const struct v1 *v, size_t i, char *buf, size_t len)
{
	char s[128];
	return dev_where_in(v, i, srv_name(v, v->dev[i].srv, s, sizeof(s)), buf, len);
}

/* "rank "3" (server "node_0" device 1)", w being dev_where's words */
static const char *dev_who_at(const struct v1 *v, size_t i, const char *w, char *buf,
			      size_t len)
{
	const struct rt__jnode *rk = dev_member(v, i, "rank_id");
	if (rt__jis_str(rk))
		snprintf(buf, len, "rank \"%s\" (%s)", rt__jstr(rk), w);
	else if (v->c->t->ranks[i].rank_id >= 0)
		snprintf(buf, len, "rank %ld (%s)", v->c->t->ranks[i].rank_id, w);
	else
		snprintf(buf, len, "%s", w);
	return buf;
}

static const char *dev_who(const struct v1 *v, size_t i, char *buf, size_t len)
{
	char w[200];
	return dev_who_at(v, i, dev_where(v, i, w, sizeof(w)), buf, len);
}

static const char *dev_path(const struct v1 *v, size_t i, const char *key, char *buf)
{
	return rt__path(buf, "%s.server_list[%zu].device[%zu]%s%s", v->p->base,
			v->srv[v->dev[i].srv].si, (size_t)v->dev[i].di, key ? "." : "",
			key ? key : "");
}

/* A decimal field: a string of digits (a JSON number is reported but its value used, so one
 * mistake is not reported again as a gap or a duplicate). -1 when absent or unusable. */
static long dec_value(const struct rt__jnode *m, unsigned long max)
{
	long v = -1;
	if (rt__jis_str(m)) {
		if (rt__dec(rt__jstr(m), max, &v))
			return -1;
		return v;
	}
	if (rt__jis_num(m) && rt__jnum(m) >= 0 && rt__jnum(m) <= (double)max &&
	    rt__jnum(m) == floor(rt__jnum(m)))
		return (long)rt__jnum(m);
	return -1;
}

static void missing(struct rt__ctx *c, const struct rt__jnode *obj, const char *path,
		    const char *key, const char *who, const char *hint)
{
	char p[RT_PATHLEN];
	rt__report(c, "key-missing", obj, 0, rt__path(p, "%s.%s", path, key), hint,
		   "missing \"%s\" in %s", key, who);
}

static void check_port(struct rt__ctx *c, const struct rt__jnode *obj, const char *key,
		       const char *path, const char *who)
{
	char p[RT_PATHLEN];
	const struct rt__jnode *m;
	const char *s = rt__str_field(c, obj, key, path, who, RT_STR_QUOTE, &m);
	if (!m)
		return;
	long v = dec_value(m, 65535);
	rt__path(p, "%s.%s", path, key);
	if ((s && v < 0) || (m && rt__jis_num(m) && v < 0) || v == 0) {
		char nb[64];
		rt__report(c, "port-invalid", m, 0, p, "use a port from 1024 to 65535",
			   "%s \"%s\" of %s is not a port number 1..65535", key,
			   s ? s : rt__fmt_num(nb, sizeof(nb), rt__jnum(m)), who);
		return;
	}
	if (v > 0 && v < 1024)
		rt__report(c, "port-privileged", m, 0, p,
			   "use a port from 1024 to 65535; HCCL's own defaults start at 16666",
			   "%s \"%ld\" of %s is a privileged port (below 1024)", key, v, who);
}

static const char *const nic_hint =
	"use the NPU NIC IP of that device: 'hccn_tool -i N -ip -g' on the server, or "
	"address_N in /etc/hccn.conf";

/* Checks one address list (device_ip, backup_device_ip); sets *nips and *fam (AF_INET or
 * AF_INET6 of the first address, 0 when none). Reports the first bad entry only. */
static void check_ips(struct rt__ctx *c, const struct rt__jnode *m, const char *key,
		      const char *path, const char *who, int multi, int *nips, int *fam)
{
	const char *s = rt__jstr(m);
	size_t len = strlen(s);
	*nips = 0;
	*fam = 0;
	if (!len) {
		if (multi)
			rt__report(c, "device-ip-empty", m, 0, path, nic_hint,
				   "%s of %s is empty; HCCL needs it when there is more than one "
				   "server",
				   key, who);
		return;
	}
	for (size_t i = 0; i <= len;) {
		size_t j = i;
		while (j < len && s[j] != ',')
			j++;
		enum rt__ipkind k = rt__ipkind(s + i, j - i);
		int n = (int)(j - i);
		switch (k) {
		case RT_IP_V4:
		case RT_IP_V6:
			if (!*fam)
				*fam = k == RT_IP_V4 ? AF_INET : AF_INET6;
			++*nips;
			break;
		case RT_IP_PLACEHOLDER:
			rt__report(c, "device-ip-placeholder", m, 0, path, nic_hint,
				   "%s \"%.*s\" of %s is a placeholder, not an address%s%s", key, n,
				   s + i, who,
				   n == 7 && !memcmp(s + i, "-.-.-.-", 7)
					   ? " (generators write it when the NPU has no IP configured)"
					   : "",
				   c->single ? "; with one server no traffic uses it, but fill it in "
					       "before the table grows"
					     : "");
			return;
		case RT_IP_HOSTNAME:
			rt__report(c, "device-ip-hostname", m, 0, path, nic_hint,
				   "%s \"%.*s\" of %s is a host name; HCCL needs the literal IP of "
				   "the NPU's own NIC",
				   key, n, s + i, who);
			return;
		case RT_IP_EMPTY:
		case RT_IP_INVALID:
			rt__report(c, "device-ip-invalid", m, 0, path, nic_hint,
				   "%s \"%.*s\" of %s is not an IPv4 or IPv6 address", key, n,
				   s + i, who);
			return;
		}
		i = j + 1;
	}
}

static void check_host_ip(struct rt__ctx *c, const struct rt__jnode *m, const char *key,
			  const char *path, const char *who)
{
	const char *s = rt__jstr(m);
	enum rt__ipkind k = rt__ipkind(s, strlen(s));
	const char *what;
	switch (k) {
	case RT_IP_V4:
	case RT_IP_V6:
		return;
	case RT_IP_PLACEHOLDER:
		what = "is a placeholder, not an address";
		break;
	case RT_IP_HOSTNAME:
		what = "is a host name, not an IP address";
		break;
	case RT_IP_EMPTY:
		what = "is empty";
		break;
	default:
		what = "is not an IPv4 or IPv6 address";
		break;
	}
	rt__report(c, "host-ip-invalid", m, 0, path,
		   strcmp(key, "host_ip") ? "the IP of the server's pod"
					  : "use the server's host IP (the one HCCL's host NIC "
					    "listens on), or remove host_ip from every server",
		   "%s \"%s\" of %s %s", key, s, who, what);
}

/* ---- one pass over server_list: the model, and the checks on single values ---- */

static int count(const struct rt__jnode *list, size_t *nsrv, size_t *ndev)
{
	*nsrv = *ndev = 0;
	for (const struct rt__jnode *s = rt__jchild(list); s; s = rt__jnext(s)) {
		if (!rt__jis_obj(s))
			continue;
		++*nsrv;
		const struct rt__jnode *d = rt__jget(s, "device");
		if (rt__jis_arr(d))
			for (const struct rt__jnode *e = rt__jchild(d); e; e = rt__jnext(e))
				*ndev += rt__jis_obj(e);
	}
	return 0;
}

/* device_ip (several addresses may be joined with ','; each must be literal) and
 * backup_device_ip of device d (rank r, entry e at path, named who). */
static void dev_ips(struct v1 *v, struct dev *d, struct rt_rank *r, const struct rt__jnode *e,
		    const char *path, const char *who, int multi)
{
	struct rt__ctx *c = v->c;
	char p[RT_PATHLEN];
	const struct rt__jnode *m;
	const char *s;
	s = rt__str_field(c, e, "device_ip", path, who, RT_STR_QUOTE, &m);
	if (s) {
		r->device_ip = s;
		check_ips(c, m, "device_ip", rt__path_at(p, path, ".device_ip", RT_NO_IDX), who, multi,
			  &d->nips, &d->fam);
		if (d->nips > 1) {
			d->iplist = malloc(strlen(s) + 1);
			if (!d->iplist) {
				c->err = -ENOMEM;
			} else {
				memcpy(d->iplist, s, strlen(s) + 1);
				for (char *q = d->iplist; *q; q++)
					if (*q == ',')
						*q = 0;
			}
		}
	} else if (!m && multi) {
		rt__report(c, "device-ip-missing", e, 0, rt__path_at(p, path, ".device_ip", RT_NO_IDX),
			   nic_hint,
			   "%s has no device_ip; HCCL requires it when there is more than one "
			   "server",
			   who);
	}
	s = rt__str_field(c, e, "backup_device_ip", path, who, RT_STR_QUOTE, &m);
	if (s) {
		int n, f;
		check_ips(c, m, "backup_device_ip", rt__path_at(p, path, ".backup_device_ip", RT_NO_IDX), who,
			  0, &n, &f);
	}
}

/* The super pod's keys of rank r (entry e at path, named who): super_device_id (the SDID from
 * npu-smi info -t spod-info, a decimal u32, version 1.2 only), super_pod_id, and ClusterD's
 * device_logical_id. */
static void dev_super(struct v1 *v, struct rt_rank *r, const struct rt__jnode *e,
		      const char *path, const char *who)
{
	struct rt__ctx *c = v->c;
	char p[RT_PATHLEN];
	const struct rt__jnode *m;
	const char *s;
	s = rt__str_field(c, e, "super_device_id", path, who, RT_STR_QUOTE, &m);
	if (m && !v->v12)
		rt__report(c, "v12-key-in-v10", m, 1, rt__path(p, "%s.super_device_id", path),
			   "set \"version\": \"1.2\" for super-pod mode, or remove it",
			   "super_device_id of %s belongs to version 1.2 (super pods); this table "
			   "says version \"1.0\"",
			   who);
	if (m) {
		r->super_device_id = dec_value(m, 0xffffffffUL);
		if (s && r->super_device_id < 0)
			rt__report(c, "super-device-id-invalid", m, 0,
				   rt__path(p, "%s.super_device_id", path),
				   "the SDID of the NPU from 'npu-smi info -t spod-info'",
				   "super_device_id \"%s\" of %s is not a decimal 32-bit number", s,
				   who);
	}
	m = rt__jget(e, "super_pod_id");
	if (rt__jis_str(m))
		r->super_pod_id = rt__jstr(m);

	/* ClusterD numbers the devices of a server 0.. in device_logical_id. */
	if (v->p->clusterd) {
		s = rt__str_field(c, e, "device_logical_id", path, who, RT_STR_QUOTE, &m);
		if (s && dec_value(m, 0xffffffffUL) < 0)
			rt__report(c, "device-id-invalid", m, 0,
				   rt__path(p, "%s.device_logical_id", path),
				   "the device's index on its server: \"0\", \"1\", ...",
				   "device_logical_id \"%s\" of %s is not a decimal number", s, who);
	}
}

static void device_pass(struct v1 *v, const struct rt__jnode *e, size_t di, int multi)
{
	struct rt__ctx *c = v->c;
	struct rt_table *t = c->t;
	size_t i = t->nranks++;
	struct rt_rank *r = &t->ranks[i];
	struct dev *d = &v->dev[i];
	char path[RT_PATHLEN], p[RT_PATHLEN], who[320], where[200];
	const struct rt__jnode *m;
	const char *s;

	memset(d, 0, sizeof(*d));
	d->obj = e;
	d->srv = t->nservers - 1;
	d->di = di;
	r->line = r->col = 0;
	rt__jpos_node(c->pos, e, &r->line, &r->col);
	r->server_id = t->servers[d->srv].server_id;
	r->host_ip = t->servers[d->srv].host_ip;
	r->rank_id = dec_value(rt__jget(e, "rank_id"), 0xffffffffUL);
	r->device_id = dec_value(rt__jget(e, "device_id"), 0xffffffffUL);
	r->super_device_id = -1;
	r->device_port = -1;
	dev_who_at(v, i, dev_where_in(v, i, v->sname, where, sizeof(where)), who, sizeof(who));
	rt__path_at(path, v->spath, ".device", di);

	rt__unknown_keys(c, e, path, v->p->dev_keys ? v->p->dev_keys : dev_keys);

	/* rank_id */
	s = rt__str_field(c, e, "rank_id", path, where, RT_STR_QUOTE, &m);
	if (!m)
		missing(c, e, path, "rank_id", where, "number the ranks 0..N-1, as strings");
	else if (s && r->rank_id < 0)
		rt__report(c, "rank-id-invalid", m, 0, rt__path(p, "%s.rank_id", path),
			   "rank ids are decimal strings \"0\"..\"N-1\"",
			   "rank_id \"%s\" of %s is not a decimal number", s, where);

	/* device_id */
	s = rt__str_field(c, e, "device_id", path, who, RT_STR_QUOTE, &m);
	if (!m) {
		missing(c, e, path, "device_id", who,
			"the physical NPU id, as in /dev/davinciN and npu-smi info");
	} else if (s && r->device_id < 0) {
		rt__report(c, "device-id-invalid", m, 0, rt__path(p, "%s.device_id", path),
			   "the physical NPU id, as in /dev/davinciN and npu-smi info",
			   "device_id \"%s\" of %s is not a decimal number", s, who);
	} else if (r->device_id > DEVICE_ID_MAX) {
		rt__report(c, "device-id-range", m, 0, rt__path(p, "%s.device_id", path),
			   "the physical NPU id, as in /dev/davinciN and npu-smi info",
			   "device_id \"%ld\" of %s is out of range 0..%d", r->device_id, who,
			   DEVICE_ID_MAX);
	}

	dev_ips(v, d, r, e, path, who, multi);

	check_port(c, e, "device_port", path, who);
	check_port(c, e, "host_port", path, who);
	check_port(c, e, "backup_device_port", path, who);
	m = rt__jget(e, "device_port");
	r->device_port = dec_value(m, 65535);

	dev_super(v, r, e, path, who);
}

/* server_id is only an identifier to HCCL, but hcclctl's run --ssh, doctor and probe net
 * connect to a server by it (when it has no host_ip) and name it in commands: a placeholder
 * or shell syntax is a warning here, and an error there (RT_RULE_CONNECT). */
void rt__check_server_id(struct rt__ctx *c, const struct rt__jnode *m, const char *path)
{
	const char *s = rt__jstr(m);
	long at = rt_host_unsafe_at(s);
	if (rt__ipkind(s, strlen(s)) == RT_IP_PLACEHOLDER || rt__holds_placeholder(s)) {
		rt__report(c, "server-id-placeholder", m, 0, path,
			   "name each server by its own host IP or host name",
			   "server_id \"%.64s\" is a placeholder, not a server's address; HCCL only "
			   "compares it, but hcclctl cannot connect to it",
			   s);
		return;
	}
	if (at < 0)
		return;
	unsigned char ch = (unsigned char)s[at];
	char what[24];
	if (ch == ' ')
		snprintf(what, sizeof(what), "a space");
	else if (ch > 0x20 && ch < 0x7f)
		snprintf(what, sizeof(what), "'%c'", ch);
	else
		snprintf(what, sizeof(what), "byte 0x%02x", ch);
	rt__report(c, "server-id-unsafe", m, 0, path,
		   "HCCL only compares server_id; for hcclctl's run --ssh, doctor and probe net, "
		   "name each server by a host name or IP without whitespace or shell "
		   "metacharacters",
		   "server_id \"%.64s\" contains %s%s; hcclctl refuses to connect to it (run "
		   "--ssh, doctor, probe net)",
		   s, what, at == 0 && ch == '-' ? " at the start" : "");
}

static void server_pass(struct v1 *v, const struct rt__jnode *sv, size_t si, int multi)
{
	struct rt__ctx *c = v->c;
	struct rt_table *t = c->t;
	struct rt_server *S = &t->servers[t->nservers];
	struct srv *X = &v->srv[t->nservers];
	char path[RT_PATHLEN], p[RT_PATHLEN], who[160];
	const struct rt__jnode *m;
	const char *s;

	memset(S, 0, sizeof(*S));
	X->obj = sv;
	X->si = si;
	X->pod = -1;
	X->pod_id = NULL;
	X->id = rt__jget(sv, "server_id");
	t->nservers++;
	srv_name(v, t->nservers - 1, who, sizeof(who));
	rt__path_at(path, v->p->base, ".server_list", si);
	memcpy(v->spath, path, sizeof(path));
	rt__unknown_keys(c, sv, path, v->p->srv_keys ? v->p->srv_keys : srv_keys);

	s = rt__str_field(c, sv, "server_id", path, who, RT_STR_QUOTE, &m);
	if (!m) {
		missing(c, sv, path, "server_id", who,
			"name each server uniquely, e.g. by its host IP");
	} else if (s) {
		S->server_id = s;
		rt__path(p, "%s.server_id", path);
		if (!*s)
			rt__report(c, "server-id-empty", m, 0, p,
				   "name each server uniquely, e.g. by its host IP",
				   "server_id of server_list[%zu] is empty", si);
		else if (strlen(s) > SERVERID_MAX)
			rt__report(c, "server-id-too-long", m, 0, p,
				   "use a shorter name, e.g. the host IP",
				   "server_id \"%.40s...\" is %zu characters long; HCCL allows at "
				   "most %d",
				   s, strlen(s), SERVERID_MAX);
		else
			rt__check_server_id(c, m, p);
	}
	X->id = S->server_id ? m : NULL;

	s = rt__str_field(c, sv, "host_ip", path, who, RT_STR_QUOTE, &m);
	if (s) {
		S->host_ip = s;
		check_host_ip(c, m, "host_ip", rt__path(p, "%s.host_ip", path), who);
	}
	if (v->p->clusterd) {
		s = rt__str_field(c, sv, "server_ip", path, who, RT_STR_QUOTE, &m);
		if (s)
			check_host_ip(c, m, "server_ip", rt__path(p, "%s.server_ip", path), who);
	}

	S->first_rank = t->nranks;
	srv_name(v, t->nservers - 1, v->sname, sizeof(v->sname));
	const struct rt__jnode *devs = rt__jget(sv, "device");
	rt__path(p, "%s.device", path);
	if (!devs && v->p->devices_optional) {
		/* ClusterD's coordinator and controller groups: servers without NPUs */
	} else if (!devs) {
		missing(c, sv, path, "device", who, "list the server's NPUs in \"device\": [...]");
	} else if (!rt__jis_arr(devs)) {
		rt__report(c, "value-type", devs, 0, p, NULL, "device of %s must be an array, not %s",
			   who, rt__type(devs));
	} else if (!rt__jchild(devs)) {
		rt__report(c, "device-list-empty", devs, 0, p,
			   "list the server's NPUs, or remove the server",
			   "%s has no devices", who);
	} else {
		size_t di = 0;
		for (const struct rt__jnode *e = rt__jchild(devs); e; e = rt__jnext(e), di++) {
			if (!rt__jis_obj(e)) {
				char q[RT_PATHLEN];
				rt__report(c, "value-type", e, 0,
					   rt__path(q, "%s[%zu]", p, di), NULL,
					   "device[%zu] of %s must be an object, not %s", di, who,
					   rt__type(e));
				continue;
			}
			device_pass(v, e, di, multi);
		}
	}
	S->nranks = t->nranks - S->first_rank;
}

/* ---- checks across ranks ---- */

static void dup_server(struct rt__ctx *c, const struct rt__item *run, size_t k, void *arg)
{
	struct v1 *v = arg;
	char p[RT_PATHLEN];
	const struct srv *b = &v->srv[run[1].idx];
	rt__report(c, "server-id-duplicate", b->id, 0,
		   rt__path(p, "%s.server_list[%zu].server_id", v->p->base, b->si),
		   "every server needs its own server_id (generators use the host IP)",
		   "server_id \"%s\" is used %s: server_list[%zu] and server_list[%zu]%s", run[0].s,
		   k == 2 ? "twice" : "more than twice", v->srv[run[0].idx].si, b->si,
		   k > 2 ? " and more" : "");
}

/* "A and B", "A, B and C", up to four names then "and N more". */
static void list_devs(const struct v1 *v, const struct rt__item *run, size_t k, struct buf *b,
		      int server)
{
	char w[200];
	size_t shown = k > 4 ? 4 : k;
	for (size_t j = 0; j < shown; j++) {
		const char *sep = j == 0 ? "" : (j + 1 == shown && shown == k) ? " and " : ", ";
		const struct rt_rank *r = &v->c->t->ranks[run[j].idx];
		if (server)
			dev_where(v, run[j].idx, w, sizeof(w));
		else if (r->device_id >= 0)
			snprintf(w, sizeof(w), "device %ld", r->device_id);
		else
			snprintf(w, sizeof(w), "device[%u]", v->dev[run[j].idx].di);
		buf_printf(b, "%s%s", sep, w);
	}
	if (k > shown)
		buf_printf(b, " and %zu more", k - shown);
}

static const char *times(size_t k, char *buf, size_t len)
{
	if (k == 2)
		snprintf(buf, len, "twice");
	else
		snprintf(buf, len, "%zu times", k);
	return buf;
}

static void dup_rank(struct rt__ctx *c, const struct rt__item *run, size_t k, void *arg)
{
	struct v1 *v = arg;
	char p[RT_PATHLEN], tb[32];
	struct buf b = BUF_INIT(RT_MSG_MAX);
	list_devs(v, run, k, &b, 1);
	rt__report(c, "rank-id-duplicate", dev_member(v, run[1].idx, "rank_id"), 0,
		   dev_path(v, run[1].idx, "rank_id", p),
		   "give every device its own rank id 0..N-1", "rank_id \"%ld\" is used %s: %s",
		   run[0].n, times(k, tb, sizeof(tb)), buf_str(&b));
	buf_release(&b);
}

static void dup_devid(struct rt__ctx *c, const struct rt__item *run, size_t k, void *arg)
{
	struct v1 *v = arg;
	char p[RT_PATHLEN], tb[32], who[160], w[360];
	struct buf b = BUF_INIT(RT_MSG_MAX);
	for (size_t j = 0; j < k && j < 4; j++) {
		const struct rt__jnode *rk = dev_member(v, run[j].idx, "rank_id");
		const char *sep = j == 0 ? "" : (j + 1 == k) ? " and " : ", ";
		if (rt__jis_str(rk))
			snprintf(w, sizeof(w), "rank \"%s\"", rt__jstr(rk));
		else if (v->c->t->ranks[run[j].idx].rank_id >= 0)
			snprintf(w, sizeof(w), "rank %ld", v->c->t->ranks[run[j].idx].rank_id);
		else
			snprintf(w, sizeof(w), "device[%u]", v->dev[run[j].idx].di);
		buf_printf(&b, "%s%s", sep, w);
	}
	if (k > 4)
		buf_printf(&b, " and %zu more", k - 4);
	rt__report(c, "device-id-duplicate", dev_member(v, run[1].idx, "device_id"), 0,
		   dev_path(v, run[1].idx, "device_id", p),
		   "each NPU of a server appears once; check for a copy-pasted entry",
		   "device_id \"%ld\" is used %s on %s: %s", run[0].n, times(k, tb, sizeof(tb)),
		   srv_name(v, run[0].group, who, sizeof(who)), buf_str(&b));
	buf_release(&b);
}

static void dup_ip(struct rt__ctx *c, const struct rt__item *run, size_t k, void *arg)
{
	struct v1 *v = arg;
	char p[RT_PATHLEN], tb[32];
	struct buf b = BUF_INIT(RT_MSG_MAX);
	list_devs(v, run, k, &b, 1);
	rt__report(c, "device-ip-duplicate", dev_ip(v, run[1].idx), 0,
		   dev_path(v, run[1].idx, "device_ip", p), nic_hint,
		   "device_ip \"%s\" is used %s: %s", run[0].s, times(k, tb, sizeof(tb)),
		   buf_str(&b));
	buf_release(&b);
}

static void dup_hport(struct rt__ctx *c, const struct rt__item *run, size_t k, void *arg)
{
	struct v1 *v = arg;
	char p[RT_PATHLEN], tb[32], who[160];
	struct buf b = BUF_INIT(RT_MSG_MAX);
	list_devs(v, run, k, &b, 0);
	rt__report(c, "host-port-duplicate", dev_hport(v, run[1].idx), 0,
		   dev_path(v, run[1].idx, "host_port", p),
		   "give each device of a server its own host_port",
		   "host_port \"%ld\" is used %s on %s: %s", run[0].n, times(k, tb, sizeof(tb)),
		   srv_name(v, run[0].group, who, sizeof(who)), buf_str(&b));
	buf_release(&b);
}

static void dup_sdid(struct rt__ctx *c, const struct rt__item *run, size_t k, void *arg)
{
	struct v1 *v = arg;
	char p[RT_PATHLEN], tb[32];
	struct buf b = BUF_INIT(RT_MSG_MAX);
	const struct srv *s = &v->srv[v->dev[run[0].idx].srv];
	list_devs(v, run, k, &b, 1);
	if (s->pod_id)
		rt__report(c, "super-device-id-duplicate", dev_sdid(v, run[1].idx), 0,
			   dev_path(v, run[1].idx, "super_device_id", p),
			   "take each NPU's SDID from 'npu-smi info -t spod-info' on its server",
			   "super_device_id \"%ld\" is used %s in super pod \"%s\": %s", run[0].n,
			   times(k, tb, sizeof(tb)), s->pod_id, buf_str(&b));
	else
		rt__report(c, "super-device-id-duplicate", dev_sdid(v, run[1].idx), 0,
			   dev_path(v, run[1].idx, "super_device_id", p),
			   "take each NPU's SDID from 'npu-smi info -t spod-info' on its server",
			   "super_device_id \"%ld\" is used %s: %s", run[0].n,
			   times(k, tb, sizeof(tb)), buf_str(&b));
	buf_release(&b);
}

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;
	return (x > y) - (x < y);
}

static int check_ranks(struct v1 *v, const struct rt__jnode *list)
{
	struct rt__ctx *c = v->c;
	struct rt_table *t = c->t;
	size_t n = t->nranks, m = 0;
	char p[RT_PATHLEN], who[320];
	struct rt__item *it = big_malloc((n ? n : 1) * sizeof(*it));
	unsigned char *seen = calloc(n ? n : 1, 1);
	long *ids = malloc((n ? n : 1) * sizeof(*ids));
	size_t ndiag = c->d->n;
	int rc = -ENOMEM, bad_ids = 0;
	if (!it || !seen || !ids)
		goto out;

	for (size_t i = 0; i < n; i++) {
		long r = t->ranks[i].rank_id;
		if (r < 0) {
			bad_ids = 1;
			continue;
		}
		it[m++] = (struct rt__item){ 0, NULL, r, i };
		if ((size_t)r < n)
			seen[r] = 1;
		else if ((bad_ids = 1))
			rt__report(c, "rank-id-range", dev_member(v, i, "rank_id"), 0,
				   dev_path(v, i, "rank_id", p),
				   "number the ranks 0..N-1 without gaps",
				   "rank_id \"%ld\" of %s is out of range: %zu ranks need ids 0..%zu",
				   r, dev_where(v, i, who, sizeof(who)), n, n - 1);
	}
	rc = rt__dups(it, m, dup_rank, c, v);
	if (rc)
		goto out;
	bad_ids |= c->d->n != ndiag;

	/* Only a gap that is not explained by a bad id elsewhere is worth a finding, but a
	 * duplicate or out-of-range id always leaves one, and naming it helps. */
	size_t nmiss = 0;
	for (size_t r = 0; r < n; r++)
		if (!seen[r])
			ids[nmiss++] = (long)r;
	if (nmiss && m == n) {
		struct buf b = BUF_INIT(RT_MSG_MAX);
		rt__sb_ranges(&b, ids, nmiss, 16);
		rt__report(c, "rank-id-gap", list, 0, rt__path(p, "%s.server_list", v->p->base),
			   "number the ranks 0..N-1 without gaps",
			   "rank ids must be 0..%zu without gaps; missing %s", n - 1, buf_str(&b));
		buf_release(&b);
	}

	if (bad_ids)
		goto done;
	/* Interleaving: each server's ids should form one run (doc: {0,1,2,7},{3,4,5,6} is
	 * wrong). Sorting per server costs O(n log n) overall. */
	for (size_t s = 0; s < t->nservers; s++) {
		const struct rt_server *S = &t->servers[s];
		size_t k = 0;
		for (size_t i = S->first_rank; i < S->first_rank + S->nranks; i++)
			if (t->ranks[i].rank_id >= 0)
				ids[k++] = t->ranks[i].rank_id;
		if (k < 2)
			continue;
		qsort(ids, k, sizeof(*ids), cmp_long);
		if ((size_t)(ids[k - 1] - ids[0]) + 1 == k)
			continue;
		int dup = 0;
		for (size_t j = 1; j < k; j++)
			dup |= ids[j] == ids[j - 1];
		if (dup)
			continue;
		struct buf b = BUF_INIT(RT_MSG_MAX);
		rt__sb_ranges(&b, ids, k, 8);
		rt__report(c, "rank-id-interleaved", v->srv[s].obj, 0,
			   rt__path(p, "%s.server_list[%zu]", v->p->base, v->srv[s].si),
			   "number ranks server by server: the first server gets 0..7, the next "
			   "8..15, and so on",
			   "%s has rank ids %s, not one contiguous run; ranks interleaved across "
			   "servers slow down HCCL",
			   srv_name(v, s, who, sizeof(who)), buf_str(&b));
		buf_release(&b);
	}
done:
	rc = 0;
out:
	free(ids);
	free(seen);
	free(it);
	return rc;
}

static int check_devices(struct v1 *v)
{
	struct rt__ctx *c = v->c;
	struct rt_table *t = c->t;
	size_t n = t->nranks, m = 0;
	char p[RT_PATHLEN], w1[320], w2[320];
	struct rt__item *it = big_malloc((n ? n : 1) * 4 * sizeof(*it));
	int rc = -ENOMEM;
	if (!it)
		return rc;

	for (size_t i = 0; i < n; i++)
		if (t->ranks[i].device_id >= 0)
			it[m++] = (struct rt__item){ v->dev[i].srv, NULL, t->ranks[i].device_id, i };
	rc = rt__dups(it, m, dup_devid, c, v);
	if (rc)
		goto out;

	/* device IPs: unique over the whole table, each address of a list counted. */
	m = 0;
	size_t cap = 4 * n;
	for (size_t i = 0; i < n; i++) {
		const struct dev *d = &v->dev[i];
		if (!d->nips)
			continue;
		if (d->nips == 1) {
			if (m < cap)
				it[m++] = (struct rt__item){ 0, t->ranks[i].device_ip, 0, i };
			continue;
		}
		if (!d->iplist)
			continue;
		const char *q = d->iplist;
		for (int j = 0; j < d->nips; j++, q += strlen(q) + 1) {
			if (m == cap) {
				struct rt__item *nit = realloc(it, 2 * cap * sizeof(*it));
				if (!nit)
					goto out;
				it = nit;
				cap *= 2;
			}
			it[m++] = (struct rt__item){ 0, q, 0, i };
		}
	}
	rc = rt__dups(it, m, dup_ip, c, v);
	if (rc)
		goto out;

	/* Every device lists as many addresses as the first one, all of one family. */
	size_t first = n, famfirst = n;
	for (size_t i = 0; i < n; i++) {
		const struct dev *d = &v->dev[i];
		if (!d->nips)
			continue;
		if (first == n)
			first = i;
		else if (d->nips != v->dev[first].nips)
			rt__report(
				c, "device-ip-count", dev_ip(v, i), 0,
				dev_path(v, i, "device_ip", p),
				"give every device the same number of comma-separated IPs",
				"device_ip of %s lists %d address%s but %s lists %d; every device "
				"must list the same number",
				dev_who(v, i, w1, sizeof(w1)), d->nips, d->nips == 1 ? "" : "es",
				dev_who(v, first, w2, sizeof(w2)), v->dev[first].nips);
		if (famfirst == n) {
			famfirst = i;
		} else if (d->fam != v->dev[famfirst].fam) {
			rt__report(c, "ip-family-mixed", dev_ip(v, i), 0,
				   dev_path(v, i, "device_ip", p),
				   "use IPv4 for every device or IPv6 for every device",
				   "device_ip \"%s\" of %s is %s but %s uses %s; HCCL needs one "
				   "address family for all ranks",
				   t->ranks[i].device_ip, dev_who(v, i, w1, sizeof(w1)),
				   d->fam == AF_INET ? "IPv4" : "IPv6",
				   dev_who(v, famfirst, w2, sizeof(w2)),
				   d->fam == AF_INET ? "IPv6" : "IPv4");
			famfirst = i; /* report each switch once, not every later rank */
		}
	}

	/* host_port: unique per server. */
	m = 0;
	for (size_t i = 0; i < n; i++) {
		long port = dec_value(dev_member(v, i, "host_port"), 65535);
		if (port > 0)
			it[m++] = (struct rt__item){ v->dev[i].srv, NULL, port, i };
	}
	rc = rt__dups(it, m, dup_hport, c, v);
	if (rc)
		goto out;

	/* super_device_id: unique per super pod (group = pod index + 1, 0 = no pod). */
	m = 0;
	for (size_t i = 0; i < n; i++)
		if (t->ranks[i].super_device_id >= 0)
			it[m++] = (struct rt__item){ (size_t)(v->srv[v->dev[i].srv].pod + 1), NULL,
						     t->ranks[i].super_device_id, i };
	rc = rt__dups(it, m, dup_sdid, c, v);
out:
	free(it);
	return rc;
}

static void check_servers(struct v1 *v)
{
	struct rt__ctx *c = v->c;
	struct rt_table *t = c->t;
	char p[RT_PATHLEN], w1[160], w2[160];
	size_t with = 0, first_with = 0;

	for (size_t s = 0; s < t->nservers; s++)
		if (t->servers[s].host_ip && !with++)
			first_with = s;
	if (with && with < t->nservers)
		for (size_t s = 0; s < t->nservers; s++)
			if (!t->servers[s].host_ip)
				rt__report(c, "host-ip-partial", v->srv[s].obj, 0,
					   rt__path(p, "%s.server_list[%zu].host_ip", v->p->base,
						    v->srv[s].si),
					   "set host_ip on every server, or on none",
					   "%s has no host_ip but %s has one; HCCL needs it on all "
					   "servers or none",
					   srv_name(v, s, w1, sizeof(w1)),
					   srv_name(v, first_with, w2, sizeof(w2)));

	/* Uneven device counts: HCCL skips its equal-count check on A2/A3 but the doc says
	 * they degrade performance. Compared with the first server that has devices. */
	size_t ref = t->nservers;
	for (size_t s = 0; s < t->nservers; s++) {
		if (!t->servers[s].nranks)
			continue;
		if (ref == t->nservers) {
			ref = s;
			continue;
		}
		if (t->servers[s].nranks != t->servers[ref].nranks)
			rt__report(c, "device-count-uneven", v->srv[s].obj, 0,
				   rt__path(p, "%s.server_list[%zu].device", v->p->base,
					    v->srv[s].si),
				   "use the same number of NPUs on every server",
				   "%s has %zu device%s but %s has %zu; uneven device counts per "
				   "server degrade HCCL performance",
				   srv_name(v, s, w1, sizeof(w1)), t->servers[s].nranks,
				   plural_s(t->servers[s].nranks),
				   srv_name(v, ref, w2, sizeof(w2)), t->servers[ref].nranks);
	}
}

/* ---- super_pod_list (1.2) ---- */

struct sid {
	const char *id;
	size_t s;
};

static int cmp_sid(const void *a, const void *b)
{
	const struct sid *x = a, *y = b;
	int r = strcmp(x->id, y->id);
	return r ? r : (x->s > y->s) - (x->s < y->s);
}

struct pod_ids {
	const struct v1 *v;
	const struct rt__jnode **ids;
};

static void dup_pod(struct rt__ctx *c, const struct rt__item *run, size_t k, void *arg)
{
	const struct pod_ids *pi = arg;
	char p[RT_PATHLEN];
	(void)k;
	rt__report(c, "super-pod-id-duplicate", pi->ids[run[1].idx], 0,
		   rt__path(p, "%s.super_pod_list[%zu].super_pod_id", pi->v->p->base, run[1].idx),
		   "merge the two entries, or give each super pod its own id",
		   "super_pod_id \"%s\" is used twice: super_pod_list[%zu] and super_pod_list[%zu]",
		   run[0].s, run[0].idx, run[1].idx);
}

/* The servers of super pod pi (its entry at path, named who, its id id), each the name of a
 * server of server_list (byid: their ids, sorted, nk of them) and in no other pod. */
static void pod_servers(struct v1 *v, const struct rt__jnode *sl, size_t pi, const char *path,
			const char *who, const char *id, const struct sid *byid, size_t nk)
{
	struct rt__ctx *c = v->c;
	char p[RT_PATHLEN];
	size_t k = 0;
	for (const struct rt__jnode *r = rt__jchild(sl); r; r = rt__jnext(r), k++) {
		char rp[RT_PATHLEN];
		rt__path(rp, "%s.server_list[%zu]", path, k);
		if (!rt__jis_obj(r)) {
			rt__report(c, "value-type", r, 0, rp, NULL,
				   "%s server_list[%zu] must be an object, not %s", who, k, rt__type(r));
			continue;
		}
		rt__unknown_keys(c, r, rp, pod_srv_keys);
		const struct rt__jnode *sn;
		const char *sid = rt__str_field(c, r, "server_id", rp, who, RT_STR_QUOTE, &sn);
		if (!sn)
			missing(c, r, rp, "server_id", who, NULL);
		if (!sid)
			continue;
		size_t lo = 0, hi = nk;
		while (lo < hi) {
			size_t mid = (lo + hi) / 2;
			if (strcmp(byid[mid].id, sid) < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		rt__path(p, "%s.server_id", rp);
		if (lo == nk || strcmp(byid[lo].id, sid)) {
			rt__report(c, "super-pod-server-unknown", sn, 0, p,
				   "add the server to server_list, or fix the name",
				   "server_id \"%s\" in super pod \"%s\" is not in server_list", sid,
				   id ? id : "?");
			continue;
		}
		struct srv *X = &v->srv[byid[lo].s];
		if (X->pod >= 0) {
			rt__report(c, "super-pod-server-duplicate", sn, 0, p,
				   "list each server in exactly one super pod",
				   "server \"%s\" is listed in super_pod_list[%ld] and again in "
				   "super_pod_list[%zu]",
				   sid, X->pod, pi);
			continue;
		}
		X->pod = (long)pi;
		X->pod_id = id;
	}
}

/* Entry pi of super_pod_list: its keys, its id (kept in podids[pi] and it[*m] for the check
 * of duplicates) and its servers. */
static void pod_entry(struct v1 *v, const struct rt__jnode *e, size_t pi, const struct sid *byid,
		      size_t nk, const struct rt__jnode **podids, struct rt__item *it, size_t *m)
{
	struct rt__ctx *c = v->c;
	char path[RT_PATHLEN], p[RT_PATHLEN], who[160];
	rt__path(path, "%s.super_pod_list[%zu]", v->p->base, pi);
	snprintf(who, sizeof(who), "super_pod_list[%zu]", pi);
	if (!rt__object_at(c, e, path, who))
		return;
	rt__unknown_keys(c, e, path, pod_keys);
	const struct rt__jnode *idn;
	const char *id = rt__str_field(c, e, "super_pod_id", path, who, RT_STR_QUOTE, &idn);
	if (!idn)
		missing(c, e, path, "super_pod_id", who,
			"the Super Pod ID from 'npu-smi info -t spod-info', or your own name");
	else if (id && !*id)
		rt__report(c, "super-pod-id-invalid", idn, 0, rt__path(p, "%s.super_pod_id", path),
			   "the Super Pod ID from 'npu-smi info -t spod-info', or your own name",
			   "super_pod_id of %s is empty", who);
	if (id && *id) {
		podids[pi] = idn;
		it[(*m)++] = (struct rt__item){ 0, id, 0, pi };
	}
	const struct rt__jnode *sl = rt__jget(e, "server_list");
	if (!sl) {
		missing(c, e, path, "server_list", who, "list the pod's servers by server_id");
		return;
	}
	if (!rt__jis_arr(sl)) {
		rt__report(c, "value-type", sl, 0, rt__path(p, "%s.server_list", path), NULL,
			   "server_list of %s must be an array, not %s", who, rt__type(sl));
		return;
	}
	pod_servers(v, sl, pi, path, who, id, byid, nk);
}

/* Every server in a pod, and each pod's servers listed together (doc rule). */
static int pods_together(struct v1 *v, size_t npods)
{
	struct rt__ctx *c = v->c;
	char p[RT_PATHLEN], who[160];
	long prev = -1;
	unsigned char *done = calloc(npods ? npods : 1, 1);
	if (!done)
		return -ENOMEM;
	for (size_t s = 0; s < c->t->nservers; s++) {
		struct srv *X = &v->srv[s];
		rt__path(p, "%s.server_list[%zu]", v->p->base, X->si);
		if (X->pod < 0) {
			rt__report(c, "super-pod-server-missing", X->obj, 0, p,
				   "add the server to the super_pod_list entry of its super pod",
				   "%s is in no super pod of super_pod_list",
				   srv_name(v, s, who, sizeof(who)));
			continue;
		}
		if (X->pod == prev)
			continue;
		if (done[X->pod])
			rt__report(c, "super-pod-interleaved", X->obj, 0, p,
				   "list the servers of one super pod together in server_list",
				   "%s of super pod \"%s\" comes after servers of another super pod; "
				   "super pods must not be interleaved in server_list",
				   srv_name(v, s, who, sizeof(who)), X->pod_id ? X->pod_id : "?");
		if (prev >= 0)
			done[prev] = 1;
		prev = X->pod;
	}
	free(done);
	return 0;
}

static int check_pods(struct v1 *v, const struct rt__jnode *pods)
{
	struct rt__ctx *c = v->c;
	struct rt_table *t = c->t;
	char p[RT_PATHLEN];
	size_t ns = t->nservers, npods = 0, nk = 0, m = 0, pi = 0;
	int rc = -ENOMEM;

	if (!rt__jis_arr(pods)) {
		rt__report(c, "value-type", pods, 0, rt__path(p, "%s.super_pod_list", v->p->base),
			   NULL, "super_pod_list must be an array, not %s", rt__type(pods));
		return 0;
	}
	for (const struct rt__jnode *e = rt__jchild(pods); e; e = rt__jnext(e))
		npods++;
	struct sid *byid = malloc((ns ? ns : 1) * sizeof(*byid));
	const struct rt__jnode **podids = calloc(npods ? npods : 1, sizeof(*podids));
	struct rt__item *it = malloc((npods ? npods : 1) * sizeof(*it));
	if (!byid || !podids || !it)
		goto out;
	for (size_t s = 0; s < ns; s++)
		if (t->servers[s].server_id)
			byid[nk++] = (struct sid){ t->servers[s].server_id, s };
	qsort(byid, nk, sizeof(*byid), cmp_sid);
	for (const struct rt__jnode *e = rt__jchild(pods); e; e = rt__jnext(e), pi++)
		pod_entry(v, e, pi, byid, nk, podids, it, &m);
	struct pod_ids ids = { v, podids };
	if ((rc = rt__dups(it, m, dup_pod, c, &ids)) || (rc = pods_together(v, npods)))
		goto out;
	for (size_t i = 0; i < t->nranks; i++)
		if (!t->ranks[i].super_pod_id)
			t->ranks[i].super_pod_id = v->srv[v->dev[i].srv].pod_id;
	rc = 0;
out:
	free(it);
	free(podids);
	free(byid);
	return rc;
}

/* True when all servers are in one super pod: A3 then talks over the VNIC and device_ip
 * may be left out (the A3 rank-table page of the HCCL guide, device_ip row). */
static int one_pod(const struct rt__jnode *pods)
{
	return rt__jis_arr(pods) && rt__jchild(pods) && !rt__jnext(rt__jchild(pods));
}

/* server_count: optional, but when there it must match the nlist servers listed; absent is
 * HCCL's warning. */
static void server_count(struct rt__ctx *c, const struct rt__v1_part *part, size_t nlist,
			 const char *of)
{
	const struct rt__jnode *obj = part->obj, *cnt = NULL;
	const char *base = part->base, *who = part->who;
	char p[RT_PATHLEN], hint[80];
	const char *cs = rt__str_field(c, obj, "server_count", base, who, RT_STR_QUOTE, &cnt);
	if (!cnt && !part->offline) {
		rt__report(c, "server-count-missing", obj, 0,
			   rt__path(p, "%s.server_count", base),
			   "add \"server_count\" with the number of servers",
			   "no \"server_count\"%s; HCCL warns and uses the %zu server%s in "
			   "server_list",
			   of, nlist, plural_s(nlist));
	} else if (cs || rt__jis_num(cnt)) {
		long n = dec_value(cnt, 0xffffffffUL);
		char nb[64];
		rt__path(p, "%s.server_count", base);
		if (n < 0)
			rt__report(c, "server-count-invalid", cnt, 0, p,
				   "the number of servers in server_list, as a string",
				   "server_count \"%s\" is not a decimal number",
				   cs ? cs : rt__fmt_num(nb, sizeof(nb), rt__jnum(cnt)));
		else if (n == 0)
			rt__report(c, "server-count-zero", cnt, 0, p, "list at least one server",
				   "server_count is \"0\"; HCCL needs at least one server");
		else if ((size_t)n != nlist) {
			snprintf(hint, sizeof(hint), "set \"server_count\": \"%zu\"", nlist);
			rt__report(c, "server-count-mismatch", cnt, 0, p, hint,
				   "server_count \"%ld\" does not match the %zu servers in "
				   "server_list",
				   n, nlist);
		}
	}
}

/* Two servers of the table with one server_id. */
static int dup_server_ids(struct v1 *v, size_t nsrv)
{
	const struct rt_table *t = v->c->t;
	struct rt__item *it = malloc((nsrv ? nsrv : 1) * sizeof(*it));
	if (!it)
		return -ENOMEM;
	size_t m = 0;
	for (size_t s = 0; s < t->nservers; s++)
		if (t->servers[s].server_id && *t->servers[s].server_id)
			it[m++] = (struct rt__item){ 0, t->servers[s].server_id, 0, s };
	int rc = rt__dups(it, m, dup_server, v->c, v);
	free(it);
	return rc;
}

int rt__check_servers(struct rt__ctx *c, const struct rt__v1_part *part)
{
	struct rt_table *t = c->t;
	const struct rt__jnode *obj = part->obj;
	const char *base = part->base, *who = part->who;
	char p[RT_PATHLEN], of[96] = "";
	struct v1 v = { .c = c, .p = part, .v12 = part->v12 };
	size_t nsrv, ndev;
	int rc = 0, single = c->single;

	if (strcmp(base, "$"))
		snprintf(of, sizeof(of), " of %s", who);

	rt__unknown_keys(c, obj, base, part->keys);
	const struct rt__jnode *list = rt__jget(obj, "server_list");
	const struct rt__jnode *pods = rt__jget(obj, "super_pod_list");
	if (!list) {
		missing(c, obj, base, "server_list", who, "list the servers in server_list");
		return 0;
	}
	if (!rt__jis_arr(list)) {
		rt__report(c, "value-type", list, 0, rt__path(p, "%s.server_list", base), NULL,
			   "server_list%s must be an array, not %s", of, rt__type(list));
		return 0;
	}
	count(list, &nsrv, &ndev);
	t->servers = calloc(nsrv ? nsrv : 1, sizeof(*t->servers));
	t->ranks = big_calloc(ndev ? ndev : 1, sizeof(*t->ranks));
	v.srv = calloc(nsrv ? nsrv : 1, sizeof(*v.srv));
	v.dev = big_calloc(ndev ? ndev : 1, sizeof(*v.dev));
	if (!t->servers || !t->ranks || !v.srv || !v.dev) {
		rc = -ENOMEM;
		goto out;
	}

	size_t nlist = 0;
	for (const struct rt__jnode *e = rt__jchild(list); e; e = rt__jnext(e))
		nlist++;
	server_count(c, part, nlist, of);
	if (!nlist)
		rt__report(c, "server-list-empty", list, 0, rt__path(p, "%s.server_list", base),
			   "list the servers and their devices", "server_list%s is empty", of);

	if (pods && !v.v12)
		rt__report(c, "v12-key-in-v10", pods, 1, rt__path(p, "%s.super_pod_list", base),
			   "set \"version\": \"1.2\" for super-pod mode, or remove it",
			   "super_pod_list belongs to version 1.2 (super pods); this table says "
			   "version \"1.0\"");
	if (v.v12 && !pods && nlist)
		rt__report(c, "super-pod-list-missing", obj, 0,
			   rt__path(p, "%s.super_pod_list", base),
			   "HCCL's A3 guide makes it optional: without it every server is in "
			   "AI-server mode; add it for super-pod mode",
			   "version \"1.2\" table has no super_pod_list");

	/* Nothing crosses between servers in a table of one: placeholders only warn. */
	c->single = (part->nservers_all ? part->nservers_all : nsrv) <= 1;
	int multi = nsrv > 1 && !(v.v12 && one_pod(pods)) && !part->offline;
	size_t si = 0;
	for (const struct rt__jnode *sv = rt__jchild(list); sv; sv = rt__jnext(sv), si++) {
		if (!rt__jis_obj(sv)) {
			rt__report(c, "value-type", sv, 0,
				   rt__path(p, "%s.server_list[%zu]", base, si), NULL,
				   "server_list[%zu] must be an object, not %s", si, rt__type(sv));
			continue;
		}
		server_pass(&v, sv, si, multi);
	}

	if ((rc = dup_server_ids(&v, nsrv)))
		goto out;

	if (pods && v.v12) {
		rc = check_pods(&v, pods);
		if (rc)
			goto out;
	}
	rc = check_ranks(&v, list);
	if (!rc)
		rc = check_devices(&v);
	if (!rc)
		check_servers(&v);
out:
	c->single = single;
	if (v.dev)
		for (size_t i = 0; i < t->nranks; i++)
			free(v.dev[i].iplist);
	free(v.dev);
	free(v.srv);
	return rc;
}

int rt__load_v1(struct rt__ctx *c, int v12)
{
	struct rt__v1_part part = { c->root, "$", "the table", top_keys_v1, NULL, NULL,
				    v12,     0,	  0,	       0,	    0 };
	rt__check_status(c, c->root, 1);
	return rt__check_servers(c, &part);
}
