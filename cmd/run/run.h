/* `hcclctl run`: the per-rank benchmark sweep (runrank.c) and its launchers (run.c). */
#ifndef HCCLCTL_RUN_H
#define HCCLCTL_RUN_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cmd/cli/cli.h"
#include "cmd/lib/tablefile.h"
#include "libcomm/libcomm.h"

/* One row of results, as rank 0 reports it: nccl-tests' out-of-place and in-place groups. */
struct run_row {
	size_t bytes, count;
	enum comm_dtype dtype;
	enum comm_op op; /* when has_op: a reduction's */
	int has_op;
	int root; /* broadcast's; -1: the collective has none (nccl-tests' column) */
	double time_us, algbw, busbw;
	long long wrong; /* -1: not checked */
	/* the same call in place (recv is send, as nccl-tests places it); ip_time_us < 0: not
	 * run (sendrecv and barrier, whose calls have no in place; --engine hccl) */
	double ip_time_us, ip_algbw, ip_busbw;
	long long ip_wrong;
	enum comm_algo algo;
	double nrmse; /* --compress: normalised RMS error against the exact sum (the larger of the
		       * two placements); -1: not measured */
};
/* The row's op as the table names it: "none" for a collective that does not reduce. */
const char *run_row_op(const struct run_row *r);

struct run_engine;

struct run_params {
	enum comm_coll coll;
	unsigned long long min_bytes, max_bytes;
	unsigned long factor;
	enum comm_dtype dtype; /* of the sweep that runs: one of dtypes[] */
	enum comm_op op;       /* one of ops[] */
	enum comm_dtype dtypes[COMM_DTYPE_COUNT]; /* -d: one, or every one (all) */
	int ndtypes;
	enum comm_op ops[COMM_OP_COUNT]; /* -o: one, or every one (all) */
	int nops;
	long cycles;             /* -N: the set of sweeps this many times, 0: until Ctrl-C */
	int average;             /* -a: a row's time is rank 0's (0), the mean (1), min (2), max (3) */
	unsigned long long step; /* -i: bytes added from a size to the next; 0: times factor */
	long iters, warmup;
	int check, root;
	enum comm_algo algo;
	enum comm_compress compress; /* allreduce: N(0,1) data, error measured, not exact */
	uint64_t seed;
	int json;
	const char *launch; /* "local", "master", "torchrun", ... for the header */
	struct run_engine *engine; /* NULL: libcomm on host memory */
};

/* A row's buffers on the host: input, output, and the expected output. */
struct run_bufs {
	void *send, *recv, *want;
};

/* How a row's collective runs when it is not libcomm's: HCCL's on a device (runhccl.c).
 * reserve: device buffers of `bytes` each, once before the sweep. run: the collective of p,
 * iters times on count elements per rank; RUN_IN first copies b->send (and b->recv for
 * broadcast) to the device, RUN_OUT copies the result back into b->recv; with us, the mean
 * time of one iteration in microseconds. Both return 0, a comm_status (the side channel
 * failed) or RUN_E_ENGINE (the engine failed; it holds the message and the verdict). */
#define RUN_IN 1u
#define RUN_OUT 2u
#define RUN_E_ENGINE (-100)
struct run_engine {
	const char *name;
	int (*reserve)(struct run_engine *e, size_t bytes);
	int (*run)(struct run_engine *e, struct comm *c, const struct run_params *p,
		   struct run_bufs *b, size_t count, long iters, unsigned flags, double *us);
};

/* Called by rank 0 after each size, so rows print as they complete. */
typedef void (*run_row_fn)(const struct run_params *p, int nranks, const struct run_row *row,
			   void *arg);

/* Runs the sweep on c. Wrong elements are counted across ranks; the first one of this rank
 * is described in first_wrong. Returns 0, a comm_status, or 1 when results were wrong. */
int run_sweep(struct comm *c, const struct run_params *p, run_row_fn row_fn, void *arg,
	      struct run_row **rows, size_t *nrows, char *first_wrong, size_t len);

/* cmd/run/runsets.c: -d WORD (hcclctl's names, nccl-tests' and hccl_test's, or all) and -o
 * WORD (or all) into out[]: how many, or -1 with why (unknown, or a type or op libcomm
 * lacks, said so). run_sets: every sweep p asks for (cycles x dtypes x ops; run_sweep's rows
 * go to row_fn), stopping where the ranks agreed to stop; 0, 1 (wrong results, the first in
 * first_wrong) or a comm_status. */
