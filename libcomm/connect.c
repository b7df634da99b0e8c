/* The links of a communicator. Between two ranks the lower one connects and the higher one
 * accepts, always: two ranks that need each other at the same moment never connect to each
 * other at once (no crossed connections to break a tie between), and a rank blocked in a
 * connect waits only on a higher rank, so there is no cycle of waits. Each connection passes
 * the HMAC challenge, then the connecting rank says which communicator and rank it is and
 * the other end confirms, so a connection from another job, another communicator or a rank
 * that should not connect (a higher one) is refused (and counted) rather than taken for a
 * peer.
 *
 * Lazy (the default): the progress engine connects the first time a step needs a peer
 * (comm__link_connect) and accepts in its loop (handshake.c); a job of ring and rhd
 * collectives then holds O(log N) links per rank instead of N-1. Full (HCCLCTL_CONNECT=full,
 * the mesh before lazy links): comm__mesh_connect builds every link in init, connects in rank
 * order before accepts, so rank n-1 only accepts. */
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <unistd.h>

#include "libcomm/internal.h"

/* Reads one handshake frame of type want (what: its name, for messages) into b[cap]: its
 * payload length, or -errno with why. */
static int frame_read(int fd, int64_t deadline, int cancel_fd, uint8_t want, const char *what,
		      unsigned char *b, size_t cap, char *why, size_t whylen)
{
	struct comm__hdr h;
	int rc = comm__io_recv_frame(fd, &h, b, cap, deadline, cancel_fd, why, whylen);
	if (rc) {
		if (rc != -EPROTO)
			snprintf(why, whylen, "no %s: %s", what,
				 rc == -ECONNRESET ? "connection closed" : strerror(-rc));
		return rc;
	}
	if (h.type != want) {
		snprintf(why, whylen, "expected a %s, got %s", what, comm__frame_name(h.type));
		return -EPROTO;
	}
	return (int)h.len;
}

/* Reads the other end's peer hello and checks it is of this communicator: 0 or -errno. */
static int peer_read(const struct comm *c, int fd, int64_t deadline, int cancel_fd,
		     struct comm__peer_hello *got, char *why, size_t whylen)
{
	unsigned char b[COMM__PEER_LEN];
	int n = frame_read(fd, deadline, cancel_fd, COMM__F_PEER, "peer hello", b, sizeof(b), why,
			   whylen);
	return n < 0 ? n : comm__peer_ok(c, b, (size_t)n, got, why, whylen);
}

/* Reads the other end's shared-memory frame, an answer or (want_answer false) an offer:
 * 0 or -errno with why. */
static int shm_read(int fd, int64_t deadline, int cancel_fd, bool want_answer,
		    struct comm__shm_hello *got, char *why, size_t whylen)
{
	unsigned char b[COMM__SHM_LEN];
	const char *what = want_answer ? "shared memory answer" : "shared memory offer";
	int n = frame_read(fd, deadline, cancel_fd, COMM__F_SHM, what, b, sizeof(b), why, whylen);
	return n < 0 ? n : comm__shm_ok(b, (size_t)n, want_answer, got, why, whylen);
}

/* fd is connected to r: authenticate, say who we are, check who answered. Three legs in
 * all: the challenge; our proof with our peer hello and shared-memory offer behind it; the
 * other end's proof with its peer hello and answer (a connection handshake was five legs,
 * each a wait for the other process to be scheduled; at 1024 ranks on 2 cores those waits
 * were most of the time to connect). 0 or the code (-ECANCELED when cancel_fd became
 * readable), why the reason. */
static int greet_up(struct comm *c, int fd, int r, int64_t deadline, int cancel_fd, char *why,
		    size_t whylen)
{
	unsigned char f[COMM__HDR_LEN + COMM__PEER_LEN + COMM__HDR_LEN + COMM__SHM_LEN];
	struct comm__shm_prep pp;
	struct comm__shm_hello offer, ans;
	comm__peer_frame(c, f);
	comm__shm_offer(c, &pp, &offer);
	comm__shm_frame(c, &offer, f + COMM__HDR_LEN + COMM__PEER_LEN);
	int rc = comm__auth_client(fd, c->secret, deadline, cancel_fd, f, sizeof(f), why, whylen);
	if (rc) {
		comm__shm_prep_release(&pp);
		return rc;
	}
	struct comm__peer_hello got;
	rc = peer_read(c, fd, deadline, cancel_fd, &got, why, whylen);
	if (!rc && got.rank != r) {
		snprintf(why, whylen, "answered as rank %d", got.rank);
		rc = -EPROTO;
	}
	if (!rc)
		rc = shm_read(fd, deadline, cancel_fd, true, &ans, why, whylen);
	if (!rc) {
		struct comm__shm *s;
		int arc = comm__shm_accepted(c, &pp, &ans, r, &s, why, whylen);
		if (arc)
			return arc;
		comm__link_use(c, r, s);
		return 0;
	}
	comm__shm_prep_release(&pp);
	if (rc == -ECANCELED)
		return rc;
	return rc == -ETIMEDOUT ? COMM_E_TIMEOUT : rc == -EPROTO ? COMM_E_PROTO : COMM_E_PEER;
}

