/* The rank's side of the status channel: its rendezvous connection, kept open after the
 * address book. A thread heartbeats where the rank stands (collective, step, the peer it
 * waits on, bytes moved, and whether that peer's host still acknowledges our data), reports
 * this rank's own failure, and receives the monitor's verdict, which wakes the progress
 * engine through a pipe in its epoll set so the operation in progress fails with it.
 *
 * The thread never touches the data sockets beyond getsockopt(TCP_INFO); the operation's
 * thread never blocks on the status channel (its writes have a short deadline). */
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdatomic.h>
#include <sys/socket.h>
#include <unistd.h>

#include "libcomm/internal.h"
#include "ranktable/base/plural.h"

#define SEND_MS 200 /* a status frame that cannot leave in this long is dropped */
#define ACK_STALE_MS 1000 /* unacknowledged data this old: the peer's host is not answering */

const char *comm_verdict_kind_name(int kind)
{
	static const char *const names[] = { "none",	 "dead-rank", "stuck-rank", "link-down",
					     "slow-link", "mismatch",  "config",	"error" };
	return kind >= 0 && kind < COMM_VERDICT_KIND_COUNT ? names[kind] : "?";
}

int comm__heartbeat_ms(int *interval_ms, int *silence_ms)
{
	double s = 5.0;
	const char *e = getenv("HCCLCTL_HEARTBEAT_TIMEOUT");
	if (e && *e) {
		char *end;
		errno = 0;
		double v = strtod(e, &end);
		if (errno || *end || !(v >= 0.5) || v > 86400)
			return -1;
		s = v;
	}
	/* Silent for 60 % of the budget is the verdict; the rest covers the beat interval, the
	 * monitor's tick and the ranks' reaction. */
	int ms = (int)(s * 1000.0);
	*silence_ms = ms * 6 / 10;
	*interval_ms = ms / 10 < 50 ? 50 : ms / 10 > 1000 ? 1000 : ms / 10;
	return 0;
}

static int send_frame(struct comm *c, uint8_t type, const void *p, size_t len)
{
	struct comm__watch *w = &c->watch;
	int rc = -EPIPE;
	pthread_mutex_lock(&w->mu);
	if (w->fd >= 0)
		rc = comm__io_send_frame(w->fd, type, (uint32_t)c->rank, p, len,
					 mono_ms() + SEND_MS, -1);
	pthread_mutex_unlock(&w->mu);
	return rc;
}

/* How long the oldest data in flight to a peer has gone unanswered, at least. TCP's time since
 * the last ACK is not that: a socket idle for seconds (its rank waited on another link) that
 * has just sent has an old last ACK and fresh data, and a lossy link elsewhere makes exactly
 * that. Data in flight at an earlier beat with no ACK since is at least as old as that beat;
 * b retransmission timeouts of the oldest segment took rto - rto / 2^b (tcpi_rto is the
 * backed-off value). The timer's word needs a beat's confirmation, as a backoff can outlive
 * the episode it counted. */
uint32_t comm__unanswered_ms(struct comm__peer *p, const struct tcp_info *ti, int64_t now)
{
	if (!ti->tcpi_unacked) {
		p->unacked_since = 0;
		return 0;
	}
	if (!p->unacked_since || (int64_t)ti->tcpi_last_ack_recv < now - p->unacked_since)
		p->unacked_since = now; /* first seen in flight, or an ACK came since */
	int64_t seen = now - p->unacked_since;
	if (seen <= 0)
		return 0;
	unsigned b = ti->tcpi_backoff < 31 ? ti->tcpi_backoff : 31;
	int64_t timer = ((int64_t)ti->tcpi_rto - ((int64_t)ti->tcpi_rto >> b)) / 1000;
	int64_t age = seen > timer ? seen : timer;
	return age < (int64_t)ti->tcpi_last_ack_recv ? (uint32_t)age : ti->tcpi_last_ack_recv;
}

/* A lossy link leaves data unanswered for a while too: at 5 % loss each way one retransmission
 * in ten is lost, and on a loaded host the timer's base reaches a second, so two lost
 * retransmissions alone can span the silence time (a fault run failed so, at backoff 2). A
 * link counts as lost once its data has gone unanswered for the silence time and through
 * LOST_BACKOFF timeouts in a row (three in a row on a working 5 % link: one time in a
 * thousand); a link that is down gets there by itself, later only when the timer is slow. */
#define LOST_BACKOFF 3
bool comm__link_lost(uint32_t unanswered_ms, unsigned backoff, int silence_ms)
{
	return silence_ms >= 0 && unanswered_ms >= (uint32_t)silence_ms && backoff >= LOST_BACKOFF;
}

