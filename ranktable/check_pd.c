/* vllm-ascend's disaggregated-prefill rank table: not an HCCL table but the file vllm-ascend's
 * LLMDataDist connector reads through DISAGGREGATED_PREFILL_RANK_TABLE_PATH (written by its
 * examples/disaggregated_prefill/gen_ranktable.py):
 *
 *   { "version": "1.2", "server_count": "2", "status": "completed",
 *     "prefill_device_list": [ { "server_id": "172.17.0.6", "device_id": "0",
 *                                "device_ip": "192.170.100.100", "cluster_id": "1",
 *                                "super_pod_id": "0", "super_device_id": "0" }, ... ],
 *     "decode_device_list": [ ... ] }
 *
 * What the connector does with it, and so what is checked: a prefill (decode) instance reads
 * both lists, keeps the entries whose server_id equals its node's IP and whose device_id is
 * visible to it, and takes cluster_id with int(); for each prefill-decode pair it then builds
 * a two-rank 1.2 table for HCCL from server_id, device_id, device_ip and super_device_id as
 * they are. So both lists are required, server_id is the node's IP, device_id a decimal
 * string, device_ip a literal address (used between servers), cluster_id a decimal unique
 * per device, and no device is listed twice. HCCL's error codes do not apply: HCCL never
 * reads this file. */
#include <errno.h>
#include <math.h>

#include "ranktable/check.h"

#define DEVICE_ID_MAX 15

static const char *const top_keys[] = {
	"version", "server_count", "status", "prefill_device_list", "decode_device_list", NULL};
static const char *const dev_keys[] = {"server_id",    "device_id",	  "device_ip", "cluster_id",
				       "super_pod_id", "super_device_id", NULL};
static const char *const lists[] = {"prefill_device_list", "decode_device_list"};

/* One entry of either list. */
struct pdev {
	const struct rt__jnode *obj, *sid, *devid, *ip, *cid;
	const char *server_id, *device_ip;
	size_t list, li; /* which list, and the index in it */
	size_t srv;	 /* index of its server among the distinct server_ids */
	long device_id, cluster_id;
};

struct pd {
	struct rt__ctx *c;
	struct pdev *v;
	size_t n;
};

static const char *pd_where(const struct pdev *d, char *buf, size_t len)
{
	snprintf(buf, len, "%s[%zu]", lists[d->list], d->li);
	return buf;
}

/* "prefill_device_list[0] (server "a" device 1)" */
static const char *pd_who(const struct pdev *d, char *buf, size_t len)
{
	char w[64];
	pd_where(d, w, sizeof(w));
	if (d->server_id && d->device_id >= 0)
		snprintf(buf, len, "%s (server \"%.64s\" device %ld)", w, d->server_id,
			 d->device_id);
	else
		snprintf(buf, len, "%s", w);
	return buf;
}

static const char *pd_path(const struct pdev *d, const char *key, char *buf)
{
	return rt__path(buf, "$.%s[%zu]%s%s", lists[d->list], d->li, key ? "." : "",
			key ? key : "");
}

/* A required (or optional) string member; a number is named as what it breaks. */
static const char *str_member(struct rt__ctx *c, const struct pdev *d, const char *key,
			      int required, const struct rt__jnode **node)
{
	char p[RT_PATHLEN], w[64];
	const struct rt__jnode *m = rt__jget(d->obj, key);
	*node = m;
	pd_path(d, key, p);
	pd_where(d, w, sizeof(w));
	if (!m) {
		if (required)
			rt__report(c, "key-missing", d->obj, 0, p, NULL,
				   "missing \"%s\" in %s; vllm-ascend stops with a KeyError", key,
				   w);
		return NULL;
	}
	if (rt__jis_str(m))
		return rt__jstr(m);
	if (rt__jis_num(m) && strcmp(key, "server_id")) {
		char hint[96];
		snprintf(hint, sizeof(hint), "write \"%s\": \"%.15g\"", key, rt__jnum(m));
		rt__report(
			c, "value-not-string", m, 0, p, hint,
			"%s %.15g of %s is a number, not a string; vllm-ascend copies it into the "
			"rank table it gives HCCL, which rejects numbers",
			key, rt__jnum(m), w);
	} else
		rt__report(c, "value-type", m, 0, p, NULL, "%s of %s must be a string, not %s", key,
			   w, rt__type(m));
	return NULL;
}

