/* The legacy group_list tables: no version, group_list[].instance_list[].devices[]. Two
 * generations wrote them: the HCCL guide's "template 2" (an instance is a pod_name, ranks
 * are implied in listing order) and the first Atlas 910 format of MindSpore's and HCCL's
 * early tests (board_id, chip_info, para_plane_nic_*, device_num, server_num, and a rank_id
 * per instance). HCCL's own unit tests still feed it the second. */
#include <errno.h>
#include <sys/socket.h>

#include "ranktable/check.h"

struct ldev {
	const struct rt__jnode *ip, *pod;
	size_t gi, ii, di;
};

static const char *const top_keys[] = { "status", "group_count", "group_list", "board_id",
					"chip_info", "deploy_mode", "para_plane_nic_location",
					"para_plane_nic_name", "para_plane_nic_num", NULL };
static const char *const group_keys[] = { "group_name", "instance_count", "device_count",
					  "device_num", "server_num", "instance_list", NULL };
static const char *const inst_keys[] = { "pod_name", "rank_id", "server_id", "devices", NULL };
static const char *const dev_keys[] = { "device_id", "device_ip", NULL };

static const struct rt__jnode *list_field(struct rt__ctx *c, const struct rt__jnode *obj,
					  const char *key, const char *path, const char *who,
					  size_t *n)
{
	char p[RT_PATHLEN];
	const struct rt__jnode *m = rt__jget(obj, key);
	*n = 0;
	rt__path(p, "%s.%s", path, key);
	if (!m) {
		rt__report(c, "key-missing", obj, 0, p, NULL, "missing \"%s\" in %s", key, who);
		return NULL;
	}
	if (!rt__jis_arr(m)) {
		rt__report(c, "value-type", m, 0, p, NULL, "%s of %s must be an array, not %s", key,
			   who, rt__type(m));
		return NULL;
	}
	for (const struct rt__jnode *e = rt__jchild(m); e; e = rt__jnext(e))
		++*n;
	return m;
}

static void count_check(struct rt__ctx *c, const struct rt__jnode *obj, const char *key,
			const char *path, const char *who, size_t actual, const char *code,
			const char *what)
{
	const struct rt__jnode *m;
	char p[RT_PATHLEN], hint[80];
	const char *s = rt__str_field(c, obj, key, path, who, RT_STR_NUMBER | RT_STR_REQUIRED, &m);
	long v;
	if (!s)
		return;
	rt__path(p, "%s.%s", path, key);
	snprintf(hint, sizeof(hint), "set \"%s\": \"%zu\"", key, actual);
	if (rt__dec(s, 0xffffffffUL, &v) || (size_t)v != actual)
		rt__report(c, code, m, 0, p, hint, "%s \"%s\" of %s does not match the %zu %s", key,
			   s, who, actual, what);
}

/* A per-instance key (pod_name, rank_id) used twice; ->pod of each ldev is its value node. */
struct dup_inst_arg {
	const struct ldev *d;
	const char *code, *key, *hint;
};

