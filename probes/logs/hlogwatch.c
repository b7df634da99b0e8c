/* PyTorch's collective watchdog, as torch_npu (ProcessGroupHCCL, "WorkHCCL") and PyTorch itself
 * (ProcessGroupNCCL, "WorkNCCL") print it: a work (one collective, numbered per process
 * group) that did not complete within the group's timeout. Often the only lines a training job
 * leaves when a rank stops, since the backend itself may never fail.
 *
 * The reasoning rests on one fact: a collective completes on no rank until every rank of the
 * group has entered it. So every rank that timed out in work S had entered S (it queued it),
 * and the rank holding S up is one that never did: a rank that wrote to the log but reported
 * no timeout is the one; if every rank seen timed out, it is one whose log is not here. Ranks
 * that timed out in the same work but in a different collective or size issued different
 * calls at the same point (a desync), which no rank can recover from. Works of different
 * process groups are numbered apart, so sequence numbers are compared only when each rank
 * names one. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probes/npu/hcclcodes.h"
#include "probes/logs/hlogint.h"
#include "probes/logs/logtext.h"
#include "ranktable/base/plural.h"

#define MAX_REP 512 /* ranks compared; more are counted, not compared */

static long long ll_after(struct pspan m, const char *key)
{
	struct pspan a = hlog__after(m, key);
	long long v;
	return a.s && hlog__num_at(a, &v) && v >= 0 ? v : -1;
}

/* "[PG 1 Rank 0]", "[PG ID 0 PG GUID 0(default_pg) Rank 1]", "[Rank 5]": the process group
 * and the rank within it, from the first such tag. */
static void pg_rank(struct pspan m, struct hlog_work *w)
{
	int id;
	const char *pg = hlog__find(m, "[PG ");
	if (pg) {
		struct pspan t = {pg, m.n - (size_t)(pg - m.s)};
		if (hlog__int_after(t, "[PG ID", &id) || hlog__int_after(t, "[PG", &id))
			snprintf(w->pg, sizeof(w->pg), "PG %d", id);
		const char *close = memchr(t.s, ']', t.n);
		struct pspan in = {t.s, close ? (size_t)(close - t.s) : t.n};
		if (hlog__int_after(in, " Rank", &id))
			w->pg_rank = id;
		return;
	}
	if (hlog__int_after(m, "[Rank", &id))
		w->pg_rank = id;
}

