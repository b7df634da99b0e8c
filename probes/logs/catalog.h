/* The failure signatures of the stack an AI cluster runs besides HCCL itself (internal to
 * probes/): NCCL/RCCL, torch.distributed (c10d, DDP, elastic), Gloo, MPI (Open MPI, MPICH,
 * PMIx), the collective test programs (nccl-tests, hccl_test), the serving engines and the
 * kernel log. Each is a row: the fixed texts that identify the line (needles), the kind of
 * failure (enum hcat), a short name, what it means and what to do (our own words), and
 * optionally a refiner that reads a number off the line and may sharpen or refuse the row.
 * The public source of each row's wording is named beside it. The values a line names
 * (addresses, ports, ranks, devices) are read by extract.c, never by a row. */
#ifndef HCCLCTL_PROBES_LOGS_CATALOG_H
#define HCCLCTL_PROBES_LOGS_CATALOG_H

#include <stddef.h>

#include "probes/logs/extract.h"
#include "probes/logs/hccllog.h"
#include "probes/npu/hcclcodes.h"

/* What a row's refine sets as the event's device when the line names a part that is no device
 * of the job (a node's CPU or board): no device is then read from the line's other keys. */
#define HLOG_DEV_NONE_HERE (-2)

struct hlog_sig {
	const char *needle[3]; /* every one occurs in the line (case-sensitive); NULL ends */
	int cat;	       /* enum hcat */
	const char *detail;    /* short name, unique over every table ("nccl-socket-connect") */
	const char *meaning;   /* one sentence */
	const char *fix;       /* self-contained */
	long long result;      /* the stack's own code for it (ncclResult_t), 0 when none */
	/* NULL, or: 0 refuses the row for this line; else may set e->cat, e->detail, e->value */
	int (*refine)(struct pspan m, const struct hx_vals *x, struct hlog_event *e);
};

/* The rows whose needle is the strerror text of an errno, by that errno: such a row matches
 * a line that gives the number alone ("Failed bind on ...:3026 ,errno=99") as it matches
 * one with the text. */
struct hlog_errno_row {
	int errnum;
	const char *detail; /* the row's */
};
extern const struct hlog_errno_row hlog__errno_rows[];
extern const size_t hlog__n_errno_rows;

/* One table of the catalog, by stack. */
struct hlog_sigtab {
	const char *stack; /* "nccl", "torch", ... */
	const struct hlog_sig *row;
	size_t n;
};

/* The fix of every row whose failure is too little locked memory where the ranks start (verbs
 * that cannot register memory or create queues, in NCCL's and MPI's words alike). */
#define HLOG_MEMLOCK_FIX                                                                      \
	"set the locked-memory limit to unlimited where the ranks start (ulimit -l in the job, "  \
	"LimitMEMLOCK=infinity for a systemd service, --ulimit memlock=-1 for a container) and " \
	"check it from inside the job"

extern const struct hlog_sigtab hlog__cat_verbs, hlog__cat_nccl, hlog__cat_torch, hlog__cat_host,
	hlog__cat_acl, hlog__cat_npufault;

/* Which needles of the catalog's rows and of the inner errors (hcclcodes.c's hinner rows) a
 * line holds, found in one pass of one automaton built from those tables on first use:
 * adding a row to a table is all it takes to have it searched. */
#define HLOG_HITS_MAX 1024 /* needles of both tables; more are searched one by one */
/* The needles of matchers that are no table's row, found in the same pass: a matcher whose
 * needle a line lacks returns at once instead of scanning the line itself. */
enum hlog_hitword {
	HLOG_HIT_IP_KEY, /* `_ip"`: a rank table's address field as a log prints it */
	/* logline.c's own: the pid and device of torch_npu's "(PID:n, Device:d, RankID:r)",
	 * CANN's "[PID: n]", and its "[FILE:...]" of a TraceBack line */
	HLOG_HIT_PID_PAREN,
	HLOG_HIT_PID_BRACKET,
	HLOG_HIT_FILE,
	/* a traceback's heading behind a prefix no rule strips */
	HLOG_HIT_TRACEBACK,
	HLOG_HIT_KERNEL, /* "kernel:" of syslog's " kernel: " (inside it, whatever the trim) */
	/* hccllog.c's: the heading of HCCL's list of possible causes, a Python frame */
	HLOG_HIT_REASONS,
	HLOG_HIT_CAUSES,
	HLOG_HIT_CAUSES_ARE,
	HLOG_HIT_FRAME,
	/* hlogfacts.c's: a version stated, NCCL's network plugin and network */
	HLOG_HIT_VERSION,
	HLOG_HIT_PLUGIN,
	HLOG_HIT_NETWORK,
	/* hlogroster.c's: a rank announced ("GLOBAL_RANK:", "rank 3 of 8", "# Rank 0 ... on",
	 * "process 0 of 2") */
	HLOG_HIT_ROSTER_GLOBAL,
	HLOG_HIT_ROSTER_RANK,
	HLOG_HIT_ROSTER_PROCESS,
	/* catalog.c's: an errno number ("errno=99", "[Errno 98]") */
	HLOG_HIT_ERRNO,
	/* hlogroster.c's: torch's "Waiting in store based barrier ... for rank: R" */
	HLOG_HIT_ROSTER_BARRIER,
	/* logtext.c's: a process stating its own rank ("myrank 0", "reported by process [J,1]",
	 * NCCL's "Trees [0] 1/-1/-1->0->-1") */
	HLOG_HIT_MYRANK,
	HLOG_HIT_REPORTED_BY,
	HLOG_HIT_TREES,
	/* hlogcall.c's: NCCL's collective call ("AllReduce: opCount 3 ...") */
	HLOG_HIT_OPCOUNT,
	/* hlogframe.c's: a results table's column of wrong values, nccl-tests' "#wrong" and its
	 * "error" before 2.10 */
	HLOG_HIT_COL_WRONG,
	HLOG_HIT_COL_ERROR,
	HLOG_NHITWORD
};
extern const char *const hlog__hitword[HLOG_NHITWORD];
/* Gates: words found in the same pass that say whether a later stage can find anything in
 * the line at all. Each stage lists every literal one of its branches needs (a superset is
 * safe; the automaton matches them in any case, which only opens a gate more often): a line
 * with none of its stage's words skips the stage, whose answer there is known to be "none". */
