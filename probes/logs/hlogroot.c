/* The HCCL log triage's communicator setup at its root: ranks that never connected (named
 * from the gaps in what the root saw, or its own list), a root no one could reach, torch's
 * store waiting for a late root. Apart because the wait chain ends here too. */
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

/* torch's store bootstrap: the ranks that timed out waiting for the root's communicator id
 * are victims; the root did not get to its first collective in time or exited. */
static int conclude_store(struct hlog_report *r, const struct hlog_event *e)
{
	struct sbuf b = {r->cause, sizeof(r->cause), 0};
	int waiting = 0;
	for (size_t i = 0; i < r->nev; i++)
		waiting += r->ev[i].kind == HLOG_ROOT_TIMEOUT && r->ev[i].sub == HLOG_SUB_STORE &&
			   r->ev[i].peer_rank == e->peer_rank;
	const struct hlog_file *f = hlog__file_of(r, e->peer_rank, NULL, -1, NULL);
	r->first = e;
	r->kind = HLOG_ROOT_TIMEOUT;
	r->rank = e->peer_rank;
	r->peer_rank = e->rank; /* the one that waited */
	/* without the root's own log, the node whose lines name it, as every verdict read off a
	 * line names that line's node */
	snprintf(r->node, sizeof(r->node), "%s", f ? f->node : e->node);
	sb_add(&b, "rank %d did not publish the communicator id in time: ", e->peer_rank);
	if (e->rank >= 0)
		sb_add(&b, "rank %d (node %s)", e->rank, hlog__node_of(e));
	else
		sb_add(&b, "a rank on node %s", hlog__node_of(e));
	if (waiting > 1)
		sb_add(&b, " and %d more", waiting - 1);
	sb_add(&b,
	       " timed out waiting for it in the store while setting up the communicator; "
	       "rank %d was still busy before its first collective or had exited",
	       e->peer_rank);
	hlog__set_what(r, HCAT_RANK_STUCK, "root-late");
	hlog__set_fix(r, "read that rank's log: an error there is the cause; if it was busy (tokenising "
		   "a dataset, loading a model, an evaluation) do that work before the process "
		   "group is used or raise the group's timeout (init_process_group timeout=, "
		   "ddp_timeout)");
	for (size_t i = 0; i < r->nev; i++)
		if (r->ev[i].kind == HLOG_ROOT_TIMEOUT && r->ev[i].sub == HLOG_SUB_STORE)
			add_evidence(r, &r->ev[i]);
	return 1;
}

#define ROOT_SEEN 4096

/* The ranks the root saw connect (seen[ROOT_SEEN], zeroed here): how many, the highest
 * (*maxr_out) and how many it needed (*need_out, 0 when unsaid); *srv the first such line
 * when unset. */
static int root_connected(const struct hlog_report *r, char *seen, int *maxr_out, int *need_out,
			  const struct hlog_event **srv)
{
	int maxr = -1, connected = 0, need = 0;
	memset(seen, 0, ROOT_SEEN);
	for (size_t i = 0; i < r->nev; i++) {
		const struct hlog_event *e = &r->ev[i];
		if (e->kind != HLOG_ROOT_TIMEOUT || e->sub != HLOG_SUB_CONNECTED)
			continue;
		if (e->group_size > need && e->group_size <= (int)ROOT_SEEN)
			need = e->group_size;
		const char *p = strstr(e->text, "]:");
		for (p = p ? p + 2 : NULL; p && *p;) {
			if (*p >= '0' && *p <= '9') {
				char *end;
				long v = strtol(p, &end, 10);
				if (v >= 0 && v < (long)ROOT_SEEN && !seen[v]) {
					seen[v] = 1;
					connected++;
					maxr = v > maxr ? (int)v : maxr;
				}
				p = end;
			} else {
				p++;
			}
		}
		if (!*srv)
			*srv = e;
	}
	*maxr_out = maxr;
	*need_out = need;
	return connected;
}

/* Ranks below top that never connected, named from the gaps in what the root saw (srv). */
static void say_gaps(struct hlog_report *r, struct sbuf *b, const char *seen, int top,
		     int connected, const struct hlog_event *srv)
{
	int miss[16], nm = 0;
	for (int v = 0; v < top && nm < 16; v++)
		if (!seen[v])
			miss[nm++] = v;
	r->first = srv;
	r->rank = miss[0];
	snprintf(r->node, sizeof(r->node), "%s", srv->node);
	sb_add(b, "rank%s ", nm > 1 ? "s" : "");
	for (int i = 0; i < nm; i++)
		sb_add(b, "%s%d", i ? "," : "", miss[i]);
	sb_add(b, " never connected to the root (node %s; %d rank%s did): they did not call "
		   "init, started late or chose an unroutable NIC",
	       hlog__node_of(srv), connected, plural_s(connected));
	hlog__set_what(r, HCAT_RANK_STUCK, "never-connected");
	r->kind = HLOG_ROOT_TIMEOUT;
	hlog__set_fix(r, "read the missing rank's log and check when it called init; raise "
		   "HCCL_CONNECT_TIMEOUT if the ranks start far apart, point "
		   "HCCL_SOCKET_IFNAME / HCCL_IF_IP at a NIC every node can route to, open the "
		   "host firewall for HCCL_IF_BASE_PORT");
	for (size_t i = 0; i < r->nev; i++)
		if (r->ev[i].kind == HLOG_ROOT_TIMEOUT)
			add_evidence(r, &r->ev[i]);
}

