/* The HCCL log triage's faults that explain the rest: a lost heartbeat (the rank that went
 * silent), a failed RDMA completion (the link), an error the catalog knows. */
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
#include "ranktable/base/plural.h"

static int same_culprit(const struct hlog_event *e, const struct hlog_event *k)
{
	return (hlog__is_heartbeat(e->kind) || e->kind == HLOG_ERROR_CQE) && e->kind == k->kind &&
	       !strcmp(e->peer_ip, k->peer_ip) && e->peer_dev == k->peer_dev;
}

void hlog__conclude_heartbeat(struct hlog_report *r, const struct hlog_event *c)
{
	struct sbuf b = {r->cause, sizeof(r->cause), 0};
	size_t n = hlog__reporters(r, same_culprit, c);
	const struct hlog_file *f = hlog__file_of(r, -1, c->peer_ip, c->peer_dev, NULL);
	int rank = f ? f->rank : -1;
	if (rank < 0) {
		/* IP/ID is a server and a device, not a rank: the rank the EI0002 lines wait
		 * for, when they agree on one, is the same process */
		size_t votes;
		const struct hlog_event *w;
		rank = hlog__most_waited(r, HLOG_NOTIFY_TIMEOUT, &votes, &w);
		if (rank >= 0 && !f)
			f = hlog__file_of(r, rank, NULL, -1, NULL);
	}
	r->rank = rank;
	r->dev = c->peer_dev;
	snprintf(r->ip, sizeof(r->ip), "%s", c->peer_ip);
	snprintf(r->node, sizeof(r->node), "%s", f ? f->node : "");
	hlog__who(&b, rank, r->node, c->peer_ip, c->peer_dev);
	const char *what = c->kind == HLOG_HEARTBEAT_LOST    ? "stopped answering: heartbeat lost"
			   : c->kind == HLOG_HEARTBEAT_STUCK ? "hung: heartbeat stuck"
							     : "had a heartbeat exception";
	sb_add(&b, " %s reported by %zu rank%s", what, n, plural_s(n));
	hlog__list_conseq(r, &b, " waiting for it", rank);
	hlog__set_what(r, HCAT_RANK_STUCK,
		 c->kind == HLOG_HEARTBEAT_STUCK ? "heartbeat-stuck" : "heartbeat-lost");
	if (c->kind == HLOG_HEARTBEAT_STUCK)
		hlog__set_fix(r, "that process stopped making progress (a checkpoint being saved, uneven "
			   "data, a hang): dump its Python stack (py-spy dump --pid PID) and read "
			   "its log for the first error; raise HCCL_EXEC_TIMEOUT only if it is slow "
			   "on purpose, and trace the ops with HCCL_ENTRY_LOG_ENABLE=1");
	else
		hlog__set_fix(r, "that process exited or lost its network: read its log and the kernel "
			   "log (dmesg: a crash, the OOM killer), check its NPU link with hccn_tool "
			   "-i DEV -link -g and -ping -g address PEER_DEVICE_IP; raise "
			   "HCCL_EXEC_TIMEOUT only if it was slow");
	add_evidence(r, c);
	hlog__evidence_of(r, HLOG_NOTIFY_TIMEOUT, NULL);
}

static int is_cqe(const struct hlog_event *e, const struct hlog_event *k)
{
	(void)k;
	return e->kind == HLOG_ERROR_CQE;
}

void hlog__conclude_cqe(struct hlog_report *r, const struct hlog_event *c)
{
	struct sbuf b = {r->cause, sizeof(r->cause), 0};
	const struct hlog_event *ipe = NULL;
	long long status = -1;
	/* the status and the two IPs may come on different lines (ROCE log, EI0013) */
	for (size_t i = 0; i < r->nev; i++) {
		const struct hlog_event *e = &r->ev[i];
		if (e->kind != HLOG_ERROR_CQE)
			continue;
		if (status < 0 && e->value >= 0)
			status = e->value;
		if ((!ipe || ipe->peer_dev >= 0) && e->ip[0] && e->peer_ip[0] &&
		    (!ipe || e->peer_dev < 0))
			ipe = e;
	}
	if (!ipe)
		ipe = c;
	const struct hlog_file *f = ipe->fi < r->nfile ? &r->file[ipe->fi] : NULL;
	r->rank = f ? f->rank : -1;
	r->dev = ipe->dev;
	/* the device may be on another line of the same node (EI0013's "device ID 0") */
	for (size_t i = 0; r->dev < 0 && i < r->nev; i++)
		if (r->ev[i].kind == HLOG_ERROR_CQE && r->ev[i].dev >= 0 &&
		    !strcmp(r->ev[i].node, ipe->node))
			r->dev = r->ev[i].dev;
	snprintf(r->node, sizeof(r->node), "%s", ipe->node);
	snprintf(r->ip, sizeof(r->ip), "%s", ipe->ip);
	snprintf(r->peer_ip, sizeof(r->peer_ip), "%s", ipe->peer_ip);
	const struct hlog_file *pf = hlog__file_of(r, -1, NULL, -1, ipe->peer_ip);
	r->peer_rank = pf ? pf->rank : -1;
	sb_add(&b, "the RoCE link %s", ipe->ip[0] ? ipe->ip : "?");
	if (r->node[0] || r->rank >= 0) {
		sb_add(&b, " (");
		if (r->node[0])
			sb_add(&b, "node %s%s", r->node, r->rank >= 0 ? ", " : "");
		if (r->rank >= 0)
			sb_add(&b, "rank %d", r->rank);
		sb_add(&b, ")");
	}
	sb_add(&b, " -> %s failed: error CQE", ipe->peer_ip[0] ? ipe->peer_ip : "?");
	if (status >= 0)
		sb_add(&b, " status %lld%s", status, status == 12 ? " (retransmit timeout)" : "");
	size_t n = hlog__reporters(r, is_cqe, c);
	if (n) /* no log said its rank: none to count */
		sb_add(&b, " reported by %zu rank%s", n, plural_s(n));
	hlog__list_conseq(r, &b, "", -1);
	hlog__set_what(r, HCAT_LINK_DOWN, "error-cqe");
	hlog__set_fix(r, "the link drops packets: check hccn_tool -i DEV -link_stat -g (flaps), -stat -g "
		   "(PFC pause and retransmission counters), -optical -g (Rx/Tx power), -fec -g; "
		   "compare MTU, PFC and QoS with the switch port; if the peer process exited "
		   "first, read its log; HCCL_RDMA_TIMEOUT and HCCL_RDMA_RETRY_CNT only hide it");
	add_evidence(r, ipe);
	hlog__evidence_of(r, HLOG_ERROR_CQE, NULL);
}

