/* The HCCL log triage's questions every family of causes asks (hlogcause.h): an event's rank
 * and node, the file of a rank, who else reported the same, the rank most waited on, the
 * consequences to list and the evidence to quote. Apart so that the families share them
 * without calling each other. */
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
#include "probes/logs/extract.h"
#include "probes/logs/hlogcause.h"

int hlog__is_heartbeat(int kind)
{
	return kind == HLOG_HEARTBEAT_LOST || kind == HLOG_HEARTBEAT_STUCK ||
	       kind == HLOG_HEARTBEAT;
}

/* The job-wide rank an event is from; -1 when it names only a rank within a group. */
int hlog__ev_rank(const struct hlog_report *r, const struct hlog_event *e)
{
	if (e->group[0])
		return -1;
	if (e->rank >= 0 && e->sub != HLOG_SUB_DETECT)
		return e->rank;
	return e->fi < r->nfile ? r->file[e->fi].rank : -1;
}

void hlog__set_fix(struct hlog_report *r, const char *fix)
{
	snprintf(r->fix, sizeof(r->fix), "%s", fix);
}

void hlog__set_what(struct hlog_report *r, int cat, const char *detail)
{
	r->cat = cat;
	snprintf(r->detail, sizeof(r->detail), "%s", detail);
}

void hlog__recast(struct hlog_report *r, int kind, int cat, const char *detail, char *before,
		  size_t len)
{
	snprintf(before, len, "%s", r->cat != HCAT_NONE ? r->cause : "");
	r->kind = kind;
	r->first = NULL;
	hlog__set_what(r, cat, detail);
	r->rank = r->peer_rank = r->dev = -1;
	r->ndevs = 0;
	r->port = -1;
	r->ip[0] = r->peer_ip[0] = r->group[0] = '\0';
	r->cause[0] = '\0';
	r->nevidence = 0;
}

const char *hlog__node_of(const struct hlog_event *e)
{
	return e->node[0] ? e->node : e->file;
}

/* Lists where the waits that timed out were written: "the EI0006 socket timeouts on ranks
 * 0,1,2 and the EI0002 notify timeouts on ranks 4,5". */
/* EI0009 (a link that could not be set up) is not EI0006 (a wait that timed out): the
 * socket waits named by what they were. */
static const char *socket_waits_name(const struct hlog_report *r, const char *name)
{
	int t9 = 0, other = 0;
	for (size_t i = 0; i < r->nev; i++)
		if (r->ev[i].kind == HLOG_SOCKET_TIMEOUT) {
			if (!strcmp(r->ev[i].code, "EI0009"))
				t9 = 1;
			else
				other = 1;
		}
	return t9 && !other ? "EI0009 transport init errors"
	       : t9	   ? "EI0006 socket timeouts and EI0009 transport errors"
			   : name;
}

/* A few ranks in ascending order (an insertion sort: at most 16). */
static void sort_ranks(int *ranks, int nr)
{
for (int i = 1; i < nr; i++)
	for (int j = i; j > 0 && ranks[j - 1] > ranks[j]; j--) {
		int t = ranks[j];
		ranks[j] = ranks[j - 1];
		ranks[j - 1] = t;
	}
}

/* One kind of wait in the list (its table name kname), the ranks and nodes that reported
 * it: 1 when any did, 0 when none, -1 when out of memory. */
static int list_kind(const struct hlog_report *r, struct sbuf *b, int kind, const char *kname,
		     int skip_rank, int any)
{
	char *seen = calloc(r->nfile ? r->nfile : 1, 1);
	if (!seen)
		return -1;
	int ranks[17], nr = 0, more = 0, nnodes = 0, found = 0;
	char nodes[160] = "";
	const char *named[64];
	size_t nnamed = 0;
	for (size_t i = 0; i < r->nev && nnamed < 64; i++) {
		const struct hlog_event *e = &r->ev[i];
		if (e->kind != kind || hlog__ev_rank(r, e) < 0)
			continue;
		int dup = 0;
		for (size_t j = 0; j < nnamed && !dup; j++)
			dup = !strcmp(named[j], e->node);
		if (!dup)
			named[nnamed++] = e->node;
	}
	for (size_t i = 0; i < r->nev; i++) {
		const struct hlog_event *e = &r->ev[i];
		if (e->kind != kind)
			continue;
		int rk = hlog__ev_rank(r, e);
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
				dup = !!strstr(nodes, hlog__node_of(e));
			if (dup)
				continue;
			size_t l = strlen(nodes);
			snprintf(nodes + l, sizeof(nodes) - l, "%s%.40s", nnodes ? "," : "",
				 hlog__node_of(e));
			nnodes++;
		}
	}
	free(seen);
	if (!found)
		return 0;
	sort_ranks(ranks, nr);
	const char *name = kind == HLOG_SOCKET_TIMEOUT ? socket_waits_name(r, kname) : kname;
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
	return 1;
}