static int cmp_str_item(const void *a, const void *b)
{
	const struct rt__item *x = a, *y = b;
	int r = strcmp(x->s, y->s);
	return r ? r : (x->idx > y->idx) - (x->idx < y->idx);
}

/* Numbers the distinct server_ids; returns how many there are, or -ENOMEM. */
static long number_servers(struct pd *x)
{
	struct rt__item *it = malloc((x->n ? x->n : 1) * sizeof(*it));
	size_t m = 0, ns = 0;
	if (!it)
		return -ENOMEM;
	for (size_t i = 0; i < x->n; i++) {
		x->v[i].srv = (size_t)-1;
		if (x->v[i].server_id)
			it[m++] = (struct rt__item){0, x->v[i].server_id, 0, i};
	}
	qsort(it, m, sizeof(*it), cmp_str_item);
	for (size_t k = 0; k < m; k++) {
		if (k == 0 || strcmp(it[k].s, it[k - 1].s))
			ns++;
		x->v[it[k].idx].srv = ns - 1;
	}
	free(it);
	return (long)ns;
}

static void check_device(struct pd *x, struct pdev *d)
{
	struct rt__ctx *c = x->c;
	char p[RT_PATHLEN], who[200];
	const struct rt__jnode *m;
	const char *s;

	/* device_id: decimal string, 0..15 */
	s = str_member(c, d, "device_id", 1, &m);
	if (s) {
		pd_who(d, who, sizeof(who));
		if (rt__dec(s, 0xffffffffUL, &d->device_id))
			rt__report(c, "device-id-invalid", m, 0, pd_path(d, "device_id", p),
				   "the physical NPU id, as in /dev/davinciN and npu-smi info",
				   "device_id \"%s\" of %s is not a decimal number", s, who);
		else if (d->device_id > DEVICE_ID_MAX)
			rt__report(c, "device-id-range", m, 0, pd_path(d, "device_id", p),
				   "the physical NPU id, as in /dev/davinciN and npu-smi info",
				   "device_id \"%ld\" of %s is out of range 0..%d", d->device_id,
				   who, DEVICE_ID_MAX);
	}
	pd_who(d, who, sizeof(who));

	/* server_id: the node's IP, which is what vllm-ascend compares it with */
	if (d->sid && d->server_id) {
		pd_path(d, "server_id", p);
		enum rt__ipkind k = rt__ipkind(d->server_id, strlen(d->server_id));
		if (k == RT_IP_EMPTY)
			rt__report(c, "server-id-empty", d->sid, 0, p,
				   "the IP of the node the device is in",
				   "server_id of %s is empty", who);
		else if (k == RT_IP_PLACEHOLDER)
			rt__check_server_id(c, d->sid, p);
		else if (k != RT_IP_V4 && k != RT_IP_V6)
			rt__report(
				c, "pd-server-id-not-ip", d->sid, 0, p,
				"write the node's IP (gen_ranktable.py takes it from hostname -I)",
				"server_id \"%.64s\" of %s is not an IP address; vllm-ascend finds "
				"a node's devices by comparing server_id with the node's IP, so no "
				"instance takes this one",
				d->server_id, who);
	}

	/* device_ip: a literal address, used for the KV transfer between the instances */
	if (d->ip && d->device_ip) {
		pd_path(d, "device_ip", p);
		enum rt__ipkind k = rt__ipkind(d->device_ip, strlen(d->device_ip));
		static const char hint[] = "the NPU NIC IP of that device: 'hccn_tool -i N -ip -g' "
					   "(or -vnic -g on A3) on the server";
		if (k == RT_IP_PLACEHOLDER)
			rt__report(c, "device-ip-placeholder", d->ip, 0, p, hint,
				   "device_ip \"%.64s\" of %s is a placeholder, not an address%s",
				   d->device_ip, who,
				   c->single ? "; with one server no traffic uses it, but fill it "
					       "in before the table grows"
					     : "");
		else if (k == RT_IP_HOSTNAME)
			rt__report(
				c, "device-ip-hostname", d->ip, 0, p, hint,
				"device_ip \"%.64s\" of %s is a host name; HCCL needs the literal "
				"IP of the NPU's own NIC",
				d->device_ip, who);
		else if (k != RT_IP_V4 && k != RT_IP_V6)
			rt__report(c, "device-ip-invalid", d->ip, 0, p, hint,
				   "device_ip \"%.64s\" of %s is not an IPv4 or IPv6 address",
				   d->device_ip, who);
	}

	/* cluster_id: int() of it names the device's LLMDataDist cluster */
	if (d->cid) {
		pd_path(d, "cluster_id", p);
		long v = -1;
		if (rt__jis_str(d->cid))
			rt__dec(rt__jstr(d->cid), 0x7fffffffUL, &v);
		else if (rt__jis_num(d->cid) && rt__jnum(d->cid) >= 0 &&
			 rt__jnum(d->cid) <= 2147483647.0 &&
			 rt__jnum(d->cid) == floor(rt__jnum(d->cid)))
			v = (long)rt__jnum(d->cid);
		d->cluster_id = v;
		if (v < 0 && rt__jis_str(d->cid))
			rt__report(
				c, "cluster-id-invalid", d->cid, 0, p,
				"number the devices \"1\", \"2\", ... as gen_ranktable.py does",
				"cluster_id \"%.32s\" of %s is not a decimal number; vllm-ascend "
				"reads it with int()",
				rt__jstr(d->cid), who);
		else if (v < 0)
			rt__report(c, "cluster-id-invalid", d->cid, 0, p,
				   "number the devices \"1\", \"2\", ... as gen_ranktable.py does",
				   "cluster_id of %s must be a decimal string, not %s", who,
				   rt__jis_num(d->cid) ? "a negative or fractional number"
							  : rt__type(d->cid));
	}

	/* the super-pod fields of A3, optional */
	s = str_member(c, d, "super_device_id", 0, &m);
	long sdid;
	if (s && rt__dec(s, 0xffffffffUL, &sdid))
		rt__report(c, "super-device-id-invalid", m, 0, pd_path(d, "super_device_id", p),
			   "the SDID of the NPU from 'npu-smi info -t spod-info'",
			   "super_device_id \"%s\" of %s is not a decimal 32-bit number", s, who);
	str_member(c, d, "super_pod_id", 0, &m);
}

