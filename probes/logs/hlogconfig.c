/* The HCCL log triage's configuration causes: parameters that differ across the ranks of a
 * group, a port or device IP taken or wrong, the TLS switch split across NPUs. */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "probes/npu/hcclcodes.h"
#include "probes/logs/bundle.h"
#include "probes/logs/catalog.h"
#include "probes/logs/hlogcause.h"

void hlog__conclude_mismatch(struct hlog_report *r, const struct hlog_event *c)
{
	struct sbuf b = {r->cause, sizeof(r->cause), 0};
	int ranks[2] = {-1, -1};
	const char *nodes[2] = {"", ""};
	const struct hlog_event *detail = NULL;
	for (size_t i = 0; i < r->nev; i++) {
		const struct hlog_event *e = &r->ev[i];
		if (e->kind != HLOG_MISMATCH)
			continue;
		if (!detail && strstr(e->text, "parameter "))
			detail = e;
		if (!r->peer_ip[0] && e->peer_ip[0])
			snprintf(r->peer_ip, sizeof(r->peer_ip), "%s", e->peer_ip);
		int rk[2] = {hlog__ev_rank(r, e), e->peer_rank};
		for (int k = 0; k < 2; k++) {
			if (rk[k] < 0 || rk[k] == ranks[0] || rk[k] == ranks[1])
				continue;
			int slot = ranks[0] < 0 ? 0 : ranks[1] < 0 ? 1 : -1;
			if (slot < 0)
				continue;
			ranks[slot] = rk[k];
			const struct hlog_file *f = k ? hlog__file_of(r, rk[k], NULL, -1, NULL)
						      : (e->fi < r->nfile ? &r->file[e->fi] : NULL);
			nodes[slot] = f ? f->node : "";
		}
	}
	r->rank = ranks[0];
	r->peer_rank = ranks[1];
	snprintf(r->node, sizeof(r->node), "%s", ranks[0] >= 0 ? nodes[0] : c->node);
	sb_add(&b, "collective mismatch between ");
	if (ranks[0] >= 0) {
		hlog__who(&b, ranks[0], nodes[0], "", -1);
		sb_add(&b, " and ");
		if (ranks[1] >= 0)
			hlog__who(&b, ranks[1], nodes[1], "", -1);
		else if (r->peer_ip[0])
			sb_add(&b, "its peer %s", r->peer_ip);
		else
			sb_add(&b, "its peer");
	} else if (r->peer_ip[0]) {
		sb_add(&b, "node %s and its peer %s", hlog__node_of(c), r->peer_ip);
	} else {
		sb_add(&b, "the ranks on node %s and their peers", hlog__node_of(c));
	}
	static const char *const keys[] = {"parameter ", "CMD information", "cmdType", "EI0005",
					   "differ in", "local size", "around rank", NULL};
	hlog__quote(&b, detail ? detail : c, keys);
	hlog__list_conseq(r, &b, "", -1);
	hlog__set_what(r, HCAT_OP_MISMATCH, "arguments-differ");
	hlog__set_fix(r, "fix the script so that every rank calls the same collectives in the same order "
		   "with the same count, dtype and op (look for a branch on the rank or on data "
		   "that only some ranks take); check that every node runs the same CANN and "
		   "framework versions");
	add_evidence(r, detail ? detail : c);
	hlog__evidence_of(r, HLOG_MISMATCH, NULL);
}

/* The port of a port clash, from any line of the clash in the same file (the EJ0003 line
 * says what, the line after it which port). */
static long long clash_port(const struct hlog_report *r, const struct hlog_event *c,
			    const struct hlog_event **with)
{
	*with = c;
	if (c->value > 0)
		return c->value;
	for (size_t i = 0; i < r->nev; i++)
		if (r->ev[i].kind == HLOG_PORT_BOUND && r->ev[i].fi == c->fi && r->ev[i].value > 0) {
			*with = &r->ev[i];
			return r->ev[i].value;
		}
	return -1;
}

