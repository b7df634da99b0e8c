/* The progress engine: one edge-triggered epoll set over a communicator's peer sockets, and
 * comm__exchange, which runs every transfer of one algorithm step at once (sends and receives
 * to all peers in flight together, full duplex) until all complete or the deadline passes.
 *
 * Frames: a 24-byte header then the payload; a send is one writev of header and user buffer,
 * a receive reads the payload straight into the user buffer, so data is never copied in user
 * space. Over a shared-memory link (link.c, shm.c) the same byte stream goes through a ring
 * instead of the socket, one copy in and one out, polled while the engine polls and woken by
 * a doorbell on the socket while it sleeps. Headers are read ahead on every link, so an
 * ABORT (or the next collective's fingerprint) from a peer this step does not involve is seen
 * at once; a data frame for a later step stays in the socket or ring until its receive is
 * posted (TCP flow control or the ring's capacity is the backpressure, nothing is buffered
 * here).
 *
 * Failure: any fatal error marks the communicator broken and sends ABORT with the message to
 * every peer, which fail with the same message, so every rank reports the first cause. */
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "libcomm/internal.h"

#define LINK_MIN (64 << 10) /* smaller receives say more about latency than the link */
/* A peer whose fingerprint a collective waits for is asked for it after this long. */
#define FP_ASK_MS 50
/* How long a failed connect waits for the monitor's verdict: its settle time (300 ms), a
 * batch and a tick, with room for a loaded machine. */
#define VERDICT_WAIT_MS 1000

static int next_for(const struct comm__xfer *x, size_t n, size_t i, int r, int send)
{
	for (size_t j = i + 1; j < n; j++)
		if (x[j].peer == r && (send ? x[j].slen : x[j].rlen))
			return (int)j;
	return -1;
}

struct step {
	struct comm__xfer *x;
	size_t n;
	uint8_t type;
	uint32_t seq;
	size_t pending;
	bool moved;
	bool drain; /* comm__fp_drain: done when every fingerprint is in and ours out */
};

/* Lower ranks connect to higher ones: r connects to us, and we accept here, in the loop of a
 * step, so a rank waiting on its own step still lets the ranks below it connect. The
 * handshake is read as it comes (handshake.c): a stranger that stays silent holds up
 * nothing, and is dropped and counted. */
static int inbound(struct comm *c, struct step *s, uint32_t tag)
{
	int r, fd, rc;
	if (tag == COMM__HS_LISTEN) {
		comm__hs_accept(c);
		return 0;
	}
	rc = comm__hs_read(c, (int)(tag - COMM__HS_TAG0), &r, &fd);
	if (rc == -ENOTSUP)
		return comm__fail(c, COMM_E_SYS, "%s", c->link_refused);
	if (rc)
		return 0;
	int e = comm__add_link(c, r, fd);
	if (e)
		return comm__fail(c, COMM_E_SYS, "link to rank %d: %s", r, strerror(-e));
	if (s)
		s->moved = true;
	return 0;
}

/* The sooner of wake and the first handshake deadline; the expired ones dropped. */
static int64_t hs_wake(struct comm *c, int64_t now, int64_t wake)
{
	int64_t hs = comm__hs_expire(c, now);
	return hs < wake ? hs : wake;
}

/* The step needs r and there is no link yet: connect to a higher rank now (the connect
 * deadline, or the operation's if sooner); a lower one connects to us (inbound). */
static int link_up(struct comm *c, int r)
{
	struct comm__peer *p = &c->peers[r];
	if (p->fd >= 0 || r < c->rank)
		return 0;
	char why[COMM_ERRLEN];
	int64_t dl = mono_ms() + c->connect_timeout_ms;
	int fd, rc = comm__link_connect(c, r, dl < c->deadline ? dl : c->deadline,
					c->watch.wake[0], &fd, why, sizeof(why));
	int arc = comm__adopt_links(c);
	if (arc) {
		if (!rc)
			c->tp->close(fd);
		return arc;
	}
	if (rc == -ECANCELED) { /* a verdict came while we waited: it is the cause */
		int vrc = c->on_wake ? c->on_wake(c, NULL, 0) : 0;
		if (vrc)
			return vrc;
		rc = COMM_E_SYS;
	}
	/* A peer that refuses or drops the connection has most likely failed itself (its
	 * process ended, or it broke on another peer before it could take ours): the monitor's
	 * verdict, due within its settle time, names the cause, which ours is a consequence of. */
	if (rc && rc != COMM_E_TIMEOUT && c->on_wake && c->watch.wake[0] >= 0) {
		struct pollfd pf = { c->watch.wake[0], POLLIN, 0 };
		if (poll(&pf, 1, VERDICT_WAIT_MS) == 1) {
			int vrc = c->on_wake(c, why, rc);
			if (vrc)
				return vrc;
		}
	}
	if (rc) {
		c->hint_kind = rc == COMM_E_TIMEOUT ? COMM_VERDICT_STUCK_RANK : COMM_VERDICT_DEAD_RANK;
		c->hint_rank = r;
		return comm__fail(c, rc, "%s", why);
	}
	int e = comm__add_link(c, r, fd);
	if (e)
		return comm__fail(c, COMM_E_SYS, "link to rank %d: %s", r, strerror(-e));
	return 0;
}

