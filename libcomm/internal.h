/* libcomm's engine internals: the communicator, its peers, and the helpers the engine files
 * share (token, auth, blocking framed I/O for setup, bootstrap, mesh, progress). Not seen by
 * the algorithms (they have algo.h) nor by callers (libcomm.h). */
#ifndef LIBCOMM_INTERNAL_H
#define LIBCOMM_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "libcomm/algo.h"
#include "libcomm/libcomm.h"
#include "libcomm/shmline.h"
#include "libcomm/shmring.h"
#include "libcomm/transport.h"
#include "libcomm/wire.h"
#include "ranktable/base/buf.h"
#include "ranktable/base/clock.h"

#define COMM__SECRET_LEN 16
#define COMM__COLL_SPLIT COMM_COLL_COUNT /* the engine's own collective, in fingerprints */
#define COMM__SOCKBUF (4 << 20)
#define COMM__SHM_RING (4 << 20) /* bytes per direction of a shared-memory link (shm.c) */
#define COMM__HANDSHAKE_MS 2000
#define COMM__FP_HIST 64 /* our fingerprints kept to answer a peer that asks late */ /* an accepted connection has this long to authenticate */

struct comm__token {
	char host[COMM__HOST_MAX];
	int port;
	unsigned char secret[COMM__SECRET_LEN];
};

/* util.c: s as a JSON string (quoted and escaped) at the end of b. */
void comm__buf_str(struct buf *b, const char *s);

/* token.c */
int comm__token_parse(const char *s, struct comm__token *t, char *err, size_t errlen);

/* util (comm.c) */
__attribute__((format(printf, 4, 5))) int comm__errf(char *err, size_t errlen, int code,
						      const char *fmt, ...);
void comm__strlcpy(char *dst, const char *src, size_t n);
const char *comm__op_display(int coll); /* comm_coll_name plus "split" */

/* auth.c: blocking I/O on non-blocking sockets until deadline (CLOCK_MONOTONIC ms) or
 * cancel_fd readable (-1: none). Return 0 or -errno; EOF is -ECONNRESET. */
int comm__io_read(int fd, void *buf, size_t len, int64_t deadline, int cancel_fd);
int comm__io_write(int fd, const void *buf, size_t len, int64_t deadline, int cancel_fd);
int comm__io_send_frame(int fd, uint8_t type, uint32_t from, const void *payload, size_t len,
			int64_t deadline, int cancel_fd);
/* Receives one frame of type want (or REFUSE/ABORT, which the caller handles) into buf[cap];
 * -EPROTO with err set when the header is bad or the payload too large. */
int comm__io_recv_frame(int fd, struct comm__hdr *h, void *buf, size_t cap, int64_t deadline,
			int cancel_fd, char *err, size_t errlen);
/* The HMAC-SHA256 challenge, both ways. Client: 0, or COMM_E_AUTH/COMM_E_TIMEOUT/
 * COMM_E_PEER/COMM_E_PROTO with err, or -ECANCELED once cancel_fd (-1: none) is readable. Server: 0, or -1 (no answer) or -2 (wrong secret) with
 * the refusal reason in why. */
int comm__auth_client(int fd, const unsigned char *secret, int64_t deadline, int cancel_fd,
		      const void *after, size_t afterlen, char *err, size_t errlen);
int comm__auth_server(int fd, const unsigned char *secret, int64_t deadline, int cancel_fd,
		      char *why, size_t whylen);
/* The client's after[afterlen] (at most 128 bytes) goes out in the same write as its proof.
 * comm__auth_server in two halves, for a server that handles many at once: greet sends the
 * challenge (0 or -errno), check reads and verifies the answer and says so (as above);
 * with fin_out (COMM__FIN_LEN bytes) the server's answer is left there for the caller to
 * send with what goes behind it, else it is sent. */
#define COMM__GREET_LEN 24
#define COMM__FIN_LEN 33
#define COMM__RESP_LEN 48 /* the client's nonce and proof */
/* The check of comm__auth_check on an answer already read (resp): 0 with the server's answer
 * in fin, or -2 (wrong secret) with why. */
int comm__auth_verify(const unsigned char *secret, const unsigned char *greet,
		      const unsigned char resp[COMM__RESP_LEN], unsigned char fin[COMM__FIN_LEN],
		      char *why, size_t whylen);
