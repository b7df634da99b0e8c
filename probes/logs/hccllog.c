/* HCCL log triage: one file's lines read into the report. Each line goes through
 * logline.c (prefixes, level, error or not) and hlogmatch.c (what it is); an error line that
 * no rule explains, and that is not an indented part of an explained one, is kept so that
 * the triage never passes a log with errors. */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probes/npu/hcclcodes.h"
#include "probes/logs/bundle.h"
#include "probes/logs/catalog.h"
#include "probes/logs/extract.h"
#include "probes/logs/hlogint.h"
#include "probes/logs/hlogkeep.h"
#include "probes/logs/kb.h"
#include "probes/logs/linepipe.h"
#include "probes/logs/logline.h"
#include "probes/logs/logtext.h"

/* What the line tells about the process that wrote it. */
static void learn(struct hlog_file *f, const struct hlog_event *e)
{
	int own = e->kind == HLOG_ENTRY ||
		  (e->kind == HLOG_SOCKET_TIMEOUT && e->sub != HLOG_SUB_DETECT);
	if (own && f->rank < 0 && e->rank >= 0 && !e->group[0])
		f->rank = e->rank;
	if (e->sub == HLOG_SUB_LINK_ROW && !f->ip[0])
		snprintf(f->ip, sizeof(f->ip), "%s", e->ip);
	if (!f->host[0] && e->ip[0] &&
	    (e->sub == HLOG_SUB_TRANSPORT ||
	     (hlog__class(e) == HLOG_CLS_FAULT && e->kind != HLOG_ERROR_CQE &&
	      e->kind != HLOG_LINK_DOWN && e->dev >= 0))) {
		snprintf(f->host, sizeof(f->host), "%s", e->ip);
		f->dev = e->dev;
	}
}

/* The unexplained error line whose message may go on below it (see hlog_unk's below_ip). */
struct unk_open {
	size_t i;      /* its index in unk[], or SIZE_MAX */
	unsigned last; /* the last line of its message so far */
	int values;    /* whether its lines' address and port are the message's */
	int level;     /* the error line's level, for the family its lines name */
	int fam;       /* the error line's own family (-1 none), read once */
};

static void open_unk(struct unk_open *o, const struct hlog_report *r, unsigned no, struct pspan msg,
		     int level)
{
	o->i = SIZE_MAX;
	msg = probe__trim(msg);
	int colon = msg.n && msg.s[msg.n - 1] == ':';
	if (r->nunk && r->nunk <= HLOG_MAX_UNK && (colon || hlog__opens_exception(msg))) {
		o->i = r->nunk - 1;
		o->last = no;
		o->values = colon;
		o->level = level;
		const char *text = r->unk[o->i].text;
		o->fam = hlog__word_family((struct pspan){text, strlen(text)});
	}
}

/* A line right under an open message, with no prefix of its own and no error of its own, goes
 * on with it: the first address and port it names are the message's (at most 8 lines). */
static void continue_unk(struct unk_open *o, struct hlog_report *r, unsigned no,
			 const struct hlog_line *l)
{
	if (o->i == SIZE_MAX || no != o->last + 1 || no - r->unk[o->i].line > 8 || l->error ||
	    l->t_us >= 0 || l->pid >= 0 || (l->rank >= 0 && !l->rank_label) ||
	    !probe__trim(l->msg).n) {
		o->i = SIZE_MAX;
		return;
	}
	o->last = no;
	struct hlog_unk *u = &r->unk[o->i];
	if (o->values)
		hlog__line_values(l->msg, u->below_ip, sizeof(u->below_ip), &u->below_port, NULL,
				  &u->below_rank);
	/* the body of the message may say what kind of failure its first line only announced
	 * (protobuf's "TypeError: Descriptors cannot not be created directly." over "1. Downgrade
	 * the protobuf package to 3.20.x or lower."): where the first line names no family or a
	 * weak one (a raise, a crash), a family of the body's, no weak one, is the error's,
	 * quoted from its first line */
	struct hlog_wordfam f, own;
	int fam = hlog__word_family(l->msg);
	if (hlog__word_family_row(fam, &f) && !f.weak && fam != o->fam &&
	    (!hlog__word_family_row(o->fam, &own) || own.weak) &&
	    hlog__word_better(fam, o->level, r)) {
		r->word_unk = *u;
		r->word_row = fam;
		r->word_level = o->level;
	}
}

/* The last unexplained error line, while the line under it may finish its sentence. */
struct unk_wrap {
	unsigned no;
	int rank, level;
	struct pspan line;
};

/* A sentence a terminal or a page wrapped: the first line ends inside it (a word, a number or
 * a comma, no closing mark) and the second, with no prefix of its own, goes on in lower case
 * from its first column (vLLM's "AssertionError: local_world_size (8) must be less than or
 * equal to the number" over "of visible devices (0)."; Open MPI's help text "... contained a
 * node (server1.example.com) that is not in your" over "allocation. We therefore cannot map
 * a process rank to it."). Either line may be the error. The family of the two together,
 * when it is better than the error line's own, is the error's, quoted from the first. */