/* The IP of device dev on c's node, from any line that names both (rdma init, listen). */
static void device_ip(struct hlog_report *r, const struct hlog_event *c, int dev)
{
	for (size_t i = 0; i < r->nev && !r->ip[0]; i++) {
		const struct hlog_event *e = &r->ev[i];
		if (e->ip[0] && !strcmp(e->node, c->node) && (dev < 0 || e->dev == dev) &&
		    e->kind != HLOG_SOCKET_TIMEOUT)
			snprintf(r->ip, sizeof(r->ip), "%s", e->ip);
	}
}

static const char tls_fix[] =
	"read every NPU's switch: for i in 0 1 2 3 4 5 6 7; do hccn_tool -i $i -tls -g | grep "
	"switch; done; then set the same on all NPUs of the job (hccn_tool -i N -tls -s enable 0, "
	"or 1 with the same certificates everywhere)";

/* A port that cannot be listened on: who holds it, and the ports to give each job. */
static void say_port_bound(struct hlog_report *r, struct sbuf *b, const struct hlog_event *c,
			   const char *where)
{
	const struct hlog_event *pe;
	r->port = clash_port(r, c, &pe);
	hlog__fill_context(r, c);
	if (!r->ip[0])
		snprintf(r->ip, sizeof(r->ip), "%s", pe->ip);
	/* a port the line does not give is not named ("ERROR on binding 10.73.29.43: Address
	 * already in use [98]") */
	if (r->port >= 0)
		sb_add(b, "port %lld", r->port);
	else
		sb_add(b, "a port");
	if (r->ip[0])
		sb_add(b, " on %s", r->ip);
	sb_add(b, " (node %s%s) cannot be listened on: another process holds it", where,
	       pe->peer_dev == 2 ? ", host side" : pe->peer_dev >= 0 ? ", NPU side" : "");
	hlog__set_what(r, HCAT_CONFIG, "port-bound");
	hlog__set_fix(r, "find the holder (ss -ltnp | grep :PORT): a leftover job, or two jobs or "
		   "processes on the same NPUs; stop it, or give each job its own ports with "
		   "HCCL_IF_BASE_PORT (host side, 16 ports from it) and "
		   "HCCL_NPU_SOCKET_PORT_RANGE (NPU side), and keep the kernel from handing "
		   "them out (sysctl net.ipv4.ip_local_reserved_ports)");
	add_evidence(r, c);
	add_evidence(r, pe);
}

/* The TLS switch differs between NPUs: the ranks on each side when the line lists them. */
static void say_tls(struct hlog_report *r, struct sbuf *b, const struct hlog_event *c,
			   const char *where)
{
	static const char *const keys[] = {"rankList for enabled", "tlsStatus", "EI0016",
					   NULL};
	int on[16], off[16];
	int non = hlog__rank_list(c->text, "enabled tls", on, 16);
	int noff = hlog__rank_list(c->text, "disabled tls", off, 16);
	sb_add(b, "TLS switch differs between NPUs (reported on node %s)", where);
	if (non && noff) {
		sb_add(b, ": enabled on rank%s ", non > 1 ? "s" : "");
		for (int i = 0; i < non; i++)
			sb_add(b, "%s%d", i ? "," : "", on[i]);
		sb_add(b, ", disabled on rank%s ", noff > 1 ? "s" : "");
		for (int i = 0; i < noff; i++)
			sb_add(b, "%s%d", i ? "," : "", off[i]);
		if (non != noff) {
			r->rank = non < noff ? on[0] : off[0];
			const struct hlog_file *g = hlog__file_of(r, r->rank, NULL, -1, NULL);
			snprintf(r->node, sizeof(r->node), "%s", g ? g->node : "");
		}
	} else {
		hlog__quote(b, c, keys);
	}
	hlog__set_what(r, HCAT_CONFIG, "tls");
	hlog__set_fix(r, tls_fix);
	add_evidence(r, c);
}

