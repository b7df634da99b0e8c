/* MindCluster ClusterD's global rank table, which ClusterD writes for a MindIE PD deployment
 * from the job's pods and each instance's hccl.json (MindCluster's "global-ranktable
 * Description" page; ClusterD's PdDeployModeRankTable):
 *
 *   { "version": "1.0", "status": "completed",
 *     "server_group_list": [
 *       { "group_id": "0", "server_count": "1",                  the MS Coordinator's pods
 *         "server_list": [ { "server_id": HOST_IP, "server_ip": POD_IP } ] },
 *       { "group_id": "1", ... },                                the MS Controller's pods
 *       { "group_id": "2", "deploy_server": "0", "server_count": "1",   one instance each
 *         "server_list": [ { "server_id": ..., "server_ip": ...,
 *                            "device": [ { "device_id", "device_ip", "super_device_id",
 *                                          "device_logical_id", "rank_id" } ] } ],
 *         "super_pod_list": [ ... ] }, ... ] }
 *
 * Groups 2 and up are an instance's hccl.json (its server_list, server_count and, on A3,
 * super_pod_list), so each group gets the 1.x checks on its own: its ranks 0..N-1, its
 * devices and IPs. Across groups, one NPU or device IP in two instances is a duplicate, and
 * group ids are unique. HCCL never reads this file itself: no HCCL error codes. */
#include <errno.h>

#include "ranktable/check.h"

static const char *const top_keys[] = {"version", "status", "server_group_list", NULL};
static const char *const group_keys[] = {"group_id",	"deploy_server",  "server_count",
					 "server_list", "super_pod_list", NULL};
static const char *const srv_keys[] = {
	"server_id",	 "server_ip", "device",	      "deploy_server",
	"hardware_type", "host_ip",   "container_ip", NULL};
static const char *const dev_keys[] = {
	"device_id",	      "device_ip",    "rank_id",   "device_logical_id",
	"super_device_id",    "device_port",  "host_port", "backup_device_ip",
	"backup_device_port", "super_pod_id", NULL};

/* A device of some group, for the checks across groups. */
struct gdev {
	const struct rt__jnode *ip, *devid;
	const char *server_id, *group_id;
	size_t gi, si, di;
	long device_id;
};

struct glob {
	struct rt__ctx *c;
	struct gdev *v;
	size_t n;
};

static const char *gdev_who(const struct gdev *d, char *buf, size_t len)
{
	char g[48] = "";
	if (d->group_id)
		snprintf(g, sizeof(g), "group \"%.16s\" ", d->group_id);
	snprintf(buf, len, "%s(server_group_list[%zu]) server \"%.64s\" device %ld", g, d->gi,
		 d->server_id ? d->server_id : "?", d->device_id);
	return buf;
}

/* Runs that stay inside one group were reported by that group's own checks. */
static int spans_groups(const struct glob *g, const struct rt__item *run, size_t k)
{
	for (size_t j = 1; j < k; j++)
		if (g->v[run[j].idx].gi != g->v[run[0].idx].gi)
			return 1;
	return 0;
}

/* The first member of the run in another group than the first member's. */
static size_t other_group(const struct glob *g, const struct rt__item *run, size_t k)
{
	for (size_t j = 1; j < k; j++)
		if (g->v[run[j].idx].gi != g->v[run[0].idx].gi)
			return j;
	return 1;
}

static void dup_ip(struct rt__ctx *c, const struct rt__item *run, size_t k, void *arg)
{
	struct glob *g = arg;
	if (!spans_groups(g, run, k))
		return;
	const struct gdev *a = &g->v[run[0].idx], *b = &g->v[run[other_group(g, run, k)].idx];
	char p[RT_PATHLEN], wa[200], wb[200];
	rt__report(c, "device-ip-duplicate", b->ip, 0,
		   rt__path(p, "$.server_group_list[%zu].server_list[%zu].device[%zu].device_ip",
			    b->gi, b->si, b->di),
		   "each instance has its own NPUs: use the NPU NIC IP of each device",
		   "device_ip \"%.64s\" is in two groups: %s and %s", run[0].s,
		   gdev_who(a, wa, sizeof(wa)), gdev_who(b, wb, sizeof(wb)));
}