/* "A and B", "A, B and C", up to four then "and N more". */
static void list_run(const struct pd *x, const struct rt__item *run, size_t k, int who,
		     struct buf *b)
{
	char w[200];
	size_t shown = k > 4 ? 4 : k;
	for (size_t j = 0; j < shown; j++) {
		const struct pdev *d = &x->v[run[j].idx];
		const char *sep = j == 0 ? "" : (j + 1 == shown && shown == k) ? " and " : ", ";
		buf_printf(b, "%s%s", sep,
			   who ? pd_who(d, w, sizeof(w)) : pd_where(d, w, sizeof(w)));
	}
	if (k > shown)
		buf_printf(b, " and %zu more", k - shown);
}

static void dup_device(struct rt__ctx *c, const struct rt__item *run, size_t k, void *arg)
{
	struct pd *x = arg;
	const struct pdev *a = &x->v[run[0].idx], *d = &x->v[run[1].idx];
	char p[RT_PATHLEN], tb[16];
	struct buf b = BUF_INIT(RT_MSG_MAX);
	list_run(x, run, k, 0, &b);
	rt__report(c, "device-id-duplicate", d->devid, 0, pd_path(d, "device_id", p),
		   "list each NPU once, in the prefill or the decode list",
		   "device %ld of server \"%.64s\" is listed %s: %s", a->device_id, a->server_id,
		   rt__times(k, tb, sizeof(tb)), buf_str(&b));
	buf_release(&b);
}