/* A peer whose fingerprint this step waits for: every one's when all are awaited or being
 * gathered, else those of the peers whose data it waits for. */
static bool awaited(const struct comm *c, int r)
{
	return comm__fp_owed(c, r) && (c->fp_all || c->fp_bad || c->peers[r].rcur >= 0);
}

const char *comm__lost_why(const struct comm__peer *p)
{
	if (p->sock_err && p->sock_err != ECONNRESET && p->sock_err != EPIPE)
		return strerror(p->sock_err);
	return "it exited or closed the communicator";
}

static int recv_closed(struct comm *c, int r, struct step *s)
{
	struct comm__peer *p = &c->peers[r];
	c->hint_kind = COMM_VERDICT_DEAD_RANK;
	c->hint_rank = r;
	if (s->type == COMM__F_FP || comm__fp_owed(c, r))
		return comm__fail(c, COMM_E_PEER,
				  "connection to rank %d (host %s) lost before its fingerprint: %s", r,
				  p->host, comm__lost_why(p));
	const struct comm__xfer *x = &s->x[p->rcur];
	return comm__fail(c, COMM_E_PEER,
			  "connection to rank %d (host %s) lost: %s; received %zu of %zu bytes", r,
			  p->host, comm__lost_why(p), c->xs[p->rcur].rdone, x->rlen);
}

/* The link to r failed under a send (k the error, 0 for EOF): its verdict hint and message. */
static int send_lost(struct comm *c, int r, ssize_t k, const struct comm__xstate *st,
		     const struct comm__xfer *x, size_t pre)
{
	struct comm__peer *p = &c->peers[r];
	p->sock_err = k ? (int)-k : EPIPE;
	c->hint_kind = COMM_VERDICT_DEAD_RANK;
	c->hint_rank = r;
	if (!st || pre)
		return comm__fail(c, COMM_E_PEER,
				  "connection to rank %d (host %s) lost before our fingerprint went "
				  "out: %s",
				  r, p->host, comm__lost_why(p));
	return comm__fail(c, COMM_E_PEER,
			  "connection to rank %d (host %s) lost: %s; sent %zu of %zu bytes", r,
			  p->host, comm__lost_why(p), st->sdone, x->slen);
}

/* k bytes went out to r: pre of them control frames, the rest send i's header and data. */
static void sent(struct comm *c, int r, struct step *s, int i, size_t pre, size_t k)
{
	struct comm__peer *p = &c->peers[r];
	s->moved = true;
	c->op_sent += k;
	if (pre) {
		size_t h = pre < k ? pre : k;
		p->ctl_sent += h;
		k -= h;
		p->midframe = p->ctl_sent < p->ctl_len;
	}
	if (i < 0)
		return;
	struct comm__xstate *st = &c->xs[i];
	const struct comm__xfer *x = &s->x[i];
	if (st->hsent < COMM__HDR_LEN) {
		size_t h = COMM__HDR_LEN - st->hsent;
		h = h < k ? h : k;
		st->hsent += h;
		k -= h;
	}
	st->sdone += k;
	p->midframe = p->midframe || st->hsent;
	if (st->hsent == COMM__HDR_LEN && st->sdone == x->slen) {
		if (c->profile)
			st->s_end = comm__prof_now();
		p->midframe = false;
		s->pending--;
		p->scur = next_for(s->x, s->n, (size_t)i, r, 1);
	}
}