static void dup_dev(struct rt__ctx *c, const struct rt__item *run, size_t k, void *arg)
{
	struct glob *g = arg;
	if (!spans_groups(g, run, k))
		return;
	const struct gdev *a = &g->v[run[0].idx], *b = &g->v[run[other_group(g, run, k)].idx];
	char p[RT_PATHLEN], wa[200], wb[200];
	rt__report(c, "device-id-duplicate", b->devid, 0,
		   rt__path(p, "$.server_group_list[%zu].server_list[%zu].device[%zu].device_id",
			    b->gi, b->si, b->di),
		   "an NPU belongs to one instance: check the instances' hccl.json files",
		   "device %ld of server \"%.64s\" is in two groups: %s and %s", a->device_id,
		   a->server_id, gdev_who(a, wa, sizeof(wa)), gdev_who(b, wb, sizeof(wb)));
}

static void dup_group(struct rt__ctx *c, const struct rt__item *run, size_t k, void *arg)
{
	const struct rt__jnode **ids = arg;
	char p[RT_PATHLEN];
	(void)k;
	rt__report(c, "group-id-duplicate", ids[run[1].idx], 0,
		   rt__path(p, "$.server_group_list[%zu].group_id", run[1].idx),
		   "give each server group its own group_id",
		   "group_id \"%.16s\" is used twice: server_group_list[%zu] and "
		   "server_group_list[%zu]",
		   run[0].s, run[0].idx, run[1].idx);
}

/* The devices of every group, for the checks across groups. */
static int collect(struct glob *g, const struct rt__jnode *groups, const char *const *gids)
{
	size_t n = 0, gi = 0;
	for (const struct rt__jnode *grp = rt__jchild(groups); grp; grp = rt__jnext(grp)) {
		const struct rt__jnode *sl = rt__jget(grp, "server_list");
		for (const struct rt__jnode *s = rt__jis_arr(sl) ? rt__jchild(sl) : NULL; s;
		     s = rt__jnext(s)) {
			const struct rt__jnode *dl = rt__jget(s, "device");
			for (const struct rt__jnode *d = rt__jis_arr(dl) ? rt__jchild(dl) : NULL; d;
			     d = rt__jnext(d))
				n++;
		}
	}
	g->v = calloc(n ? n : 1, sizeof(*g->v));
	if (!g->v)
		return -ENOMEM;
	for (const struct rt__jnode *grp = rt__jchild(groups); grp; grp = rt__jnext(grp), gi++) {
		const struct rt__jnode *sl = rt__jget(grp, "server_list");
		size_t si = 0;
		for (const struct rt__jnode *s = rt__jis_arr(sl) ? rt__jchild(sl) : NULL; s;
		     s = rt__jnext(s), si++) {
			const struct rt__jnode *sid = rt__jget(s, "server_id");
			const struct rt__jnode *dl = rt__jget(s, "device");
			size_t di = 0;
			for (const struct rt__jnode *d = rt__jis_arr(dl) ? rt__jchild(dl) : NULL; d;
			     d = rt__jnext(d), di++) {
				const struct rt__jnode *ip = rt__jget(d, "device_ip");
				const struct rt__jnode *id = rt__jget(d, "device_id");
				struct gdev *x = &g->v[g->n++];
				*x = (struct gdev){
					.ip = rt__jis_str(ip) ? ip : NULL,
					.devid = rt__jis_str(id) ? id : NULL,
					.server_id = rt__jis_str(sid) ? rt__jstr(sid) : NULL,
					.group_id = gids[gi],
					.gi = gi,
					.si = si,
					.di = di,
					.device_id = -1};
				if (x->devid &&
				    rt__dec(rt__jstr(x->devid), 0xffffffffUL, &x->device_id))
					x->device_id = -1;
			}
		}
	}
	return 0;
}