int comm__auth_greet(int fd, unsigned char greet[COMM__GREET_LEN], int64_t deadline,
		     int cancel_fd);
int comm__auth_check(int fd, const unsigned char *secret, const unsigned char *greet,
		     int64_t deadline, int cancel_fd, unsigned char *fin_out, char *why,
		     size_t whylen);
/* After comm__auth_server returned -2 (wrong secret): tells the client it was refused. */
void comm__auth_refuse(int fd, int64_t deadline, int cancel_fd);

/* bootstrap.c, the rank's side: connect and authenticate to the rendezvous (retrying while
 * it is not up yet), then say hello and get the address book (book[h->nranks], caller's). */
int comm__boot_connect(const struct comm__token *t, int64_t deadline, int *fd_out,
		       char *local_addr, size_t addrlen, char *err, size_t errlen);
int comm__boot_hello(int fd, const struct comm__hello *h, int64_t deadline, uint64_t *id,
		     struct comm__book_entry *book, char *err, size_t errlen);

struct comm__xstate {
	size_t sdone, rdone, hsent;
	int64_t s_end, r_end; /* profiling: when the send and the receive completed (µs) */
	int64_t r_first;      /* link stats: when the receive's first byte came (µs), 0: not yet */
	unsigned char hdr[COMM__HDR_LEN];
};

/* A link's buffers, allocated when it is made: a rank of 1024 holds a peer for every rank
 * (the address book) but links to only a few, and these are most of a peer's size. */
struct comm__pbuf {
	unsigned char cbuf[COMM__CTRL_MAX]; /* control payload (FP, ABORT) */
	unsigned char stage[512]; /* read from the socket, not yet consumed (small reads) */
	unsigned char ctl_tx[4 * (COMM__HDR_LEN + COMM__FP_LEN)]; /* queued control frames */
};

/* A shared-memory link's mapping: the ring this rank writes and the one it reads. */
struct comm__shm {
	void *map;
	size_t len;
	struct comm__ring tx, rx;
	/* the lines (shmline.h) this rank writes and reads, and what it knows of each side's
	 * consumption: the peer's of ours (acked), ours of the peer's (got) */
	struct comm__lines *ltx, *lrx;
	uint32_t acked, got;
	uint32_t held[2]; /* the collective each of our lines holds (0: none) */
};

struct comm__link_ops;

struct comm__peer {
	int fd; /* -1 for self; a shared-memory link keeps it (liveness, doorbells) */
	struct comm__shm *shm; /* the link's frames go through it; NULL: through fd */
	const struct comm__link_ops *link; /* how its bytes move (link.c): socket or rings */
	uint8_t tp_why;        /* enum comm__tp_why: why the link is shm or tcp */
	int tp_err;            /* errno behind a failed setup */
	bool in_ep; /* fd is in the progress engine's epoll set */
	char host[COMM__HOST_MAX];
	char addr[COMM__ADDR_MAX];
	int port;
	bool rd_ready, wr_ready; /* edge-triggered readiness not yet consumed */
	bool eof;                /* read returned 0 */
	bool midframe;           /* our outgoing stream stopped inside a frame */
	int sock_err;            /* errno of a failed read/write, 0 if none */
	int64_t unacked_since;   /* watch.c only: data in flight, no ACK since (mono ms), or 0 */
	/* receive side: the next frame's header (read ahead), then its payload */
	unsigned char rhdr[COMM__HDR_LEN];
	size_t rhdr_got;
	bool hdr_ok;
	struct comm__hdr rh;
	struct comm__pbuf *pb; /* the link's buffers, while there is a link (add_link) */
	size_t st_off, st_len;
	size_t cgot;
	bool fp_pending; /* a fingerprint arrived before it was asked for */
	uint32_t fp_seq;
	struct comm__fp fp;
	/* fingerprints checked on arrival (agree.c) */
	bool fp_in;       /* takes part in the check of the collective in progress */
	bool fp_got;      /* its fingerprint for the collective in progress is in */
	bool fp_due;      /* ours goes out in front of our next frame to it */
	bool fp_req_sent; /* we asked it for its fingerprint in this collective */
	bool p2p_seen;    /* it answered from inside a send or receive (p2p_fp) ... */
	struct comm__fp p2p_fp;
	int64_t fp_reask_at; /* ... and is asked again from then */
	uint32_t fp_first; /* the collective of the first fingerprint on this link, 0: none yet */
	bool fp_asked;    /* it asked for ours of collective fp_ask_seq (not answered yet) */
	uint32_t fp_ask_seq;
	/* control frames queued to it (fingerprints, requests) in pb->ctl_tx, sent before
	 * the next data */
	size_t ctl_len, ctl_sent;
	/* this step: current send and receive transfer index, -1 when none */
	int scur, rcur;
	/* point-to-point sequence numbers with this peer */
	uint32_t p2p_sent, p2p_recvd;
};

