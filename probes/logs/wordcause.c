/* The verdict read from the words of an error line no rule explains (wordfam.c's families):
 * which line explains the most, the rank, device, address and port it and the lines around it
 * name, and the evidence. */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "probes/npu/hcclcodes.h"
#include "probes/logs/logtext.h"
#include "probes/logs/extract.h"
#include "probes/logs/hlogcause.h"
#include "probes/logs/hlogint.h"

/* The next kept unexplained line, from r->unk[*i] on, in u's file and node and lo to hi lines
 * from it (lo <= 0 <= hi reaches both sides; u itself at 0); NULL when none is left. The
 * lines of one message are near each other: every reading of "the line above or below" goes
 * through here. */
static const struct hlog_unk *next_near(const struct hlog_report *r, const struct hlog_unk *u,
					long lo, long hi, size_t *i)
{
	for (; *i < r->nunk && *i < HLOG_MAX_UNK; (*i)++) {
		const struct hlog_unk *n = &r->unk[*i];
		long d = (long)n->line - (long)u->line;
		if (d >= lo && d <= hi && !strcmp(n->file, u->file) && !strcmp(n->node, u->node))
			return &r->unk[(*i)++];
	}
	return NULL;
}

/* The line whose words explain the most: the first unexplained error line of the best
 * family, or, when the verdict so far is a failure code that nothing explains, the text of an
 * unexplained event ("EZ9999 ... HCCL_BUFFSIZE is too SMALL, ...") if its family ranks higher */
static int best_line(const struct hlog_report *r, int no_expl, struct hlog_unk *u)
{
	struct hlog_wordfam f;
	int row = hlog__word_family_row(r->word_row, &f) ? r->word_row : -1;
	if (row >= 0)
		*u = r->word_unk;
	for (size_t i = 0; no_expl && i < r->nev; i++) {
		const struct hlog_event *e = &r->ev[i];
		if (e->cat != HCAT_UNRESOLVED)
			continue;
		int fam = hlog__word_family((struct pspan){e->text, strlen(e->text)});
		if (fam < 0 || (row >= 0 && fam >= row))
			continue;
		row = fam;
		snprintf(u->file, sizeof(u->file), "%s", e->file);
		u->line = e->line;
		u->rank = e->rank;
		snprintf(u->node, sizeof(u->node), "%s", e->node);
		snprintf(u->text, sizeof(u->text), "%s", e->text);
		u->below_ip[0] = '\0';
		u->below_port = -1;
		u->below_rank = -1;
	}
	return row;
}

/* A process that ended on an exception nobody caught ("terminate called after throwing an
 * instance of 'gloo::TimeoutException'") says why on the "what():" line under it: that line's
 * family, when it names one that is no mere crash or exception, is the cause's. */
static int what_line(const struct hlog_report *r, int row, struct hlog_unk *u)
{
	struct hlog_wordfam f;
	if (!hlog__word_family_row(row, &f) || strcmp(f.name, "crash") ||
	    !hlog__has_nocase((struct pspan){u->text, strlen(u->text)}, "terminate called"))
		return row;
	size_t i = 0;
	for (const struct hlog_unk *n; (n = next_near(r, u, 1, 2, &i));) {
		struct pspan t = {n->text, strlen(n->text)};
		if (!hlog__has(t, "what():"))
			continue;
		int fam = hlog__word_family(t);
		if (!hlog__word_family_row(fam, &f) || f.weak || f.cat == HCAT_UNRESOLVED)
			return row;
		*u = *n;
		return fam;
	}
	return row;
}

/* The rank a hang's report says the others wait for, on its line or one of the few under
 * it: the stuck one, not the rank that reports ("Stalled ops:" above "allreduce.avg_loss
 * [missing ranks: 1]"); or, roles naming any role, the one a report of another's death names
 * (JAX's "another task died ... The following tasks are unhealthy (stopped sending
 * heartbeats):" over "/job:jax_worker/replica:0/task:3"); -1 when none is named. */
static int named_rank(const struct hlog_report *r, const struct hlog_unk *u,
		      const struct hx_vals *x, unsigned roles)
{
	const struct hx_val *v = hlog__xfind(x, HX_RANK, roles);
	if (v && v->n >= 0 && v->n <= INT_MAX)
		return (int)v->n;
	size_t i = 0;
	for (const struct hlog_unk *n; (n = next_near(r, u, 1, 3, &i));) {
		struct hx_vals y;
		hlog__extract((struct pspan){n->text, strlen(n->text)}, &y);
		v = hlog__xfind(&y, HX_RANK, roles);
		if (v && v->n >= 0 && v->n <= INT_MAX)
			return (int)v->n;
	}
	return -1;
}

