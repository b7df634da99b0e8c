/* From events to one most likely cause. The order of reasoning: a fault or a configuration
 * cause that explains the rest (a down NIC explains the listen failure and the timeouts after
 * it; a dead rank the heartbeats and notify timeouts of the others) is preferred to the waits
 * it causes; only when there is none are the waits followed to the rank they point at. Waits
 * from one rank toward many peers, local and remote alike, are this node's network, not many
 * dead peers. Ranks are compared only within one group: HCCL numbers the ranks of each
 * sub-communicator from 0. Nothing that reads as an error is ever concluded to be "none". */
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
#include "probes/logs/hlogint.h"

static int ev_cmp(const void *pa, const void *pb)
{
	const struct hlog_event *a = pa, *b = pb;
	if ((a->t_us < 0) != (b->t_us < 0))
		return a->t_us < 0 ? 1 : -1;
	if (a->t_us != b->t_us)
		return a->t_us < b->t_us ? -1 : 1;
	int c = strcmp(a->file, b->file);
	if (c)
		return c;
	return a->line < b->line ? -1 : a->line > b->line;
}

#define sb_add hlog__sb_add
#define add_evidence hlog__evidence

static int is_heartbeat(int kind)
{
	return kind == HLOG_HEARTBEAT_LOST || kind == HLOG_HEARTBEAT_STUCK ||
	       kind == HLOG_HEARTBEAT;
}

/* The job-wide rank an event is from; -1 when it names only a rank within a group. */
static int ev_rank(const struct hlog_report *r, const struct hlog_event *e)
{
	if (e->group[0])
		return -1;
	if (e->rank >= 0 && e->sub != HLOG_SUB_DETECT)
		return e->rank;
	return e->fi < r->nfile ? r->file[e->fi].rank : -1;
}

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

static void set_fix(struct hlog_report *r, const char *fix)
{
	snprintf(r->fix, sizeof(r->fix), "%s", fix);
}

static void set_what(struct hlog_report *r, int cat, const char *detail)
{
	r->cat = cat;
	snprintf(r->detail, sizeof(r->detail), "%s", detail);
}

static const char *node_of(const struct hlog_event *e)
{
	return e->node[0] ? e->node : e->file;
}

/* Lists where the waits that timed out were written: "the EI0006 socket timeouts on ranks
 * 0,1,2 and the EI0002 notify timeouts on ranks 4,5". */
static void list_conseq(const struct hlog_report *r, struct sbuf *b, const char *what,
			int skip_rank)
{
	static const struct {
		int kind;
		const char *name;
	} ks[] = {{HLOG_SOCKET_TIMEOUT, "EI0006 socket timeouts"},
		  {HLOG_NOTIFY_TIMEOUT, "EI0002 notify timeouts"},
		  {HLOG_ROOT_TIMEOUT, "rootinfo timeouts"},
		  {HLOG_FFTS_TIMEOUT, "device task timeouts"}};
	int any = 0;
	for (size_t k = 0; k < sizeof(ks) / sizeof(ks[0]); k++) {
		char *seen = calloc(r->nfile ? r->nfile : 1, 1);
		if (!seen)
			return;
		int ranks[17], nr = 0, more = 0, nnodes = 0, found = 0;
		char nodes[160] = "";
		const char *named[64];
		size_t nnamed = 0;
		for (size_t i = 0; i < r->nev && nnamed < 64; i++) {
			const struct hlog_event *e = &r->ev[i];
			if (e->kind != ks[k].kind || ev_rank(r, e) < 0)
				continue;
			int dup = 0;
			for (size_t j = 0; j < nnamed && !dup; j++)
				dup = !strcmp(named[j], e->node);
			if (!dup)
				named[nnamed++] = e->node;
		}
		for (size_t i = 0; i < r->nev; i++) {
			const struct hlog_event *e = &r->ev[i];
			if (e->kind != ks[k].kind)
				continue;
			int rk = ev_rank(r, e);
			if (rk >= 0 && rk == skip_rank)
				continue;
			found = 1;
			if (e->fi >= r->nfile || seen[e->fi])
				continue;
			seen[e->fi] = 1;
			if (rk >= 0) {
				int dup = 0;
				for (int j = 0; j < nr; j++)
					dup |= ranks[j] == rk;
				if (!dup && nr < 16)
					ranks[nr++] = rk;
				else if (!dup)
					more = 1;
			} else if (nnodes < 8) {
				int dup = 0;
				for (size_t j = 0; j < nnamed && !dup; j++)
					dup = !strcmp(named[j], e->node);
				for (int j = 0; j < nnodes && !dup; j++)
					dup = !!strstr(nodes, node_of(e));
				if (dup)
					continue;
				size_t l = strlen(nodes);
				snprintf(nodes + l, sizeof(nodes) - l, "%s%.40s", nnodes ? "," : "",
					 node_of(e));
				nnodes++;
			}
		}
		free(seen);
		if (!found)
			continue;
		for (int i = 1; i < nr; i++)
			for (int j = i; j > 0 && ranks[j - 1] > ranks[j]; j--) {
				int t = ranks[j];
				ranks[j] = ranks[j - 1];
				ranks[j - 1] = t;
			}
		/* EI0009 (a link that could not be set up) is not EI0006 (a wait that timed
		 * out): name the waits by what they were */
		const char *name = ks[k].name;
		if (ks[k].kind == HLOG_SOCKET_TIMEOUT) {
			int t9 = 0, other = 0;
			for (size_t i = 0; i < r->nev; i++)
				if (r->ev[i].kind == HLOG_SOCKET_TIMEOUT) {
					if (!strcmp(r->ev[i].code, "EI0009"))
						t9 = 1;
					else
						other = 1;
				}
			name = t9 && !other ? "EI0009 transport init errors"
			       : t9	   ? "EI0006 socket timeouts and EI0009 transport errors"
					   : name;
		}
		sb_add(b, "%s%s", any ? " and the " : "; the ", name);
		if (nr) {
			sb_add(b, " on rank%s ", nr > 1 ? "s" : "");
			for (int j = 0; j < nr; j++)
				sb_add(b, "%s%d", j ? "," : "", ranks[j]);
			if (more)
				sb_add(b, ",...");
		}
		if (nnodes)
			sb_add(b, "%s %s", nr ? " and on" : " on", nodes);
		any = 1;
	}
	if (any)
		sb_add(b, "%s are consequences", what);
}

/* The file written by rank (or, for rank -1, by host/dev or device ip); NULL. */
static const struct hlog_file *file_of(const struct hlog_report *r, int rank, const char *host,
				       int dev, const char *ip)
{
	for (size_t i = 0; i < r->nfile; i++) {
		const struct hlog_file *f = &r->file[i];
		if (rank >= 0 && f->rank == rank)
			return f;
		if (host && host[0] && !strcmp(f->host, host) && (dev < 0 || f->dev == dev))
			return f;
		if (ip && ip[0] && !strcmp(f->ip, ip))
			return f;
	}
	return NULL;
}

/* Describes a culprit: "rank 3 (node n4, 192.168.10.4)", "10.0.0.3 device 0 (node n3)". */
static void who(struct sbuf *b, int rank, const char *node, const char *ip, int dev)
{
	char addr[HLOG_IPLEN + 24] = "";
	if (!strcmp(node, ip))
		node = ""; /* a node named by its IP is said once */
	if (ip[0] && dev >= 0)
		snprintf(addr, sizeof(addr), "%s device %d", ip, dev);
	else if (ip[0])
		snprintf(addr, sizeof(addr), "%s", ip);
	if (rank >= 0)
		sb_add(b, "rank %d", rank);
	else
		sb_add(b, "%s", addr[0] ? addr : "an unknown rank");
	if (node[0] && rank >= 0 && addr[0])
		sb_add(b, " (node %s, %s)", node, addr);
	else if (node[0])
		sb_add(b, " (node %s)", node);
	else if (rank >= 0 && addr[0])
		sb_add(b, " (%s)", addr);
}

/* How many ranks wrote an event that match()es key: distinct ranks (or heartbeat
 * Discoverers), plus the nodes of lines that name no rank and come from a node without one. */
static size_t reporters(const struct hlog_report *r,
			int (*match)(const struct hlog_event *, const struct hlog_event *),
			const struct hlog_event *key)
{
	char(*k)[HLOG_PATHLEN + 16] = malloc((r->nev ? r->nev : 1) * sizeof(*k));
	size_t n = 0, count = 0;
	if (!k)
		return 1;
	for (size_t i = 0; i < r->nev; i++) {
		const struct hlog_event *e = &r->ev[i];
		if (!match(e, key))
			continue;
		int rk = ev_rank(r, e);
		if (rk >= 0)
			snprintf(k[n++], sizeof(*k), "r%d", rk);
		else if (is_heartbeat(e->kind) && e->ip[0])
			snprintf(k[n++], sizeof(*k), "u%s/%d", e->ip, e->dev);
		else
			snprintf(k[n++], sizeof(*k), "~%s", node_of(e));
	}
	qsort(k, n, sizeof(*k), (int (*)(const void *, const void *))strcmp);
	for (size_t i = 0; i < n; i++) {
		if (i && !strcmp(k[i], k[i - 1]))
			continue;
		if (k[i][0] == '~') {
			int named = 0;
			for (size_t j = 0; j < r->nev && !named; j++)
				named = match(&r->ev[j], key) &&
					!strcmp(node_of(&r->ev[j]), k[i] + 1) &&
					(ev_rank(r, &r->ev[j]) >= 0 || r->ev[j].ip[0]);
			if (named)
				continue;
		}
		count++;
	}
	free(k);
	return count;
}