static void join_wrapped(struct hlog_report *r, const char *name, const char *node,
			 const struct unk_wrap *first, struct pspan second,
			 const struct hlog_line *l, struct pspan error_line, int level)
{
	struct pspan head = probe__trim(first->line);
	if (!first->line.s || l->t_us >= 0 || l->pid >= 0 || (l->rank >= 0 && !l->rank_label) ||
	    !second.n || !islower((unsigned char)second.s[0]) || !head.n ||
	    !(isalnum((unsigned char)head.s[head.n - 1]) || head.s[head.n - 1] == ','))
		return;
	char joined[1024];
	int n = snprintf(joined, sizeof(joined), "%.*s %.*s", (int)head.n, head.s, (int)second.n,
			 second.s);
	if (n < 0 || (size_t)n >= sizeof(joined))
		return;
	int fam = hlog__word_family((struct pspan){joined, (size_t)n});
	if (fam != hlog__word_family(error_line))
		hlog__offer_word(r, name, node, first->no, first->rank, first->line, fam, level,
				 -1);
}

void hlog__lone_frame_error(struct hlog_report *r)
{
	if (r->errors > r->headings || !r->has_lone_frame)
		return;
	const struct hlog_unk *u = &r->lone_frame;
	r->first_error = *u;
	/* and its file's, which the counts of the files add up to */
	struct hlog_file *f = hlog__file_named(r, u->file);
	if (f && !r->errors)
		f->errors++;
	r->errors += !r->errors;
	hlog__keep_unk(r, u->file, u->node, u->line, u->rank, HLINE_NONE,
		       (struct pspan){u->text, strlen(u->text)}, 0, u->dev);
	/* a dump that ends in a wait: the process was waiting there, whatever its words */
	int row = r->lone_frame_waits ? hlog__word_family_named("waiting-call") : -1;
	if (row >= 0) {
		r->word_unk = *u;
		r->word_row = row;
		r->word_level = HLINE_NONE;
	}
}

/* The rank an error stack's heading names as its own: its prefix's, else its words' ("Abort(1)
 * on node 0 (rank 0 in comm 0): Fatal error in PMPI_Init_thread: ..., error stack:"). */
static int heading_rank(const struct hlog_line *l)
{
	if (l->rank >= 0 && !l->rank_label)
		return l->rank;
	struct hx_vals x;
	hlog__extract(l->msg, &x);
	const struct hx_val *v = hlog__xfind(&x, HX_RANK, HX_THIS);
	return v && v->n >= 0 && v->n <= 0x7fffffff && !hlog__xgroup(&x)[0] ? (int)v->n : l->rank;
}

/* What the lines read so far say of the next lines of the same message. */
struct msg_ctx {
	/* the rank of an event whose message goes on under it (it ends in ':', MPICH's
	 * "Abort(1) on node 0 (rank 0 in comm 0): Fatal error in PMPI_Init_thread: ..., error
	 * stack:"), and its line: an unprefixed line of that stack is that rank's */
	int stack_rank;
	unsigned stack_at;
	/* the last error line, and the one a "Caused by:" block (Rust's anyhow, Java) hangs
	 * under: a failure in that block is the head's ("Failed to connect to etcd server with
	 * config ... http://localhost:2379", then "Caused by:" ... "Connection refused") */
	struct pspan err_line, chain_head;
	unsigned err_no, chain_at;
};

static void ctx_line(struct msg_ctx *c, unsigned no, const struct hlog_line *l)
{
	if (c->err_no && no - c->err_no <= 3 && probe__starts(probe__trim(l->msg), "Caused by:")) {
		c->chain_head = c->err_line;
		c->chain_at = no;
	}
	if (l->error) {
		c->err_line = l->msg;
		c->err_no = no;
	}
}

/* e, the event of line no, takes what its message's head said; and may head a stack itself */
static void ctx_event(struct msg_ctx *c, unsigned no, const struct hlog_line *l,
		      struct hlog_event *e)
{
	if (e->rank < 0 && c->stack_at && no > c->stack_at && no - c->stack_at <= 8 &&
	    l->t_us < 0 && l->pid < 0)
		e->rank = c->stack_rank;
	if (e->rank < 0 && l->rank_label && !e->group[0] && e->sub != HLOG_SUB_DETECT)
		e->rank = l->rank;
	if (c->chain_at && no > c->chain_at && no - c->chain_at <= 8)
		hlog__line_values(c->chain_head, e->below_ip, sizeof(e->below_ip), &e->below_port,
				  &e->below_peer_rank, NULL);
	struct pspan tm = probe__trim(l->msg);
	if (e->rank >= 0 && tm.n && tm.s[tm.n - 1] == ':') {
		c->stack_rank = e->rank;
		c->stack_at = no;
	}
}

