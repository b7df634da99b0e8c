/* The roll call: the lines in which a job's processes announce their rank as they start
 * (Lightning's "initializing ddp: GLOBAL_RANK: 1, MEMBER: 2/8", MPI's "I am process 0 of 2 on
 * nid200185", nccl-tests' "#   Rank  0 Pid   1320 on ip-172-31-20-228 device  0 [0x00] ...",
 * torch's "Waiting in store based barrier ... for rank: 2, ... (world_size=8, ...)").
 * They read as plain information, yet two failures show only in them:
 * - a rank claimed by two processes: the processes did not form one job but several (each
 *   node started ranks 0..k, or a test built without MPI ran one world of one rank per host).
 *   On two hosts at once that is a claim twice; lines that name no host count only when the
 *   world also lacks ranks, as a log printed twice would claim every rank twice;
 * - a log that stops in the roll call with ranks of the stated world never announced: the job
 *   waited at its start for processes that did not come.
 * Both are weighed only when no line of the logs reads as an error: they explain a job that
 * failed silently, never outrank what a line says. */
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "probes/logs/catalog.h"
#include "probes/logs/hlogcause.h"
#include "probes/logs/hlogint.h"
#include "probes/logs/logtext.h"

static int host_char(char c)
{
	return isalnum((unsigned char)c) || c == '-' || c == '_' || c == '.';
}

/* Digits at s[*i] (past spaces), at most 7; -1 when there are none. */
static long digits(struct pspan m, size_t *i)
{
	while (*i < m.n && m.s[*i] == ' ')
		(*i)++;
	long v = -1;
	for (int k = 0; *i < m.n && isdigit((unsigned char)m.s[*i]) && k < 7; k++, (*i)++)
		v = (v < 0 ? 0 : v * 10) + (m.s[*i] - '0');
	return *i < m.n && isdigit((unsigned char)m.s[*i]) ? -1 : v;
}

/* The host after " on " at m.s[i] (a few spaces allowed before it). */
static void host_on(struct pspan m, size_t i, char *host, size_t hostlen)
{
	struct pspan t = {m.s + i, m.n - i};
	size_t k = 0;
	while (k < t.n && t.s[k] == ' ' && k < 4)
		k++;
	if (t.n - k < 4 || strncmp(t.s + k, "on ", 3))
		return;
	k += 3;
	while (k < t.n && t.s[k] == ' ')
		k++;
	size_t h = 0;
	while (k + h < t.n && host_char(t.s[k + h]) && h + 1 < hostlen)
		h++;
	while (h && t.s[k + h - 1] == '.') /* the sentence's full stop */
		h--;
	memcpy(host, t.s + k, h);
	host[h] = '\0';
}

/* "rank R of N" or "process R of N", the word at a word's start. */
static int of_form(struct pspan m, unsigned forms, int *rank, int *world, char *host,
		   size_t hostlen)
{
	static const char *const words[] = {"rank ", "process "};
	static const unsigned need[] = {HLOG_ROLL_RANK, HLOG_ROLL_PROCESS};
	for (size_t w = 0; w < sizeof(words) / sizeof(words[0]); w++) {
		size_t wl = strlen(words[w]);
		if (!(forms & need[w]))
			continue;
		/* the first few occurrences: a line of thousands of them stays a line's work */
		int tries = 8;
		for (const char *p = hlog__find_nocase(m, words[w]); p && tries--;) {
			size_t i = (size_t)(p - m.s) + wl;
			long r = -1, n = -1;
			if ((p == m.s || !hlog__word_char(p[-1])) && (r = digits(m, &i)) >= 0 &&
			    i + 4 <= m.n && !strncmp(m.s + i, " of ", 4)) {
				i += 4;
				n = digits(m, &i);
			}
			if (r >= 0 && n > r) {
				*rank = (int)r;
				*world = (int)n;
				host_on(m, i, host, hostlen);
				return 1;
			}
			struct pspan rest = {p + 1, m.n - (size_t)(p + 1 - m.s)};
			p = hlog__find_nocase(rest, words[w]);
		}
	}
	return 0;
}

/* claim_of's answer for a line its process prints again while it waits (torch's store
 * barrier, every ten seconds until the others arrive): the same rank twice is then one
 * process, not two */