static int same_culprit(const struct hlog_event *e, const struct hlog_event *k)
{
	return (is_heartbeat(e->kind) || e->kind == HLOG_ERROR_CQE) && e->kind == k->kind &&
	       !strcmp(e->peer_ip, k->peer_ip) && e->peer_dev == k->peer_dev;
}

struct vote {
	int peer;
	const char *group;
	size_t fi, idx;
};

static int vote_cmp(const void *pa, const void *pb)
{
	const struct vote *a = pa, *b = pb;
	int g = strcmp(a->group, b->group);
	if (g)
		return g;
	if (a->peer != b->peer)
		return a->peer < b->peer ? -1 : 1;
	if (a->fi != b->fi)
		return a->fi < b->fi ? -1 : 1;
	return a->idx < b->idx ? -1 : a->idx > b->idx;
}

/* The rank most waits (of kind, or of every kind for 0) are for, within one group, counted
 * once per file; ties go to the one waited for first. *first is the earliest such line. */
static int most_waited(const struct hlog_report *r, int kind, size_t *votes,
		       const struct hlog_event **first)
{
	struct vote *v = malloc((r->nev ? r->nev : 1) * sizeof(*v));
	size_t n = 0;
	int best = -1;
	*votes = 0;
	*first = NULL;
	if (!v)
		return -1;
	for (size_t i = 0; i < r->nev; i++) {
		const struct hlog_event *e = &r->ev[i];
		if ((e->kind != HLOG_SOCKET_TIMEOUT && e->kind != HLOG_NOTIFY_TIMEOUT) ||
		    (kind && e->kind != kind) || e->peer_rank < 0 ||
		    (!e->group[0] && ev_rank(r, e) == e->peer_rank) ||
		    (e->group[0] && e->rank == e->peer_rank))
			continue;
		v[n].peer = e->peer_rank;
		v[n].group = e->group;
		v[n].fi = e->fi;
		v[n++].idx = i;
	}
	qsort(v, n, sizeof(*v), vote_cmp);
	for (size_t i = 0; i < n;) {
		size_t j = i, files = 0, idx = v[i].idx;
		for (; j < n && v[j].peer == v[i].peer && !strcmp(v[j].group, v[i].group); j++) {
			files += j == i || v[j].fi != v[j - 1].fi;
			if (v[j].idx < idx)
				idx = v[j].idx;
		}
		if (files > *votes ||
		    (files == *votes && *first && idx < (size_t)(*first - r->ev))) {
			*votes = files;
			best = v[i].peer;
			*first = &r->ev[idx];
		}
		i = j;
	}
	free(v);
	return best;
}

/* ---- the evidence ---- */

/* The first lines of kind (any for 0) that match (NULL: all), as evidence. */
static void evidence_of(struct hlog_report *r, int kind,
			int (*match)(const struct hlog_report *, const struct hlog_event *))
{
	for (size_t i = 0; i < r->nev && r->nevidence < HLOG_MAX_EVIDENCE; i++)
		if ((!kind || r->ev[i].kind == kind) && (!match || match(r, &r->ev[i])))
			add_evidence(r, &r->ev[i]);
}

/* What the lines around c add about who wrote it: the job rank and the device of the same
 * process (torch_npu prints "(PID:n, Device:d, RankID:r)" on the line before CANN's own), else
 * of the line just before it (a device error spread over several lines). */
static void fill_context(struct hlog_report *r, const struct hlog_event *c)
{
	const struct hlog_event *near = NULL;
	for (size_t i = 0; i < r->nev; i++) {
		const struct hlog_event *e = &r->ev[i];
		if (e->fi != c->fi)
			continue;
		int same = c->pid >= 0 && e->pid == c->pid;
		if (same && r->rank < 0 && !e->group[0] && e->rank >= 0)
			r->rank = e->rank;
		if (same && r->dev < 0 && e->dev >= 0)
			r->dev = e->dev;
		if (e->dev >= 0 && e->line <= c->line && c->line - e->line <= 5 &&
		    (!near || e->line > near->line))
			near = e;
	}
	if (r->dev < 0 && near)
		r->dev = near->dev;
	if (r->rank < 0 && near && !near->group[0] && near->rank >= 0)
		r->rank = near->rank;
	if (r->rank < 0 && c->fi < r->nfile && !c->group[0])
		r->rank = r->file[c->fi].rank;
}

/* ---- each kind of cause ---- */

static void conclude_heartbeat(struct hlog_report *r, const struct hlog_event *c)
{
	struct sbuf b = {r->cause, sizeof(r->cause), 0};
	size_t n = reporters(r, same_culprit, c);
	const struct hlog_file *f = file_of(r, -1, c->peer_ip, c->peer_dev, NULL);
	int rank = f ? f->rank : -1;
	if (rank < 0) {
		/* IP/ID is a server and a device, not a rank: the rank the EI0002 lines wait
		 * for, when they agree on one, is the same process */
		size_t votes;
		const struct hlog_event *w;
		rank = most_waited(r, HLOG_NOTIFY_TIMEOUT, &votes, &w);
		if (rank >= 0 && !f)
			f = file_of(r, rank, NULL, -1, NULL);
	}
	r->rank = rank;
	r->dev = c->peer_dev;
	snprintf(r->ip, sizeof(r->ip), "%s", c->peer_ip);
	snprintf(r->node, sizeof(r->node), "%s", f ? f->node : "");
	who(&b, rank, r->node, c->peer_ip, c->peer_dev);
	const char *what = c->kind == HLOG_HEARTBEAT_LOST    ? "stopped answering: heartbeat lost"
			   : c->kind == HLOG_HEARTBEAT_STUCK ? "hung: heartbeat stuck"
							     : "had a heartbeat exception";
	sb_add(&b, " %s reported by %zu rank%s", what, n, n == 1 ? "" : "s");
	list_conseq(r, &b, " waiting for it", rank);
	set_what(r, HCAT_RANK_STUCK,
		 c->kind == HLOG_HEARTBEAT_STUCK ? "heartbeat-stuck" : "heartbeat-lost");
	if (c->kind == HLOG_HEARTBEAT_STUCK)
		set_fix(r, "that process stopped making progress (a checkpoint being saved, uneven "
			   "data, a hang): dump its Python stack (py-spy dump --pid PID) and read "
			   "its log for the first error; raise HCCL_EXEC_TIMEOUT only if it is slow "
			   "on purpose, and trace the ops with HCCL_ENTRY_LOG_ENABLE=1");
	else
		set_fix(r, "that process exited or lost its network: read its log and the kernel "
			   "log (dmesg: a crash, the OOM killer), check its NPU link with hccn_tool "
			   "-i DEV -link -g and -ping -g address PEER_DEVICE_IP; raise "
			   "HCCL_EXEC_TIMEOUT only if it was slow");
	add_evidence(r, c);
	evidence_of(r, HLOG_NOTIFY_TIMEOUT, NULL);
}

static int is_cqe(const struct hlog_event *e, const struct hlog_event *k)
{
	(void)k;
	return e->kind == HLOG_ERROR_CQE;
}

static void conclude_cqe(struct hlog_report *r, const struct hlog_event *c)
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
	snprintf(r->node, sizeof(r->node), "%s", ipe->node);
	snprintf(r->ip, sizeof(r->ip), "%s", ipe->ip);
	snprintf(r->peer_ip, sizeof(r->peer_ip), "%s", ipe->peer_ip);
	const struct hlog_file *pf = file_of(r, -1, NULL, -1, ipe->peer_ip);
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
	size_t n = reporters(r, is_cqe, c);
	sb_add(&b, " reported by %zu rank%s", n, n == 1 ? "" : "s");
	list_conseq(r, &b, "", -1);
	set_what(r, HCAT_LINK_DOWN, "error-cqe");
	set_fix(r, "the link drops packets: check hccn_tool -i DEV -link_stat -g (flaps), -stat -g "
		   "(PFC pause and retransmission counters), -optical -g (Rx/Tx power), -fec -g; "
		   "compare MTU, PFC and QoS with the switch port; if the peer process exited "
		   "first, read its log; HCCL_RDMA_TIMEOUT and HCCL_RDMA_RETRY_CNT only hide it");
	add_evidence(r, ipe);
	evidence_of(r, HLOG_ERROR_CQE, NULL);
}

/* A short quote of the line from the first of keys, for the cause. */
static void quote(struct sbuf *b, const struct hlog_event *e, const char *const *keys)
{
	const char *t = e->text;
	for (size_t i = 0; keys[i]; i++) {
		const char *p = strstr(e->text, keys[i]);
		if (p) {
			t = p;
			break;
		}
	}
	sb_add(b, ": %.150s", t);
}

