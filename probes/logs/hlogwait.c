/* The HCCL log triage's waits, when no fault or configuration explains them: waits from one
 * rank toward many peers (its own network), a peer that never answered, and the chain of
 * waits followed to the rank or device it ends at. */
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

static const char *hms(int64_t t, char *buf, size_t len)
{
	time_t s = (time_t)(t / 1000000);
	struct tm tm;
	if (t < 0 || !gmtime_r(&s, &tm))
		snprintf(buf, len, "?");
	else
		snprintf(buf, len, "%02d:%02d:%02d", tm.tm_hour, tm.tm_min, tm.tm_sec);
	return buf;
}

/* The peers one reporter's waits are for (distinct, within one group), up to max. */
static int peers_of(const struct hlog_report *r, size_t fi, int rank, int *peers, int max,
		    const struct hlog_event **ev)
{
	int n = 0;
	for (size_t i = 0; i < r->nev; i++) {
		const struct hlog_event *e = &r->ev[i];
		if (e->kind != HLOG_SOCKET_TIMEOUT || e->peer_rank < 0 || e->fi != fi ||
		    (rank >= 0 && hlog__ev_rank(r, e) != rank))
			continue;
		int dup = 0;
		for (int k = 0; k < n; k++)
			dup |= peers[k] == e->peer_rank;
		if (!dup && n < max) {
			ev[n] = e;
			peers[n++] = e->peer_rank;
		}
	}
	return n;
}

/* One rank whose connections to several peers all time out: its own network. */
static int conclude_many_links(struct hlog_report *r, const struct hlog_event *w)
{
	int peers[16];
	const struct hlog_event *pev[16];
	int me = hlog__ev_rank(r, w);
	int n = peers_of(r, w->fi, me, peers, 16, pev);
	if (n < 2)
		return 0;
	/* every waiter is this one rank (or its file): nobody else points at these peers */
	for (size_t i = 0; i < r->nev; i++) {
		const struct hlog_event *e = &r->ev[i];
		if (e->kind == HLOG_SOCKET_TIMEOUT && e->peer_rank >= 0 && e->fi != w->fi &&
		    hlog__ev_rank(r, e) != me)
			return 0;
	}
	struct sbuf b = {r->cause, sizeof(r->cause), 0};
	r->kind = HLOG_SOCKET_TIMEOUT;
	r->first = w;
	r->rank = me;
	snprintf(r->node, sizeof(r->node), "%s", w->node);
	snprintf(r->ip, sizeof(r->ip), "%s", w->ip);
	/* local: the peer's log is here; samehost: the peer has this rank's own address, so
	 * its link never left this server */
	int local = 0, remote = 0, samehost = 0;
	for (int k = 0; k < n; k++) {
		if (hlog__file_of(r, peers[k], NULL, -1, NULL))
			local++;
		else
			remote++;
		samehost += w->ip[0] && !strcmp(pev[k]->peer_ip, w->ip);
	}
	sb_add(&b, "many links from ");
	hlog__who(&b, me, hlog__node_of(w), w->ip, -1);
	sb_add(&b, " %s: to rank%s ",
	       w->sub == HLOG_SUB_TRANSPORT ? "cannot be set up" : "time out", n > 1 ? "s" : "");
	for (int k = 0; k < n; k++)
		sb_add(&b, "%s%d%s%s%s", k ? ", " : "", peers[k], pev[k]->peer_ip[0] ? " (" : "",
		       pev[k]->peer_ip, pev[k]->peer_ip[0] ? ")" : "");
	if (pev[0]->result > 0)
		sb_add(&b, " on port %lld", pev[0]->result);
	if (samehost)
		sb_add(&b,
		       "%s; %s, so the fault is at this rank (its NIC, its process or its link "
		       "setup), not one peer",
		       remote && !local ? ", whose logs are not here" : "",
		       samehost == n ? "none of them leaves this server"
				     : "links that stay on this server fail too");
	else
		sb_add(&b, "%s; this node's path to %s is at fault, not one peer",
		       remote && !local ? ", whose logs are not here" : "",
		       remote && !local ? "the other node" : "its peers");
	r->peer_rank = peers[0];
	snprintf(r->peer_ip, sizeof(r->peer_ip), "%s", pev[0]->peer_ip);
	if (pev[0]->result > 0)
		r->port = pev[0]->result;
	if (samehost == n) {
		/* no link crossed a network: nothing here says which side gave up */
		hlog__set_what(r, HCAT_UNRESOLVED, "local-links");
		hlog__set_fix(r,
			"read this rank's log for its first error, and those of the peers above; "
			"check that every process on this server creates the same communicators "
			"in the same order and that two jobs do not share its NPUs (npu-smi info)");
	} else {
		hlog__set_what(r, HCAT_NET, "many-links");
		hlog__set_fix(r,
			"test the NPU network from this node: hccn_tool -i DEV -ping -g address "
			"PEER_DEVICE_IP for each peer above, -link -g, -net_health -g, -tls -g on "
			"both ends; check that both nodes are on the same network plane (switch, "
			"VLAN, routes: hccn_tool -i DEV -route -g), and that the peers' processes "
			"started within HCCL_CONNECT_TIMEOUT");
	}
	for (int k = 0; k < n && r->nevidence < HLOG_MAX_EVIDENCE; k++)
		add_evidence(r, pev[k]);
	return 1;
}