/* A file's scan, line by line: what the lines so far left for the next ones. */
struct scan {
	struct hlog_report *r;
	const char *name, *node;
	size_t fi;
	struct hlog_file *f;
	int64_t last_t;
	int last_pid;
	unsigned no, head, coll_at;
	char coll[HLOG_NAMELEN];
	int head_known;	  /* the block's first line was recognised */
	int advice;	  /* the line before introduced a list of possible causes */
	int first_header; /* the error quoted first is a heading (a Traceback) */
	int in_tb;	  /* inside a traceback: after its heading or a frame, before its error */
	int tb_head;	  /* ... one its heading opened */
	int in_stack;	  /* inside MPICH's error stack: after its heading or a frame */
	/* the last line not indented: a tool prints a device's heading, then its state
	 * indented below it ("GPU 3: Tesla V100 ...", "         Link 3: <inactive>") */
	struct pspan block_head;
	struct hlog_heading heading; /* what block_head names, once read */
	size_t frame_col;	/* the line before was a traceback's frame: its text's column + 1 */
	unsigned calls_in_file; /* NCCL's collective calls this file stated, kept */
	int stack_rank;		/* the rank its heading names ("on node 0 (rank 0 in comm 0)") */
	/* the first frame of a traceback whose heading the excerpt lacks, until its error */
	struct {
		unsigned no;
		int rank;
		struct pspan line;
	} frame;
	int known_pid; /* the process and time of the last error a rule explained */
	int64_t known_t;
	int wrap_rank;	/* the rank of the last line that named one, while lines wrap */
	size_t last_ev; /* the last event of this file, and its line */
	unsigned last_ev_no;
	struct unk_open uo;
	struct unk_wrap uw;
	/* the statement of the last assert a traceback printed, and its line */
	struct pspan assert_expr;
	unsigned assert_no;
	/* inside a help message framed by rules of dashes (Open MPI's), and whether the last
	 * event is: its values come further below it ("WARNING: Open MPI failed to TCP
	 * connect ...", then "Message: connect() to 169.254.140.13:1026 failed" 7 lines on) */
	int framed, ev_framed;
	int frame_notice;	      /* ... and the one open says the program went on without it */
	/* this line, when it is a traceback's heading logged below error ("INFO ...: Traceback
	 * (most recent call last):"); 0 */
	unsigned quiet_head;
	int fs_table;		      /* inside df's table, below its heading */
	/* below Horovod's "Missing ranks:", the first row's first tensor ("broadcast.bool.sz"
	 * of "0: [broadcast.bool.sz]"); stall_on while the rows go on */
	struct pspan stall_first;
	int stall_on;
	struct hlog_wrong_cols wrong; /* inside a results table with a column of wrong values */
	struct pspan ahead;	      /* the file after this line */
	struct msg_ctx mc;
	struct unk_line tail;  /* the last line */
	struct unk_line above; /* the line before it */
	struct hlog_roster_scan *roll;
	/* the last command line of a device tool in the file ("hccn_tool -i 0 -link -g",
	 * "npu-smi info -t health -i 3"): its output, the lines below, is that device's */
	struct hlog_cmd_ctx cmd;
	struct hlog_port_ctx port; /* the RDMA port of the last port table line */
	int rec_rank;		   /* a record's "rank : N" field, and its line */
	unsigned rec_at;
	struct kb_scan kst;
	/* the knowledge base's anchors are found in the line automaton's pass (acm_scan2) */
	const struct kb *kb;
	const struct kb_found *kfound; /* the line's, found in its first stage */
	struct hlog_place place;
	int nccl_warned; /* an NCCL line at WARN, or an error, seen in this file */
	struct hlog_spy spy; /* a py-spy dump's main thread, if one is open */
};

/* The file's line that is the report's error when it has no other but headings
 * (hlog__lone_frame_error), the first one offered: waits, whether it names a process
 * blocked in a call. */
static void lone_line(struct scan *s, int waits, unsigned no, int rank, struct pspan line)
{
	struct hlog_report *r = s->r;
	if (r->has_lone_frame)
		return;
	r->lone_frame_waits = waits;
	hlog__set_unk(&r->lone_frame, s->name, s->node, no, rank, line);
	r->has_lone_frame = 1;
}

/* A row of df's table whose file system is at full use is an error, though its words are
 * numbers: a job writing there fails, and a health check run on the node fails in ways that
 * seem to have nothing to do with it (NHC's "Actual RAM size (0 kB) less than minimum
 * allowed" under "tmpfs  512M  512M  0 100% /tmp"). */
static void full_row(struct scan *s, struct hlog_line *l, struct pspan line)
{
	if (hlog__fs_table_heading(l->msg)) {
		s->fs_table = 1;
		return;
	}
	if (!s->fs_table)
		return;
	int row = hlog__fs_table_row(l->msg);
	s->fs_table = row > 0;
	if (row != 2)
		return;
	l->error = 1;
	hlog__offer_word(s->r, s->name, s->node, s->no, l->rank, line,
			 hlog__word_family_named("disk-full"), HLINE_NONE, -1);
}

/* Horovod's stall inspector lists under "Missing ranks:" each rank that has not submitted
 * tensors the others have ("0: [broadcast.bool.sz]", "1: [allreduce.c_d1.bias, ...]"). Rows
 * whose first tensors differ are ranks each waiting in a call the other never makes: the ranks
 * called different collectives. Rows of the same tensors are ranks behind the others, which
 * the stall's own words say. */
static void stall_row(struct scan *s, struct hlog_line *l, struct pspan line)
{
	struct pspan m = l->msg;
	static const char head[] = "Missing ranks:";
	if (m.n >= sizeof(head) - 1 && !memcmp(m.s + m.n - (sizeof(head) - 1), head,
					       sizeof(head) - 1)) {
		s->stall_on = 1;
		s->stall_first = (struct pspan){NULL, 0};
		return;
	}
	if (!s->stall_on)
		return;
	size_t i = 0;
	while (i < m.n && i < 8 && m.s[i] >= '0' && m.s[i] <= '9')
		i++;
	if (!i || m.n < i + 4 || memcmp(m.s + i, ": [", 3)) {
		s->stall_on = 0;
		return;
	}
	struct pspan t = {m.s + i + 3, 0};
	while (i + 3 + t.n < m.n && t.s[t.n] != ',' && t.s[t.n] != ']')
		t.n++;
	if (!s->stall_first.s) {
		s->stall_first = t;
		return;
	}
	if (t.n == s->stall_first.n && !memcmp(t.s, s->stall_first.s, t.n))
		return;
	s->stall_on = 0;
	l->error = 1;
	hlog__offer_word(s->r, s->name, s->node, s->no, l->rank, line,
			 hlog__word_family_named("collective-mismatch"), HLINE_NONE, -1);
}