static void conclude_mismatch(struct hlog_report *r, const struct hlog_event *c)
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
		int rk[2] = {ev_rank(r, e), e->peer_rank};
		for (int k = 0; k < 2; k++) {
			if (rk[k] < 0 || rk[k] == ranks[0] || rk[k] == ranks[1])
				continue;
			int slot = ranks[0] < 0 ? 0 : ranks[1] < 0 ? 1 : -1;
			if (slot < 0)
				continue;
			ranks[slot] = rk[k];
			const struct hlog_file *f = k ? file_of(r, rk[k], NULL, -1, NULL)
						      : (e->fi < r->nfile ? &r->file[e->fi] : NULL);
			nodes[slot] = f ? f->node : "";
		}
	}
	r->rank = ranks[0];
	r->peer_rank = ranks[1];
	snprintf(r->node, sizeof(r->node), "%s", ranks[0] >= 0 ? nodes[0] : c->node);
	sb_add(&b, "collective mismatch between ");
	if (ranks[0] >= 0) {
		who(&b, ranks[0], nodes[0], "", -1);
		sb_add(&b, " and ");
		if (ranks[1] >= 0)
			who(&b, ranks[1], nodes[1], "", -1);
		else if (r->peer_ip[0])
			sb_add(&b, "its peer %s", r->peer_ip);
		else
			sb_add(&b, "its peer");
	} else if (r->peer_ip[0]) {
		sb_add(&b, "node %s and its peer %s", node_of(c), r->peer_ip);
	} else {
		sb_add(&b, "the ranks on node %s and their peers", node_of(c));
	}
	static const char *const keys[] = {"parameter ", "CMD information", "cmdType", "EI0005",
					   "differ in", "local size", "around rank", NULL};
	quote(&b, detail ? detail : c, keys);
	list_conseq(r, &b, "", -1);
	set_what(r, HCAT_OP_MISMATCH, "arguments-differ");
	set_fix(r, "fix the script so that every rank calls the same collectives in the same order "
		   "with the same count, dtype and op (look for a branch on the rank or on data "
		   "that only some ranks take); check that every node runs the same CANN and "
		   "framework versions");
	add_evidence(r, detail ? detail : c);
	evidence_of(r, HLOG_MISMATCH, NULL);
}

/* The devices of c's block and of the blocks of the same kind in c's file, ascending. */
static void block_devices(struct hlog_report *r, const struct hlog_event *c)
{
	/* the blocks first (few), so the events are gone through once each */
	unsigned heads[64];
	size_t nh = 0;
	heads[nh++] = c->head;
	for (size_t i = 0; i < r->nev && nh < 64; i++) {
		const struct hlog_event *e = &r->ev[i];
		int dup = 0;
		for (size_t k = 0; k < nh && !dup; k++)
			dup = heads[k] == e->head;
		if (e->fi == c->fi && e->kind == c->kind && !dup)
			heads[nh++] = e->head;
	}
	r->ndevs = 0;
	for (size_t i = 0; i < r->nev; i++) {
		const struct hlog_event *e = &r->ev[i];
		if (e->fi != c->fi || e->dev < 0)
			continue;
		int in_block = e->kind == c->kind;
		for (size_t k = 0; k < nh && !in_block; k++)
			in_block = heads[k] == e->head;
		if (!in_block)
			continue;
		int dup = 0;
		for (int k = 0; k < r->ndevs; k++)
			dup |= r->devs[k] == e->dev;
		if (!dup && r->ndevs < 8)
			r->devs[r->ndevs++] = e->dev;
	}
	for (int i = 1; i < r->ndevs; i++)
		for (int j = i; j > 0 && r->devs[j - 1] > r->devs[j]; j--) {
			int t = r->devs[j];
			r->devs[j] = r->devs[j - 1];
			r->devs[j - 1] = t;
		}
	if (r->ndevs)
		r->dev = r->devs[0];
}