static void dup_inst(struct rt__ctx *c, const struct rt__item *run, size_t k, void *arg)
{
	const struct dup_inst_arg *x = arg;
	char p[RT_PATHLEN], v[72];
	(void)k;
	const struct ldev *a = &x->d[run[0].idx], *b = &x->d[run[1].idx];
	if (run[0].s)
		snprintf(v, sizeof(v), "%.64s", run[0].s);
	else
		snprintf(v, sizeof(v), "%ld", run[0].n);
	rt__report(c, x->code, b->pod, 0,
		   rt__path(p, "$.group_list[%zu].instance_list[%zu].%s", b->gi, b->ii, x->key),
		   x->hint,
		   "%s \"%s\" is used twice: group_list[%zu].instance_list[%zu] and "
		   "group_list[%zu].instance_list[%zu]",
		   x->key, v, a->gi, a->ii, b->gi, b->ii);
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

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* What the table holds before it is checked: devices, instances, whether any instance
 * carries a rank_id (the early 910 format), and its distinct server_ids, which decide
 * whether device IPs cross between servers. */
struct lshape {
	size_t ndev, ninst, nservers;
	int rank_ids;
};

static int shape(const struct rt__jnode *groups, struct lshape *sh)
{
	const char **ids = NULL;
	size_t nid = 0;
	memset(sh, 0, sizeof(*sh));
	for (int pass = 0; pass < 2; pass++) {
		for (const struct rt__jnode *g = rt__jchild(groups); g; g = rt__jnext(g)) {
			const struct rt__jnode *il = rt__jget(g, "instance_list");
			for (const struct rt__jnode *in = rt__jis_arr(il) ? rt__jchild(il) : NULL;
			     in; in = rt__jnext(in)) {
				const struct rt__jnode *sid = rt__jget(in, "server_id");
				if (pass) {
					if (rt__jis_str(sid))
						ids[nid++] = rt__jstr(sid);
					continue;
				}
				sh->ninst++;
				sh->rank_ids |= rt__jget(in, "rank_id") != NULL;
				const struct rt__jnode *dl = rt__jget(in, "devices");
				for (const struct rt__jnode *d = rt__jis_arr(dl) ? rt__jchild(dl)
										 : NULL;
				     d; d = rt__jnext(d))
					sh->ndev++;
			}
		}
		if (!pass && !(ids = malloc((sh->ninst ? sh->ninst : 1) * sizeof(*ids))))
			return -ENOMEM;
	}
	qsort(ids, nid, sizeof(*ids), cmp_str);
	for (size_t i = 0; i < nid; i++)
		sh->nservers += !i || strcmp(ids[i], ids[i - 1]);
	free(ids);
	return 0;
}

/* A rank_id per instance must number the instances 0..N-1, as a 1.0 table's do. */
static int check_rank_ids(struct rt__ctx *c, struct rt__item *rk, size_t nrk, size_t ninst,
			  struct ldev *rd)
{
	unsigned char *seen = calloc(ninst ? ninst : 1, 1);
	long *miss = malloc((ninst ? ninst : 1) * sizeof(*miss));
	size_t nmiss = 0;
	int rc = -ENOMEM;
	if (!seen || !miss)
		goto out;
	int range = 0;
	for (size_t i = 0; i < nrk; i++) {
		char p[RT_PATHLEN];
		const struct ldev *x = &rd[rk[i].idx];
		if ((size_t)rk[i].n < ninst) {
			seen[rk[i].n] = 1;
			continue;
		}
		range = 1;
		rt__report(c, "rank-id-range", x->pod, 0,
			   rt__path(p, "$.group_list[%zu].instance_list[%zu].rank_id", x->gi, x->ii),
			   "number the instances 0..N-1",
			   "rank_id \"%ld\" of group_list[%zu].instance_list[%zu] is out of range: %zu "
			   "instances need ids 0..%zu",
			   rk[i].n, x->gi, x->ii, ninst, ninst - 1);
	}
	for (size_t r = 0; r < ninst; r++)
		if (!seen[r])
			miss[nmiss++] = (long)r;
	struct dup_inst_arg x = { rd, "rank-id-duplicate", "rank_id", "number the instances 0..N-1" };
	rc = rt__dups(rk, nrk, dup_inst, c, &x);
	if (!rc && nmiss && nrk == ninst && !range) {
		struct buf b = BUF_INIT(RT_MSG_MAX);
		rt__sb_ranges(&b, miss, nmiss, 16);
		rt__report(c, "rank-id-gap", c->root, 0, "$.group_list",
			   "number the instances 0..N-1 without gaps",
			   "rank ids must be 0..%zu without gaps; missing %s", ninst - 1,
			   buf_str(&b));
		buf_release(&b);
	}
out:
	free(miss);
	free(seen);
	return rc;
}

/* What the walk over the groups gathers for the checks across them at its end: the pod
 * names, rank ids and device IPs with where each was, and the first device IP's family. */
struct lwalk {
	struct rt__ctx *c;
	struct lshape sh;
	struct ldev *d, *pd, *rd;
	struct rt__item *it, *pods, *rk;
	size_t np, nrk, nip;
	int fam0;
};

/* The device_ip of device di of instance ii of group gi (path dp, named dw), into R. */
static void legacy_device_ip(struct lwalk *w, struct rt_rank *R, const struct rt__jnode *e,
			     char *dp, const char *dw, const char *ip, size_t gi, size_t ii,
			     size_t di)
{
	struct rt__ctx *c = w->c;
	const struct rt__jnode *m;
	const char *ipv = rt__str_field(c, e, "device_ip", dp, dw,
					RT_STR_NUMBER | (w->sh.nservers > 1 ? RT_STR_REQUIRED : 0), &m);
	if (!ipv)
		return;
	R->device_ip = ipv;
	enum rt__ipkind k = rt__ipkind(ipv, strlen(ipv));
	rt__path(dp, "%s.devices[%zu].device_ip", ip, di);
	if (k == RT_IP_V4 || k == RT_IP_V6) {
		int fam = k == RT_IP_V4 ? AF_INET : AF_INET6;
		if (!w->fam0)
			w->fam0 = fam;
		else if (fam != w->fam0)
			rt__report(c, "ip-family-mixed", m, 0, dp, NULL,
				   "device_ip \"%s\" of %s is %s but earlier devices use %s", ipv, dw,
				   fam == AF_INET ? "IPv4" : "IPv6", fam == AF_INET ? "IPv6" : "IPv4");
		w->d[w->nip] = (struct ldev){ m, NULL, gi, ii, di };
		w->it[w->nip] = (struct rt__item){ 0, ipv, 0, w->nip };
		w->nip++;
	} else if (k == RT_IP_EMPTY) {
		if (w->sh.nservers > 1)
			rt__report(c, "device-ip-empty", m, 0, dp, NULL,
				   "device_ip of %s is empty; HCCL needs it when there is more "
				   "than one server",
				   dw);
	} else {
		rt__report(c,
			   k == RT_IP_PLACEHOLDER ? "device-ip-placeholder"
			   : k == RT_IP_HOSTNAME  ? "device-ip-hostname"
						  : "device-ip-invalid",
			   m, 0, dp,
			   "use the NPU NIC IP from 'hccn_tool -i N -ip -g' or address_N in "
			   "/etc/hccn.conf",
			   "device_ip \"%s\" of %s is not an IP address", ipv, dw);
	}
}

/* Device di of instance ii of group gi (path ip, named iw; its rank_id rid, its server
 * sid): a rank of the table. */
static void legacy_device(struct lwalk *w, const struct rt__jnode *e, const char *ip,
			  const char *iw, size_t gi, size_t ii, size_t di, long rid, const char *sid)
{
	struct rt__ctx *c = w->c;
	struct rt_table *t = c->t;
	char dp[RT_PATHLEN], fp[RT_PATHLEN], dw[128];
	const struct rt__jnode *m;
	rt__path(dp, "%s.devices[%zu]", ip, di);
	snprintf(dw, sizeof(dw), "%s device[%zu]", iw, di);
	if (!rt__object_at(c, e, dp, dw))
		return;
	rt__unknown_keys(c, e, dp, dev_keys);
	size_t r = t->nranks++;
	struct rt_rank *R = &t->ranks[r];
	R->rank_id = w->sh.rank_ids ? rid : (long)r;
	R->server_id = sid;
	R->super_device_id = R->device_port = -1;
	rt__jpos_node(c->pos, e, &R->line, &R->col);
	const char *ds =
		rt__str_field(c, e, "device_id", dp, dw, RT_STR_NUMBER | RT_STR_REQUIRED, &m);
	if (ds && rt__dec(ds, 0xffffffffUL, &R->device_id))
		rt__report(c, "device-id-invalid", m, 0, rt__path(fp, "%s.device_id", dp), NULL,
			   "device_id \"%s\" of %s is not a decimal number", ds, dw);
	else if (!ds)
		R->device_id = -1;
	legacy_device_ip(w, R, e, dp, dw, ip, gi, ii, di);
}

/* An instance's pod_name (template 2) or rank_id (the 910 format; one of the two is needed),
 * into the walk's lists; its rank_id, -1 for none. */
static long legacy_names(struct lwalk *w, const struct rt__jnode *in, const char *ip,
			 const char *iw, size_t gi, size_t ii)
{
	struct rt__ctx *c = w->c;
	const struct rt__jnode *m;
	long rid = -1;
	const char *pod = rt__str_field(c, in, "pod_name", ip, iw,
					RT_STR_NUMBER | (w->sh.rank_ids ? 0 : RT_STR_REQUIRED), &m);
	if (pod) {
		w->pd[w->np] = (struct ldev){ NULL, m, gi, ii, 0 };
		w->pods[w->np] = (struct rt__item){ 0, pod, 0, w->np };
		w->np++;
	}
	const char *rs = w->sh.rank_ids ? rt__str_field(c, in, "rank_id", ip, iw,
							RT_STR_NUMBER | (pod ? 0 : RT_STR_REQUIRED),
							&m)
					: NULL;
	if (rs && rt__dec(rs, 0xffffffffUL, &rid)) {
		char fp[RT_PATHLEN];
		rt__report(c, "rank-id-invalid", m, 0, rt__path(fp, "%s.rank_id", ip),
			   "number the instances 0..N-1",
			   "rank_id \"%.32s\" of %s is not a decimal number", rs, iw);
		return -1;
	}
	if (rs) {
		w->rd[w->nrk] = (struct ldev){ NULL, m, gi, ii, 0 };
		w->rk[w->nrk] = (struct rt__item){ 0, NULL, rid, w->nrk };
		w->nrk++;
	}
	return rid;
}

/* Instance ii of group gi (path gp, named gw): its server and its devices. The server of the
 * instance before it (*last_sid) and the group's counts of devices and servers go on. */
static void legacy_instance(struct lwalk *w, const struct rt__jnode *in, const char *gp,
			    const char *gw, size_t gi, size_t ii, const char **last_sid,
			    size_t *gdev, size_t *gsrv)
{
	struct rt__ctx *c = w->c;
	struct rt_table *t = c->t;
	char ip[RT_PATHLEN], iw[96];
	const struct rt__jnode *m;
	size_t nd;
	rt__path(ip, "%s.instance_list[%zu]", gp, ii);
	snprintf(iw, sizeof(iw), "%s.instance_list[%zu]", gw, ii);
	if (!rt__object_at(c, in, ip, iw))
		return;
	rt__unknown_keys(c, in, ip, inst_keys);
	long rid = legacy_names(w, in, ip, iw, gi, ii);
	const char *sid =
		rt__str_field(c, in, "server_id", ip, iw, RT_STR_NUMBER | RT_STR_REQUIRED, &m);
	/* Instances of one server listed together are that server's ranks. */
	struct rt_server *S = &t->servers[t->nservers];
	if (t->nservers && sid && *last_sid && !strcmp(sid, *last_sid) &&
	    S[-1].first_rank + S[-1].nranks == t->nranks) {
		S = &S[-1];
	} else {
		t->nservers++;
		S->server_id = sid;
		S->first_rank = t->nranks;
		(*gsrv)++;
	}
	*last_sid = sid;
	const struct rt__jnode *dl = list_field(c, in, "devices", ip, iw, &nd);
	size_t di = 0;
	for (const struct rt__jnode *e = dl ? rt__jchild(dl) : NULL; e; e = rt__jnext(e), di++) {
		(*gdev)++;
		legacy_device(w, e, ip, iw, gi, ii, di, rid, sid);
	}
	S->nranks = t->nranks - S->first_rank;
}

/* Group gi of group_list: its instances, and its counts against theirs. */
static void legacy_group(struct lwalk *w, const struct rt__jnode *g, size_t gi)
{
	struct rt__ctx *c = w->c;
	char gp[RT_PATHLEN], gw[64];
	size_t ni, gdev = 0, gsrv = 0;
	const char *last_sid = NULL;
	rt__path(gp, "$.group_list[%zu]", gi);
	snprintf(gw, sizeof(gw), "group_list[%zu]", gi);
	if (!rt__object_at(c, g, gp, gw))
		return;
	rt__unknown_keys(c, g, gp, group_keys);
	const struct rt__jnode *il = list_field(c, g, "instance_list", gp, gw, &ni);
	if (!il)
		return;
	count_check(c, g, "instance_count", gp, gw, ni, "instance-count-mismatch",
		    "instances in instance_list");
	size_t ii = 0;
	for (const struct rt__jnode *in = rt__jchild(il); in; in = rt__jnext(in), ii++)
		legacy_instance(w, in, gp, gw, gi, ii, &last_sid, &gdev, &gsrv);
	/* template 2 counts devices in device_count, the 910 format in device_num. */
	const char *dkey = rt__jget(g, "device_count") || !rt__jget(g, "device_num")
				   ? "device_count"
				   : "device_num";
	count_check(c, g, dkey, gp, gw, gdev, "device-count-mismatch",
		    "devices listed in the group");
	if (rt__jget(g, "server_num"))
		count_check(c, g, "server_num", gp, gw, gsrv, "server-count-mismatch",
			    "servers its instances name");
}

int rt__load_legacy(struct rt__ctx *c)
{
	struct rt_table *t = c->t;
	const struct rt__jnode *root = c->root;
	struct lwalk w = { .c = c };
	size_t ng;
	int rc = -ENOMEM;

	const struct rt__jnode *groups = rt__jget(root, "group_list");
	if (rt__jis_arr(groups) && shape(groups, &w.sh))
		return -ENOMEM;
	if (!rt__jis_arr(groups))
		memset(&w.sh, 0, sizeof(w.sh));
	if (w.sh.rank_ids)
		rt__report(c, "legacy-format", root, 0, "$",
			   "regenerate it as version 1.0 with 'hcclctl ranktable gen'",
			   "this is the legacy group_list format of the first Atlas 910 tables "
			   "(no version, a rank_id per instance); HCCL still reads it, but its guide "
			   "no longer documents it and newer tools may not read it");
	else
		rt__report(c, "legacy-format", root, 0, "$",
			   "regenerate it as version 1.0 with 'hcclctl ranktable gen'",
			   "this is the legacy \"template 2\" group_list format (no version, no "
			   "rank_id); HCCL still reads it, but ranks are implied by listing order");
	rt__unknown_keys(c, root, "$", top_keys);
	rt__check_status(c, root, 1);
	groups = list_field(c, root, "group_list", "$", "the table", &ng);
	if (!groups)
		return 0;
	count_check(c, root, "group_count", "$", "the table", ng, "group-count-mismatch",
		    "groups in group_list");

	size_t ndev = w.sh.ndev, ninst = w.sh.ninst;
	w.d = calloc(ndev ? ndev : 1, sizeof(*w.d));
	w.it = malloc((ndev + ninst + 1) * sizeof(*w.it));
	w.pods = malloc((ninst + 1) * sizeof(*w.pods));
	w.rk = malloc((ninst + 1) * sizeof(*w.rk));
	w.pd = calloc(ninst + 1, sizeof(*w.pd));
	w.rd = calloc(ninst + 1, sizeof(*w.rd));
	t->ranks = calloc(ndev ? ndev : 1, sizeof(*t->ranks));
	t->servers = calloc(ninst ? ninst : 1, sizeof(*t->servers));
	if (!w.d || !w.it || !w.pods || !w.rk || !w.pd || !w.rd || !t->ranks || !t->servers)
		goto out;

	size_t gi = 0;
	for (const struct rt__jnode *g = rt__jchild(groups); g; g = rt__jnext(g), gi++)
		legacy_group(&w, g, gi);
	struct dup_inst_arg x = { w.pd, "pod-name-duplicate", "pod_name",
				  "give every instance its own pod_name" };
	rc = rt__dups(w.pods, w.np, dup_inst, c, &x);
	if (!rc && w.sh.rank_ids)
		rc = check_rank_ids(c, w.rk, w.nrk, ninst, w.rd);
	if (!rc)
		rc = rt__dups(w.it, w.nip, dup_ip, c, w.d);
out:
	free(w.rd);
	free(w.pd);
	free(w.rk);
	free(w.pods);
	free(w.it);
	free(w.d);
	return rc;
}