/* The lower ranks' connections to our listener, their handshakes read as they come
 * (handshake.c: a slot each, its own deadline, the longest silent pushed out for a newcomer),
 * so a silent stranger holds up nothing. Polls until fd (-1: none) is readable (0),
 * cancel_fd is (-ECANCELED), *got reaches want (0), a link is refused for want of shared
 * memory (-ENOTSUP, c->link_refused says why) or the deadline passes (COMM_E_TIMEOUT).
 * Accepted links are left in the peers, *got counting them. */
static int accept_until(struct comm *c, int fd, int cancel_fd, int64_t deadline, int want,
			int *got)
{
	while (*got < want) {
		int64_t now = mono_ms(), left = deadline - now;
		if (left <= 0)
			return COMM_E_TIMEOUT;
		/* first: it may turn the listener back on, which the poll must then include
		 * (after it, a full set of slots waited out their whole handshake time) */
		int64_t hs = comm__hs_expire(c, now) - now;
		left = hs < left ? hs : left;
		struct pollfd pf[3 + COMM__HS_MAX] = { { fd, POLLIN, 0 },
						       { comm__hs_listen_fd(c), POLLIN, 0 },
						       { cancel_fd, POLLIN, 0 } };
		comm__hs_pollfds(c, pf + 3);
		int n = poll(pf, 3 + COMM__HS_MAX, (int)(left > 1000000 ? 1000000 : left));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 || pf[0].revents)
			return 0; /* the read that follows says what is wrong */
		if (pf[2].revents)
			return -ECANCELED;
		for (int i = 0; i < COMM__HS_MAX; i++) {
			int ar, afd, rc = pf[3 + i].revents ? comm__hs_read(c, i, &ar, &afd) : -EAGAIN;
			if (rc == -ENOTSUP)
				return rc;
			if (!rc) {
				c->peers[ar].fd = afd;
				(*got)++;
			}
		}
		if (pf[1].revents)
			comm__hs_accept(c);
	}
	return 0;
}

/* Until the higher rank greets us on fd, the ranks below us that connect are accepted: they
 * may be what that rank waits for (each rank connecting to the next at once: 0 -> 1 -> 2 ...
 * would otherwise complete one at a time from the top, N handshakes in a row). Accepted
 * links are left for the engine to take up; one refused for shared memory fails on the other
 * side, which says so. 0, COMM_E_TIMEOUT or -ECANCELED. */
static int await_greeting(struct comm *c, int fd, int64_t deadline, int cancel_fd)
{
	int rc, got = 0;
	do
		rc = accept_until(c, fd, cancel_fd, deadline, INT_MAX, &got);
	while (rc == -ENOTSUP);
	c->unadopted += got;
	return rc;
}

/* One connection to r and its handshake: 0 with *fd, a negative errno when r was not
 * reached (*reached false), or the handshake's code with e (fd closed). */
static int try_link(struct comm *c, int r, int64_t deadline, int cancel_fd, int *fd, char *e,
		    size_t elen, bool *reached)
{
	const struct comm__peer *p = &c->peers[r];
	*reached = false;
	int rc = c->tp->connect(p->addr, p->port, deadline, fd, e, elen);
	if (rc)
		return rc;
	*reached = true;
	rc = await_greeting(c, *fd, deadline, cancel_fd);
	if (!rc)
		rc = greet_up(c, *fd, r, deadline, cancel_fd, e, elen);
	else if (rc == COMM_E_TIMEOUT)
		snprintf(e, elen, "no greeting before the deadline (its process does not answer)");
	if (rc) {
		c->tp->close(*fd);
		*fd = -1;
	}
	return rc;
}

