/* The legacy "template 2" table: no version, group_list[].instance_list[].devices[], no
 * rank ids (the HCCL guide's older rank-table template). Ranks are implied in listing
 * order. */
#include <errno.h>
#include <sys/socket.h>

#include "ranktable/check.h"

struct ldev {
	const cJSON *ip, *pod;
	size_t gi, ii, di;
};

static const char *const top_keys[] = { "status", "group_count", "group_list", NULL };
static const char *const group_keys[] = { "group_name", "instance_count", "device_count",
					  "instance_list", NULL };
static const char *const inst_keys[] = { "pod_name", "server_id", "devices", NULL };
static const char *const dev_keys[] = { "device_id", "device_ip", NULL };

static const char *str_field(struct rt__ctx *c, const cJSON *obj, const char *key,
			     const char *path, const char *who, int required, const cJSON **node)
{
	char p[RT_PATHLEN];
	const cJSON *m = cJSON_GetObjectItemCaseSensitive(obj, key);
	*node = m;
	rt__path(p, "%s.%s", path, key);
	if (!m) {
		if (required)
			rt__report(c, "key-missing", obj, 0, p, NULL, "missing \"%s\" in %s", key,
				   who);
		return NULL;
	}
	if (cJSON_IsString(m))
		return m->valuestring;
	if (cJSON_IsNumber(m))
		rt__report(c, "value-not-string", m, 0, p, NULL,
			   "%s of %s is a number, not a string; HCCL rejects it and misleadingly "
			   "reports it as missing",
			   key, who);
	else
		rt__report(c, "value-type", m, 0, p, NULL, "%s of %s must be a string, not %s", key,
			   who, rt__type(m));
	return NULL;
}

static const cJSON *list_field(struct rt__ctx *c, const cJSON *obj, const char *key,
			       const char *path, const char *who, size_t *n)
{
	char p[RT_PATHLEN];
	const cJSON *m = cJSON_GetObjectItemCaseSensitive(obj, key);
	*n = 0;
	rt__path(p, "%s.%s", path, key);
	if (!m) {
		rt__report(c, "key-missing", obj, 0, p, NULL, "missing \"%s\" in %s", key, who);
		return NULL;
	}
	if (!cJSON_IsArray(m)) {
		rt__report(c, "value-type", m, 0, p, NULL, "%s of %s must be an array, not %s", key,
			   who, rt__type(m));
		return NULL;
	}
	for (const cJSON *e = m->child; e; e = e->next)
		++*n;
	return m;
}

static void count_check(struct rt__ctx *c, const cJSON *obj, const char *key, const char *path,
			const char *who, size_t actual, const char *code, const char *what)
{
	const cJSON *m;
	char p[RT_PATHLEN], hint[80];
	const char *s = str_field(c, obj, key, path, who, 1, &m);
	long v;
	if (!s)
		return;
	rt__path(p, "%s.%s", path, key);
	snprintf(hint, sizeof(hint), "set \"%s\": \"%zu\"", key, actual);
	if (rt__dec(s, 0xffffffffUL, &v) || (size_t)v != actual)
		rt__report(c, code, m, 0, p, hint, "%s \"%s\" of %s does not match the %zu %s", key,
			   s, who, actual, what);
}

static void dup_pod(struct rt__ctx *c, const struct rt__item *run, size_t k, void *arg)
{
	const struct ldev *d = arg;
	char p[RT_PATHLEN];
	(void)k;
	const struct ldev *a = &d[run[0].idx], *b = &d[run[1].idx];
	rt__report(c, "pod-name-duplicate", b->pod, 0,
		   rt__path(p, "$.group_list[%zu].instance_list[%zu].pod_name", b->gi, b->ii),
		   "give every instance its own pod_name",
		   "pod_name \"%s\" is used twice: group_list[%zu].instance_list[%zu] and "
		   "group_list[%zu].instance_list[%zu]",
		   run[0].s, a->gi, a->ii, b->gi, b->ii);
}