/* HCCL's own check of the links found nothing wrong during the timeouts: the ranks did not
 * run the same steps. w is the wait it was about, when there is one. */
static void conclude_detect(struct hlog_report *r, const struct hlog_event *det,
			    const struct hlog_event *w)
{
	struct sbuf b = {r->cause, sizeof(r->cause), 0};
	r->kind = HLOG_DETECT_NONE;
	r->first = det;
	snprintf(r->node, sizeof(r->node), "%s", det->node);
	sb_add(&b, "HCCL's connection check on node %s found no network fault behind the socket "
		   "timeouts: the ranks did not run the same steps",
	       hlog__node_of(det));
	if (w && w->rank >= 0 && w->peer_rank >= 0) {
		r->rank = w->rank;
		r->peer_rank = w->peer_rank;
		snprintf(r->group, sizeof(r->group), "%s", w->group);
		snprintf(r->ip, sizeof(r->ip), "%s", w->ip);
		snprintf(r->peer_ip, sizeof(r->peer_ip), "%s", w->peer_ip);
		sb_add(&b, "; rank %d", w->rank);
		if (w->group[0])
			sb_add(&b, " of group %s", w->group);
		sb_add(&b, " waited for rank %d to set up its link", w->peer_rank);
		if (w->peer_ip[0])
			sb_add(&b, " (%s)", w->peer_ip);
	} else {
		r->rank = hlog__ev_rank(r, det);
	}
	if (w && w->op[0])
		sb_add(&b, " in %s", w->op);
	hlog__set_what(r, HCAT_OP_MISMATCH, "no-network-fault");
	hlog__set_fix(r, "compare what each rank ran before the timeout: the same collectives in the "
		   "same order on the same groups, the same data sizes (uneven batches make one "
		   "rank skip a step), one script version everywhere; read the peer's log for what "
		   "it was doing at that time");
	add_evidence(r, det);
	add_evidence(r, w);
}

/* The waits that name no peer: what they say, and what the rest of the log adds. */
/* A wait on the device until HCCL's execution timeout (FFTS+): a peer never joined. */
static void say_ffts_wait(struct hlog_report *r, struct sbuf *b, const struct hlog_event *w)
{
	sb_add(b, "a collective on node %s", hlog__node_of(w));
	if (r->rank >= 0)
		sb_add(b, ", rank %d", r->rank);
	if (w->dev >= 0)
		sb_add(b, ", device %d", w->dev);
	sb_add(b, " waited on the device until HCCL's execution timeout for a peer that "
		   "never joined");
	if (w->value >= 0)
		sb_add(b, " (%lld stuck notify wait%s)", w->value, plural_s(w->value));
	if (w->op[0])
		sb_add(b, ", in %s", w->op);
	sb_add(b, ": the cause is on the rank it waited for, which stopped, hung or is "
		   "idle elsewhere");
	hlog__set_what(r, HCAT_RANK_STUCK, "timeout-elsewhere");
	hlog__set_fix(r, "find the rank that did not join: the first error in the other ranks' "
		   "logs, or the rank whose last op differs (HCCL_ENTRY_LOG_ENABLE=1); a "
		   "serving job whose ranks sit idle in a broadcast needs a heartbeat or a "
		   "larger HCCL_EXEC_TIMEOUT, a training job uneven data or a stuck rank "
		   "fixed");
	hlog__evidence_of(r, HLOG_FFTS_TIMEOUT, NULL);
}