/* Every beat while busy: each link's unanswered data is followed; the peer whose data has
 * gone unanswered the longest is named once the operation itself has stalled. */
static void link_health(struct comm *c, struct comm__hb *h, int64_t now)
{
	h->bad_peer = -1;
	for (int r = 0; r < c->nranks; r++) {
		int fd = c->peers[r].fd;
		struct tcp_info ti;
		socklen_t sl = sizeof(ti);
		if (fd < 0 || getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &sl))
			continue;
		/* Data in flight and unanswered for a second: retransmissions go unanswered. A
		 * window probe to a reader that is merely frozen is answered and is not in
		 * flight, so it does not count. */
		uint32_t age = comm__unanswered_ms(&c->peers[r], &ti, now);
		if (h->stall_ms < ACK_STALE_MS || age < ACK_STALE_MS)
			continue;
		if (h->bad_peer < 0 || age > h->bad_ack_ms) {
			h->bad_peer = r;
			h->bad_ack_ms = age;
			h->bad_unacked = ti.tcpi_unacked;
			h->bad_retrans = ti.tcpi_backoff;
		}
	}
}

static void beat(struct comm *c)
{
	struct comm__live *l = &c->live;
	struct comm__hb h = { 0 };
	int64_t now = mono_ms();
	h.state = (uint8_t)atomic_load_explicit(&l->state, memory_order_relaxed);
	int coll = atomic_load_explicit(&l->coll, memory_order_relaxed);
	h.coll = (uint8_t)(coll < 0 ? 0 : coll);
	h.seq = atomic_load_explicit(&l->seq, memory_order_relaxed);
	h.done_seq = atomic_load_explicit(&l->done_seq, memory_order_relaxed);
	h.step = atomic_load_explicit(&l->step, memory_order_relaxed);
	h.peer = atomic_load_explicit(&l->peer, memory_order_relaxed);
	h.sent = atomic_load_explicit(&l->sent, memory_order_relaxed);
	h.recvd = atomic_load_explicit(&l->recvd, memory_order_relaxed);
	int64_t st = atomic_load_explicit(&l->op_start, memory_order_relaxed);
	int64_t mv = atomic_load_explicit(&l->last_move, memory_order_relaxed);
	if (h.state == COMM__HB_BUSY) {
		h.op_ms = (uint32_t)(now - st);
		h.stall_ms = (uint32_t)(now - (mv > st ? mv : st));
	}
	h.bad_peer = -1;
	if (h.state == COMM__HB_BUSY)
		link_health(c, &h, now);
	if (h.step < -1)
		h.step = -1;
	unsigned char b[COMM__HB_LEN];
	comm__hb_encode(&h, b);
	(void)send_frame(c, COMM__F_HB, b, sizeof(b));
}

static void wake(struct comm__watch *w)
{
	char b = 1;
	while (write(w->wake[1], &b, 1) < 0 && errno == EINTR)
		;
}

/* This rank cannot hear the monitor while it waits: its own link is the likely cause. */
static void lost_monitor(struct comm *c, int64_t silent_ms)
{
	struct comm__watch *w = &c->watch;
	struct comm_verdict v = { .kind = COMM_VERDICT_LINK_DOWN, .rank = c->rank,
				  .link_from = -1, .link_to = -1 };
	comm__strlcpy(v.host, c->host, sizeof(v.host));
	v.coll = atomic_load_explicit(&c->live.coll, memory_order_relaxed);
	v.seq = atomic_load_explicit(&c->live.seq, memory_order_relaxed);
	v.step = atomic_load_explicit(&c->live.step, memory_order_relaxed);
	v.waiter = c->rank;
	v.peer = atomic_load_explicit(&c->live.peer, memory_order_relaxed);
	v.bytes = atomic_load_explicit(&c->live.sent, memory_order_relaxed) +
		  atomic_load_explicit(&c->live.recvd, memory_order_relaxed);
	v.after_ms = (uint32_t)silent_ms;
	char what[COMM_ERRLEN];
	/* Our heartbeats to it still acknowledged: its host answers, its process does not (the
	 * process that hosts it is frozen: rank 0 under --rank/--master, or the launcher). */
	struct tcp_info ti;
	socklen_t sl = sizeof(ti);
	int answered = getsockopt(w->fd, IPPROTO_TCP, TCP_INFO, &ti, &sl) == 0 &&
		       !(ti.tcpi_unacked && ti.tcpi_last_ack_recv >= ACK_STALE_MS);
	if (answered) {
		v.kind = COMM_VERDICT_STUCK_RANK;
		v.rank = -1;
		v.host[0] = '\0';
		snprintf(what, sizeof(what),
			 "the rendezvous stopped answering (no word from it for %.1f s) while its host "
			 "still acknowledges TCP: the process hosting it (rank 0 under --rank/--master, "
			 "else the launcher) is frozen or stuck",
			 (double)silent_ms / 1000.0);
	} else {
		snprintf(what, sizeof(what),
			 "rank %d (host %.64s) lost the rendezvous (no word from it for %.1f s) while "
			 "stalled: this host's network link is down or the launcher is gone",
			 c->rank, c->host, (double)silent_ms / 1000.0);
	}
	comm__verdict_compose(&v, what);
	pthread_mutex_lock(&w->mu);
	if (!w->have) {
		w->v = v;
		w->have = true;
	}
	pthread_mutex_unlock(&w->mu);
	wake(w);
}