#define CLAIM_REPEATS 2

/* Whether m announces a rank (1, or CLAIM_REPEATS), and which: its rank, the world it states
 * (0: none) and the host it names (""). */
static int claim_of(struct pspan m, unsigned forms, int *rank, int *world, char *host,
		    size_t hostlen)
{
	host[0] = '\0';
	*world = 0;
	const char *g = forms & HLOG_ROLL_GLOBAL ? hlog__find(m, "GLOBAL_RANK:") : NULL;
	if (g) {
		struct pspan t = {g + 12, m.n - (size_t)(g + 12 - m.s)};
		size_t i = 0;
		long r = digits(t, &i);
		const char *mem = hlog__find(t, "MEMBER:");
		if (r < 0 || !mem)
			return 0;
		struct pspan u = {mem + 7, t.n - (size_t)(mem + 7 - t.s)};
		i = 0;
		long k = digits(u, &i), n = -1;
		if (k > 0 && i < u.n && u.s[i] == '/') {
			i++;
			n = digits(u, &i);
		}
		if (n <= r)
			return 0;
		*rank = (int)r;
		*world = (int)n;
		return 1;
	}
	if (of_form(m, forms, rank, world, host, hostlen))
		return 1;
	/* torch's store barrier, each rank as it arrives: "Waiting in store based barrier to
	 * initialize process group for rank: 2, key: store_based_barrier_key:2 (world_size=8,
	 * worker_count=7, timeout=0:30:00)" */
	const char *b = forms & HLOG_ROLL_BARRIER ? hlog__find(m, "for rank:") : NULL;
	const char *ws = b ? hlog__find(m, "world_size=") : NULL;
	if (ws && hlog__find(m, "Waiting in store based barrier")) {
		size_t i = (size_t)(b - m.s) + 9, j = (size_t)(ws - m.s) + 11;
		long r = digits(m, &i), n = digits(m, &j);
		if (r >= 0 && n > r) {
			*rank = (int)r;
			*world = (int)n;
			return CLAIM_REPEATS;
		}
	}
	/* nccl-tests' table of its ranks: "#  Rank  R [Group G] Pid P on HOST device D ...";
	 * pages that show it often lose the '#', and then the line starts with "Rank" and names
	 * its Pid */
	size_t lead = 0, i = 0;
	while (lead < m.n && lead < 4 && m.s[lead] == ' ')
		lead++;
	if (!(forms & HLOG_ROLL_RANK) || !hlog__find(m, " device "))
		return 0;
	const char *rk = m.n && m.s[0] == '#' ? hlog__find(m, " Rank ") : NULL;
	if (rk)
		i = (size_t)(rk - m.s) + 6;
	else if (m.n - lead > 5 && !strncmp(m.s + lead, "Rank ", 5) && hlog__find(m, " Pid "))
		i = lead + 5;
	else
		return 0;
	long r = digits(m, &i);
	const char *on = r >= 0 ? hlog__find((struct pspan){m.s + i, m.n - i}, " on ") : NULL;
	if (!on)
		return 0;
	*rank = (int)r;
	host_on(m, (size_t)(on - m.s) + 1, host, hostlen);
	return host[0] != '\0';
}

static void quote(struct hlog_quote *q, const char *name, unsigned no, struct pspan line)
{
	snprintf(q->file, sizeof(q->file), "%s", name);
	q->line = no;
	probe__copy(q->text, sizeof(q->text), line);
}

static int bit(const unsigned char *set, int rank)
{
	return (set[rank / 8] >> (rank % 8)) & 1;
}

/* The same announcement logged twice by one process, once with a label more: Lightning's
 * "INFO: initializing deepspeed distributed: GLOBAL_RANK: 5, MEMBER: 6/16" and the same
 * words without "INFO: " on the next line (its logger and its print). The lines end alike,
 * and what is left of one is what is left of the other with a chunk of no digits after it. */