static void devices_text(struct sbuf *b, const struct hlog_report *r)
{
	if (!r->ndevs)
		return;
	sb_add(b, r->ndevs > 1 ? "devices " : "device ");
	for (int i = 0; i < r->ndevs; i++)
		sb_add(b, "%s%d", !i ? "" : i + 1 == r->ndevs ? " and " : ", ", r->devs[i]);
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

static int rank_list(const char *text, const char *key, int *out, int max);

static const char tls_fix[] =
	"read every NPU's switch: for i in 0 1 2 3 4 5 6 7; do hccn_tool -i $i -tls -g | grep "
	"switch; done; then set the same on all NPUs of the job (hccn_tool -i N -tls -s enable 0, "
	"or 1 with the same certificates everywhere)";

static void conclude_config(struct hlog_report *r, const struct hlog_event *c)
{
	struct sbuf b = {r->cause, sizeof(r->cause), 0};
	const struct hlog_file *f = c->fi < r->nfile ? &r->file[c->fi] : NULL;
	r->rank = ev_rank(r, c);
	snprintf(r->node, sizeof(r->node), "%s", c->node);
	snprintf(r->ip, sizeof(r->ip), "%s", c->ip);
	snprintf(r->peer_ip, sizeof(r->peer_ip), "%s", c->peer_ip);
	const char *where = c->node[0] ? c->node : (f ? f->name : "?");
	switch (c->kind) {
	case HLOG_PORT_BOUND: {
		const struct hlog_event *pe;
		r->port = clash_port(r, c, &pe);
		fill_context(r, c);
		if (!r->ip[0])
			snprintf(r->ip, sizeof(r->ip), "%s", pe->ip);
		sb_add(&b, "port %lld", r->port);
		if (r->ip[0])
			sb_add(&b, " on %s", r->ip);
		sb_add(&b, " (node %s%s) cannot be listened on: another process holds it", where,
		       pe->peer_dev == 2 ? ", host side" : pe->peer_dev >= 0 ? ", NPU side" : "");
		set_what(r, HCAT_NET, "port-bound");
		set_fix(r, "find the holder (ss -ltnp | grep :PORT): a leftover job, or two jobs or "
			   "processes on the same NPUs; stop it, or give each job its own ports with "
			   "HCCL_IF_BASE_PORT (host side, 16 ports from it) and "
			   "HCCL_NPU_SOCKET_PORT_RANGE (NPU side), and keep the kernel from handing "
			   "them out (sysctl net.ipv4.ip_local_reserved_ports)");
		add_evidence(r, c);
		add_evidence(r, pe);
		break;
	}
	case HLOG_TLS: {
		static const char *const keys[] = {"rankList for enabled", "tlsStatus", "EI0016",
						   NULL};
		int on[16], off[16];
		int non = rank_list(c->text, "enabled tls", on, 16);
		int noff = rank_list(c->text, "disabled tls", off, 16);
		sb_add(&b, "TLS switch differs between NPUs (reported on node %s)", where);
		if (non && noff) {
			sb_add(&b, ": enabled on rank%s ", non > 1 ? "s" : "");
			for (int i = 0; i < non; i++)
				sb_add(&b, "%s%d", i ? "," : "", on[i]);
			sb_add(&b, ", disabled on rank%s ", noff > 1 ? "s" : "");
			for (int i = 0; i < noff; i++)
				sb_add(&b, "%s%d", i ? "," : "", off[i]);
			if (non != noff) {
				r->rank = non < noff ? on[0] : off[0];
				const struct hlog_file *g = file_of(r, r->rank, NULL, -1, NULL);
				snprintf(r->node, sizeof(r->node), "%s", g ? g->node : "");
			}
		} else {
			quote(&b, c, keys);
		}
		set_what(r, HCAT_CONFIG, "tls");
		set_fix(r, tls_fix);
		add_evidence(r, c);
		break;
	}
	case HLOG_NPU_BUSY:
		block_devices(r, c);
		fill_context(r, c);
		sb_add(&b, "NPU busy on node %s", where);
		if (r->ndevs) {
			sb_add(&b, " (");
			devices_text(&b, r);
			sb_add(&b, ")");
		}
		/* the code is named only where a line has it: tsd's own failure says less */
		int ej = 0;
		for (size_t i = 0; i < r->nev && !ej; i++)
			ej = r->ev[i].kind == HLOG_NPU_BUSY && strstr(r->ev[i].text, "EJ0001");
		sb_add(&b,
		       ": HCCP could not start on it%s: the last training process is still "
		       "running, or two processes share one NPU",
		       ej ? " (EJ0001)" : "");
		set_what(r, HCAT_RESOURCE, "npu-busy");
		set_fix(r, "list what holds the NPUs (npu-smi info shows the processes, fuser -v "
			   "/dev/davinci*); stop the leftover process, wait 10 s for the device to be "
			   "released, and start again; give each process its own NPU "
			   "(ASCEND_RT_VISIBLE_DEVICES)");
		add_evidence(r, c);
		evidence_of(r, HLOG_NPU_BUSY, NULL);
		break;
	case HLOG_DEVICE_IP:
		sb_add(&b, "device_ip in the rank table differs from the NPU NIC's IP on node %s",
		       where);
		if (c->ip[0] || c->peer_ip[0])
			sb_add(&b, " (%s vs NIC %s)", c->ip[0] ? c->ip : "?",
			       c->peer_ip[0] ? c->peer_ip : "?");
		set_what(r, HCAT_CONFIG, "device-ip");
		set_fix(r, "compare the rank table's device_ip with hccn_tool -i PHY_ID -ip -g and "
			   "/etc/hccn.conf on that node (and a container's ASCEND_VISIBLE_DEVICES "
			   "remapping); regenerate the table with hcclctl ranktable gen");
		add_evidence(r, c);
		break;
	case HLOG_LINK_DOWN:
	default: {
		/* the verbs library's port event, and the port state of the rdma tool or
		 * ibv_devinfo, are a host RDMA NIC's, not an NPU's */
		int rdma = strstr(c->text, "async event") || strstr(c->text, "physical_state") ||
			   strstr(c->text, "PORT_DOWN");
		int dev = rdma ? -1 : c->dev;
		for (size_t i = 0; i < r->nev && dev < 0 && !rdma; i++)
			if (r->ev[i].kind == HLOG_LINK_DOWN && !strcmp(r->ev[i].node, c->node))
				dev = r->ev[i].dev;
		r->dev = dev;
		if (!r->ip[0] && !rdma)
			device_ip(r, c, dev);
		sb_add(&b, rdma ? "an RDMA NIC port went down on node %s" : "an NPU NIC is down on node %s",
		       where);
		if (dev >= 0 && r->ip[0])
			sb_add(&b, " (device %d, %s)", dev, r->ip);
		else if (dev >= 0)
			sb_add(&b, " (device %d)", dev);
		else if (r->ip[0])
			sb_add(&b, " (%s)", r->ip);
		{
			static const char *const keys[] = {"ra hdc", "network port", "link",
							   "async event", NULL};
			quote(&b, c, keys);
		}
		set_what(r, HCAT_LINK_DOWN, rdma ? "rdma-port-error" : "nic-down");
		set_fix(r, rdma ? "check the port on that node: ibstat or ibv_devinfo (state and "
				  "physical state), its error counters (perfquery, ibqueryerrors), "
				  "the cable and the switch port; a flapping port fails every job "
				  "that uses it"
				: "check the port: hccn_tool -i DEV -link -g (UP/DOWN), -net_health -g, "
				  "-ip -g (a missing IP is set with -ip -s address IP netmask MASK), "
				  "-optical -g for the optics and cable; with HCCL_INTRA_ROCE_ENABLE=0 a "
				  "single-node job needs no RoCE port");
		add_evidence(r, c);
		evidence_of(r, HLOG_LINK_DOWN, NULL);
		break;
	}
	}
	list_conseq(r, &b, "", r->rank);
}

/* An inner error, a package mismatch or a code of the catalog: its meaning and fix. */
static void conclude_catalog(struct hlog_report *r, const struct hlog_event *c)
{
	struct sbuf b = {r->cause, sizeof(r->cause), 0};
	const struct hcode *code = c->code[0] ? hcode_find(c->code, strlen(c->code)) : NULL;
	const struct hinner *in = hinner_match(c->text, strlen(c->text));
	/* a row of the catalog of the other stacks (NCCL, torch, MPI, ...) */
	const struct hlog_sig *sig = !in && c->kind == HLOG_INNER ? hlog__sig_find(c->detail) : NULL;
	r->rank = ev_rank(r, c);
	r->peer_rank = c->kind == HLOG_INNER ? c->peer_rank : -1;
	snprintf(r->peer_ip, sizeof(r->peer_ip), "%s", sig ? c->peer_ip : "");
	snprintf(r->node, sizeof(r->node), "%s", c->node);
	snprintf(r->ip, sizeof(r->ip), "%s", c->ip);
	block_devices(r, c);
	if (r->dev < 0)
		r->dev = c->dev;
	fill_context(r, c);
	if (r->dev >= 0 && !r->ndevs)
		r->devs[r->ndevs++] = r->dev;
	const char *meaning = in && c->kind != HLOG_CODE ? in->meaning
			      : sig			    ? sig->meaning
			      : code			    ? code->meaning
							    : "";
	const char *fix = in && c->kind != HLOG_CODE ? in->fix : sig ? sig->fix : code ? code->fix : "";
	sb_add(&b, "%s on node %s",
	       c->code[0] ? c->code : in ? in->detail : sig ? sig->detail : "an error", node_of(c));
	if (r->rank >= 0)
		sb_add(&b, ", rank %d", r->rank);
	if (r->peer_rank >= 0)
		sb_add(&b, " and rank %d", r->peer_rank);
	if (r->ndevs) {
		sb_add(&b, ", ");
		devices_text(&b, r);
	}
	if (sig && c->peer_ip[0])
		sb_add(&b, ", peer %s", c->peer_ip);
	size_t ml = strlen(meaning);
	if (ml && meaning[ml - 1] == '.')
		ml--; /* the quote follows */
	if (ml)
		sb_add(&b, ": %.*s", (int)ml, meaning);
	static const char *const keys[] = {"Reason", "reason", NULL};
	quote(&b, c, keys);
	set_what(r, c->cat,
		 in && c->kind != HLOG_CODE ? in->detail
		 : sig			    ? sig->detail
					    : hlog_kind_name(c->kind));
	set_fix(r, fix[0] ? fix : "read the lines around it in the same log for the first error");
	add_evidence(r, c);
	for (size_t i = 0; i < r->nev; i++)
		if (r->ev[i].fi == c->fi && r->ev[i].head == c->head)
			add_evidence(r, &r->ev[i]);
	list_conseq(r, &b, "", r->rank);
}

static const struct hlog_event *tls_split(const struct hlog_report *r, int *ntls)
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

static void conclude_tls_split(struct hlog_report *r, const struct hlog_event *c, int rows)
{
	struct sbuf b = {r->cause, sizeof(r->cause), 0};
	r->rank = ev_rank(r, c);
	snprintf(r->node, sizeof(r->node), "%s", c->node);
	snprintf(r->ip, sizeof(r->ip), "%s", c->ip);
	sb_add(&b, "TLS switch differs between NPUs: ");
	who(&b, r->rank, c->node, c->ip, -1);
	if (rows)
		sb_add(&b, " has TlsStatus %s, its peers %s", c->value ? "ENABLE" : "DISABLE",
		       c->value ? "DISABLE" : "ENABLE");
	else
		sb_add(&b, " logs TLS SWITCH (%lld), the others (%d)", c->value, !c->value);
	list_conseq(r, &b, "", -1);
	set_what(r, HCAT_CONFIG, "tls");
	set_fix(r, tls_fix);
	add_evidence(r, c);
}

static int rank_list(const char *text, const char *key, int *out, int max)
{
	const char *p = strstr(text, key);
	int n = 0;
	if (!p)
		return 0;
	p = strchr(p, '[');
	if (!p)
		return 0;
	for (p++; *p && *p != ']' && n < max;) {
		if (*p >= '0' && *p <= '9') {
			char *end;
			long v = strtol(p, &end, 10);
			if (v >= 0 && v < 1 << 30)
				out[n++] = (int)v;
			p = end;
		} else {
			p++;
		}
	}
	return n;
}

/* torch's store bootstrap: the ranks that timed out waiting for the root's communicator id
 * are victims; the root did not get to its first collective in time or exited. */
static int conclude_store(struct hlog_report *r, const struct hlog_event *e)
{
	struct sbuf b = {r->cause, sizeof(r->cause), 0};
	int waiting = 0;
	for (size_t i = 0; i < r->nev; i++)
		waiting += r->ev[i].kind == HLOG_ROOT_TIMEOUT && r->ev[i].sub == HLOG_SUB_STORE &&
			   r->ev[i].peer_rank == e->peer_rank;
	const struct hlog_file *f = file_of(r, e->peer_rank, NULL, -1, NULL);
	r->first = e;
	r->kind = HLOG_ROOT_TIMEOUT;
	r->rank = e->peer_rank;
	r->peer_rank = e->rank; /* the one that waited */
	/* without the root's own log, the node whose lines name it, as every verdict read off a
	 * line names that line's node */
	snprintf(r->node, sizeof(r->node), "%s", f ? f->node : e->node);
	sb_add(&b, "rank %d did not publish the communicator id in time: ", e->peer_rank);
	if (e->rank >= 0)
		sb_add(&b, "rank %d (node %s)", e->rank, node_of(e));
	else
		sb_add(&b, "a rank on node %s", node_of(e));
	if (waiting > 1)
		sb_add(&b, " and %d more", waiting - 1);
	sb_add(&b,
	       " timed out waiting for it in the store while setting up the communicator; "
	       "rank %d was still busy before its first collective or had exited",
	       e->peer_rank);
	set_what(r, HCAT_RANK_STUCK, "root-late");
	set_fix(r, "read that rank's log: an error there is the cause; if it was busy (tokenising "
		   "a dataset, loading a model, an evaluation) do that work before the process "
		   "group is used or raise the group's timeout (init_process_group timeout=, "
		   "ddp_timeout)");
	for (size_t i = 0; i < r->nev; i++)
		if (r->ev[i].kind == HLOG_ROOT_TIMEOUT && r->ev[i].sub == HLOG_SUB_STORE)
			add_evidence(r, &r->ev[i]);
	return 1;
}

static int conclude_root(struct hlog_report *r)
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
	char seen[4096];
	int maxr = -1, connected = 0, need = 0;
	memset(seen, 0, sizeof(seen));
	for (size_t i = 0; i < r->nev; i++) {
		const struct hlog_event *e = &r->ev[i];
		if (e->kind != HLOG_ROOT_TIMEOUT || e->sub != HLOG_SUB_CONNECTED)
			continue;
		if (e->group_size > need && e->group_size <= (int)sizeof(seen))
			need = e->group_size;
		const char *p = strstr(e->text, "]:");
		for (p = p ? p + 2 : NULL; p && *p;) {
			if (*p >= '0' && *p <= '9') {
				char *end;
				long v = strtol(p, &end, 10);
				if (v >= 0 && v < (long)sizeof(seen) && !seen[v]) {
					seen[v] = 1;
					connected++;
					maxr = v > maxr ? (int)v : maxr;
				}
				p = end;
			} else {
				p++;
			}
		}
		if (!srv)
			srv = e;
	}
	if (!lst && !srv && !agent)
		return store ? conclude_store(r, store) : 0;
	/* the missing ranks: the gaps below the highest that connected, and, when the root
	 * printed how many it needed, those above it too */
	int top = need > maxr + 1 ? need : maxr + 1;
	if (!lst && maxr >= 0 && connected < top) {
		int miss[16], nm = 0;
		for (int v = 0; v < top && nm < 16; v++)
			if (!seen[v])
				miss[nm++] = v;
		r->first = srv;
		r->rank = miss[0];
		snprintf(r->node, sizeof(r->node), "%s", srv->node);
		sb_add(&b, "rank%s ", nm > 1 ? "s" : "");
		for (int i = 0; i < nm; i++)
			sb_add(&b, "%s%d", i ? "," : "", miss[i]);
		sb_add(&b, " never connected to the root (node %s; %d rank%s did): they did not call "
			   "init, started late or chose an unroutable NIC",
		       node_of(srv), connected, connected == 1 ? "" : "s");
		set_what(r, HCAT_RANK_STUCK, "never-connected");
		r->kind = HLOG_ROOT_TIMEOUT;
		set_fix(r, "read the missing rank's log and check when it called init; raise "
			   "HCCL_CONNECT_TIMEOUT if the ranks start far apart, point "
			   "HCCL_SOCKET_IFNAME / HCCL_IF_IP at a NIC every node can route to, open the "
			   "host firewall for HCCL_IF_BASE_PORT");
		for (size_t i = 0; i < r->nev; i++)
			if (r->ev[i].kind == HLOG_ROOT_TIMEOUT)
				add_evidence(r, &r->ev[i]);
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
		n = rank_list(lst->text,
			      strstr(lst->text, "unconnected ranks") ? "unconnected ranks"
								     : "agent",
			      ranks, 16);
	if (n) {
		r->first = lst;
		r->rank = ranks[0];
		const struct hlog_file *f = file_of(r, ranks[0], NULL, -1, NULL);
		snprintf(r->node, sizeof(r->node), "%s", f ? f->node : "");
		sb_add(&b, "rank%s ", n > 1 ? "s" : "");
		for (int i = 0; i < n; i++)
			sb_add(&b, "%s%d", i ? "," : "", ranks[i]);
		sb_add(&b,
		       " never connected to the root (node %s): they did not call init, started "
		       "late or chose an unroutable NIC",
		       node_of(lst));
		set_what(r, HCAT_RANK_STUCK, "never-connected");
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
		set_what(r, HCAT_NET, "root-unreachable");
	} else {
		const struct hlog_event *e = srv ? srv : lst;
		r->first = e;
		snprintf(r->node, sizeof(r->node), "%s", e->node);
		sb_add(&b, "the root (node %s) did not see every rank within HCCL_CONNECT_TIMEOUT",
		       node_of(e));
		set_what(r, HCAT_RANK_STUCK, "never-connected");
	}
	set_fix(r, fix);
	add_evidence(r, r->first);
	return 1;
}

/* The peers one reporter's waits are for (distinct, within one group), up to max. */
static int peers_of(const struct hlog_report *r, size_t fi, int rank, int *peers, int max,
		    const struct hlog_event **ev)
{
	int n = 0;
	for (size_t i = 0; i < r->nev; i++) {
		const struct hlog_event *e = &r->ev[i];
		if (e->kind != HLOG_SOCKET_TIMEOUT || e->peer_rank < 0 || e->fi != fi ||
		    (rank >= 0 && ev_rank(r, e) != rank))
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
	int me = ev_rank(r, w);
	int n = peers_of(r, w->fi, me, peers, 16, pev);
	if (n < 2)
		return 0;
	/* every waiter is this one rank (or its file): nobody else points at these peers */
	for (size_t i = 0; i < r->nev; i++) {
		const struct hlog_event *e = &r->ev[i];
		if (e->kind == HLOG_SOCKET_TIMEOUT && e->peer_rank >= 0 && e->fi != w->fi &&
		    ev_rank(r, e) != me)
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
		if (file_of(r, peers[k], NULL, -1, NULL))
			local++;
		else
			remote++;
		samehost += w->ip[0] && !strcmp(pev[k]->peer_ip, w->ip);
	}
	sb_add(&b, "many links from ");
	who(&b, me, node_of(w), w->ip, -1);
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
		set_what(r, HCAT_UNRESOLVED, "local-links");
		set_fix(r,
			"read this rank's log for its first error, and those of the peers above; "
			"check that every process on this server creates the same communicators "
			"in the same order and that two jobs do not share its NPUs (npu-smi info)");
	} else {
		set_what(r, HCAT_NET, "many-links");
		set_fix(r,
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
	       node_of(det));
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
		r->rank = ev_rank(r, det);
	}
	if (w && w->op[0])
		sb_add(&b, " in %s", w->op);
	set_what(r, HCAT_OP_MISMATCH, "no-network-fault");
	set_fix(r, "compare what each rank ran before the timeout: the same collectives in the "
		   "same order on the same groups, the same data sizes (uneven batches make one "
		   "rank skip a step), one script version everywhere; read the peer's log for what "
		   "it was doing at that time");
	add_evidence(r, det);
	add_evidence(r, w);
}

/* The waits that name no peer: what they say, and what the rest of the log adds. */
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
	if (w && hlog__watchdog_conclude(r, w->kind != HLOG_WATCHDOG))
		return;
	if (w && w->kind == HLOG_NOTIFY_TIMEOUT && hlog__task_conclude(r))
		return;
	struct sbuf b = {r->cause, sizeof(r->cause), 0};
	if (det && (!w || w->kind == HLOG_SOCKET_TIMEOUT)) {
		conclude_detect(r, det, w);
		return;
	}
	r->kind = w->kind;
	r->first = w;
	r->rank = ev_rank(r, w);
	r->dev = w->dev;
	if (w->kind != HLOG_FFTS_TIMEOUT)
		fill_context(r, w);
	snprintf(r->node, sizeof(r->node), "%s", w->node);
	snprintf(r->group, sizeof(r->group), "%s", w->group);
	add_evidence(r, w);
	if (w->kind == HLOG_FFTS_TIMEOUT) {
		sb_add(&b, "a collective on node %s", node_of(w));
		if (r->rank >= 0)
			sb_add(&b, ", rank %d", r->rank);
		if (w->dev >= 0)
			sb_add(&b, ", device %d", w->dev);
		sb_add(&b, " waited on the device until HCCL's execution timeout for a peer that "
			   "never joined");
		if (w->value >= 0)
			sb_add(&b, " (%lld stuck notify wait%s)", w->value, w->value == 1 ? "" : "s");
		if (w->op[0])
			sb_add(&b, ", in %s", w->op);
		sb_add(&b, ": the cause is on the rank it waited for, which stopped, hung or is "
			   "idle elsewhere");
		set_what(r, HCAT_RANK_STUCK, "timeout-elsewhere");
		set_fix(r, "find the rank that did not join: the first error in the other ranks' "
			   "logs, or the rank whose last op differs (HCCL_ENTRY_LOG_ENABLE=1); a "
			   "serving job whose ranks sit idle in a broadcast needs a heartbeat or a "
			   "larger HCCL_EXEC_TIMEOUT, a training job uneven data or a stuck rank "
			   "fixed");
		evidence_of(r, HLOG_FFTS_TIMEOUT, NULL);
		return;
	}
	if (w->kind == HLOG_SOCKET_TIMEOUT && w->op[0]) {
		/* inside a collective: its links are set up at its first call, so a peer that
		 * never answers never entered the same collective */
		sb_add(&b, "rank %d on node %s timed out in %s waiting for its peers to join the "
			   "same collective: the ranks did not call the same collectives in the "
			   "same order (or a peer is stuck before it)",
		       r->rank, node_of(w), w->op);
		if (r->rank < 0) {
			b.n = 0;
			sb_add(&b, "a rank on node %s timed out in %s waiting for its peers to join "
				   "the same collective: the ranks did not call the same "
				   "collectives in the same order (or a peer is stuck before it)",
			       node_of(w), w->op);
		}
		set_what(r, HCAT_OP_MISMATCH, "peer-never-joined");
		set_fix(r, "make every rank issue the same collectives on the same groups in the "
			   "same order (a rank-dependent branch, a library that issues its own "
			   "collectives on some ranks only); compare the ranks' last ops with "
			   "HCCL_ENTRY_LOG_ENABLE=1");
		return;
	}
	if ((w->kind == HLOG_SOCKET_TIMEOUT && w->sub == HLOG_SUB_STUCK) ||
	    w->kind == HLOG_NOTIFY_TIMEOUT || w->cat == HCAT_RANK_STUCK) {
		sb_add(&b, "%s on node %s", w->code[0] ? w->code : hlog_kind_name(w->kind),
		       node_of(w));
		if (r->rank >= 0)
			sb_add(&b, ", rank %d", r->rank);
		if (w->dev >= 0)
			sb_add(&b, ", device %d", w->dev);
		const struct hcode *hc =
			(w->kind == HLOG_CODE || w->kind == HLOG_INNER) && w->code[0]
				? hcode_find(w->code, strlen(w->code)) : NULL;
		/* an inner error's own sub-message ("event wait timeout occurred") says more
		 * than a wrapper code that is not about waiting (EE9999, "an internal failure") */
		const struct hinner *in =
			w->kind == HLOG_INNER && (!hc || hc->cat != HCAT_RANK_STUCK)
				? hinner_match(w->text, strlen(w->text))
				: NULL;
		const char *meaning = in && in->cat == HCAT_RANK_STUCK ? in->meaning
				      : hc			       ? hc->meaning
								       : "";
		if (meaning[0]) /* what the line says, not more: it names no sender */
			sb_add(&b,
			       ": %c%.*s; the cause is on what it waited for (which the log does "
			       "not name)",
			       tolower((unsigned char)meaning[0]), (int)strcspn(meaning + 1, ".;"),
			       meaning + 1);
		else
			sb_add(&b, ": a remote rank did not send in time; the cause is on the rank it "
				   "waited for (which the log does not name)");
		set_what(r, HCAT_RANK_STUCK, "timeout-elsewhere");
		set_fix(r, "read the other ranks' logs for the first error or the rank that stopped "
			   "(crash, hang, checkpoint saving, uneven data); raise HCCL_EXEC_TIMEOUT "
			   "only if it is slow on purpose");
		return;
	}
	sb_add(&b, "%s on node %s names no peer, and nothing else in the logs says why",
	       w->kind == HLOG_SOCKET_TIMEOUT	? "an EI0006 socket timeout"
	       : w->kind == HLOG_NOTIFY_TIMEOUT ? "an EI0002 notify timeout"
						: hlog_kind_name(w->kind),
	       node_of(w));
	set_what(r, HCAT_UNRESOLVED, "no-peer");
	set_fix(r, "collect the logs of every rank of the job (all nodes' plogs under "
		   "~/ascend/log) and run this again on them; check hccn_tool -i DEV -ping -g "
		   "between the device IPs, -link -g and -tls -g; compare when each rank started");
	/* what failed around it */
	for (size_t i = 0; i < r->nev; i++)
		if (r->ev[i].kind == HLOG_API && r->ev[i].op[0])
			add_evidence(r, &r->ev[i]);
}

