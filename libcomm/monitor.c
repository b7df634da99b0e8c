/* The monitor: the rendezvous's second job. Once the address book is out, the rendezvous
 * keeps every rank's connection (the status channel), reads their heartbeats and failure
 * reports, pings them, and on the first fault decides one verdict and sends it to every rank.
 *
 * What it can tell apart, and how:
 * - dead rank: its connection closed without a goodbye (the kernel closes a killed process's
 *   sockets at once);
 * - stuck rank: no heartbeat for the silence time, but its host still acknowledges our pings
 *   (a frozen process's kernel keeps answering TCP);
 * - link down: no heartbeat, and its host does not acknowledge our pings either (TCP_INFO:
 *   unacknowledged data, no ACK for a second) — or, between two live ranks, one reports that
 *   the other's host has not acknowledged its data;
 * - whatever a rank reports of its own failure (mismatch, timeout, ...), the earliest first.
 * Evidence is collected for a short settle time after the first event, so that the cause
 * (a killed rank's closed connection) wins over its consequences (peers losing it). */
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "libcomm/internal.h"
#include "libcomm/monitor.h"

#define SETTLE_MS 300
#define ACK_STALE_MS 1000
#define FRAME_CAP (COMM__HDR_LEN + COMM__VERDICT_MAX)

struct mrank {
	int fd;
	char host[COMM__HOST_MAX];
	bool closed, bye, reported, have_hb;
	int64_t last_rx, closed_at, report_at, hb_at;
	struct comm__hb hb;
	struct comm_verdict rep;
	unsigned char buf[FRAME_CAP];
	size_t got;
};

struct comm__mon {
	int n, interval_ms, silence_ms;
	struct mrank *r;
	int64_t next_ping;
	bool decided;
	struct comm_verdict v;
};

struct comm__mon *comm__mon_new(int nranks)
{
	struct comm__mon *m = calloc(1, sizeof(*m));
	if (!m)
		return NULL;
	m->r = calloc((size_t)nranks, sizeof(*m->r));
	if (!m->r || comm__heartbeat_ms(&m->interval_ms, &m->silence_ms)) {
		/* a malformed HCCLCTL_HEARTBEAT_TIMEOUT fails every rank's init; watch with
		 * the defaults meanwhile */
		m->interval_ms = 500;
		m->silence_ms = 3000;
	}
	if (!m->r) {
		free(m);
		return NULL;
	}
	m->n = nranks;
	for (int i = 0; i < nranks; i++)
		m->r[i].fd = -1;
	return m;
}

void comm__mon_add(struct comm__mon *m, int rank, int fd, const char *host)
{
	struct mrank *x = &m->r[rank];
	x->fd = fd;
	comm__strlcpy(x->host, host, sizeof(x->host));
	x->last_rx = mono_ms();
}

int comm__mon_pollfds(struct comm__mon *m, struct pollfd *pf)
{
	for (int i = 0; i < m->n; i++)
		pf[i] = (struct pollfd){ m->r[i].fd, POLLIN, 0 };
	return m->n;
}

static void drop(struct mrank *x, int64_t now)
{
	if (x->fd >= 0)
		close(x->fd);
	x->fd = -1;
	if (!x->closed) {
		x->closed = true;
		x->closed_at = now;
	}
}

static void frame(struct mrank *x, const struct comm__hdr *h, const unsigned char *p,
		  int64_t now)
{
	char why[COMM_ERRLEN];
	switch (h->type) {
	case COMM__F_HB:
		if (comm__hb_decode(p, (size_t)h->len, &x->hb, why, sizeof(why)) == 0) {
			x->have_hb = true;
			x->hb_at = now;
		}
		break;
	case COMM__F_VERDICT:
		if (!x->reported &&
		    comm__verdict_decode(p, (size_t)h->len, &x->rep, why, sizeof(why)) == 0) {
			x->reported = true;
			x->report_at = now;
		}
		break;
	case COMM__F_BYE:
		x->bye = true;
		break;
	default:
		break;
	}
}

