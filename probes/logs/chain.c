/* Who waited on whom, across the workers and devices of a bundle, and where the waits end.
 *
 * Every process is placed on a worker and a device from what states it: the path of its files
 * (bundle.c: worker-N, device-D, rank_N, the pid of plog-PID_...), and its own lines (HCCL's
 * SetupAgent and hcclCommInitInfo lines give its rank, device, device IP and server, a Listen
 * line a device IP, a LINK_ERROR_INFO row its device IP and rank). Each wait is then an edge
 * from the waiting device to the one it waits for, found by what the wait names: a device IP
 * (link-error rows), a server and device (transport init), a physical device id on the same
 * worker (P2P), a rank of a group (AI CPU task exceptions), a server and device (heartbeats).
 * A wait whose target is in no log of the bundle ends at that target, named by its address.
 *
 * The root is where the waits end: a device that waits for nobody (its log is here and shows
 * no wait, or it is not here at all), or a set of devices that wait on each other. When there
 * are several, the one most devices wait for, directly or not; a device whose log is here
 * before one known only by address. The chain shown is the longest path of waits into it,
 * the evidence a reader can check hop by hop. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probes/logs/bundle.h"
#include "probes/logs/hlogint.h"
#include "probes/npu/hcclcodes.h"
#include "probes/logs/logtext.h"

/* Bounds, so that a hostile or huge input costs little: a failed job's bundle has a few
 * hundred files and wait lines; past these the graph is not drawn (or drawn from the first
 * waits by time). */
#define MAX_FILES 4096	  /* files of the input: more, and no chain is drawn */
#define MAX_XPROCS 256	  /* processes named only by the pid of lines in another's file */
#define MAX_WAITS 4096	  /* wait lines placed */
#define MAX_NODES 256
#define MAX_EDGES 1024
#define MAX_IPS 4
#define MAX_GROUPS 4

int hlog__chain_line(struct pspan m, struct hlog_event *e)
{
	int v;
	/* "SetupAgent rankNum[16], rank[2], ..., server[51.38.67.141%enp189s0f0], ...,
	 * logicDevId[2], phydevId[2], deviceIp[192.168.100.202]"; "hcom init by file success,
	 * ..., rankNum[128], rank[76],server[192.168.102.141], device[4]"; "hcclCommInitInfo:
	 * commId[...], rank[0], totalRanks[2], ..., logicDevId[11], identifier[group_name_1]" */
	if (hlog__has(m, "SetupAgent rankNum") || hlog__has(m, "hcom init by file success") ||
	    hlog__has(m, "hcclCommInitInfo:")) {
		e->kind = HLOG_PLACE;
		hlog__int_after(m, ", rank[", &e->rank);
		if (hlog__int_after(m, "rankNum[", &v) || hlog__int_after(m, "totalRanks[", &v))
			e->group_size = v;
		if (!hlog__int_after(m, "logicDevId[", &e->dev))
			hlog__int_after(m, "device[", &e->dev);
		hlog__int_after(m, "phydevId[", &e->peer_dev);
		hlog__ip_after(m, "deviceIp[", e->ip, sizeof(e->ip));
		hlog__ip_after(m, "server[", e->peer_ip, sizeof(e->peer_ip));
		if (hlog__has(m, "hcclCommInitInfo:"))
			hlog__name_after(m, "identifier[", e->group, sizeof(e->group));
		return 1;
	}
	/* "[Start][Vnic]Listen on ip[192.168.2.197], port[16666] sucess, devPhyId[2],
	 * devLogicId[2]" (the word is misspelt in some releases) */
	if (hlog__has(m, "Listen on ip[") &&
	    (hlog__has(m, "sucess") || hlog__has(m, "success"))) {
		e->kind = HLOG_PLACE;
		hlog__ip_after(m, "Listen on ip[", e->ip, sizeof(e->ip));
		hlog__int_after(m, "devLogicId[", &e->dev);
		hlog__int_after(m, "devPhyId[", &e->peer_dev);
		return 1;
	}
	/* "[Wait][P2PConnected]connected p2p timeout, timeout:130 s. local logicDevid:0, remote
	 * physic id:1."; "Wait Enable P2P Failed, src devicePhyId[0], dst devicePhyId[1]" */
	if (hlog__has(m, "connected p2p timeout") || hlog__has(m, "Wait Enable P2P Failed")) {
		e->kind = HLOG_SOCKET_TIMEOUT;
		e->sub = HLOG_SUB_P2P;
		if (!hlog__int_after(m, "local logicDevid", &e->dev))
			hlog__int_after(m, "src devicePhyId", &e->dev);
		if (!hlog__int_after(m, "remote physic id", &e->peer_dev))
			hlog__int_after(m, "dst devicePhyId", &e->peer_dev);
		return 1;
	}
	/* "[TaskException]base information is streamId:149, ..., type:NOTIFY WAIT, localRank:1,
	 * remoteRank:0, ..." and, next, "[TaskException]opData information is tag:...,
	 * group:group_name_17271, ..." */
	if (hlog__has(m, "[TaskException]") && hlog__has(m, "type:NOTIFY WAIT")) {
		e->kind = HLOG_NOTIFY_TIMEOUT;
		e->sub = HLOG_SUB_TASK_WAIT;
		hlog__int_after(m, "localRank", &e->rank);
		hlog__int_after(m, "remoteRank", &e->peer_rank);
		return 1;
	}
	if (hlog__has(m, "[TaskException]opData information") &&
	    hlog__name_after(m, "group:", e->group, sizeof(e->group))) {
		e->kind = HLOG_PLACE;
		e->sub = HLOG_SUB_OPDATA;
		return 1;
	}
	return 0;
}