/* The kept unexplained line u is a copy of (what was read under it is recorded there only);
 * NULL when it was not kept. */
static const struct hlog_unk *kept_unk(const struct hlog_report *r, const struct hlog_unk *u)
{
	size_t i = 0;
	return next_near(r, u, 0, 0, &i);
}

/* The rank of a line of the same family right around u (at most 4 lines, same file) whose
 * prefix or words name one: one failure told twice, once with its rank ("slurmstepd-gpu20-15: error:
 * Detected 1 oom-kill event(s)" over "srun: error: gpu20-15: task 0: Out Of Memory"), or of the
 * line just after it that says one task exited; -1. */
static int sibling_rank(const struct hlog_report *r, const struct hlog_unk *u, int row)
{
	size_t i = 0;
	for (const struct hlog_unk *n; (n = next_near(r, u, -4, 4, &i));) {
		struct pspan t = {n->text, strlen(n->text)};
		int fam = hlog__word_family(t);
		/* or the launcher's word, just after it, that one task exited on it: "RuntimeError:
		 * Too many open files ...", then "srun: error: b0010: task 7: Exited with exit code
		 * 1" */
		int exited = n->line > u->line &&
			     (hlog__word_family_says(fam) & WF_SAYS_TASK_ENDED);
		if (fam != row && !exited)
			continue;
		if (n->rank >= 0)
			return n->rank;
		/* or its words: srun's "srun: error: nid008576: task 2: Out Of Memory" */
		struct hx_vals x;
		hlog__extract(t, &x);
		const struct hx_val *v = hlog__xfind(&x, HX_RANK, 1u << HX_ANY | 1u << HX_LOCAL);
		if (v && v->n >= 0 && v->n <= INT_MAX)
			return (int)v->n;
	}
	return -1;
}

/* Whether the logs come from more than one node. */
static int several_nodes(const struct hlog_report *r)
{
	for (size_t i = 1; i < r->nfile; i++)
		if (strcmp(r->file[i].node, r->file[0].node))
			return 1;
	return 0;
}

/* A connection to a loopback address in a job of several nodes reaches only the node itself:
 * the address the nodes were given for a peer is not one (a host name that resolves to
 * 127.0.1.1, as Debian's /etc/hosts maps it; a launcher handing out "localhost"). On one node
 * a loopback peer is an ordinary one, and the network family stands. */
static void loopback_peer(struct hlog_report *r)
{
	if (r->cat != HCAT_NET || !(strncmp(r->ip, "127.", 4) == 0 || !strcmp(r->ip, "::1")) ||
	    !several_nodes(r))
		return;
	struct sbuf b = {r->cause, sizeof(r->cause), strlen(r->cause)};
	hlog__sb_add(&b, "; %s is a loopback address, which reaches only the node itself, in a "
			 "job of several nodes",
		     r->ip);
	r->cat = HCAT_CONFIG;
	snprintf(r->detail, sizeof(r->detail), "loopback-peer");
	snprintf(r->fix, sizeof(r->fix), "%s",
		 "give the job the peer's (master's) real address instead of a host name that "
		 "resolves to loopback on its own node (/etc/hosts maps it to 127.0.1.1 on "
		 "Debian and Ubuntu), or map that name to the node's real IP; bind the job to the "
		 "network interface the nodes share (NCCL_SOCKET_IFNAME, GLOO_SOCKET_IFNAME)");
}

/* A connection to an IPv4 address no host can have: 0.0.0.0/8 ("this network": a listener's
 * wildcard, or a number misread as an address, "Retry to connect to 0.1.68.146:63314") or
 * 224.0.0.0 and above (multicast, reserved, broadcast). The address the job was given for
 * its peer is wrong; no network fault made the connection fail. */
static void unusable_peer(struct hlog_report *r)
{
	unsigned a, b, c, d;
	char end;
	if (r->cat != HCAT_NET || sscanf(r->ip, "%u.%u.%u.%u%c", &a, &b, &c, &d, &end) != 4 ||
	    a > 255 || b > 255 || c > 255 || d > 255 || (a != 0 && a < 224))
		return;
	struct sbuf sb = {r->cause, sizeof(r->cause), strlen(r->cause)};
	hlog__sb_add(&sb, "; %s is no host's address (%s)", r->ip,
		     a == 0 ? "0.0.0.0/8 is this network's" : "multicast or reserved");
	r->cat = HCAT_CONFIG;
	snprintf(r->detail, sizeof(r->detail), "unusable-peer-address");
	snprintf(r->fix, sizeof(r->fix), "%s",
		 "give the job its peer's (master's) real address: the one it was given is not a "
		 "host's (an empty or misparsed setting such as MASTER_ADDR or the launcher's "
		 "--master/--ips, or a listener's wildcard address passed on as a peer's)");
}