static int cmp_str_item(const void *a, const void *b)
{
	const struct rt__item *x = a, *y = b;
	int r = strcmp(x->s, y->s);
	return r ? r : (x->idx > y->idx) - (x->idx < y->idx);
}

static int across_groups(struct glob *g)
{
	struct rt__item *it = malloc((g->n ? g->n : 1) * sizeof(*it));
	size_t m = 0;
	int rc;
	if (!it)
		return -ENOMEM;
	for (size_t i = 0; i < g->n; i++) {
		const struct rt__jnode *ip = g->v[i].ip;
		enum rt__ipkind k =
			ip ? rt__ipkind(rt__jstr(ip), strlen(rt__jstr(ip))) : RT_IP_EMPTY;
		if (k == RT_IP_V4 || k == RT_IP_V6)
			it[m++] = (struct rt__item){0, rt__jstr(ip), 0, i};
	}
	rc = rt__dups(it, m, dup_ip, g->c, g);
	/* the same NPU: number the server ids, then compare (server, device_id) */
	m = 0;
	for (size_t i = 0; !rc && i < g->n; i++)
		if (g->v[i].server_id && g->v[i].device_id >= 0)
			it[m++] = (struct rt__item){0, g->v[i].server_id, 0, i};
	if (!rc) {
		qsort(it, m, sizeof(*it), cmp_str_item);
		size_t srv = 0;
		const char *prev = NULL;
		for (size_t k = 0; k < m; k++) {
			if (prev && strcmp(it[k].s, prev))
				srv++;
			prev = it[k].s;
			it[k] = (struct rt__item){srv, NULL, g->v[it[k].idx].device_id, it[k].idx};
		}
		rc = rt__dups(it, m, dup_dev, g->c, g);
	}
	free(it);
	return rc;
}

/* Appends the servers and ranks of sub to t; sub's arrays are freed. */
static int append(struct rt_table *t, struct rt_table *sub)
{
	size_t nr = t->nranks + sub->nranks, ns = t->nservers + sub->nservers;
	struct rt_rank *r = realloc(t->ranks, (nr ? nr : 1) * sizeof(*r));
	if (!r)
		return -ENOMEM;
	t->ranks = r;
	struct rt_server *s = realloc(t->servers, (ns ? ns : 1) * sizeof(*s));
	if (!s)
		return -ENOMEM;
	t->servers = s;
	if (sub->nranks)
		memcpy(t->ranks + t->nranks, sub->ranks, sub->nranks * sizeof(*r));
	for (size_t i = 0; i < sub->nservers; i++) {
		s[t->nservers + i] = sub->servers[i];
		s[t->nservers + i].first_rank += t->nranks;
	}
	t->nranks = nr;
	t->nservers = ns;
	return 0;
}