static int is_hb(int kind)
{
	return kind == HLOG_HEARTBEAT_LOST || kind == HLOG_HEARTBEAT_STUCK;
}

/* A process: what its files and lines say of it. */
struct proc {
	char worker[HLOG_NODELEN];
	int pid;
	int rank, nranks, dev, phy;
	char ip[MAX_IPS][HLOG_IPLEN];
	int nip;
	char host[HLOG_IPLEN];
	char group[MAX_GROUPS][HLOG_NAMELEN];
	int grank[MAX_GROUPS];
	int ngroup;
	int node; /* its node in the graph; -1 */
};

/* A device of the graph: a known one (worker, device) or a target known only by address. */
struct gnode {
	struct hlog_hop hop;
	int key;	/* the process, for a node without a device */
	int64_t t;	/* its first wait; -1 */
	size_t errfile; /* a file of its process, for its first error; (size_t)-1 */
};

struct gedge {
	int from, to;
	const struct hlog_event *e;
};

struct graph {
	struct proc *p;
	size_t np;
	struct gnode n[MAX_NODES];
	int nn;
	struct gedge ed[MAX_EDGES];
	int ne;
	int *fproc; /* the process of each file */
};

static struct proc *proc_get(struct graph *g, size_t cap, const char *worker, int pid)
{
	for (size_t i = 0; i < g->np; i++)
		if (g->p[i].pid == pid && !strcmp(g->p[i].worker, worker))
			return &g->p[i];
	if (g->np >= cap)
		return NULL;
	struct proc *p = &g->p[g->np++];
	memset(p, 0, sizeof(*p));
	snprintf(p->worker, sizeof(p->worker), "%s", worker);
	p->pid = pid;
	p->rank = p->nranks = p->dev = p->phy = p->node = -1;
	return p;
}

static void add_ip(struct proc *p, const char *ip)
{
	if (!ip[0])
		return;
	for (int i = 0; i < p->nip; i++)
		if (!strcmp(p->ip[i], ip))
			return;
	if (p->nip < MAX_IPS)
		snprintf(p->ip[p->nip++], sizeof(p->ip[0]), "%s", ip);
}

/* The process of an event: the file's (named by the pid in its name, else by the pid of its
 * first line), unless the line is another process's (a run plog holds a few). */
static struct proc *proc_of(struct graph *g, const struct hlog_report *r,
			    const struct hlog_event *e)
{
	if (e->fi >= r->nfile)
		return NULL;
	struct proc *fp = &g->p[g->fproc[e->fi]];
	const struct hlog_file *f = &r->file[e->fi];
	if (e->pid < 0 || e->pid == f->pid || e->pid == fp->pid)
		return fp;
	for (size_t i = 0; i < g->np; i++)
		if (g->p[i].pid == e->pid && !strcmp(g->p[i].worker, fp->worker))
			return &g->p[i];
	return fp;
}

