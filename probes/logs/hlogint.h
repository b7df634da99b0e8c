/* The pieces of the HCCL log triage, as the other pieces see them (internal to probes/). */
#ifndef HCCLCTL_PROBES_HLOGINT_H
#define HCCLCTL_PROBES_HLOGINT_H

#include "probes/logs/hccllog.h"
#include "probes/logs/logline.h"

enum hlog_cls { HLOG_CLS_CONSEQ, HLOG_CLS_FAULT, HLOG_CLS_CONFIG, HLOG_CLS_INFO };

/* hlogmatch.c: sets e's kind and fields when the line is a known signature, an inner error or
 * a code of the catalog; 0 when it is none. m is the whole trimmed line, l what logline.c
 * read of it. */
int hlog__recognise(struct pspan m, const struct hlog_line *l, struct hlog_event *e);
/* The same with what hlog__line_hits found in m (the scan finds it once per line). */
struct hlog_hits;
struct hx_vals;
int hlog__recognise_hits(struct pspan m, const struct hlog_line *l, struct hlog_event *e,
			 const struct hlog_hits *h);
/* Whether the line may be an event at all (hlog__recognise_hits is 0 when it is not). */
int hlog__recognise_may(const struct hlog_line *l, const struct hlog_hits *h);
/* helpframe.c: whether the line is a rule of 20 or more dashes (the frame of a help message),
 * and whether the help message one opens (ahead: the file after it) says, before its closing
 * rule, that the program goes on without what failed ("will be used", "will be ignored"). */
int hlog__rule_line(struct pspan m);
int hlog__frame_falls_back(struct pspan ahead);
/* What part an event plays: a consequence (a wait that timed out), a fault, a configuration
 * cause, or context. */
enum hlog_cls hlog__class(const struct hlog_event *e);

/* hlogreport.c: an event with nothing known yet (every number -1), as the scan hands it to
 * hlog__recognise. */
void hlog__event_init(struct hlog_event *e);
/* A file, and an event, added to r (grown by doubling up to its cap): 0 or -ENOMEM (err
 * filled); NULL when over the cap (counted in dropped) or out of memory (*rc = -ENOMEM). */
int hlog__add_file(struct hlog_report *r, const char *name, const char *node, char *err,
		   size_t errlen);
struct hlog_event *hlog__add_event(struct hlog_report *r, int *rc);
/* Whether a line of family fam (-1 none) at level explains more than r's best so far. */
int hlog__word_better(int fam, int level, const struct hlog_report *r);
/* Appends to r what part p read (files, events, counts, unexplained lines, knowledge base
 * hits), as if p's files had been scanned into r after r's own: the files of a bundle are
 * scanned into parts in parallel and appended in the walk's order. p keeps what it owns.
 * Returns 0 or -ENOMEM (err filled). */
int hlog__report_append(struct hlog_report *r, const struct hlog_report *p, char *err,
			size_t errlen);

/* hlogshape.c: what a line says of its own shape, read alone. */
/* What a block's heading names for the lines indented below it, read once per heading. */
struct hlog_heading {
	unsigned no; /* the heading's line; 0: none read yet */
	/* its device, -1. NVIDIA's tools open a GPU's section with "GPU 3: Tesla V100-SXM2-32GB
	 * (UUID: ...)": the word alone is no device key, since host names ("gpu-1-0") and
	 * settings ("batch size per gpu: 0") use it too */
	int dev;
	/* its RDMA device (ibstat's "CA 'mlx5_1'", ibv_devinfo's "hca_id: mlx5_0"), "" */
	char nic[sizeof(((struct hlog_event *)0)->head_nic)];
};
void hlog__read_heading(struct hlog_heading *h, unsigned no, struct pspan m);
/* "1. the connection ..." or "...[87033]2. an exception ...": an item of a numbered list. */
int hlog__numbered(struct pspan m);
/* A line of a table's frame or a heading HCCL prints around its own report. */
int hlog__chrome(struct pspan m);
/* A record's rank field ("  rank      : 3 (local_rank: 3)"): its number into *rank. */
int hlog__record_rank(struct pspan m, int *rank);
/* The address, port and peer rank a line under a message names, each kept while the message
 * has none yet; peer_rank and any_rank may be NULL. */
void hlog__line_values(struct pspan m, char *ip, size_t iplen, int *port, int *peer_rank,
		       int *any_rank);
