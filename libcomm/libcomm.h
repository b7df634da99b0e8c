/* libcomm: hcclctl's embedded collective library. Host-memory collectives over TCP (RDMA
 * verbs later) with an authenticated rendezvous, per-collective fingerprints and a deadline
 * on every wait, so a hang or a mismatch comes back as a named error, never a silent wait.
 * Knows nothing of rank tables or the CLI; never prints, never exits. */
#ifndef LIBCOMM_H
#define LIBCOMM_H

#include <stddef.h>
#include <stdint.h>

#define COMM_PROTOCOL_VERSION 3
#define COMM_TOKEN_MAX 160 /* a printable root-info token, NUL included */
#define COMM_ERRLEN 512

/* Error codes: 0 or one of these (negative). The message (comm_last_error or err) says
 * which rank, host, peer, collective and step. */
enum comm_status {
	COMM_OK = 0,
	COMM_E_INVAL = -1,     /* bad argument */
	COMM_E_NOMEM = -2,
	COMM_E_SYS = -3,       /* a system call failed (socket, epoll, thread) */
	COMM_E_TIMEOUT = -4,   /* a deadline passed: the message names the peer waited on */
	COMM_E_PEER = -5,      /* a peer closed, died or aborted */
	COMM_E_MISMATCH = -6,  /* collective fingerprints differ between ranks */
	COMM_E_AUTH = -7,      /* wrong secret / failed HMAC challenge */
	COMM_E_BOOTSTRAP = -8, /* hello disagreement: duplicate rank, world size, version, digest */
	COMM_E_PROTO = -9,     /* malformed frame on the wire */
};
const char *comm_status_name(int status); /* "timeout", "peer", ... */

enum comm_dtype {
	COMM_INT8, COMM_INT32, COMM_INT64, COMM_FP16, COMM_BF16, COMM_FP32, COMM_FP64,
	/* after the first seven, whose values are on the wire already */
	COMM_INT16, COMM_UINT8, COMM_UINT32, COMM_UINT64,
	COMM_DTYPE_COUNT
};
enum comm_op { COMM_SUM, COMM_PROD, COMM_MAX, COMM_MIN, COMM_OP_COUNT };
enum comm_algo { COMM_ALGO_AUTO, COMM_ALGO_RING, COMM_ALGO_RHD, COMM_ALGO_MESH, COMM_ALGO_COUNT };
enum comm_coll {
	COMM_COLL_ALLREDUCE, COMM_COLL_ALLGATHER, COMM_COLL_REDUCESCATTER, COMM_COLL_BROADCAST,
	COMM_COLL_ALLTOALL, COMM_COLL_SEND, COMM_COLL_RECV, COMM_COLL_BARRIER, COMM_COLL_COUNT
};

size_t comm_dtype_size(enum comm_dtype t);
const char *comm_dtype_name(enum comm_dtype t); /* "int8" ... "fp64" ... "uint64" */
const char *comm_op_name(enum comm_op op);      /* "sum" "prod" "max" "min" */
const char *comm_algo_name(enum comm_algo a);   /* "auto" "ring" "rhd" "mesh" */
const char *comm_coll_name(enum comm_coll c);   /* "allreduce" ... */
/* Name -> value; -1 when unknown. */
int comm_dtype_parse(const char *s);
int comm_op_parse(const char *s);
int comm_algo_parse(const char *s);
int comm_coll_parse(const char *s);

/* ---- root info and rendezvous ---- */

/* The printable token every rank needs: protocol version, rendezvous address and port, and a
 * random 128-bit secret, e.g. "comm3:127.0.0.1:29500:<32 hex>". */
struct comm_root_info {
	char token[COMM_TOKEN_MAX];
};

/* Makes a token for host:port. secret16 NULL: a fresh random secret (getrandom); else the
 * given 16 bytes, so ranks started by other launchers can share one (HCCLCTL_SECRET). */
int comm_root_info_make(struct comm_root_info *ri, const char *host, int port,
			const unsigned char *secret16, char *err, size_t errlen);

struct comm_rendezvous;
struct comm_verdict;
/* Hosts the rendezvous of the token in a background thread of this process (rank 0 or a
 * launcher). Port 0 in the token: an ephemeral port is bound and written back into ri.
 * Serves nranks hellos, checks them (duplicate rank, world size, version, digest) and
 * answers each rank with the address book or the named error. Caller stops it. */