/* A socket timeout inside a collective: a peer never entered the same collective. */
static void say_never_joined(struct hlog_report *r, struct sbuf *b, const struct hlog_event *w)
{
	/* inside a collective: its links are set up at its first call, so a peer that
	 * never answers never entered the same collective */
	sb_add(b, "rank %d on node %s timed out in %s waiting for its peers to join the "
		   "same collective: the ranks did not call the same collectives in the "
		   "same order (or a peer is stuck before it)",
	       r->rank, hlog__node_of(w), w->op);
	if (r->rank < 0) {
		b->n = 0;
		sb_add(b, "a rank on node %s timed out in %s waiting for its peers to join "
			   "the same collective: the ranks did not call the same "
			   "collectives in the same order (or a peer is stuck before it)",
		       hlog__node_of(w), w->op);
	}
	hlog__set_what(r, HCAT_OP_MISMATCH, "peer-never-joined");
	hlog__set_fix(r, "make every rank issue the same collectives on the same groups in the "
		   "same order (a rank-dependent branch, a library that issues its own "
		   "collectives on some ranks only); compare the ranks' last ops with "
		   "HCCL_ENTRY_LOG_ENABLE=1");
}

/* A socket timeout whose lines name the address it could not reach, and no rank of the logs
 * waits on another: nothing answered at that address in time. */
static void say_connect_timeout(struct hlog_report *r, struct sbuf *b, const struct hlog_event *w)
{
	if (r->rank >= 0)
		sb_add(b, "rank %d on node %s", r->rank, hlog__node_of(w));
	else
		sb_add(b, "node %s", hlog__node_of(w));
	sb_add(b, " could not connect to %s", r->ip);
	if (r->port >= 0)
		sb_add(b, " port %lld", (long long)r->port);
	sb_add(b, " within the connect timeout (an EI0006 socket timeout): nothing answered "
		  "there, either the address is not reachable from this node or no process was "
		  "listening on it yet");
	hlog__set_what(r, HCAT_NET, "connect-timeout");
	hlog__set_fix(r, "from this node, ping that address (hccn_tool -i DEV -ping -g address "
		   "ADDR between NPUs) and check the route and firewall; check that the process "
		   "there started in time (its log), and that every node uses the same "
		   "HCCL_SOCKET_IFNAME and HCCL_CONNECT_TIMEOUT");
}

