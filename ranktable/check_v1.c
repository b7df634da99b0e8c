/* Versions 1.0 and 1.2: server_list[].device[] with string values, as the HCCL user guide's
 * rank-table pages describe them (Atlas 910/A2 and A3 super-pod layouts). The same checks
 * run on each group of a MindCluster global rank table, whose groups hold hccl.json's
 * server_list. This file: the pass over server_list that builds the model and checks single
 * values, and the entry points. */
#include <errno.h>
#include <math.h>
#include <sys/socket.h>

#include "ranktable/check_v1.h"
#include "ranktable/base/bigmem.h"
#include "ranktable/base/plural.h"

#define SERVERID_MAX 64	 /* HCCL's SERVERID_MAX_LENGTH */
#define DEVICE_ID_MAX 15 /* maxDeviceNum 16 on 910B/910_93 */

static const char *const srv_keys[] = {"server_id",   "device",	      "host_ip",
				       "host_nic_ip", "container_ip", "hardware_type",
				       "pod_ip",      "server_ip",    NULL};
static const char *const dev_keys[] = {
	"device_id",	"device_ip",	   "rank_id",	       "device_port",
	"host_port",	"super_device_id", "backup_device_ip", "backup_device_port",
	"net_position", "net_protocol",	   "super_pod_id",     "rack_id",
	"server_id",	"dpu_ip",	   "numa_id",	       NULL};
static const char *const top_keys_v1[] = {
	"status",	  "version",	   "server_count", "server_list",
	"super_pod_list", "IsMindIEEPJob", "cluster_list", NULL};