int hlog__watchdog_line(struct pspan m, const struct hlog_line *l, struct hlog_event *e,
			int notes)
{
	struct hlog_work *w = &e->work;
	/* the report, or its tail where a terminal or a paste wrapped the line before the work
	 * ("WorkNCCL(SeqNum=2059, OpType=ALLGATHER, Timeout(ms)=1800000) ran for 1801398") */
	if (hlog__has(m, "Watchdog caught collective operation timeout") ||
	    ((probe__starts(m, "WorkNCCL(SeqNum=") || probe__starts(m, "WorkHCCL(SeqNum=")) &&
	     hlog__has(m, ") ran for "))) {
		e->kind = HLOG_WATCHDOG;
		/* the work's own tag, not the one of the exception that carries it */
		struct pspan at = hlog__after(m, "Watchdog caught");
		const char *tag = at.s ? at.s : m.s;
		while (tag > m.s && *tag != '[')
			tag--;
		pg_rank((struct pspan){tag, m.n - (size_t)(tag - m.s)}, w);
		if (!w->pg[0])
			pg_rank(m, w);
		w->seq = ll_after(m, "SeqNum");
		w->numel = ll_after(m, "NumelIn");
		w->timeout_ms = ll_after(m, "Timeout(ms)");
		w->ran_ms = ll_after(m, "ran for");
		hlog__name_after(m, "OpType=", e->op, sizeof(e->op));
		snprintf(e->detail, sizeof(e->detail), "%s",
			 hlog__has(m, "WorkHCCL") ? "HCCL" : hlog__has(m, "WorkNCCL") ? "NCCL" : "");
	} else if (hlog__has(m, "last enqueued") && hlog__has(m, "work:")) {
		/* "... detected by watchdog at work: 1580, last enqueued NCCL work: 1582, last
		 * completed NCCL work: 1579." and "Timeout at NCCL work: 158046, last ..." */
		e->kind = HLOG_WATCHDOG;
		e->sub = HLOG_SUB_WD_STATE;
		pg_rank(m, w);
		w->seq = ll_after(m, "work:");
		struct pspan enq = hlog__after(m, "last enqueued");
		struct pspan done = hlog__after(m, "last completed");
		if (enq.s)
			w->enq = ll_after(enq, "work:");
		if (done.s)
			w->done = ll_after(done, "work:");
	} else if (hlog__has(m, "watchdog got stuck for") ||
		   hlog__has(m, "Heartbeat monitor timed out")) {
		/* the heartbeat monitor's own line ("[PG 0 Rank 3] Heartbeat monitor timed out!
		 * Process will be terminated after dumping debug info.") says the same as the
		 * exit message it is followed by, without the seconds */
		e->kind = HLOG_WATCHDOG;
		e->sub = HLOG_SUB_WD_HANG;
		pg_rank(m, w);
		long long s = ll_after(m, "stuck for");
		w->ran_ms = s >= 0 ? s * 1000 : -1;
	} else if (!notes) {
		return 0;
	} else if (hlog__has(m, "operations have failed or timed out") ||
		   hlog__has(m, "taking the entire process down") ||
		   hlog__has(m, "watchdog thread terminated with exception") ||
		   hlog__has(m, "Exception raised from checkTimeout")) {
		e->kind = HLOG_WATCHDOG;
		e->sub = HLOG_SUB_WD_NOTE;
		e->cat = HCAT_NONE;
		/* the watchdog died of another exception than a timeout ("terminated with
		 * exception: CUDA error: uncorrectable ECC error encountered"): a failure whose
		 * words say what it was, which a failure code's reading then takes */
		struct pspan exc = hlog__after(m, "terminated with exception");
		if (exc.s && !hlog__has_nocase(exc, "time"))
			e->cat = HCAT_UNRESOLVED;
		pg_rank(m, w);
	} else {
		return 0;
	}
	/* the launcher's prefix ("[rank3]:") is the job's rank; the watchdog's own is the rank
	 * within its group, the same for the default group */
	e->rank = l->rank >= 0 ? l->rank : w->pg_rank;
	if (e->sub != HLOG_SUB_WD_NOTE)
		e->cat = HCAT_RANK_STUCK;
	return 1;
}

/* ---- reasoning ---- */

struct rep {
	int rank;
	const struct hlog_event *e, *state; /* its (earliest) timeout, and its state line */
	long long seq;
	int nseq; /* distinct works it timed out in */
};

static int int_cmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

/* "0-3, 5 and 7" for ranks v[n] (sorted here): runs of three or more as a range, at most
 * eight items. */
static void ranks_text(struct sbuf *b, int *v, size_t n)
{
	qsort(v, n, sizeof(*v), int_cmp);
	int lo[9], hi[9];
	size_t items = 0, i = 0;
	while (i < n && items < 9) {
		size_t j = i;
		while (j + 1 < n && v[j + 1] == v[j] + 1)
			j++;
		if (j < i + 2)
			j = i; /* two in a row read better as "4 and 5" */
		lo[items] = v[i];
		hi[items++] = v[j];
		i = j + 1;
	}
	int more = i < n || items > 8;
	if (items > 8)
		items = 8;
	for (size_t k = 0; k < items; k++) {
		hlog__sb_add(b, "%s", !k ? "" : k + 1 == items && !more ? " and " : ", ");
		if (lo[k] == hi[k])
			hlog__sb_add(b, "%d", lo[k]);
		else
			hlog__sb_add(b, "%d-%d", lo[k], hi[k]);
	}
	if (more)
		hlog__sb_add(b, ", ...");
}