/* A wait that timed out on something the log does not name: what its line says. */
static void say_wait_unnamed(struct hlog_report *r, struct sbuf *b, const struct hlog_event *w)
{
	sb_add(b, "%s on node %s", w->code[0] ? w->code : hlog_kind_name(w->kind),
	       hlog__node_of(w));
	if (r->rank >= 0)
		sb_add(b, ", rank %d", r->rank);
	if (w->dev >= 0)
		sb_add(b, ", device %d", w->dev);
	const struct hcode *hc =
		(w->kind == HLOG_CODE || w->kind == HLOG_INNER) && w->code[0]
			? hcode_find(w->code, strlen(w->code)) : NULL;
	/* an inner error's own sub-message ("event wait timeout occurred") says more
	 * than a wrapper code that is not about waiting (EE9999, "an internal failure") */
	const struct hinner *in =
		w->kind == HLOG_INNER && (!hc || hc->cat != HCAT_RANK_STUCK)
			? hinner_match(w->text, strlen(w->text))
			: NULL;
	/* or the runtime's code the line gave ("runtime result = 107020": a task timed out) */
	const char *acl = w->result >= 0 && !strncmp(w->detail, "acl-", 4)
				  ? hacl_meaning(w->result)
				  : NULL;
	/* or the catalog's row for the line ("RuntimeError: Broken pipe": the peer closed) */
	const struct hlog_sig *sig =
		w->kind == HLOG_INNER && w->detail[0] ? hlog__sig_find(w->detail) : NULL;
	if (sig && sig->cat != HCAT_RANK_STUCK)
		sig = NULL;
	const char *meaning = in && in->cat == HCAT_RANK_STUCK ? in->meaning
			      : hc			       ? hc->meaning
			      : acl			       ? acl
			      : sig			       ? sig->meaning
							       : "";
	/* the peer's address when the line gives it (Gloo's "Connection closed by peer
	 * [172.26.182.3]:39056"): the process there stopped, and its log says why */
	char peer[HLOG_IPLEN + 40] = "";
	if (r->ip[0] && r->port >= 0)
		snprintf(peer, sizeof(peer), "the peer at %s port %lld", r->ip, (long long)r->port);
	else if (r->ip[0])
		snprintf(peer, sizeof(peer), "the peer at %s", r->ip);
	if (meaning[0] && peer[0]) /* what the line says, not more */
		sb_add(b, ": %c%.*s; the cause is on %s (read its log)",
		       tolower((unsigned char)meaning[0]), (int)strcspn(meaning + 1, ".;"),
		       meaning + 1, peer);
	else if (meaning[0])
		sb_add(b,
		       ": %c%.*s; the cause is on what it waited for (which the log does "
		       "not name)",
		       tolower((unsigned char)meaning[0]), (int)strcspn(meaning + 1, ".;"),
		       meaning + 1);
	else if (peer[0])
		sb_add(b, ": a remote rank stopped or did not send in time; the cause is on %s "
			   "(read its log)", peer);
	else
		sb_add(b, ": a remote rank did not send in time; the cause is on the rank it "
			   "waited for (which the log does not name)");
	hlog__set_what(r, HCAT_RANK_STUCK, "timeout-elsewhere");
	hlog__set_fix(r, sig && sig->fix ? sig->fix
			 : "read the other ranks' logs for the first error or the rank that "
			   "stopped (crash, hang, checkpoint saving, uneven data); raise "
			   "HCCL_EXEC_TIMEOUT only if it is slow on purpose");
}

static void conclude_nopeer(struct hlog_report *r)
{
	const struct hlog_event *w = NULL, *det = NULL;
	for (size_t i = 0; i < r->nev; i++) {
		if (!w && hlog__class(&r->ev[i]) == HLOG_CLS_CONSEQ)
			w = &r->ev[i];
		if (!det && r->ev[i].kind == HLOG_DETECT_NONE)
			det = &r->ev[i];
	}
	if (!w && !det)
		return;
	/* the watchdog's lines are the whole story when they are first, or when they name the
	 * rank where the backend's lines name none */
	/* (the ranks' task reports were compared before any wait was followed: see
	 * hlog__conclude_chain) */
	if (w && hlog__watchdog_conclude(r, w->kind != HLOG_WATCHDOG))
		return;
	struct sbuf b = {r->cause, sizeof(r->cause), 0};
	if (det && (!w || w->kind == HLOG_SOCKET_TIMEOUT)) {
		conclude_detect(r, det, w);
		return;
	}
	r->kind = w->kind;
	r->first = w;
	r->rank = hlog__ev_rank(r, w);
	r->dev = w->dev;
	if (w->kind != HLOG_FFTS_TIMEOUT) {
		hlog__fill_context(r, w);
		hlog__values_below(r, w);
	}
	snprintf(r->node, sizeof(r->node), "%s", w->node);
	snprintf(r->group, sizeof(r->group), "%s", w->group);
	add_evidence(r, w);
	if (w->kind == HLOG_FFTS_TIMEOUT) {
		say_ffts_wait(r, &b, w);
		return;
	}
	if (w->kind == HLOG_SOCKET_TIMEOUT && w->op[0]) {
		say_never_joined(r, &b, w);
		return;
	}
	if ((w->kind == HLOG_SOCKET_TIMEOUT && w->sub == HLOG_SUB_STUCK) ||
	    w->kind == HLOG_NOTIFY_TIMEOUT || w->cat == HCAT_RANK_STUCK) {
		say_wait_unnamed(r, &b, w);
		return;
	}
	/* the lines under it name the end it could not reach ("srcRank[A/0] connect
	 * destRank[B/0] fail."): a connection that timed out toward a known address */
	if (w->kind == HLOG_SOCKET_TIMEOUT && r->ip[0]) {
		say_connect_timeout(r, &b, w);
		return;
	}
	sb_add(&b, "%s on node %s names no peer, and nothing else in the logs says why",
	       w->kind == HLOG_SOCKET_TIMEOUT	? "an EI0006 socket timeout"
	       : w->kind == HLOG_NOTIFY_TIMEOUT ? "an EI0002 notify timeout"
						: hlog_kind_name(w->kind),
	       hlog__node_of(w));
	hlog__set_what(r, HCAT_UNRESOLVED, "no-peer");
	hlog__set_fix(r, "collect the logs of every rank of the job (all nodes' plogs under "
		   "~/ascend/log) and run this again on them; check hccn_tool -i DEV -ping -g "
		   "between the device IPs, -link -g and -tls -g; compare when each rank started");
	/* what failed around it */
	for (size_t i = 0; i < r->nev; i++)
		if (r->ev[i].kind == HLOG_API && r->ev[i].op[0])
			add_evidence(r, &r->ev[i]);
}