/* Whether m opens with a name and a colon ("subprocess.CalledProcessError: ..."). */
int hlog__opens_labelled(struct pspan m);
/* Whether m opens with an exception's name and a colon ("TypeError: ..."). */
int hlog__opens_exception(struct pspan m);
/* Whether the lines below a failure (ahead: the file after it) say the program tried again
 * and went on: a retry announced within a few lines (the failure's burst above it), then
 * lines that are no error (one at least, two read); the retry is the failed line's process's
 * (failed: what logline.c read of it), not before it in time. llama.cpp's "E ... cudaMalloc failed: out of memory", "W
 * sched_reserve: compute buffer allocation failed, retrying without pipeline parallelism",
 * then "I srv load_model: initializing ...": a retry that succeeded. */
struct hlog_line;
int hlog__recovered_below(struct pspan ahead, const struct hlog_line *failed);

/* hccllog.c: a report with no error line but a traceback's lone frame: the frame becomes its
 * error, so that frames cut from their exception never pass as a healthy log. */
void hlog__lone_frame_error(struct hlog_report *r);
/* hlogfile.c: the file of r read under name (as quotes and unexplained lines name it); NULL. */
struct hlog_file *hlog__file_named(const struct hlog_report *r, const char *name);

/* hlogsb.c: a bounded text builder (appends that do not fit are cut, never overflow), and
 * the evidence list of the report (a line already quoted is not quoted twice). */
struct sbuf {
	char *s;
	size_t cap, n;
};
__attribute__((format(printf, 2, 3))) void hlog__sb_add(struct sbuf *b, const char *fmt, ...);
void hlog__evidence(struct hlog_report *r, const struct hlog_event *e);

/* hlogwatch.c: PyTorch's collective watchdog. line: 1 when m is one of its lines (e filled),
 * its notes after a timeout only with notes (they often carry the backend's own error, which
 * its rules read first);
 * conclude: 1 when the watchdog's lines decide the cause (r's cause, fix, kind filled), 0
 * when they say nothing; with strong_only only a verdict that names the rank or the desync
 * counts (one that names no one is left to the backend's own lines). */
int hlog__watchdog_line(struct pspan m, const struct hlog_line *l, struct hlog_event *e, int notes);
int hlog__watchdog_conclude(struct hlog_report *r, int strong_only);

/* hlogtask.c: HCCL's task exception reports of several ranks of one group: 1 when they decide
 * the cause (different collectives at the same point, or one rank arriving far later). */
int hlog__task_conclude(struct hlog_report *r);

/* hlogkb.c: the knowledge base. of: r's (the built-in one unless r names one), NULL when it
 * cannot be loaded. line: records the entities line shows (st: the file's scan state; sys: a
 * system's line, the kernel's or a device's; l: its prefix's device and rank; found: its
 * anchors as the line's pass found them, or NULL to search here); conclude: when no rule
 * explained the job, the entity that is not caused by another one found decides the cause
 * (1), else 0. */
struct kb;
struct kb_scan;
struct kb_found;
struct hlog_line;
const struct kb *hlog__kb_of(const struct hlog_report *r);
void hlog__kb_line(struct hlog_report *r, struct kb_scan *st, struct pspan line,
		   const struct hlog_line *l, int sys, int64_t t_us, const char *file,
		   const char *node, unsigned no, const struct kb_found *found);
int hlog__kb_conclude(struct hlog_report *r);
/* chain.c: the lines that say who a process is (rank, device, device IP, server) and the
 * waits to a device or a rank of a group (P2P, AI CPU task exceptions): 1 when m is one (e
 * filled). chain: places every wait of r on a worker and device, follows them to the device
 * they end at (or the cycle they form), and fills r->chain; 1 when there is a chain of at
 * least two hops. */
struct hlog_chainx {
	const struct hlog_event *ev[HLOG_MAX_HOPS]; /* the wait of chain[k] for chain[k + 1] */
	size_t rootfile; /* a file of the root's process with an error, else (size_t)-1 */
};
int hlog__chain_line(struct pspan m, struct hlog_event *e);
int hlog__chain(struct hlog_report *r, struct hlog_chainx *x);
/* 1 when the chain decides the cause (r's cause, fix, kind, root filled): it crosses devices,
 * or ends in a cycle or at a device whose log is here. */
int hlog__chain_conclude(struct hlog_report *r);

/* hlogsig.c: the signatures HCCL, HCCP, torch and NCCL lines carry, read into e (1 when one
 * is); the collective of a tag ("tag[AllReduce_group_name_1654...]") into out */