/* Ops whose NumelIn is the same on every rank of a correct call. */
static int same_size_op(const char *op)
{
	static const char *const ops[] = {"ALLREDUCE", "BROADCAST", "REDUCE", "ALLGATHER",
					  "_ALLGATHER_BASE", "REDUCE_SCATTER",
					  "_REDUCE_SCATTER_BASE", "COALESCED"};
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (!strcmp(op, ops[i]))
			return 1;
	return 0;
}

static const char *node_of_rank(const struct hlog_report *r, int rank)
{
	for (size_t i = 0; i < r->nev; i++)
		if (r->ev[i].rank == rank && !r->ev[i].group[0] && r->ev[i].node[0])
			return r->ev[i].node;
	for (size_t i = 0; i < r->nfile; i++)
		if (r->file[i].rank == rank)
			return r->file[i].node;
	/* only a prefix named it: its node is known when every file is of one node */
	for (size_t i = 1; i < r->nfile; i++)
		if (strcmp(r->file[i].node, r->file[0].node))
			return "";
	return r->nfile ? r->file[0].node : "";
}

static void what(struct hlog_report *r, int cat, const char *detail)
{
	r->cat = cat;
	snprintf(r->detail, sizeof(r->detail), "%s", detail);
}

static void waited(struct sbuf *b, const struct rep *a)
{
	const struct hlog_work *w = &a->e->work;
	if (a->e->op[0])
		hlog__sb_add(b, " in %s", a->e->op);
	hlog__sb_add(b, " #%lld", a->seq);
	if (w->pg[0])
		hlog__sb_add(b, " of process group %s", w->pg + 3);
	else if (a->state && a->state->work.pg[0])
		hlog__sb_add(b, " of process group %s", a->state->work.pg + 3);
	long long t = w->ran_ms >= 0 ? w->ran_ms : w->timeout_ms;
	if (t >= 1000)
		hlog__sb_add(b, " after %lld s", t / 1000);
	else if (t >= 0)
		hlog__sb_add(b, " after %lld ms", t);
}

static const char desync_fix[] =
	"make every rank call the same collectives with the same sizes in the same order: look "
	"for a rank-dependent branch, uneven batches or sequence lengths, a part of the model "
	"some ranks skip; TORCH_DISTRIBUTED_DEBUG=DETAIL checks each call across ranks";

static const char watch_fix[] =
	"find what the rank holding the collective up was doing when the others entered it: its "
	"last log lines and its stack (py-spy dump --pid PID); a checkpoint save, an evaluation or "
	"data loading on one rank only, uneven data, or a crash; raise the timeout "
	"(init_process_group(timeout=...)) only if that work is long on purpose";

static int conclude_hang(struct hlog_report *r, const struct hlog_event *h)
{
	struct sbuf b = {r->cause, sizeof(r->cause), 0};
	r->kind = HLOG_WATCHDOG;
	r->first = h;
	r->rank = h->rank;
	snprintf(r->node, sizeof(r->node), "%s", h->node);
	hlog__sb_add(&b, "the collective watchdog of rank %d", h->rank);
	if (h->node[0])
		hlog__sb_add(&b, " (node %s)", h->node);
	hlog__sb_add(&b, " was itself blocked");
	if (h->work.ran_ms >= 0)
		hlog__sb_add(&b, " for %lld s", h->work.ran_ms / 1000);
	hlog__sb_add(&b, ": a call into the device runtime or the collective library hangs on "
			 "that rank (a device fault, a driver hang, a thread holding a lock the "
			 "watchdog needs)");
	what(r, HCAT_RANK_STUCK, "watchdog-hang");
	snprintf(r->fix, sizeof(r->fix), "%s",
		 "dump that rank's threads (py-spy dump --native --pid PID, or gdb) to see the "
		 "call that hangs; check the device's health and the kernel log on its node");
	hlog__evidence(r, h);
	return 1;
}

/* The process group a rank's timeout names, on its own line or on its state line. */
static const char *rep_pg(const struct rep *x)
{
	return x->e->work.pg[0] ? x->e->work.pg : x->state ? x->state->work.pg : "";
}