static void learn(struct proc *p, const struct hlog_event *e)
{
	if (e->kind == HLOG_PLACE && e->sub != HLOG_SUB_OPDATA) {
		if (e->group[0] && e->rank >= 0 && p->ngroup < MAX_GROUPS) {
			snprintf(p->group[p->ngroup], sizeof(p->group[0]), "%s", e->group);
			p->grank[p->ngroup++] = e->rank;
		} else if (!e->group[0] && e->rank >= 0 && p->rank < 0) {
			p->rank = e->rank;
			p->nranks = e->group_size;
		}
		if (e->dev >= 0 && p->dev < 0)
			p->dev = e->dev;
		if (e->peer_dev >= 0 && p->phy < 0)
			p->phy = e->peer_dev;
		add_ip(p, e->ip);
		if (e->peer_ip[0] && !p->host[0])
			snprintf(p->host, sizeof(p->host), "%s", e->peer_ip);
	} else if (e->sub == HLOG_SUB_LINK_ROW) {
		add_ip(p, e->ip);
		if (p->rank < 0 && e->rank >= 0 && !e->group[0])
			p->rank = e->rank;
	} else if (e->sub == HLOG_SUB_P2P && p->dev < 0) {
		p->dev = e->dev;
	}
}

/* Builds the process table: one per (worker, pid) of the files, and of lines of other pids. */
static int build_procs(struct graph *g, const struct hlog_report *r)
{
	size_t cap = r->nfile + MAX_XPROCS;
	g->p = calloc(cap, sizeof(*g->p));
	g->fproc = calloc(r->nfile + 1, sizeof(*g->fproc));
	if (!g->p || !g->fproc)
		return -1;
	for (size_t i = 0; i < r->nfile; i++) {
		const struct hlog_file *f = &r->file[i];
		struct hlog_place pl;
		hlog__bundle_place(f->name, &pl);
		/* a file without a pid is a process of its own */
		int pid = pl.pid >= 0 ? pl.pid : f->pid >= 0 ? f->pid : -2 - (int)i;
		struct proc *p = proc_get(g, cap, f->node, pid);
		g->fproc[i] = (int)(p - g->p);
		if (p->dev < 0)
			p->dev = pl.dev;
		if (p->rank < 0)
			p->rank = pl.rank;
	}
	for (size_t i = 0; i < r->nev; i++) {
		const struct hlog_event *e = &r->ev[i];
		if (e->fi >= r->nfile)
			continue;
		struct proc *fp = &g->p[g->fproc[e->fi]];
		struct proc *p = fp;
		if (e->pid >= 0 && e->pid != r->file[e->fi].pid && e->pid != fp->pid)
			p = proc_get(g, cap, fp->worker, e->pid);
		if (p)
			learn(p, e);
	}
	return 0;
}

/* A node: a device with a log (worker, device; without a device, the process: key is its
 * pid as the process table keys it), or a target known only by address. */
static int node_add(struct graph *g, const char *worker, int dev, int key, int rank,
		    const char *ip, int has_log)
{
	for (int i = 0; i < g->nn; i++) {
		const struct gnode *n = &g->n[i];
		const struct hlog_hop *h = &n->hop;
		int same = has_log && h->has_log
				   ? !strcmp(h->worker, worker) && h->dev == dev &&
					     (dev >= 0 || n->key == key)
			   : !has_log && !h->has_log
				   ? !strcmp(h->ip, ip) && h->dev == dev && h->rank == rank
				   : 0;
		if (same)
			return i;
	}
	if (g->nn >= MAX_NODES)
		return -1;
	struct gnode *n = &g->n[g->nn];
	memset(n, 0, sizeof(*n));
	snprintf(n->hop.worker, sizeof(n->hop.worker), "%s", worker);
	snprintf(n->hop.ip, sizeof(n->hop.ip), "%s", ip);
	n->hop.dev = dev;
	n->hop.pid = dev < 0 && key >= 0 ? key : -1;
	n->hop.rank = rank;
	n->hop.has_log = has_log;
	n->key = key;
	n->t = -1;
	n->errfile = (size_t)-1;
	return g->nn++;
}