/* A row of a results table that counts wrong values in a column of that name: the collective
 * or the link returned wrong data, though the row's words are numbers (nccl-tests' "#wrong" at
 * 404221 with no other line saying so). */
static void wrong_row(struct scan *s, struct hlog_line *l, struct pspan line,
		      const struct hlog_hits *hits)
{
	struct hlog_wrong_cols t;
	if ((hlog__hits_may(hits, HLOG_HIT_COL_WRONG) ||
	     hlog__hits_may(hits, HLOG_HIT_COL_ERROR)) &&
	    hlog__wrong_heading(l->msg, &t)) {
		/* a column's name is no error, unless its writer logged the line at one */
		if (l->level != HLINE_ERROR)
			l->error = 0;
		s->wrong = t;
		return;
	}
	if (!s->wrong.n)
		return;
	int row = hlog__wrong_row(l->msg, &s->wrong);
	if (!row)
		s->wrong.n = 0;
	if (row != 2)
		return;
	l->error = 1;
	hlog__offer_word(s->r, s->name, s->node, s->no, l->rank, line,
			 hlog__word_family_named("wrong-results"), HLINE_NONE, -1);
}

/* The device the device tool's command or heading above names (hlogctx.c), for the output
 * lines under it: the 40 after it; -1 */
static int ctx_dev(const struct scan *s)
{
	return s->cmd.no && s->cmd.dev >= 0 && s->no - s->cmd.no <= 40 ? s->cmd.dev : -1;
}

/* What the line says of the lines around it (an error stack's frame, a traceback, a list of
 * possible causes, a block's heading, its process and time): 1 when it is no line of its
 * own to read further (a list item of general advice, a source line under a frame). */
static int scan_context(struct scan *s, struct pspan raw, struct hlog_line *l,
			const struct hlog_hits *hits, struct pspan line, int *frame_kind)
{
	/* the frames of an error stack each say what failed at their level */
	*frame_kind = s->in_stack ? hlog__stack_frame(l->msg) : 0;
	struct pspan tm = probe__trim(l->msg);
	int heading = tm.n >= 12 && !memcmp(tm.s + tm.n - 12, "error stack:", 12);
	s->in_stack = *frame_kind || heading;
	if (heading)
		s->stack_rank = heading_rank(l);
	if (*frame_kind == 2)
		l->error = 1;
	ctx_line(&s->mc, s->no, l);
	hlog__trace_below(s->r, s->name, s->node, &s->tail, line);
	hlog__usage_below(s->r, s->name, s->node, &s->tail, l->msg);
	full_row(s, l, line);
	stall_row(s, l, line);
	wrong_row(s, l, line, hits);
	hlog__spy_line(&s->spy, s->no, l->rank, l->msg, line);
	s->above = s->tail;
	s->tail = (struct unk_line){s->no,	   l->rank, l->error, l->level == HLINE_INFO,
				    l->frame != 0, line,    l->msg};
	/* HCCL follows a failure with a numbered list of what may cause it in general; those
	 * lines say nothing about this job */
	if (s->advice && hlog__numbered(l->msg))
		return 1;
	/* the source line Python quotes under a frame, indented further, is code, not what
	 * failed ("    dist.init_process_group(backend, timeout=timeout)"); but a raise says
	 * what the exception is where its own line is missing ("    raise TimeoutError(\"Timed
	 * out waiting for engines to send\"" ending an excerpt) */
	size_t col = (size_t)(l->msg.s - raw.s) + 1;
	int source = s->frame_col && col > s->frame_col && !l->frame && !l->header &&
		     !probe__starts(l->msg, "raise ");
	s->frame_col = l->frame ? col : 0;
	if (source)
		return 1;
	/* a traceback's frames are its context, but frames without their exception's line in
	 * the excerpt are all that says what a process raised in ("[rank8]: File \"tuner.py\",
	 * line 72, in ..." to the end, its heading above them or not): the first of them is
	 * then kept, and is the error of a report that has no other but headings */
	if (l->frame) {
		if ((!s->in_tb || s->tb_head) && !l->error && !s->frame.no) {
			s->frame.no = s->no;
			s->frame.rank = l->rank;
			s->frame.line = line;
		}
		s->in_tb = 1;
	} else if (l->header || l->error) {
		s->in_tb = s->tb_head = l->header;
		s->frame.no = 0;
	}
	s->quiet_head = l->quiet_tb ? s->no : 0;
	s->advice = (hlog__hits_may(hits, HLOG_HIT_REASONS) &&
		     hlog__has(l->msg, "following reasons")) ||
		    (hlog__hits_may(hits, HLOG_HIT_CAUSES) &&
		     hlog__has(l->msg, "possible causes are as follows")) ||
		    (hlog__hits_may(hits, HLOG_HIT_CAUSES_ARE) &&
		     hlog__has(l->msg, "The possible causes are"));
	if (!l->cont) {
		s->head = s->no;
		s->head_known = 0;
		s->block_head = l->msg;
	}
	if (l->pid >= 0 && s->f->pid < 0)
		s->f->pid = l->pid;
	if (l->pid >= 0)
		s->last_pid = l->pid;
	if (l->t_us >= 0) {
		s->last_t = l->t_us;
		if (s->f->first_us < 0 || l->t_us < s->f->first_us)
			s->f->first_us = l->t_us;
		if (l->t_us > s->f->last_us)
			s->f->last_us = l->t_us;
	}
	return 0;
}