static void conclude_chain(struct hlog_report *r)
{
	size_t votes;
	const struct hlog_event *w;
	/* waits placed on workers and devices, followed to where they end */
	if (hlog__chain_conclude(r))
		return;
	r->nchain = 0;
	r->loop = -1;
	int p = most_waited(r, 0, &votes, &w);
	for (size_t i = 0; i < r->nev && p >= 0; i++)
		if (r->ev[i].kind == HLOG_DETECT_NONE && w->kind == HLOG_SOCKET_TIMEOUT) {
			conclude_detect(r, &r->ev[i], w);
			return;
		}
	if (p < 0) {
		if (conclude_root(r))
			return;
		conclude_nopeer(r);
		return;
	}
	if (votes == 1 && w->kind == HLOG_SOCKET_TIMEOUT && conclude_many_links(r, w))
		return;
	/* EI0009 toward a peer on the same host: the path is not at fault */
	if (w->sub == HLOG_SUB_TRANSPORT && w->ip[0] && !strcmp(w->ip, w->peer_ip)) {
		struct sbuf b = {r->cause, sizeof(r->cause), 0};
		r->kind = w->kind;
		r->first = w;
		r->rank = p;
		r->peer_rank = ev_rank(r, w);
		snprintf(r->node, sizeof(r->node), "%s", w->node);
		snprintf(r->ip, sizeof(r->ip), "%s", w->peer_ip);
		sb_add(&b, "rank %d could not set up its link to rank %d on the same host (%s)", r->peer_rank,
		       p, w->ip);
		sb_add(&b, ": the network between them is not at fault; rank %d did not set up the "
			   "same link (another communicator or order of calls) or its NPU failed",
		       p);
		set_what(r, HCAT_RANK_STUCK, "peer-side");
		snprintf(r->fix, sizeof(r->fix),
			 "read rank %d's log for its first error; check that both processes create "
			 "the same communicators in the same order (a trainer and an inference engine "
			 "sharing NPUs, groups created on some ranks only)",
			 p);
		add_evidence(r, w);
		return;
	}
	/* follow the chain: the rank waited for may itself wait for another */
	int seen[8] = {p}, nseen = 1, cycle = -1;
	const char *grp = w->group;
	for (;;) {
		const struct hlog_event *next = NULL;
		for (size_t i = 0; i < r->nev && !next && !grp[0]; i++) {
			const struct hlog_event *e = &r->ev[i];
			if (hlog__class(e) == HLOG_CLS_CONSEQ && e->kind != HLOG_ROOT_TIMEOUT &&
			    ev_rank(r, e) == p && e->peer_rank >= 0 && e->peer_rank != p)
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
			p = seen[0];
			break;
		}
		p = next->peer_rank;
		seen[nseen++] = p;
		w = next;
	}
	r->kind = w->kind;
	r->first = w;
	r->rank = p;
	snprintf(r->group, sizeof(r->group), "%s", w->group);
	const struct hlog_file *f = grp[0] ? NULL : file_of(r, p, NULL, -1, NULL);
	const char *ip = f && f->ip[0] ? f->ip : "";
	for (size_t i = 0; i < r->nev && !ip[0]; i++)
		if (r->ev[i].sub == HLOG_SUB_LINK_ROW && r->ev[i].peer_rank == p)
			ip = r->ev[i].peer_ip;
	/* a process whose log states its device IP and not its rank is still here */
	if (!f && !grp[0] && ip[0])
		f = file_of(r, -1, NULL, -1, ip);
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
	struct sbuf b = {r->cause, sizeof(r->cause), 0};
	int sock = w->kind == HLOG_SOCKET_TIMEOUT;
	if (grp[0]) {
		sb_add(&b, "rank %d of group %s", p, grp);
		if (w->group_size > 0)
			sb_add(&b, " (%d ranks)", w->group_size);
		sb_add(&b, " is the rank the others wait for");
		int me = -1;
		for (size_t i = 0; i < r->nev && me < 0; i++)
			if (r->ev[i].fi == w->fi && r->ev[i].pid == w->pid && !r->ev[i].group[0])
				me = r->ev[i].rank;
		sb_add(&b, ": ");
		if (w->rank >= 0)
			sb_add(&b, "its rank %d", w->rank);
		else
			sb_add(&b, "a rank");
		if (me >= 0)
			sb_add(&b, " (job rank %d", me);
		if (w->dev >= 0)
			sb_add(&b, "%sdevice %d", me >= 0 ? ", " : " (", w->dev);
		if (me >= 0 || w->dev >= 0)
			sb_add(&b, ")");
		sb_add(&b, " on node %s timed out waiting for it", node_of(w));
		if (w->op[0])
			sb_add(&b, " in %s", w->op);
		r->peer_rank = w->rank;
		r->dev = w->dev;
		r->rank = p;
	} else {
		who(&b, p, r->node, r->ip, r->dev);
		sb_add(&b, " is the rank the others wait for");
	}
	int64_t t0 = -1;
	for (size_t i = 0; i < r->nev && t0 < 0; i++)
		if (hlog__class(&r->ev[i]) == HLOG_CLS_CONSEQ && ev_rank(r, &r->ev[i]) != p)
			t0 = r->ev[i].t_us;
	char t1[16], t2[16];
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
		int64_t start = f->first_us;
		for (size_t i = 0; i < r->nev; i++)
			if (r->ev[i].kind == HLOG_ENTRY && ev_rank(r, &r->ev[i]) == p &&
			    r->ev[i].t_us >= 0) {
				start = r->ev[i].t_us;
				break;
			}
		int has_err = 0;
		for (size_t i = 0; i < r->nev; i++)
			has_err |= ev_rank(r, &r->ev[i]) == p &&
				   hlog__class(&r->ev[i]) != HLOG_CLS_INFO;
		if (t0 >= 0 && start > t0)
			sb_add(&b, ": it started late, at %s, after the first timeout at %s",
			       hms(start, t1, sizeof(t1)), hms(t0, t2, sizeof(t2)));
		else if (t0 >= 0 && f->last_us >= 0 && f->last_us < t0)
			sb_add(&b,
			       ": its log ends at %s, before the first timeout at %s (the "
			       "process exited or hung)",
			       hms(f->last_us, t1, sizeof(t1)), hms(t0, t2, sizeof(t2)));
		else if (!has_err)
			sb_add(&b, ": its log shows no error: it did not call the same collective");
	}
	if (!grp[0])
		list_conseq(r, &b, " waiting for it", p);
	set_what(r, cycle >= 0 ? HCAT_OP_MISMATCH : HCAT_RANK_STUCK,
		 cycle >= 0 ? "wait-cycle" : sock && !f ? "never-connected" : "timeout-elsewhere");
	if (sock)
		set_fix(r, "read that rank's log and when it started (grep -r "
			   "Entry-HcclCommInitRootInfoInner), check that every rank calls the same "
			   "collectives in the same order, and test its NPU link: hccn_tool -i DEV "
			   "-ping -g address ITS_DEVICE_IP, -link -g, -tls -g; raise "
			   "HCCL_CONNECT_TIMEOUT only if the ranks start far apart on purpose");
	else
		set_fix(r, "find why that rank stopped (a crash, a hang, a checkpoint being saved, "
			   "uneven data) in its log; raise HCCL_EXEC_TIMEOUT only if it is slow on "
			   "purpose; trace the ops with HCCL_ENTRY_LOG_ENABLE=1");
	add_evidence(r, w);
	for (size_t i = 0; i < r->nev; i++)
		if (r->ev[i].fi == w->fi && r->ev[i].pid == w->pid && r->ev[i].kind == HLOG_CODE &&
		    r->ev[i].rank >= 0)
			add_evidence(r, &r->ev[i]);
}