int comm_rendezvous_start(struct comm_rendezvous **out, struct comm_root_info *ri, int nranks,
			  int timeout_ms, char *err, size_t errlen);
void comm_rendezvous_stop(struct comm_rendezvous *r);
/* Connections the rendezvous refused so far (wrong secret, no hello, malformed hello); the
 * last reason, "refused connection from ADDR: WHY", is copied into why[whylen] if given. */
unsigned comm_rendezvous_refused(struct comm_rendezvous *r, char *why, size_t whylen);
/* The verdict the rendezvous reached about the job, if any: 1 and *v filled, else 0. */
int comm_rendezvous_verdict(struct comm_rendezvous *r, struct comm_verdict *v);

/* ---- verdicts: who or what made a job fail ---- */

/* While a job runs, every rank heartbeats to the rendezvous on the connection it said hello
 * on (the status channel), and the rendezvous watches them. On the first fault it decides one
 * verdict and tells every rank, which fail their operation in progress with it: a killed
 * rank, a frozen one and a cut-off one are named within the heartbeat timeout
 * (HCCLCTL_HEARTBEAT_TIMEOUT seconds, default 5), not after the exec deadline. */
enum comm_verdict_kind {
	COMM_VERDICT_NONE,
	COMM_VERDICT_DEAD_RANK,  /* its process ended without closing the communicator */
	COMM_VERDICT_STUCK_RANK, /* alive to TCP but silent: frozen, or never came */
	COMM_VERDICT_LINK_DOWN,  /* a host or a directed link does not carry packets */
	COMM_VERDICT_SLOW_LINK,  /* a directed link clearly slower than the others */
	COMM_VERDICT_MISMATCH,   /* ranks called different operations */
	COMM_VERDICT_CONFIG,     /* bootstrap disagreement, wrong secret, bad setup */
	COMM_VERDICT_ERROR,      /* a rank failed on its own (memory, a system call) */
	COMM_VERDICT_KIND_COUNT
};
const char *comm_verdict_kind_name(int kind); /* "dead-rank", "stuck-rank", ... */

struct comm_verdict {
	int kind;                /* enum comm_verdict_kind */
	int rank;                /* the culprit rank, -1 when the culprit is a link */
	char host[256];          /* its host ("" when unknown) */
	int link_from, link_to;  /* the directed link, -1 when none */
	int coll;                /* where the job stood: the collective (-1 none), */
	uint32_t seq;            /* its sequence number, */
	int step;                /* the algorithm step (-1: the fingerprint exchange), */
	int waiter, peer;        /* a rank that waited and the peer it waited on (-1 none), */
	uint64_t bytes;          /* and the bytes that rank had moved in the collective */
	uint32_t after_ms;       /* from the last sign of life to the verdict */
	char msg[COMM_ERRLEN];   /* the verdict in one line, without the kind */
};

/* ---- communicators ---- */

struct comm_config {
	int rank, nranks;
	const char *host;          /* this rank's host name for messages; NULL: gethostname */
	const char *listen_addr;   /* address peers reach this rank on; NULL: from the route
				    * to the rendezvous */
	const char *digest;        /* optional rank-table digest: all ranks must agree */
	int connect_timeout_ms;    /* 0: HCCLCTL_CONNECT_TIMEOUT (s) or 120 s */
	int exec_timeout_ms;       /* 0: HCCLCTL_EXEC_TIMEOUT (s) or 300 s */
	enum comm_algo algo;       /* COMM_ALGO_AUTO: chosen per call; HCCLCTL_ALGO overrides auto */
};

struct comm;
/* Joins the communicator of ri as cfg->rank of cfg->nranks. Blocks until every rank has said
 * hello and the connections are up, or the connect deadline. Caller destroys *out. */
int comm_init(struct comm **out, const struct comm_root_info *ri, const struct comm_config *cfg,
	      char *err, size_t errlen);
/* Ranks with the same color form a sub-communicator, ordered by key then parent rank.
 * Collective over the parent. color < 0: this rank joins none (*out = NULL). */
