/* Versions 1.0 and 1.2: how a finding names a server or a device ("server "node_0" device
 * 1", a rank and its path) and reads a device's members again, for the pass over
 * server_list (check_v1.c), the checks across ranks (check_v1_dup.c) and super_pod_list
 * (check_v1_pod.c). */
#include <math.h>

#include "ranktable/check_v1.h"

const char *const rt__v1_nic_hint =
	"use the NPU NIC IP of that device: 'hccn_tool -i N -ip -g' on the server, or "
	"address_N in /etc/hccn.conf";

/* "server "node_0"" or "server_list[1]" */
const char *rt__v1_srv_name(const struct v1 *v, size_t s, char *buf, size_t len)
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
const char *rt__v1_dev_where_in(const struct v1 *v, size_t i, const char *s, char *buf, size_t len)
{
	const struct rt_rank *r = &v->c->t->ranks[i];
	size_t at = rt__put(buf, len, 0, s);
	if (r->device_id >= 0) {
		at = rt__put(buf, len, at, " device ");
		rt__put_num(buf, len, at, r->device_id);
	} else {
		at = rt__put(buf, len, at, " device[");
		at = rt__put_num(buf, len, at, (long)v->dev[i].di);
		rt__put(buf, len, at, "]");
	}
	return buf;
}

/* Device i's member key, which device_pass read. */
const struct rt__jnode *rt__v1_dev_member(const struct v1 *v, size_t i, const char *key)
{
	return rt__jget(v->dev[i].obj, key);
}

/* Its device_ip when a string, its host_port and super_device_id when valid numbers. */
const struct rt__jnode *rt__v1_dev_ip(const struct v1 *v, size_t i)
{
	const struct rt__jnode *m = rt__v1_dev_member(v, i, "device_ip");
	return rt__jis_str(m) ? m : NULL;
}

const struct rt__jnode *rt__v1_dev_hport(const struct v1 *v, size_t i)
{
	const struct rt__jnode *m = rt__v1_dev_member(v, i, "host_port");
	return rt__v1_dec_value(m, 65535) > 0 ? m : NULL;
}

const struct rt__jnode *rt__v1_dev_sdid(const struct v1 *v, size_t i)
{
	const struct rt__jnode *m = rt__v1_dev_member(v, i, "super_device_id");
	return rt__v1_dec_value(m, 0xffffffffUL) >= 0 ? m : NULL;
}

const char *rt__v1_dev_where(const struct v1 *v, size_t i, char *buf, size_t len)
{
	char s[128];
	return rt__v1_dev_where_in(v, i, rt__v1_srv_name(v, v->dev[i].srv, s, sizeof(s)), buf, len);
}

/* "rank "3" (server "node_0" device 1)", w being dev_where's words */
const char *rt__v1_dev_who_at(const struct v1 *v, size_t i, const char *w, char *buf, size_t len)
{
	const struct rt__jnode *rk = rt__v1_dev_member(v, i, "rank_id");
	size_t at = 0;
	if (rt__jis_str(rk)) {
		at = rt__put(buf, len, rt__put(buf, len, 0, "rank \""), rt__jstr(rk));
		at = rt__put(buf, len, at, "\" (");
	} else if (v->c->t->ranks[i].rank_id >= 0) {
		at = rt__put_num(buf, len, rt__put(buf, len, 0, "rank "), v->c->t->ranks[i].rank_id);
		at = rt__put(buf, len, at, " (");
	} else {
		rt__put(buf, len, 0, w);
		return buf;
	}
	rt__put(buf, len, rt__put(buf, len, at, w), ")");
	return buf;
}

const char *rt__v1_dev_who(const struct v1 *v, size_t i, char *buf, size_t len)
{
	char w[200];
	return rt__v1_dev_who_at(v, i, rt__v1_dev_where(v, i, w, sizeof(w)), buf, len);
}

const char *rt__v1_dev_path(const struct v1 *v, size_t i, const char *key, char *buf)
{
	return rt__path(buf, "%s.server_list[%zu].device[%zu]%s%s", v->p->base,
			v->srv[v->dev[i].srv].si, (size_t)v->dev[i].di, key ? "." : "",
			key ? key : "");
}

/* A decimal field: a string of digits (a JSON number is reported but its value used, so one
 * mistake is not reported again as a gap or a duplicate). -1 when absent or unusable. */
long rt__v1_dec_value(const struct rt__jnode *m, unsigned long max)
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

void rt__v1_missing(struct rt__ctx *c, const struct rt__jnode *obj, const char *path,
		    const char *key, const char *who, const char *hint)
{
	char p[RT_PATHLEN];
	rt__report(c, "key-missing", obj, 0, rt__path(p, "%s.%s", path, key), hint,
		   "missing \"%s\" in %s", key, who);
}
