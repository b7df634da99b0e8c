/* Flight-recorder dumps (schema "hcclctl-flight/1"): the last collectives of one rank, written
 * by libcomm on a timeout, a fatal error or SIGUSR1. flight_dump_parse reads one dump, which is
 * outside input: every field is checked, and a problem is reported with its place
 * ("FILE:LINE:COL: records[3].seq: expected an integer, found a string"). flight_analyze merges
 * the dumps of one job and finds the missing ranks, the first sequence number where the ranks
 * diverge, fingerprint mismatches and the most likely culprit. Neither prints. */
#ifndef HCCLCTL_PROBES_FLIGHT_H
#define HCCLCTL_PROBES_FLIGHT_H

#include <stddef.h>
#include <stdint.h>

#define FLIGHT_SCHEMA "hcclctl-flight/1"
#define FLIGHT_ERRLEN 512
#define FLIGHT_MAX_RECORDS 100000 /* the recorder keeps 1000; more is not a dump */
#define FLIGHT_MAX_WORLD 1048576
#define FLIGHT_HOSTLEN 256 /* host names up to 255 bytes */
#define FLIGHT_IDLEN 65	   /* comm_id up to 64 bytes */
#define FLIGHT_MSGLEN 1024 /* error messages are kept up to 1023 bytes */

enum flight_coll {
	FLIGHT_ALLREDUCE,
	FLIGHT_ALLGATHER,
	FLIGHT_REDUCESCATTER,
	FLIGHT_BROADCAST,
	FLIGHT_ALLTOALL,
	FLIGHT_SEND,
	FLIGHT_RECV,
	FLIGHT_BARRIER,
	FLIGHT_SPLIT,
};
/* "" for the collectives without one */
enum flight_dtype {
	FLIGHT_DT_NONE,
	FLIGHT_INT8,
	FLIGHT_INT32,
	FLIGHT_INT64,
	FLIGHT_FP16,
	FLIGHT_BF16,
	FLIGHT_FP32,
	FLIGHT_FP64
};
enum flight_op { FLIGHT_OP_NONE, FLIGHT_SUM, FLIGHT_PROD, FLIGHT_MAX, FLIGHT_MIN };
enum flight_algo { FLIGHT_ALGO_NONE, FLIGHT_AUTO, FLIGHT_RING, FLIGHT_RHD, FLIGHT_MESH };
enum flight_state { FLIGHT_DONE, FLIGHT_RUNNING, FLIGHT_FAILED };
enum flight_reason { FLIGHT_TIMEOUT, FLIGHT_ERROR, FLIGHT_SIGNAL, FLIGHT_EXIT };

struct flight_record {
	int64_t seq;   /* collectives: the communicator's sequence; send/recv: with that peer */
	int64_t count; /* elements */
	int64_t root;  /* -1 when none; send/recv: the peer rank */
	int64_t bytes, sent, received;
	int64_t step; /* last algorithm step reached; -1: still in the fingerprint exchange */
	int64_t peer; /* peer last waited on, -1 if none */
	int64_t start_us, end_us; /* end_us -1: null */
	enum flight_coll coll;
	enum flight_dtype dtype;
	enum flight_op op;
	enum flight_algo algo;
	enum flight_state state;
	char *error;	    /* NULL, or owned by the dump; control characters replaced by '?' */
	unsigned line, col; /* where the record starts in its file */
};

struct flight_dump {
	char *name; /* the file name, owned */
	int64_t rank, world_size, dumped_at_us;
	char host[FLIGHT_HOSTLEN];
	char comm_id[FLIGHT_IDLEN];
	enum flight_reason reason;
	char *error;		   /* NULL or owned */
	struct flight_record *rec; /* oldest first, owned */
	size_t nrec;
};

/* Parses one dump from buf[0..len) (need not be NUL-terminated; may hold any bytes). name is
 * the file name used in messages and copied into d. Returns 0; -EINVAL with err saying what
 * and where ("NAME:LINE:COL: ..."; a file cut short says "truncated"); or -ENOMEM. d is zeroed
 * first; release it with flight_dump_release in every case. */
int flight_dump_parse(struct flight_dump *d, const char *name, const char *buf, size_t len,
		      char *err, size_t errlen);
void flight_dump_release(struct flight_dump *d);