/* Two ranks of one process group whose works went separate ways: rank b completed work S (its
 * state line says so) in which rank a still waits. No work completes until every rank of the
 * group entered it, so b's S was another call than a's: the ranks issue different sequences of
 * collectives ("Rank 0 ... SeqNum=122, _REDUCE_SCATTER_BASE", "Rank 1 ... SeqNum=126,
 * _ALLGATHER_BASE", "... Rank 1] ... last completed NCCL work: 125"). */
static int diverged(const struct rep *rep, size_t n, size_t *ia, size_t *ib)
{
	for (size_t a = 0; a < n; a++)
		for (size_t b = 0; b < n; b++)
			if (a != b && rep[b].state && rep[b].state->work.done >= rep[a].seq &&
			    rep[a].seq >= 0 && rep_pg(&rep[a])[0] &&
			    !strcmp(rep_pg(&rep[a]), rep_pg(&rep[b]))) {
				*ia = a;
				*ib = b;
				return 1;
			}
	return 0;
}

/* The watchdog's timeout reports of a log, one per rank (its earliest work), and its blocked
 * watchdogs. */
struct seen {
	struct rep *rep;
	size_t n, unranked;		/* reports by rank; reports with no rank */
	const struct hlog_event *hang;	/* the first blocked-watchdog line */
	const struct hlog_event **hung; /* each rank's first blocked-watchdog line */
};

static void seen_free(struct seen *s)
{
	free(s->rep);
	free(s->hung);
}

/* One rank's timeout of work seq, as its report or its state line ("detected by watchdog at
 * work: S", a timeout report too when its rank's own line is not in the log). */
static void seen_timeout(struct seen *s, const struct hlog_event *e, int state)
{
	size_t k = 0;
	while (k < s->n && s->rep[k].rank != e->rank)
		k++;
	if (k == s->n) {
		if (s->n < MAX_REP)
			s->rep[s->n++] = (struct rep){e->rank, e, state ? e : NULL, e->work.seq, 1};
	} else if (state) {
		if (s->rep[k].seq == e->work.seq && !s->rep[k].state)
			s->rep[k].state = e;
	} else if (s->rep[k].seq != e->work.seq) {
		s->rep[k].nseq++;
		if (e->work.seq < s->rep[k].seq) {
			s->rep[k].seq = e->work.seq;
			s->rep[k].e = e;
		}
	}
}

/* 0 when out of memory */
static int seen_read(const struct hlog_report *r, struct seen *s)
{
	*s = (struct seen){calloc(MAX_REP, sizeof(*s->rep)), 0, 0, NULL,
			   calloc(HLOG_SEEN_RANKS, sizeof(*s->hung))};
	if (!s->rep || !s->hung) {
		seen_free(s);
		return 0;
	}
	for (size_t i = 0; i < r->nev; i++) {
		const struct hlog_event *e = &r->ev[i];
		if (e->kind != HLOG_WATCHDOG)
			continue;
		if (e->sub == HLOG_SUB_WD_HANG && !s->hang)
			s->hang = e;
		if (e->sub == HLOG_SUB_WD_HANG && e->rank >= 0 && e->rank < HLOG_SEEN_RANKS &&
		    !s->hung[e->rank])
			s->hung[e->rank] = e;
		if (e->sub != HLOG_SUB_NONE || e->work.seq < 0)
			continue;
		if (e->rank < 0)
			s->unranked++;
		else
			seen_timeout(s, e, 0);
	}
	for (size_t i = 0; i < r->nev; i++) {
		const struct hlog_event *e = &r->ev[i];
		if (e->kind == HLOG_WATCHDOG && e->sub == HLOG_SUB_WD_STATE && e->work.seq >= 0 &&
		    e->rank >= 0)
			seen_timeout(s, e, 1);
	}
	return 1;
}

/* A desync: a rank that timed out in the same work as the first, in another collective or
 * with another size; NULL for none. */
static const struct rep *desync_of(const struct rep *rep, size_t n)
{
	const struct rep *a = &rep[0];
	for (size_t k = 1; k < n; k++) {
		const struct hlog_event *x = rep[k].e;
		if (a->e->op[0] && x->op[0] && strcmp(a->e->op, x->op))
			return &rep[k];
		if (a->e->op[0] && !strcmp(a->e->op, x->op) && same_size_op(x->op) &&
		    a->e->work.numel >= 0 && x->work.numel >= 0 && a->e->work.numel != x->work.numel)
			return &rep[k];
	}
	return NULL;
}