void hlog__list_conseq(const struct hlog_report *r, struct sbuf *b, const char *what,
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
		int rc = list_kind(r, b, ks[k].kind, ks[k].name, skip_rank, any);
		if (rc < 0)
			return;
		any |= rc;
	}
	if (any)
		sb_add(b, "%s are consequences", what);
}

/* The file written by rank (or, for rank -1, by host/dev or device ip); NULL. */
const struct hlog_file *hlog__file_of(const struct hlog_report *r, int rank, const char *host,
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
void hlog__who(struct sbuf *b, int rank, const char *node, const char *ip, int dev)
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
size_t hlog__reporters(const struct hlog_report *r,
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
		int rk = hlog__ev_rank(r, e);
		if (rk >= 0)
			snprintf(k[n++], sizeof(*k), "r%d", rk);
		else if (hlog__is_heartbeat(e->kind) && e->ip[0])
			snprintf(k[n++], sizeof(*k), "u%s/%d", e->ip, e->dev);
		else
			snprintf(k[n++], sizeof(*k), "~%s", hlog__node_of(e));
	}
	qsort(k, n, sizeof(*k), (int (*)(const void *, const void *))strcmp);
	for (size_t i = 0; i < n; i++) {
		if (i && !strcmp(k[i], k[i - 1]))
			continue;
		if (k[i][0] == '~') {
			int named = 0;
			for (size_t j = 0; j < r->nev && !named; j++)
				named = match(&r->ev[j], key) &&
					!strcmp(hlog__node_of(&r->ev[j]), k[i] + 1) &&
					(hlog__ev_rank(r, &r->ev[j]) >= 0 || r->ev[j].ip[0]);
			if (named)
				continue;
		}
		count++;
	}
	free(k);
	return count;
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
int hlog__most_waited(const struct hlog_report *r, int kind, size_t *votes,
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
		    (!e->group[0] && hlog__ev_rank(r, e) == e->peer_rank) ||
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

/* The first lines of kind (any for 0) that match (NULL: all), as evidence. */
void hlog__evidence_of(struct hlog_report *r, int kind,
			int (*match)(const struct hlog_report *, const struct hlog_event *))
{
	for (size_t i = 0; i < r->nev && r->nevidence < HLOG_MAX_EVIDENCE; i++)
		if ((!kind || r->ev[i].kind == kind) && (!match || match(r, &r->ev[i])))
			add_evidence(r, &r->ev[i]);
}

static void line_text(const char *text, int what, char *out, size_t len)
{
	struct hx_vals x;
	hlog__extract((struct pspan){text, strlen(text)}, &x);
	const struct hx_val *v = hlog__xfind(&x, what, HX_R(HX_ANY));
	snprintf(out, len, "%.*s", v ? (int)len - 1 : 0, v ? v->s : "");
}

void hlog__line_pci(const char *text, char *out, size_t len)
{
	line_text(text, HX_PCI, out, len);
}

void hlog__line_rdma(const char *text, char *out, size_t len)
{
	line_text(text, HX_RDMA, out, len);
}

/* What the lines around c add about who wrote it: the job rank and the device of the same
 * process (torch_npu prints "(PID:n, Device:d, RankID:r)" on the line before CANN's own), else
 * of the line just before it (a device error spread over several lines). A line about another
 * device by its PCI address ("NVRM: GPU 0000:0a:00.0: rm_init_adapter failed, device minor
 * number 5" above "NVRM: Xid (PCI:0000:07:00): 48") is not c's context. */
void hlog__fill_context(struct hlog_report *r, const struct hlog_event *c)
{
	const struct hlog_event *near = NULL;
	char cpci[16], epci[16];
	hlog__line_pci(c->text, cpci, sizeof(cpci));
	for (size_t i = 0; i < r->nev; i++) {
		const struct hlog_event *e = &r->ev[i];
		if (e->fi != c->fi)
			continue;
		if (cpci[0] && e != c && e->dev >= 0) {
			hlog__line_pci(e->text, epci, sizeof(epci));
			if (epci[0] && strcmp(epci, cpci))
				continue;
		}
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

int hlog__take_values(struct hlog_report *r, const char *text)
{
	struct hx_vals x;
	struct hx_peer p;
	hlog__extract((struct pspan){text, strlen(text)}, &x);
	hlog__xpeer(&x, &p);
	int took = 0;
	if (!r->ip[0] && (p.ip || (p.port && r->port < 0))) {
		if (p.ip)
			snprintf(r->ip, sizeof(r->ip), "%s", p.ip->s);
		if (p.port && r->port < 0)
			r->port = (int)p.port->n;
		took = 1;
	} else if (r->port < 0 && p.port && (!p.ip || !strcmp(r->ip, p.ip->s))) {
		/* the port of the address already named, or of a host given by name */
		r->port = (int)p.port->n;
		took = 1;
	}
	if (p.rank && r->peer_rank < 0) {
		r->peer_rank = (int)p.rank->n;
		took = 1;
	}
	/* a port of this end's own address is the one the failure is about when the line names
	 * no other: a bind's "Failed bind on 10.0.0.1:3026 ,errno=99" */
	const struct hx_val *own = hlog__xfind_own_port(&x);
	if (r->port < 0 && !p.port && own) {
		r->port = (int)own->n;
		took = 1;
	}
	return took;
}

/* A generic failure is often detailed by the lines printed right under it: NCCL's "unhandled
 * system error", then "Last error:" and "socketStartConnect: Connect to 169.254.0.1<40815>
 * failed : Software caused connection abort". The address and port the failure was about are
 * its own line's, else those of the first line right under it that names one, whether a rule
 * explains that line (an event) or not (below_ip, below_port). */
void hlog__values_below(struct hlog_report *r, const struct hlog_event *c)
{
	hlog__take_values(r, c->text);
	/* a line longer than the text kept of it names its peer past the cut (a paste that
	 * joined a traceback and NCCL's "Last error: ... Connect to 127.0.0.1<45069> failed") */
	if (!r->ip[0] && r->port < 0 && c->peer_ip[0] && strlen(c->text) == sizeof(c->text) - 1) {
		snprintf(r->ip, sizeof(r->ip), "%s", c->peer_ip);
		r->port = c->peer_port;
	}
	/* only a failure between two ends is detailed by an address under it (a setting's
	 * lines list every interface's) */
	if (c->cat != HCAT_NET && c->cat != HCAT_LINK_DOWN && c->cat != HCAT_RANK_STUCK)
		return;
	for (unsigned k = 1; k <= 4 && (!r->ip[0] || r->peer_rank < 0); k++)
		for (size_t i = 0; i < r->nev; i++)
			if (r->ev[i].fi == c->fi && r->ev[i].line == c->line + k)
				hlog__take_values(r, r->ev[i].text);
	if (!r->ip[0] && r->port < 0 && (c->below_ip[0] || c->below_port >= 0)) {
		snprintf(r->ip, sizeof(r->ip), "%s", c->below_ip);
		r->port = c->below_port;
	}
	if (r->peer_rank < 0)
		r->peer_rank = c->below_peer_rank;
}

/* A short quote of the line from the first of keys, for the cause. */
void hlog__quote(struct sbuf *b, const struct hlog_event *e, const char *const *keys)
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

/* The devices of c's block and of the blocks of the same kind in c's file, ascending. */
void hlog__block_devices(struct hlog_report *r, const struct hlog_event *c)
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

void hlog__devices_text(struct sbuf *b, const struct hlog_report *r)
{
	if (!r->ndevs)
		return;
	sb_add(b, r->ndevs > 1 ? "devices " : "device ");
	for (int i = 0; i < r->ndevs; i++)
		sb_add(b, "%s%d", !i ? "" : i + 1 == r->ndevs ? " and " : ", ", r->devs[i]);
}

int hlog__rank_list(const char *text, const char *key, int *out, int max)
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