int hlog__recognise_signature(struct pspan m, const struct hx_vals *x, const struct hlog_hits *h,
			      struct hlog_event *e);
void hlog__op_name(struct pspan m, const char *key, char *out, size_t len);

/* hlogframe.c: a Python traceback frame's function (an empty span for no frame), the
 * collective it is in (into out), whether it is a call to a wait as a dump shows its innermost
 * frame; a frame of MPICH's error stack (0 none, 1 one that says nothing more, 2 one with its
 * message); whether msg is a program's advice to read its help */
struct pspan hlog__frame_function(struct pspan m);
int hlog__frame_collective(struct pspan m, char *out, size_t len);
int hlog__wait_call(struct pspan s);
int hlog__spy_thread(struct pspan m);
struct pspan hlog__spy_function(struct pspan m);
int hlog__spy_waits(struct pspan name);
/* A file's py-spy dump as its lines are read: inside its main thread's stack, the frames read
 * so far, and the first of the innermost that is a collective or a wait (its line number, 0
 * while none; its rank and text). */
struct hlog_spy {
	int main;
	unsigned frames;
	unsigned wait_no;
	int wait_rank;
	struct pspan wait_line;
};
void hlog__spy_line(struct hlog_spy *sp, unsigned no, int rank, struct pspan msg,
		    struct pspan line);
int hlog__stack_frame(struct pspan m);
int hlog__help_advice(struct pspan msg);
/* df's table: its heading, and a line below it (0 none: the table ended, 1 a row, 2 a row
 * whose file system is full) */
int hlog__fs_table_heading(struct pspan msg);
int hlog__fs_table_row(struct pspan msg);
/* A table of results whose heading names a column of wrong values (nccl-tests' "#wrong", its
 * "error" before 2.10): the heading's columns and which of them count wrong values; 0 for a
 * line that is no such heading. Then a line below it: 0 when it is none (the table ended), 1 a
 * row or a line of the table's own ("#" lines, blank), 2 a row that counts wrong values. */
struct hlog_wrong_cols {
	unsigned n;	    /* columns; 0: not inside such a table */
	unsigned long mask; /* bit i: column i counts wrong values */
};
int hlog__wrong_heading(struct pspan msg, struct hlog_wrong_cols *t);
int hlog__wrong_row(struct pspan msg, const struct hlog_wrong_cols *t);

/* wordfam.c: the family of an error line no rule knows, by its words (a row, -1 for none),
 * and what its row says. */
int hlog__word_family(struct pspan line);
/* the same for the last line of a file, where rows of a state never left hold too */
int hlog__word_family_end(struct pspan line);
/* hlogctx.c: the last command line of a device tool in a file ("hccn_tool -i 0 -link -g",
 * "npu-smi info -t health -i 3"), whose output below is that device's */
struct hlog_cmd_ctx {
	unsigned no; /* its line; 0: none */
	int dev;     /* -1: the command names none */
};
void hlog__tool_command(struct pspan line, unsigned no, struct hlog_cmd_ctx *c);
/* The RDMA port whose state the last port table line gave, until its link layer: active, or
 * down with its event (index in ev; (size_t)-1: none). */
struct hlog_port_ctx {
	unsigned no;
	int active;
	size_t ev;
};
/* Reads line no of a port table: the file's active link layers (f->active_layers), or the
 * layer of the port down whose event is ev[p->ev]. */
void hlog__port_line(struct pspan m, unsigned no, struct hlog_port_ctx *p, struct hlog_file *f,
		     struct hlog_event *ev, size_t nev);
/* Drops from ev[ev0..nev) the ports down of a link layer none of used is (an Ethernet port
 * beside the InfiniBand ones the job runs on: another network's port, not this node's fabric
 * down); the new count. */
size_t hlog__drop_unused_ports(struct hlog_event *ev, size_t ev0, size_t nev, unsigned used);
/* okwords.c: when m states that the whole run succeeded ("Training completed", "status":
 * "success"), not as a condition or a denial: 1 + the offset in m where the statement
 * starts; else 0. h: the line automaton's hits of the line m is part of, which refuse at once
 * a line with no outcome's stem (NULL, or hits with all set: read every line). */
struct hlog_hits;
long hlog__run_ok_hits(struct pspan m, const struct hlog_hits *h);
/* okwords.c: whether m says a step ended, any step (an outcome word of the run's, or "took"
 * with its time: "Initial profiling/warmup run took 56.94 s"), with no doubt before it ("not
 * completed", "wait until done") */