static bool echoed(struct pspan a, struct pspan b)
{
	size_t l = 0;
	while (l < a.n && l < b.n && a.s[a.n - 1 - l] == b.s[b.n - 1 - l])
		l++;
	struct pspan ha = {a.s, a.n - l}, hb = {b.s, b.n - l};
	if (ha.n < hb.n) {
		struct pspan t = ha;
		ha = hb;
		hb = t;
	}
	if (!l || ha.n == hb.n || memcmp(ha.s, hb.s, hb.n))
		return false;
	for (size_t k = hb.n; k < ha.n; k++)
		if (isdigit((unsigned char)ha.s[k]))
			return false;
	return true;
}

static bool echo_of_recent(const struct hlog_roster_scan *s, int rank, struct pspan line)
{
	for (size_t k = 0; k < HLOG_ROSTER_RECENT; k++)
		if (s->recent[k].no && s->recent[k].rank == rank && !s->recent[k].host[0] &&
		    echoed(s->recent[k].line, line))
			return true;
	return false;
}

void hlog__roster_line(struct hlog_roster_scan *s, struct hlog_report *r, const char *name,
		       const char *node, unsigned no, struct pspan line, unsigned forms)
{
	int rank, world;
	char host[HLOG_IPLEN];
	int kind = claim_of(line, forms, &rank, &world, host, sizeof(host));
	if (!kind || rank >= HLOG_ROSTER_RANKS)
		return;
	struct hlog_roster *o = &r->roster;
	if (world)
		o->world = !o->world || o->world == world ? world : -1;
	s->last_no = no;
	s->any = 1;
	int again = bit(s->claimed, rank);
	s->claimed[rank / 8] |= (unsigned char)(1u << (rank % 8));
	o->claimed[rank / 8] |= (unsigned char)(1u << (rank % 8));
	/* a claim on another host among the last few: two processes hold one rank at once */
	for (size_t k = 0; k < HLOG_ROSTER_RECENT && (o->dup_rank < 0 || o->dup_anon) && host[0];
	     k++) {
		const struct hlog_claim *c = &s->recent[k];
		if (c->no && c->rank == rank && c->host[0] && strcmp(c->host, host)) {
			o->dup_rank = rank;
			o->dup_anon = 0;
			snprintf(o->dup_host[0], sizeof(o->dup_host[0]), "%s", c->host);
			snprintf(o->dup_host[1], sizeof(o->dup_host[1]), "%s", host);
			quote(&o->dup[0], name, c->no, c->line);
			quote(&o->dup[1], name, no, line);
			snprintf(o->dup_node, sizeof(o->dup_node), "%s", node ? node : "");
		}
	}
	if (again && kind != CLAIM_REPEATS && !host[0] && o->dup_rank < 0 &&
	    !echo_of_recent(s, rank, line)) {
		o->dup_rank = rank;
		o->dup_anon = 1;
		memset(&o->dup[0], 0, sizeof(o->dup[0])); /* quoted when still among the last few */
		for (size_t k = 0; k < HLOG_ROSTER_RECENT; k++)
			if (s->recent[k].no && s->recent[k].rank == rank && !s->recent[k].host[0])
				quote(&o->dup[0], name, s->recent[k].no, s->recent[k].line);
		quote(&o->dup[1], name, no, line);
		snprintf(o->dup_node, sizeof(o->dup_node), "%s", node ? node : "");
	}
	struct hlog_claim *c = &s->recent[s->next++ % HLOG_ROSTER_RECENT];
	c->no = no;
	c->rank = rank;
	c->line = line;
	snprintf(c->host, sizeof(c->host), "%s", host);
}

void hlog__roster_end(struct hlog_roster_scan *s, struct hlog_report *r, const char *name,
		      const char *node, unsigned last_no, struct pspan last)
{
	if (!s->any)
		return;
	struct hlog_roster *o = &r->roster;
	o->files++;
	if (s->last_no != last_no)
		return;
	o->ends++;
	quote(&o->last, name, last_no, last);
	snprintf(o->last_node, sizeof(o->last_node), "%s", node ? node : "");
}