struct comm_req;
struct comm;

/* A control frame's handler (the payload, h->len bytes, is whole): 0 or the failure code.
 * The progress engine dispatches by frame type without knowing who registered. */
typedef int comm__ctl_fn(struct comm *c, int r, const struct comm__hdr *h,
			 const unsigned char *payload);

/* What the progress engine asks of the fingerprint check of the collective in progress
 * (agree.c registers it): serve queues what is due to r before data to r goes out (front:
 * data goes next); take accepts r's fingerprint that came ahead of its data; ask requests
 * r's when it is late (0 when queued now, else when to ask again, INT64_MAX: not); join takes r into the check, the first time a
 * step of this collective moves data with it; differ names the difference once the
 * fingerprints were seen to differ (returns the failure). */
struct comm__check_ops {
	void (*serve)(struct comm *c, int r, bool front);
	void (*take)(struct comm *c, int r);
	int64_t (*ask)(struct comm *c, int r, int64_t now);
	void (*join)(struct comm *c, int r);
	int (*differ)(struct comm *c);
};

/* Where the rank stands, written by the thread running the operation and read by the watch
 * thread for heartbeats: single words, relaxed atomics. */
struct comm__live {
	_Atomic int state; /* enum comm__hb_state */
	_Atomic int coll, step, peer;
	_Atomic uint32_t seq, done_seq;
	_Atomic uint64_t sent, recvd;
	_Atomic int64_t op_start, last_move;
};

/* The status channel (watch.c): the rank's rendezvous connection after the book. */
struct comm__watch {
	int fd;           /* -1: none (the rendezvous is gone or never watched) */
	int wake[2];      /* pipe: readable once a verdict arrived; in the progress epoll set */
	int stop_pipe[2]; /* pipe: readable once the thread is to stop */
	pthread_t th;
	bool on;
	pthread_mutex_t mu; /* serialises writes on fd; guards the fields below */
	bool stop;
	bool gone;          /* the rendezvous closed the channel */
	/* when it closed without the monitor's goodbye (its process killed or crashed): hang
	 * detection is off from then on; 0: it did not */
	_Atomic int64_t lost_ms;
	int64_t heard_ms;   /* when the monitor was last heard (mono_ms) */
	bool have;          /* a verdict arrived from the monitor */
	struct comm_verdict v;
	bool have_own;      /* this rank's own failure, as reported */
	struct comm_verdict own;
	int interval_ms, silence_ms;
};

/* handshake.c: an inbound connection in its handshake (a slot of struct comm's hs). */
#define COMM__HS_MAX 16 /* handshakes at once: lower ranks connecting together, strangers */
#define COMM__HS_IN (COMM__RESP_LEN + 2 * COMM__HDR_LEN + COMM__PEER_LEN + COMM__SHM_LEN)
#define COMM__HS_TAG0 0x40000000u /* epoll tag of slot 0; peers' tags are their ranks */
#define COMM__HS_LISTEN (UINT32_MAX - 1) /* the epoll tag of the listening socket */
struct comm__hs {
	bool used;
	int fd;
	int64_t since, dl; /* accepted at, dropped at (mono_ms) */
	size_t got;
	unsigned char greet[COMM__GREET_LEN];
	unsigned char in[COMM__HS_IN];
};