int hlog__step_ended(struct pspan m);
const char *hlog__word_family_name(int row);
int hlog__word_family_cat(int row); /* enum hcat; HCAT_NONE out of range */
/* What a row's line says of its process besides the failure (0 out of range): it waits for
 * something that may never come, one task ended (on the failure just before it), or another
 * process died (a rank it or the lines under it name is that one: the peer, not itself). */
enum { WF_SAYS_WAITS = 1, WF_SAYS_TASK_ENDED = 2, WF_SAYS_PEER_DIED = 4 };
int hlog__word_family_says(int row);
/* The first row of that name, -1 for none (a row no line's words reach, named by the scan). */
int hlog__word_family_named(const char *name);
/* A row of the table as the verdict reads it (0 when row is out of range). */
struct hlog_wordfam {
	int cat;	  /* enum hcat */
	const char *name; /* the verdict's detail: "words:NAME" */
	const char *what; /* the cause, before the quoted line */
	const char *fix;
	int weak;					 /* news that a process failed, not why */
	int says;					 /* WF_SAYS_* */
	int (*form)(struct pspan line, long long *port); /* NULL, or the form (and its port) */
};
int hlog__word_family_row(int row, struct hlog_wordfam *out);
/* wordcause.c: the verdict from the words of the report's word_unk where no rule explains the
 * log, or a rule names what failed but not why (a result code, a row of its own, a wait it
 * reads as caused elsewhere); 1 when it concluded. */
int hlog__words_conclude(struct hlog_report *r);
/* Whether r is a phase that failed whose cause a row does not name (a wait it reads as
 * caused elsewhere, "timeout-elsewhere"; Open MPI with no transport between two processes,
 * "mpi-no-transport"), which the words of an unexplained line may name. */
int hlog__words_elsewhere(const struct hlog_report *r);

/* hlogroster.c: the ranks a file's lines announce (roster_line on each line, roster_end with
 * the file's last line), p's roll call into r's (append), and the cause it shows when no line
 * reads as an error (conclude: 1 when one). */
#define HLOG_ROSTER_RECENT 8
struct hlog_claim {
	unsigned no; /* 0: an empty slot */
	int rank;
	char host[HLOG_IPLEN];
	struct pspan line;
};
struct hlog_roster_scan {
	unsigned char claimed[HLOG_ROSTER_RANKS / 8];
	struct hlog_claim recent[HLOG_ROSTER_RECENT]; /* the last announcements, a ring */
	size_t next;
	unsigned last_no; /* the line of the last announcement */
	int any;
};
/* forms: which announcements the line may hold (its words, as the line automaton found them) */
enum { HLOG_ROLL_GLOBAL = 1, HLOG_ROLL_RANK = 2, HLOG_ROLL_PROCESS = 4, HLOG_ROLL_BARRIER = 8 };
void hlog__roster_line(struct hlog_roster_scan *s, struct hlog_report *r, const char *name,
		       const char *node, unsigned no, struct pspan line, unsigned forms);
void hlog__roster_end(struct hlog_roster_scan *s, struct hlog_report *r, const char *name,
		      const char *node, unsigned last_no, struct pspan last);
void hlog__roster_append(struct hlog_roster *o, const struct hlog_roster *p);
int hlog__roster_conclude(struct hlog_report *r);

/* hlogfacts.c: the software a line states of its node (fact_line; h: what
 * hlog__line_hits found in line), p's facts into r (append), and the
 * verdict when one component differs across hosts (conclude: 1 when it decided). */
void hlog__fact_line(struct hlog_report *r, const struct hlog_line *l, const struct hlog_hits *h,
		     const char *file, const char *node, unsigned no, struct pspan line);
void hlog__facts_append(struct hlog_report *r, const struct hlog_report *p);
int hlog__facts_conclude(struct hlog_report *r);
/* hlogcall.c: a collective call line l states (in_file counts the file's calls kept), the
 * calls of a part of the scan appended, and the comparison of the processes' calls: 1 when
 * two processes made different calls at one place of a communicator, set as r's cause */
void hlog__call_line(struct hlog_report *r, const struct hlog_line *l, const char *file,
		     const char *node, unsigned no, struct pspan line, unsigned *in_file);
void hlog__calls_append(struct hlog_report *r, const struct hlog_report *p);
int hlog__calls_conclude(struct hlog_report *r);

#endif