/* The facts a line states whatever else it is (a collective's frame, a record's rank, the
 * process's own rank, versions and calls, a roll call, the knowledge base's entities), and
 * the count of error lines. */
static void scan_facts(struct scan *s, const struct hlog_line *l, const struct hlog_hits *hits,
		       struct pspan line)
{
	struct hlog_report *r = s->r;
	if (hlog__hits_may(hits, HLOG_HIT_FRAME) &&
	    hlog__frame_collective(l->msg, s->coll, sizeof(s->coll)))
		s->coll_at = s->no;
	if (hlog__record_rank(l->msg, &s->rec_rank))
		s->rec_at = s->no;
	if (hlog__hits_may(hits, HLOG_HIT_MYRANK) || hlog__hits_may(hits, HLOG_HIT_REPORTED_BY) ||
	    hlog__hits_may(hits, HLOG_HIT_TREES)) {
		int sr = hlog__self_rank(l->msg);
		if (sr >= 0)
			s->f->self_rank = s->f->self_rank == -1 || s->f->self_rank == sr ? sr : -2;
	}
	hlog__fact_line(r, l, hits, s->name, s->node, s->no, line);
	if (hlog__hits_may(hits, HLOG_HIT_OPCOUNT))
		hlog__call_line(r, l, s->name, s->node, s->no, line, &s->calls_in_file);
	unsigned forms = (hlog__hits_may(hits, HLOG_HIT_ROSTER_GLOBAL) ? HLOG_ROLL_GLOBAL : 0) |
			 (hlog__hits_may(hits, HLOG_HIT_ROSTER_RANK) ? HLOG_ROLL_RANK : 0) |
			 (hlog__hits_may(hits, HLOG_HIT_ROSTER_PROCESS) ? HLOG_ROLL_PROCESS : 0);
	if (hlog__hits_may(hits, HLOG_HIT_ROSTER_BARRIER))
		forms |= HLOG_ROLL_BARRIER;
	if (s->roll && !l->error && forms)
		hlog__roster_line(s->roll, r, s->name, s->node, s->no, line, forms);
	/* lines that say of themselves that they are routine are not a fault's */
	if (l->level != HLINE_INFO && l->level != HLINE_DEBUG && !l->nccl_info)
		hlog__kb_line(r, &s->kst, line, l, l->kernel || s->place.kind == HLOG_FK_DEVICE,
			      l->t_us >= 0 ? l->t_us : s->last_t, s->name, s->node, s->no,
			      s->kb ? s->kfound : NULL);
	long ok = l->error ? 0 : hlog__run_ok_hits(l->msg, hits);
	if (ok) {
		/* the words that say so, with a little of what is around them */
		size_t at = (size_t)(ok - 1), from = at > 40 ? at - 40 : 0;
		size_t n = l->msg.n - from < 100 ? l->msg.n - from : 100;
		s->f->ok_line = s->no;
		snprintf(s->f->ok_text, sizeof(s->f->ok_text), "%s%.*s%s", from ? "..." : "",
			 (int)n, l->msg.s + from, from + n < l->msg.n ? "..." : "");
	}
	if (l->error) {
		/* the first error quoted is one that says what failed, not a heading */
		if (!r->errors || (s->first_header && !l->header)) {
			s->first_header = l->header;
			hlog__set_unk(&r->first_error, s->name, s->node, s->no, l->rank, line);
		}
		r->errors++;
		r->headings += l->header != 0;
		s->f->errors++;
	}
	if (l->rank >= 0 && l->rank < HLOG_SEEN_RANKS)
		r->seen_rank[l->rank / 8] |= (unsigned char)(1u << (l->rank % 8));
}

/* The rank field of a record of "key : value" lines this line is in (torch elastic's root
 * cause "rank : 0 (local_rank: 0)", ..., "error_file: ...", "traceback : Signal 11 (SIGSEGV)
 * received by PID 3304209"): a failure the record states is that rank's; -1 */
static int record_rank(const struct scan *s)
{
	return s->rec_rank >= 0 && s->rec_at && s->no > s->rec_at && s->no - s->rec_at <= 8
		       ? s->rec_rank
		       : -1;
}

/* Python's bare "AssertionError" (an assert with no message) says what failed only in the
 * statement its traceback printed one or two lines above it ("assert world_size == 8", then
 * a line of carets since 3.11): that statement is its message, for the families its words
 * name. */