static int pump_send(struct comm *c, int r, struct step *s)
{
	struct comm__peer *p = &c->peers[r];
	for (;;) {
		if ((p->fp_due || p->fp_asked) && c->check) /* ours goes in front of our data */
			c->check->serve(c, r, p->scur >= 0);
		/* no room for ours yet: the queue first */
		int i = p->fp_due && c->fp_lazy ? -1 : p->scur;
		struct comm__xstate *st = i >= 0 ? &c->xs[i] : NULL;
		const struct comm__xfer *x = i >= 0 ? &s->x[i] : NULL;
		/* control frames go between frames: one queued while a data frame is partly
		 * out (a request for a fingerprint while the peer's socket is full) waits for
		 * the frame's end, or the peer would read it as data */
		size_t pre = st && st->hsent ? 0 : p->ctl_len - p->ctl_sent;
		if (i < 0 && !pre)
			return 0;
		struct iovec iov[3];
		int cnt = 0;
		if (pre) /* control frames first, in the same write */
			iov[cnt++] = (struct iovec){ p->pb->ctl_tx + p->ctl_sent, pre };
		if (st && st->hsent < COMM__HDR_LEN)
			iov[cnt++] = (struct iovec){ st->hdr + st->hsent, COMM__HDR_LEN - st->hsent };
		if (st)
			iov[cnt++] = (struct iovec){ (char *)x->sbuf + st->sdone, x->slen - st->sdone };
		ssize_t k = comm__link_send(c, p, iov, cnt);
		if (k == -EAGAIN) {
			p->wr_ready = false;
			return 0;
		}
		if (k <= 0)
			return send_lost(c, r, k, st, x, pre);
		sent(c, r, s, i, pre, (size_t)k);
	}
}

static void deliver_fp(struct comm *c, int r, struct step *s)
{
	struct comm__peer *p = &c->peers[r];
	if (s->type != COMM__F_FP || p->rcur < 0 || !p->fp_pending)
		return;
	memcpy(s->x[p->rcur].rbuf, &p->fp, sizeof(p->fp));
	c->xs[p->rcur].rdone = s->x[p->rcur].rlen;
	if (c->profile)
		c->xs[p->rcur].r_end = comm__prof_now();
	p->fp_pending = false;
	s->pending--;
	s->moved = true;
	p->rcur = next_for(s->x, s->n, (size_t)p->rcur, r, 0);
}

/* A complete control frame is in cbuf: an ABORT ends the operation with the peer's cause,
 * the others go to the handler registered for their type. */
static int control(struct comm *c, int r, struct step *s)
{
	struct comm__peer *p = &c->peers[r];
	char why[COMM_ERRLEN];
	if (p->rh.type != COMM__F_ABORT) {
		s->moved = true;
		int rc = c->ctl[p->rh.type](c, r, &p->rh, p->pb->cbuf);
		if (!rc)
			deliver_fp(c, r, s);
		return rc;
	}
	int st;
	char msg[COMM__MSG_MAX];
	if (comm__status_decode(p->pb->cbuf, (size_t)p->rh.len, &st, msg, sizeof(msg), why, sizeof(why)))
		return comm__fail(c, COMM_E_PROTO, "bad abort frame from rank %d (host %s): %s", r,
				  p->host, why);
	c->hint_kind = -1; /* the rank that aborted reported the cause */
	return comm__fail_root(c, st, msg, "aborted by rank %d: %s", r, msg);
}

static size_t staged(const struct comm__peer *p)
{
	return p->st_len - p->st_off;
}

/* Up to want bytes of r's stream into dst: staged bytes first. A small read fills the stage
 * in one call (a header, its payload and the small frames behind it come together: one
 * system call where there were four), a large one goes straight to dst. Returns the bytes,
 * 0 at the end of the stream, -errno (-EAGAIN: nothing now). */
static ssize_t peer_read(struct comm *c, struct comm__peer *p, void *dst, size_t want)
{
	if (!staged(p)) {
		if (!p->rd_ready)
			return -EAGAIN;
		if (want >= sizeof(p->pb->stage))
			return comm__link_recv(c, p, dst, want);
		ssize_t k = comm__link_recv(c, p, p->pb->stage, sizeof(p->pb->stage));
		if (k <= 0)
			return k;
		p->st_off = 0;
		p->st_len = (size_t)k;
	}
	size_t k = staged(p) < want ? staged(p) : want;
	memcpy(dst, p->pb->stage + p->st_off, k);
	p->st_off += k;
	return (ssize_t)k;
}

/* What of r's stream was there for a read that got k bytes, with `before` bytes staged. */
static size_t avail(struct comm *c, struct comm__peer *p, size_t before, ssize_t k)
{
	size_t q = comm__link_queued(c, p);
	return before ? before + q : q + (size_t)k;
}

/* Up to len bytes of r's stream into buf, as far as there is something to read: > 0 the bytes,
 * 0 nothing now, < 0 the stream ended (eof and sock_err say how). */
static ssize_t take(struct comm *c, struct comm__peer *p, void *buf, size_t len)
{
	if (!p->rd_ready && !staged(p))
		return 0;
	ssize_t k = peer_read(c, p, buf, len);
	if (k == -EAGAIN) {
		p->rd_ready = false;
		return 0;
	}
	if (k <= 0) {
		if (k < 0)
			p->sock_err = (int)-k;
		p->eof = true;
		return -1;
	}
	return k;
}