enum hlog_gate {
	HLOG_GATE_RECOG = 1,   /* hlog__recog_words: the recogniser's own literals */
	HLOG_GATE_ERRWORD = 2, /* hlog__error_gate_word: a word that may make a line an error */
	HLOG_GATE_DEVKEY = 4,  /* hlog__devkey_words: a key a device number may follow */
	HLOG_GATE_OUTCOME = 8, /* hlog__outcome_stems: a run's outcome may be stated */
	HLOG_GATE_CONTEXT = 16, /* hlog__context_words: a command or heading over output */
	HLOG_GATE_WATCHDOG = 32, /* hlog__watchdog_words: a watchdog's or heartbeat's report */
	HLOG_GATE_PIPE = 64,	 /* hlog__pipe_words: a table's bar, which link_row needs */
};
struct hlog_hits {
	const char *s; /* the line searched */
	size_t n;
	int inner;     /* the first hinner row found, -1 none */
	int all;       /* 1 when the automaton could not be built: search each row */
	unsigned words; /* bit w: hlog__hitword[w] is in the line */
	unsigned gate;	/* enum hlog_gate: a word of that gate is in the line */
	unsigned nrow;	/* catalog needles found (0: no row can match) */
	unsigned char row[HLOG_HITS_MAX / 8]; /* catalog needle k of row i: bit 3i + k */
};
/* 0 when word w is surely not in the line h was found in (else it may be). */
int hlog__hits_may(const struct hlog_hits *h, int w);
/* 0 when no word of gate g is in the line h was found in (else one may be). */
int hlog__hits_gate(const struct hlog_hits *h, unsigned g);
/* Whether the line holds anything the recogniser (hlog__recognise) can start from: a needle
 * of a catalog row, an inner error, the IP key, a recognition gate word or a bar. */
int hlog__hits_any(const struct hlog_hits *h);
void hlog__line_hits(struct pspan m, struct hlog_hits *h);
/* The automaton hlog__line_hits scans with (for the build's image of it: acmgen); NULL when
 * out of memory. */
struct acm;
const struct acm *hlog__line_acm(void);
/* The same, and in the same pass the knowledge base's anchors into found (kb.h), unless kb
 * is NULL. */
struct kb;
struct kb_found;
void hlog__line_hits_kb(struct pspan m, struct hlog_hits *h, const struct kb *kb,
			struct kb_found *found);
/* The recogniser's gate words, the device keys', the outcome's stems and the context's
 * words (gatewords.c), NULL-terminated. */
extern const char *const hlog__recog_words[], *const hlog__devkey_words[],
	*const hlog__outcome_stems[], *const hlog__context_words[],
	*const hlog__watchdog_words[], *const hlog__pipe_words[];
/* The first inner error row whose needle m holds (as hinner_match(m)), or NULL. */
const struct hinner *hlog__hits_inner(const struct hlog_hits *h);

/* The first row of any table that line m (with its values x) matches: e gets its kind
 * (HLOG_INNER), cat, detail, result and the values of x; NULL when none matches. h: what
 * hlog__line_hits found in m, or NULL to search here. */
const struct hlog_sig *hlog__sig_match(struct pspan m, const struct hx_vals *x,
				       struct hlog_event *e, const struct hlog_hits *h);
/* The row (or InfiniBand completion status) named detail, or NULL: its meaning and fix. */
const struct hlog_sig *hlog__sig_find(const char *detail);
/* Every row, for listing and tests: the i-th, or NULL past the end. */
const struct hlog_sig *hlog__sig_at(size_t i);

/* libibverbs' completion status (enum ibv_wc_status) as NCCL prints it after "Got completion
 * from peer": its row (detail "ib-" and the status), NULL for a value out of the enum. */
const struct hlog_sig *hlog__ib_status(long long status);
/* Its enum name, "IBV_WC_RETRY_EXC_ERR"; NULL out of range. */
const char *hlog__ib_status_name(long long status);
/* Its text as ibv_wc_status_str() gives it, where that text is read from lines; NULL for the
 * plain ones ("success", "fatal error", ...) and out of range. */
const char *hlog__ib_status_text(long long status);
/* libibverbs' asynchronous event (enum ibv_event_type): its row when the event reports a
 * failure (detail "ib-ev-"), else NULL; and its name as ibv_event_type_str() spells it. */
const struct hlog_sig *hlog__ib_event(long long ev);
const char *hlog__ib_event_name(long long ev);

#endif
