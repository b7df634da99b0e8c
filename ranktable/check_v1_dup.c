/* Versions 1.0 and 1.2: the checks across ranks (duplicate and missing rank ids, device
 * ids, device IPs, host ports and super device ids; servers' device counts). */
#include <errno.h>
#include <sys/socket.h>

#include "ranktable/check_v1.h"
#include "ranktable/base/bigmem.h"
#include "ranktable/base/plural.h"

/* ---- checks across ranks ---- */

void rt__v1_dup_server(struct rt__ctx *c, const struct rt__item *run, size_t k, void *arg)
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
			rt__v1_dev_where(v, run[j].idx, w, sizeof(w));
		else if (r->device_id >= 0)
			snprintf(w, sizeof(w), "device %ld", r->device_id);
		else
			snprintf(w, sizeof(w), "device[%u]", v->dev[run[j].idx].di);
		buf_printf(b, "%s%s", sep, w);
	}
	if (k > shown)
		buf_printf(b, " and %zu more", k - shown);
}

static void dup_rank(struct rt__ctx *c, const struct rt__item *run, size_t k, void *arg)
{
	struct v1 *v = arg;
	char p[RT_PATHLEN], tb[32];
	struct buf b = BUF_INIT(RT_MSG_MAX);
	list_devs(v, run, k, &b, 1);
	rt__report(c, "rank-id-duplicate", rt__v1_dev_member(v, run[1].idx, "rank_id"), 0,
		   rt__v1_dev_path(v, run[1].idx, "rank_id", p),
		   "give every device its own rank id 0..N-1", "rank_id \"%ld\" is used %s: %s",
		   run[0].n, rt__times(k, tb, sizeof(tb)), buf_str(&b));
	buf_release(&b);
}

static void dup_devid(struct rt__ctx *c, const struct rt__item *run, size_t k, void *arg)
{
	struct v1 *v = arg;
	char p[RT_PATHLEN], tb[32], who[160], w[360];
	struct buf b = BUF_INIT(RT_MSG_MAX);
	for (size_t j = 0; j < k && j < 4; j++) {
		const struct rt__jnode *rk = rt__v1_dev_member(v, run[j].idx, "rank_id");
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
	rt__report(c, "device-id-duplicate", rt__v1_dev_member(v, run[1].idx, "device_id"), 0,
		   rt__v1_dev_path(v, run[1].idx, "device_id", p),
		   "each NPU of a server appears once; check for a copy-pasted entry",
		   "device_id \"%ld\" is used %s on %s: %s", run[0].n, rt__times(k, tb, sizeof(tb)),
		   rt__v1_srv_name(v, run[0].group, who, sizeof(who)), buf_str(&b));
	buf_release(&b);
}

static void dup_ip(struct rt__ctx *c, const struct rt__item *run, size_t k, void *arg)
{
	struct v1 *v = arg;
	char p[RT_PATHLEN], tb[32];
	struct buf b = BUF_INIT(RT_MSG_MAX);
	list_devs(v, run, k, &b, 1);
	rt__report(c, "device-ip-duplicate", rt__v1_dev_ip(v, run[1].idx), 0,
		   rt__v1_dev_path(v, run[1].idx, "device_ip", p), rt__v1_nic_hint,
		   "device_ip \"%s\" is used %s: %s", run[0].s, rt__times(k, tb, sizeof(tb)),
		   buf_str(&b));
	buf_release(&b);
}

static void dup_hport(struct rt__ctx *c, const struct rt__item *run, size_t k, void *arg)
{
	struct v1 *v = arg;
	char p[RT_PATHLEN], tb[32], who[160];
	struct buf b = BUF_INIT(RT_MSG_MAX);
	list_devs(v, run, k, &b, 0);
	rt__report(c, "host-port-duplicate", rt__v1_dev_hport(v, run[1].idx), 0,
		   rt__v1_dev_path(v, run[1].idx, "host_port", p),
		   "give each device of a server its own host_port",
		   "host_port \"%ld\" is used %s on %s: %s", run[0].n, rt__times(k, tb, sizeof(tb)),
		   rt__v1_srv_name(v, run[0].group, who, sizeof(who)), buf_str(&b));
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
		rt__report(c, "super-device-id-duplicate", rt__v1_dev_sdid(v, run[1].idx), 0,
			   rt__v1_dev_path(v, run[1].idx, "super_device_id", p),
			   "take each NPU's SDID from 'npu-smi info -t spod-info' on its server",
			   "super_device_id \"%ld\" is used %s in super pod \"%s\": %s", run[0].n,
			   rt__times(k, tb, sizeof(tb)), s->pod_id, buf_str(&b));
	else
		rt__report(c, "super-device-id-duplicate", rt__v1_dev_sdid(v, run[1].idx), 0,
			   rt__v1_dev_path(v, run[1].idx, "super_device_id", p),
			   "take each NPU's SDID from 'npu-smi info -t spod-info' on its server",
			   "super_device_id \"%ld\" is used %s: %s", run[0].n,
			   rt__times(k, tb, sizeof(tb)), buf_str(&b));
	buf_release(&b);
}

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;
	return (x > y) - (x < y);
}