/* A report with no rank (a wrapped line, a rank-less paste) that timed out in a's work in
 * another collective: a desync as well, its rank unknown; NULL for none. */
static const struct hlog_event *desync_unranked(const struct hlog_report *r, const struct rep *a)
{
	for (size_t i = 0; a->e->op[0] && i < r->nev; i++) {
		const struct hlog_event *e = &r->ev[i];
		if (e->kind == HLOG_WATCHDOG && e->sub == HLOG_SUB_NONE && e->rank < 0 &&
		    e->work.seq == a->seq && e->op[0] && strcmp(e->op, a->e->op))
			return e;
	}
	return NULL;
}

/* The ranks seen in the logs that did not time out, into miss; their count. */
static size_t missing_ranks(const struct hlog_report *r, const struct seen *s, int *miss)
{
	size_t nmiss = 0;
	for (int q = 0; q < HLOG_SEEN_RANKS; q++) {
		if (!(r->seen_rank[q / 8] & (1u << (q % 8))))
			continue;
		int in = 0;
		for (size_t k = 0; k < s->n && !in; k++)
			in = s->rep[k].rank == q;
		if (!in)
			miss[nmiss++] = q;
	}
	return nmiss;
}

static void say_desync(struct hlog_report *r, struct sbuf *b, const struct rep *a,
		       const struct rep *d)
{
	hlog__sb_add(b, "rank %d and ", a->rank);
	if (d->rank >= 0)
		hlog__sb_add(b, "rank %d", d->rank);
	else
		hlog__sb_add(b, "a rank its line does not name");
	hlog__sb_add(b, " timed out in the same collective (#%lld) but called different ones: %s",
		     a->seq, a->e->op);
	if (a->e->work.numel >= 0)
		hlog__sb_add(b, " of %lld elements", a->e->work.numel);
	hlog__sb_add(b, " against %s", d->e->op);
	if (d->e->work.numel >= 0)
		hlog__sb_add(b, " of %lld elements", d->e->work.numel);
	hlog__sb_add(b, ": the ranks issue different collectives or sizes at the same point, so "
			"neither call can complete");
	r->rank = d->rank;
	r->peer_rank = a->rank;
	what(r, HCAT_OP_MISMATCH, "collective-desync");
	snprintf(r->fix, sizeof(r->fix), "%s", desync_fix);
	hlog__evidence(r, a->e);
	hlog__evidence(r, d->e);
}

/* Ranks miss[nmiss] wrote to the logs but did not time out, while ranks who[n] did. A rank
 * whose watchdog was blocked could not even time out: it is stuck in a call on its device,
 * which is why it never finished the collective; those come first, and alone. */
static void say_missing(struct hlog_report *r, struct sbuf *b, const struct seen *s, int *miss,
			size_t nmiss, int *who)
{
	const struct rep *a = &s->rep[0];
	size_t nhung = 0;
	const struct hlog_event *h1 = NULL;
	for (size_t k = 0; k < nmiss; k++) {
		const struct hlog_event *h = s->hung[miss[k]];
		if (h) {
			int t = miss[nhung];
			miss[nhung++] = miss[k];
			miss[k] = t;
			h1 = h1 ? h1 : h;
		}
	}
	if (nhung)
		nmiss = nhung;
	hlog__sb_add(b, "rank%s ", plural_s(nmiss));
	ranks_text(b, miss, nmiss);
	hlog__sb_add(b, " wrote to these logs but did not time out, while rank%s ", plural_s(s->n));
	ranks_text(b, who, s->n);
	hlog__sb_add(b, " timed out");
	waited(b, a);
	if (nhung)
		hlog__sb_add(b, ": the watchdog of %s was itself blocked (a call into the device "
				"runtime or the collective library hangs there), so %s the rank%s "
				"the others wait for",
			     nmiss == 1 ? "that rank" : "those ranks", nmiss == 1 ? "it is" : "they are",
			     plural_s(nmiss));
	else
		hlog__sb_add(b, ": %s never entered that collective, and %s the rank%s the "
				"others wait for",
			     nmiss == 1 ? "it" : "they", nmiss == 1 ? "it is" : "they are",
			     plural_s(nmiss));
	r->rank = miss[0];
	snprintf(r->node, sizeof(r->node), "%s", node_of_rank(r, miss[0]));
	what(r, HCAT_RANK_STUCK, nhung ? "watchdog-hang" : "not-in-collective");
	snprintf(r->fix, sizeof(r->fix), "%s",
		 nhung ? "dump the threads of the blocked rank (py-spy dump --native --pid PID, or "
			 "gdb) to see the call that hangs; check its device's health and the "
			 "kernel log of its node"
		       : watch_fix);
	hlog__evidence(r, a->e);
	hlog__evidence(r, h1);
	hlog__evidence(r, a->state);
}