/* A frame header from r: *more when there is one (or more of one) to go on with. */
static int recv_header(struct comm *c, int r, struct step *s, bool *more)
{
	struct comm__peer *p = &c->peers[r];
	char why[COMM_ERRLEN];
	/* a ring is read to its end before its socket's EOF counts */
	if ((p->eof || p->sock_err) && !staged(p) && !(p->link->rings && comm__link_queued(c, p)))
		return p->rcur >= 0 || awaited(c, r) ? recv_closed(c, r, s) : 0;
	ssize_t k = take(c, p, p->rhdr + p->rhdr_got, COMM__HDR_LEN - p->rhdr_got);
	if (k == 0)
		return 0;
	s->moved = true;
	if (k < 0) {
		if (p->rhdr_got)
			return comm__fail(c, COMM_E_PEER,
					  "rank %d (host %s) closed the connection inside a frame header",
					  r, p->host);
		return p->rcur >= 0 || awaited(c, r) ? recv_closed(c, r, s) : 0;
	}
	*more = true;
	p->rhdr_got += (size_t)k;
	if (p->rhdr_got < COMM__HDR_LEN)
		return 0;
	if (comm__hdr_decode(p->rhdr, COMM__HDR_LEN, &p->rh, why, sizeof(why)))
		return comm__fail(c, COMM_E_PROTO, "bad frame from rank %d (host %s): %s", r,
				  p->host, why);
	if (p->rh.from != (uint32_t)r)
		return comm__fail(c, COMM_E_PROTO,
				  "frame from rank %d (host %s) says it is from rank %u", r, p->host,
				  p->rh.from);
	if (p->rh.type != COMM__F_DATA && p->rh.type != COMM__F_ABORT &&
	    (p->rh.type >= COMM__F_TYPE_END || !c->ctl[p->rh.type]))
		return comm__fail(c, COMM_E_PROTO, "unexpected %s frame from rank %d (host %s)",
				  comm__frame_name(p->rh.type), r, p->host);
	p->hdr_ok = true;
	p->cgot = 0;
	return 0;
}

/* A receive of step s is complete: its link's figures, and r's next receive. */
static void recv_done(struct comm *c, int r, struct step *s, int i)
{
	struct comm__peer *p = &c->peers[r];
	const struct comm__xfer *x = &s->x[i];
	struct comm__xstate *st = &c->xs[i];
	int64_t now = st->r_first ? comm__prof_now() : 0;
	if (st->r_first) {
		struct comm_link_stat *ls = &c->links[r];
		ls->bytes += x->rlen;
		ls->active_s += (double)(now - st->r_first) / 1e6;
		ls->waited_s += (double)(st->r_first - c->step_t0) / 1e6;
	}
	if (c->profile)
		st->r_end = comm__prof_now();
	p->hdr_ok = false;
	p->rhdr_got = 0;
	s->pending--;
	p->rcur = next_for(s->x, s->n, (size_t)i, r, 0);
}

/* The payload of a data frame from r, into the receive of step s it belongs to. */
static int recv_data(struct comm *c, int r, struct step *s, bool *more)
{
	struct comm__peer *p = &c->peers[r];
	if (c->fp_bad)
		return 0; /* the fingerprints differ: the data is not for us */
	/* its fingerprint comes in front of its first data of a collective; data behind a later
	 * one's is for a later collective */
	bool owed = comm__fp_owed(c, r);
	if (p->rcur < 0 && (!owed || p->fp_pending))
		return 0; /* for a later step: stays in the socket until asked for */
	if (owed && p->fp_pending) { /* we wait for its data of this one */
		p->fp_pending = false;
		c->check->take(c, r);
		s->moved = *more = true;
		return 0;
	}
	if (s->type != COMM__F_DATA || owed)
		return comm__fail(c, COMM_E_PROTO,
				  "rank %d (host %s) sent data for #%u step %d while this rank waits "
				  "for its fingerprint (ranks out of step)",
				  r, p->host, p->rh.seq, p->rh.step);
	int i = p->rcur;
	const struct comm__xfer *x = &s->x[i];
	struct comm__xstate *st = &c->xs[i];
	if (st->rdone == 0 && (p->rh.seq != s->seq || p->rh.len != x->rlen))
		return comm__fail(c, COMM_E_PROTO,
				  "rank %d (host %s) sent %llu bytes for #%u step %d but %zu bytes "
				  "for #%u were expected (algorithms disagree)",
				  r, p->host, (unsigned long long)p->rh.len, p->rh.seq, p->rh.step,
				  x->rlen, s->seq);
	size_t before = staged(p);
	ssize_t k = take(c, p, (char *)x->rbuf + st->rdone, x->rlen - st->rdone);
	if (k <= 0)
		return k ? recv_closed(c, r, s) : 0;
	s->moved = *more = true;
	/* a receive whose bytes were all in the socket already came at memory speed (sends run
	 * ahead): it says nothing of the link */
	if (!st->rdone && x->rlen >= LINK_MIN && !(c->tp->queued && avail(c, p, before, k) >= x->rlen))
		st->r_first = comm__prof_now();
	st->rdone += (size_t)k;
	c->op_recvd += (size_t)k;
	if (st->rdone == x->rlen)
		recv_done(c, r, s, i);
	return 0;
}