static void *run(void *arg)
{
	struct comm *c = arg;
	struct comm__watch *w = &c->watch;
	int64_t next = 0, last_heard = mono_ms();
	bool gone = false, lost = false;
	pthread_mutex_lock(&w->mu);
	w->heard_ms = last_heard;
	pthread_mutex_unlock(&w->mu);
	for (;;) {
		pthread_mutex_lock(&w->mu);
		bool stop = w->stop;
		pthread_mutex_unlock(&w->mu);
		if (stop)
			break;
		int64_t now = mono_ms();
		if (!gone && now >= next) {
			beat(c);
			next = now + w->interval_ms;
		}
		if (!gone && !lost && now - last_heard > w->silence_ms) {
			int64_t mv = atomic_load_explicit(&c->live.last_move, memory_order_relaxed);
			if (atomic_load_explicit(&c->live.state, memory_order_relaxed) ==
				    COMM__HB_BUSY &&
			    now - mv > w->silence_ms) {
				lost = true;
				lost_monitor(c, now - last_heard);
			}
		}
		/* asleep until the next beat, a frame or the stop pipe: with a rank per core and
		 * more (1024 ranks on 2 cores) every wake-up is taken from the job */
		struct pollfd pf[2] = { { gone ? -1 : w->fd, POLLIN, 0 }, { w->stop_pipe[0], POLLIN, 0 } };
		int wait = gone ? -1 : (int)(next - now);
		if (!gone && wait < 0)
			wait = 0;
		if (poll(pf, 2, wait) <= 0 || !(pf[0].revents & (POLLIN | POLLHUP | POLLERR)))
			continue;
		struct comm__hdr h;
		unsigned char buf[COMM__VERDICT_MAX];
		char why[COMM_ERRLEN];
		int rc = comm__io_recv_frame(w->fd, &h, buf, sizeof(buf), mono_ms() + 1000, -1,
					     why, sizeof(why));
		if (rc) { /* the rendezvous went away without its goodbye: nobody watches now */
			gone = true;
			atomic_store_explicit(&w->lost_ms, mono_ms(), memory_order_relaxed);
			pthread_mutex_lock(&w->mu);
			w->gone = true;
			pthread_mutex_unlock(&w->mu);
			continue;
		}
		last_heard = mono_ms();
		pthread_mutex_lock(&w->mu);
		w->heard_ms = last_heard;
		pthread_mutex_unlock(&w->mu);
		if (h.type == COMM__F_BYE) {
			gone = true;
			pthread_mutex_lock(&w->mu);
			w->gone = true;
			pthread_mutex_unlock(&w->mu);
		} else if (h.type == COMM__F_VERDICT) {
			struct comm_verdict v;
			if (comm__verdict_decode(buf, (size_t)h.len, &v, why, sizeof(why)))
				continue;
			pthread_mutex_lock(&w->mu);
			w->v = v;
			w->have = true;
			pthread_mutex_unlock(&w->mu);
			wake(w);
		}
	}
	return NULL;
}

static void watch_report(struct comm *c, int code);
static int watch_take(struct comm *c, const char *why, int code);
static int verdict_of(struct comm *c, struct comm_verdict *v, int wait_ms);