struct comm {
	int rank, nranks;
	char host[COMM__HOST_MAX];
	char addr[COMM__ADDR_MAX]; /* where peers reach this rank */
	uint64_t id;
	unsigned char secret[COMM__SECRET_LEN];
	int connect_timeout_ms, exec_timeout_ms;
	enum comm_algo algo;
	const struct comm_transport_ops *tp;
	struct comm__peer *peers; /* nranks; peers[rank].fd = -1 */
	int epfd;
	/* connections: lazy (the default) connects to a peer the first time a step needs it,
	 * the lower rank connecting and the higher accepting on lfd; full (HCCLCTL_CONNECT=
	 * full) builds the whole mesh in init, as before */
	bool lazy;
	int lfd;         /* the listening socket while lazy, else -1 */
	int nconn;       /* peers connected */
	int nshm;        /* of them, over shared memory */
	int tmode;       /* enum comm__tmode, from HCCLCTL_TRANSPORT */
	int unadopted;   /* links accepted by a connect's wait, not in the epoll set yet */
	/* registered by the layers above the engine (comm_alloc, watch.c) */
	comm__ctl_fn *ctl[COMM__F_TYPE_END];
	const struct comm__check_ops *check;
	/* the first failure: the watch reports it to the monitor */
	void (*on_fail)(struct comm *c, int code);
	/* the status channel's wake pipe is readable: fail with the verdict waiting, or 0;
	 * why (or NULL): what this rank saw of it, said along with the verdict, with its own
	 * code (0: the verdict's) */
	int (*on_wake)(struct comm *c, const char *why, int code);
	int spin_credit, spin_rest; /* progress.c: whether polling before sleeping pays off */
	int spin_us; /* how long a small step polls before it sleeps (HCCLCTL_SPIN_US) */
	bool no_waitv; /* spin.c: futex_waitv is not there (ENOSYS): rings sleep in epoll_wait */
	bool shared_cores; /* more ranks on this host than CPUs: polling yields the core */
	bool one_host;     /* every rank has our host name and address (the same on every rank) */
	bool lines;        /* flat.c: the smallest allreduces go by lines (every rank agreed) */
	/* the operation in progress, for messages and frame checks */
	int cur_coll;
	uint32_t cur_seq;  /* shown as "#seq" */
	int cur_peer;      /* send/recv: the peer, else -1 */
	int cur_step;      /* -1: fingerprint */
	uint64_t cur_bytes; /* the operation's size, for the profile */
	int64_t op_start, deadline;
	uint32_t seq;      /* collectives started on this communicator */
	/* preallocated per-step state (no allocation on the hot path) */
	struct comm__xstate *xs;
	size_t xs_cap;
	struct comm__xfer *fpx;
	struct comm__fp *fps;
	unsigned char fp_out[COMM__FP_LEN];
	/* a collective's fingerprints checked on arrival (agree.c): whether every peer's is
	 * awaited (fp_all) or only those of the peers data comes from; how many peers' are not
	 * in; whether one differed (then all are gathered until fp_collect_end, the difference
	 * named and the collective failed) */
	bool fp_lazy, fp_all, fp_bad;
	int fp_missing;
	int64_t fp_collect_end;
	struct comm__fp fp_hist[COMM__FP_HIST]; /* ours of recent collectives, by seq */
	unsigned fp_requests;                    /* fingerprints asked for, ever */
	void *scratch;
	size_t scratch_len;
	struct comm__ctx ctx;
	enum comm_algo last_algo;
	/* sticky failure: after any fatal error every call fails with it */
	int broken;
	char root_msg[COMM_ERRLEN]; /* the first failure's message, as sent in ABORT */
	char errbuf[COMM_ERRLEN];   /* engine's message of the operation in progress */
	char user_err[COMM_ERRLEN]; /* what comm_last_error shows (caller's thread only) */
	unsigned refused;           /* connections refused or dropped: strangers */
	struct comm__hs hs[COMM__HS_MAX];
	int nhs;                    /* slots in use */
	unsigned hs_evicted;        /* dropped for a newcomer when every slot was taken */
	bool hs_full;               /* the listener is out of the epoll set: slots all young */
	char link_refused[COMM_ERRLEN]; /* why an accepted link had to fail (comm__link_answer) */
	/* heartbeats and verdicts */
	struct comm__live live;
	struct comm__watch watch;
	uint64_t op_sent, op_recvd; /* bytes of the operation, the progress thread's own */
	int hint_kind, hint_rank;   /* what comm__fail's caller knows of the cause */
	struct comm__flight *flight; /* the flight recorder (flight.c) */
	struct comm__profile *profile; /* NULL unless profiling (profile.c) */
	struct comm_link_stat *links;  /* nranks: what came from each peer */
	int64_t step_t0;               /* µs: when the step in progress was posted */
	/* non-blocking requests: a worker thread runs them in order */
	pthread_mutex_t mu;
	pthread_cond_t cv;
	bool worker_on, stopping;
	pthread_t worker;
	struct comm_req *qhead, *qtail;
};