/* EI0009 toward a peer on the same host: the path is not at fault. 1 when w is one (the
 * cause set). */
static int same_host_peer(struct hlog_report *r, const struct hlog_event *w, int p)
{
	if (w->sub != HLOG_SUB_TRANSPORT || !w->ip[0] || strcmp(w->ip, w->peer_ip))
		return 0;
	struct sbuf b = {r->cause, sizeof(r->cause), 0};
	r->kind = w->kind;
	r->first = w;
	r->rank = p;
	r->peer_rank = hlog__ev_rank(r, w);
	snprintf(r->node, sizeof(r->node), "%s", w->node);
	snprintf(r->ip, sizeof(r->ip), "%s", w->peer_ip);
	sb_add(&b, "rank %d could not set up its link to rank %d on the same host (%s)", r->peer_rank,
	       p, w->ip);
	sb_add(&b, ": the network between them is not at fault; rank %d did not set up the "
		   "same link (another communicator or order of calls) or its NPU failed",
	       p);
	hlog__set_what(r, HCAT_RANK_STUCK, "peer-side");
	snprintf(r->fix, sizeof(r->fix),
		 "read rank %d's log for its first error; check that both processes create "
		 "the same communicators in the same order (a trainer and an inference engine "
		 "sharing NPUs, groups created on some ranks only)",
		 p);
	add_evidence(r, w);
	return 1;
}

/* Follows the chain: the rank waited for (*p, through the wait *w) may itself wait for
 * another. The rank the first waits for when the waits form a cycle, else -1. */
static int follow_waits(const struct hlog_report *r, int *p, const struct hlog_event **w,
			const char *grp)
{
	int seen[8] = {*p}, nseen = 1, cycle = -1;
	for (;;) {
		const struct hlog_event *next = NULL;
		for (size_t i = 0; i < r->nev && !next && !grp[0]; i++) {
			const struct hlog_event *e = &r->ev[i];
			if (hlog__class(e) == HLOG_CLS_CONSEQ && e->kind != HLOG_ROOT_TIMEOUT &&
			    hlog__ev_rank(r, e) == *p && e->peer_rank >= 0 && e->peer_rank != *p)
				next = e;
		}
		if (!next || nseen == 8)
			break;
		int loop = 0;
		for (int i = 0; i < nseen; i++)
			loop |= seen[i] == next->peer_rank;
		if (loop) {
			/* the rank seen[0] itself waits for */
			cycle = nseen > 1 ? seen[1] : next->peer_rank;
			*p = seen[0];
			break;
		}
		*p = next->peer_rank;
		seen[nseen++] = *p;
		*w = next;
	}
	return cycle;
}

/* The rank the chain ends at, placed: its group, file, device IP, node and device. Its file,
 * or NULL when its log is not here (or it is a rank within a group). */