static int by_pid(const void *pa, const void *pb, void *arg)
{
	const struct hlog_report *r = arg;
	const struct hlog_file *a = &r->file[*(const size_t *)pa];
	const struct hlog_file *b = &r->file[*(const size_t *)pb];
	int c = strcmp(a->node, b->node);
	if (c)
		return c;
	return a->pid < b->pid ? -1 : a->pid > b->pid;
}

/* A job log line "EI0002: [PID: 3001] ..." and the plog of HCCL(3001,...) on the same node are
 * one process: files without a rank take it from a file of the same node and pid. */
static void share_ranks(struct hlog_report *r)
{
	/* what a process says of itself (SetupAgent, hcom init: its rank and device IP) is its
	 * file's, and so is the rank its folder names (ModelArts' rank_N) */
	for (size_t i = 0; i < r->nev; i++) {
		const struct hlog_event *e = &r->ev[i];
		struct hlog_file *f = e->fi < r->nfile ? &r->file[e->fi] : NULL;
		if (!f || e->kind != HLOG_PLACE || e->sub || (e->pid >= 0 && e->pid != f->pid))
			continue;
		if (f->rank < 0 && e->rank >= 0 && !e->group[0])
			f->rank = e->rank;
		if (!f->ip[0] && e->ip[0])
			snprintf(f->ip, sizeof(f->ip), "%s", e->ip);
	}
	for (size_t i = 0; i < r->nfile; i++) {
		struct hlog_place pl;
		hlog__bundle_place(r->file[i].name, &pl);
		if (r->file[i].rank < 0 && pl.rank >= 0)
			r->file[i].rank = pl.rank;
	}
	size_t *ix = malloc((r->nfile ? r->nfile : 1) * sizeof(*ix));
	if (!ix)
		return;
	for (size_t i = 0; i < r->nfile; i++)
		ix[i] = i;
	qsort_r(ix, r->nfile, sizeof(*ix), by_pid, r);
	for (size_t i = 0; i < r->nfile;) {
		size_t j = i;
		int rank = -1;
		for (; j < r->nfile && !by_pid(&ix[i], &ix[j], r); j++)
			if (rank < 0)
				rank = r->file[ix[j]].rank;
		for (size_t k = i; k < j && r->file[ix[i]].pid >= 0; k++)
			if (r->file[ix[k]].rank < 0)
				r->file[ix[k]].rank = rank;
		i = j;
	}
	free(ix);
}