/* The graph node of a process: its worker and device (or, without a device, its pid). */
static int proc_node(struct graph *g, struct proc *p)
{
	if (p->node >= 0)
		return p->node;
	int dev = p->dev >= 0 ? p->dev : p->phy;
	int i = node_add(g, p->worker, dev, p->pid, p->rank, "", 1);
	if (i >= 0) {
		p->node = i;
		if (g->n[i].hop.rank < 0)
			g->n[i].hop.rank = p->rank;
		if (!g->n[i].hop.ip[0] && p->nip)
			snprintf(g->n[i].hop.ip, sizeof(g->n[i].hop.ip), "%s", p->ip[0]);
	}
	return i;
}

static struct proc *find_ip(struct graph *g, const char *ip)
{
	for (size_t i = 0; i < g->np && ip[0]; i++)
		for (int k = 0; k < g->p[i].nip; k++)
			if (!strcmp(g->p[i].ip[k], ip))
				return &g->p[i];
	return NULL;
}

static struct proc *find_host_dev(struct graph *g, const char *host, int dev)
{
	for (size_t i = 0; i < g->np && host[0] && dev >= 0; i++)
		if (!strcmp(g->p[i].host, host) && (g->p[i].dev == dev || g->p[i].phy == dev))
			return &g->p[i];
	return NULL;
}

static struct proc *find_rank(struct graph *g, const char *group, int rank)
{
	for (size_t i = 0; i < g->np && rank >= 0; i++) {
		const struct proc *p = &g->p[i];
		if (!group[0] && p->rank == rank)
			return &g->p[i];
		for (int k = 0; group[0] && k < p->ngroup; k++)
			if (p->grank[k] == rank && !strcmp(p->group[k], group))
				return &g->p[i];
	}
	return NULL;
}

/* The group an AI CPU task exception is about: its opData line, just after it. */
static const char *task_group(const struct hlog_report *r, size_t i)
{
	for (size_t k = i + 1; k < r->nev && k < i + 4; k++)
		if (r->ev[k].fi == r->ev[i].fi && r->ev[k].sub == HLOG_SUB_OPDATA &&
		    r->ev[k].line <= r->ev[i].line + 2)
			return r->ev[k].group;
	return "";
}

/* The node a wait is for; -1 when it names none, or a rank outside its own job. */
static int target(struct graph *g, const struct hlog_report *r, size_t i, struct proc *me)
{
	const struct hlog_event *e = &r->ev[i];
	struct proc *p = NULL;
	const char *ip = e->peer_ip;
	int dev = -1, rank = -1;
	if (e->sub == HLOG_SUB_P2P) {
		for (size_t k = 0; k < g->np && !p && e->peer_dev >= 0; k++)
			if (!strcmp(g->p[k].worker, me->worker) &&
			    (g->p[k].phy == e->peer_dev ||
			     (g->p[k].phy < 0 && g->p[k].dev == e->peer_dev)))
				p = &g->p[k];
		if (!p && e->peer_dev >= 0)
			return node_add(g, me->worker, e->peer_dev, -1, -1, "", 1);
	} else if (e->sub == HLOG_SUB_TASK_WAIT) {
		/* its ranks are of the group its opData line names: without it, no target */
		const char *grp = task_group(r, i);
		p = grp[0] ? find_rank(g, grp, e->peer_rank) : NULL;
		if (!p)
			return -1;
	} else if (e->sub == HLOG_SUB_TRANSPORT || is_hb(e->kind)) {
		p = find_host_dev(g, ip, e->peer_dev);
		if (!p)
			p = find_ip(g, ip);
		dev = e->peer_dev;
	} else if (e->kind == HLOG_SOCKET_TIMEOUT || e->kind == HLOG_NOTIFY_TIMEOUT) {
		p = find_ip(g, ip);
		rank = e->group[0] ? -1 : e->peer_rank;
		/* a rank a job of N ranks cannot have: the row is not about this job */
		if (!p && rank >= 0 && me->nranks > 0 && rank >= me->nranks)
			return -1;
		if (!p)
			p = find_rank(g, "", rank);
	} else {
		return -1;
	}
	if (p)
		return proc_node(g, p);
	if (!ip[0])
		return -1;
	/* known only by address: on a worker when its server is one of ours */
	const char *w = "";
	for (size_t k = 0; k < g->np; k++)
		if (g->p[k].host[0] && !strcmp(g->p[k].host, ip))
			w = g->p[k].worker;
	int n = node_add(g, w, dev, -1, rank, ip, 0);
	return n;
}