static void assert_joined(struct scan *s, const struct hlog_line *l, struct pspan line, int rank)
{
	struct pspan m = probe__trim(l->msg);
	if (m.n && m.s[m.n - 1] == ':')
		m.n--;
	if (!s->assert_no || s->no - s->assert_no > 2 || m.n < 14 ||
	    memcmp(m.s + m.n - 14, "AssertionError", 14) ||
	    (m.n > 14 && hlog__word_char(m.s[m.n - 15])))
		return;
	char joined[512];
	int n = snprintf(joined, sizeof(joined), "AssertionError: %.*s", (int)s->assert_expr.n,
			 s->assert_expr.s);
	if (n < 0 || (size_t)n >= sizeof(joined))
		return;
	int fam = hlog__word_family((struct pspan){joined, (size_t)n});
	if (fam >= 0)
		hlog__offer_word(s->r, s->name, s->node, s->no, rank, line, fam, l->level,
				 ctx_dev(s));
}

/* A line no rule recognised: an error of its own (kept for its words), or the values and
 * the rest of the sentence of the one above it. */
static void scan_unrecognised(struct scan *s, const struct hlog_line *l, struct pspan line,
			      int frame_kind)
{
	struct hlog_report *r = s->r;
	if (l->error && s->last_ev < r->nev && r->ev[s->last_ev].fi == s->fi &&
	    (s->no - s->last_ev_no <= 4 ||
	     (s->ev_framed && s->framed && s->no - s->last_ev_no <= 24)))
		hlog__line_values(l->msg, r->ev[s->last_ev].below_ip,
				  sizeof(r->ev[s->last_ev].below_ip), &r->ev[s->last_ev].below_port,
				  &r->ev[s->last_ev].below_peer_rank, NULL);
	/* the frame of a table HCCL prints (LINK_ERROR_INFO, its detector's result), and the
	 * trace lines a process logs right after an error it reported (the callers returning
	 * it), are that error, not new ones */
	int trace = l->pid >= 0 && l->pid == s->known_pid && l->t_us >= 0 && s->known_t >= 0 &&
		    l->t_us - s->known_t <= 2000000 && l->t_us >= s->known_t;
	if (l->error && !l->header && !(l->cont && s->head_known) && !hlog__chrome(l->msg) &&
	    !trace) {
		/* a frame of an error stack is its heading's rank's */
		int by_head = (l->rank < 0 || (l->rank_label && s->stack_rank >= 0)) && frame_kind;
		int rank = by_head ? s->stack_rank : l->rank;
		s->uw = (struct unk_wrap){s->no, rank >= 0 ? rank : record_rank(s), l->level, line};
		hlog__keep_unk(r, s->name, s->node, s->no, s->uw.rank, l->level, line, l->kernel,
			       ctx_dev(s));
		open_unk(&s->uo, r, s->no, l->msg, l->level);
		assert_joined(s, l, line, s->uw.rank);
		/* the sentence may have begun on the line above, which said no error yet (not a
		 * traceback's frame over its exception, nor a line that opens with a label of
		 * its own: "subprocess.CalledProcessError: ...") */
		if (s->above.no && s->above.no + 1 == s->no && !s->above.error && !s->above.frame &&
		    !hlog__opens_labelled(line))
			join_wrapped(r, s->name, s->node,
				     &(struct unk_wrap){s->above.no, s->uw.rank, l->level,
							s->above.line},
				     line, l, line, l->level);
	} else if (s->uw.line.s && s->no == s->uw.no + 1) {
		continue_unk(&s->uo, r, s->no, l);
		join_wrapped(r, s->name, s->node, &s->uw, line, l, s->uw.line, s->uw.level);
	} else {
		continue_unk(&s->uo, r, s->no, l);
	}
}

/* A line a rule recognised, as the event tmp: its time, process, rank and device from the
 * lines around it where it names none, into the report. 0, or -ENOMEM. */
static int scan_event(struct scan *s, const struct hlog_line *l, struct hlog_event *tmp,
		      struct pspan line, int wrapped)
{
	struct hlog_report *r = s->r;
	int rc = 0;
	if (!l->cont || l->error)
		s->head_known = 1;
	if (l->error && hlog__class(tmp) != HLOG_CLS_INFO) {
		s->known_pid = l->pid;
		s->known_t = l->t_us;
	}
	struct hlog_event *e = hlog__add_event(r, &rc);
	if (rc)
		return rc;
	/* a line without a time continues the previous one (a wrapped message) */
	tmp->t_us = l->t_us >= 0 ? l->t_us : s->last_t;
	tmp->yearless = l->yearless;
	tmp->pid = l->pid >= 0 ? l->pid : s->last_pid;
	tmp->line = s->no;
	tmp->head = s->head;
	if (tmp->rank < 0)
		tmp->rank = record_rank(s);
	if (tmp->rank < 0 && wrapped >= 0)
		tmp->rank = wrapped;
	if (l->cont && s->block_head.s) {
		if (s->heading.no != s->head)
			hlog__read_heading(&s->heading, s->head, s->block_head);
		if (tmp->dev < 0)
			tmp->dev = s->heading.dev;
		snprintf(tmp->head_nic, sizeof(tmp->head_nic), "%s", s->heading.nic);
	}
	ctx_event(&s->mc, s->no, l, tmp);
	if (tmp->dev < 0)
		tmp->dev = ctx_dev(s);
	/* a call named in the traceback just above is the one the error happened in */
	if (!tmp->op[0] && s->coll[0] && s->no - s->coll_at <= 40)
		snprintf(tmp->op, sizeof(tmp->op), "%s", s->coll);
	tmp->fi = s->fi;
	snprintf(tmp->file, sizeof(tmp->file), "%s", s->name);
	snprintf(tmp->node, sizeof(tmp->node), "%s", s->node ? s->node : "");
	probe__copy(tmp->text, sizeof(tmp->text), line);
	learn(s->f, tmp);
	if (!e)
		return 0; /* over the cap: counted in dropped, still learnt from */
	*e = *tmp;
	s->f->nev++;
	s->last_ev = (size_t)(e - r->ev);
	s->last_ev_no = s->no;
	if (tmp->kind == HLOG_LINK_DOWN && hlog__has_nocase(line, "state"))
		s->port = (struct hlog_port_ctx){s->no, 0, s->last_ev};
	s->ev_framed = s->framed;
	return 0;
}

