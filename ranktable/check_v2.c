/* Version 2.0 (Ascend 950, "A5"): rank_list[] with integer ids and level_list[] network
 * levels, as the HCCL guide's 2.0 page describes them and HCCL's parser (hcomm's
 * NewRankInfo and RankLevelInfo) reads them, including the keys HCCL's own tests write:
 * "detour", "replaced_local_id" (the rank a backup, local_id 64, stands in for) and
 * "control_plane" (read from the rank). The server of a rank is its level-0
 * net_instance_id. An older 2.0 layout (level, id, fabric_type, rank_addrs, replace_list)
 * that HCCL's early tests used is named as such. */
#include <errno.h>
#include <math.h>

#include "ranktable/check.h"
#include "ranktable/base/plural.h"

#define RANK_COUNT_MAX 65536
#define ID_MAX 64
#define LEVELS_MAX 8
#define LAYER_MAX 7
#define INSTANCE_ID_MAX 1024
#define ADDRS_MAX 24
#define ADDR_MAX 256
#define PORTS_MAX 16
#define BACKUP_LOCAL_ID 64 /* local_id of a backup rank; replaced_local_id names whom */

struct r2 {
	const struct rt__jnode *obj, *rid, *devid, *locid, *ip0;
	long local_id;
};

static const char *const top_keys[] = { "status", "version", "rank_count", "rank_list",
					"detour", "task_id", NULL };
static const char *const top_keys_old[] = { "status", "version", "rank_count", "rank_list",
					    "detour", "task_id", "replace_count",
					    "replace_list", NULL };
static const char *const rank_keys[] = { "rank_id",   "local_id",   "device_id",
					 "device_port", "host_port", "level_list",
					 "replaced_local_id", "control_plane", NULL };
static const char *const level_keys[] = { "net_layer", "net_instance_id", "net_type",
					  "net_attr", "rank_addr_list", "control_plane",
					  "pcie_fallback", NULL };
static const char *const addr_keys[] = { "addr_type", "addr", "ports", "plane_id", NULL };
static const char *const cp_keys[] = { "addr_type", "addr", "listen_port", NULL };

/* A level written in the older layout: "level", "id", "fabric_type", "rank_addrs" instead of
 * net_layer, net_instance_id, net_type, rank_addr_list. */
static const struct rt__jnode *old_level_key(const struct rt__jnode *lv)
{
	static const char *const old[] = { "level", "fabric_type", "rank_addrs",
					   "rank_addr_type" };
	if (!rt__jis_obj(lv) || rt__jget(lv, "net_layer"))
		return NULL;
	for (size_t i = 0; i < sizeof(old) / sizeof(old[0]); i++) {
		const struct rt__jnode *m = rt__jget(lv, old[i]);
		if (m)
			return m;
	}
	return NULL;
}

/* An integer field. A string holding digits is reported but its value used, so a table
 * written with 1.x habits does not also report every id as missing. */
static long int_field(struct rt__ctx *c, const struct rt__jnode *obj, const char *key,
		      const char *path, const char *who, int required, long lo, long hi,
		      const char *range_code, const struct rt__jnode **node)
{
	char p[RT_PATHLEN], hint[96];
	const struct rt__jnode *m = rt__jget(obj, key);
	long v = -1;
	*node = m;
	rt__path(p, "%s.%s", path, key);
	if (!m) {
		if (required)
			rt__report(c, "key-missing", obj, 0, p, NULL, "missing \"%s\" in %s", key,
				   who);
		return -1;
	}
	const char *ms = rt__jstr(m);
	if (ms) {
		int num = rt__dec(ms, 0x7fffffffUL, &v) == 0;
		if (num)
			snprintf(hint, sizeof(hint), "write \"%s\": %ld without quotes", key, v);
		else
			snprintf(hint, sizeof(hint), "write \"%s\" as a JSON integer", key);
		rt__report(c, "value-not-integer", m, 0, p, hint,
			   "%s \"%s\" of %s is a string; version 2.0 needs a JSON integer", key,
			   ms, who);
		if (!num)
			return -1; /* no number to check the range of */
	} else if (!rt__jis_num(m) || rt__jnum(m) != floor(rt__jnum(m)) ||
		   fabs(rt__jnum(m)) > 1e15) {
		rt__report(c, "value-not-integer", m, 0, p, NULL,
			   "%s of %s must be an integer, not %s", key, who,
			   rt__jis_num(m) ? "a fraction" : rt__type(m));
		return -1;
	} else {
		v = (long)rt__jnum(m);
	}
	if (v < lo || v > hi) {
		if (range_code)
			rt__report(c, range_code, m, 0, p, NULL, "%s %ld of %s is out of range %ld..%ld",
				   key, v, who, lo, hi);
		return -1;
	}
	return v;
}