static void dup_ip(struct rt__ctx *c, const struct rt__item *run, size_t k, void *arg)
{
	const struct ldev *d = arg;
	char p[RT_PATHLEN];
	(void)k;
	const struct ldev *a = &d[run[0].idx], *b = &d[run[1].idx];
	rt__report(c, "device-ip-duplicate", b->ip, 0,
		   rt__path(p, "$.group_list[%zu].instance_list[%zu].devices[%zu].device_ip",
			    b->gi, b->ii, b->di),
		   NULL,
		   "device_ip \"%s\" is used twice: group_list[%zu].instance_list[%zu] device[%zu] "
		   "and group_list[%zu].instance_list[%zu] device[%zu]",
		   run[0].s, a->gi, a->ii, a->di, b->gi, b->ii, b->di);
}

static int count_devices(const cJSON *groups, size_t *ninst)
{
	int n = 0;
	*ninst = 0;
	for (const cJSON *g = groups->child; g; g = g->next) {
		const cJSON *il = cJSON_GetObjectItemCaseSensitive(g, "instance_list");
		if (!cJSON_IsArray(il))
			continue;
		for (const cJSON *in = il->child; in; in = in->next) {
			++*ninst;
			const cJSON *dl = cJSON_GetObjectItemCaseSensitive(in, "devices");
			if (cJSON_IsArray(dl))
				for (const cJSON *d = dl->child; d; d = d->next)
					n++;
		}
	}
	return n;
}