int run_dtypes_parse(const char *word, enum comm_dtype *out, char *why, size_t len);
int run_ops_parse(const char *word, enum comm_op *out, char *why, size_t len);
int run_sets(struct comm *c, const struct run_params *p, run_row_fn row_fn, void *arg,
	     char *first_wrong, size_t len);

/* runsets.c: nccl-tests' -g G and -t T, hccl_test's -p N into local (--local's N, 0: none):
 * alone, G x T ranks here (said) or N; beside --local, -p or a launcher (which starts the
 * ranks itself) -g and -t are a usage error and -p is ignored. 0, or EXIT_USAGE (said). */
struct run_placement {
	long ngpus, nthreads, npus, local;
	int launcher; /* --rank, --ssh or a launcher's environment names the ranks */
	const char *where;
};
int run_placement_read(struct run_placement *pl);

/* --compress: a row fails when its normalised RMS error is above this. */
#define RUN_NRMSE_LIMIT 0.01

/* The nccl-tests bus bandwidth factor of coll for n ranks. */
double run_bus_factor(enum comm_coll coll, int n);

/* Launch mode 4 (runssh.c): what run.c parsed. */
struct run_ssh_args {
	const char *where;     /* "run allreduce" */
	const char *coll_name; /* the command word: "allreduce", "sendrecv" ... */
	const char *ranktable; /* FILE, URL or - */
	const char *user, *key, *known_hosts, *remote_hcclctl, *master_addr;
	long port, parallel, root;
	int insecure;
	int rdv_timeout_ms;
	const char *const *fwd; /* the sweep options for every rank, as words */
	int nfwd;
};
int run_ssh_launch(const struct run_ssh_args *a);

/* cmd/run/runnode.c: the hidden `hcclctl run-node`, the remote parent of one server's ranks
 * (its opening comment has the tagged lines it writes; nodeout.h reads them). */
extern const struct opt run_node_opts[]; /* struct opt: cli.h */
int cmd_run_node(int argc, char **argv);

/* The local address of the route to host (what a peer there reaches us on) in out[len];
 * 0, or -1 with err. */
int run_route_addr(const char *host, char *out, size_t len, char *err, size_t errlen);

/* cmd/run/rdvetcd.c: --rendezvous etcd://HOST:PORT/PREFIX. The ranks meet through etcd; rank 0
 * hosts libcomm's rendezvous (*rdv, the caller stops it) and publishes its token, which
 * every rank gets in *ri once all nranks registered. *out: the session, whose entries
 * rdv_etcd_finish removes. 0, or -ETIMEDOUT (ranks missing), -EEXIST (a duplicate rank),
 * -EINVAL (a world-size mismatch or a bad URL), another negative errno (etcd unreachable
 * or answering nonsense); err says which, naming ranks, hosts and pids. */
struct rdv_etcd;
struct rdv_etcd_args {
	const char *url;       /* etcd://HOST:PORT/PREFIX, or etcds:// for https */
	int rank, nranks;
	const char *host;      /* this rank's host name, for the others' messages */
	const char *bind_addr; /* rank 0 hosts here; NULL: the route's source toward etcd */
	int timeout_ms;        /* the meeting's deadline */
	int rdv_timeout_ms;    /* libcomm's rendezvous deadline (rank 0) */
	const char *label;     /* "run allreduce", for progress lines */
};
int rdv_etcd_meet(const struct rdv_etcd_args *a, struct comm_root_info *ri,
		  struct comm_rendezvous **rdv, struct rdv_etcd **out, char *err, size_t errlen);
void rdv_etcd_finish(struct rdv_etcd *e);

/* cmd/run/runsecret.c: the job's 16-byte key for ranks started by another launcher, from
 * HCCLCTL_SECRET or HCCLCTL_SECRET_FILE (0), else derived from host, port and n (1: anyone
 * who can reach the address can compute it); -1 with err when what was given is unusable. */
int run_job_secret(const char *host, int port, int n, unsigned char out[16], char *err,
		   size_t errlen);


/* cmd/run/runflight.c: the flight recorder's file for c in run_flight_dir (NULL:
 * $HCCLCTL_FLIGHT_DIR, else the user's private ${TMPDIR:-/tmp}/hcclctl-<uid>), its path in
 * path[len]; 0 or -errno with err. arm/disarm: SIGUSR1 writes one while c runs. */
extern const char *run_flight_dir;
int run_flight_write(struct comm *c, const char *reason, char *path, size_t len, char *err,
		     size_t errlen);