int rt__v1_check_ranks(struct v1 *v, const struct rt__jnode *list)
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
		it[m++] = (struct rt__item){0, NULL, r, i};
		if ((size_t)r < n)
			seen[r] = 1;
		else if ((bad_ids = 1))
			rt__report(
				c, "rank-id-range", rt__v1_dev_member(v, i, "rank_id"), 0,
				rt__v1_dev_path(v, i, "rank_id", p),
				"number the ranks 0..N-1 without gaps",
				"rank_id \"%ld\" of %s is out of range: %zu ranks need ids 0..%zu",
				r, rt__v1_dev_where(v, i, who, sizeof(who)), n, n - 1);
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
			   rt__v1_srv_name(v, s, who, sizeof(who)), buf_str(&b));
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

int rt__v1_check_devices(struct v1 *v)
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
			it[m++] = (struct rt__item){v->dev[i].srv, NULL, t->ranks[i].device_id, i};
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
				it[m++] = (struct rt__item){0, t->ranks[i].device_ip, 0, i};
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
			it[m++] = (struct rt__item){0, q, 0, i};
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
				c, "device-ip-count", rt__v1_dev_ip(v, i), 0,
				rt__v1_dev_path(v, i, "device_ip", p),
				"give every device the same number of comma-separated IPs",
				"device_ip of %s lists %d address%s but %s lists %d; every device "
				"must list the same number",
				rt__v1_dev_who(v, i, w1, sizeof(w1)), d->nips,
				d->nips == 1 ? "" : "es", rt__v1_dev_who(v, first, w2, sizeof(w2)),
				v->dev[first].nips);
		if (famfirst == n) {
			famfirst = i;
		} else if (d->fam != v->dev[famfirst].fam) {
			rt__report(c, "ip-family-mixed", rt__v1_dev_ip(v, i), 0,
				   rt__v1_dev_path(v, i, "device_ip", p),
				   "use IPv4 for every device or IPv6 for every device",
				   "device_ip \"%s\" of %s is %s but %s uses %s; HCCL needs one "
				   "address family for all ranks",
				   t->ranks[i].device_ip, rt__v1_dev_who(v, i, w1, sizeof(w1)),
				   d->fam == AF_INET ? "IPv4" : "IPv6",
				   rt__v1_dev_who(v, famfirst, w2, sizeof(w2)),
				   d->fam == AF_INET ? "IPv6" : "IPv4");
			famfirst = i; /* report each switch once, not every later rank */
		}
	}

	/* host_port: unique per server. */
	m = 0;
	for (size_t i = 0; i < n; i++) {
		long port = rt__v1_dec_value(rt__v1_dev_member(v, i, "host_port"), 65535);
		if (port > 0)
			it[m++] = (struct rt__item){v->dev[i].srv, NULL, port, i};
	}
	rc = rt__dups(it, m, dup_hport, c, v);
	if (rc)
		goto out;

	/* super_device_id: unique per super pod (group = pod index + 1, 0 = no pod). */
	m = 0;
	for (size_t i = 0; i < n; i++)
		if (t->ranks[i].super_device_id >= 0)
			it[m++] = (struct rt__item){(size_t)(v->srv[v->dev[i].srv].pod + 1), NULL,
						    t->ranks[i].super_device_id, i};
	rc = rt__dups(it, m, dup_sdid, c, v);
out:
	free(it);
	return rc;
}

void rt__v1_check_servers(struct v1 *v)
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
					   rt__v1_srv_name(v, s, w1, sizeof(w1)),
					   rt__v1_srv_name(v, first_with, w2, sizeof(w2)));

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
			rt__report(
				c, "device-count-uneven", v->srv[s].obj, 0,
				rt__path(p, "%s.server_list[%zu].device", v->p->base, v->srv[s].si),
				"use the same number of NPUs on every server",
				"%s has %zu device%s but %s has %zu; uneven device counts per "
				"server degrade HCCL performance",
				rt__v1_srv_name(v, s, w1, sizeof(w1)), t->servers[s].nranks,
				plural_s(t->servers[s].nranks),
				rt__v1_srv_name(v, ref, w2, sizeof(w2)), t->servers[ref].nranks);
	}
}