static void dup_cluster(struct rt__ctx *c, const struct rt__item *run, size_t k, void *arg)
{
	struct pd *x = arg;
	const struct pdev *d = &x->v[run[1].idx];
	char p[RT_PATHLEN], tb[16];
	struct buf b = BUF_INIT(RT_MSG_MAX);
	list_run(x, run, k, 1, &b);
	rt__report(c, "cluster-id-duplicate", d->cid, 0, pd_path(d, "cluster_id", p),
		   "give every device its own cluster_id (gen_ranktable.py numbers them 1..N)",
		   "cluster_id %ld is used %s: %s", run[0].n, rt__times(k, tb, sizeof(tb)),
		   buf_str(&b));
	buf_release(&b);
}

static void dup_ip(struct rt__ctx *c, const struct rt__item *run, size_t k, void *arg)
{
	struct pd *x = arg;
	const struct pdev *d = &x->v[run[1].idx];
	char p[RT_PATHLEN], tb[16];
	struct buf b = BUF_INIT(RT_MSG_MAX);
	list_run(x, run, k, 1, &b);
	rt__report(c, "device-ip-duplicate", d->ip, 0, pd_path(d, "device_ip", p),
		   "use the NPU NIC IP of each device: 'hccn_tool -i N -ip -g' on its server",
		   "device_ip \"%.64s\" is used %s: %s", run[0].s, rt__times(k, tb, sizeof(tb)),
		   buf_str(&b));
	buf_release(&b);
}

static int check_dups(struct pd *x)
{
	struct rt__item *it = malloc((x->n ? x->n : 1) * sizeof(*it));
	size_t m = 0;
	int rc;
	if (!it)
		return -ENOMEM;
	for (size_t i = 0; i < x->n; i++)
		if (x->v[i].srv != (size_t)-1 && x->v[i].device_id >= 0)
			it[m++] = (struct rt__item){x->v[i].srv, NULL, x->v[i].device_id, i};
	rc = rt__dups(it, m, dup_device, x->c, x);
	m = 0;
	for (size_t i = 0; !rc && i < x->n; i++)
		if (x->v[i].cluster_id >= 0)
			it[m++] = (struct rt__item){0, NULL, x->v[i].cluster_id, i};
	if (!rc)
		rc = rt__dups(it, m, dup_cluster, x->c, x);
	m = 0;
	for (size_t i = 0; !rc && i < x->n; i++) {
		const char *ip = x->v[i].device_ip;
		enum rt__ipkind k = ip ? rt__ipkind(ip, strlen(ip)) : RT_IP_EMPTY;
		if (k == RT_IP_V4 || k == RT_IP_V6)
			it[m++] = (struct rt__item){0, ip, 0, i};
	}
	if (!rc)
		rc = rt__dups(it, m, dup_ip, x->c, x);
	free(it);
	return rc;
}

/* Pass 1: the entries of both lists and their string members. */
static void read_entries(struct pd *x, const struct rt__jnode *const arr[2])
{
	struct rt__ctx *c = x->c;
	char p[RT_PATHLEN];
	for (size_t l = 0; l < 2; l++) {
		size_t li = 0;
		for (const struct rt__jnode *e = arr[l] ? rt__jchild(arr[l]) : NULL; e;
		     e = rt__jnext(e), li++) {
			struct pdev *d = &x->v[x->n];
			const struct rt__jnode *m;
			if (!rt__jis_obj(e)) {
				rt__report(c, "value-type", e, 0,
					   rt__path(p, "$.%s[%zu]", lists[l], li), NULL,
					   "%s[%zu] must be an object, not %s", lists[l], li,
					   rt__type(e));
				continue;
			}
			x->n++;
			*d = (struct pdev){
				.obj = e, .list = l, .li = li, .device_id = -1, .cluster_id = -1};
			rt__unknown_keys(c, e, rt__path(p, "$.%s[%zu]", lists[l], li), dev_keys);
			d->server_id = str_member(c, d, "server_id", 1, &m);
			d->sid = d->server_id ? m : NULL;
			d->device_ip = str_member(c, d, "device_ip", 1, &m);
			d->ip = d->device_ip ? m : NULL;
			d->devid = rt__jget(e, "device_id");
			d->cid = rt__jget(e, "cluster_id");
			if (!d->cid)
				rt__report(c, "key-missing", e, 0, pd_path(d, "cluster_id", p),
					   NULL,
					   "missing \"cluster_id\" in %s[%zu]; vllm-ascend stops "
					   "with a "
					   "KeyError",
					   lists[l], li);
		}
	}
}