/* A control frame from r (FP or ABORT, small): read whole into cbuf, then handled. */
static int recv_control(struct comm *c, int r, struct step *s, bool *more)
{
	struct comm__peer *p = &c->peers[r];
	if (p->rh.type == COMM__F_FP && p->fp_pending)
		return 0; /* the previous one is not consumed yet */
	if (p->cgot < p->rh.len) {
		ssize_t k = take(c, p, p->pb->cbuf + p->cgot, (size_t)p->rh.len - p->cgot);
		if (k == 0)
			return 0;
		if (k < 0)
			return comm__fail(c, COMM_E_PEER,
					  "rank %d (host %s) closed the connection inside a %s frame", r,
					  p->host, comm__frame_name(p->rh.type));
		s->moved = *more = true;
		p->cgot += (size_t)k;
		if (p->cgot < p->rh.len)
			return 0;
	}
	p->hdr_ok = false;
	p->rhdr_got = 0;
	*more = true;
	return control(c, r, s);
}

/* Everything r has sent that step s can take now: frame headers, data, control frames. */
static int pump_recv(struct comm *c, int r, struct step *s)
{
	struct comm__peer *p = &c->peers[r];
	deliver_fp(c, r, s);
	for (;;) {
		bool more = false;
		int rc;
		if (!p->hdr_ok) {
			rc = recv_header(c, r, s, &more);
			if (rc || !more)
				return rc;
			if (!p->hdr_ok)
				continue;
			more = false;
		}
		if (p->rh.type == COMM__F_DATA)
			rc = recv_data(c, r, s, &more);
		else
			rc = recv_control(c, r, s, &more);
		if (rc || !more)
			return rc;
	}
}

/* The timeout is about r, stuck or gone: what the report to the monitor says. */
static void stuck(struct comm *c, int r)
{
	c->hint_kind = COMM_VERDICT_STUCK_RANK;
	c->hint_rank = r;
}

static int timed_out(struct comm *c, struct step *s)
{
	double secs = (double)(mono_ms() - c->op_start) / 1000.0;
	for (size_t i = 0; i < s->n; i++) { /* a lower rank that never connected to us */
		int r = s->x[i].peer;
		if (r == c->rank || c->peers[r].fd >= 0)
			continue;
		stuck(c, r);
		return comm__fail(c, COMM_E_TIMEOUT,
				  "timed out after %.1f s waiting for rank %d (host %s) to connect "
				  "(this rank listens at %s)",
				  secs, r, c->peers[r].host, c->addr);
	}
	for (int r = 0; r < c->nranks && c->fp_missing; r++) {
		if (!awaited(c, r))
			continue;
		stuck(c, r);
		return comm__fail(c, COMM_E_TIMEOUT,
				  "timed out after %.1f s waiting for rank %d (host %s) to join "
				  "(no fingerprint from it)",
				  secs, r, c->peers[r].host);
	}
	for (size_t i = 0; i < s->n; i++) { /* the first receive not complete */
		const struct comm__xfer *x = &s->x[i];
		if (x->peer == c->rank || !x->rlen || c->xs[i].rdone == x->rlen)
			continue;
		const char *h = c->peers[x->peer].host;
		stuck(c, x->peer);
		if (s->type == COMM__F_FP)
			return comm__fail(c, COMM_E_TIMEOUT,
					  "timed out after %.1f s waiting for rank %d (host %s) to join "
					  "(no fingerprint from it)",
					  secs, x->peer, h);
		return comm__fail(c, COMM_E_TIMEOUT,
				  "timed out after %.1f s waiting for rank %d (host %s); received %zu "
				  "of %zu bytes",
				  secs, x->peer, h, c->xs[i].rdone, x->rlen);
	}
	for (size_t i = 0; i < s->n; i++) {
		const struct comm__xfer *x = &s->x[i];
		if (x->peer == c->rank || !x->slen || c->xs[i].sdone == x->slen)
			continue;
		stuck(c, x->peer);
		return comm__fail(c, COMM_E_TIMEOUT,
				  "timed out after %.1f s waiting for rank %d (host %s) to take data; "
				  "sent %zu of %zu bytes",
				  secs, x->peer, c->peers[x->peer].host, c->xs[i].sdone, x->slen);
	}
	return comm__fail(c, COMM_E_TIMEOUT, "timed out after %.1f s", secs);
}