/* connect.c: the links. Lower ranks connect to higher ones; each connection is
 * authenticated and says its communicator id and rank. comm__mesh_book copies the address
 * book into the peers. comm__mesh_connect builds the full mesh (lfd is closed by the
 * caller). comm__link_connect connects to the higher rank r (cancel_fd readable: give up,
 * -ECANCELED); the lower ranks' connections are taken by handshake.c (comm__hs_*). On
 * failure why says what and where (the peer and the address tried). */
void comm__mesh_book(struct comm *c, const struct comm__book_entry *book);
int comm__mesh_connect(struct comm *c, int lfd, const struct comm__book_entry *book,
		       int64_t deadline);
int comm__link_connect(struct comm *c, int r, int64_t deadline, int cancel_fd, int *fd_out,
		       char *why, size_t whylen);
/* handshake.c, the frames of a link's handshake: our peer hello and a shared-memory frame
 * (offer or answer) as whole frames at f; the other end's, payload b[n], decoded into got
 * and checked (of this communicator; the kind wanted): 0 or -EPROTO with why. */
void comm__peer_frame(const struct comm *c, unsigned char f[COMM__HDR_LEN + COMM__PEER_LEN]);
void comm__shm_frame(const struct comm *c, const struct comm__shm_hello *s,
		     unsigned char f[COMM__HDR_LEN + COMM__SHM_LEN]);
int comm__peer_ok(const struct comm *c, const unsigned char *b, size_t n,
		  struct comm__peer_hello *got, char *why, size_t whylen);
int comm__shm_ok(const unsigned char *b, size_t n, bool want_answer,
		 struct comm__shm_hello *got, char *why, size_t whylen);
/* The end of an inbound handshake whose bytes are all in: in (COMM__HS_IN bytes: the
 * answer to our challenge greet, the peer hello, the shared-memory offer) is checked and
 * answered on fd. 0 with the lower rank in *rank_out (fd is its link to take); -EPROTO when
 * refused (counted, fd closed); -ENOTSUP when shared memory was demanded and cannot be
 * (why in c->link_refused, fd closed). */
int comm__link_answer(struct comm *c, int fd, const unsigned char *greet,
		      const unsigned char *in, int *rank_out);
/* handshake.c. accept: every connection pending on c->lfd gets its challenge and a slot
 * (in c->epfd, when there is one, tagged COMM__HS_TAG0 + slot). read: slot i is readable:
 * -EAGAIN while its answer is not whole, else comm__link_answer's result (0 with the link's
 * rank and fd). expire: drops the slots past their time; the earliest time to look again,
 * or INT64_MAX. pollfds: pf[COMM__HS_MAX], one per slot (fd -1 when free). release: closes all. */
void comm__hs_accept(struct comm *c);
int comm__hs_read(struct comm *c, int i, int *rank_out, int *fd_out);
int64_t comm__hs_expire(struct comm *c, int64_t now);
struct pollfd;
void comm__hs_pollfds(const struct comm *c, struct pollfd *pf);
int comm__hs_listen_fd(const struct comm *c); /* c->lfd, or -1 while every slot is young */
void comm__hs_release(struct comm *c);

/* shm.c: whether a link is shared memory, and its segment. tmode_parse: the mode of
 * HCCLCTL_TRANSPORT's value s (NULL or empty: auto), or COMM_E_INVAL with err. The
 * connecting rank's offer makes a segment unless tcp is forced (pp holds it until
 * the answer); the accepting rank's answer maps it if the identities match (*out: the
 * link's, caller frees with comm__shm_free); accepted applies the answer to peer r (*out
 * or NULL) and fails, with why, only where shm was demanded on this host and cannot be:
 * refused says that for either end (other_mode: the other end's tmode; w, e: the answer's
 * why and errno), COMM_E_SYS with why, or 0. */