/* An NPU another process holds (HCCP could not start on it). */
static void say_npu_busy(struct hlog_report *r, struct sbuf *b, const struct hlog_event *c,
			   const char *where)
{
	hlog__block_devices(r, c);
	hlog__fill_context(r, c);
	sb_add(b, "NPU busy on node %s", where);
	if (r->ndevs) {
		sb_add(b, " (");
		hlog__devices_text(b, r);
		sb_add(b, ")");
	}
	/* the code is named only where a line has it: tsd's own failure says less */
	int ej = 0;
	for (size_t i = 0; i < r->nev && !ej; i++)
		ej = r->ev[i].kind == HLOG_NPU_BUSY && strstr(r->ev[i].text, "EJ0001");
	sb_add(b,
	       ": HCCP could not start on it%s: the last training process is still "
	       "running, or two processes share one NPU",
	       ej ? " (EJ0001)" : "");
	hlog__set_what(r, HCAT_RESOURCE, "npu-busy");
	hlog__set_fix(r, "list what holds the NPUs (npu-smi info shows the processes, fuser -v "
		   "/dev/davinci*); stop the leftover process, wait 10 s for the device to be "
		   "released, and start again; give each process its own NPU "
		   "(ASCEND_RT_VISIBLE_DEVICES)");
	add_evidence(r, c);
	hlog__evidence_of(r, HLOG_NPU_BUSY, NULL);
}

/* The rank table's device_ip is not the NPU NIC's. */
static void say_device_ip(struct hlog_report *r, struct sbuf *b, const struct hlog_event *c,
			   const char *where)
{
	if (c->sub == HLOG_SUB_NOT_ADDR)
		sb_add(b, "%s \"%s\" in the rank table is not an IP address, on node %s", c->op,
		       c->ip, where);
	else
		sb_add(b, "device_ip in the rank table differs from the NPU NIC's IP on node %s",
		       where);
	if (c->sub != HLOG_SUB_NOT_ADDR && (c->ip[0] || c->peer_ip[0]))
		sb_add(b, " (%s vs NIC %s)", c->ip[0] ? c->ip : "?",
		       c->peer_ip[0] ? c->peer_ip : "?");
	hlog__set_what(r, HCAT_CONFIG, "device-ip");
	hlog__set_fix(r, "compare the rank table's device_ip with hccn_tool -i PHY_ID -ip -g and "
		   "/etc/hccn.conf on that node (and a container's ASCEND_VISIBLE_DEVICES "
		   "remapping); regenerate the table with hcclctl ranktable gen");
	add_evidence(r, c);
}

/* An NPU NIC, or a host RDMA NIC's port, down. */
static void say_link_down(struct hlog_report *r, struct sbuf *b, const struct hlog_event *c,
			   const char *where)
{
	/* the verbs library's port event, and the port state of the rdma tool, ibv_devinfo or
	 * ibstat ("State: Down"; hccn_tool says "link status"), are a host RDMA NIC's, not an
	 * NPU's; so is a state under a heading that names an RDMA device (ibstatus's
	 * "Infiniband device 'mlx5_2' port 1 status:" over "state: 1: DOWN") */
	int rdma = strstr(c->text, "async event") || strstr(c->text, "physical_state") ||
		   strstr(c->text, "PORT_DOWN") || strcasestr(c->text, "state: down") ||
		   c->head_nic[0];
	int dev = rdma ? -1 : c->dev;
	for (size_t i = 0; i < r->nev && dev < 0 && !rdma; i++)
		if (r->ev[i].kind == HLOG_LINK_DOWN && !strcmp(r->ev[i].node, c->node))
			dev = r->ev[i].dev;
	r->dev = dev;
	if (!r->ip[0] && !rdma)
		device_ip(r, c, dev);
	sb_add(b, rdma ? "an RDMA NIC port went down on node %s" : "an NPU NIC is down on node %s",
	       where);
	/* the port's NIC, named by its line or by the heading it is indented under; the cause's
	 * own (nic_of_cause leaves a NIC set here) */
	if (rdma)
		hlog__line_rdma(c->text, r->nic, sizeof(r->nic));
	if (rdma && !r->nic[0])
		snprintf(r->nic, sizeof(r->nic), "%s", c->head_nic);
	if (r->nic[0])
		sb_add(b, " (%s)", r->nic);
	else if (dev >= 0 && r->ip[0])
		sb_add(b, " (device %d, %s)", dev, r->ip);
	else if (dev >= 0)
		sb_add(b, " (device %d)", dev);
	else if (r->ip[0])
		sb_add(b, " (%s)", r->ip);
	{
		static const char *const keys[] = {"ra hdc", "network port", "link",
						   "async event", "State", NULL};
		hlog__quote(b, c, keys);
	}
	hlog__set_what(r, HCAT_LINK_DOWN, rdma ? "rdma-port-error" : "nic-down");
	hlog__set_fix(r, rdma ? "check the port on that node: ibstat or ibv_devinfo (state and "
			  "physical state), its error counters (perfquery, ibqueryerrors), "
			  "the cable and the switch port; a flapping port fails every job "
			  "that uses it"
			: "check the port: hccn_tool -i DEV -link -g (UP/DOWN), -net_health -g, "
			  "-ip -g (a missing IP is set with -ip -s address IP netmask MASK), "
			  "-optical -g for the optics and cable; with HCCL_INTRA_ROCE_ENABLE=0 a "
			  "single-node job needs no RoCE port");
	add_evidence(r, c);
	hlog__evidence_of(r, HLOG_LINK_DOWN, NULL);
}