static void reset_cursors(struct comm *c, struct step *s)
{
	for (size_t i = 0; i < s->n; i++) {
		int r = s->x[i].peer;
		if (r >= 0 && r < c->nranks)
			c->peers[r].scur = c->peers[r].rcur = -1;
	}
}

/* Before blocking: where this rank stands, for the heartbeat. */
static void publish(struct comm *c, struct step *s)
{
	struct comm__live *l = &c->live;
	uint64_t old = atomic_load_explicit(&l->sent, memory_order_relaxed) +
		       atomic_load_explicit(&l->recvd, memory_order_relaxed);
	if (c->op_sent + c->op_recvd != old) {
		atomic_store_explicit(&l->sent, c->op_sent, memory_order_relaxed);
		atomic_store_explicit(&l->recvd, c->op_recvd, memory_order_relaxed);
		atomic_store_explicit(&l->last_move, mono_ms(), memory_order_relaxed);
	}
	int peer = -1;
	for (size_t i = 0; i < s->n && peer < 0; i++) /* the first receive not complete */
		if (s->x[i].peer != c->rank && s->x[i].rlen && c->xs[i].rdone < s->x[i].rlen)
			peer = s->x[i].peer;
	for (int r = 0; r < c->nranks && peer < 0 && c->fp_missing; r++)
		if (awaited(c, r))
			peer = r;
	for (size_t i = 0; i < s->n && peer < 0; i++)
		if (s->x[i].peer != c->rank && s->x[i].slen && c->xs[i].sdone < s->x[i].slen)
			peer = s->x[i].peer;
	atomic_store_explicit(&l->peer, peer, memory_order_relaxed);
}

/* Whether the step still has work. Once fingerprints differ, only the missing ones count,
 * for a while. A drain has work while a fingerprint it awaits is out or ours not sent. */
static bool busy(const struct comm *c, const struct step *s)
{
	if (c->fp_bad)
		return c->fp_missing > 0 && mono_ms() < c->fp_collect_end;
	if (s->pending)
		return true;
	if (!s->drain)
		return false;
	if (c->fp_all && c->fp_missing)
		return true;
	for (int r = 0; r < c->nranks; r++)
		if (c->peers[r].fd >= 0 && c->peers[r].ctl_sent < c->peers[r].ctl_len)
			return true;
	return false;
}

/* A peer whose fingerprint is awaited and has not come for FP_ASK_MS is asked for it: ranks
 * whose calls differ so that each waits for the other find out instead of hanging. Returns
 * the time to wake for it, or the deadline. */
static int64_t ask_owed(struct comm *c, struct step *s, int64_t now)
{
	if (!c->fp_lazy || !c->fp_missing)
		return c->deadline;
	for (int r = 0; r < c->nranks && !c->fp_bad; r++) {
		struct comm__peer *p = &c->peers[r];
		if (awaited(c, r) && p->fp_pending) {
			/* what came instead of its fingerprint for this one (a later operation's,
			 * the send or receive it is in) while we wait for its data: the calls differ */
			p->fp_pending = false;
			c->check->take(c, r);
			s->moved = true;
		}
	}
	if (c->fp_bad)
		return c->fp_collect_end < c->deadline ? c->fp_collect_end : c->deadline;
	int64_t at = c->op_start + FP_ASK_MS;
	if (now < at)
		return at < c->deadline ? at : c->deadline;
	int64_t wake = c->deadline;
	for (int r = 0; r < c->nranks; r++) {
		if (!awaited(c, r))
			continue;
		int64_t t = c->check->ask(c, r, now);
		if (!t)
			s->moved = true;
		else if (t < wake)
			wake = t;
	}
	return wake;
}

/* How the step waits: by its bytes and whether its peers are over shared memory. */
static void step_spin(struct comm *c, const struct step *s, struct comm__spin *sp)
{
	size_t bytes = 0;
	bool shm = false, all_shm = s->n > 0;
	for (size_t i = 0; i < s->n; i++) {
		bool other = s->x[i].peer != c->rank;
		bytes += s->x[i].slen + s->x[i].rlen;
		bool rings = c->peers[s->x[i].peer].link->rings;
		shm = shm || (other && rings);
		all_shm = all_shm && (!other || rings);
	}
	comm__spin_plan(c, bytes, shm, all_shm, sp);
}

/* Every linked peer's sends and receives, as far as they go now. */
static int pump_all(struct comm *c, struct step *s)
{
	for (int r = 0; r < c->nranks; r++) {
		struct comm__peer *p = &c->peers[r];
		if (!p->in_ep) /* no link yet, or one a connect took not adopted yet */
			continue;
		int rc = 0;
		c->hint_rank = r; /* what fails here is about r: a bad frame, a lost link */
		if (p->link->rings) /* a ring is looked at, no event says it moved */
			p->rd_ready = p->wr_ready = true;
		if ((p->scur >= 0 || comm__ctl_left(c, p)) && (p->wr_ready || p->sock_err))
			rc = pump_send(c, r, s);
		if (!rc)
			rc = pump_recv(c, r, s);
		if (rc)
			return rc;
		c->hint_rank = -1;
	}
	return 0;
}

