/* The rendezvous: a background thread that authenticates every connection, collects one hello
 * per rank, checks them against each other, and answers every waiting rank with the address
 * book or one named error. Also the rank's side of it (comm__boot_connect, comm__boot_hello).
 *
 * The server is a single thread over poll(): the listening socket, a stop pipe, and every
 * connection still in its handshake. Each accepted connection gets its challenge at once and
 * moves on (answer checked, then hello read) when it is readable, so the handshakes of many
 * ranks overlap: 1024 ranks starting together on 2 cores each take a scheduler's wait to
 * answer, and one at a time that was most of init (comm_init at rank 0: 8.6 s at N=1024 with
 * one handshake at a time). A connection has handshake_ms to authenticate and say hello, so
 * a stray one costs a slot for at most that and is counted and recorded, never mixed into
 * the job. Once the rendezvous has an outcome (book sent, or failed) later
 * connections get that outcome too. The book goes to each rank in one message. */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdarg.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <unistd.h>

#include "libcomm/internal.h"
#include "libcomm/monitor.h"
#include "ranktable/base/plural.h"

struct rconn {
	int fd;
	char from[COMM__ADDR_MAX + 8];
	struct comm__hello h;
};

/* A connection in its handshake: challenged (authed false), or authenticated and awaiting
 * its hello. */
struct pend {
	int fd;
	bool authed;
	int64_t since, dl;
	size_t got; /* of the answer to the challenge, read as it comes */
	unsigned char greet[COMM__GREET_LEN];
	unsigned char resp[COMM__RESP_LEN];
	char from[COMM__ADDR_MAX + 8];
};
#define PEND_EXTRA 64 /* handshakes beyond one per rank (strays, retries) */
/* When every slot is taken, a newcomer pushes out the connection silent longest, once it has
 * had this long: a flood of silent connections must not lock the ranks out until each one's
 * handshake time ends, nor push out a rank that has yet to be scheduled to answer. */
#define PEND_GRACE_MS 500
/* Once the job runs, the status channels are polled at most this often: every poll looks at
 * all N of them, and woken by each heartbeat that is N per heartbeat (1024 ranks beating
 * twice a second: 2 million fd checks a second on a 2-core machine). Batched, a poll takes
 * the heartbeats of BATCH_MS at once, a bounded cost per heartbeat, for at most BATCH_MS
 * more to a verdict. */
#define BATCH_MS 20

struct comm_rendezvous {
	pthread_t th;
	int lfd, stop_pipe[2];
	int nranks, timeout_ms;
	unsigned char secret[COMM__SECRET_LEN];
	char where[COMM__HOST_MAX + 8];
	/* read by the caller while the thread runs */
	pthread_mutex_t mu;
	unsigned refused;
	unsigned wrong_secret; /* of those, proofs of another secret */
	unsigned pushed; /* silent connections pushed out of a full set of slots: a flood */
	char last_refusal[COMM_ERRLEN];
	/* the thread's own */
	struct rconn *conns;
	int nconns;
	bool resolved;
	int status;
	char msg[COMM_ERRLEN];
	uint64_t id;
	int64_t start;
	struct comm__mon *mon; /* after the book: the job's status channels */
	struct pend *pend;
	int npend, pend_cap;
	int handshake_ms; /* a connection's time to authenticate and say hello */
	struct pollfd *pf; /* lfd, stop, the handshakes, the status channels */
	struct comm_verdict verdict; /* under mu once have_verdict */
	bool have_verdict;
};

static void refuse_log(struct comm_rendezvous *r, const char *from, const char *why)
{
	pthread_mutex_lock(&r->mu);
	r->refused++;
	snprintf(r->last_refusal, sizeof(r->last_refusal), "refused connection from %.64s: %.400s",
		 from, why);
	pthread_mutex_unlock(&r->mu);
}