struct comm__shm_prep {
	int fd;
	void *map;
	size_t len;
};
int comm__tmode_parse(const char *s, char *err, size_t errlen);
void comm__tp_why_text(int why, int e, char *buf, size_t len);
void comm__shm_offer(struct comm *c, struct comm__shm_prep *pp, struct comm__shm_hello *o);
void comm__shm_answer(struct comm *c, const struct comm__shm_hello *o, struct comm__shm **out,
		      struct comm__shm_hello *a);
int comm__shm_accepted(struct comm *c, struct comm__shm_prep *pp, const struct comm__shm_hello *a,
		       int r, struct comm__shm **out, char *why, size_t whylen);
int comm__shm_refused(const struct comm *c, int other_mode, int w, int e, int r, char *why,
		      size_t whylen);
void comm__shm_prep_release(struct comm__shm_prep *pp);
void comm__shm_free(struct comm__shm *s);

/* A link's byte stream, as the engine moves it: over the transport's socket (link.c) or over
 * the two rings of a shared-memory segment (shmlink.c), one table of operations for either,
 * with the transport's semantics: send and recv return bytes moved, 0 on EOF (recv), -EAGAIN
 * when nothing can move now, or -errno. A ring's end of stream is the socket's: after EOF or
 * an error on it what is still in the ring is read first. queued: bytes readable now. rings:
 * bytes move with no event on the socket, so the engine looks at the link while it polls and
 * arms it before it sleeps: arm (sends: whether this rank waits to send to it; how:
 * COMM__RING_BELL to sleep in epoll_wait and be woken by a doorbell on the socket,
 * COMM__RING_FUTEX to sleep in futex_waitv on the flags sleep_on gives) is true when the ring
 * moved meanwhile and the sleep must not happen; awake after the sleep. doorbells: the socket
 * of a ring link became readable: take them, note EOF or an error. */
struct comm__link_ops {
	const char *name; /* comm_link_transport's */
	bool rings;
	ssize_t (*send)(struct comm *c, struct comm__peer *p, const struct iovec *iov, int cnt);
	ssize_t (*recv)(struct comm *c, struct comm__peer *p, void *buf, size_t len);
	size_t (*queued)(struct comm *c, struct comm__peer *p);
	bool (*arm)(struct comm__peer *p, bool sends, unsigned how);
	void (*awake)(struct comm__peer *p);
	int (*sleep_on)(struct comm__peer *p, bool sends, _Atomic uint32_t *flags[2]);
};
extern const struct comm__link_ops comm__sock_link, comm__ring_link;
void comm__link_doorbells(struct comm *c, struct comm__peer *p);
/* r's link moves its frames through shared memory s from now on (NULL: its socket). */
void comm__link_use(struct comm *c, int r, struct comm__shm *s);

static inline ssize_t comm__link_send(struct comm *c, struct comm__peer *p,
				      const struct iovec *iov, int cnt)
{
	return p->link->send(c, p, iov, cnt);
}

static inline ssize_t comm__link_recv(struct comm *c, struct comm__peer *p, void *buf, size_t len)
{
	return p->link->recv(c, p, buf, len);
}

static inline size_t comm__link_queued(struct comm *c, struct comm__peer *p)
{
	return p->link->queued(c, p);
}

/* agree.c: a collective's fingerprints checked on arrival instead of exchanged first (one
 * network round less). attach registers its control frames (FP, FPREQ) and check ops.
 * post: ours goes in front of our first frame to each peer (to every peer at once with
 * all); the peers' that came early are taken. drain (progress.c), after the algorithm:
 * with all, waits for every peer's; always, for our queued control frames to be out. */
void comm__agree_attach(struct comm *c);
void comm__fp_post(struct comm *c, const struct comm__fp *mine, bool all);
int comm__fp_drain(struct comm *c);
/* flat.c: the smallest allreduce on one host by lines. ready: every link up and shared (our
 * fingerprint's COMM__FP_LINES); takes: a collective lines carry; agree: after one taken the
 * usual way, switch to lines if every rank's fingerprint said ready (the same on every rank). */
bool comm__flat_ready(const struct comm *c);
bool comm__flat_takes(int coll, size_t bytes, int algo);
void comm__flat_agree(struct comm *c);
int comm__flat_allreduce(struct comm *c, const void *send, void *recv, size_t count,
			 enum comm_dtype t, enum comm_op op, const struct comm__fp *fp);