/* rep[kb] completed the work rep[ka] still waits in */
static void say_diverged(struct hlog_report *r, struct sbuf *b, const struct rep *rep, size_t ka,
			 size_t kb)
{
	hlog__sb_add(b, "rank %d completed collective #%lld of %s, which rank %d still waits in "
			"(%s): the ranks issued different sequences of collectives",
		     rep[kb].rank, rep[ka].seq, rep_pg(&rep[ka]), rep[ka].rank,
		     rep[ka].e->op[0] ? rep[ka].e->op : "its call");
	if (rep[kb].e->op[0])
		hlog__sb_add(b, ", and rank %d timed out later, in #%lld (%s)", rep[kb].rank,
			     rep[kb].seq, rep[kb].e->op);
	r->rank = rep[ka].rank;
	r->peer_rank = rep[kb].rank;
	what(r, HCAT_OP_MISMATCH, "collective-desync");
	snprintf(r->fix, sizeof(r->fix), "%s", desync_fix);
	hlog__evidence(r, rep[ka].e);
	hlog__evidence(r, rep[kb].e);
	hlog__evidence(r, rep[kb].state);
}

/* ranks that timed out in works of different numbers, none completing another's */
static void say_mixed(struct hlog_report *r, struct sbuf *b, const struct rep *rep, size_t n)
{
	hlog__sb_add(b, "%zu rank%s timed out in collectives of different numbers (", n,
		     plural_s(n));
	for (size_t k = 0; k < n && k < 4; k++) {
		hlog__sb_add(b, "%srank %d", k ? ", " : "", rep[k].rank);
		waited(b, &rep[k]);
	}
	hlog__sb_add(b, "%s): several process groups, or ranks that went separate ways; the rank "
			"holding them up did not report here",
		     n > 4 ? ", ..." : "");
	what(r, HCAT_RANK_STUCK, "timeout-elsewhere");
	snprintf(r->fix, sizeof(r->fix), "%s", watch_fix);
	hlog__evidence(r, rep[0].e);
	for (size_t k = 1; k < n && r->nevidence < 3; k++)
		if (rep[k].seq != rep[0].seq)
			hlog__evidence(r, rep[k].e);
}

/* A collective timeout under a second: no collective of a job across processes is sure to
 * end that soon (the first one sets up its connections), so the setting itself is the
 * fault, most often seconds or minutes given where milliseconds were meant. */
#define SHORT_TIMEOUT_MS 1000

/* The rank whose timeout was set under SHORT_TIMEOUT_MS, or NULL: every reporter's (the
 * others time out as they wait on it). */
static const struct rep *short_timeout(const struct rep *rep, size_t n)
{
	for (size_t k = 0; k < n; k++) {
		long long t = rep[k].e->work.timeout_ms;
		if (t < 0 || t >= SHORT_TIMEOUT_MS)
			return NULL;
	}
	return n ? &rep[0] : NULL;
}