/* Rows that name a phase that failed, whose cause other lines may name: a wait that ran out
 * for a process gone elsewhere; Open MPI finding no transport between two processes, which
 * is what a transport that failed to start leaves ("The OpenFabrics (openib) BTL failed to
 * initialize while trying to allocate some locked memory" above it). */
static const struct {
	int cat;
	const char *detail;
} phases[] = {
	{HCAT_RANK_STUCK, "timeout-elsewhere"},
	{HCAT_CONFIG, "mpi-no-transport"},
};

int hlog__words_elsewhere(const struct hlog_report *r)
{
	for (size_t i = 0; i < sizeof(phases) / sizeof(phases[0]); i++)
		if (r->cat == phases[i].cat && !strcmp(r->detail, phases[i].detail))
			return 1;
	return 0;
}

/* The values the word line u (of family f, row row) names: its rank (or the one a wait was
 * for), device, the address, port and rank at its other end, from its own words or the lines
 * around it. */
static void words_values(struct hlog_report *r, const struct hlog_wordfam *f,
			 const struct hlog_unk *u, int row)
{
	struct hx_vals x;
	hlog__extract((struct pspan){u->text, strlen(u->text)}, &x);
	const struct hx_val *v;
	/* a death reported by another: the rank it names is the peer's, its prefix its own */
	int died = f->says & WF_SAYS_PEER_DIED;
	int waited = f->cat == HCAT_RANK_STUCK && !died ? named_rank(r, u, &x, 1u << HX_REMOTE) : -1;
	int sib, dead;
	const struct hlog_unk *kept = kept_unk(r, u);
	if (died && (dead = named_rank(r, u, &x, ~0u)) >= 0)
		r->peer_rank = dead;
	else if (died && kept && kept->below_rank >= 0)
		r->peer_rank = kept->below_rank;
	if (died)
		r->rank = u->rank;
	else if (waited >= 0)
		r->rank = waited;
	else if ((v = hlog__xfind(&x, HX_RANK, 1u << HX_ANY | 1u << HX_LOCAL)) && v->n >= 0 &&
		 v->n <= INT_MAX)
		r->rank = (int)v->n;
	else if (u->rank >= 0)
		r->rank = u->rank; /* its prefix's: "[rank8]:   File ..." */
	else if ((sib = sibling_rank(r, u, row)) >= 0)
		r->rank = sib;
	/* the device the line is about ("/hisi_logs/device-2/.../kbox.txt:2014[...] [Hardware
	 * Error] ...", "(PID:7, Device:2, RankID:-1)") */
	int had_dev = r->dev >= 0;
	if ((v = hlog__xfind(&x, HX_DEV, 1u << HX_ANY | 1u << HX_LOCAL)) && v->n >= 0 &&
	    v->n <= INT_MAX && !had_dev)
		r->dev = (int)v->n;
	/* else the one the command or heading above it names (nvidia-smi's "GPU 2: ..." over
	 * "NVML: Unable to retrieve NVLink information as all links are inActive") */
	if (r->dev < 0)
		r->dev = u->dev;
	if (!had_dev && r->dev >= 0 && !r->ndevs)
		r->devs[r->ndevs++] = r->dev;
	/* the address and port the line points at: the other end's where it says which end is
	 * which (a socket's own "addr=" comes first in c10d's lines), else the one it names */
	if ((v = hlog__xfind_peer(&x, HX_IP)))
		snprintf(r->ip, sizeof(r->ip), "%s", v->s);
	/* the rank at the other end, where the line says which one ("rank 2 unable to connect
	 * to rank 3 using business card <port=49491 ...>") */
	if ((v = hlog__xfind(&x, HX_RANK, 1u << HX_REMOTE)) && v->n >= 0 && v->n <= INT_MAX &&
	    v->n != r->rank)
		r->peer_rank = (int)v->n;
	long long port = -1; /* a form that reads no port leaves it */
	if (((v = hlog__xfind_peer(&x, HX_PORT)) && v->n >= 0 && v->n <= 65535) ||
	    (v = hlog__xfind_own_port(&x)))
		r->port = (int)v->n;
	else if (f->form && f->form((struct pspan){u->text, strlen(u->text)}, &port) &&
		 port >= 0 && port <= 65535)
		r->port = (int)port;
	/* a message that goes on under its line names the address there (see hlog_unk) */
	if (!r->ip[0] && kept && kept->below_ip[0]) {
		snprintf(r->ip, sizeof(r->ip), "%.*s", (int)sizeof(r->ip) - 1, kept->below_ip);
		if (r->port < 0 && kept->below_port >= 0)
			r->port = kept->below_port;
	}
	/* a message spread over a few lines names its peer on one of them: UCX's "connect(fd=34,
	 * dest_addr=HOST:35892) failed: Connection timed out" just above "ucp_ep_create(proc=95)
	 * failed: Destination is unreachable"; and the rank at the other end, a line or two
	 * on ("Failed to resolve UCX endpoint for rank 1" under "ibv_create_ah(... dgid=...)
	 * ... failed: Connection timed out") */
	int want_peer = f->cat == HCAT_NET || f->cat == HCAT_RANK_STUCK;
	size_t at = 0;
	for (const struct hlog_unk *n;
	     ((!r->ip[0] && r->port < 0) || (want_peer && r->peer_rank < 0)) &&
	     (n = next_near(r, u, -3, 3, &at));)
		if (n->line != u->line)
			hlog__take_values(r, n->text);
}

