/* Version 2.0 (Ascend 950, "A5"): rank_list[] with integer ids and level_list[] network
 * levels (ascend.md §1.4). The server of a rank is its level-0 net_instance_id. */
#include <errno.h>
#include <math.h>

#include "ranktable/check.h"

#define RANK_COUNT_MAX 65536
#define ID_MAX 64
#define LEVELS_MAX 8
#define LAYER_MAX 7
#define INSTANCE_ID_MAX 1024
#define ADDRS_MAX 24
#define ADDR_MAX 256
#define PORTS_MAX 16

struct r2 {
	const cJSON *obj, *rid, *devid, *locid, *ip0;
	long local_id;
};

static const char *const top_keys[] = { "status", "version", "rank_count", "rank_list", NULL };
static const char *const rank_keys[] = { "rank_id",   "local_id",  "device_id", "device_port",
					 "host_port", "level_list", NULL };
static const char *const level_keys[] = { "net_layer", "net_instance_id", "net_type",
					  "net_attr", "rank_addr_list", NULL };
static const char *const addr_keys[] = { "addr_type", "addr", "ports", "plane_id", NULL };

/* An integer field. A string holding digits is reported but its value used, so a table
 * written with 1.x habits does not also report every id as missing. */
static long int_field(struct rt__ctx *c, const cJSON *obj, const char *key, const char *path,
		      const char *who, int required, long lo, long hi, const char *range_code,
		      const cJSON **node)
{
	char p[RT_PATHLEN], hint[96];
	const cJSON *m = cJSON_GetObjectItemCaseSensitive(obj, key);
	long v = -1;
	*node = m;
	rt__path(p, "%s.%s", path, key);
	if (!m) {
		if (required)
			rt__report(c, "key-missing", obj, 0, p, NULL, "missing \"%s\" in %s", key,
				   who);
		return -1;
	}
	if (cJSON_IsString(m)) {
		if (rt__dec(m->valuestring, 0x7fffffffUL, &v) == 0)
			snprintf(hint, sizeof(hint), "write \"%s\": %ld without quotes", key, v);
		else
			snprintf(hint, sizeof(hint), "write \"%s\" as a JSON integer", key);
		rt__report(c, "value-not-integer", m, 0, p, hint,
			   "%s \"%s\" of %s is a string; version 2.0 needs a JSON integer", key,
			   m->valuestring, who);
	} else if (!cJSON_IsNumber(m) || m->valuedouble != floor(m->valuedouble) ||
		   fabs(m->valuedouble) > 1e15) {
		rt__report(c, "value-not-integer", m, 0, p, NULL,
			   "%s of %s must be an integer, not %s", key, who,
			   cJSON_IsNumber(m) ? "a fraction" : rt__type(m));
		return -1;
	} else {
		v = (long)m->valuedouble;
	}
	if (v < lo || v > hi) {
		if (range_code)
			rt__report(c, range_code, m, 0, p, NULL, "%s %ld of %s is out of range %ld..%ld",
				   key, v, who, lo, hi);
		return -1;
	}
	return v;
}

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
	if (!cJSON_IsString(m)) {
		rt__report(c, "value-type", m, 0, p, NULL, "%s of %s must be a string, not %s", key,
			   who, rt__type(m));
		return NULL;
	}
	return m->valuestring;
}