static void say_short_timeout(struct hlog_report *r, struct sbuf *b, const struct rep *a)
{
	hlog__sb_add(b, "rank %d timed out", a->rank);
	waited(b, a);
	hlog__sb_add(b, " under a collective timeout of %lld ms: the timeout is too short for "
			"any collective to finish, so the setting itself stopped the job",
		     a->e->work.timeout_ms);
	r->rank = a->rank;
	what(r, HCAT_CONFIG, "timeout-setting");
	snprintf(r->fix, sizeof(r->fix), "%s",
		 "give the process group a timeout in minutes (init_process_group(timeout="
		 "timedelta(minutes=10)), the framework's own timeout option such as ddp_timeout "
		 "in seconds, or HCCL_EXEC_TIMEOUT in seconds), then run again");
	hlog__evidence(r, a->e);
}

/* every rank here timed out in the same work: the one holding it up is not here */
static void say_elsewhere(struct hlog_report *r, struct sbuf *b, const struct rep *a, int *who,
			  size_t n)
{
	hlog__sb_add(b, "rank%s ", plural_s(n));
	ranks_text(b, who, n);
	hlog__sb_add(b, " timed out");
	waited(b, a);
	hlog__sb_add(b, ": %s entered it, so the rank holding it up is one that did not report "
			"here (its log is missing, it is stuck before the collective, or it crashed)",
		     n == 1 ? "it had" : "each had");
	if (a->state && a->state->work.enq > a->seq)
		hlog__sb_add(b, "; the reporters had queued up to #%lld behind it",
			     a->state->work.enq);
	what(r, HCAT_RANK_STUCK, "timeout-elsewhere");
	snprintf(r->fix, sizeof(r->fix),
		 "collect the logs of every rank of the job and run this again: the rank without "
		 "this timeout is the one; %s",
		 watch_fix);
	hlog__evidence(r, a->e);
	hlog__evidence(r, a->state);
}

int hlog__watchdog_conclude(struct hlog_report *r, int strong_only)
{
	struct seen s;
	if (!seen_read(r, &s))
		return 0;
	if (!s.n) {
		int rc = !strong_only && s.hang && !s.unranked ? conclude_hang(r, s.hang) : 0;
		seen_free(&s);
		return rc;
	}
	const struct rep *a = &s.rep[0], *d = NULL;
	int mixed = 0;
	for (size_t k = 0; k < s.n; k++)
		mixed |= s.rep[k].nseq > 1 || s.rep[k].seq != a->seq;
	struct rep un = {-1, NULL, NULL, a->seq, 1};
	if (!mixed)
		d = desync_of(s.rep, s.n);
	if (!mixed && !d && (un.e = desync_unranked(r, a)))
		d = &un;
	int *miss = calloc(HLOG_SEEN_RANKS, sizeof(*miss)), *who = calloc(s.n, sizeof(*who));
	int rc = 0;
	size_t nmiss = 0, ka = 0, kb = 0;
	if (!miss || !who)
		goto out;
	if (!mixed && !d && !s.unranked && s.n < MAX_REP)
		nmiss = missing_ranks(r, &s, miss);
	const struct rep *st = short_timeout(s.rep, s.n);
	if (strong_only && !d && !nmiss && !st)
		goto out;
	struct sbuf b = {r->cause, sizeof(r->cause), 0};
	r->kind = HLOG_WATCHDOG;
	r->first = a->e;
	snprintf(r->node, sizeof(r->node), "%s", a->e->node);
	for (size_t k = 0; k < s.n; k++)
		who[k] = s.rep[k].rank;
	if (st)
		say_short_timeout(r, &b, st);
	else if (d)
		say_desync(r, &b, a, d);
	else if (nmiss)
		say_missing(r, &b, &s, miss, nmiss, who);
	else if (mixed && diverged(s.rep, s.n, &ka, &kb))
		say_diverged(r, &b, s.rep, ka, kb);
	else if (mixed)
		say_mixed(r, &b, s.rep, s.n);
	else
		say_elsewhere(r, &b, a, who, s.n);
	if (s.hang && r->nevidence < HLOG_MAX_EVIDENCE)
		hlog__evidence(r, s.hang);
	rc = 1;
out:
	free(miss);
	free(who);
	seen_free(&s);
	return rc;
}