int hlog__conclude_root(struct hlog_report *r)
{
	struct sbuf b = {r->cause, sizeof(r->cause), 0};
	const struct hlog_event *lst = NULL, *srv = NULL, *agent = NULL, *store = NULL;
	for (size_t i = 0; i < r->nev; i++) {
		const struct hlog_event *e = &r->ev[i];
		if (e->kind != HLOG_ROOT_TIMEOUT)
			continue;
		if (!store && e->sub == HLOG_SUB_STORE)
			store = e;
		if (!lst && e->sub == HLOG_SUB_UNCONNECTED)
			lst = e;
		if (!srv && e->sub == HLOG_SUB_ROOT_SERVER)
			srv = e;
		if (!agent && e->sub == HLOG_SUB_ROOT_AGENT && e->peer_ip[0])
			agent = e;
	}
	/* the ranks the root saw connect: the gaps below the highest are the ones missing */
	char seen[ROOT_SEEN];
	int maxr, need;
	int connected = root_connected(r, seen, &maxr, &need, &srv);
	if (!lst && !srv && !agent)
		return store ? conclude_store(r, store) : 0;
	/* the missing ranks: the gaps below the highest that connected, and, when the root
	 * printed how many it needed, those above it too */
	int top = need > maxr + 1 ? need : maxr + 1;
	if (!lst && maxr >= 0 && connected < top) {
		say_gaps(r, &b, seen, top, connected, srv);
		return 1;
	}
	r->kind = HLOG_ROOT_TIMEOUT;
	const char *fix = "compare when each rank called init (grep -r "
			  "Entry-HcclCommInitRootInfoInner in every node's plogs), raise "
			  "HCCL_CONNECT_TIMEOUT if they start far apart, point HCCL_SOCKET_IFNAME / "
			  "HCCL_IF_IP at a NIC every node can route to, open the host firewall for "
			  "HCCL_IF_BASE_PORT, and raise somaxconn, tcp_max_syn_backlog and ulimit -n "
			  "on the root node for large jobs";
	int ranks[16];
	int n = 0;
	if (lst)
		n = hlog__rank_list(lst->text,
			      strstr(lst->text, "unconnected ranks") ? "unconnected ranks"
								     : "agent",
			      ranks, 16);
	if (n) {
		/* the root is where the server's lines are; an agent's list of the missing
		 * ranks may come from another node. Where no log of the missing ranks is in
		 * the bundle, the root's node is the place to start: its log says who came */
		const struct hlog_event *root = srv ? srv : lst;
		r->first = lst;
		r->rank = ranks[0];
		const struct hlog_file *f = hlog__file_of(r, ranks[0], NULL, -1, NULL);
		snprintf(r->node, sizeof(r->node), "%s", f ? f->node : srv ? srv->node : "");
		sb_add(&b, "rank%s ", n > 1 ? "s" : "");
		for (int i = 0; i < n; i++)
			sb_add(&b, "%s%d", i ? "," : "", ranks[i]);
		sb_add(&b,
		       " never connected to the root (node %s): they did not call init, started "
		       "late or chose an unroutable NIC",
		       hlog__node_of(root));
		hlog__set_what(r, HCAT_RANK_STUCK, "never-connected");
	} else if (agent) {
		r->first = agent;
		snprintf(r->ip, sizeof(r->ip), "%s", agent->peer_ip);
		snprintf(r->node, sizeof(r->node), "%s", agent->node);
		r->port = agent->value;
		sb_add(&b, "node %s cannot reach the root %s", agent->node[0] ? agent->node : "?",
		       agent->peer_ip);
		if (agent->value >= 0)
			sb_add(&b, ":%lld", agent->value);
		sb_add(&b, " (its connection timed out): a wrong NIC or address chosen, a firewall, or "
		       "nothing listening there");
		hlog__set_what(r, HCAT_NET, "root-unreachable");
	} else {
		const struct hlog_event *e = srv ? srv : lst;
		r->first = e;
		snprintf(r->node, sizeof(r->node), "%s", e->node);
		sb_add(&b, "the root (node %s) did not see every rank within HCCL_CONNECT_TIMEOUT",
		       hlog__node_of(e));
		hlog__set_what(r, HCAT_RANK_STUCK, "never-connected");
	}
	hlog__set_fix(r, fix);
	add_evidence(r, r->first);
	return 1;
}