int rt__load_legacy(struct rt__ctx *c)
{
	struct rt_table *t = c->t;
	const cJSON *root = c->root;
	size_t ng, ninst;
	int rc = -ENOMEM;

	rt__report(c, "legacy-format", root, 0, "$",
		   "regenerate it as version 1.0 with 'hcclctl ranktable gen'",
		   "this is the legacy \"template 2\" group_list format (no version, no rank_id); "
		   "HCCL still reads it, but ranks are implied by listing order");
	rt__unknown_keys(c, root, "$", top_keys);
	rt__check_status(c, root, 1);
	const cJSON *groups = list_field(c, root, "group_list", "$", "the table", &ng);
	if (!groups)
		return 0;
	count_check(c, root, "group_count", "$", "the table", ng, "group-count-mismatch",
		    "groups in group_list");

	size_t ndev = (size_t)count_devices(groups, &ninst);
	struct ldev *d = calloc(ndev ? ndev : 1, sizeof(*d));
	struct rt__item *it = malloc((ndev + ninst + 1) * sizeof(*it));
	struct rt__item *pods = malloc((ninst + 1) * sizeof(*pods));
	struct ldev *pd = calloc(ninst + 1, sizeof(*pd));
	t->ranks = calloc(ndev ? ndev : 1, sizeof(*t->ranks));
	t->servers = calloc(ninst ? ninst : 1, sizeof(*t->servers));
	if (!d || !it || !pods || !pd || !t->ranks || !t->servers)
		goto out;

	size_t gi = 0, np = 0, nip = 0, nsrv_total = ninst;
	int fam0 = 0;
	for (const cJSON *g = groups->child; g; g = g->next, gi++) {
		char gp[RT_PATHLEN], gw[64];
		size_t ni, gdev = 0;
		rt__path(gp, "$.group_list[%zu]", gi);
		snprintf(gw, sizeof(gw), "group_list[%zu]", gi);
		if (!cJSON_IsObject(g)) {
			rt__report(c, "value-type", g, 0, gp, NULL, "%s must be an object, not %s", gw,
				   rt__type(g));
			continue;
		}
		rt__unknown_keys(c, g, gp, group_keys);
		const cJSON *il = list_field(c, g, "instance_list", gp, gw, &ni);
		if (!il)
			continue;
		count_check(c, g, "instance_count", gp, gw, ni, "instance-count-mismatch",
			    "instances in instance_list");
		size_t ii = 0;
		for (const cJSON *in = il->child; in; in = in->next, ii++) {
			char ip[RT_PATHLEN], iw[96];
			const cJSON *m;
			size_t nd;
			rt__path(ip, "%s.instance_list[%zu]", gp, ii);
			snprintf(iw, sizeof(iw), "%s.instance_list[%zu]", gw, ii);
			if (!cJSON_IsObject(in)) {
				rt__report(c, "value-type", in, 0, ip, NULL,
					   "%s must be an object, not %s", iw, rt__type(in));
				continue;
			}
			rt__unknown_keys(c, in, ip, inst_keys);
			const char *pod = str_field(c, in, "pod_name", ip, iw, 1, &m);
			if (pod) {
				pd[np] = (struct ldev){ NULL, m, gi, ii, 0 };
				pods[np] = (struct rt__item){ 0, pod, 0, np };
				np++;
			}
			const char *sid = str_field(c, in, "server_id", ip, iw, 1, &m);
			struct rt_server *S = &t->servers[t->nservers++];
			S->server_id = sid;
			S->first_rank = t->nranks;
			const cJSON *dl = list_field(c, in, "devices", ip, iw, &nd);
			size_t di = 0;
			for (const cJSON *e = dl ? dl->child : NULL; e; e = e->next, di++) {
				char dp[RT_PATHLEN], fp[RT_PATHLEN], dw[128];
				rt__path(dp, "%s.devices[%zu]", ip, di);
				snprintf(dw, sizeof(dw), "%s device[%zu]", iw, di);
				gdev++;
				if (!cJSON_IsObject(e)) {
					rt__report(c, "value-type", e, 0, dp, NULL,
						   "%s must be an object, not %s", dw, rt__type(e));
					continue;
				}
				rt__unknown_keys(c, e, dp, dev_keys);
				size_t r = t->nranks++;
				struct rt_rank *R = &t->ranks[r];
				R->rank_id = (long)r;
				R->server_id = sid;
				R->super_device_id = R->device_port = -1;
				rt__jpos_get(c->pos, e, &R->line, &R->col);
				const char *ds = str_field(c, e, "device_id", dp, dw, 1, &m);
				if (ds && rt__dec(ds, 0xffffffffUL, &R->device_id))
					rt__report(c, "device-id-invalid", m, 0,
						   rt__path(fp, "%s.device_id", dp), NULL,
						   "device_id \"%s\" of %s is not a decimal number", ds,
						   dw);
				else if (!ds)
					R->device_id = -1;
				const char *ipv = str_field(c, e, "device_ip", dp, dw,
							    nsrv_total > 1, &m);
				if (!ipv)
					continue;
				R->device_ip = ipv;
				enum rt__ipkind k = rt__ipkind(ipv, strlen(ipv));
				rt__path(dp, "%s.devices[%zu].device_ip", ip, di);
				if (k == RT_IP_V4 || k == RT_IP_V6) {
					int fam = k == RT_IP_V4 ? AF_INET : AF_INET6;
					if (!fam0)
						fam0 = fam;
					else if (fam != fam0)
						rt__report(c, "ip-family-mixed", m, 0, dp, NULL,
							   "device_ip \"%s\" of %s is %s but earlier "
							   "devices use %s",
							   ipv, dw, fam == AF_INET ? "IPv4" : "IPv6",
							   fam == AF_INET ? "IPv6" : "IPv4");
					d[nip] = (struct ldev){ m, NULL, gi, ii, di };
					it[nip] = (struct rt__item){ 0, ipv, 0, nip };
					nip++;
				} else if (k == RT_IP_EMPTY) {
					if (nsrv_total > 1)
						rt__report(c, "device-ip-empty", m, 0, dp, NULL,
							   "device_ip of %s is empty; HCCL needs it when "
							   "there is more than one server",
							   dw);
				} else {
					rt__report(c,
						   k == RT_IP_PLACEHOLDER ? "device-ip-placeholder"
						   : k == RT_IP_HOSTNAME  ? "device-ip-hostname"
									  : "device-ip-invalid",
						   m, 0, dp,
						   "use the NPU NIC IP from 'hccn_tool -i N -ip -g' or "
						   "address_N in /etc/hccn.conf",
						   "device_ip \"%s\" of %s is not an IP address", ipv, dw);
				}
			}
			S->nranks = t->nranks - S->first_rank;
		}
		count_check(c, g, "device_count", gp, gw, gdev, "device-count-mismatch",
			    "devices listed in the group");
	}
	rc = rt__dups(pods, np, dup_pod, c, pd);
	if (!rc)
		rc = rt__dups(it, nip, dup_ip, c, d);
out:
	free(pd);
	free(pods);
	free(it);
	free(d);
	return rc;
}
