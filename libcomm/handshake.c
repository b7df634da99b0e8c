/* The accepting end of a link's handshake: the frames it checks and answers with, and the
 * connections to a rank's listening socket, handshaken without ever blocking the data path.
 * A lower rank connects the first time a step needs us; so can anyone who reaches the port
 * (a scanner, another job, a client that connects and says nothing). Each accepted
 * connection gets its challenge at once and a slot; the connecting rank sends its whole
 * answer (proof, peer hello, shared-memory offer: COMM__HS_IN bytes) in one write, which is
 * read only when the socket is readable, a piece at a time, and checked when complete
 * (comm__link_answer). A connection that does not answer within its handshake time, closes
 * early, or answers wrong is dropped and counted (comm_strangers); when every slot is taken,
 * the one silent longest gives way to the newcomer.
 *
 * Before, the engine read each handshake blocking for up to 2 s, inside the step that
 * noticed it: one silent client after another took a 6 s job to 18 s, and a hundred made a
 * rank miss its deadline and the verdict blame an innocent peer. */
#include <errno.h>
#include <poll.h>
#include <sys/epoll.h>
#include <unistd.h>

#include "libcomm/internal.h"

/* Our peer hello as a whole frame, to go out in the same write as an authentication leg. */
void comm__peer_frame(const struct comm *c, unsigned char f[COMM__HDR_LEN + COMM__PEER_LEN])
{
	struct comm__peer_hello me = { c->id, c->rank, c->nranks };
	struct comm__hdr h = { COMM__F_PEER, 0, -1, (uint32_t)c->rank, COMM__PEER_LEN };
	comm__hdr_encode(f, &h);
	comm__peer_encode(&me, f + COMM__HDR_LEN);
}

/* A peer hello's payload b[n]: decoded into got, and of this communicator? 0 or -EPROTO. */
int comm__peer_ok(const struct comm *c, const unsigned char *b, size_t n,
		   struct comm__peer_hello *got, char *why, size_t whylen)
{
	if (comm__peer_decode(b, n, got, why, whylen))
		return -EPROTO;
	if (got->comm_id != c->id || got->nranks != c->nranks) {
		snprintf(why, whylen, "belongs to another communicator (id %016llx, %d ranks)",
			 (unsigned long long)got->comm_id, got->nranks);
		return -EPROTO;
	}
	return 0;
}

/* A whole frame of type want and payload length len at f (read already): 0 or -EPROTO. */
static int frame_ok(const unsigned char *f, uint8_t want, size_t len, const char *what,
		    char *why, size_t whylen)
{
	struct comm__hdr h;
	if (comm__hdr_decode(f, COMM__HDR_LEN, &h, why, whylen))
		return -EPROTO;
	if (h.type != want || h.len != len) {
		snprintf(why, whylen, "expected a %s, got %s of %llu bytes", what,
			 comm__frame_name(h.type), (unsigned long long)h.len);
		return -EPROTO;
	}
	return 0;
}

/* A shared-memory frame (offer or answer) at f. */
void comm__shm_frame(const struct comm *c, const struct comm__shm_hello *s,
		      unsigned char f[COMM__HDR_LEN + COMM__SHM_LEN])
{
	struct comm__hdr h = { COMM__F_SHM, 0, -1, (uint32_t)c->rank, COMM__SHM_LEN };
	comm__hdr_encode(f, &h);
	comm__shm_encode(s, f + COMM__HDR_LEN);
}

/* A shared-memory frame's payload b[n], an answer or (want_answer false) an offer: 0 or
 * -EPROTO with why. */
int comm__shm_ok(const unsigned char *b, size_t n, bool want_answer,
		  struct comm__shm_hello *got, char *why, size_t whylen)
{
	const char *what = want_answer ? "shared memory answer" : "shared memory offer";
	if (comm__shm_decode(b, n, got, why, whylen))
		return -EPROTO;
	if (want_answer != (got->kind == COMM__SHM_ANSWER)) {
		snprintf(why, whylen, "expected a %s, got kind %u", what, got->kind);
		return -EPROTO;
	}
	return 0;
}