void hlog__conclude_config(struct hlog_report *r, const struct hlog_event *c)
{
	struct sbuf b = {r->cause, sizeof(r->cause), 0};
	const struct hlog_file *f = c->fi < r->nfile ? &r->file[c->fi] : NULL;
	r->rank = hlog__ev_rank(r, c);
	snprintf(r->node, sizeof(r->node), "%s", c->node);
	snprintf(r->ip, sizeof(r->ip), "%s", c->ip);
	snprintf(r->peer_ip, sizeof(r->peer_ip), "%s", c->peer_ip);
	const char *where = c->node[0] ? c->node : (f ? f->name : "?");
	switch (c->kind) {
	case HLOG_PORT_BOUND:
		say_port_bound(r, &b, c, where);
		break;
	case HLOG_TLS:
		say_tls(r, &b, c, where);
		break;
	case HLOG_NPU_BUSY:
		say_npu_busy(r, &b, c, where);
		break;
	case HLOG_DEVICE_IP:
		say_device_ip(r, &b, c, where);
		break;
	case HLOG_LINK_DOWN:
	default:
		say_link_down(r, &b, c, where);
		break;
	}
	hlog__list_conseq(r, &b, "", r->rank);
}

const struct hlog_event *hlog__tls_split(const struct hlog_report *r, int *ntls)
{
	size_t cnt[2][2] = {{0, 0}, {0, 0}}; /* [switch lines, link rows][value] */
	for (size_t i = 0; i < r->nev; i++) {
		const struct hlog_event *e = &r->ev[i];
		int src = e->kind == HLOG_TLS_SWITCH ? 0 : e->sub == HLOG_SUB_LINK_ROW ? 1 : -1;
		if (src >= 0 && (e->value == 0 || e->value == 1))
			cnt[src][e->value]++;
	}
	for (int src = 0; src < 2; src++) {
		if (!cnt[src][0] || !cnt[src][1])
			continue;
		int minority = cnt[src][1] < cnt[src][0];
		*ntls = src;
		for (size_t i = 0; i < r->nev; i++) {
			const struct hlog_event *e = &r->ev[i];
			if ((src ? e->sub == HLOG_SUB_LINK_ROW : e->kind == HLOG_TLS_SWITCH) &&
			    e->value == minority)
				return e;
		}
	}
	return NULL;
}

void hlog__conclude_tls_split(struct hlog_report *r, const struct hlog_event *c, int rows)
{
	struct sbuf b = {r->cause, sizeof(r->cause), 0};
	r->rank = hlog__ev_rank(r, c);
	snprintf(r->node, sizeof(r->node), "%s", c->node);
	snprintf(r->ip, sizeof(r->ip), "%s", c->ip);
	sb_add(&b, "TLS switch differs between NPUs: ");
	hlog__who(&b, r->rank, c->node, c->ip, -1);
	if (rows)
		sb_add(&b, " has TlsStatus %s, its peers %s", c->value ? "ENABLE" : "DISABLE",
		       c->value ? "DISABLE" : "ENABLE");
	else
		sb_add(&b, " logs TLS SWITCH (%lld), the others (%d)", c->value, !c->value);
	hlog__list_conseq(r, &b, "", -1);
	hlog__set_what(r, HCAT_CONFIG, "tls");
	hlog__set_fix(r, tls_fix);
	add_evidence(r, c);
}