static int is_wait(const struct hlog_event *e)
{
	if (is_hb(e->kind))
		return e->peer_ip[0] != '\0';
	return (e->kind == HLOG_SOCKET_TIMEOUT && e->sub != HLOG_SUB_DETECT) ||
	       e->kind == HLOG_NOTIFY_TIMEOUT;
}

static void add_edge(struct graph *g, int from, int to, const struct hlog_event *e)
{
	if (from < 0 || to < 0 || from == to)
		return;
	for (int i = 0; i < g->ne; i++)
		if (g->ed[i].from == from && g->ed[i].to == to)
			return;
	if (g->ne < MAX_EDGES)
		g->ed[g->ne++] = (struct gedge){from, to, e};
	if (e->t_us >= 0 && (g->n[from].t < 0 || e->t_us < g->n[from].t))
		g->n[from].t = e->t_us;
}

static void build_edges(struct graph *g, const struct hlog_report *r)
{
	size_t waits = 0;
	for (size_t i = 0; i < r->nev && waits < MAX_WAITS; i++) {
		const struct hlog_event *e = &r->ev[i];
		if (!is_wait(e))
			continue;
		waits++;
		struct proc *me = proc_of(g, r, e);
		if (!me)
			continue;
		int from = proc_node(g, me);
		if (from >= 0 && g->n[from].errfile == (size_t)-1)
			g->n[from].errfile = e->fi;
		add_edge(g, from, target(g, r, i, me), e);
	}
	/* the files of the processes that wait for nobody: where their first error is */
	for (size_t i = 0; i < g->np; i++) {
		int k = g->p[i].node;
		for (size_t f = 0; k >= 0 && f < r->nfile && g->n[k].errfile == (size_t)-1; f++)
			if (g->fproc[f] == (int)i && r->file[f].errors)
				g->n[k].errfile = f;
	}
}

/* reach[i * n + j]: j can be reached from i by one or more waits. */
static unsigned char *reachability(const struct graph *g)
{
	int n = g->nn;
	unsigned char *m = calloc((size_t)n * (size_t)n + 1, 1);
	if (!m)
		return NULL;
	for (int i = 0; i < g->ne; i++)
		m[g->ed[i].from * n + g->ed[i].to] = 1;
	for (int k = 0; k < n; k++)
		for (int i = 0; i < n; i++)
			if (m[i * n + k])
				for (int j = 0; j < n; j++)
					m[i * n + j] |= m[k * n + j];
	return m;
}

/* A root: a device, or a cycle, that waits for nothing outside itself and that something
 * waits for. Scored by the devices involved (its members and those that reach it); a
 * device whose log is here first, then the earliest wait. */
static int pick_root(const struct graph *g, const unsigned char *m, int *members, int *nm)
{
	int n = g->nn, best = -1, best_score = -1, best_log = 0;
	int64_t best_t = -1;
	for (int i = 0; i < n; i++) {
		int in = 0, leaves = 0, score = 0, log = 0, lowest = 1;
		int64_t t = -1;
		for (int j = 0; j < n; j++) {
			int same = j == i || (m[i * n + j] && m[j * n + i]);
			in |= m[j * n + i] && !same;
			leaves |= m[i * n + j] && !same;
			if (same && j < i)
				lowest = 0; /* a cycle is scored once, at its first member */
			if (same || m[j * n + i])
				score++;
			if (same && g->n[j].hop.has_log)
				log = 1;
			if (same && g->n[j].t >= 0 && (t < 0 || g->n[j].t < t))
				t = g->n[j].t;
		}
		int cyc = m[i * n + i];
		if (leaves || !lowest || (!in && !cyc))
			continue;
		if (score > best_score || (score == best_score && log > best_log) ||
		    (score == best_score && log == best_log && t >= 0 && (best_t < 0 || t < best_t))) {
			best = i;
			best_score = score;
			best_log = log;
			best_t = t;
		}
	}
	*nm = 0;
	for (int j = 0; best >= 0 && j < n; j++)
		if (j == best || (m[best * n + j] && m[j * n + best]))
			members[(*nm)++] = j;
	return best;
}