int comm__link_answer(struct comm *c, int fd, const unsigned char *greet,
		      const unsigned char *in, int *rank_out)
{
	char why[COMM_ERRLEN];
	unsigned char out[COMM__FIN_LEN + 2 * COMM__HDR_LEN + COMM__PEER_LEN + COMM__SHM_LEN];
	const unsigned char *pf = in + COMM__RESP_LEN, *sf = pf + COMM__HDR_LEN + COMM__PEER_LEN;
	struct comm__peer_hello got;
	struct comm__shm_hello offer, ans;
	struct comm__shm *shm = NULL;
	int rc = comm__auth_verify(c->secret, greet, in, out, why, sizeof(why));
	if (!rc) /* its peer hello came behind its proof, its shared-memory offer behind that */
		rc = frame_ok(pf, COMM__F_PEER, COMM__PEER_LEN, "peer hello", why, sizeof(why)) ||
				     comm__peer_ok(c, pf + COMM__HDR_LEN, COMM__PEER_LEN, &got,
						   why, sizeof(why)) ?
			     -1 :
			     0;
	if (!rc && (got.rank < 0 || got.rank >= c->rank || c->peers[got.rank].fd >= 0))
		rc = -1;
	if (!rc)
		rc = frame_ok(sf, COMM__F_SHM, COMM__SHM_LEN, "shared memory offer", why,
			      sizeof(why)) ||
				     comm__shm_ok(sf + COMM__HDR_LEN, COMM__SHM_LEN, false, &offer,
						  why, sizeof(why)) ?
			     -1 :
			     0;
	/* our answer is a few hundred bytes on a socket that has sent only its challenge: it
	 * goes at once, the deadline only bounds a peer gone bad */
	int64_t dl = mono_ms() + COMM__HANDSHAKE_MS;
	if (!rc) { /* our proof, our peer hello and our answer in one write */
		comm__shm_answer(c, &offer, &shm, &ans);
		comm__peer_frame(c, out + COMM__FIN_LEN);
		comm__shm_frame(c, &ans, out + COMM__FIN_LEN + COMM__HDR_LEN + COMM__PEER_LEN);
		rc = comm__io_write(fd, out, sizeof(out), dl, -1) ? -1 : 0;
	}
	if (rc == -2)
		comm__auth_refuse(fd, dl, -1);
	if (rc) {
		comm__shm_free(shm);
		c->refused++;
		c->tp->close(fd);
		return -EPROTO;
	}
	/* shared memory demanded but not to be had: the other end fails on our answer, and so
	 * do we, naming the cause, not the link it then closes */
	if (comm__shm_refused(c, offer.mode, ans.why, ans.err, got.rank, c->link_refused,
			      sizeof(c->link_refused))) {
		comm__shm_free(shm);
		c->tp->close(fd);
		return -ENOTSUP;
	}
	comm__link_use(c, got.rank, shm);
	c->peers[got.rank].tp_why = ans.why;
	c->peers[got.rank].tp_err = ans.err;
	*rank_out = got.rank;
	return 0;
}

/* A handshake this young is never pushed out of its slot by a newcomer: a loaded host's
 * rank may take a few hundred ms to be scheduled and answer. */
#define HS_GRACE_MS 500

/* a slot's handshake time: as at accept_one, a loaded host's ranks answer late */
static int64_t hs_time(const struct comm *c)
{
	return COMM__HANDSHAKE_MS + 10 * (int64_t)c->nranks;
}

static void drop(struct comm *c, struct comm__hs *h)
{
	if (c->epfd >= 0)
		(void)epoll_ctl(c->epfd, EPOLL_CTL_DEL, h->fd, NULL);
	c->tp->close(h->fd);
	h->used = false;
	c->nhs--;
	c->refused++;
}

/* The listener in the epoll set on (new connections wake us) or off (every slot is taken by
 * a handshake younger than HS_GRACE_MS: the newcomers wait in the backlog, rather than wake
 * the engine in a loop). */
static void listen_arm(struct comm *c, bool on)
{
	struct epoll_event ev = { .events = on ? EPOLLIN : 0, .data.u32 = COMM__HS_LISTEN };
	if (c->hs_full == !on)
		return;
	c->hs_full = !on;
	if (c->epfd >= 0)
		(void)epoll_ctl(c->epfd, EPOLL_CTL_MOD, c->lfd, &ev);
}

/* A free slot; else the one silent longest (fewest bytes, then oldest), if it has had
 * HS_GRACE_MS: a rank's answer comes within a scheduler's wait, and a flood of newcomers must
 * not push it out before. NULL when none may go. */