/* The word line u as the first evidence, the first keep lines of the evidence so far behind
 * it, no line twice. */
static void words_evidence(struct hlog_report *r, const struct hlog_unk *u, size_t keep)
{
	if (keep >= HLOG_MAX_EVIDENCE)
		keep = HLOG_MAX_EVIDENCE - 1;
	memmove(&r->evidence[1], &r->evidence[0], keep * sizeof(r->evidence[0]));
	r->nevidence = keep + 1;
	struct hlog_quote *q = &r->evidence[0];
	snprintf(q->file, sizeof(q->file), "%.*s", (int)sizeof(q->file) - 1, u->file);
	q->line = u->line;
	snprintf(q->text, sizeof(q->text), "%.*s", (int)sizeof(q->text) - 1, u->text);
	size_t n = 1;
	for (size_t i = 1; i < r->nevidence; i++)
		if (r->evidence[i].line != q->line || strcmp(r->evidence[i].file, q->file))
			r->evidence[n++] = r->evidence[i];
	r->nevidence = n;
}

int hlog__words_conclude(struct hlog_report *r)
{
	/* a failure code alone (nothing explains it, or only its number's meaning does): the
	 * words of its own lines may say more */
	int no_expl = !strcmp(r->detail, "no-explanation") || !strcmp(r->detail, "result-code");
	struct hlog_unk line;
	int row = best_line(r, no_expl, &line);
	if (row < 0)
		return 0;
	row = what_line(r, row, &line);
	struct hlog_wordfam fam;
	if (!hlog__word_family_row(row, &fam))
		return 0;
	/* a result code's meaning, or the knowledge base's family of a fault, is a claim; only
	 * words that name a kind of failure replace it, not the bare news that a process crashed
	 * or raised */
	/* so is a catalog row that names what failed but not why ("unresolved" with a detail
	 * of its own): a family that names a kind explains it, and its lines stay as evidence */
	int named = r->cat == HCAT_UNRESOLVED && strcmp(r->detail, "unclassified") &&
		    strcmp(r->detail, "no-explanation") && strcmp(r->detail, "result-code");
	/* and a wait whose cause is elsewhere, as a row reads it (a process of the job gone,
	 * what it waited for unnamed): only words that name a kind of fault say what that was,
	 * not another wait, the news of a crash or a peer out of reach (what a lost peer leaves
	 * behind it) */
	int elsewhere = hlog__words_elsewhere(r);
	if (elsewhere &&
	    (fam.cat == HCAT_RANK_STUCK || fam.cat == HCAT_UNRESOLVED || fam.cat == HCAT_NET))
		return 0;
	if ((!strcmp(r->detail, "result-code") || r->kind == HLOG_KB || named) &&
	    fam.cat == HCAT_UNRESOLVED)
		return 0;
	if ((no_expl || named || elsewhere) && fam.weak)
		return 0;
	const struct hlog_wordfam *f = &fam;
	const struct hlog_unk *u = &line;
	struct sbuf b = {r->cause, sizeof(r->cause), 0};
	r->cause[0] = '\0';
	r->kind = HLOG_WORDS;
	r->cat = f->cat;
	r->first = NULL;
	snprintf(r->detail, sizeof(r->detail), "words:%s", f->name);
	snprintf(r->node, sizeof(r->node), "%.*s", (int)sizeof(r->node) - 1,
		 u->node[0] ? u->node : "node0");
	snprintf(r->reported_on, sizeof(r->reported_on), "%s", r->node);
	hlog__sb_add(&b,
		     "%s on node %s (read from the words of %s:%u, a line no rule knows): %.300s",
		     f->what, r->node, u->file, u->line, u->text);
	snprintf(r->fix, sizeof(r->fix), "%s", f->fix);
	words_values(r, f, u, row);
	loopback_peer(r);
	unusable_peer(r);
	/* the failure code's own lines stay behind the word line that explains them */
	words_evidence(r, u, no_expl || named || elsewhere ? r->nevidence : 0);
	return 1;
}
