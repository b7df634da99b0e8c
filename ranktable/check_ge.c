/* GE's cluster_config.json (ge.cluster_config, CLUSTER_CONFIG of aclgrphBuildInitialize):
 * {"RankTable": {a 1.x table}, "HcclCommConfig": {"hcclCommName": ...}}. The graph
 * compiler builds HCCL tasks offline from it and reads only server_id, device_id and
 * rank_id, so its servers need no device_ip; the rest of the inner table is checked as a
 * 1.x table at its own JSON path. */
#include "ranktable/check.h"

static const char *const top_keys[] = { "RankTable", "HcclCommConfig", NULL };
static const char *const table_keys[] = { "status", "version", "server_count", "server_list",
					  "super_pod_list", NULL };
static const char *const comm_keys[] = { "hcclCommName", NULL };

static void check_comm_config(struct rt__ctx *c, const struct rt__jnode *cc)
{
	if (!cc)
		return;
	if (!rt__jis_obj(cc)) {
		rt__report(c, "value-type", cc, 0, "$.HcclCommConfig", NULL,
			   "HcclCommConfig must be an object, not %s", rt__type(cc));
		return;
	}
	rt__unknown_keys(c, cc, "$.HcclCommConfig", comm_keys);
	const struct rt__jnode *name = rt__jget(cc, "hcclCommName");
	if (!name)
		rt__report(c, "key-missing", cc, 0, "$.HcclCommConfig.hcclCommName",
			   "name the global communicator: \"hcclCommName\": \"...\"",
			   "missing \"hcclCommName\" in HcclCommConfig");
	else if (!rt__jis_str(name))
		rt__report(c, "value-type", name, 0, "$.HcclCommConfig.hcclCommName", NULL,
			   "hcclCommName must be a string, not %s", rt__type(name));
}

int rt__load_ge_cluster(struct rt__ctx *c)
{
	const struct rt__jnode *root = c->root;
	const struct rt__jnode *rt = rt__jget(root, "RankTable");

	rt__report(c, "ge-cluster-config", root, 0, "$", NULL,
		   "this is GE's cluster_config.json (RankTable, HcclCommConfig) for compiling a "
		   "graph offline, not a table HCCL reads at run time; its RankTable is checked "
		   "as a 1.x table that needs no device_ip");
	rt__unknown_keys(c, root, "$", top_keys);
	check_comm_config(c, rt__jget(root, "HcclCommConfig"));
	rt__check_status_at(c, rt, "$.RankTable", 1);

	static const struct rt__v1x_version vv = { "$.RankTable", " in RankTable", "RankTable",
						   "GE's guide gives \"version\": \"1.2\"",
						   "GE's guide gives \"version\": \"1.2\"" };
	int v12 = rt__check_v1x_version(c, rt, &vv);
	const struct rt__jnode *ver = rt__jget(rt, "version");
	if (rt__jis_str(ver)) {
		size_t n = strnlen(rt__jstr(ver), sizeof(c->t->version) - 1);
		memcpy(c->t->version, rt__jstr(ver), n);
		c->t->version[n] = 0;
	}

	struct rt__v1_part part = { rt,	  "$.RankTable", "RankTable", table_keys, NULL, NULL,
				    v12,  0,		 0,	      0,	  1 };
	return rt__check_servers(c, &part);
}