int comm_split(struct comm *parent, int color, int key, struct comm **out);
void comm_destroy(struct comm *c);
int comm_rank(const struct comm *c);
/* The host name rank said in its hello ("" when out of range); valid while c lives. */
const char *comm_peer_host(const struct comm *c, int rank);
int comm_size(const struct comm *c);
/* Peers this rank holds a connection to now. Links are made the first time an operation
 * needs a peer (a ring's neighbours, rhd's partners, a send's peer), so a job of ring and
 * rhd collectives holds O(log N) of them; HCCLCTL_CONNECT=full makes all N-1 in init. */
int comm_connections(const struct comm *c);
/* Connections to c's listening port that never became a link: silent past their handshake
 * time or still in it, closed early, a wrong secret, another job or communicator. Strangers:
 * counted and dropped without holding up a collective. */
unsigned comm_strangers(const struct comm *c);
/* The transport of the link to peer: "shm" (shared memory: the same kernel, network and pid
 * namespace, unless HCCLCTL_TRANSPORT=tcp) or "tcp"; NULL when there is no link to it (yet).
 * Static strings. */
const char *comm_link_transport(const struct comm *c, int peer);
/* Why that link is what it is ("another network namespace", "HCCLCTL_TRANSPORT=tcp", a
 * failed setup with its errno ...) into buf[len]: 0, or COMM_E_INVAL when there is no link. */
int comm_link_reason(const struct comm *c, int peer, char *buf, size_t len);
/* The message of the last failed call on c: what, which rank/host/peer, collective, step. */
const char *comm_last_error(const struct comm *c);

/* ---- collectives (blocking). Counts are elements; send == recv is in place. ---- */

int comm_allreduce(struct comm *c, const void *send, void *recv, size_t count,
		   enum comm_dtype t, enum comm_op op);
/* recv holds nranks * count elements, rank r's block at r * count. */
int comm_allgather(struct comm *c, const void *send, void *recv, size_t count, enum comm_dtype t);
/* send holds nranks * count elements; recv gets this rank's reduced block of count. */
int comm_reduce_scatter(struct comm *c, const void *send, void *recv, size_t count,
			enum comm_dtype t, enum comm_op op);
int comm_broadcast(struct comm *c, void *buf, size_t count, enum comm_dtype t, int root);
/* send and recv hold nranks * count elements; block j of send goes to rank j. */
int comm_alltoall(struct comm *c, const void *send, void *recv, size_t count, enum comm_dtype t);
int comm_send(struct comm *c, const void *buf, size_t count, enum comm_dtype t, int peer);
int comm_recv(struct comm *c, void *buf, size_t count, enum comm_dtype t, int peer);
int comm_barrier(struct comm *c);

/* ---- non-blocking variants: the request is freed by comm_wait ---- */
struct comm_req;
int comm_iallreduce(struct comm *c, const void *send, void *recv, size_t count,
		    enum comm_dtype t, enum comm_op op, struct comm_req **req);
int comm_iallgather(struct comm *c, const void *send, void *recv, size_t count,
		    enum comm_dtype t, struct comm_req **req);
int comm_ireduce_scatter(struct comm *c, const void *send, void *recv, size_t count,
			 enum comm_dtype t, enum comm_op op, struct comm_req **req);
int comm_ibroadcast(struct comm *c, void *buf, size_t count, enum comm_dtype t, int root,
		    struct comm_req **req);
int comm_ialltoall(struct comm *c, const void *send, void *recv, size_t count,
		   enum comm_dtype t, struct comm_req **req);
int comm_wait(struct comm_req *req);

/* ---- compressed allreduce ---- */

/* COMM_COMPRESS_INT8: block-quantised int8. The vector is cut into blocks of
 * COMM_COMPRESS_BLOCK elements, each sent as one int8 per element plus one fp32 scale (the
 * block's largest magnitude / 127), a quarter of fp32's bytes. Each rank owns a contiguous
 * run of blocks: every other rank sends it its contribution to them quantised (once), the
 * owner sums the N contributions in fp32 in rank order (its own exactly), quantises the sum
 * once and sends it to every rank. Every rank, the owner included, dequantises the same
 * bytes, so results are identical on every rank; the error per element is at most half a
 * scale step per quantisation (normalised RMS error about 0.8 % on N(0,1) data). fp32, fp16
 * and bf16 sum only (COMM_E_INVAL otherwise); inputs that are Inf or NaN make their block
 * NaN. A world of one copies send to recv. */