void run_flight_arm(struct comm *c);
void run_flight_disarm(void);

/* cmd/run/runprofile.c: --profile FILE (run_profile_file, else $HCCLCTL_PROFILE); NULL when off.
 * run_profile_gather: collective over c; rank 0 writes the merged Chrome trace. 0, or a
 * negative errno / comm_status with err. */
extern const char *run_profile_file;
const char *run_profile_path(void);
int run_profile_gather(struct comm *c, char *err, size_t errlen);

/* cmd/run/runslow.c: after a sweep (collective over c), rank 0 learns the slowest directed link
 * (pace under 70 % of the median link's) or, failing that, the rank the others waited on
 * (over twice the median, each waiting 10 % of run_s, the time since comm_init, or more).
 * 0 or a comm_status. */
struct run_slow {
	int have_link, from, to, links; /* links: how many had enough data to judge */
	double rate, median;            /* bytes/s: the slow link's pace, the median link's */
	int have_rank, rank;
	double waited, median_waited;   /* s the others waited on it, the median rank's */
};
int run_slow_judge(struct comm *c, double run_s, struct run_slow *s);

/* cmd/run/runlinks.c: this rank's links by transport (out[0] shm, out[1] tcp); say: the -v line
 * "rank R: links: S shm, T tcp (to ranks A B: why; ...)"; gather: collective over c, rank 0
 * gets the JSON object {"shm", "tcp" (links, each once), "per_rank": [{"rank", "shm",
 * "tcp"}]} in *out (the caller's; NULL elsewhere). 0 or a comm_status. */
void run_links_count(struct comm *c, int out[2]);
void run_links_say(struct comm *c, const char *where);
struct cJSON;
int run_links_gather(struct comm *c, struct cJSON **out);

/* cmd/run/verdict.c: the verdict line on stderr ("hcclctl: verdict: KIND: ..."), its JSON object
 * (a cJSON *, the caller's), the exit code it stands for, and a verdict for a failure that
 * happened before there was a communicator to ask (init: config or a rank that never came). */
/* A verdict kind of hcclctl's own, beside libcomm's: an HCCL or ACL call failed on a rank
 * (exit 2, "hccl-error"). */
#define RUN_VERDICT_HCCL_ERROR COMM_VERDICT_KIND_COUNT
/* and: a server could not be reached (run --ssh), before any rank ran there ("unreachable") */
#define RUN_VERDICT_UNREACHABLE (COMM_VERDICT_KIND_COUNT + 1)
const char *run_verdict_kind_name(int kind);
void run_verdict_print(const struct comm_verdict *v);
void *run_verdict_json(const struct comm_verdict *v);
int run_verdict_exit(const struct comm_verdict *v);
void run_verdict_from_status(struct comm_verdict *v, int status, const char *msg);
/* The first verdict line ("hcclctl: verdict: KIND: MESSAGE", as run_verdict_print writes it
 * without colour) in text (len bytes, a rank's stderr relayed over SSH) into *v: its kind,
 * its message, and the rank the message starts with ("rank N ..."), else rank -1. 0, or
 * -ENOENT when there is none. */
int run_verdict_parse(const char *text, size_t len, struct comm_verdict *v);

/* cmd/run/runstop.c: ending the sweep early, on every rank at the same row (its opening
 * comment says why). arm: SIGINT asks, SIGPIPE is ignored (a closed stdout is an EPIPE).
 * flush: fflush(stdout), an EPIPE asks; -1 when it failed. asked: this rank's reasons;
 * agree/agreed: the job's, as the row's allreduce found them. exit: the exit code of a rank
 * at its end: EXIT_PIPE where its own stdout was closed (rank 0's, which prints), else
 * EXIT_INTERRUPT when the job was interrupted, else code. */
/* How long ranks asked to stop (Ctrl-C) get to end their row before the one that asked them
 * (--local's launcher, run --ssh's run-node) kills them. */
#define RUN_INTERRUPT_GRACE_MS 3000
#define RUN_STOP_INTERRUPT 1
#define RUN_STOP_OUTPUT 2
void run_stop_arm(void);
int run_stop_flush(void);
int run_stop_asked(void);
int run_stop_interrupts(void); /* how many SIGINTs came */
void run_stop_agree(int why);
int run_stop_agreed(void);
int run_stop_exit(int code);