static void check_port(struct rt__ctx *c, const struct rt__jnode *obj, const char *key,
		       const char *path, const char *who)
{
	char p[RT_PATHLEN];
	const struct rt__jnode *m;
	const char *s = rt__str_field(c, obj, key, path, who, RT_STR_QUOTE, &m);
	if (!m)
		return;
	long v = rt__v1_dec_value(m, 65535);
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
			rt__report(c, "device-ip-empty", m, 0, path, rt__v1_nic_hint,
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
			rt__report(
				c, "device-ip-placeholder", m, 0, path, rt__v1_nic_hint,
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
			rt__report(c, "device-ip-hostname", m, 0, path, rt__v1_nic_hint,
				   "%s \"%.*s\" of %s is a host name; HCCL needs the literal IP of "
				   "the NPU's own NIC",
				   key, n, s + i, who);
			return;
		case RT_IP_EMPTY:
		case RT_IP_INVALID:
			rt__report(c, "device-ip-invalid", m, 0, path, rt__v1_nic_hint,
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
		check_ips(c, m, "device_ip", rt__path_at(p, path, ".device_ip", RT_NO_IDX), who,
			  multi, &d->nips, &d->fam);
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
		rt__report(c, "device-ip-missing", e, 0,
			   rt__path_at(p, path, ".device_ip", RT_NO_IDX), rt__v1_nic_hint,
			   "%s has no device_ip; HCCL requires it when there is more than one "
			   "server",
			   who);
	}
	s = rt__str_field(c, e, "backup_device_ip", path, who, RT_STR_QUOTE, &m);
	if (s) {
		int n, f;
		check_ips(c, m, "backup_device_ip",
			  rt__path_at(p, path, ".backup_device_ip", RT_NO_IDX), who, 0, &n, &f);
	}
}

/* The super pod's keys of rank r (entry e at path, named who): super_device_id (the SDID from
 * npu-smi info -t spod-info, a decimal u32, version 1.2 only), super_pod_id, and ClusterD's
 * device_logical_id. */
static void dev_super(struct v1 *v, struct rt_rank *r, const struct rt__jnode *e, const char *path,
		      const char *who)
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
		r->super_device_id = rt__v1_dec_value(m, 0xffffffffUL);
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
		if (s && rt__v1_dec_value(m, 0xffffffffUL) < 0)
			rt__report(c, "device-id-invalid", m, 0,
				   rt__path(p, "%s.device_logical_id", path),
				   "the device's index on its server: \"0\", \"1\", ...",
				   "device_logical_id \"%s\" of %s is not a decimal number", s,
				   who);
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
	r->rank_id = rt__v1_dec_value(rt__jget(e, "rank_id"), 0xffffffffUL);
	r->device_id = rt__v1_dec_value(rt__jget(e, "device_id"), 0xffffffffUL);
	r->super_device_id = -1;
	r->device_port = -1;
	rt__v1_dev_who_at(v, i, rt__v1_dev_where_in(v, i, v->sname, where, sizeof(where)), who,
			  sizeof(who));
	rt__path_at(path, v->spath, ".device", di);

	rt__unknown_keys(c, e, path, v->p->dev_keys ? v->p->dev_keys : dev_keys);

	/* rank_id */
	s = rt__str_field(c, e, "rank_id", path, where, RT_STR_QUOTE, &m);
	if (!m)
		rt__v1_missing(c, e, path, "rank_id", where, "number the ranks 0..N-1, as strings");
	else if (s && r->rank_id < 0)
		rt__report(c, "rank-id-invalid", m, 0, rt__path(p, "%s.rank_id", path),
			   "rank ids are decimal strings \"0\"..\"N-1\"",
			   "rank_id \"%s\" of %s is not a decimal number", s, where);

	/* device_id */
	s = rt__str_field(c, e, "device_id", path, who, RT_STR_QUOTE, &m);
	if (!m) {
		rt__v1_missing(c, e, path, "device_id", who,
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
	r->device_port = rt__v1_dec_value(m, 65535);

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
		rt__report(
			c, "server-id-placeholder", m, 0, path,
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
	rt__v1_srv_name(v, t->nservers - 1, who, sizeof(who));
	rt__path_at(path, v->p->base, ".server_list", si);
	memcpy(v->spath, path, sizeof(path));
	rt__unknown_keys(c, sv, path, v->p->srv_keys ? v->p->srv_keys : srv_keys);

	s = rt__str_field(c, sv, "server_id", path, who, RT_STR_QUOTE, &m);
	if (!m) {
		rt__v1_missing(c, sv, path, "server_id", who,
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
	rt__v1_srv_name(v, t->nservers - 1, v->sname, sizeof(v->sname));
	const struct rt__jnode *devs = rt__jget(sv, "device");
	rt__path(p, "%s.device", path);
	if (!devs && v->p->devices_optional) {
		/* ClusterD's coordinator and controller groups: servers without NPUs */
	} else if (!devs) {
		rt__v1_missing(c, sv, path, "device", who,
			       "list the server's NPUs in \"device\": [...]");
	} else if (!rt__jis_arr(devs)) {
		rt__report(c, "value-type", devs, 0, p, NULL,
			   "device of %s must be an array, not %s", who, rt__type(devs));
	} else if (!rt__jchild(devs)) {
		rt__report(c, "device-list-empty", devs, 0, p,
			   "list the server's NPUs, or remove the server", "%s has no devices",
			   who);
	} else {
		size_t di = 0;
		for (const struct rt__jnode *e = rt__jchild(devs); e; e = rt__jnext(e), di++) {
			if (!rt__jis_obj(e)) {
				char q[RT_PATHLEN];
				rt__report(c, "value-type", e, 0, rt__path(q, "%s[%zu]", p, di),
					   NULL, "device[%zu] of %s must be an object, not %s", di,
					   who, rt__type(e));
				continue;
			}
			device_pass(v, e, di, multi);
		}
	}
	S->nranks = t->nranks - S->first_rank;
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
		rt__report(c, "server-count-missing", obj, 0, rt__path(p, "%s.server_count", base),
			   "add \"server_count\" with the number of servers",
			   "no \"server_count\"%s; HCCL warns and uses the %zu server%s in "
			   "server_list",
			   of, nlist, plural_s(nlist));
	} else if (cs || rt__jis_num(cnt)) {
		long n = rt__v1_dec_value(cnt, 0xffffffffUL);
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
			it[m++] = (struct rt__item){0, t->servers[s].server_id, 0, s};
	int rc = rt__dups(it, m, rt__v1_dup_server, v->c, v);
	free(it);
	return rc;
}

int rt__check_servers(struct rt__ctx *c, const struct rt__v1_part *part)
{
	struct rt_table *t = c->t;
	const struct rt__jnode *obj = part->obj;
	const char *base = part->base, *who = part->who;
	char p[RT_PATHLEN], of[96] = "";
	struct v1 v = {.c = c, .p = part, .v12 = part->v12};
	size_t nsrv, ndev;
	int rc = 0, single = c->single;

	if (strcmp(base, "$"))
		snprintf(of, sizeof(of), " of %s", who);

	rt__unknown_keys(c, obj, base, part->keys);
	const struct rt__jnode *list = rt__jget(obj, "server_list");
	const struct rt__jnode *pods = rt__jget(obj, "super_pod_list");
	if (!list) {
		rt__v1_missing(c, obj, base, "server_list", who, "list the servers in server_list");
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
	int multi = nsrv > 1 && !(v.v12 && rt__v1_one_pod(pods)) && !part->offline;
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
		rc = rt__v1_check_pods(&v, pods);
		if (rc)
			goto out;
	}
	rc = rt__v1_check_ranks(&v, list);
	if (!rc)
		rc = rt__v1_check_devices(&v);
	if (!rc)
		rt__v1_check_servers(&v);
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
	struct rt__v1_part part = {c->root, "$", "the table", top_keys_v1, NULL, NULL,
				   v12,	    0,	 0,	      0,	   0};
	rt__check_status(c, c->root, 1);
	return rt__check_servers(c, &part);
}