/* What the events say: the wake pipe, the listener and handshakes, a peer ready to move. */
static int on_events(struct comm *c, struct step *s, const struct epoll_event *ev, int k)
{
	for (int i = 0; i < k; i++) {
		uint32_t id = ev[i].data.u32;
		if (id == COMM__WAKE_ID || id >= COMM__HS_TAG0) { /* the wake pipe, the listener, a handshake */
			int rc = id != COMM__WAKE_ID ? inbound(c, s, id) : c->on_wake ? c->on_wake(c, NULL, 0) : 0;
			if (rc)
				return rc;
			continue;
		}
		struct comm__peer *p = &c->peers[id];
		if (p->link->rings && (ev[i].events & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR)))
			comm__link_doorbells(c, p);
		if (ev[i].events & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR))
			p->rd_ready = true;
		if (ev[i].events & (EPOLLOUT | EPOLLHUP | EPOLLERR))
			p->wr_ready = true;
	}
	return 0;
}

static int run(struct comm *c, struct step *s)
{
	struct epoll_event ev[64];
	struct comm__spin sp;
	int rc;
	step_spin(c, s, &sp);
	while (busy(c, s)) {
		s->moved = false;
		if ((rc = pump_all(c, s)))
			return rc;
		if (!busy(c, s))
			break;
		if (s->moved) {
			comm__spin_moved(c, &sp); /* rings move without events */
			continue;
		}
		int64_t now = mono_ms(), wake = ask_owed(c, s, now);
		if (s->moved) /* a request queued */
			continue;
		if (c->deadline - now <= 0)
			return timed_out(c, s);
		if (c->nhs) /* handshakes in flight: their deadlines wake us too */
			wake = hs_wake(c, now, wake);
		publish(c, s);
		int k = comm__spin_wait(c, &sp, ev, 64, wake - now > 0 ? wake - now : 1);
		if (k == COMM__SPIN_AGAIN)
			continue;
		if (k < 0 && errno != EINTR)
			return comm__fail(c, COMM_E_SYS, "epoll_wait: %s", strerror(errno));
		if ((rc = on_events(c, s, ev, k)))
			return rc;
	}
	if (!c->fp_bad)
		return 0;
	comm__at_fingerprint(c);
	return c->check->differ(c);
}

/* Posts the step's transfers: a copy to itself at once, each send's header, and each peer's
 * first send and receive as its cursors. An invalid transfer is an algorithm's bug. */
static int post(struct comm *c, struct step *s, int step)
{
	struct comm__xfer *x = s->x;
	for (size_t i = 0; i < s->n; i++) {
		int r = x[i].peer;
		if (r < 0 || r >= c->nranks || (x[i].slen && !x[i].sbuf) || (x[i].rlen && !x[i].rbuf)) {
			reset_cursors(c, s); /* before the failure, which reports where we stand */
			return comm__fail(c, COMM_E_INVAL,
					  "transfer %zu of the step: peer %d, %zu bytes from %p, %zu "
					  "into %p is invalid (algorithm bug)",
					  i, r, x[i].slen, x[i].sbuf, x[i].rlen, x[i].rbuf);
		}
		if (r == c->rank) {
			if (x[i].slen != x[i].rlen) {
				reset_cursors(c, s);
				return comm__fail(c, COMM_E_INVAL,
						  "transfer to itself sends %zu bytes but receives %zu "
						  "(algorithm bug)",
						  x[i].slen, x[i].rlen);
			}
			if (x[i].slen && x[i].sbuf != x[i].rbuf)
				memmove(x[i].rbuf, x[i].sbuf, x[i].slen);
			continue;
		}
		struct comm__peer *p = &c->peers[r];
		struct comm__xstate *st = &c->xs[i];
		st->sdone = st->rdone = st->hsent = 0;
		st->s_end = st->r_end = st->r_first = 0;
		if (x[i].slen) {
			struct comm__hdr h = { s->type, s->seq, step, (uint32_t)c->rank, x[i].slen };
			comm__hdr_encode(st->hdr, &h);
			s->pending++;
			if (p->scur < 0)
				p->scur = (int)i;
		}
		if (x[i].rlen) {
			s->pending++;
			if (p->rcur < 0)
				p->rcur = (int)i;
		}
	}
	return 0;
}