int comm__link_connect(struct comm *c, int r, int64_t deadline, int cancel_fd, int *fd_out,
		       char *why, size_t whylen)
{
	const struct comm__peer *p = &c->peers[r];
	char e[COMM_ERRLEN] = "", e2[COMM_ERRLEN] = "";
	int fd = -1;
	bool reached;
	/* every rank listens before its hello, so a refusal here is not "too early": the
	 * process is gone, and waiting would only delay the message */
	int64_t t0 = mono_ms();
	int rc = try_link(c, r, deadline, cancel_fd, &fd, e, sizeof(e), &reached);
	if (!reached)
		return comm__errf(why, whylen, rc == -ETIMEDOUT ? COMM_E_TIMEOUT : COMM_E_PEER,
				  "cannot reach rank %d (host %s) at %s:%d: %s", r, p->host, p->addr,
				  p->port, strerror(-rc));
	/* A peer that greeted us and closed only after its accept's COMM__HANDSHAKE_MS gave up
	 * waiting for our handshake, which retransmissions on a lossy link can outlast (with 5 %
	 * loss on every link a run failed now and then); one that refuses us closes at once.
	 * Once more, then; a peer that is gone by now refuses, and the first failure is told. */
	int64_t now = mono_ms();
	if (rc == COMM_E_PEER && now - t0 >= COMM__HANDSHAKE_MS && now < deadline) {
		int rc2 = try_link(c, r, deadline, cancel_fd, &fd, e2, sizeof(e2), &reached);
		if (!rc2 || rc2 == -ECANCELED)
			rc = rc2;
	}
	if (rc == -ECANCELED)
		return rc;
	if (rc)
		return comm__errf(why, whylen, rc, "connection to rank %d (host %s) at %s:%d: %s", r,
				  p->host, p->addr, p->port, e);
	*fd_out = fd;
	return 0;
}

/* Full mesh at init: the peer's listener may still be coming up (a split's members listen as
 * they get there), so a refusal is retried until the deadline. */
static int connect_up(struct comm *c, const struct comm__book_entry *b, int64_t deadline)
{
	char why[COMM_ERRLEN] = "";
	int delay = 10, fd = -1, rc;
	for (;;) {
		rc = c->tp->connect(b->addr, b->port, deadline, &fd, why, sizeof(why));
		if (rc == 0)
			break;
		if (mono_ms() + delay >= deadline || (rc != -ECONNREFUSED && rc != -ETIMEDOUT))
			return comm__errf(c->errbuf, sizeof(c->errbuf),
					  rc == -ETIMEDOUT || rc == -ECONNREFUSED ? COMM_E_TIMEOUT
										  : COMM_E_SYS,
					  "rank %d (host %s): init: cannot reach rank %d (host %s) at "
					  "%s:%d: %s",
					  c->rank, c->host, b->rank, b->host, b->addr, b->port, why);
		usleep((useconds_t)delay * 1000);
		delay = delay < 200 ? delay * 2 : 200;
	}
	rc = greet_up(c, fd, b->rank, deadline, -1, why, sizeof(why));
	if (rc) {
		c->tp->close(fd);
		return comm__errf(c->errbuf, sizeof(c->errbuf), rc,
				  "rank %d (host %s): init: connection to rank %d (host %s): %s",
				  c->rank, c->host, b->rank, b->host, why);
	}
	c->peers[b->rank].fd = fd;
	return 0;
}

/* Full mesh: every rank below us connects; the same accept as a lazy link's (the listener
 * is lent to c for it), so strangers at the port during init hold up no one either. Those
 * still in a slot at the end are dropped and counted: the listener closes with init. */
static int accept_down(struct comm *c, int lfd, const struct comm__book_entry *book,
		       int64_t deadline)
{
	int got = 0;
	c->lfd = lfd;
	int rc = accept_until(c, -1, -1, deadline, c->rank, &got);
	c->lfd = -1;
	c->refused += (unsigned)c->nhs;
	comm__hs_release(c);
	if (rc == -ENOTSUP)
		return comm__errf(c->errbuf, sizeof(c->errbuf), COMM_E_SYS,
				  "rank %d (host %s): init: %s", c->rank, c->host, c->link_refused);
	if (!rc)
		return 0;
	char list[COMM_ERRLEN / 2];
	size_t at = 0;
	list[0] = '\0';
	for (int r = 0; r < c->rank && at < sizeof(list); r++)
		if (c->peers[r].fd < 0) {
			int k = snprintf(list + at, sizeof(list) - at, "%s%d (host %s)", at ? ", " : "",
					 r, book[r].host);
			at += k > 0 ? (size_t)k : 0;
		}
	return comm__errf(c->errbuf, sizeof(c->errbuf), COMM_E_TIMEOUT,
			  "rank %d (host %s): init: timed out after %.1f s waiting for rank%s %s "
			  "to connect",
			  c->rank, c->host, (double)c->connect_timeout_ms / 1000.0,
			  c->rank - got > 1 ? "s" : "", list);
}

void comm__mesh_book(struct comm *c, const struct comm__book_entry *book)
{
	for (int r = 0; r < c->nranks; r++) {
		struct comm__peer *p = &c->peers[r];
		comm__strlcpy(p->host, book[r].host, sizeof(p->host));
		comm__strlcpy(p->addr, book[r].addr, sizeof(p->addr));
		p->port = book[r].port;
	}
}

int comm__mesh_connect(struct comm *c, int lfd, const struct comm__book_entry *book,
		       int64_t deadline)
{
	comm__mesh_book(c, book);
	for (int r = c->rank + 1; r < c->nranks; r++) {
		int rc = connect_up(c, &book[r], deadline);
		if (rc)
			return rc;
	}
	return accept_down(c, lfd, book, deadline);
}