static const struct rt__jnode *arr_field(struct rt__ctx *c, const struct rt__jnode *obj,
					 const char *key, const char *path, const char *who,
					 int required, size_t *n)
{
	char p[RT_PATHLEN];
	const struct rt__jnode *m = rt__jget(obj, key);
	*n = 0;
	rt__path(p, "%s.%s", path, key);
	if (!m) {
		if (required)
			rt__report(c, "key-missing", obj, 0, p, NULL, "missing \"%s\" in %s", key,
				   who);
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

static void check_addr(struct rt__ctx *c, const struct rt__jnode *a, const char *path,
		       const char *who, const char **ip)
{
	char p[RT_PATHLEN];
	const struct rt__jnode *m;
	size_t np;
	rt__unknown_keys(c, a, path, addr_keys);
	const char *type = rt__str_field(c, a, "addr_type", path, who, RT_STR_REQUIRED, &m);
	if (type && strcmp(type, "EID") && strcmp(type, "IPV4") && strcmp(type, "IPV6")) {
		rt__report(c, "addr-type-invalid", m, 0, rt__path(p, "%s.addr_type", path),
			   "use \"EID\", \"IPV4\" or \"IPV6\"",
			   "addr_type \"%s\" of %s is not EID, IPV4 or IPV6", type, who);
		type = NULL;
	}
	const char *addr = rt__str_field(c, a, "addr", path, who, RT_STR_REQUIRED, &m);
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
	const struct rt__jnode *ports = arr_field(c, a, "ports", path, who, 0, &np);
	if (!ports)
		return;
	rt__path(p, "%s.ports", path);
	if (np > PORTS_MAX) {
		rt__report(c, "ports-invalid", ports, 0, p, NULL,
			   "ports of %s lists %zu ports; at most %d are allowed", who, np, PORTS_MAX);
		return;
	}
	size_t k = 0;
	for (const struct rt__jnode *e = rt__jchild(ports); e; e = rt__jnext(e), k++) {
		if (rt__jis_str(e) && is_port(rt__jstr(e)))
			continue;
		char q[RT_PATHLEN];
		rt__report(c, "ports-invalid", e, 0, rt__path(q, "%s[%zu]", p, k),
			   "write ports as \"<die>/<port>\", e.g. \"1/0\", or \"d2h\"",
			   "port %s%s%s of %s is not \"<die>/<port>\" or \"d2h\"",
			   rt__jis_str(e) ? "\"" : "", rt__jis_str(e) ? rt__jstr(e) : rt__type(e),
			   rt__jis_str(e) ? "\"" : "", who);
		break;
	}
}

/* control_plane: { "addr_type", "addr", "listen_port" }, the address a rank's control
 * traffic uses. */
static void check_control_plane(struct rt__ctx *c, const struct rt__jnode *cp, const char *path,
				const char *who)
{
	char p[RT_PATHLEN], w[200];
	const struct rt__jnode *m;
	snprintf(w, sizeof(w), "control_plane of %s", who);
	if (!rt__object_at(c, cp, path, w))
		return;
	rt__unknown_keys(c, cp, path, cp_keys);
	const char *type = rt__str_field(c, cp, "addr_type", path, w, RT_STR_REQUIRED, &m);
	if (type && strcmp(type, "IPV4") && strcmp(type, "IPV6")) {
		rt__report(c, "addr-type-invalid", m, 0, rt__path(p, "%s.addr_type", path),
			   "use \"IPV4\" or \"IPV6\"", "addr_type \"%s\" of %s is not IPV4 or IPV6",
			   type, w);
		type = NULL;
	}
	const char *addr = rt__str_field(c, cp, "addr", path, w, RT_STR_REQUIRED, &m);
	if (addr) {
		enum rt__ipkind k = rt__ipkind(addr, strlen(addr));
		const char *why = NULL;
		if (type && !strcmp(type, "IPV4") && k != RT_IP_V4)
			why = "is not an IPv4 address";
		else if (type && !strcmp(type, "IPV6") && k != RT_IP_V6)
			why = "is not an IPv6 address";
		else if (!type && k != RT_IP_V4 && k != RT_IP_V6)
			why = "is not an IP address";
		if (why)
			rt__report(c, "addr-invalid", m, 0, rt__path(p, "%s.addr", path), NULL,
				   "addr \"%.64s\" of %s %s", addr, w, why);
	}
	int_field(c, cp, "listen_port", path, w, 1, 1, 65535, "port-invalid", &m);
}

static void check_level(struct rt__ctx *c, struct rt_rank *r, struct r2 *x,
			const struct rt__jnode *lv, const char *path, const char *who, size_t li,
			long *prev)
{
	char p[RT_PATHLEN], lw[160];
	const struct rt__jnode *m;
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
	const char *inst = rt__str_field(c, lv, "net_instance_id", path, lw, RT_STR_REQUIRED, &m);
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
	const char *type = rt__str_field(c, lv, "net_type", path, lw, RT_STR_REQUIRED, &m);
	if (type) {
		int top = !strcmp(type, "TOPO_FILE_DESC"), clos = !strcmp(type, "CLOS");
		rt__path(p, "%s.net_type", path);
		if (!top && !clos)
			rt__report(c, "net-type-invalid", m, 0, p,
				   layer == 0 ? "use \"TOPO_FILE_DESC\" for layer 0"
					      : "use \"CLOS\" (or \"TOPO_FILE_DESC\")",
				   "net_type \"%s\" of %s is not \"CLOS\" or \"TOPO_FILE_DESC\", the "
				   "types HCCL builds a network level from",
				   type, lw);
		else if (layer == 0 && clos)
			rt__report(c, "net-type-layer0", m, 0, p,
				   "use \"TOPO_FILE_DESC\" on net_layer 0, as HCCL's guide does",
				   "net_type \"CLOS\" of %s is on net_layer 0, which HCCL's guide "
				   "describes as TOPO_FILE_DESC (the server's own topology file); "
				   "HCCL parses it, its own tests use it",
				   lw);
	}
	const struct rt__jnode *cp = rt__jget(lv, "control_plane");
	if (cp) {
		rt__report(c, "control-plane-misplaced", cp, 1, rt__path(p, "%s.control_plane", path),
			   "move control_plane up into the rank object to have HCCL use it",
			   "control_plane is inside %s; HCCL reads control_plane from the rank, "
			   "so this one is not used",
			   lw);
		check_control_plane(c, cp, p, lw);
	}
	const struct rt__jnode *al = arr_field(c, lv, "rank_addr_list", path, lw, 1, &na);
	if (!al)
		return;
	if (na > ADDRS_MAX)
		rt__report(c, "rank-addr-list-size", al, 0, rt__path(p, "%s.rank_addr_list", path),
			   NULL, "rank_addr_list of %s has %zu addresses; at most %d are allowed", lw,
			   na, ADDRS_MAX);
	size_t ai = 0;
	for (const struct rt__jnode *a = rt__jchild(al); a; a = rt__jnext(a), ai++) {
		char ap[RT_PATHLEN], aw[200];
		const char *ip;
		rt__path(ap, "%s.rank_addr_list[%zu]", path, ai);
		snprintf(aw, sizeof(aw), "%s rank_addr_list[%zu]", lw, ai);
		if (!rt__object_at(c, a, ap, aw))
			continue;
		check_addr(c, a, ap, aw, &ip);
		if (li == 0 && ai == 0 && layer == 0 && ip) {
			r->device_ip = ip;
			x->ip0 = rt__jget(a, "addr");
		}
	}
}

static void check_rank(struct rt__ctx *c, struct rt_rank *r, struct r2 *x,
		       const struct rt__jnode *e, size_t i)
{
	char path[RT_PATHLEN], who[64], p[RT_PATHLEN];
	const struct rt__jnode *m;
	size_t nl;
	rt__path(path, "$.rank_list[%zu]", i);
	snprintf(who, sizeof(who), "rank_list[%zu]", i);
	memset(x, 0, sizeof(*x));
	x->obj = e;
	rt__jpos_node(c->pos, e, &r->line, &r->col);
	r->super_device_id = -1;
	rt__unknown_keys(c, e, path, rank_keys);

	r->rank_id = int_field(c, e, "rank_id", path, who, 1, 0, 0x7fffffffL, "rank-id-invalid", &x->rid);
	if (r->rank_id >= 0)
		snprintf(who, sizeof(who), "rank %ld", r->rank_id);
	x->local_id = int_field(c, e, "local_id", path, who, 1, 0, ID_MAX, "local-id-range", &x->locid);
	/* A backup rank (local_id 64) names the local_id it replaces; HCCL reads it only then. */
	long rep = int_field(c, e, "replaced_local_id", path, who, x->local_id == BACKUP_LOCAL_ID,
			     0, BACKUP_LOCAL_ID - 1, "local-id-range", &m);
	(void)rep;
	m = rt__jget(e, "control_plane");
	if (m)
		check_control_plane(c, m, rt__path(p, "%s.control_plane", path), who);
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

	const struct rt__jnode *ll = arr_field(c, e, "level_list", path, who, 1, &nl);
	if (!ll)
		return;
	if (nl == 0 || nl > LEVELS_MAX)
		rt__report(c, "level-list-size", ll, 0, rt__path(p, "%s.level_list", path),
			   "describe 1 to 8 network levels, starting with net_layer 0",
			   "level_list of %s has %zu levels; 1 to %d are allowed", who, nl, LEVELS_MAX);
	long prev = -1;
	size_t li = 0;
	for (const struct rt__jnode *lv = rt__jchild(ll); lv; lv = rt__jnext(lv), li++) {
		char lp[RT_PATHLEN];
		rt__path(lp, "%s.level_list[%zu]", path, li);
		if (old_level_key(lv))
			continue; /* named once for the table by v2-old-layout */
		if (!rt__jis_obj(lv)) {
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
		       size_t k, const char *code, const struct rt__jnode *at, const char *key,
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

/* Orders by server (the level-0 instance id, NULL apart from ""), then file order. */
static int cmp_item_s(const void *a, const void *b)
{
	const struct rt__item *x = a, *y = b;
	int r = strcmp(x->s ? x->s : "", y->s ? y->s : "");
	if (!r && (!x->s) != (!y->s))
		r = x->s ? 1 : -1;
	return r ? r : (x->idx > y->idx) - (x->idx < y->idx);
}

/* The older layout is named once, at its first level, with how many ranks use it; those
 * levels are then skipped so it is not also reported key by key. Returns 1 when found. */
static int find_old_layout(struct rt__ctx *c, const struct rt__jnode *root)
{
	const struct rt__jnode *rl = rt__jget(root, "rank_list");
	const struct rt__jnode *first = NULL;
	size_t nranks = 0, ri = 0, first_ri = 0, first_li = 0;
	char p[RT_PATHLEN];
	if (!rt__jis_arr(rl))
		return 0;
	for (const struct rt__jnode *e = rt__jchild(rl); e; e = rt__jnext(e), ri++) {
		const struct rt__jnode *ll = rt__jget(e, "level_list");
		size_t li = 0;
		int uses = 0;
		for (const struct rt__jnode *lv = rt__jis_arr(ll) ? rt__jchild(ll) : NULL; lv;
		     lv = rt__jnext(lv), li++) {
			const struct rt__jnode *k = old_level_key(lv);
			if (!k)
				continue;
			if (!first) {
				first = k;
				first_ri = ri;
				first_li = li;
			}
			uses = 1;
		}
		nranks += (size_t)uses;
	}
	if (!first)
		return 0;
	int repl = rt__jget(root, "replace_list") != NULL;
	rt__report(c, "v2-old-layout", first, 1,
		   rt__path(p, "$.rank_list[%zu].level_list[%zu]", first_ri, first_li),
		   "rename level -> net_layer, id -> net_instance_id, fabric_type -> net_type "
		   "(\"TOPO_FILE_DESC\" on layer 0, \"CLOS\" above), rank_addrs -> rank_addr_list "
		   "of {\"addr_type\", \"addr\", \"ports\"}; give each rank its device_id",
		   "level_list[%zu] of rank_list[%zu] is in the older 2.0 layout (level, id, "
		   "fabric_type, rank_addr_type, rank_addrs%s) of HCCL's early tests; HCCL now "
		   "reads net_layer, net_instance_id, net_type and rank_addr_list%s (%zu rank%s "
		   "use%s it)",
		   first_li, first_ri, repl ? ", replace_list" : "",
		   repl ? ", and a backup rank as local_id 64 with replaced_local_id" : "", nranks,
		   plural_s(nranks), nranks == 1 ? "s" : "");
	return 1;
}

/* The table's own keys: its layout, status, detour, rank_count against rank_list; rank_list
 * (NULL when it is missing or not a list) and its length in *n. */
static const struct rt__jnode *v2_top(struct rt__ctx *c, size_t *n)
{
	const struct rt__jnode *root = c->root, *m;
	int old = find_old_layout(c, root);
	rt__unknown_keys(c, root, "$", old ? top_keys_old : top_keys);
	rt__check_status(c, root, 0);
	m = rt__jget(root, "detour");
	if (m && !rt__jis_bool(m) &&
	    !(rt__jis_str(m) && (!strcmp(rt__jstr(m), "true") ||
				    !strcmp(rt__jstr(m), "false"))))
		rt__report(c, "value-type", m, 0, "$.detour", "write \"detour\": \"true\" or \"false\"",
			   "detour %s%.32s%s is not \"true\" or \"false\"",
			   rt__jis_str(m) ? "\"" : "", rt__jis_str(m) ? rt__jstr(m) : rt__type(m),
			   rt__jis_str(m) ? "\"" : "");
	long cnt = int_field(c, root, "rank_count", "$", "the table", 1, 1, RANK_COUNT_MAX,
			     "rank-count-invalid", &m);
	const struct rt__jnode *rl = arr_field(c, root, "rank_list", "$", "the table", 1, n);
	if (rl && cnt > 0 && (size_t)cnt != *n) {
		char hint[64];
		snprintf(hint, sizeof(hint), "set \"rank_count\": %zu", *n);
		rt__report(c, "rank-count-mismatch", m, 0, "$.rank_count", hint,
			   "rank_count %ld does not match the %zu ranks in rank_list", cnt, *n);
	}
	return rl;
}

/* Rank ids unique and 0..N-1 (rl: rank_list, it: room for n items); 0 or an error */
static int v2_rank_ids(struct rt__ctx *c, struct v2 *v, struct rt__item *it,
		       const struct rt__jnode *rl, size_t n)
{
	struct rt_table *t = c->t;
	size_t k = 0;
	unsigned char *seen = calloc(n ? n : 1, 1);
	long *miss = malloc((n ? n : 1) * sizeof(*miss));
	if (!seen || !miss) {
		free(seen);
		free(miss);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		long r = t->ranks[i].rank_id;
		if (r < 0)
			continue;
		it[k++] = (struct rt__item){ 0, NULL, r, i };
		if ((size_t)r < n) {
			seen[r] = 1;
		} else {
			char p[RT_PATHLEN];
			rt__report(c, "rank-id-range", v->x[i].rid, 0,
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
	int rc = rt__dups(it, k, dup_rank, c, v);
	if (!rc && nmiss && all) {
		struct buf b = BUF_INIT(RT_MSG_MAX);
		rt__sb_ranges(&b, miss, nmiss, 16);
		rt__report(c, "rank-id-gap", rl, 0, "$.rank_list",
			   "number the ranks 0..N-1 without gaps",
			   "rank ids must be 0..%zu without gaps; missing %s", n - 1, buf_str(&b));
		buf_release(&b);
	}
	free(miss);
	return rc;
}

/* device_id and local_id unique per server (level-0 instance), device IPs unique across the
 * table (it: room for n items); 0 or an error */
static int v2_per_server(struct rt__ctx *c, struct v2 *v, struct rt__item *it, size_t n)
{
	struct rt_table *t = c->t;
	struct rt__item *g = malloc((n ? n : 1) * sizeof(*g));
	size_t *grp = malloc((n ? n : 1) * sizeof(*grp));
	if (!g || !grp) {
		free(g);
		free(grp);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++)
		g[i] = (struct rt__item){ 0, t->ranks[i].server_id, 0, i };
	qsort(g, n, sizeof(*g), cmp_item_s);
	for (size_t q = 0, gi = 0; q < n; q++) {
		if (q && cmp_item_s(&(struct rt__item){ 0, g[q].s, 0, 0 },
				    &(struct rt__item){ 0, g[q - 1].s, 0, 0 }))
			gi++;
		grp[g[q].idx] = gi;
	}
	free(g);
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (t->ranks[i].server_id && t->ranks[i].device_id >= 0)
			it[k++] = (struct rt__item){ grp[i], NULL, t->ranks[i].device_id, i };
	int rc = rt__dups(it, k, dup_dev, c, v);
	k = 0;
	for (size_t i = 0; !rc && i < n; i++)
		if (t->ranks[i].server_id && v->x[i].local_id >= 0)
			it[k++] = (struct rt__item){ grp[i], NULL, v->x[i].local_id, i };
	if (!rc)
		rc = rt__dups(it, k, dup_local, c, v);
	free(grp);
	k = 0;
	for (size_t i = 0; !rc && i < n; i++)
		if (t->ranks[i].device_ip && v->x[i].ip0)
			it[k++] = (struct rt__item){ 0, t->ranks[i].device_ip, 0, i };
	if (!rc)
		rc = rt__dups(it, k, dup_ip, c, v);
	return rc;
}

int rt__load_v2(struct rt__ctx *c)
{
	struct rt_table *t = c->t;
	size_t n = 0;
	int rc = -ENOMEM;

	const struct rt__jnode *rl = v2_top(c, &n);
	if (!rl)
		return 0;
	struct v2 v = { calloc(n ? n : 1, sizeof(struct r2)), NULL };
	struct rt__item *it = malloc((n ? n : 1) * sizeof(*it));
	t->ranks = calloc(n ? n : 1, sizeof(*t->ranks));
	if (!v.x || !it || !t->ranks)
		goto out;
	v.ranks = t->ranks;
	size_t i = 0;
	for (const struct rt__jnode *e = rt__jchild(rl); e; e = rt__jnext(e), i++) {
		if (!rt__jis_obj(e)) {
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
	rc = v2_rank_ids(c, &v, it, rl, n);
	if (!rc)
		rc = v2_per_server(c, &v, it, n);
	if (!rc)
		rc = rt__group_servers(t);
out:
	free(it);
	free(v.x);
	return rc;
}