/* A job folder whose environment check names one worker (ModelArts: JOB/ascend/
 * environment_check/worker-N/ beside JOB/ascend/process_log/): its files, and the job's
 * screen output beside it (JOB-proc-rank-N-device-D.txt), are that worker's. */
static void name_jobs(struct hlog_report *r)
{
	char job[HLOG_NODELEN] = "", worker[HLOG_NODELEN] = "";
	for (size_t i = 0; i < r->nfile; i++) {
		struct hlog_place p;
		hlog__bundle_place(r->file[i].name, &p);
		const char *slash = strchr(r->file[i].name, '/');
		if (p.kind != HLOG_FK_ENV || !p.worker[0] || !slash ||
		    (size_t)(slash - r->file[i].name) >= sizeof(job))
			continue;
		if (worker[0] && strcmp(worker, p.worker))
			return; /* two workers: the folder is not one node */
		snprintf(worker, sizeof(worker), "%s", p.worker);
		snprintf(job, sizeof(job), "%.*s", (int)(slash - r->file[i].name), r->file[i].name);
	}
	if (!job[0] || !strcmp(job, worker))
		return;
	size_t jn = strlen(job);
	for (size_t i = 0; i < r->nfile; i++) {
		struct hlog_file *f = &r->file[i];
		if (!strcmp(f->node, job) ||
		    (!f->node[0] && !strncmp(f->name, job, jn) && f->name[jn] == '-'))
			snprintf(f->node, sizeof(f->node), "%s", worker);
	}
	for (size_t i = 0; i < r->nev; i++)
		if (r->ev[i].fi < r->nfile)
			snprintf(r->ev[i].node, sizeof(r->ev[i].node), "%s", r->file[r->ev[i].fi].node);
	for (size_t i = 0; i < r->nunk && i < HLOG_MAX_UNK; i++)
		if (!strcmp(r->unk[i].node, job) ||
		    (!r->unk[i].node[0] && !strncmp(r->unk[i].file, job, jn)))
			snprintf(r->unk[i].node, sizeof(r->unk[i].node), "%s", worker);
}

/* Files that came without a node folder: named by the server the lines say they are on, else
 * by the device IP they write from, else "node0" (a single file or a paste is one node). */
static void name_nodes(struct hlog_report *r)
{
	name_jobs(r);
	for (size_t i = 0; i < r->nfile; i++) {
		struct hlog_file *f = &r->file[i];
		if (f->node[0])
			continue;
		snprintf(f->node, sizeof(f->node), "%s",
			 f->host[0] ? f->host : f->ip[0] ? f->ip : "node0");
	}
	for (size_t i = 0; i < r->nev; i++)
		if (!r->ev[i].node[0] && r->ev[i].fi < r->nfile)
			snprintf(r->ev[i].node, sizeof(r->ev[i].node), "%s", r->file[r->ev[i].fi].node);
	for (size_t i = 0; i < r->nunk && i < HLOG_MAX_UNK; i++)
		if (!r->unk[i].node[0])
			snprintf(r->unk[i].node, sizeof(r->unk[i].node), "node0");
}

/* How strongly an event explains the others: a cause on the device or the NIC explains the
 * port and the timeouts after it, a port clash or a mismatch the timeouts, a heartbeat the
 * notify waits. 0: not a cause. */
static int weight(const struct hlog_event *e)
{
	switch (hlog__class(e)) {
	case HLOG_CLS_FAULT:
		return is_heartbeat(e->kind)	  ? 3
		       : e->kind == HLOG_MISMATCH ? 4
		       : e->cat == HCAT_OP_MISMATCH ? 4
						  : 5;
	case HLOG_CLS_CONFIG:
		return e->kind == HLOG_PORT_BOUND || e->cat == HCAT_NET ? 4 : 5;
	default:
		return 0;
	}
}

/* The other findings: one per kind of line and node, ranked by weight, then time. */
static void add_findings(struct hlog_report *r)
{
	int decided = r->kind != HLOG_NONE && r->cat != HCAT_UNRESOLVED;
	for (size_t i = 0; i < r->nev && r->nfindings < HLOG_MAX_FINDINGS; i++) {
		const struct hlog_event *e = &r->ev[i];
		/* a bare "call trace: hcclRet -> 9" is the error above it returning; the waits
		 * a decided cause explains are named in it as its consequences */
		if (e->kind == HLOG_ENTRY || e->kind == HLOG_TLS_SWITCH || e->kind == HLOG_PLACE ||
		    (e->kind == HLOG_API && !e->op[0] && !e->code[0]) ||
		    (decided && hlog__class(e) == HLOG_CLS_CONSEQ))
			continue;
		if (r->first && e->kind == r->first->kind && !strcmp(e->node, r->first->node))
			continue;
		int dup = 0;
		for (size_t k = 0; k < r->nfindings && !dup; k++) {
			struct hlog_finding *g = &r->findings[k];
			if (!strcmp(g->node, e->node) && g->cat == e->cat &&
			    strstr(g->message, hlog_kind_name(e->kind))) {
				g->count++;
				dup = 1;
			}
		}
		if (dup)
			continue;
		struct hlog_finding *g = &r->findings[r->nfindings++];
		memset(g, 0, sizeof(*g));
		g->cat = e->cat;
		g->count = 1;
		snprintf(g->node, sizeof(g->node), "%s", e->node);
		struct sbuf b = {g->message, sizeof(g->message), 0};
		sb_add(&b, "%s", hlog_kind_name(e->kind));
		if (e->code[0])
			sb_add(&b, " %s", e->code);
		if (e->op[0])
			sb_add(&b, " in %s", e->op);
		if (e->result >= 0 && e->kind == HLOG_API) {
			const char *rn = hresult_name(e->result);
			sb_add(&b, ", result %lld%s%s%s", e->result, rn ? " (" : "", rn ? rn : "",
			       rn ? ")" : "");
		}
		if (e->detail[0])
			sb_add(&b, " (%s)", e->detail);
		snprintf(g->at.file, sizeof(g->at.file), "%s", e->file);
		g->at.line = e->line;
		snprintf(g->at.text, sizeof(g->at.text), "%s", e->text);
	}
	/* ranked: faults and configuration causes first */
	for (size_t i = 1; i < r->nfindings; i++)
		for (size_t j = i; j > 0; j--) {
			struct hlog_finding *a = &r->findings[j - 1], *b = &r->findings[j];
			int wa = a->cat == HCAT_UNRESOLVED || a->cat == HCAT_NONE;
			int wb = b->cat == HCAT_UNRESOLVED || b->cat == HCAT_NONE;
			if (wa <= wb)
				break;
			struct hlog_finding t = *a;
			*a = *b;
			*b = t;
		}
	if (r->nunk && r->nfindings < HLOG_MAX_FINDINGS && r->kind != HLOG_NONE) {
		struct hlog_finding *g = &r->findings[r->nfindings++];
		memset(g, 0, sizeof(*g));
		g->cat = HCAT_UNRESOLVED;
		g->count = r->nunk;
		snprintf(g->node, sizeof(g->node), "%s", r->unk[0].node);
		snprintf(g->message, sizeof(g->message), "%zu error line%s no rule explains",
			 r->nunk, r->nunk == 1 ? "" : "s");
		snprintf(g->at.file, sizeof(g->at.file), "%s", r->unk[0].file);
		g->at.line = r->unk[0].line;
		snprintf(g->at.text, sizeof(g->at.text), "%s", r->unk[0].text);
	}
}