static void receive(struct comm__mon *m, int i, int64_t now)
{
	struct mrank *x = &m->r[i];
	for (;;) {
		ssize_t k = comm__tcp_ops.recv(x->fd, x->buf + x->got, sizeof(x->buf) - x->got);
		if (k == -EAGAIN)
			return;
		if (k <= 0) {
			drop(x, now);
			return;
		}
		x->got += (size_t)k;
		x->last_rx = now;
		for (;;) { /* every complete frame in the buffer */
			struct comm__hdr h;
			char why[COMM_ERRLEN];
			if (x->got < COMM__HDR_LEN)
				break;
			if (comm__hdr_decode(x->buf, COMM__HDR_LEN, &h, why, sizeof(why)) ||
			    h.from != (uint32_t)i || h.len > FRAME_CAP - COMM__HDR_LEN) {
				drop(x, now); /* not our rank speaking: as good as gone */
				return;
			}
			size_t whole = COMM__HDR_LEN + (size_t)h.len;
			if (x->got < whole)
				break;
			frame(x, &h, x->buf + COMM__HDR_LEN, now);
			memmove(x->buf, x->buf + whole, x->got - whole);
			x->got -= whole;
		}
	}
}

static void ping(struct comm__mon *m)
{
	unsigned char f[COMM__HDR_LEN];
	struct comm__hdr h = { COMM__F_PING, 0, -1, 0, 0 };
	comm__hdr_encode(f, &h);
	for (int i = 0; i < m->n; i++) {
		struct mrank *x = &m->r[i];
		if (x->fd < 0 || x->bye)
			continue;
		struct iovec iov = { f, sizeof(f) };
		(void)comm__tcp_ops.send(x->fd, &iov, 1); /* a full buffer skips a beat */
	}
}

/* Does rank i's host acknowledge what we send it? 1 no (for how long in *age), 0 yes. */
static int unanswered(const struct mrank *x, uint32_t *age)
{
	struct tcp_info ti;
	socklen_t sl = sizeof(ti);
	if (x->fd < 0 || getsockopt(x->fd, IPPROTO_TCP, TCP_INFO, &ti, &sl))
		return 0;
	*age = ti.tcpi_last_ack_recv;
	return ti.tcpi_unacked && ti.tcpi_last_ack_recv >= ACK_STALE_MS;
}

/* Where the job stood when culprit failed: a live rank that waited on it, else its own last
 * heartbeat. */
static void where(const struct comm__mon *m, int culprit, struct comm_verdict *v)
{
	v->coll = -1;
	v->waiter = v->peer = -1;
	v->step = -1;
	/* a rank that reported losing it knows best: its report is from after the fault */
	for (int i = 0; i < m->n; i++) {
		const struct comm_verdict *r = &m->r[i].rep;
		if (i == culprit || !m->r[i].reported || r->coll < 0 ||
		    (r->rank != culprit && r->peer != culprit))
			continue;
		v->coll = r->coll;
		v->seq = r->seq;
		v->step = r->step;
		v->waiter = i;
		v->peer = culprit;
		v->bytes = r->bytes;
		return;
	}
	/* else the freshest heartbeat of a rank waiting on it, else its own last one */
	int best = -1;
	for (int i = 0; i < m->n; i++) {
		const struct mrank *x = &m->r[i];
		if (i == culprit || !x->have_hb || x->hb.state == COMM__HB_IDLE ||
		    x->hb.peer != culprit)
			continue;
		if (best < 0 || x->hb_at > m->r[best].hb_at)
			best = i;
	}
	const struct mrank *w = best >= 0 ? &m->r[best] : culprit >= 0 ? &m->r[culprit] : NULL;
	if (!w || !w->have_hb || w->hb.state == COMM__HB_IDLE)
		return;
	v->coll = w->hb.coll;
	v->seq = w->hb.seq;
	v->step = w->hb.step;
	v->waiter = best >= 0 ? best : culprit;
	v->peer = best >= 0 ? culprit : w->hb.peer;
	v->bytes = w->hb.sent + w->hb.recvd;
}