static int has_edge(const struct graph *g, int from, int to)
{
	for (int i = 0; i < g->ne; i++)
		if (g->ed[i].from == from && g->ed[i].to == to)
			return 1;
	return 0;
}

/* The longest path of waits that ends at end from outside the set in[] (bounded: the graph
 * of a failed job is small, and a path longer than HLOG_MAX_HOPS is not shown). */
static void longest_into(const struct graph *g, int end, unsigned char *on, int *path, int len,
			 int *best, int *nbest, long *budget)
{
	if (len > *nbest) {
		memcpy(best, path, (size_t)len * sizeof(*path));
		*nbest = len;
	}
	if (len >= HLOG_MAX_HOPS - 1 || --*budget <= 0)
		return;
	for (int i = 0; i < g->ne; i++) {
		int from = g->ed[i].from;
		if (g->ed[i].to != end || on[from])
			continue;
		on[from] = 1;
		path[len] = from;
		longest_into(g, from, on, path, len + 1, best, nbest, budget);
		on[from] = 0;
	}
}

static void put_hop(struct hlog_report *r, const struct graph *g, int *ids, int node)
{
	if (r->nchain < HLOG_MAX_HOPS) {
		ids[r->nchain] = node;
		r->chain[r->nchain++] = g->n[node].hop;
	}
}

static const struct hlog_event *edge_ev(const struct graph *g, int from, int to)
{
	for (int i = 0; i < g->ne; i++)
		if (g->ed[i].from == from && g->ed[i].to == to)
			return g->ed[i].e;
	return NULL;
}

/* The chain: the longest path into the root's first member, then (a cycle) around it back to
 * the member it returns to. ids[k] is the node of chain[k]. */
static void fill_chain(struct hlog_report *r, const struct graph *g, const int *mem, int nm,
		       int *ids)
{
	unsigned char on[MAX_NODES] = {0};
	int path[HLOG_MAX_HOPS], best[HLOG_MAX_HOPS], nbest = 0;
	long budget = 20000;
	int start = mem[0];
	/* a cycle is told from the member that reported its wait first */
	for (int k = 1; k < nm; k++)
		if (g->n[mem[k]].t >= 0 && (g->n[start].t < 0 || g->n[mem[k]].t < g->n[start].t))
			start = mem[k];
	for (int k = 0; k < nm; k++)
		on[mem[k]] = 1;
	path[0] = start;
	longest_into(g, start, on, path, 1, best, &nbest, &budget);
	int room = nm > 1 ? HLOG_MAX_HOPS - nm : HLOG_MAX_HOPS; /* the cycle is shown whole */
	if (room < 1)
		room = 1;
	if (nbest > room)
		nbest = room;
	r->nchain = 0;
	r->loop = -1;
	for (int k = nbest - 1; k >= 0; k--)
		put_hop(r, g, ids, best[k]);
	if (nm < 2)
		return;
	size_t first = r->nchain - 1;
	unsigned char seen[MAX_NODES] = {0};
	int cur = start;
	seen[cur] = 1;
	for (int steps = 1; steps < nm && r->nchain + 1 < HLOG_MAX_HOPS; steps++) {
		int next = -1;
		for (int k = 0; k < nm && next < 0; k++)
			if (!seen[mem[k]] && has_edge(g, cur, mem[k]))
				next = mem[k];
		if (next < 0)
			break;
		seen[next] = 1;
		put_hop(r, g, ids, next);
		cur = next;
	}
	for (size_t k = first; k < r->nchain; k++)
		if (has_edge(g, cur, ids[k])) {
			r->loop = (int)k;
			put_hop(r, g, ids, ids[k]);
			return;
		}
}