/* Nothing decided: the calls that failed, else the first unexplained error line. */
static void conclude_unresolved(struct hlog_report *r)
{
	struct sbuf b = {r->cause, sizeof(r->cause), 0};
	const struct hlog_event *api = NULL, *any = NULL;
	for (size_t i = 0; i < r->nev; i++) {
		const struct hlog_event *e = &r->ev[i];
		if (e->kind == HLOG_ENTRY || e->kind == HLOG_TLS_SWITCH || e->kind == HLOG_PLACE)
			continue;
		if (!any)
			any = e;
		if (!api && e->kind == HLOG_API && (e->op[0] || e->result >= 0))
			api = e;
	}
	/* the same call may be reported again with its rank ("HcclCommInitRootInfo fail,
	 * error:2, rank:1, rankSize:4") */
	for (size_t i = 0; api && i < r->nev; i++) {
		const struct hlog_event *e = &r->ev[i];
		if (e->kind == HLOG_API && e->rank >= 0 && api->rank < 0 && e->fi == api->fi &&
		    !strcmp(e->op, api->op)) {
			add_evidence(r, api);
			api = e;
		}
	}
	const struct hlog_event *c = api ? api : any;
	if (c) {
		r->kind = c->kind;
		r->first = c;
		r->rank = ev_rank(r, c);
		r->dev = c->dev;
		fill_context(r, c);
		snprintf(r->node, sizeof(r->node), "%s", c->node);
		if (api) {
			const char *rn = api->result >= 0 ? hresult_name(api->result) : NULL;
			sb_add(&b, "%s failed on node %s", api->op[0] ? api->op : "an HCCL call",
			       node_of(api));
			if (r->rank >= 0)
				sb_add(&b, ", rank %d", r->rank);
			if (api->group_size > 0)
				sb_add(&b, " of %d", api->group_size);
			if (r->dev >= 0)
				sb_add(&b, ", device %d", r->dev);
			if (api->result >= 0)
				sb_add(&b, ", with %s%s%lld%s", rn ? rn : "error ", rn ? " (" : "",
				       api->result, rn ? ")" : "");
			const char *m = api->result >= 0 ? hresult_meaning(api->result) : NULL;
			if (m && m[0])
				sb_add(&b, ": %s", m);
			int known = api->result >= 0 && hresult_cat(api->result) != HCAT_UNRESOLVED;
			sb_add(&b, "%s", known ? " (only the result code says so)" : "; no line says why");
		} else {
			sb_add(&b, "%s on node %s, and no line says why",
			       c->code[0] ? c->code : hlog_kind_name(c->kind), node_of(c));
		}
		int cat = api && api->result >= 0 ? hresult_cat(api->result) : HCAT_UNRESOLVED;
		int known = cat > HCAT_NONE && cat < HCAT_N && cat != HCAT_UNRESOLVED;
		set_what(r, known ? cat : HCAT_UNRESOLVED, known ? "result-code" : "no-explanation");
		set_fix(r, "collect the plogs of every rank (~/ascend/log/debug/plog on each node, "
			   "with ASCEND_GLOBAL_LOG_LEVEL=1 for more) and run this again on them; the "
			   "first error by time is the cause");
		add_evidence(r, c);
		for (size_t i = 0; i < r->nev; i++)
			if (r->ev[i].fi == c->fi && r->ev[i].head == c->head)
				add_evidence(r, &r->ev[i]);
		return;
	}
	if (r->nunk) {
		const struct hlog_unk *u = &r->unk[0];
		/* where it is, so that a reader can go to it */
		sb_add(&b, "unclassified error line at %s:%u: %.300s", u->file, u->line, u->text);
		snprintf(r->node, sizeof(r->node), "%s", u->node);
		set_what(r, HCAT_UNRESOLVED, "unclassified");
		set_fix(r, "read the lines around it; if it is an HCCL or CANN failure this tool "
			   "does not know yet, the first error by time across all ranks' logs is the "
			   "place to start");
		struct hlog_quote *q = &r->evidence[r->nevidence++];
		snprintf(q->file, sizeof(q->file), "%s", u->file);
		q->line = u->line;
		snprintf(q->text, sizeof(q->text), "%s", u->text);
	}
}

int hlog_conclude(struct hlog_report *r)
{
	if (!r)
		return -EINVAL;
	if (r->nev > 1)
		qsort(r->ev, r->nev, sizeof(*r->ev), ev_cmp);
	share_ranks(r);
	name_nodes(r);
	r->kind = HLOG_NONE;
	r->cat = HCAT_NONE;
	r->node[0] = r->ip[0] = r->peer_ip[0] = r->cause[0] = r->fix[0] = '\0';
	r->detail[0] = r->group[0] = r->reported_on[0] = '\0';
	r->rank = r->peer_rank = r->dev = -1;
	r->ndevs = 0;
	r->port = -1;
	r->first = NULL;
	r->nevidence = r->nfindings = 0;
	r->nchain = 0;
	r->loop = -1;
	const struct hlog_event *c = NULL;
	for (size_t i = 0; i < r->nev; i++)
		if (weight(&r->ev[i]) > (c ? weight(c) : 0))
			c = &r->ev[i];
	int rows = 0;
	const struct hlog_event *tls = tls_split(r, &rows);
	if (tls && (!c || ev_cmp(tls, c) < 0)) {
		r->kind = HLOG_TLS;
		r->first = tls;
		conclude_tls_split(r, tls, rows);
	} else if (c) {
		r->kind = c->kind;
		r->first = c;
		if (is_heartbeat(c->kind))
			conclude_heartbeat(r, c);
		else if (c->kind == HLOG_ERROR_CQE)
			conclude_cqe(r, c);
		else if (c->kind == HLOG_MISMATCH)
			conclude_mismatch(r, c);
		else if (c->kind == HLOG_INNER || c->kind == HLOG_CODE || c->kind == HLOG_VERSION)
			conclude_catalog(r, c);
		else
			conclude_config(r, c);
	} else {
		conclude_chain(r);
	}
	if (r->kind == HLOG_NONE)
		conclude_unresolved(r);
	if (r->cat == HCAT_NONE && (r->nunk || r->kind != HLOG_NONE))
		set_what(r, HCAT_UNRESOLVED, "unclassified");
	/* no rule of ours explains it: the knowledge base may */
	hlog__kb_conclude(r);
	/* nor the knowledge base: the words of the line still say the family */
	if (r->cat == HCAT_UNRESOLVED && !strcmp(r->detail, "unclassified"))
		hlog__words_conclude(r);
	/* only the frame of a table or headings, at an error level: still no pass */
	if (r->cat == HCAT_NONE && r->errors) {
		set_what(r, HCAT_UNRESOLVED, "unclassified");
		snprintf(r->cause, sizeof(r->cause),
			 "%zu line%s at an error level, none of them saying what failed", r->errors,
			 r->errors == 1 ? "" : "s");
		set_fix(r, "read the logs around those lines; collect every rank's plogs "
			   "(~/ascend/log/debug/plog) and run this again on them");
		struct hlog_quote *q = &r->evidence[r->nevidence++];
		snprintf(q->file, sizeof(q->file), "%s", r->first_error.file);
		q->line = r->first_error.line;
		snprintf(q->text, sizeof(q->text), "%s", r->first_error.text);
		snprintf(r->reported_on, sizeof(r->reported_on), "%s",
			 r->first_error.node[0] ? r->first_error.node : "node0");
	}
	if (r->cat == HCAT_NONE)
		snprintf(r->cause, sizeof(r->cause), "no error in %zu lines of %zu file%s", r->lines,
			 r->nfile, r->nfile == 1 ? "" : "s");
	add_findings(r);
	/* where the lines behind the cause were written */
	for (size_t i = 0; i < r->nev && !r->reported_on[0] && r->first; i++)
		if (&r->ev[i] == r->first)
			snprintf(r->reported_on, sizeof(r->reported_on), "%s", r->ev[i].node);
	if (!r->reported_on[0] && r->nunk)
		snprintf(r->reported_on, sizeof(r->reported_on), "%s", r->unk[0].node);
	return 0;
}