/* One line of the file. 0, or -ENOMEM. */
/* NCCL's return trace at INFO ("bootstrap.cc:90 -> 3") follows the WARN line that says what
 * failed, or a communicator's abort that its program asked for (at INFO: "comm 0x4501e1e0
 * rank 0 nRanks 16 ... - Abort START", "socketProgressOpt: abort called", the sockets it
 * closes failing under it at exit); where a file has neither (an excerpt without the WARN, a
 * WARN that went to another stream), the first trace line is the only news that an NCCL call
 * failed, and so an error. */
static void nccl_unwarned(struct scan *s, struct hlog_line *l)
{
	if (s->nccl_warned) /* decided for the rest of the file */
		return;
	if (l->nccl_warn >= 0 || (l->error && l->host.n) ||
	    (l->nccl_info && hlog__has_nocase(l->msg, "abort")))
		s->nccl_warned = 1;
	if (l->nccl_trace && !l->error && !s->nccl_warned) {
		l->error = 1;
		s->nccl_warned = 1;
	}
}

/* What a line says of itself alone (linepipe.h's first stage): its text, the line
 * automaton's one pass (what every later stage may find in it) and its prefix's fields. */
struct pre {
	struct pspan raw, line, ahead;
	int cut; /* longer than HLOG_MAX_LINE */
	struct hlog_hits hits;
	struct hlog_line l;
	struct kb_found kfound;
};

/* On the reader thread when there are two: it reads nothing of s but kb, fixed for the file,
 * while the caller's thread writes the rest. */
static void pre_line(void *ctx, void *slot, struct pspan raw, struct pspan ahead)
{
	const struct scan *s = ctx;
	struct pre *p = slot;
	p->cut = raw.n > HLOG_MAX_LINE;
	if (p->cut)
		raw.n = HLOG_MAX_LINE;
	p->raw = raw;
	p->ahead = ahead;
	p->line = probe__trim(raw);
	if (!p->line.n)
		return;
	hlog__line_hits_kb(p->line, &p->hits, s->kb, &p->kfound);
	hlog__line_pairs(raw);
	hlog__line_parse_hits(raw, &p->l, &p->hits);
}

/* One line of the file, its first stage done. 0, or -ENOMEM. */
static int scan_line(void *ctx, void *slot)
{
	struct scan *s = ctx;
	struct pre *p = slot;
	struct hlog_report *r = s->r;
	struct pspan raw = p->raw, line = p->line;
	s->ahead = p->ahead;
	s->no++;
	r->lines++;
	s->f->lines++;
	r->truncated += p->cut;
	if (!line.n) {
		r->blank++;
		s->wrap_rank = -1; /* a wrapped message has no blank line inside */
		return 0;
	}
	if (hlog__rule_line(line)) {
		s->framed = !s->framed;
		s->frame_notice = s->framed && hlog__frame_falls_back(s->ahead);
	}
	if (s->framed && s->frame_notice)
		return 0;
	/* after its prefix, as torchrun's "[rank0]:     assert ..." */
	struct pspan tl = probe__trim(p->l.msg);
	if (tl.n > 7 && !memcmp(tl.s, "assert ", 7)) {
		s->assert_expr = (struct pspan){tl.s + 7, tl.n - 7};
		s->assert_no = s->no;
	}
	/* the finds below read the line's pairs on this thread */
	hlog__line_pairs(raw);
	struct hlog_hits *hits = &p->hits;
	struct hlog_line *l = &p->l;
	int frame_kind;
	s->kfound = &p->kfound;
	nccl_unwarned(s, l);
	/* a failure the program tried again from, and went on: context, not an error */
	int recovered = l->error && hlog__recovered_below(s->ahead, l);
	if (recovered) {
		l->error = 0;
		hlog__line_pairs(raw);
	}
	if (scan_context(s, raw, l, hits, line, &frame_kind) || recovered)
		return 0;
	if (hlog__hits_gate(hits, HLOG_GATE_CONTEXT)) {
		hlog__tool_command(line, s->no, &s->cmd);
		hlog__port_line(line, s->no, &s->port, s->f, r->ev, r->nev);
	}
	scan_facts(s, l, hits, line);
	/* a line with no prefix of its own (no time, pid or rank) continues the message above
	 * it, which a paste or a terminal wrapped: a failure it names without a rank is that
	 * line's rank's, as its time and pid are ("[rank6]:[E429 ...] ... ProcessGroupNCCL'"
	 * then "s watchdog got stuck for 480 seconds ...") */
	/* torch_npu reports a failed call on one line and the device of its process in the
	 * header of the next ("... error code is 500001", then "[ERROR] 2025-01-15-20:59:48
	 * (PID:6038, Device:0, RankID:-1) ERR00100 PTA call acl api failed"): the call failed on
	 * that device */
	if (l->dev >= 0 && s->last_ev < r->nev && s->no == s->last_ev_no + 1 &&
	    r->ev[s->last_ev].fi == s->fi && r->ev[s->last_ev].dev < 0)
		r->ev[s->last_ev].dev = l->dev;
	int wrapped = -1;
	if (l->rank >= 0)
		s->wrap_rank = l->rank;
	else if (l->t_us >= 0 || l->pid >= 0)
		s->wrap_rank = -1;
	else
		wrapped = s->wrap_rank;
	/* most lines are no event: the gate first, not an event cleared for each */
	struct hlog_event tmp;
	int may = hlog__recognise_may(l, hits);
	if (may)
		hlog__event_init(&tmp);
	if (!may || !hlog__recognise_hits(line, l, &tmp, hits)) {
		scan_unrecognised(s, l, line, frame_kind);
		return 0;
	}
	return scan_event(s, l, &tmp, line, wrapped);
}