enum comm_compress { COMM_COMPRESS_NONE, COMM_COMPRESS_INT8, COMM_COMPRESS_COUNT };
#define COMM_COMPRESS_BLOCK 256
const char *comm_compress_name(enum comm_compress z); /* "none" "int8" */
int comm_compress_parse(const char *s);               /* -1 when unknown */

/* comm_allreduce with compression z (COMM_COMPRESS_NONE: exactly comm_allreduce). Every
 * rank must pass the same z: a disagreement is a fingerprint mismatch naming
 * "compression". The algorithm is the direct exchange above (comm_last_algo: mesh), or,
 * with comm_set_algo ring, the same reduction with the sums passed around the ring. */
int comm_allreduce_compressed(struct comm *c, const void *send, void *recv, size_t count,
			      enum comm_dtype t, enum comm_op op, enum comm_compress z);
int comm_iallreduce_compressed(struct comm *c, const void *send, void *recv, size_t count,
			       enum comm_dtype t, enum comm_op op, enum comm_compress z,
			       struct comm_req **req);

/* Sets the algorithm of later collectives on c (COMM_ALGO_AUTO: chosen per call), overriding
 * cfg->algo and HCCLCTL_ALGO. Every rank must set the same: a disagreement is a fingerprint
 * mismatch naming "algorithm". Not while non-blocking requests are pending. */
int comm_set_algo(struct comm *c, enum comm_algo a);

/* After a failed call on c: the job's verdict. The rendezvous's, waiting up to wait_ms for
 * it to arrive; without one, this rank's own reading of its failure. 1 and *v filled, or 0
 * when c has not failed. */
int comm_verdict(struct comm *c, struct comm_verdict *v, int wait_ms);
/* 1 when the job's monitor (the rendezvous's hang detection) went away without its goodbye
 * while c runs (its process killed or crashed), with how long ago in *ago_ms (may be NULL);
 * a later verdict says detection was off. 0 while it watches, or after a normal end.
 * Cheap enough to ask after every operation. */
int comm_monitor_lost(struct comm *c, int *ago_ms);

/* The flight recorder: the last COMM_FLIGHT_RECORDS operations of c (what, sizes,
 * algorithm, state, the step reached, the peer last waited on, bytes moved, times), always
 * kept. comm_flight_dump writes them to fd as one JSON document (schema hcclctl-flight/1,
 * read by `hcclctl analyze`); reason is "timeout", "error", "signal" or "exit". Safe to call
 * from another thread while c runs. */
#define COMM_FLIGHT_RECORDS 1000
int comm_flight_dump(struct comm *c, int fd, const char *reason);
/* c's communicator id as 16 hex digits (the same on every rank of a job). */
void comm_id_string(const struct comm *c, char out[17]);

/* Profiling, off by default: comm_profile_start keeps every later step of every operation
 * on c (sends, receives, waits, compute between steps, with peer and bytes) in a buffer of
 * max_events (0: 200000; more are counted as dropped). comm_profile_json gives them as Chrome
 * trace events (comma-separated objects, no enclosing brackets, pid = rank) in a malloc'd
 * *out that the caller frees. comm_profile_stop frees the buffer. */
int comm_profile_start(struct comm *c, size_t max_events);
int comm_profile_json(struct comm *c, char **out, size_t *len);
void comm_profile_stop(struct comm *c);

/* What this rank received from each peer since c was made (or the last reset), counting
 * transfers of 64 KiB and more: bytes, the time from their first byte to their last
 * (active: the link's pace), and the time from posting the receive to the first byte
 * (waited: how long the peer kept this rank waiting). out has nranks entries. */
struct comm_link_stat {
	uint64_t bytes;
	double active_s, waited_s;
};
int comm_link_stats(const struct comm *c, struct comm_link_stat *out);
void comm_link_stats_reset(struct comm *c);

/* The algorithm the last collective on c ran with (after auto selection). */
enum comm_algo comm_last_algo(const struct comm *c);

#endif