static bool silent(const struct comm__mon *m, const struct mrank *x, int64_t now)
{
	return !x->closed && !x->bye && now - x->last_rx > m->silence_ms;
}

/* The moment the first sign of trouble appeared (a close, a report, a silence, a lost link);
 * nothing is decided until it has settled for SETTLE_MS, so later signs can outrank it. */
static bool settled(const struct comm__mon *m, int64_t now)
{
	int64_t first = INT64_MAX;
	for (int i = 0; i < m->n; i++) {
		const struct mrank *x = &m->r[i];
		if (x->closed && !x->bye && !x->reported && x->closed_at < first)
			first = x->closed_at;
		if (x->reported && x->report_at < first)
			first = x->report_at;
		if (silent(m, x, now) && x->last_rx + m->silence_ms < first)
			first = x->last_rx + m->silence_ms;
		if (x->have_hb && !x->closed && x->hb.bad_peer >= 0 &&
		    comm__link_lost(x->hb.bad_ack_ms, x->hb.bad_retrans, m->silence_ms) &&
		    x->hb_at < first)
			first = x->hb_at;
	}
	return first != INT64_MAX && now - first >= SETTLE_MS;
}

/* 1. a rank whose process ended without a goodbye or a word of why */
static int rule_dead(struct comm__mon *m, int64_t now, struct comm_verdict *v)
{
	char what[COMM_ERRLEN];
	int dead = -1;
	for (int i = 0; i < m->n; i++) {
		const struct mrank *x = &m->r[i];
		if (x->closed && !x->bye && !x->reported &&
		    (dead < 0 || x->closed_at < m->r[dead].closed_at))
			dead = i;
	}
	if (dead < 0)
		return 0;
	v->kind = COMM_VERDICT_DEAD_RANK;
	v->rank = dead;
	comm__strlcpy(v->host, m->r[dead].host, sizeof(v->host));
	where(m, dead, v);
	v->after_ms = (uint32_t)(now - m->r[dead].closed_at);
	snprintf(what, sizeof(what),
		 "rank %d (host %.64s) died: its process ended without closing the "
		 "communicator (killed or crashed)",
		 dead, m->r[dead].host);
	comm__verdict_compose(v, what);
	return 1;
}

/* 2. the rank silent the longest: frozen, or its host cut off */
static int rule_quiet(struct comm__mon *m, int64_t now, struct comm_verdict *v)
{
	char what[COMM_ERRLEN];
	int quiet = -1;
	for (int i = 0; i < m->n; i++)
		if (silent(m, &m->r[i], now) &&
		    (quiet < 0 || m->r[i].last_rx < m->r[quiet].last_rx))
			quiet = i;
	if (quiet < 0)
		return 0;
	const struct mrank *x = &m->r[quiet];
	uint32_t age = 0;
	double s = (double)(now - x->last_rx) / 1000.0;
	v->rank = quiet;
	comm__strlcpy(v->host, x->host, sizeof(v->host));
	where(m, quiet, v);
	v->after_ms = (uint32_t)(now - x->last_rx);
	if (unanswered(x, &age)) {
		v->kind = COMM_VERDICT_LINK_DOWN;
		snprintf(what, sizeof(what),
			 "host %.64s of rank %d is cut off: no heartbeat for %.1f s and its host "
			 "has not acknowledged TCP for %.1f s (link down or all packets "
			 "dropped)",
			 x->host, quiet, s, (double)age / 1000.0);
	} else {
		v->kind = COMM_VERDICT_STUCK_RANK;
		snprintf(what, sizeof(what),
			 "rank %d (host %.64s) is stuck: no heartbeat for %.1f s while its host "
			 "still answers TCP (the process is stopped, frozen or starved)",
			 quiet, x->host, s);
	}
	comm__verdict_compose(v, what);
	return 1;
}