static void reply_status(struct comm_rendezvous *r, int fd, int status, const char *msg)
{
	unsigned char buf[COMM__CTRL_MAX];
	size_t len = 0;
	if (comm__status_encode(status, msg, buf, sizeof(buf), &len) == 0)
		(void)comm__io_send_frame(fd, COMM__F_REFUSE, 0, buf, len,
					  mono_ms() + COMM__HANDSHAKE_MS, r->stop_pipe[0]);
}

/* Ends the rendezvous with an error for every waiting rank. */
__attribute__((format(printf, 3, 4))) static void fail_all(struct comm_rendezvous *r, int status,
							    const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(r->msg, sizeof(r->msg), fmt, ap);
	va_end(ap);
	r->resolved = true;
	r->status = status;
	for (int i = 0; i < r->nconns; i++) {
		reply_status(r, r->conns[i].fd, status, r->msg);
		close(r->conns[i].fd);
	}
	r->nconns = 0;
}

static size_t appendf(char *buf, size_t len, size_t at, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static size_t appendf(char *buf, size_t len, size_t at, const char *fmt, ...)
{
	if (at >= len)
		return at;
	va_list ap;
	va_start(ap, fmt);
	int k = vsnprintf(buf + at, len - at, fmt, ap);
	va_end(ap);
	return k < 0 ? at : at + (size_t)k;
}

/* "1, 3-5, 9" for the ranks with seen[r] == 0. */
static void list_missing(const bool *seen, int n, char *out, size_t len)
{
	size_t at = 0;
	out[0] = '\0';
	for (int r = 0; r < n; r++) {
		if (seen[r])
			continue;
		int e = r;
		while (e + 1 < n && !seen[e + 1])
			e++;
		at = appendf(out, len, at, "%s%d", at ? ", " : "", r);
		if (e > r)
			at = appendf(out, len, at, "-%d", e);
		r = e;
	}
}

static void resolve_timeout(struct comm_rendezvous *r)
{
	bool *seen = calloc((size_t)r->nranks, sizeof(*seen));
	char miss[COMM_ERRLEN / 2] = "?";
	int nmiss = r->nranks;
	if (seen) {
		for (int i = 0; i < r->nconns; i++)
			if (!seen[r->conns[i].h.rank]) {
				seen[r->conns[i].h.rank] = true;
				nmiss--;
			}
		list_missing(seen, r->nranks, miss, sizeof(miss));
		free(seen);
	}
	char refused[COMM_ERRLEN] = "";
	int status = COMM_E_TIMEOUT;
	pthread_mutex_lock(&r->mu);
	/* as many proofs of another secret as ranks missing, and no flood: those ranks came
	 * with another secret, which the refused rank calls a wrong secret (COMM_E_AUTH) too,
	 * so every rank names the same cause, not a stuck rank here */
	if (!r->pushed && r->wrong_secret && r->wrong_secret >= (unsigned)nmiss)
		status = COMM_E_AUTH;
	if (r->pushed) /* the missing ranks may have been crowded out */
		snprintf(refused, sizeof(refused),
			 " (a flood of connections to its port: it refused %u, %u of them silent "
			 "when every handshake slot was taken; the last: %.240s)",
			 r->refused, r->pushed, r->last_refusal);
	else if (r->refused) /* often the missing rank itself, with the wrong secret */
		snprintf(refused, sizeof(refused), " (it refused %u connection%s; the last: %.300s)",
			 r->refused, plural_s(r->refused), r->last_refusal);
	pthread_mutex_unlock(&r->mu);
	fail_all(r, status,
		 "rendezvous at %s timed out after %.1f s: %d of %d ranks never said hello: "
		 "rank%s %s%s",
		 r->where, (double)(mono_ms() - r->start) / 1000.0, nmiss, r->nranks,
		 plural_s(nmiss), miss, refused);
}

/* Checks a new hello against the rendezvous and the earlier ones: 0 or failed. */
static int check_hello(struct comm_rendezvous *r, const struct rconn *c)
{
	const struct comm__hello *h = &c->h;
	if (h->version != COMM_PROTOCOL_VERSION) {
		fail_all(r, COMM_E_BOOTSTRAP,
			 "protocol version mismatch: rank %d (host %s) speaks %u, the rendezvous %d",
			 h->rank, h->host, h->version, COMM_PROTOCOL_VERSION);
		return -1;
	}
	if (h->nranks != r->nranks) {
		int other = -1;
		for (int i = 0; i < r->nconns; i++)
			if (r->conns[i].h.nranks == r->nranks) {
				other = i;
				break;
			}
		if (other >= 0)
			fail_all(r, COMM_E_BOOTSTRAP,
				 "world size disagreement: rank %d (host %s) says %d ranks but rank %d "
				 "(host %s) and the rendezvous say %d",
				 h->rank, h->host, h->nranks, r->conns[other].h.rank,
				 r->conns[other].h.host, r->nranks);
		else
			fail_all(r, COMM_E_BOOTSTRAP,
				 "world size disagreement: rank %d (host %s) says %d ranks but the "
				 "rendezvous expects %d",
				 h->rank, h->host, h->nranks, r->nranks);
		return -1;
	}
	for (int i = 0; i < r->nconns; i++) {
		const struct comm__hello *o = &r->conns[i].h;
		if (o->rank == h->rank && &r->conns[i] != c) {
			fail_all(r, COMM_E_BOOTSTRAP,
				 "duplicate rank %d: said hello from host %s (%s) and from host %s (%s)",
				 h->rank, o->host, r->conns[i].from, h->host, c->from);
			return -1;
		}
	}
	return 0;
}

/* All hellos are in: the digests must agree, then everyone gets the book. */
static void resolve_full(struct comm_rendezvous *r)
{
	int n = r->nconns, best = 0, bestcnt = 0;
	for (int i = 0; i < n; i++) { /* the majority digest; ties go to the lowest rank's */
		int cnt = 0;
		for (int j = 0; j < n; j++)
			cnt += strcmp(r->conns[i].h.digest, r->conns[j].h.digest) == 0;
		if (cnt > bestcnt || (cnt == bestcnt && r->conns[i].h.rank < r->conns[best].h.rank)) {
			best = i;
			bestcnt = cnt;
		}
	}
	if (bestcnt != n) {
		char odd[COMM_ERRLEN / 2];
		size_t at = 0;
		int shown = 0;
		odd[0] = '\0';
		for (int rk = 0; rk < r->nranks; rk++)
			for (int i = 0; i < n; i++) {
				const struct comm__hello *h = &r->conns[i].h;
				if (h->rank != rk || strcmp(h->digest, r->conns[best].h.digest) == 0)
					continue;
				if (shown++ < 4)
					at = appendf(odd, sizeof(odd), at, "%srank %d (host %s) has %.16s",
						     at ? ", " : "", h->rank, h->host,
						     h->digest[0] ? h->digest : "none");
			}
		if (shown > 4)
			appendf(odd, sizeof(odd), at, " and %d more", shown - 4);
		const struct comm__hello *m = &r->conns[best].h;
		fail_all(r, COMM_E_BOOTSTRAP,
			 "rank-table digest mismatch: %s, but rank %d (host %s)%s has %.16s", odd,
			 m->rank, m->host, bestcnt > 1 ? " and the majority" : "",
			 m->digest[0] ? m->digest : "none");
		return;
	}
	struct comm__book_entry *e = calloc((size_t)n, sizeof(*e));
	size_t cap = comm__book_size(n), len = 0;
	unsigned char *buf = malloc(cap);
	if (!e || !buf) {
		free(e);
		free(buf);
		fail_all(r, COMM_E_NOMEM, "rendezvous: out of memory for the address book");
		return;
	}
	for (int i = 0; i < n; i++) {
		const struct comm__hello *h = &r->conns[i].h;
		struct comm__book_entry *b = &e[h->rank];
		b->rank = h->rank;
		b->port = h->port;
		comm__strlcpy(b->host, h->host, sizeof(b->host));
		comm__strlcpy(b->addr, h->addr, sizeof(b->addr));
	}
	if (comm__book_encode(r->id, e, n, buf, cap, &len)) {
		free(e);
		free(buf);
		fail_all(r, COMM_E_PROTO, "rendezvous: cannot encode the address book");
		return;
	}
	r->mon = comm__mon_new(n);
	for (int i = 0; i < n; i++) {
		int rc = comm__io_send_frame(r->conns[i].fd, COMM__F_BOOK, 0, buf, len,
					     mono_ms() + COMM__HANDSHAKE_MS, r->stop_pipe[0]);
		if (r->mon && !rc) /* the hello connection lives on as the status channel */
			comm__mon_add(r->mon, r->conns[i].h.rank, r->conns[i].fd, r->conns[i].h.host);
		else
			close(r->conns[i].fd);
	}
	r->nconns = 0;
	r->resolved = true;
	r->status = 0;
	snprintf(r->msg, sizeof(r->msg), "rendezvous at %s is complete: all %d ranks said hello",
		 r->where, r->nranks);
	free(e);
	free(buf);
}

/* An authenticated connection said hello (or failed to): into the rendezvous. */
static void take_hello(struct comm_rendezvous *r, const struct pend *q)
{
	char why[COMM_ERRLEN];
	struct comm__hdr h;
	unsigned char buf[COMM__HELLO_MAX];
	struct rconn c = { .fd = q->fd };
	int fd = q->fd;
	comm__strlcpy(c.from, q->from, sizeof(c.from));
	int rc = comm__io_recv_frame(fd, &h, buf, sizeof(buf), q->dl, r->stop_pipe[0], why,
				     sizeof(why));
	if (!rc && h.type != COMM__F_HELLO) {
		snprintf(why, sizeof(why), "expected a hello frame, got %s", comm__frame_name(h.type));
		rc = -EPROTO;
	}
	if (!rc && comm__hello_decode(buf, (size_t)h.len, &c.h, why, sizeof(why)))
		rc = -EPROTO;
	if (rc) {
		if (rc != -EPROTO)
			snprintf(why, sizeof(why), "no hello: %s",
				 rc == -ECONNRESET ? "connection closed" : strerror(-rc));
		refuse_log(r, q->from, why);
		reply_status(r, fd, COMM_E_PROTO, why);
		close(fd);
		return;
	}
	if (r->resolved) {
		reply_status(r, fd, r->status ? r->status : COMM_E_BOOTSTRAP, r->msg);
		close(fd);
		return;
	}
	if (r->nconns >= r->nranks) { /* cannot happen: full means resolved */
		reply_status(r, fd, COMM_E_BOOTSTRAP, "rendezvous: too many hellos");
		close(fd);
		return;
	}
	r->conns[r->nconns++] = c;
	if (check_hello(r, &r->conns[r->nconns - 1]))
		return;
	if (r->nconns == r->nranks)
		resolve_full(r);
}

/* The handshake of pend[i] can move (readable): check its answer, or take its hello.
 * Returns whether it left the list. */
static bool advance(struct comm_rendezvous *r, int i)
{
	struct pend *q = &r->pend[i];
	char why[COMM_ERRLEN];
	if (!q->authed) {
		/* read as it comes: a stranger that sends a byte and stops holds up nobody */
		ssize_t k = comm__tcp_ops.recv(q->fd, q->resp + q->got, sizeof(q->resp) - q->got);
		if (k == -EAGAIN || (k > 0 && (q->got += (size_t)k) < sizeof(q->resp)))
			return false;
		unsigned char fin[COMM__FIN_LEN];
		int rc = k <= 0 ? -1 : comm__auth_verify(r->secret, q->greet, q->resp, fin, why,
							sizeof(why));
		if (!rc && !comm__io_write(q->fd, fin, sizeof(fin), q->dl, r->stop_pipe[0])) {
			q->authed = true;
			return false;
		}
		if (k <= 0 || rc == 0)
			snprintf(why, sizeof(why), "no answer to the challenge: %s",
				 k == 0 ? "connection closed" : strerror(k < 0 ? (int)-k : EPIPE));
		refuse_log(r, q->from, why);
		if (rc == -2) {
			pthread_mutex_lock(&r->mu);
			r->wrong_secret++;
			pthread_mutex_unlock(&r->mu);
			comm__auth_refuse(q->fd, q->dl, r->stop_pipe[0]);
		}
		close(q->fd);
	} else {
		take_hello(r, q);
	}
	r->pend[i] = r->pend[--r->npend];
	return true;
}

/* The slot a newcomer may take when all are full: the unauthenticated one silent longest
 * (fewest bytes, then oldest) past PEND_GRACE_MS; -1 when none may go. */
static int push_out(const struct comm_rendezvous *r, int64_t now)
{
	int v = -1;
	for (int i = 0; i < r->npend; i++) {
		const struct pend *q = &r->pend[i];
		if (q->authed || now - q->since < PEND_GRACE_MS)
			continue;
		if (v < 0 || q->got < r->pend[v].got ||
		    (q->got == r->pend[v].got && q->since < r->pend[v].since))
			v = i;
	}
	return v;
}

/* Every connection waiting on the listening socket gets its challenge and a slot; when they
 * are all taken, the silent ones give way first. */
static void accept_all(struct comm_rendezvous *r)
{
	for (;;) {
		int64_t now = mono_ms();
		int v = r->npend < r->pend_cap ? -1 : push_out(r, now);
		if (r->npend >= r->pend_cap && v < 0)
			return;
		struct pend *q = &r->pend[r->npend], nq;
		if (comm__tcp_ops.accept(r->lfd, &nq.fd, nq.from, sizeof(nq.from)))
			return;
		if (v >= 0) {
			refuse_log(r, r->pend[v].from,
				   "no answer to the challenge: pushed out by a newcomer when every "
				   "handshake slot was taken");
			pthread_mutex_lock(&r->mu);
			r->pushed++;
			pthread_mutex_unlock(&r->mu);
			close(r->pend[v].fd);
			q = &r->pend[v];
		}
		*q = nq;
		q->authed = false;
		q->got = 0;
		q->since = now;
		q->dl = now + r->handshake_ms;
		if (comm__auth_greet(q->fd, q->greet, now, -1)) {
			refuse_log(r, q->from, "no answer to the challenge: could not send it");
			close(q->fd);
			if (v >= 0) /* its slot is free now */
				r->pend[v] = r->pend[--r->npend];
			continue;
		}
		if (v < 0)
			r->npend++;
	}
}

/* Handshakes past their time: refused, recorded. Returns the earliest time left (with every
 * slot taken, also when the oldest may give way to a newcomer). */
static int64_t expire(struct comm_rendezvous *r, int64_t now)
{
	int64_t next = INT64_MAX;
	for (int i = 0; r->npend >= r->pend_cap && i < r->npend; i++)
		if (!r->pend[i].authed && r->pend[i].since + PEND_GRACE_MS < next)
			next = r->pend[i].since + PEND_GRACE_MS;
	for (int i = 0; i < r->npend;) {
		struct pend *q = &r->pend[i];
		if (now < q->dl) {
			next = q->dl < next ? q->dl : next;
			i++;
			continue;
		}
		refuse_log(r, q->from,
			   q->authed ? "no hello: timed out" : "no answer to the challenge: timed out");
		close(q->fd);
		r->pend[i] = r->pend[--r->npend];
	}
	return next;
}

static void *serve(void *arg)
{
	struct comm_rendezvous *r = arg;
	int64_t deadline = r->start + r->timeout_ms, polled = 0;
	for (;;) {
		struct pollfd *pf = r->pf;
		if (r->mon) {
			int64_t t = mono_ms();
			if (t < polled + BATCH_MS)
				usleep((useconds_t)(polled + BATCH_MS - t) * 1000);
			polled = mono_ms();
		}
		int np = r->npend;
		bool room = r->npend < r->pend_cap || push_out(r, mono_ms()) >= 0;
		pf[0] = (struct pollfd){ room ? r->lfd : -1, POLLIN, 0 };
		pf[1] = (struct pollfd){ r->stop_pipe[0], POLLIN, 0 };
		for (int i = 0; i < np; i++)
			pf[2 + i] = (struct pollfd){ r->pend[i].fd, POLLIN, 0 };
		struct pollfd *mpf = pf + 2 + np;
		int npf = 2 + np + (r->mon ? comm__mon_pollfds(r->mon, mpf) : 0);
		int64_t now = mono_ms(), until = expire(r, now);
		if (r->npend != np) /* some expired: the set changed */
			continue;
		if (!r->resolved)
			until = deadline < until ? deadline : until;
		int wait = until == INT64_MAX ? -1 : until - now > 0 ? (int)(until - now) : 0;
		if (r->mon) {
			int t = comm__mon_tick_ms(r->mon);
			wait = wait < 0 || t < wait ? t : wait;
		}
		int n = poll(pf, (nfds_t)npf, wait);
		if (n < 0 && errno != EINTR)
			break; /* cannot happen with valid fds; the ranks will time out */
		if (pf[1].revents)
			break;
		if (r->mon) {
			comm__mon_step(r->mon, mpf, mono_ms());
			struct comm_verdict v;
			if (!r->have_verdict && comm__mon_verdict(r->mon, &v)) {
				pthread_mutex_lock(&r->mu);
				r->verdict = v;
				r->have_verdict = true;
				pthread_mutex_unlock(&r->mu);
			}
		}
		if (!r->resolved && mono_ms() >= deadline) {
			resolve_timeout(r);
			continue;
		}
		if (n <= 0)
			continue;
		/* from the last, so that a slot moved into a freed one was looked at already */
		for (int i = np - 1; i >= 0; i--)
			if (pf[2 + i].revents)
				advance(r, i);
		if (pf[0].revents & POLLIN)
			accept_all(r);
	}
	for (int i = 0; i < r->npend; i++)
		close(r->pend[i].fd);
	r->npend = 0;
	for (int i = 0; i < r->nconns; i++) {
		reply_status(r, r->conns[i].fd, COMM_E_BOOTSTRAP, "rendezvous stopped");
		close(r->conns[i].fd);
	}
	r->nconns = 0;
	comm__mon_free(r->mon);
	r->mon = NULL;
	return NULL;
}

int comm_rendezvous_start(struct comm_rendezvous **out, struct comm_root_info *ri, int nranks,
			  int timeout_ms, char *err, size_t errlen)
{
	struct comm__token t;
	struct comm_rendezvous *r = NULL;
	int rc;
	if (!out || !ri)
		return comm__errf(err, errlen, COMM_E_INVAL, "rendezvous: missing argument");
	*out = NULL;
	if (nranks < 1 || nranks > COMM__MAX_RANKS)
		return comm__errf(err, errlen, COMM_E_INVAL, "rendezvous: world size %d out of range",
				  nranks);
	if (timeout_ms <= 0)
		return comm__errf(err, errlen, COMM_E_INVAL, "rendezvous: timeout %d ms", timeout_ms);
	rc = comm__token_parse(ri->token, &t, err, errlen);
	if (rc)
		return rc;
	r = calloc(1, sizeof(*r));
	if (!r)
		return comm__errf(err, errlen, COMM_E_NOMEM, "rendezvous: out of memory");
	r->lfd = r->stop_pipe[0] = r->stop_pipe[1] = -1;
	r->nranks = nranks;
	r->timeout_ms = timeout_ms;
	memcpy(r->secret, t.secret, sizeof(r->secret));
	pthread_mutex_init(&r->mu, NULL);
	r->conns = calloc((size_t)nranks, sizeof(*r->conns));
	r->pend_cap = nranks + PEND_EXTRA;
	/* Ranks that start together on one host answer their challenges in turn for its
	 * cores (1024 on 2 cores: the last answers seconds after the first), and a stray holds
	 * one slot of its own, not the others', so the time grows with the world size. */
	r->handshake_ms = COMM__HANDSHAKE_MS + 10 * nranks;
	if (r->handshake_ms > timeout_ms)
		r->handshake_ms = timeout_ms;
	r->pend = calloc((size_t)r->pend_cap, sizeof(*r->pend));
	r->pf = calloc((size_t)(2 + r->pend_cap + nranks), sizeof(*r->pf));
	if (!r->conns || !r->pend || !r->pf) {
		rc = comm__errf(err, errlen, COMM_E_NOMEM, "rendezvous: out of memory");
		goto fail_mem;
	}
	if (getrandom(&r->id, sizeof(r->id), 0) != sizeof(r->id))
		r->id = (uint64_t)mono_ms() * 0x9e3779b97f4a7c15ull ^ (uint64_t)getpid();
	int port = t.port;
	char why[COMM_ERRLEN];
	rc = comm__tcp_ops.listen(t.host, &port, &r->lfd, why, sizeof(why));
	if (rc) {
		rc = comm__errf(err, errlen, COMM_E_SYS, "rendezvous: %s", why);
		goto fail_mem;
	}
	if (pipe2(r->stop_pipe, O_CLOEXEC | O_NONBLOCK)) {
		rc = comm__errf(err, errlen, COMM_E_SYS, "rendezvous: pipe: %s", strerror(errno));
		goto fail_listen;
	}
	if (port != t.port) { /* write the ephemeral port back into the token */
		struct comm_root_info nri;
		rc = comm_root_info_make(&nri, t.host, port, t.secret, err, errlen);
		if (rc)
			goto fail_pipe;
		*ri = nri;
	}
	snprintf(r->where, sizeof(r->where), "%s:%d", t.host, port);
	r->start = mono_ms();
	rc = pthread_create(&r->th, NULL, serve, r);
	if (rc) {
		rc = comm__errf(err, errlen, COMM_E_SYS, "rendezvous: thread: %s", strerror(rc));
		goto fail_pipe;
	}
	*out = r;
	return 0;

fail_pipe:
	close(r->stop_pipe[0]);
	close(r->stop_pipe[1]);
fail_listen:
	close(r->lfd);
fail_mem:
	pthread_mutex_destroy(&r->mu);
	free(r->conns);
	free(r->pend);
	free(r->pf);
	free(r);
	return rc;
}

void comm_rendezvous_stop(struct comm_rendezvous *r)
{
	if (!r)
		return;
	char b = 1;
	while (write(r->stop_pipe[1], &b, 1) < 0 && errno == EINTR)
		;
	pthread_join(r->th, NULL);
	close(r->lfd);
	close(r->stop_pipe[0]);
	close(r->stop_pipe[1]);
	pthread_mutex_destroy(&r->mu);
	free(r->conns);
	free(r->pend);
	free(r->pf);
	free(r);
}

int comm_rendezvous_verdict(struct comm_rendezvous *r, struct comm_verdict *v)
{
	if (!r || !v)
		return 0;
	pthread_mutex_lock(&r->mu);
	int have = r->have_verdict;
	if (have)
		*v = r->verdict;
	pthread_mutex_unlock(&r->mu);
	return have;
}

unsigned comm_rendezvous_refused(struct comm_rendezvous *r, char *why, size_t whylen)
{
	if (!r)
		return 0;
	pthread_mutex_lock(&r->mu);
	unsigned n = r->refused;
	if (why && whylen)
		comm__strlcpy(why, r->last_refusal, whylen);
	pthread_mutex_unlock(&r->mu);
	return n;
}

/* ---- the rank's side ---- */

int comm__boot_connect(const struct comm__token *t, int64_t deadline, int *fd_out,
		       char *local_addr, size_t addrlen, char *err, size_t errlen)
{
	char why[COMM_ERRLEN] = "";
	int delay = 20, fd = -1, rc;
	for (;;) { /* the rendezvous may not be listening yet: retry until the deadline */
		rc = comm__tcp_ops.connect(t->host, t->port, deadline, &fd, why, sizeof(why));
		if (rc == 0)
			break;
		if ((rc != -ECONNREFUSED && rc != -ETIMEDOUT && rc != -ENETUNREACH &&
		     rc != -EHOSTUNREACH) ||
		    mono_ms() + delay >= deadline)
			return comm__errf(err, errlen,
					  rc == -ETIMEDOUT || rc == -ECONNREFUSED ? COMM_E_TIMEOUT
										  : COMM_E_SYS,
					  "bootstrap: no rendezvous at %s:%d before the deadline: %s",
					  t->host, t->port, why);
		usleep((useconds_t)delay * 1000);
		delay = delay < 500 ? delay * 2 : 500;
	}
	rc = comm__auth_client(fd, t->secret, deadline, -1, NULL, 0, why, sizeof(why));
	if (rc) {
		close(fd);
		return comm__errf(err, errlen, rc, "bootstrap: rendezvous at %s:%d: %s", t->host,
				  t->port, why);
	}
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	local_addr[0] = '\0';
	if (getsockname(fd, (struct sockaddr *)&ss, &sl) == 0)
		getnameinfo((struct sockaddr *)&ss, sl, local_addr, (socklen_t)addrlen, NULL, 0,
			    NI_NUMERICHOST);
	*fd_out = fd;
	return 0;
}

int comm__boot_hello(int fd, const struct comm__hello *h, int64_t deadline, uint64_t *id,
		     struct comm__book_entry *book, char *err, size_t errlen)
{
	unsigned char hb[COMM__HELLO_MAX];
	size_t len = 0;
	char why[COMM_ERRLEN];
	if (comm__hello_encode(h, hb, sizeof(hb), &len))
		return comm__errf(err, errlen, COMM_E_INVAL, "bootstrap: hello does not encode");
	int rc = comm__io_send_frame(fd, COMM__F_HELLO, (uint32_t)h->rank, hb, len, deadline, -1);
	if (rc)
		return comm__errf(err, errlen, COMM_E_PEER, "bootstrap: cannot send hello: %s",
				  strerror(-rc));
	size_t cap = comm__book_size(h->nranks);
	unsigned char *buf = malloc(cap < COMM__CTRL_MAX ? COMM__CTRL_MAX : cap);
	if (!buf)
		return comm__errf(err, errlen, COMM_E_NOMEM, "bootstrap: out of memory");
	struct comm__hdr fh;
	rc = comm__io_recv_frame(fd, &fh, buf, cap < COMM__CTRL_MAX ? COMM__CTRL_MAX : cap, deadline,
				 -1, why, sizeof(why));
	if (rc == -ETIMEDOUT) {
		rc = comm__errf(err, errlen, COMM_E_TIMEOUT,
				"bootstrap: timed out waiting for the rendezvous to hear from all %d "
				"ranks",
				h->nranks);
	} else if (rc == -EPROTO) {
		rc = comm__errf(err, errlen, COMM_E_PROTO, "bootstrap: %s", why);
	} else if (rc) {
		rc = comm__errf(err, errlen, COMM_E_PEER,
				"bootstrap: rendezvous closed the connection: %s", strerror(-rc));
	} else if (fh.type == COMM__F_REFUSE) {
		int st;
		char msg[COMM__MSG_MAX];
		if (comm__status_decode(buf, (size_t)fh.len, &st, msg, sizeof(msg), why, sizeof(why)))
			rc = comm__errf(err, errlen, COMM_E_PROTO, "bootstrap: %s", why);
		else
			rc = comm__errf(err, errlen, st, "bootstrap: %s", msg);
	} else if (fh.type != COMM__F_BOOK) {
		rc = comm__errf(err, errlen, COMM_E_PROTO, "bootstrap: expected the address book, got %s",
				comm__frame_name(fh.type));
	} else if (comm__book_decode(buf, (size_t)fh.len, h->nranks, id, book, why, sizeof(why))) {
		rc = comm__errf(err, errlen, COMM_E_PROTO, "bootstrap: %s", why);
	}
	free(buf);
	return rc;
}