/* Why the link to p ended, as a message says it: the errno's text, or that it exited. */
const char *comm__lost_why(const struct comm__peer *p);
/* The epoll set's events handled once, without waiting: the wake pipe (a verdict), the
 * listener and handshakes, peers' doorbells and EOF (flat.c's wait, outside any step). */
int comm__poll_once(struct comm *c);
/* What r's link holds read outside any step: control frames handled (an ABORT fails the
 * communicator, a fingerprint waits in its peer's fp), data left for the step it is for. */
int comm__pump_control(struct comm *c, int r);
/* Ours of an earlier or the current collective, for the history (eager exchanges too). */
void comm__fp_remember(struct comm *c, const struct comm__fp *f);
/* In a collective that checks on arrival: r takes part and its fingerprint has not come. */
static inline bool comm__fp_owed(const struct comm *c, int r)
{
	return c->fp_lazy && c->peers[r].fp_in && !c->peers[r].fp_got && r != c->rank &&
	       c->peers[r].fd >= 0;
}
/* poller.c: the epoll set of progress.c */
int comm__progress_init(struct comm *c);
void comm__progress_release(struct comm *c);
/* The epoll tag of the status channel's wake pipe (the listener's is COMM__HS_LISTEN). */
#define COMM__WAKE_ID UINT32_MAX
/* r's connection (fd) is up: into the epoll set, ready both ways until the kernel says not.
 * 0 or -errno. */
int comm__add_link(struct comm *c, int r, int fd);
/* The links the connect accepted while it waited (comm__link_connect), into the set. */
int comm__adopt_links(struct comm *c);
/* progress.c */
/* Runs one step: all transfers concurrently, until done or c->deadline. type is DATA or FP
 * (FP receives land as struct comm__fp in rbuf). seq is checked on DATA frames. A peer not
 * connected yet is connected first (lazy). */
int comm__exchange(struct comm *c, uint8_t type, int step, struct comm__xfer *x, size_t n,
		   uint32_t seq);
/* On destroy of a broken communicator: let peers read our ABORT before the sockets close. */
void comm__progress_linger(struct comm *c, int ms);

/* fail.c, below the engine files (progress, agree, fp, watch), the one way any of them
 * reports a failure. Records a fatal error: prefix "rank R (host H): OP #S step K: ", marks
 * the communicator broken, sends ABORT with the message to every connected peer and hands
 * the failure to c->on_fail (the watch's report to the monitor). Returns code. */
__attribute__((format(printf, 3, 4))) int comm__fail(struct comm *c, int code, const char *fmt,
						      ...);
/* The same with root as the message every rank reports (a verdict, a peer's abort). */
__attribute__((format(printf, 4, 5))) int comm__fail_root(struct comm *c, int code,
							   const char *root, const char *fmt, ...);
/* Writes the "rank R (host H): OP #S[ step K]" prefix. */
void comm__prefix(const struct comm *c, char *buf, size_t len);
/* A failure about a peer whose fingerprint has not come is one of the fingerprint exchange:
 * said without a step, as when the exchange came first. */
void comm__at_fingerprint(struct comm *c);

/* fp.c: fingerprints compared. compare_all and compare_pair fail the communicator naming the
 * first differing field (compare_all: fps[nranks], the same message on every rank). */
bool comm__fp_same(const struct comm__fp *a, const struct comm__fp *b);
int comm__fp_compare_all(struct comm *c, const struct comm__fp *fps, const bool *known);
int comm__fp_compare_pair(struct comm *c, const struct comm__fp *mine, const struct comm__fp *o,
			  int peer);
/* The fingerprints of the collective in progress differ: named from c->fps over ours and the
 * ranks known() says came (compare_all), the failure returned. */
int comm__fp_differ(struct comm *c, bool (*known)(const struct comm *c, int r, const void *arg),
		    const void *arg);
static inline bool comm__is_p2p(int coll)
{
	return coll == COMM_COLL_SEND || coll == COMM_COLL_RECV;
}

/* flight.c */
struct comm__flight;
int comm__flight_init(struct comm *c);
void comm__flight_release(struct comm *c);
void comm__flight_begin(struct comm *c, const struct comm__fp *fp, size_t bytes, bool has_op,
			bool has_dtype);
void comm__flight_end(struct comm *c, int rc);