/* The link between two live ranks that does not carry data. It counts once one rank's data has
 * gone unanswered as long as silence and through several timeouts in a row (comm__link_lost):
 * a lossy link's retransmissions can go unanswered for seconds on a loaded host, a link that is
 * down stays so. A's data to B unacknowledged means A -> B loses the data or B -> A loses the
 * ACKs; which one, the waiting says: B waiting on A is A -> B, A waiting on B is B -> A. (The
 * other end may see nothing: the retransmissions that do arrive carry ACK flags and keep its
 * TCP_INFO fresh.) Returns the rank that saw it (-1 none), the direction in *from -> *to, and
 * in *conf whether a waiting rank confirmed that direction. */
static int lost_link(const struct comm__mon *m, int *from, int *to, int *conf)
{
	int ev = -1;
	*conf = -1;
	for (int i = 0; i < m->n; i++) {
		const struct mrank *x = &m->r[i];
		if (!x->have_hb || x->closed || x->hb.bad_peer < 0 || x->hb.bad_peer >= m->n ||
		    !comm__link_lost(x->hb.bad_ack_ms, x->hb.bad_retrans, m->silence_ms))
			continue;
		int b = x->hb.bad_peer;
		int b_waits = m->r[b].have_hb && m->r[b].hb.peer == i;
		int a_waits = x->hb.peer == b;
		int f = b_waits || !a_waits ? i : b, t = f == i ? b : i;
		int c = b_waits || a_waits;
		if (ev < 0 || c > *conf || (c == *conf && x->hb.bad_ack_ms > m->r[ev].hb.bad_ack_ms)) {
			*from = f;
			*to = t;
			*conf = c;
			ev = i;
		}
	}
	return ev;
}

/* the far end of a lost link that the monitor cannot reach either: the host is cut off, not one
 * link (its own silence would say so a moment later) */
static int host_cut_off(struct comm__mon *m, int64_t now, int ev, struct comm_verdict *v)
{
	char what[COMM_ERRLEN];
	const struct mrank *x = &m->r[ev];
	int other = x->hb.bad_peer;
	const struct mrank *t = &m->r[other];
	uint32_t age = 0;
	if (!unanswered(t, &age) && now - t->last_rx <= 2 * (int64_t)m->interval_ms)
		return 0;
	v->kind = COMM_VERDICT_LINK_DOWN;
	v->rank = other;
	comm__strlcpy(v->host, t->host, sizeof(v->host));
	where(m, other, v);
	v->after_ms = (uint32_t)(now - t->last_rx);
	snprintf(what, sizeof(what),
		 "host %.64s of rank %d is cut off: rank %d's data to it has not been "
		 "acknowledged for %.1f s and it has not answered the rendezvous for "
		 "%.1f s (link down or all packets dropped)",
		 t->host, other, ev, (double)x->hb.bad_ack_ms / 1000.0,
		 (double)(now - t->last_rx) / 1000.0);
	comm__verdict_compose(v, what);
	return 1;
}

/* 3. a link between two live ranks that does not carry data */
static int rule_link(struct comm__mon *m, int64_t now, struct comm_verdict *v)
{
	char what[COMM_ERRLEN];
	int from = -1, to = -1, conf;
	int ev = lost_link(m, &from, &to, &conf);
	if (ev < 0)
		return 0;
	if (host_cut_off(m, now, ev, v))
		return 1;
	const struct mrank *x = &m->r[ev];
	const struct mrank *w = &m->r[to]; /* the receiver of the lost direction */
	v->kind = COMM_VERDICT_LINK_DOWN;
	v->rank = -1;
	v->link_from = from;
	v->link_to = to;
	v->coll = w->have_hb && w->hb.state != COMM__HB_IDLE ? w->hb.coll : -1;
	v->seq = w->hb.seq;
	v->step = w->hb.step;
	v->waiter = to;
	v->peer = w->hb.peer;
	v->bytes = w->hb.sent + w->hb.recvd;
	v->after_ms = x->hb.bad_ack_ms;
	snprintf(what, sizeof(what),
		 "link rank %d (host %.64s) -> rank %d (host %.64s) is down: rank %d's %u "
		 "segments to rank %d unacknowledged for %.1f s (retransmission backoff %u)"
		 "%s, while both ranks are alive",
		 from, m->r[from].host, to, m->r[to].host, ev, x->hb.bad_unacked, x->hb.bad_peer,
		 (double)x->hb.bad_ack_ms / 1000.0, x->hb.bad_retrans,
		 conf ? "" : " (direction not confirmed by a waiting rank)");
	comm__verdict_compose(v, what);
	return 1;
}