/* An inner error, a package mismatch or a code of the catalog: its meaning and fix. */
void hlog__conclude_catalog(struct hlog_report *r, const struct hlog_event *c)
{
	struct sbuf b = {r->cause, sizeof(r->cause), 0};
	const struct hcode *code = c->code[0] ? hcode_find(c->code, strlen(c->code)) : NULL;
	const struct hinner *in = hinner_match(c->text, strlen(c->text));
	/* a row of the catalog of the other stacks (NCCL, torch, MPI, ...) */
	const struct hlog_sig *sig = !in && c->kind == HLOG_INNER ? hlog__sig_find(c->detail) : NULL;
	r->rank = hlog__ev_rank(r, c);
	r->peer_rank = c->kind == HLOG_INNER ? c->peer_rank : -1;
	snprintf(r->peer_ip, sizeof(r->peer_ip), "%s", sig ? c->peer_ip : "");
	snprintf(r->node, sizeof(r->node), "%s", c->node);
	/* a failure between two ends (the network, a link) is about the other end: the address
	 * the line names as the peer, with its port, before this end's own ("Got completion
	 * from peer 172.36.143.59<44206> ... localGid ::ffff:29.87.88.182") */
	int two_ends = sig && c->peer_ip[0] && (c->cat == HCAT_NET || c->cat == HCAT_LINK_DOWN);
	snprintf(r->ip, sizeof(r->ip), "%s", two_ends ? "" : c->ip);
	hlog__block_devices(r, c);
	if (r->dev < 0)
		r->dev = c->dev;
	hlog__fill_context(r, c);
	hlog__values_below(r, c);
	if (!r->ip[0])
		snprintf(r->ip, sizeof(r->ip), "%s", c->ip);
	if (r->dev >= 0 && !r->ndevs)
		r->devs[r->ndevs++] = r->dev;
	const char *meaning = in && c->kind != HLOG_CODE ? in->meaning
			      : sig			    ? sig->meaning
			      : code			    ? code->meaning
							    : "";
	const char *fix = in && c->kind != HLOG_CODE ? in->fix : sig ? sig->fix : code ? code->fix : "";
	sb_add(&b, "%s on node %s",
	       c->code[0] ? c->code : in ? in->detail : sig ? sig->detail : "an error", hlog__node_of(c));
	if (r->rank >= 0)
		sb_add(&b, ", rank %d", r->rank);
	if (r->peer_rank >= 0)
		sb_add(&b, r->rank >= 0 ? " and rank %d" : ", peer rank %d", r->peer_rank);
	if (r->ndevs) {
		sb_add(&b, ", ");
		hlog__devices_text(&b, r);
	}
	if (sig && c->peer_ip[0])
		sb_add(&b, ", peer %s", c->peer_ip);
	/* RFC 1122's "this network": no destination, most often a host name of digits alone
	 * ("6841231"), which the resolver reads as one number, 0.104.99.143 */
	if (sig && !strncmp(c->peer_ip, "0.", 2) && strcmp(c->peer_ip, "0.0.0.0"))
		sb_add(&b, " (no host has an address in 0.0.0.0/8: a host name of digits alone is "
			   "read as one)");
	size_t ml = strlen(meaning);
	if (ml && meaning[ml - 1] == '.')
		ml--; /* the quote follows */
	if (ml)
		sb_add(&b, ": %.*s", (int)ml, meaning);
	static const char *const keys[] = {"Reason", "reason", NULL};
	hlog__quote(&b, c, keys);
	hlog__set_what(r, c->cat,
		 in && c->kind != HLOG_CODE ? in->detail
		 : sig			    ? sig->detail
					    : hlog_kind_name(c->kind));
	hlog__set_fix(r, fix[0] ? fix : "read the lines around it in the same log for the first error");
	add_evidence(r, c);
	for (size_t i = 0; i < r->nev; i++)
		if (r->ev[i].fi == c->fi && r->ev[i].head == c->head)
			add_evidence(r, &r->ev[i]);
	hlog__list_conseq(r, &b, "", r->rank);
}
