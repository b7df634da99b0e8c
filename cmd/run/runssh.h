/* run --ssh inside: the launcher's state, shared by runssh.c (sessions, lines, the watcher)
 * and runsshreport.c (the closing report). */
#ifndef HCCLCTL_RUNSSH_H
#define HCCLCTL_RUNSSH_H

#include <cjson/cJSON.h>
#include <pthread.h>

#include "cmd/lib/deploy.h"
#include "cmd/lib/fanout.h"
#include "cmd/run/run.h"

#define RUNSSH_TAIL_LINES 5 /* of a failed rank's stderr, in the report */
/* what the launcher keeps of a rank's output, and of the rows rank 0 streams */
#define RUNSSH_KEEP_MAX (4UL << 20)
/* After Ctrl-C, run-node gives its ranks RUN_INTERRUPT_GRACE_MS to stop at the next row,
 * then TERM and 2 s later KILL (runnode.c); the launcher cancels the sessions when they have
 * not all ended this long after it (a node that does not answer), and at once on a second
 * Ctrl-C. */
#define RUNSSH_INTERRUPT_GRACE_MS 8000

struct ssh_run {
	const struct run_ssh_args *a;
	struct fo_host *hosts; /* rank r's record (per rank: also its session) */
	size_t n;
	struct fo_host *srv;   /* the sessions: one per server (or per rank) */
	size_t nsrv;
	int per_rank;          /* HCCLCTL_SSH_SESSIONS=rank: srv is hosts */
	int *srv_of;           /* rank -> its session */
	char **srv_ranks;      /* "0,1,2,3": a session's ranks, for run-node */
	int *from_srv;         /* the rank's end is its session's: it never reported its own */
	char **before, **rest; /* the sessions' commands around the path of hcclctl there */
	char **cmds;           /* ... and whole, once hcclctl is found there (deploy.c) */
	struct deploy dep;
	const char *master, *digest, *table_path;
	int *end_seq;          /* the order in which the hosts ended, from 1 */
	int seq;
	struct fo_cancel cancel;
	struct fo_cancel interrupt; /* Ctrl-C: every run-node is asked to stop its ranks */
	long long interrupt_ms;     /* when the watcher saw it, 0: not yet */
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int hard, soft, finished, ended;
	long long soft_ms, hard_ms;
	struct comm_rendezvous *rdv;
	struct comm_verdict verdict; /* once have_verdict: the monitor's, printed at once */
	int have_verdict;
	long long verdict_ms;
	/* the rows rank 0 streamed as it measured them (RUN_ROW_LINE lines), for a document
	 * when rank 0 ends without its own; rows_bytes bounds them like a session's output */
	cJSON *rows;
	size_t rows_bytes;
};

/* Names the cause, the other failures and what was stopped (stderr, or the JSON document).
 * Returns the exit code. */
int runssh_report(struct ssh_run *s, double seconds);

#endif