int hlog_scan_buf(const char *name, const char *node, const char *buf, size_t len,
		  struct hlog_report *r, char *err, size_t errlen)
{
	int rc = 0;
	if (!name || !r || (!buf && len)) {
		snprintf(err, errlen, "hlog_scan_buf: a NULL argument");
		return -EINVAL;
	}
	if (r->nfile >= HLOG_MAX_FILES) {
		r->skip[HLOG_SKIP_LIMIT]++;
		r->skipped++;
		return 0;
	}
	if (hlog__binary(buf, len)) {
		r->skip[HLOG_SKIP_BINARY]++;
		r->skipped++;
		return 0;
	}
	rc = hlog__add_file(r, name, node, err, errlen);
	if (rc)
		return rc;
	struct scan *s = calloc(1, sizeof(*s));
	if (!s) {
		snprintf(err, errlen, "%s: out of memory", name);
		return -ENOMEM;
	}
	s->r = r;
	s->name = name;
	s->node = node;
	s->fi = r->nfile - 1;
	s->f = &r->file[s->fi];
	s->last_t = s->known_t = -1;
	s->last_pid = s->stack_rank = s->known_pid = s->wrap_rank = s->rec_rank = -1;
	s->frame.rank = -1;
	s->last_ev = (size_t)-1;
	s->uo = (struct unk_open){.i = SIZE_MAX};
	s->uw = (struct unk_wrap){0, -1, 0, {NULL, 0}};
	s->mc = (struct msg_ctx){-1, 0, {NULL, 0}, {NULL, 0}, 0, 0};
	s->tail = (struct unk_line){0, -1, 0, 0, 0, {NULL, 0}, {NULL, 0}};
	s->above = s->tail;
	s->roll = calloc(1, sizeof(*s->roll));
	r->bytes += len;
	/* coloured output is read as a terminal shows it (a level or a prefix behind a colour is
	 * one), and quoted so; without room for the copy it is read as it is */
	char *clean = len && memchr(buf, '\x1b', len) ? malloc(len) : NULL;
	if (clean) {
		memcpy(clean, buf, len);
		len = hlog__strip_ansi(clean, len);
		buf = clean;
	}
	s->kb = hlog__kb_of(r);
	hlog__bundle_place(name, &s->place);
	struct pspan rest = {buf, len};
	size_t ev0 = r->nev;
	s->port.ev = (size_t)-1;
	static const struct linepipe_ops ops = {sizeof(struct pre), pre_line, scan_line};
	rc = linepipe_run(rest, &ops, s, linepipe_threads(r->threads));
	if (rc) {
		snprintf(err, errlen, "%s: out of memory", name);
	} else {
		size_t n = hlog__drop_unused_ports(r->ev, ev0, r->nev, s->f->active_layers);
		s->f->nev -= r->nev - n;
		r->nev = n;
		hlog__ended_on_failure(r, name, node, &s->tail, &s->above);
		if (s->roll)
			hlog__roster_end(s->roll, r, name, node, s->tail.no, s->tail.line);
		/* a file that ends on a traceback's heading, whatever its level: the process's
		 * last words were an exception, cut off (a logger relaying a tracker's stderr at
		 * INFO, "... TrackerProcessLogger: Traceback (most recent call last):") */
		if (!s->frame.no && s->quiet_head && s->quiet_head == s->tail.no) {
			s->frame.no = s->tail.no;
			s->frame.rank = s->tail.rank;
			s->frame.line = s->tail.line;
		}
		/* frames to the end: a dump whose innermost frame waits is quoted there, any
		 * other from its first frame; then a py-spy dump blocked in a collective */
		if (s->frame.no && s->tail.no > s->frame.no && hlog__wait_call(s->tail.line))
			lone_line(s, 1, s->tail.no, s->frame.rank, s->tail.line);
		else if (s->frame.no)
			lone_line(s, 0, s->frame.no, s->frame.rank, s->frame.line);
		if (s->spy.wait_no)
			lone_line(s, 1, s->spy.wait_no, s->spy.wait_rank, s->spy.wait_line);
	}
	free(s->roll);
	kb_scan_release(&s->kst);
	hlog__line_pairs((struct pspan){NULL, 0});
	free(s);
	free(clean);
	return rc;
}