int hlog__chain(struct hlog_report *r, struct hlog_chainx *x)
{
	struct graph *g = calloc(1, sizeof(*g));
	int ok = 0;
	memset(x, 0, sizeof(*x));
	x->rootfile = (size_t)-1;
	r->nchain = 0;
	r->loop = -1;
	if (!g || r->nfile > MAX_FILES || build_procs(g, r))
		goto out;
	build_edges(g, r);
	if (!g->ne)
		goto out;
	unsigned char *m = reachability(g);
	if (!m)
		goto out;
	int mem[MAX_NODES], nm = 0;
	int root = pick_root(g, m, mem, &nm);
	free(m);
	if (root < 0)
		goto out;
	int ids[HLOG_MAX_HOPS];
	fill_chain(r, g, mem, nm, ids);
	ok = r->nchain >= 2;
	/* a cycle is named whole or not at all: one too long to show, or one a single walk
	 * does not go round, is left to the rank reasoning */
	if (nm > 1 && (r->loop < 0 || r->nchain - 1 - (size_t)r->loop != (size_t)nm))
		ok = 0;
	for (size_t k = 0; k + 1 < r->nchain; k++)
		x->ev[k] = edge_ev(g, ids[k], ids[k + 1]);
	if (r->nchain)
		x->rootfile = g->n[ids[r->nchain - 1]].errfile;
	if (!ok) {
		r->nchain = 0;
		r->loop = -1;
	}
out:
	if (g) {
		free(g->p);
		free(g->fproc);
	}
	free(g);
	return ok;
}

void hlog_hop_name(const struct hlog_hop *h, char *out, size_t len)
{
	if (!h->has_log && h->ip[0] && h->dev >= 0)
		snprintf(out, len, "%s dev %d", h->ip, h->dev);
	else if (!h->has_log && h->ip[0])
		snprintf(out, len, "%s", h->ip);
	else if (h->dev >= 0)
		snprintf(out, len, "%s dev %d", h->worker[0] ? h->worker : "node0", h->dev);
	else if (h->pid >= 0)
		snprintf(out, len, "%s pid %d", h->worker[0] ? h->worker : "node0", h->pid);
	else
		snprintf(out, len, "%s", h->worker[0] ? h->worker : "?");
}

static void chain_text(struct sbuf *b, const struct hlog_report *r)
{
	char name[HLOG_NODELEN + HLOG_IPLEN + 16];
	for (size_t k = 0; k < r->nchain; k++) {
		hlog_hop_name(&r->chain[k], name, sizeof(name));
		hlog__sb_add(b, "%s%s", k ? " -> " : "", name);
	}
}

/* The first error line of the root's file, when it has one: a recognised line that is not a
 * wait or context, or a line no rule explains, whichever comes first. */
static void root_error(struct hlog_report *r, struct sbuf *b, size_t fi)
{
	if (fi >= r->nfile)
		return;
	const struct hlog_event *ev = NULL;
	const struct hlog_unk *u = NULL;
	for (size_t i = 0; i < r->nev && !ev; i++) {
		const struct hlog_event *e = &r->ev[i];
		if (e->fi == fi && !is_wait(e) && e->kind != HLOG_PLACE && e->kind != HLOG_ENTRY &&
		    e->kind != HLOG_TLS_SWITCH)
			ev = e;
	}
	for (size_t i = 0; i < r->nunk && i < HLOG_MAX_UNK && !u; i++)
		if (!strcmp(r->unk[i].file, r->file[fi].name))
			u = &r->unk[i];
	if (ev && (!u || ev->line < u->line)) {
		hlog__sb_add(b, "; its own first error, %s:%u: %s", ev->file, ev->line,
			     hlog_kind_name(ev->kind));
		if (ev->code[0])
			hlog__sb_add(b, " %s", ev->code);
		if (ev->op[0])
			hlog__sb_add(b, " in %s", ev->op);
		hlog__evidence(r, ev);
	} else if (u) {
		hlog__sb_add(b, "; its own first error: %.160s", u->text);
		if (r->nevidence < HLOG_MAX_EVIDENCE) {
			struct hlog_quote *q = &r->evidence[r->nevidence++];
			memcpy(q->file, u->file, sizeof(q->file));
			q->line = u->line;
			memcpy(q->text, u->text, sizeof(q->text));
		}
	}
}