int rt__load_vllm_pd(struct rt__ctx *c)
{
	struct rt_table *t = c->t;
	const struct rt__jnode *root = c->root, *arr[2];
	struct pd x = {c, NULL, 0};
	char p[RT_PATHLEN];
	int rc = 0;

	rt__report(c, "vllm-pd-table", root, 0, "$",
		   "HCCL's own table (RANK_TABLE_FILE) is a different file, with server_list",
		   "this is vllm-ascend's disaggregated-prefill rank table (prefill_device_list, "
		   "decode_device_list), read by vllm-ascend through "
		   "DISAGGREGATED_PREFILL_RANK_TABLE_PATH, not by HCCL; it is checked for what "
		   "vllm-ascend needs");
	rt__unknown_keys(c, root, "$", top_keys);
	rt__check_status(c, root, 0);

	size_t total = 0;
	for (size_t l = 0; l < 2; l++) {
		const struct rt__jnode *a = rt__jget(root, lists[l]);
		arr[l] = NULL;
		rt__path(p, "$.%s", lists[l]);
		if (!a) {
			rt__report(c, "key-missing", root, 0, p,
				   l ? "list the decode instances' devices, even if only []"
				     : "list the prefill instances' devices, even if only []",
				   "missing \"%s\"; vllm-ascend reads both lists and stops with a "
				   "KeyError",
				   lists[l]);
			continue;
		}
		if (!rt__jis_arr(a)) {
			rt__report(c, "value-type", a, 0, p, NULL, "%s must be an array, not %s",
				   lists[l], rt__type(a));
			continue;
		}
		arr[l] = a;
		size_t n = 0;
		for (const struct rt__jnode *e = rt__jchild(a); e; e = rt__jnext(e))
			n++;
		if (!n)
			rt__report(c, "pd-list-empty", a, 0, p,
				   l ? "list the devices of the decode (kv_consumer) instances"
				     : "list the devices of the prefill (kv_producer) instances",
				   "%s is empty: no %s instance finds its devices in this table",
				   lists[l], l ? "decode (kv_consumer)" : "prefill (kv_producer)");
		total += n;
	}

	x.v = calloc(total ? total : 1, sizeof(*x.v));
	t->ranks = calloc(total ? total : 1, sizeof(*t->ranks));
	if (!x.v || !t->ranks) {
		rc = -ENOMEM;
		goto out;
	}
	read_entries(&x, arr);
	/* Device IPs only cross between servers when there is more than one. */
	long ns = number_servers(&x);
	if (ns < 0) {
		rc = (int)ns;
		goto out;
	}
	int single = c->single;
	c->single = ns <= 1;
	for (size_t i = 0; i < x.n; i++)
		check_device(&x, &x.v[i]);
	rc = check_dups(&x);
	c->single = single;
	if (rc)
		goto out;

	for (size_t i = 0; i < x.n; i++) {
		const struct pdev *d = &x.v[i];
		struct rt_rank *r = &t->ranks[t->nranks++];
		const struct rt__jnode *m = rt__jget(d->obj, "super_device_id");
		const struct rt__jnode *pod = rt__jget(d->obj, "super_pod_id");
		long sdid = -1;
		if (rt__jis_str(m))
			rt__dec(rt__jstr(m), 0xffffffffUL, &sdid);
		*r = (struct rt_rank){.rank_id = -1,
				      .server_id = d->server_id,
				      .device_id = d->device_id,
				      .device_ip = d->device_ip,
				      .super_pod_id = rt__jis_str(pod) ? rt__jstr(pod) : NULL,
				      .super_device_id = sdid,
				      .device_port = -1};
		rt__jpos_node(c->pos, d->obj, &r->line, &r->col);
	}
	rc = rt__group_servers(t);
out:
	free(x.v);
	return rc;
}