/* The links the step needs, up (and, where fingerprints are lazy, joined to the check). */
static int links_for(struct comm *c, const struct step *s)
{
	int rc = comm__adopt_links(c);
	for (size_t i = 0; !rc && i < s->n; i++) {
		int r = s->x[i].peer;
		if (r == c->rank)
			continue;
		rc = link_up(c, r);
		if (!rc && c->fp_lazy && !c->peers[r].fp_in)
			c->check->join(c, r);
	}
	return rc;
}

int comm__exchange(struct comm *c, uint8_t type, int step, struct comm__xfer *x, size_t n,
		   uint32_t seq)
{
	if (c->broken)
		return c->broken;
	c->cur_step = type == COMM__F_FP ? -1 : step;
	atomic_store_explicit(&c->live.step, c->cur_step, memory_order_relaxed);
	if (c->on_wake) { /* a verdict may have come in between operations */
		int rc = c->on_wake(c, NULL, 0);
		if (rc)
			return rc;
	}
	if (n > c->xs_cap) { /* only if an algorithm posts more than 2n+8 transfers a step */
		struct comm__xstate *nx = realloc(c->xs, n * sizeof(*nx));
		if (!nx)
			return comm__fail(c, COMM_E_NOMEM, "out of memory for %zu transfers", n);
		c->xs = nx;
		c->xs_cap = n;
	}
	struct step s = { x, n, type, seq, 0, false, false };
	int rc = post(c, &s, step);
	if (!rc)
		rc = links_for(c, &s);
	if (rc) {
		reset_cursors(c, &s);
		return rc;
	}
	int64_t t0 = c->step_t0 = comm__prof_now();
	rc = run(c, &s);
	reset_cursors(c, &s);
	if (c->profile && !rc)
		comm__prof_step(c, step, type == COMM__F_FP, x, n, t0);
	return rc;
}

int comm__poll_once(struct comm *c)
{
	struct epoll_event ev[64];
	int k = epoll_wait(c->epfd, ev, 64, 0);
	if (k < 0)
		return errno == EINTR ? 0 : comm__fail(c, COMM_E_SYS, "epoll_wait: %s", strerror(errno));
	return on_events(c, NULL, ev, k);
}

int comm__pump_control(struct comm *c, int r)
{
	struct step s = { NULL, 0, COMM__F_FP, c->cur_seq, 0, false, false };
	if (c->peers[r].link->rings) /* a ring is looked at, no event says it moved */
		c->peers[r].rd_ready = true;
	return pump_recv(c, r, &s);
}

int comm__fp_drain(struct comm *c)
{
	if (c->broken)
		return c->broken;
	struct step s = { NULL, 0, COMM__F_FP, c->cur_seq, 0, false, true };
	int rc = 0;
	int64_t t0 = c->step_t0 = comm__prof_now();
	if (c->fp_bad || busy(c, &s)) {
		comm__at_fingerprint(c);
		rc = run(c, &s);
	}
	if (c->profile && !rc && c->fp_all) /* the wait for every fingerprint, even if none */
		comm__prof_step(c, -1, true, NULL, 0, t0);
	c->fp_lazy = false;
	for (int r = 0; r < c->nranks; r++)
		c->peers[r].fp_due = false;
	return rc;
}

void comm__progress_linger(struct comm *c, int ms)
{
	int64_t end = mono_ms() + ms;
	struct pollfd *pf = calloc((size_t)c->nranks, sizeof(*pf));
	if (!pf)
		return;
	for (int r = 0; r < c->nranks; r++) {
		pf[r].fd = c->peers[r].fd >= 0 && !c->peers[r].eof ? c->peers[r].fd : -1;
		pf[r].events = POLLIN;
		if (c->peers[r].fd >= 0)
			shutdown(c->peers[r].fd, SHUT_WR);
	}
	for (;;) {
		int open = 0;
		for (int r = 0; r < c->nranks; r++)
			open += pf[r].fd >= 0;
		int64_t left = end - mono_ms();
		if (!open || left <= 0)
			break;
		if (poll(pf, (nfds_t)c->nranks, (int)left) <= 0)
			continue;
		for (int r = 0; r < c->nranks; r++) {
			if (pf[r].fd < 0 || !pf[r].revents)
				continue;
			char sink[4096];
			ssize_t k = c->tp->recv(pf[r].fd, sink, sizeof(sink));
			if (k == 0 || (k < 0 && k != -EAGAIN))
				pf[r].fd = -1;
		}
	}
	free(pf);
}

int comm_link_stats(const struct comm *c, struct comm_link_stat *out)
{
	if (!c || !out || !c->links)
		return COMM_E_INVAL;
	memcpy(out, c->links, (size_t)c->nranks * sizeof(*out));
	return 0;
}

void comm_link_stats_reset(struct comm *c)
{
	if (c && c->links)
		memset(c->links, 0, (size_t)c->nranks * sizeof(*c->links));
}