const char *flight_coll_name(enum flight_coll c);
const char *flight_dtype_name(enum flight_dtype t); /* "" for FLIGHT_DT_NONE */
size_t flight_dtype_size(enum flight_dtype t);	    /* 0 for FLIGHT_DT_NONE */
const char *flight_op_name(enum flight_op o);
const char *flight_algo_name(enum flight_algo a);
const char *flight_state_name(enum flight_state s);
const char *flight_reason_name(enum flight_reason r);
int flight_is_p2p(enum flight_coll c);

/* ---- the analysis of one job's dumps (probes/flight/flight_merge.c) ---- */

enum flight_kind {
	FLIGHT_OK,	   /* every rank dumped, they agree and every collective completed */
	FLIGHT_DEAD_RANK,  /* a rank left no dump */
	FLIGHT_STUCK_RANK, /* a rank behind the others, or the one the others wait on */
	FLIGHT_MISMATCH,   /* ranks called a collective with different arguments */
	FLIGHT_CONFIG,	   /* dumps of different jobs */
};
const char *flight_kind_name(enum flight_kind k); /* "ok", "dead-rank", ... */

/* A set of ranks, ascending. */
struct flight_ranks {
	int64_t *v;
	size_t n, cap;
};

/* One value of a field that differs between ranks, and who has it. */
struct flight_value {
	char text[48]; /* "262144", "fp32" */
	int64_t bytes; /* count x dtype size, -1 when not a size field */
	struct flight_ranks ranks;
};

/* One field that differs at the divergence point. */
struct flight_field {
	const char *name; /* "coll", "count", "dtype", "op", "root", "algo" */
	struct flight_value *val;
	size_t nval;
	char *message; /* "count: ranks 0,1,3 have 262144 (1048576 bytes), rank 2 has ..." */
};

enum flight_div_kind {
	FLIGHT_DIV_NONE,
	FLIGHT_DIV_PROGRESS,	/* some ranks reached seq, others did not */
	FLIGHT_DIV_FINGERPRINT, /* ranks called seq with different arguments */
	FLIGHT_DIV_P2P_PROGRESS,
	FLIGHT_DIV_P2P_FINGERPRINT,
};

struct flight_divergence {
	enum flight_div_kind kind;
	int64_t seq;
	int coll;			   /* enum flight_coll, -1 when no dump holds seq */
	int64_t from, to;		   /* send/recv: the sending and the receiving rank */
	struct flight_ranks behind, ahead; /* PROGRESS: who never started seq, who reached it */
	int waiting;			   /* PROGRESS: every rank ahead is still in seq */
	struct flight_field *field;	   /* FINGERPRINT */
	size_t nfield;
	char *message; /* the whole finding in one line */
};

/* What one rank was doing when it dumped. */
struct flight_rank_state {
	const struct flight_dump *dump;
	int64_t last_done; /* the newest completed collective's seq, -1 when none */
	int last_done_coll;
	size_t nopen; /* records running or failed */
	const struct flight_record **open;
	char *message; /* "rank 0 (node0, timeout): last done allreduce #40; running ..." */
};

struct flight_analysis {
	int64_t world_size;
	char comm_id[FLIGHT_IDLEN];
	struct flight_ranks present, missing;
	struct flight_rank_state *rank; /* one per present rank, in rank order */
	size_t nrank;
	struct flight_divergence div;
	int all_done;	  /* no record running or failed */
	int64_t last_seq; /* the newest collective seq of any rank, -1 when none */
	int last_coll;
	enum flight_kind kind;
	int64_t culprit;    /* -1 when none */
	char *culprit_host; /* NULL when unknown (points into a dump) */
	char *verdict;	    /* the conclusion in one line, without the "verdict: kind: " */
	char *problem;	    /* CONFIG: what differs between the dumps */
	char **note;	    /* warnings about the input, e.g. a rank dumped twice */
	size_t nnote;
};

/* Merges n dumps (each already parsed) of one job. The dumps must outlive a, which points into
 * them. Dumps of different jobs (comm_id or world_size differ) give kind FLIGHT_CONFIG with a
 * problem message and nothing else; of two dumps of one rank the newer (dumped_at_us) is used,
 * with a note. Returns 0 or -ENOMEM (err says so). Release a with flight_analysis_release in every
 * case. */
int flight_analyze(struct flight_analysis *a, const struct flight_dump *const *dumps, size_t n,
		   char *err, size_t errlen);
void flight_analysis_release(struct flight_analysis *a);

/* "0-3,5,7": ascending ranks, runs of four or more as ranges. Writes at most len bytes (ends
 * in "..." when cut). */
const char *flight_ranks_text(const struct flight_ranks *r, char *buf, size_t len);

#endif