/* 4. the earliest failure a rank reported of its own */
static int rule_report(struct comm__mon *m, int64_t now, struct comm_verdict *v)
{
	char what[COMM_ERRLEN];
	int rep = -1;
	for (int i = 0; i < m->n; i++)
		if (m->r[i].reported && (rep < 0 || m->r[i].report_at < m->r[rep].report_at))
			rep = i;
	if (rep < 0)
		return 0;
	*v = m->r[rep].rep;
	v->after_ms = (uint32_t)(now - m->r[rep].report_at);
	int cul = v->rank;
	if (v->kind == COMM_VERDICT_DEAD_RANK && cul >= 0 && cul < m->n && m->r[cul].bye) {
		/* it closed on purpose: it had finished, the others had not */
		const struct mrank *x = &m->r[cul];
		v->kind = COMM_VERDICT_MISMATCH;
		snprintf(what, sizeof(what),
			 "rank %d (host %.64s) closed its communicator after collective #%u while "
			 "rank %d still needed it: the ranks ran different sequences of collectives",
			 cul, x->host, x->have_hb ? x->hb.done_seq : 0, rep);
		comm__verdict_compose(v, what);
	}
	return 1;
}

/* The verdict's rules, most certain first: a death explains the silence and the waits after it,
 * a silent rank the lost links to it, a link the timeouts its ranks report. */
static int (*const rules[])(struct comm__mon *, int64_t, struct comm_verdict *) = {
	rule_dead,
	rule_quiet,
	rule_link,
	rule_report,
};

static int decide(struct comm__mon *m, int64_t now)
{
	struct comm_verdict *v = &m->v;
	if (!settled(m, now))
		return 0;
	memset(v, 0, sizeof(*v));
	v->link_from = v->link_to = -1;
	for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++)
		if (rules[i](m, now, v))
			return 1;
	return 0;
}

void comm__mon_step(struct comm__mon *m, const struct pollfd *pf, int64_t now)
{
	for (int i = 0; i < m->n; i++)
		if (m->r[i].fd >= 0 && pf[i].fd == m->r[i].fd &&
		    (pf[i].revents & (POLLIN | POLLHUP | POLLERR)))
			receive(m, i, now);
	if (now >= m->next_ping) {
		ping(m);
		m->next_ping = now + m->interval_ms;
	}
	if (m->decided || !decide(m, now))
		return;
	m->decided = true;
	unsigned char b[COMM__VERDICT_MAX];
	size_t len = 0;
	if (comm__verdict_encode(&m->v, b, sizeof(b), &len))
		return;
	for (int i = 0; i < m->n; i++) {
		struct mrank *x = &m->r[i];
		if (x->fd < 0 || x->bye)
			continue;
		(void)comm__io_send_frame(x->fd, COMM__F_VERDICT, 0, b, len, now + 200, -1);
	}
}

int comm__mon_verdict(const struct comm__mon *m, struct comm_verdict *v)
{
	if (!m || !m->decided)
		return 0;
	*v = m->v;
	return 1;
}

int comm__mon_tick_ms(const struct comm__mon *m)
{
	return m->interval_ms < 100 ? m->interval_ms : 100;
}

void comm__mon_free(struct comm__mon *m)
{
	if (!m)
		return;
	unsigned char f[COMM__HDR_LEN];
	struct comm__hdr h = { COMM__F_BYE, 0, -1, 0, 0 };
	comm__hdr_encode(f, &h);
	for (int i = 0; i < m->n; i++) {
		struct mrank *x = &m->r[i];
		if (x->fd < 0)
			continue;
		struct iovec iov = { f, sizeof(f) };
		(void)comm__tcp_ops.send(x->fd, &iov, 1); /* the end is on purpose */
		close(x->fd);
	}
	free(m->r);
	free(m);
}