/* profile.c: called only when c->profile is set */
struct comm__profile;
int64_t comm__prof_now(void);
void comm__prof_op(struct comm *c, bool begin);
void comm__prof_step(struct comm *c, int step, bool fp, const struct comm__xfer *x, size_t n,
		     int64_t t0);
void comm__prof_wait(struct comm *c, int64_t t0, int peer);

/* watch.c: start registers c->on_fail (this rank's failure, reported to the monitor as a
 * verdict, once) and c->on_wake (a verdict from the monitor fails the operation with it). */
int comm__heartbeat_ms(int *interval_ms, int *silence_ms); /* from the environment */
struct tcp_info;
/* watch.c: how long the oldest data in flight to p has gone unanswered at least, from this
 * beat's TCP_INFO at mono time now (ms); follows p->unacked_since */
uint32_t comm__unanswered_ms(struct comm__peer *p, const struct tcp_info *ti, int64_t now);
/* Whether a link whose data has gone unanswered that long, through that many retransmission
 * timeouts, is lost rather than lossy. */
bool comm__link_lost(uint32_t unanswered_ms, unsigned backoff, int silence_ms);
int comm__watch_start(struct comm *c, int fd);  /* takes fd */
void comm__watch_stop(struct comm *c);          /* says BYE unless broken without report */
/* The message with the "rank R (host H)" verdict phrase for a peer. */
void comm__verdict_compose(struct comm_verdict *v, const char *what);

/* coll.c */
int comm__split_exchange(struct comm *c, const int32_t mine[3], int32_t *all /* 3*nranks */);
void comm__worker_stop(struct comm *c);
int comm__ctx_exchange(struct comm__ctx *ctx, int step, struct comm__xfer *x, size_t n);
int comm__ctx_need_scratch(struct comm__ctx *ctx, size_t len);

/* Control frames queued to p (or our fingerprint, when every peer gets it) not yet out. */
static inline bool comm__ctl_left(const struct comm *c, const struct comm__peer *p)
{
	return p->ctl_sent < p->ctl_len || p->fp_asked || (c->fp_lazy && c->fp_all && p->fp_due);
}

/* spin.c: how a step waits. Spinning a while before it sleeps (small steps and rings, while
 * spinning pays), and when a ring-only step looks at its sockets. */
struct comm__spin {
	int64_t start, end, next_poll; /* end 0: no spinning */
	bool shm, spun;
};
#define COMM__SPIN_AGAIN (-2) /* look at the links again before waiting */
/* comm__spin_next's answers: poll again at once, after giving up the core, after looking at
 * the sockets (the wake pipe, doorbells, EOF), or sleep (up to COMM__FUTEX_SLICE_MS) */
enum { COMM__SPIN_RELAX, COMM__SPIN_YIELD, COMM__SPIN_POLL, COMM__SPIN_SLEEP };
/* Asleep on futexes a rank looks at its sockets at least this often: none of them wakes one. */
#define COMM__FUTEX_SLICE_MS 10
/* futex_waitv on w[n] for up to left ms, at most a slice; ENOSYS sets c->no_waitv. */
struct futex_waitv;
void comm__futex_sleep(struct comm *c, struct futex_waitv *w, unsigned n, int64_t left);
struct epoll_event;
void comm__spin_init(struct comm *c);
/* HCCLCTL_SPIN_US into c->spin_us (unset: the default); COMM_E_INVAL naming a bad value */
int comm__spin_config(struct comm *c, char *err, size_t errlen);
/* the plan for a step of bytes, with peers over shared memory (shm: some, all_shm: every one) */
void comm__spin_plan(struct comm *c, size_t bytes, bool shm, bool all_shm, struct comm__spin *sp);
/* the step moved without an event: a spin that found it earns its credit back */
void comm__spin_moved(struct comm *c, struct comm__spin *sp);
/* A wait that polls memory without a step (flat.c's lines): what to do next, now (µs) being
 * the time; the same policy as a step over rings (keep the core a while, then yield, look at
 * the sockets every SHM_POLL_US, sleep when polling stopped paying). */
int comm__spin_next(struct comm *c, struct comm__spin *sp, int64_t now);
/* Waits up to left ms for events, spinning first while the plan says so: their number,
 * COMM__SPIN_AGAIN, or -1 with errno. */
int comm__spin_wait(struct comm *c, struct comm__spin *sp, struct epoll_event *ev, int nev,
		    int64_t left);

#endif
