/* hcclctl probe rdma: every RDMA device and port of this node, from sysfs (and libibverbs for
 * the active MTU when it is built in), with a verdict per port. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cmd/probe/probe.h"
#include "cmd/lib/prom.h"
#include "probes/nic/rdma_sysfs.h"
#include "ranktable/base/plural.h"

#define WHERE "probe rdma"

static const char *opt_device, *opt_sysfs_root;

const struct opt probe_rdma_opts[] = {
	OPT_STR("device", 'd', &opt_device, "NAME", "only this RDMA device, e.g. mlx5_0"),
	OPT_PATH("sysfs-root", 0, &opt_sysfs_root, "DIR",
		 "read DIR/class/infiniband (or DIR itself, a copy of /sys/class/infiniband) "
		 "instead of /sys",
		 COMPLETE_DIR),
	OPT_PROM,
	OPT_TERM,
};

static const char *mtu_source(enum rdma_mtu_source s)
{
	return s == RDMA_MTU_VERBS ? "verbs" : s == RDMA_MTU_NETDEV ? "netdev" : "none";
}

static const char *or_dash(const char *s)
{
	return s && *s ? s : "-";
}

static void print_text(const struct rdma_host *h, enum probe_status overall)
{
	size_t nports = 0, bad = 0;
	printf("%-14s %-4s %-7s %-8s %-10s %-10s %-22s %-12s %-18s %s\n", "DEVICE", "PORT",
	       "STATUS", "STATE", "PHYS", "LINK", "RATE", "MTU", "NETDEV", "REASON");
	for (size_t i = 0; i < h->n; i++) {
		const struct rdma_device *d = &h->dev[i];
		for (size_t k = 0; k < d->nports; k++) {
			const struct rdma_port *p = &d->ports[k];
			char mtu[24], nd[64];
			nports++;
			bad += p->status != PROBE_PASS;
			if (g_opts.quiet && p->status == PROBE_PASS)
				continue;
			if (p->mtu)
				snprintf(mtu, sizeof(mtu), "%d(%s)", p->mtu,
					 mtu_source(p->mtu_source));
			else
				snprintf(mtu, sizeof(mtu), "-");
			if (p->netdev[0])
				snprintf(nd, sizeof(nd), "%s(%s)", p->netdev,
					 or_dash(p->operstate));
			else
				snprintf(nd, sizeof(nd), "-");
			const char *col = probe_status_color(1, p->status);
			printf("%-14s %-4d %s%-7s%s %-8s %-10s %-10s %-22s %-12s %-18s %s\n",
			       d->name, p->num, col, probe_status_name(p->status), probe_color_end(col),
			       or_dash(p->state_name), or_dash(p->phys_name),
			       or_dash(p->link_layer), or_dash(p->rate_text), mtu, nd,
			       *p->reason ? p->reason : "-");
			for (size_t j = 0; j < p->nips; j++) {
				const struct rdma_ip *ip = &p->ips[j];
				if (ip->v2_index >= 0)
					printf("  %s/%d %s: RoCE v2 GID index %d\n", d->name,
					       p->num, ip->addr, ip->v2_index);
				else
					printf("  %s/%d %s: no RoCE v2 GID%s\n", d->name, p->num,
					       ip->addr,
					       ip->v1_index >= 0 ? " (RoCE v1 only)" : "");
			}
			if (g_opts.verbose) {
				for (size_t j = 0; j < p->ngids; j++) {
					char g[64];
					const struct rdma_gid *x = &p->gids[j];
					rdma_gid_text(x->gid, g, sizeof(g));
					printf("  %s/%d gid %d %s %s %s\n", d->name, p->num,
					       x->index, g,
					       x->type == RDMA_GID_ROCE_V2	? "RoCE-v2"
					       : x->type == RDMA_GID_IB_ROCE_V1 ? "IB/RoCE-v1"
										: "-",
					       or_dash(x->ndev));
				}
			}
		}
	}
	printf("rdma: %s: %zu device%s, %zu port%s, %zu with problems; MTU from %s\n",
	       probe_status_name(overall), h->n, plural_s(h->n), nports,
	       plural_s(nports), bad,
	       h->verbs ? "libibverbs" : "sysfs (the netdev MTU for RoCE; none for InfiniBand)");
}

static cJSON *counter_json(unsigned long long v)
{
	return v == RDMA_NA ? cJSON_CreateNull() : cJSON_CreateNumber((double)v);
}

static void print_json(const struct rdma_host *h, enum probe_status overall, int code)
{
	cJSON *doc = cJSON_CreateObject(), *devs = cJSON_AddArrayToObject(doc, "devices");
	cJSON_AddStringToObject(doc, "mtu_from", h->verbs ? "verbs" : "sysfs");
	for (size_t i = 0; i < h->n; i++) {
		const struct rdma_device *d = &h->dev[i];
		cJSON *o = cJSON_CreateObject(), *ports;
		cJSON_AddStringToObject(o, "name", d->name);
		cJSON_AddStringToObject(o, "fw_ver", d->fw_ver);
		cJSON_AddStringToObject(o, "node_guid", d->node_guid);
		ports = cJSON_AddArrayToObject(o, "ports");
		for (size_t k = 0; k < d->nports; k++) {
			const struct rdma_port *p = &d->ports[k];
			cJSON *q = cJSON_CreateObject();
			cJSON_AddNumberToObject(q, "port", p->num);
			cJSON_AddStringToObject(q, "status", probe_status_name(p->status));
			cJSON_AddStringToObject(q, "state", p->state_name);
			cJSON_AddNumberToObject(q, "state_num", p->state);
			cJSON_AddStringToObject(q, "phys_state", p->phys_name);
			cJSON_AddNumberToObject(q, "phys_state_num", p->phys);
			cJSON_AddStringToObject(q, "link_layer", p->link_layer);
			cJSON_AddStringToObject(q, "rate", p->rate_text);
			if (p->rate >= 0)
				cJSON_AddNumberToObject(q, "rate_gbps", p->rate);
			else
				cJSON_AddNullToObject(q, "rate_gbps");
			if (p->mtu)
				cJSON_AddNumberToObject(q, "active_mtu", p->mtu);
			else
				cJSON_AddNullToObject(q, "active_mtu");
			cJSON_AddStringToObject(q, "mtu_source", mtu_source(p->mtu_source));
			cJSON_AddStringToObject(q, "netdev", p->netdev);
			cJSON_AddStringToObject(q, "operstate", p->operstate);
			cJSON *ips = cJSON_AddArrayToObject(q, "addresses");
			for (size_t j = 0; j < p->nips; j++) {
				cJSON *a = cJSON_CreateObject();
				cJSON_AddStringToObject(a, "address", p->ips[j].addr);
				if (p->ips[j].v2_index >= 0)
					cJSON_AddNumberToObject(a, "roce_v2_gid_index",
								p->ips[j].v2_index);
				else
					cJSON_AddNullToObject(a, "roce_v2_gid_index");
				if (p->ips[j].v1_index >= 0)
					cJSON_AddNumberToObject(a, "roce_v1_gid_index",
								p->ips[j].v1_index);
				else
					cJSON_AddNullToObject(a, "roce_v1_gid_index");
				cJSON_AddBoolToObject(a, "on_netdev", p->ips[j].from_netdev);
				cJSON_AddItemToArray(ips, a);
			}
			cJSON *gids = cJSON_AddArrayToObject(q, "gids");
			for (size_t j = 0; j < p->ngids; j++) {
				char g[64];
				const struct rdma_gid *x = &p->gids[j];
				cJSON *a = cJSON_CreateObject();
				rdma_gid_text(x->gid, g, sizeof(g));
				cJSON_AddNumberToObject(a, "index", x->index);
				cJSON_AddStringToObject(a, "gid", g);
				cJSON_AddStringToObject(a, "type",
							x->type == RDMA_GID_ROCE_V2 ? "RoCE v2"
							: x->type == RDMA_GID_IB_ROCE_V1
								? "IB/RoCE v1"
								: "");
				cJSON_AddStringToObject(a, "ndev", x->ndev);
				cJSON_AddItemToArray(gids, a);
			}
			cJSON *c = cJSON_AddObjectToObject(q, "counters");
			cJSON_AddItemToObject(c, "link_downed", counter_json(p->link_downed));
			cJSON_AddItemToObject(c, "symbol_error", counter_json(p->symbol_error));
			cJSON_AddItemToObject(c, "port_rcv_errors",
					      counter_json(p->port_rcv_errors));
			cJSON_AddItemToObject(c, "link_error_recovery",
					      counter_json(p->link_error_recovery));
			cJSON_AddItemToObject(c, "port_xmit_discards",
					      counter_json(p->port_xmit_discards));
			if (*p->reason)
				cJSON_AddStringToObject(q, "reason", p->reason);
			else
				cJSON_AddNullToObject(q, "reason");
			cJSON_AddItemToArray(ports, q);
		}
		cJSON_AddItemToArray(devs, o);
	}
	cJSON_AddStringToObject(doc, "status", probe_status_name(overall));
	cJSON_AddNumberToObject(doc, "exit_code", code);
	probe_emit("rdma", doc, code);
}

int probe_rdma_run(int argc, char **argv)
{
	struct rdma_host h;
	char err[PROBE_ERRLEN];
	(void)argc;
	(void)argv;
	int rc = rdma_sysfs_read(opt_sysfs_root, opt_device, &h, err, sizeof(err));
	if (rc) {
		rdma_host_release(&h);
		return fail(
			EXIT_UNKNOWN, WHERE,
			rc == -ENOENT && !opt_device
				? "no RDMA NIC or driver here (lsmod | grep -e mlx5_ib -e ib_core)"
				: NULL,
			"%s", err);
	}
	if (!opt_sysfs_root)
		rdma_verbs_fill(&h);
	enum probe_status overall = rdma_assess(&h);
	rc = probe_status_exit(overall);
	if (g_opts.json || prom_path)
		print_json(&h, overall, g_opts.strict && rc == EXIT_WARN ? EXIT_FAIL : rc);
	if (!g_opts.json)
		print_text(&h, overall);
	rc = probe_prom_exit(rc);
	rdma_host_release(&h);
	return rc;
}