static const struct hlog_file *place_end(struct hlog_report *r, const struct hlog_event *w,
					 int p, const char *grp)
{
	r->kind = w->kind;
	r->first = w;
	r->rank = p;
	snprintf(r->group, sizeof(r->group), "%s", w->group);
	const struct hlog_file *f = grp[0] ? NULL : hlog__file_of(r, p, NULL, -1, NULL);
	const char *ip = f && f->ip[0] ? f->ip : "";
	for (size_t i = 0; i < r->nev && !ip[0]; i++)
		if (r->ev[i].sub == HLOG_SUB_LINK_ROW && r->ev[i].peer_rank == p)
			ip = r->ev[i].peer_ip;
	/* a process whose log states its device IP and not its rank is still here */
	if (!f && !grp[0] && ip[0])
		f = hlog__file_of(r, -1, NULL, -1, ip);
	snprintf(r->ip, sizeof(r->ip), "%s", ip);
	snprintf(r->node, sizeof(r->node), "%s", f ? f->node : "");
	/* HCCL's detector names the far end by server and device; on the reporter's own server
	 * that is the reporter's node */
	for (size_t i = 0; i < r->nev && !grp[0]; i++) {
		const struct hlog_event *d = &r->ev[i];
		if (d->sub != HLOG_SUB_DETECT || d->fi != w->fi || d->peer_dev < 0)
			continue;
		r->dev = d->peer_dev;
		if (!r->node[0] && d->ip[0] && !strcmp(d->ip, d->peer_ip))
			snprintf(r->node, sizeof(r->node), "%s", d->node);
		break;
	}
	return f;
}

/* A rank within a group (grp), waited for: the group, and the waiter as its log names it. */
static void say_group_rank(struct hlog_report *r, struct sbuf *b, const struct hlog_event *w,
			   int p, const char *grp)
{
	sb_add(b, "rank %d of group %s", p, grp);
	if (w->group_size > 0)
		sb_add(b, " (%d ranks)", w->group_size);
	sb_add(b, " is the rank the others wait for");
	int me = -1;
	for (size_t i = 0; i < r->nev && me < 0; i++)
		if (r->ev[i].fi == w->fi && r->ev[i].pid == w->pid && !r->ev[i].group[0])
			me = r->ev[i].rank;
	sb_add(b, ": ");
	if (w->rank >= 0)
		sb_add(b, "its rank %d", w->rank);
	else
		sb_add(b, "a rank");
	if (me >= 0)
		sb_add(b, " (job rank %d", me);
	if (w->dev >= 0)
		sb_add(b, "%sdevice %d", me >= 0 ? ", " : " (", w->dev);
	if (me >= 0 || w->dev >= 0)
		sb_add(b, ")");
	sb_add(b, " on node %s timed out waiting for it", hlog__node_of(w));
	if (w->op[0])
		sb_add(b, " in %s", w->op);
	r->peer_rank = w->rank;
	r->dev = w->dev;
	r->rank = p;
}

/* Why rank p (its file f) kept the others waiting, as its log tells: it started late, its
 * log ended first, it shows no error. */
static void say_why_late(const struct hlog_report *r, struct sbuf *b,
			 const struct hlog_file *f, int p)
{
	int64_t t0 = -1;
	for (size_t i = 0; i < r->nev && t0 < 0; i++)
		if (hlog__class(&r->ev[i]) == HLOG_CLS_CONSEQ && hlog__ev_rank(r, &r->ev[i]) != p)
			t0 = r->ev[i].t_us;
	char t1[16], t2[16];
	int64_t start = f->first_us;
	for (size_t i = 0; i < r->nev; i++)
		if (r->ev[i].kind == HLOG_ENTRY && hlog__ev_rank(r, &r->ev[i]) == p &&
		    r->ev[i].t_us >= 0) {
			start = r->ev[i].t_us;
			break;
		}
	int has_err = 0;
	for (size_t i = 0; i < r->nev; i++)
		has_err |= hlog__ev_rank(r, &r->ev[i]) == p &&
			   hlog__class(&r->ev[i]) != HLOG_CLS_INFO;
	if (t0 >= 0 && start > t0)
		sb_add(b, ": it started late, at %s, after the first timeout at %s",
		       hms(start, t1, sizeof(t1)), hms(t0, t2, sizeof(t2)));
	else if (t0 >= 0 && f->last_us >= 0 && f->last_us < t0)
		sb_add(b,
		       ": its log ends at %s, before the first timeout at %s (the "
		       "process exited or hung)",
		       hms(f->last_us, t1, sizeof(t1)), hms(t0, t2, sizeof(t2)));
	else if (!has_err)
		sb_add(b, ": its log shows no error: it did not call the same collective");
}