static const cJSON *arr_field(struct rt__ctx *c, const cJSON *obj, const char *key,
			      const char *path, const char *who, int required, size_t *n)
{
	char p[RT_PATHLEN];
	const cJSON *m = cJSON_GetObjectItemCaseSensitive(obj, key);
	*n = 0;
	rt__path(p, "%s.%s", path, key);
	if (!m) {
		if (required)
			rt__report(c, "key-missing", obj, 0, p, NULL, "missing \"%s\" in %s", key,
				   who);
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

static int is_eid(const char *s)
{
	size_t n = 0;
	for (; s[n]; n++)
		if (!((s[n] >= '0' && s[n] <= '9') || (s[n] >= 'a' && s[n] <= 'f') ||
		      (s[n] >= 'A' && s[n] <= 'F')))
			return 0;
	return n == 32;
}

/* "D/P" (die/port, small decimals) or "d2h" (the host NIC). */
static int is_port(const char *s)
{
	if (!strcmp(s, "d2h"))
		return 1;
	long d, p;
	const char *slash = strchr(s, '/');
	if (!slash || slash == s || slash - s > 3 || strlen(slash + 1) > 3)
		return 0;
	char a[4];
	memcpy(a, s, (size_t)(slash - s));
	a[slash - s] = 0;
	return rt__dec(a, 255, &d) == 0 && rt__dec(slash + 1, 255, &p) == 0;
}

static void check_addr(struct rt__ctx *c, const cJSON *a, const char *path, const char *who,
		       const char **ip)
{
	char p[RT_PATHLEN];
	const cJSON *m;
	size_t np;
	rt__unknown_keys(c, a, path, addr_keys);
	const char *type = str_field(c, a, "addr_type", path, who, 1, &m);
	if (type && strcmp(type, "EID") && strcmp(type, "IPV4") && strcmp(type, "IPV6")) {
		rt__report(c, "addr-type-invalid", m, 0, rt__path(p, "%s.addr_type", path),
			   "use \"EID\", \"IPV4\" or \"IPV6\"",
			   "addr_type \"%s\" of %s is not EID, IPV4 or IPV6", type, who);
		type = NULL;
	}
	const char *addr = str_field(c, a, "addr", path, who, 1, &m);
	*ip = addr;
	if (addr) {
		size_t len = strlen(addr);
		enum rt__ipkind k = rt__ipkind(addr, len);
		const char *why = NULL;
		rt__path(p, "%s.addr", path);
		if (!len || len > ADDR_MAX)
			why = "must be 1..256 characters";
		else if (type && !strcmp(type, "EID") && !is_eid(addr))
			why = "is not an EID (32 hex digits)";
		else if (type && !strcmp(type, "IPV4") && k != RT_IP_V4)
			why = "is not an IPv4 address";
		else if (type && !strcmp(type, "IPV6") && k != RT_IP_V6)
			why = "is not an IPv6 address";
		if (why)
			rt__report(c, "addr-invalid", m, 0, p, NULL, "addr \"%.64s\" of %s %s", addr,
				   who, why);
	}
	const cJSON *ports = arr_field(c, a, "ports", path, who, 0, &np);
	if (!ports)
		return;
	rt__path(p, "%s.ports", path);
	if (np > PORTS_MAX) {
		rt__report(c, "ports-invalid", ports, 0, p, NULL,
			   "ports of %s lists %zu ports; at most %d are allowed", who, np, PORTS_MAX);
		return;
	}
	size_t k = 0;
	for (const cJSON *e = ports->child; e; e = e->next, k++) {
		if (cJSON_IsString(e) && is_port(e->valuestring))
			continue;
		char q[RT_PATHLEN];
		rt__report(c, "ports-invalid", e, 0, rt__path(q, "%s[%zu]", p, k),
			   "write ports as \"<die>/<port>\", e.g. \"1/0\", or \"d2h\"",
			   "port %s%s%s of %s is not \"<die>/<port>\" or \"d2h\"",
			   cJSON_IsString(e) ? "\"" : "", cJSON_IsString(e) ? e->valuestring : rt__type(e),
			   cJSON_IsString(e) ? "\"" : "", who);
		break;
	}
}

static void check_level(struct rt__ctx *c, struct rt_rank *r, struct r2 *x, const cJSON *lv,
			const char *path, const char *who, size_t li, long *prev)
{
	char p[RT_PATHLEN], lw[160];
	const cJSON *m;
	size_t na;
	rt__unknown_keys(c, lv, path, level_keys);
	snprintf(lw, sizeof(lw), "%s level_list[%zu]", who, li);
	long layer = int_field(c, lv, "net_layer", path, lw, 1, 0, LAYER_MAX, "net-layer-invalid", &m);
	if (layer >= 0) {
		rt__path(p, "%s.net_layer", path);
		if (li == 0 && layer != 0)
			rt__report(c, "net-layer-invalid", m, 0, p,
				   "level_list starts with net_layer 0", "the first level of %s has "
				   "net_layer %ld; it must be 0", who, layer);
		else if (li > 0 && *prev >= 0 && layer <= *prev)
			rt__report(c, "net-layer-invalid", m, 0, p,
				   "list levels in ascending net_layer order",
				   "net_layer %ld of %s does not come after net_layer %ld", layer, lw,
				   *prev);
		*prev = layer;
	}
	const char *inst = str_field(c, lv, "net_instance_id", path, lw, 1, &m);
	if (inst) {
		size_t len = strlen(inst);
		if (!len || len > INSTANCE_ID_MAX)
			rt__report(c, "net-instance-id-invalid", m, 0,
				   rt__path(p, "%s.net_instance_id", path), NULL,
				   "net_instance_id of %s %s", lw,
				   len ? "is longer than 1024 characters" : "is empty");
		else if (layer == 0 && li == 0)
			r->server_id = inst;
	}
	const char *type = str_field(c, lv, "net_type", path, lw, 1, &m);
	if (type) {
		int top = !strcmp(type, "TOPO_FILE_DESC"), clos = !strcmp(type, "CLOS");
		rt__path(p, "%s.net_type", path);
		if (layer == 0 && !top)
			rt__report(c, "net-type-invalid", m, 0, p, "use \"TOPO_FILE_DESC\" for layer 0",
				   "net_type \"%s\" of %s must be \"TOPO_FILE_DESC\" on net_layer 0",
				   type, lw);
		else if (!top && !clos)
			rt__report(c, "net-type-invalid", m, 0, p,
				   "use \"CLOS\" or \"TOPO_FILE_DESC\"",
				   "net_type \"%s\" of %s is not \"CLOS\" or \"TOPO_FILE_DESC\"", type,
				   lw);
	}
	const cJSON *al = arr_field(c, lv, "rank_addr_list", path, lw, 1, &na);
	if (!al)
		return;
	if (na > ADDRS_MAX)
		rt__report(c, "rank-addr-list-size", al, 0, rt__path(p, "%s.rank_addr_list", path),
			   NULL, "rank_addr_list of %s has %zu addresses; at most %d are allowed", lw,
			   na, ADDRS_MAX);
	size_t ai = 0;
	for (const cJSON *a = al->child; a; a = a->next, ai++) {
		char ap[RT_PATHLEN], aw[200];
		const char *ip;
		rt__path(ap, "%s.rank_addr_list[%zu]", path, ai);
		snprintf(aw, sizeof(aw), "%s rank_addr_list[%zu]", lw, ai);
		if (!cJSON_IsObject(a)) {
			rt__report(c, "value-type", a, 0, ap, NULL, "%s must be an object, not %s", aw,
				   rt__type(a));
			continue;
		}
		check_addr(c, a, ap, aw, &ip);
		if (li == 0 && ai == 0 && layer == 0 && ip) {
			r->device_ip = ip;
			x->ip0 = cJSON_GetObjectItemCaseSensitive(a, "addr");
		}
	}
}

static void check_rank(struct rt__ctx *c, struct rt_rank *r, struct r2 *x, const cJSON *e,
		       size_t i)
{
	char path[RT_PATHLEN], who[64], p[RT_PATHLEN];
	const cJSON *m;
	size_t nl;
	rt__path(path, "$.rank_list[%zu]", i);
	snprintf(who, sizeof(who), "rank_list[%zu]", i);
	memset(x, 0, sizeof(*x));
	x->obj = e;
	rt__jpos_get(c->pos, e, &r->line, &r->col);
	r->super_device_id = -1;
	rt__unknown_keys(c, e, path, rank_keys);

	r->rank_id = int_field(c, e, "rank_id", path, who, 1, 0, 0x7fffffffL, "rank-id-invalid", &x->rid);
	if (r->rank_id >= 0)
		snprintf(who, sizeof(who), "rank %ld", r->rank_id);
	x->local_id = int_field(c, e, "local_id", path, who, 1, 0, ID_MAX, "local-id-range", &x->locid);
	r->device_id = int_field(c, e, "device_id", path, who, 1, 0, ID_MAX, "device-id-range",
				 &x->devid);
	r->device_port = int_field(c, e, "device_port", path, who, 0, 1, 65535, "port-invalid", &m);
	if (r->device_port > 0 && r->device_port < 1024)
		rt__report(c, "port-privileged", m, 0, rt__path(p, "%s.device_port", path),
			   "use a port from 1024 to 65535",
			   "device_port %ld of %s is a privileged port (below 1024)", r->device_port,
			   who);
	long hp = int_field(c, e, "host_port", path, who, 0, 1, 65535, "port-invalid", &m);
	if (hp > 0 && hp < 1024)
		rt__report(c, "port-privileged", m, 0, rt__path(p, "%s.host_port", path),
			   "use a port from 1024 to 65535",
			   "host_port %ld of %s is a privileged port (below 1024)", hp, who);

	const cJSON *ll = arr_field(c, e, "level_list", path, who, 1, &nl);
	if (!ll)
		return;
	if (nl == 0 || nl > LEVELS_MAX)
		rt__report(c, "level-list-size", ll, 0, rt__path(p, "%s.level_list", path),
			   "describe 1 to 8 network levels, starting with net_layer 0",
			   "level_list of %s has %zu levels; 1 to %d are allowed", who, nl, LEVELS_MAX);
	long prev = -1;
	size_t li = 0;
	for (const cJSON *lv = ll->child; lv; lv = lv->next, li++) {
		char lp[RT_PATHLEN];
		rt__path(lp, "%s.level_list[%zu]", path, li);
		if (!cJSON_IsObject(lv)) {
			rt__report(c, "value-type", lv, 0, lp, NULL,
				   "level_list[%zu] of %s must be an object, not %s", li, who,
				   rt__type(lv));
			continue;
		}
		check_level(c, r, x, lv, lp, who, li, &prev);
	}
}

struct v2 {
	struct r2 *x;
	struct rt_rank *ranks;
};

static const char *r2_name(const struct v2 *v, size_t i, char *buf, size_t len)
{
	const struct rt_rank *r = &v->ranks[i];
	if (r->server_id && r->device_id >= 0)
		snprintf(buf, len, "rank_list[%zu] (\"%s\" device %ld)", i, r->server_id,
			 r->device_id);
	else
		snprintf(buf, len, "rank_list[%zu]", i);
	return buf;
}

static void dup_common(struct rt__ctx *c, const struct v2 *v, const struct rt__item *run,
		       size_t k, const char *code, const cJSON *at, const char *key,
		       const char *what)
{
	char p[RT_PATHLEN], w1[200], w2[200];
	rt__report(c, code, at, 0, rt__path(p, "$.rank_list[%zu].%s", run[1].idx, key), NULL,
		   "%s is used %s: %s and %s%s", what, k == 2 ? "twice" : "more than twice",
		   r2_name(v, run[0].idx, w1, sizeof(w1)), r2_name(v, run[1].idx, w2, sizeof(w2)),
		   k > 2 ? " and more" : "");
}

static void dup_rank(struct rt__ctx *c, const struct rt__item *run, size_t k, void *arg)
{
	struct v2 *v = arg;
	char what[64];
	snprintf(what, sizeof(what), "rank_id %ld", run[0].n);
	dup_common(c, v, run, k, "rank-id-duplicate", v->x[run[1].idx].rid, "rank_id", what);
}

static void dup_dev(struct rt__ctx *c, const struct rt__item *run, size_t k, void *arg)
{
	struct v2 *v = arg;
	char what[64];
	snprintf(what, sizeof(what), "device_id %ld", run[0].n);
	dup_common(c, v, run, k, "device-id-duplicate", v->x[run[1].idx].devid, "device_id", what);
}

static void dup_local(struct rt__ctx *c, const struct rt__item *run, size_t k, void *arg)
{
	struct v2 *v = arg;
	char what[64];
	snprintf(what, sizeof(what), "local_id %ld", run[0].n);
	dup_common(c, v, run, k, "local-id-duplicate", v->x[run[1].idx].locid, "local_id", what);
}

static void dup_ip(struct rt__ctx *c, const struct rt__item *run, size_t k, void *arg)
{
	struct v2 *v = arg;
	char what[320];
	snprintf(what, sizeof(what), "level 0 addr \"%.256s\"", run[0].s);
	dup_common(c, v, run, k, "device-ip-duplicate", v->x[run[1].idx].ip0,
		   "level_list[0].rank_addr_list[0].addr", what);
}

/* Server groups keyed by the level-0 instance id, in order of first appearance. */
static int cmp_item_s(const void *a, const void *b)
{
	const struct rt__item *x = a, *y = b;
	int r = strcmp(x->s ? x->s : "", y->s ? y->s : "");
	if (!r && (!x->s) != (!y->s))
		r = x->s ? 1 : -1;
	return r ? r : (x->idx > y->idx) - (x->idx < y->idx);
}

static int cmp_item_n(const void *a, const void *b)
{
	const struct rt__item *x = a, *y = b;
	if (x->n != y->n)
		return x->n < y->n ? -1 : 1;
	return (x->idx > y->idx) - (x->idx < y->idx);
}

static int group_servers(struct rt_table *t, struct rt__item *it)
{
	size_t n = t->nranks, ns = 0;
	for (size_t i = 0; i < n; i++)
		it[i] = (struct rt__item){ 0, t->ranks[i].server_id, 0, i };
	qsort(it, n, sizeof(*it), cmp_item_s);
	/* n = the file index of the group's first rank, for ordering groups. */
	for (size_t i = 0; i < n;) {
		size_t j = i;
		while (j < n && cmp_item_s(&(struct rt__item){ 0, it[i].s, 0, 0 },
					   &(struct rt__item){ 0, it[j].s, 0, 0 }) == 0)
			j++;
		for (size_t q = i; q < j; q++) {
			it[q].group = ns;
			it[q].n = (long)it[i].idx;
		}
		ns++;
		i = j;
	}
	qsort(it, n, sizeof(*it), cmp_item_n);
	struct rt_rank *nr = malloc((n ? n : 1) * sizeof(*nr));
	t->servers = calloc(ns ? ns : 1, sizeof(*t->servers));
	if (!nr || !t->servers) {
		free(nr);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		nr[i] = t->ranks[it[i].idx];
		if (i == 0 || it[i].n != it[i - 1].n) {
			struct rt_server *S = &t->servers[t->nservers++];
			S->server_id = nr[i].server_id;
			S->first_rank = i;
		}
		t->servers[t->nservers - 1].nranks++;
	}
	free(t->ranks);
	t->ranks = nr;
	return 0;
}

int rt__load_v2(struct rt__ctx *c)
{
	struct rt_table *t = c->t;
	const cJSON *root = c->root, *m;
	size_t n = 0;
	int rc = -ENOMEM;

	rt__unknown_keys(c, root, "$", top_keys);
	rt__check_status(c, root, 0);
	long cnt = int_field(c, root, "rank_count", "$", "the table", 1, 1, RANK_COUNT_MAX,
			     "rank-count-invalid", &m);
	const cJSON *rl = arr_field(c, root, "rank_list", "$", "the table", 1, &n);
	if (!rl)
		return 0;
	if (cnt > 0 && (size_t)cnt != n) {
		char hint[64];
		snprintf(hint, sizeof(hint), "set \"rank_count\": %zu", n);
		rt__report(c, "rank-count-mismatch", m, 0, "$.rank_count", hint,
			   "rank_count %ld does not match the %zu ranks in rank_list", cnt, n);
	}

	struct v2 v = { calloc(n ? n : 1, sizeof(struct r2)), NULL };
	struct rt__item *it = malloc((n ? n : 1) * sizeof(*it));
	t->ranks = calloc(n ? n : 1, sizeof(*t->ranks));
	if (!v.x || !it || !t->ranks)
		goto out;
	v.ranks = t->ranks;
	size_t i = 0;
	for (const cJSON *e = rl->child; e; e = e->next, i++) {
		if (!cJSON_IsObject(e)) {
			char p[RT_PATHLEN];
			rt__report(c, "value-type", e, 0, rt__path(p, "$.rank_list[%zu]", i), NULL,
				   "rank_list[%zu] must be an object, not %s", i, rt__type(e));
			memset(&t->ranks[i], 0, sizeof(t->ranks[i]));
			t->ranks[i].rank_id = t->ranks[i].device_id = -1;
			t->ranks[i].super_device_id = t->ranks[i].device_port = -1;
			continue;
		}
		check_rank(c, &t->ranks[i], &v.x[i], e, i);
	}
	t->nranks = n;

	/* rank ids: unique, 0..N-1 */
	size_t k = 0;
	unsigned char *seen = calloc(n ? n : 1, 1);
	long *miss = malloc((n ? n : 1) * sizeof(*miss));
	if (!seen || !miss) {
		free(seen);
		free(miss);
		goto out;
	}
	for (i = 0; i < n; i++) {
		long r = t->ranks[i].rank_id;
		if (r < 0)
			continue;
		it[k++] = (struct rt__item){ 0, NULL, r, i };
		if ((size_t)r < n) {
			seen[r] = 1;
		} else {
			char p[RT_PATHLEN];
			rt__report(c, "rank-id-range", v.x[i].rid, 0,
				   rt__path(p, "$.rank_list[%zu].rank_id", i),
				   "number the ranks 0..N-1 without gaps",
				   "rank_id %ld of rank_list[%zu] is out of range: %zu ranks need ids "
				   "0..%zu",
				   r, i, n, n - 1);
		}
	}
	size_t nmiss = 0;
	for (size_t r = 0; r < n; r++)
		if (!seen[r])
			miss[nmiss++] = (long)r;
	int all = k == n;
	free(seen);
	rc = rt__dups(it, k, dup_rank, c, &v);
	if (!rc && nmiss && all) {
		struct rt__sb b = { 0 };
		rt__sb_ranges(&b, miss, nmiss, 16);
		rt__report(c, "rank-id-gap", rl, 0, "$.rank_list",
			   "number the ranks 0..N-1 without gaps",
			   "rank ids must be 0..%zu without gaps; missing %s", n - 1, rt__sb_str(&b));
		rt__sb_release(&b);
	}
	free(miss);
	if (rc)
		goto out;

	/* device_id and local_id: unique per server (level-0 instance). */
	struct rt__item *g = malloc((n ? n : 1) * sizeof(*g));
	if (!g) {
		rc = -ENOMEM;
		goto out;
	}
	for (i = 0; i < n; i++)
		g[i] = (struct rt__item){ 0, t->ranks[i].server_id, 0, i };
	qsort(g, n, sizeof(*g), cmp_item_s);
	size_t *grp = malloc((n ? n : 1) * sizeof(*grp));
	if (!grp) {
		free(g);
		rc = -ENOMEM;
		goto out;
	}
	for (size_t q = 0, gi = 0; q < n; q++) {
		if (q && cmp_item_s(&(struct rt__item){ 0, g[q].s, 0, 0 },
				    &(struct rt__item){ 0, g[q - 1].s, 0, 0 }))
			gi++;
		grp[g[q].idx] = gi;
	}
	free(g);
	k = 0;
	for (i = 0; i < n; i++)
		if (t->ranks[i].server_id && t->ranks[i].device_id >= 0)
			it[k++] = (struct rt__item){ grp[i], NULL, t->ranks[i].device_id, i };
	rc = rt__dups(it, k, dup_dev, c, &v);
	k = 0;
	for (i = 0; !rc && i < n; i++)
		if (t->ranks[i].server_id && v.x[i].local_id >= 0)
			it[k++] = (struct rt__item){ grp[i], NULL, v.x[i].local_id, i };
	if (!rc)
		rc = rt__dups(it, k, dup_local, c, &v);
	free(grp);
	k = 0;
	for (i = 0; !rc && i < n; i++)
		if (t->ranks[i].device_ip && v.x[i].ip0)
			it[k++] = (struct rt__item){ 0, t->ranks[i].device_ip, 0, i };
	if (!rc)
		rc = rt__dups(it, k, dup_ip, c, &v);
	if (!rc)
		rc = group_servers(t, it);
out:
	free(it);
	free(v.x);
	return rc;
}