int rt__load_global(struct rt__ctx *c)
{
	struct rt_table *t = c->t;
	const struct rt__jnode *root = c->root;
	struct glob g = {c, NULL, 0};
	const char **gids = NULL;
	const struct rt__jnode **gnodes = NULL;
	struct rt__item *it = NULL;
	char p[RT_PATHLEN];
	int rc = 0;

	rt__report(c, "global-ranktable", root, 0, "$", NULL,
		   "this is MindCluster ClusterD's global rank table (server_group_list) for a "
		   "MindIE deployment, not a table HCCL reads; each group's servers and devices "
		   "are checked as the instance's hccl.json");
	rt__unknown_keys(c, root, "$", top_keys);
	rt__check_status(c, root, 1);

	static const struct rt__v1x_version vv = {
		"$", "", "a global rank table",
		"ClusterD copies the version of the instances' hccl.json: \"1.0\" or \"1.2\"",
		"\"1.0\" (A2) or \"1.2\" (A3), as the instances' hccl.json"
	};
	int v12 = rt__check_v1x_version(c, root, &vv);

	const struct rt__jnode *groups = rt__jget(root, "server_group_list");
	if (!rt__jis_arr(groups)) {
		rt__report(c, "value-type", groups, 0, "$.server_group_list", NULL,
			   "server_group_list must be an array, not %s", rt__type(groups));
		return 0;
	}
	size_t ng = 0;
	for (const struct rt__jnode *e = rt__jchild(groups); e; e = rt__jnext(e))
		ng++;
	if (!ng) {
		rt__report(c, "server-list-empty", groups, 0, "$.server_group_list",
			   "wait for ClusterD to fill it in", "server_group_list is empty");
		return 0;
	}
	gids = calloc(ng, sizeof(*gids));
	gnodes = calloc(ng, sizeof(*gnodes));
	it = malloc(ng * sizeof(*it));
	if (!gids || !gnodes || !it) {
		rc = -ENOMEM;
		goto out;
	}

	/* The servers with NPUs in the whole file: device IPs cross between instances. */
	size_t nsrv_all = 0;
	for (const struct rt__jnode *grp = rt__jchild(groups); grp; grp = rt__jnext(grp)) {
		const struct rt__jnode *sl = rt__jget(grp, "server_list");
		for (const struct rt__jnode *s = rt__jis_arr(sl) ? rt__jchild(sl) : NULL; s;
		     s = rt__jnext(s))
			nsrv_all += rt__jget(s, "device") != NULL;
	}

	size_t gi = 0, m = 0;
	int single = c->single;
	for (const struct rt__jnode *grp = rt__jchild(groups); grp; grp = rt__jnext(grp), gi++) {
		char base[64], who[64];
		rt__path(p, "$.server_group_list[%zu]", gi);
		if (!rt__jis_obj(grp)) {
			rt__report(c, "value-type", grp, 0, p, NULL,
				   "server_group_list[%zu] must be an object, not %s", gi,
				   rt__type(grp));
			continue;
		}
		const struct rt__jnode *id = rt__jget(grp, "group_id");
		long idv;
		snprintf(base, sizeof(base), "$.server_group_list[%zu]", gi);
		snprintf(who, sizeof(who), "server_group_list[%zu]", gi);
		rt__path(p, "%s.group_id", base);
		if (!id) {
			rt__report(c, "key-missing", grp, 0, p, NULL, "missing \"group_id\" in %s",
				   who);
		} else if (!rt__jis_str(id)) {
			rt__report(c, "value-type", id, 0, p, NULL,
				   "group_id of %s must be a string, not %s", who, rt__type(id));
		} else {
			if (rt__dec(rt__jstr(id), 0xffffffffUL, &idv))
				rt__report(c, "group-id-invalid", id, 0, p,
					   "ClusterD numbers the groups \"0\", \"1\", \"2\", ...",
					   "group_id \"%.16s\" of %s is not a decimal number",
					   rt__jstr(id), who);
			gids[gi] = rt__jstr(id);
			gnodes[gi] = id;
			it[m++] = (struct rt__item){0, rt__jstr(id), 0, gi};
			snprintf(who, sizeof(who), "group \"%.16s\"", rt__jstr(id));
		}
		struct rt__v1_part part = {grp,	     base, who, group_keys, srv_keys,
					   dev_keys, v12,  1,	1,	    nsrv_all, 0};
		struct rt_table sub = {0};
		c->t = &sub;
		rc = rt__check_servers(c, &part);
		c->t = t;
		if (!rc)
			rc = append(t, &sub);
		free(sub.ranks);
		free(sub.servers);
		if (rc)
			goto out;
	}
	c->single = single;
	rc = rt__dups(it, m, dup_group, c, gnodes);
	if (!rc)
		rc = collect(&g, groups, gids);
	if (!rc)
		rc = across_groups(&g);
out:
	free(g.v);
	free(it);
	free(gnodes);
	free(gids);
	return rc;
}