int comm__watch_start(struct comm *c, int fd)
{
	struct comm__watch *w = &c->watch;
	if (comm__heartbeat_ms(&w->interval_ms, &w->silence_ms)) {
		close(fd);
		return comm__errf(c->errbuf, sizeof(c->errbuf), COMM_E_INVAL,
				  "rank %d: HCCLCTL_HEARTBEAT_TIMEOUT='%s' is not a number of seconds "
				  "from 0.5",
				  c->rank, getenv("HCCLCTL_HEARTBEAT_TIMEOUT"));
	}
	if (pipe2(w->wake, O_CLOEXEC | O_NONBLOCK) || pipe2(w->stop_pipe, O_CLOEXEC | O_NONBLOCK)) {
		close(fd);
		return comm__errf(c->errbuf, sizeof(c->errbuf), COMM_E_SYS, "rank %d: pipe: %s",
				  c->rank, strerror(errno));
	}
	w->fd = fd;
	int e = pthread_create(&w->th, NULL, run, c);
	if (e) {
		close(fd);
		w->fd = -1;
		return comm__errf(c->errbuf, sizeof(c->errbuf), COMM_E_SYS,
				  "rank %d: cannot start the heartbeat thread: %s", c->rank,
				  strerror(e));
	}
	w->on = true;
	c->on_fail = watch_report;
	c->on_wake = watch_take;
	return 0;
}

void comm__watch_stop(struct comm *c)
{
	struct comm__watch *w = &c->watch;
	c->on_wake = NULL;
	if (w->on) {
		pthread_mutex_lock(&w->mu);
		w->stop = true;
		pthread_mutex_unlock(&w->mu);
		char b = 1;
		while (write(w->stop_pipe[1], &b, 1) < 0 && errno == EINTR)
			;
		pthread_join(w->th, NULL);
		w->on = false;
	}
	if (w->fd >= 0) {
		/* a goodbye tells the monitor this end is on purpose, not a death */
		(void)send_frame(c, COMM__F_BYE, NULL, 0);
		close(w->fd);
		w->fd = -1;
	}
	for (int i = 0; i < 2; i++) {
		if (w->wake[i] >= 0)
			close(w->wake[i]);
		if (w->stop_pipe[i] >= 0)
			close(w->stop_pipe[i]);
	}
	w->wake[0] = w->wake[1] = w->stop_pipe[0] = w->stop_pipe[1] = -1;
}

void comm__verdict_compose(struct comm_verdict *v, const char *what)
{
	char where[COMM_ERRLEN] = "";
	if (v->coll >= 0) {
		int k = snprintf(where, sizeof(where), "; in %s #%u", comm__op_display(v->coll),
				 v->seq);
		if (k > 0 && (size_t)k < sizeof(where) && v->step >= 0)
			k += snprintf(where + k, sizeof(where) - (size_t)k, " step %d", v->step);
		else if (k > 0 && (size_t)k < sizeof(where))
			k += snprintf(where + k, sizeof(where) - (size_t)k, " (fingerprint exchange)");
		if (k > 0 && (size_t)k < sizeof(where) && v->waiter >= 0 && v->peer >= 0)
			snprintf(where + k, sizeof(where) - (size_t)k,
				 ", rank %d waited on rank %d with %llu bytes moved", v->waiter,
				 v->peer, (unsigned long long)v->bytes);
		else if (k > 0 && (size_t)k < sizeof(where) && v->waiter >= 0)
			snprintf(where + k, sizeof(where) - (size_t)k,
				 ", rank %d had moved %llu bytes", v->waiter,
				 (unsigned long long)v->bytes);
	}
	snprintf(v->msg, sizeof(v->msg), "%s%s", what, where);
}

static int kind_of(int code)
{
	switch (code) {
	case COMM_E_PEER:
		return COMM_VERDICT_DEAD_RANK;
	case COMM_E_TIMEOUT:
		return COMM_VERDICT_STUCK_RANK;
	case COMM_E_MISMATCH:
		return COMM_VERDICT_MISMATCH;
	case COMM_E_AUTH:
	case COMM_E_BOOTSTRAP:
		return COMM_VERDICT_CONFIG;
	default:
		return COMM_VERDICT_ERROR;
	}
}

static void watch_report(struct comm *c, int code)
{
	struct comm__watch *w = &c->watch;
	if (c->hint_kind < 0) /* aborted by a peer: that peer reported the cause */
		return;
	struct comm_verdict v = { .kind = c->hint_kind ? c->hint_kind : kind_of(code),
				  .rank = c->hint_rank, .link_from = -1, .link_to = -1 };
	if (v.rank >= 0 && v.rank < c->nranks)
		comm__strlcpy(v.host, v.rank == c->rank ? c->host : c->peers[v.rank].host,
			      sizeof(v.host));
	else
		v.rank = -1;
	v.coll = c->cur_coll;
	v.seq = c->cur_seq;
	v.step = c->cur_step;
	v.waiter = c->rank;
	v.peer = atomic_load_explicit(&c->live.peer, memory_order_relaxed);
	v.bytes = c->op_sent + c->op_recvd;
	comm__strlcpy(v.msg, c->root_msg, sizeof(v.msg));
	pthread_mutex_lock(&w->mu);
	w->own = v;
	w->have_own = true;
	pthread_mutex_unlock(&w->mu);
	unsigned char b[COMM__VERDICT_MAX];
	size_t len = 0;
	if (comm__verdict_encode(&v, b, sizeof(b), &len) == 0)
		(void)send_frame(c, COMM__F_VERDICT, b, len);
}