static void set_cat(struct hlog_report *r, int cat, const char *detail, const char *fix)
{
	r->cat = cat;
	snprintf(r->detail, sizeof(r->detail), "%s", detail);
	snprintf(r->fix, sizeof(r->fix), "%s", fix);
}

int hlog__chain_conclude(struct hlog_report *r)
{
	struct hlog_chainx x;
	if (!hlog__chain(r, &x))
		return 0;
	const struct hlog_hop *root = &r->chain[r->nchain - 1];
	/* waits between processes no line places on a device say no more than the rank
	 * reasoning does (which reads better for them): the chain decides when its processes
	 * are devices */
	for (size_t k = 0; k < r->nchain; k++)
		if (r->chain[k].has_log && r->chain[k].dev < 0)
			return 0;
	struct sbuf b = {r->cause, sizeof(r->cause), 0};
	char name[HLOG_NODELEN + HLOG_IPLEN + 16];
	r->kind = x.ev[0] ? x.ev[0]->kind : HLOG_SOCKET_TIMEOUT;
	r->first = x.ev[0];
	r->rank = root->rank;
	r->dev = root->dev >= 0 ? root->dev : -1;
	snprintf(r->node, sizeof(r->node), "%s", root->worker);
	snprintf(r->ip, sizeof(r->ip), "%s", root->ip);
	if (r->loop >= 0) {
		r->ndevs = 0;
		for (size_t k = (size_t)r->loop; k + 1 < r->nchain && r->ndevs < 8; k++)
			if (r->chain[k].dev >= 0) {
				int dup = 0;
				for (int j = 0; j < r->ndevs; j++)
					dup |= r->devs[j] == r->chain[k].dev;
				if (!dup)
					r->devs[r->ndevs++] = r->chain[k].dev;
			}
		for (size_t k = (size_t)r->loop; k + 1 < r->nchain; k++) {
			hlog_hop_name(&r->chain[k], name, sizeof(name));
			hlog__sb_add(&b, "%s%s", k > (size_t)r->loop ? (k + 2 < r->nchain ? ", " : " and ") : "",
				     name);
		}
		hlog__sb_add(&b, " wait on each other: ");
		chain_text(&b, r);
		hlog__sb_add(&b, "; none of them can go on (the ranks called collectives in a "
				 "different order, or the link between them cannot be set up from "
				 "either side)");
		set_cat(r, HCAT_OP_MISMATCH, "wait-cycle",
			"read the logs of every device in the cycle for the collective each was in "
			"(HCCL_ENTRY_LOG_ENABLE=1) and make them call the same collectives in the same "
			"order; if they were in the same one, test the link between them: hccn_tool -i "
			"DEV -ping -g address PEER_DEVICE_IP, -link -g, -tls -g on both ends");
	} else {
		hlog_hop_name(root, name, sizeof(name));
		hlog__sb_add(&b, "%s", name);
		if (root->rank >= 0)
			hlog__sb_add(&b, " (rank %d)", root->rank);
		hlog__sb_add(&b, " is where the waits end: ");
		chain_text(&b, r);
		if (root->has_log) {
			hlog__sb_add(&b, "; its log is here and waits for no one");
			size_t before = b.n;
			root_error(r, &b, x.rootfile);
			if (b.n == before)
				hlog__sb_add(&b, " and shows no error: it did not reach the same step "
						 "(it hung, was slow, or ran another collective)");
		} else {
			hlog__sb_add(&b, "; its log is not in the input (it never started, exited "
					 "early, or its log was not collected)");
		}
		set_cat(r, HCAT_RANK_STUCK, root->has_log ? "root-device" : "root-absent",
			"read the log of that device's process for what it did when the others "
			"started waiting (a crash, a hang, another collective: HCCL_ENTRY_LOG_ENABLE=1 "
			"traces the ops), the kernel log of its server, and its NPU link: hccn_tool -i "
			"DEV -link -g, -net_health -g; collect the logs of every worker if one is "
			"missing");
	}
	for (size_t k = 0; k + 1 < r->nchain && r->nevidence < HLOG_MAX_EVIDENCE; k++)
		hlog__evidence(r, x.ev[k]);
	return 1;
}