/* cmd/run/runprom.c: run --prometheus. Rows as rank 0 reports them, then the file with the
 * verdict kind (COMM_VERDICT_*) and the exit code (-1: from the rows' wrong counts): 0
 * (written, or no --prometheus), or -1 with the message printed. run_prom_exit: a run's exit
 * code once its outputs are written: 3 where one could not be, unless the run failed or ended
 * early (its own code stands). */
void run_prom_row(const struct run_params *p, const char *coll, const char *op,
		  const struct run_row *r);
int run_prom_write(const char *coll, int kind, int exit_code);
int run_prom_exit(int outputs_failed, int code);

/* The bytes of a rank's error and flight recorder path the launcher of --local keeps. */
#define ERR_SLOT 1024

/* The output of a sweep (run_out.c): the same rows feed the table and the JSON. */
struct cJSON;
/* Where rank 0's rows go besides its table: --local's rank 0 leaves them in the launcher's
 * shared page (slot, set by run_local.c) at once, so that a rank killed in a later row still
 * has them shown; without a page, a failure keeps them in own for this process's document; rank
 * 0 of run --ssh --json sends each to the launcher as it is measured (to_launcher). */
struct run_relay {
	char *slot;
	struct cJSON *own;
	int to_launcher;
	int full; /* the rows no longer fit the page, which keeps the ones that last did */
};

struct out_ctx {
	struct cJSON *results;
	struct run_relay *relay; /* NULL: the table and the document only */
	double busbw_sum, time_sum; /* over groups (out of place, in place), over rows */
	size_t rows, groups;
	long long wrong; /* of both groups of every row */
	double nrmse_max;    /* --compress: the largest error of a row, -1: none measured */
	struct cJSON *links; /* --json: the links by transport (rank 0) */
};
void run_out_header(const struct run_params *p, int n);
/* A run_row_fn: arg is the struct out_ctx. */
void run_out_row(const struct run_params *p, int n, const struct run_row *r, void *arg);
/* run_out_row, then the row to where o->relay sends it (a run_row_fn, arg the struct out_ctx). */
void run_out_relay_row(const struct run_params *p, int n, const struct run_row *r, void *arg);
/* A failure keeps the rows measured: into the page, else into rl->own (*rows handed over). */
void run_out_keep(struct run_relay *rl, struct cJSON **rows);
/* The footer, or with --json the whole document (o->results is handed to it and freed), and
 * the --prometheus file; code: rank 0's exit code so far, for the metrics and the document's
 * exit_code (run_prom_exit's when the file could not be written). 0, or -1 when an output
 * could not be written (said). */
int run_out_footer(const struct run_params *p, int n, struct out_ctx *o, const struct run_slow *sl,
		   struct comm *c, int code);

/* --local (run_local.c): forks n ranks on this host that meet at a rendezvous process of
 * their own, waits for them and reports what failed; returns the job's exit code. The
 * rank's body lives above (run.c) and is handed down here. */
struct run_local {
	/* runs one rank to the end: err gets why it failed, v the job's verdict */
	int (*rank_main)(const struct comm_root_info *ri, int rank, int n,
			 const struct run_params *p, char *err, size_t errlen,
			 struct comm_verdict *v);
	char **flight_slot; /* where a forked rank leaves its flight recorder's path */
	/* where rank 0 leaves the rows it measured before the job failed: its --json array
	 * (RUN_MEASURED_MAX bytes at most), for the launcher's document */
	char **measured_slot;
	const char *where;  /* "run allreduce", for messages */
	long timeout_s;	    /* the rendezvous's deadline, 0: 120 s */
};
#define RUN_MEASURED_MAX (256 * 1024)

/* run_bind.c: which CPU each rank of --local runs on. plan reads HCCLCTL_BIND and the CPUs
 * the launcher may use (-1 with err on a bad value); rank binds the calling process, rank
 * r of the plan's n, to the r-th of them: the CPU, or -1 when it stays unbound. */
struct run_bind {
	bool on;
	cpu_set_t allowed;
};
int run_bind_plan(struct run_bind *b, int n, char *err, size_t errlen);
int run_bind_rank(const struct run_bind *b, int rank);
/* Under run --ssh --json, rank 0 (a rank of run-node) writes each row it measures on its
 * stdout as this word and the row's JSON on one line, besides its document at the end: a
 * rank 0 killed in a later row has no document, and the launcher's keeps those rows. */
#define RUN_ROW_LINE "hcclctl-row "
int run_local_launch(const struct run_params *p, int n, const struct run_local *l);

#endif