static int code_of(int kind)
{
	switch (kind) {
	case COMM_VERDICT_STUCK_RANK:
		return COMM_E_TIMEOUT;
	case COMM_VERDICT_MISMATCH:
		return COMM_E_MISMATCH;
	case COMM_VERDICT_CONFIG:
		return COMM_E_BOOTSTRAP;
	default:
		return COMM_E_PEER;
	}
}

static int watch_take(struct comm *c, const char *why, int code)
{
	struct comm__watch *w = &c->watch;
	struct comm_verdict v;
	pthread_mutex_lock(&w->mu);
	bool have = w->have;
	v = w->v;
	pthread_mutex_unlock(&w->mu);
	if (!have)
		return 0;
	c->hint_kind = -1; /* the monitor knows already */
	int rc = why ? comm__fail_root(c, code ? code : code_of(v.kind), v.msg,
				       "%s (the job's verdict: %s)", why, v.msg)
		     : comm__fail_root(c, code_of(v.kind), v.msg, "%s", v.msg);
	c->hint_kind = 0;
	return rc;
}

int comm_monitor_lost(struct comm *c, int *ago_ms)
{
	int64_t at = c ? atomic_load_explicit(&c->watch.lost_ms, memory_order_relaxed) : 0;
	if (!at)
		return 0;
	if (ago_ms) {
		int64_t ago = mono_ms() - at;
		*ago_ms = ago > INT32_MAX ? INT32_MAX : (int)ago;
	}
	return 1;
}

/* What this rank knows that bears on any verdict: nobody was watching (a stuck rank would
 * have been named by the monitor, now only the deadline finds one), or strangers flooded its
 * port (dropped without holding up a step, but the operator should know). */
static void note_context(struct comm *c, struct comm_verdict *v)
{
	int ago;
	size_t l = strlen(v->msg);
	if (comm_monitor_lost(c, &ago) && l + 1 < sizeof(v->msg))
		snprintf(v->msg + l, sizeof(v->msg) - l,
			 " (hang detection was off: the job's monitor had gone %.1f s before)",
			 (double)ago / 1000.0);
	l = strlen(v->msg);
	if (c->refused && l + 1 < sizeof(v->msg))
		snprintf(v->msg + l, sizeof(v->msg) - l,
			 " (meanwhile rank %d dropped %u connection%s from strangers to its port%s)",
			 c->rank, c->refused, plural_s(c->refused),
			 c->hs_evicted ? ", a flood that filled every handshake slot" : "");
}

int comm_verdict(struct comm *c, struct comm_verdict *v, int wait_ms)
{
	int rc = verdict_of(c, v, wait_ms);
	if (rc)
		note_context(c, v);
	return rc;
}

static int verdict_of(struct comm *c, struct comm_verdict *v, int wait_ms)
{
	if (!c || !v || !c->broken)
		return 0;
	struct comm__watch *w = &c->watch;
	int64_t end = mono_ms() + (wait_ms > 0 ? wait_ms : 0);
	for (;;) {
		pthread_mutex_lock(&w->mu);
		bool have = w->have, gone = w->gone;
		int64_t heard = w->heard_ms;
		if (have)
			*v = w->v;
		pthread_mutex_unlock(&w->mu);
		if (have)
			return 1;
		/* no monitor to wait for: the rendezvous is gone, never watched, or silent (frozen:
		 * the rank that noticed it aborted us, and its verdict is in our root message) */
		int64_t now = mono_ms();
		if (!w->on || w->fd < 0 || gone || now >= end ||
		    (heard && now - heard > 2 * (int64_t)w->interval_ms + 500))
			break;
		usleep(10000);
	}
	pthread_mutex_lock(&w->mu);
	bool own = w->have_own;
	if (own)
		*v = w->own;
	pthread_mutex_unlock(&w->mu);
	if (own)
		return 1;
	*v = (struct comm_verdict){ .kind = kind_of(c->broken), .rank = -1, .link_from = -1,
				    .link_to = -1, .coll = -1, .step = -1, .waiter = -1,
				    .peer = -1 };
	comm__strlcpy(v->msg, c->root_msg, sizeof(v->msg));
	return 1;
}