void hlog__conclude_chain(struct hlog_report *r)
{
	size_t votes;
	const struct hlog_event *w;
	/* the ranks' own reports of one collective say more than the waits between them: a
	 * rank behind the others, or in another collective, is where a cycle of waits began */
	if (hlog__task_conclude(r))
		return;
	/* waits placed on workers and devices, followed to where they end */
	if (hlog__chain_conclude(r))
		return;
	r->nchain = 0;
	r->loop = -1;
	int p = hlog__most_waited(r, 0, &votes, &w);
	for (size_t i = 0; i < r->nev && p >= 0; i++)
		if (r->ev[i].kind == HLOG_DETECT_NONE && w->kind == HLOG_SOCKET_TIMEOUT) {
			conclude_detect(r, &r->ev[i], w);
			return;
		}
	if (p < 0) {
		if (hlog__conclude_root(r))
			return;
		conclude_nopeer(r);
		return;
	}
	if (votes == 1 && w->kind == HLOG_SOCKET_TIMEOUT && conclude_many_links(r, w))
		return;
	if (same_host_peer(r, w, p))
		return;
	const char *grp = w->group;
	int cycle = follow_waits(r, &p, &w, grp);
	const struct hlog_file *f = place_end(r, w, p, grp);
	struct sbuf b = {r->cause, sizeof(r->cause), 0};
	int sock = w->kind == HLOG_SOCKET_TIMEOUT;
	if (grp[0]) {
		say_group_rank(r, &b, w, p, grp);
	} else {
		hlog__who(&b, p, r->node, r->ip, r->dev);
		sb_add(&b, " is the rank the others wait for");
	}
	if (grp[0]) {
		/* a rank within a group: its log, if here, is not told apart by rank */
	} else if (cycle >= 0) {
		sb_add(&b,
		       ", and it waits for rank %d in turn: the ranks wait on each other (a "
		       "collective called in a different order)",
		       cycle);
	} else if (!f) {
		sb_add(&b, ", and no log from it was found: it never started, or its log is "
			   "missing");
	} else {
		say_why_late(r, &b, f, p);
	}
	if (!grp[0])
		hlog__list_conseq(r, &b, " waiting for it", p);
	hlog__set_what(r, cycle >= 0 ? HCAT_OP_MISMATCH : HCAT_RANK_STUCK,
		 cycle >= 0 ? "wait-cycle" : sock && !f ? "never-connected" : "timeout-elsewhere");
	if (sock)
		hlog__set_fix(r, "read that rank's log and when it started (grep -r "
			   "Entry-HcclCommInitRootInfoInner), check that every rank calls the same "
			   "collectives in the same order, and test its NPU link: hccn_tool -i DEV "
			   "-ping -g address ITS_DEVICE_IP, -link -g, -tls -g; raise "
			   "HCCL_CONNECT_TIMEOUT only if the ranks start far apart on purpose");
	else
		hlog__set_fix(r, "find why that rank stopped (a crash, a hang, a checkpoint being saved, "
			   "uneven data) in its log; raise HCCL_EXEC_TIMEOUT only if it is slow on "
			   "purpose; trace the ops with HCCL_ENTRY_LOG_ENABLE=1");
	add_evidence(r, w);
	for (size_t i = 0; i < r->nev; i++)
		if (r->ev[i].fi == w->fi && r->ev[i].pid == w->pid && r->ev[i].kind == HLOG_CODE &&
		    r->ev[i].rank >= 0)
			add_evidence(r, &r->ev[i]);
}