static struct comm__hs *slot_for_new(struct comm *c, int64_t now)
{
	struct comm__hs *old = NULL;
	for (int i = 0; i < COMM__HS_MAX; i++) {
		struct comm__hs *h = &c->hs[i];
		if (!h->used)
			return h;
		if (now - h->since >= HS_GRACE_MS &&
		    (!old || h->got < old->got || (h->got == old->got && h->since < old->since)))
			old = h;
	}
	return old;
}

void comm__hs_accept(struct comm *c)
{
	for (;;) {
		int fd;
		char from[COMM__ADDR_MAX + 8];
		int64_t now = mono_ms();
		struct comm__hs *h = slot_for_new(c, now);
		if (!h) {
			listen_arm(c, false);
			return;
		}
		if (c->lfd < 0 || c->tp->accept(c->lfd, &fd, from, sizeof(from)))
			return; /* none pending (or a failed accept: the next wake-up retries) */
		if (h->used) { /* the newcomer takes the place of the longest silent */
			drop(c, h);
			c->hs_evicted++;
		}
		/* a fresh socket takes its 24-byte challenge at once; one that does not is
		 * not worth waiting for */
		if (comm__auth_greet(fd, h->greet, now, -1)) {
			c->tp->close(fd);
			c->refused++;
			continue;
		}
		struct epoll_event ev = { .events = EPOLLIN,
					  .data.u32 = COMM__HS_TAG0 + (uint32_t)(h - c->hs) };
		if (c->epfd >= 0 && epoll_ctl(c->epfd, EPOLL_CTL_ADD, fd, &ev)) {
			c->tp->close(fd);
			c->refused++;
			continue;
		}
		h->used = true;
		h->fd = fd;
		h->since = now;
		h->dl = now + hs_time(c);
		h->got = 0;
		c->nhs++;
	}
}

int comm__hs_read(struct comm *c, int i, int *rank_out, int *fd_out)
{
	struct comm__hs *h = &c->hs[i];
	if (i < 0 || i >= COMM__HS_MAX || !h->used)
		return -EAGAIN;
	while (h->got < sizeof(h->in)) {
		ssize_t k = c->tp->recv(h->fd, h->in + h->got, sizeof(h->in) - h->got);
		if (k == -EAGAIN)
			return -EAGAIN;
		if (k <= 0) { /* closed or failed before its answer was whole */
			drop(c, h);
			return -EPROTO;
		}
		h->got += (size_t)k;
	}
	/* whole: off the slot's tag (the engine adds the link under its peer's) */
	if (c->epfd >= 0)
		(void)epoll_ctl(c->epfd, EPOLL_CTL_DEL, h->fd, NULL);
	h->used = false;
	c->nhs--;
	listen_arm(c, true);
	int rc = comm__link_answer(c, h->fd, h->greet, h->in, rank_out);
	if (!rc)
		*fd_out = h->fd;
	return rc;
}

int64_t comm__hs_expire(struct comm *c, int64_t now)
{
	int64_t next = INT64_MAX, oldest = INT64_MAX;
	for (int i = 0; c->nhs && i < COMM__HS_MAX; i++) {
		struct comm__hs *h = &c->hs[i];
		if (h->used && now >= h->dl)
			drop(c, h);
		else if (h->used && h->dl < next)
			next = h->dl;
		if (h->used && h->since < oldest)
			oldest = h->since;
	}
	/* taken off while full: back when a slot is free or one may give way */
	if (c->hs_full && (c->nhs < COMM__HS_MAX || now - oldest >= HS_GRACE_MS))
		listen_arm(c, true);
	if (c->hs_full && oldest + HS_GRACE_MS < next)
		next = oldest + HS_GRACE_MS;
	return next;
}

int comm__hs_listen_fd(const struct comm *c)
{
	return c->hs_full ? -1 : c->lfd;
}

void comm__hs_pollfds(const struct comm *c, struct pollfd *pf)
{
	for (int i = 0; i < COMM__HS_MAX; i++)
		pf[i] = (struct pollfd){ c->hs[i].used ? c->hs[i].fd : -1, POLLIN, 0 };
}

void comm__hs_release(struct comm *c)
{
	for (int i = 0; i < COMM__HS_MAX; i++)
		if (c->hs[i].used) {
			c->tp->close(c->hs[i].fd);
			c->hs[i].used = false;
		}
	c->nhs = 0;
	c->hs_full = false;
}

unsigned comm_strangers(const struct comm *c)
{
	/* those still in a slot count too: by the time anyone asks, they are late */
	return c ? c->refused + (unsigned)c->nhs : 0;
}
