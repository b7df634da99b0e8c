/* Version 1.2's super_pod_list: each pod's id and servers, every server in one pod, a pod's
 * servers listed together. */
#include <errno.h>

#include "ranktable/check_v1.h"

static const char *const pod_keys[] = {"super_pod_id", "server_list", NULL};
static const char *const pod_srv_keys[] = {"server_id", NULL};

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
				   "%s server_list[%zu] must be an object, not %s", who, k,
				   rt__type(r));
			continue;
		}
		rt__unknown_keys(c, r, rp, pod_srv_keys);
		const struct rt__jnode *sn;
		const char *sid = rt__str_field(c, r, "server_id", rp, who, RT_STR_QUOTE, &sn);
		if (!sn)
			rt__v1_missing(c, r, rp, "server_id", who, NULL);
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
				   "server_id \"%s\" in super pod \"%s\" is not in server_list",
				   sid, id ? id : "?");
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
		rt__v1_missing(
			c, e, path, "super_pod_id", who,
			"the Super Pod ID from 'npu-smi info -t spod-info', or your own name");
	else if (id && !*id)
		rt__report(c, "super-pod-id-invalid", idn, 0, rt__path(p, "%s.super_pod_id", path),
			   "the Super Pod ID from 'npu-smi info -t spod-info', or your own name",
			   "super_pod_id of %s is empty", who);
	if (id && *id) {
		podids[pi] = idn;
		it[(*m)++] = (struct rt__item){0, id, 0, pi};
	}
	const struct rt__jnode *sl = rt__jget(e, "server_list");
	if (!sl) {
		rt__v1_missing(c, e, path, "server_list", who,
			       "list the pod's servers by server_id");
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
				   rt__v1_srv_name(v, s, who, sizeof(who)));
			continue;
		}
		if (X->pod == prev)
			continue;
		if (done[X->pod])
			rt__report(
				c, "super-pod-interleaved", X->obj, 0, p,
				"list the servers of one super pod together in server_list",
				"%s of super pod \"%s\" comes after servers of another super pod; "
				"super pods must not be interleaved in server_list",
				rt__v1_srv_name(v, s, who, sizeof(who)),
				X->pod_id ? X->pod_id : "?");
		if (prev >= 0)
			done[prev] = 1;
		prev = X->pod;
	}
	free(done);
	return 0;
}

int rt__v1_check_pods(struct v1 *v, const struct rt__jnode *pods)
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
			byid[nk++] = (struct sid){t->servers[s].server_id, s};
	qsort(byid, nk, sizeof(*byid), cmp_sid);
	for (const struct rt__jnode *e = rt__jchild(pods); e; e = rt__jnext(e), pi++)
		pod_entry(v, e, pi, byid, nk, podids, it, &m);
	struct pod_ids ids = {v, podids};
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
int rt__v1_one_pod(const struct rt__jnode *pods)
{
	return rt__jis_arr(pods) && rt__jchild(pods) && !rt__jnext(rt__jchild(pods));
}