void hlog__roster_append(struct hlog_roster *o, const struct hlog_roster *p)
{
	if (p->world)
		o->world = !o->world || o->world == p->world ? p->world : -1;
	for (size_t i = 0; i < sizeof(o->claimed); i++)
		o->claimed[i] |= p->claimed[i];
	/* two hosts' claims say more than claims that name none */
	if (p->dup_rank >= 0 && (o->dup_rank < 0 || (o->dup_anon && !p->dup_anon))) {
		o->dup_rank = p->dup_rank;
		o->dup_anon = p->dup_anon;
		o->dup[0] = p->dup[0];
		o->dup[1] = p->dup[1];
		memcpy(o->dup_host, p->dup_host, sizeof(o->dup_host));
		memcpy(o->dup_node, p->dup_node, sizeof(o->dup_node));
	}
	if (p->ends && !o->ends) {
		o->last = p->last;
		memcpy(o->last_node, p->last_node, sizeof(o->last_node));
	}
	o->files += p->files;
	o->ends += p->ends;
}

/* The ranks below the world no claim named: how many, and the first few into b. */
static int missing(const struct hlog_roster *o, struct sbuf *b)
{
	int n = 0;
	for (int k = 0; o->world > 0 && k < o->world && k < HLOG_ROSTER_RANKS; k++) {
		if (bit(o->claimed, k))
			continue;
		if (b && n < 8)
			sb_add(b, "%s%d", n ? ", " : "", k);
		else if (b && n == 8)
			sb_add(b, ", ...");
		n++;
	}
	return n;
}

static void add_quote(struct hlog_report *r, const struct hlog_quote *q)
{
	if (r->nevidence < HLOG_MAX_EVIDENCE && q->line)
		r->evidence[r->nevidence++] = *q;
}

static void verdict(struct hlog_report *r, int cat, const char *detail, const char *node,
		    const char *fix)
{
	snprintf(r->node, sizeof(r->node), "%s", node);
	r->kind = HLOG_ROSTER;
	hlog__set_what(r, cat, detail);
	hlog__set_fix(r, fix);
}

int hlog__roster_conclude(struct hlog_report *r)
{
	const struct hlog_roster *o = &r->roster;
	struct sbuf b = {r->cause, sizeof(r->cause), 0};
	int lack = missing(o, NULL);
	if (o->dup_rank >= 0 && (!o->dup_anon || lack)) {
		r->cause[0] = '\0';
		sb_add(&b, "rank %d was announced by two processes", o->dup_rank);
		if (!o->dup_anon)
			sb_add(&b, ", on %s and on %s", o->dup_host[0], o->dup_host[1]);
		sb_add(&b, " (");
		if (o->dup[0].line)
			sb_add(&b, "%s:%u and ", o->dup[0].file, o->dup[0].line);
		sb_add(&b, "%s:%u)", o->dup[1].file, o->dup[1].line);
		if (lack) {
			sb_add(&b, " while rank%s ", lack == 1 ? "" : "s");
			missing(o, &b);
			sb_add(&b, " of the world of %d never were", o->world);
		}
		sb_add(&b, ": the processes did not form one job but several, each numbering its "
			   "ranks from 0");
		r->rank = o->dup_rank;
		verdict(r, HCAT_CONFIG, "duplicate-rank", o->dup_node,
			"give every process its own rank: start each node with its node rank "
			"(--node_rank, NODE_RANK, SLURM_NODEID) and the whole world size, let "
			"the launcher hand out the ranks (srun --mpi=pmix, mpirun), and build MPI "
			"test programs with MPI (nccl-tests: make MPI=1)");
		add_quote(r, &o->dup[0]);
		add_quote(r, &o->dup[1]);
		return 1;
	}
	if (o->world > 0 && lack && o->files && o->ends == o->files) {
		r->cause[0] = '\0';
		sb_add(&b,
		       "the log stops while the ranks gather: %d of the %d rank%s of the world "
		       "announced %s, and rank%s ",
		       o->world - lack, o->world, o->world == 1 ? "" : "s",
		       o->world - lack == 1 ? "itself" : "themselves", lack == 1 ? "" : "s");
		missing(o, &b);
		sb_add(&b,
		       " never did: the job waits at its start for processes that did not come");
		verdict(r, HCAT_RANK_STUCK, "world-incomplete", o->last_node,
			"find why the missing ranks did not start: their node's launcher "
			"output (srun, the scheduler's events, a pod still pending), the "
			"nodes and tasks the job asked for against those it got, and the "
			"logs of those nodes");
		add_quote(r, &o->last);
		return 1;
	}
	return 0;
}
