/* A collective's fingerprints checked on arrival instead of exchanged before any data moves.
 *
 * Ours goes out in the same write as our first frame to each peer, and each peer's is
 * compared with ours when it arrives, ahead of its data on the same stream. For a collective
 * in which every rank's data reaches every rank (allreduce, allgather, reduce-scatter,
 * all-to-all) that is enough: the ranks that exchange data agree pairwise, and those pairs
 * connect every rank, so all agree. Where it is not (broadcast, barrier, a collective of no
 * bytes) ours goes to every peer at once and every peer's is awaited at the end (all).
 *
 * A rank that waits for a peer whose fingerprint has not come asks for it (FPREQ), so ranks
 * whose differing calls leave both waiting find out instead of hanging; a peer answers from
 * the history of its recent collectives, or once it gets to the one asked for. Once two
 * fingerprints differ, all are asked for and gathered for a while, and the collective fails
 * naming the difference, as the exchange would have.
 *
 * With lazy links a collective checks the peers it is connected to when it starts, and each
 * peer it connects to on the way joins the check the first time a step moves data with it
 * (or its fingerprint of this collective arrives); between two ranks a link is up on both
 * sides once the connecting one returns, so both check the same pairs. The progress engine
 * reaches this file only through what comm__agree_attach registers. */
#include "libcomm/internal.h"

#define FRAME (COMM__HDR_LEN + COMM__FP_LEN)
#define COLLECT_MS 1000 /* how long a rank that saw a difference gathers fingerprints */
/* A peer that answers from inside a send or receive may be on its way to this collective
 * (its peer is slow: a link being made, a loaded machine) or stuck there for good; it is
 * asked again after this long, and the same answer twice is stuck (a 9-rank sendrecv with
 * lazy links on a loaded 2-core machine failed 1 run in 8 deciding at the first answer). */
#define P2P_RECHECK_MS 1000

void comm__fp_remember(struct comm *c, const struct comm__fp *f)
{
	c->fp_hist[f->seq % COMM__FP_HIST] = *f;
}

/* Ours of collective seq, if still in the history. */
static const struct comm__fp *ours(const struct comm *c, uint32_t seq)
{
	const struct comm__fp *f = &c->fp_hist[seq % COMM__FP_HIST];
	return seq && f->seq == seq ? f : NULL;
}

static bool ctl_queue(struct comm *c, int r, uint8_t type, uint32_t seq,
		      const struct comm__fp *f)
{
	struct comm__peer *p = &c->peers[r];
	size_t len = type == COMM__F_FP ? COMM__FP_LEN : 0;
	if (!p->pb) /* no link yet: queued once there is one (fp_due, fp_asked stay) */
		return false;
	if (p->ctl_sent == p->ctl_len)
		p->ctl_sent = p->ctl_len = 0;
	if (p->ctl_len + COMM__HDR_LEN + len > sizeof(p->pb->ctl_tx))
		return false;
	struct comm__hdr h = { type, seq, -1, (uint32_t)c->rank, len };
	comm__hdr_encode(p->pb->ctl_tx + p->ctl_len, &h);
	if (f)
		comm__fp_encode(f, p->pb->ctl_tx + p->ctl_len + COMM__HDR_LEN);
	p->ctl_len += COMM__HDR_LEN + len;
	return true;
}

static void fp_serve(struct comm *c, int r, bool front)
{
	struct comm__peer *p = &c->peers[r];
	bool current = c->fp_lazy && p->fp_asked && p->fp_ask_seq == c->cur_seq;
	if (p->fp_due && c->fp_lazy && (front || c->fp_all || current) &&
	    ctl_queue(c, r, COMM__F_FP, c->cur_seq, &c->fps[c->rank]))
		p->fp_due = false;
	if (!p->fp_asked)
		return;
	if (p->fp_ask_seq > c->seq) { /* a collective we have not started: answered when we do, */
		if (c->cur_coll >= 0 && comm__is_p2p(c->cur_coll) && /* or with what we do instead */
		    ctl_queue(c, r, COMM__F_FP, c->fps[c->rank].seq, &c->fps[c->rank]))
			p->fp_asked = false;
		return;
	}
	if (current) { /* ours of this one: queued above, or earlier */
		p->fp_asked = p->fp_due;
		return;
	}
	const struct comm__fp *f = ours(c, p->fp_ask_seq);
	if (f && !ctl_queue(c, r, COMM__F_FP, f->seq, f))
		return; /* no room: again on the next send */
	p->fp_asked = false;
}

static void fp_asked(struct comm *c, int r, uint32_t seq)
{
	c->peers[r].fp_asked = true;
	c->peers[r].fp_ask_seq = seq;
	fp_serve(c, r, false);
}

/* Queues a request to r unless one is out; not before r's recheck time unless forced. */
static bool request(struct comm *c, int r, bool force, int64_t now)
{
	struct comm__peer *p = &c->peers[r];
	if (p->fp_req_sent || !comm__fp_owed(c, r) || (!force && now < p->fp_reask_at))
		return false;
	p->fp_req_sent = ctl_queue(c, r, COMM__F_FPREQ, c->cur_seq, NULL);
	c->fp_requests += p->fp_req_sent;
	return p->fp_req_sent;
}

static int64_t fp_request(struct comm *c, int r, int64_t now)
{
	if (request(c, r, false, now))
		return 0;
	const struct comm__peer *p = &c->peers[r];
	return !p->fp_req_sent && comm__fp_owed(c, r) && p->fp_reask_at > now ? p->fp_reask_at
										 : INT64_MAX;
}

static void fp_take(struct comm *c, int r)
{
	struct comm__peer *p = &c->peers[r];
	c->fps[r] = p->fp;
	p->fp_got = true;
	c->fp_missing--;
	if (c->fp_bad || comm__fp_same(&c->fps[r], &c->fps[c->rank]))
		return;
	c->fp_bad = true;
	c->fp_collect_end = mono_ms() + COLLECT_MS;
	for (int q = 0; q < c->nranks; q++)
		request(c, q, true, 0);
}

/* A lower rank connects to us for the first collective that needs the link, and sends its
 * fingerprint of that one first: a link of a later collective than ours (this rank was
 * behind and accepted it while still in an earlier one) is one the peer did not have in
 * ours, so the peer never sent its fingerprint of ours. Checking it would take the
 * fingerprint of its next collective for a difference (a broadcast then a barrier at 4
 * ranks did, 5 runs in 8). */
static bool later_link(const struct comm *c, int r)
{
	return r < c->rank && c->peers[r].fp_first > c->cur_seq;
}

static void fp_join(struct comm *c, int r)
{
	struct comm__peer *p = &c->peers[r];
	if (!c->fp_lazy || p->fp_in || r == c->rank || later_link(c, r))
		return;
	p->fp_in = true;
	p->fp_got = p->fp_req_sent = p->p2p_seen = false;
	p->fp_reask_at = 0;
	p->fp_due = true;
	c->fp_missing++;
	if (c->fp_all && p->fd >= 0)
		fp_serve(c, r, true);
}

static void fp_arrived(struct comm *c, int r)
{
	struct comm__peer *p = &c->peers[r];
	const struct comm__fp *f = &p->fp;
	bool coll = !comm__is_p2p(f->coll);
	if (!p->fp_first) {
		p->fp_first = f->seq;
		if (c->fp_lazy && p->fp_in && !p->fp_got && later_link(c, r)) {
			p->fp_in = false; /* joined when ours began: it leaves again */
			c->fp_missing--;
		}
	}
	if (coll && c->fp_lazy && f->seq == c->cur_seq) {
		fp_join(c, r); /* a peer that connected to us for this one */
		if (!p->fp_got) /* this collective's */
			fp_take(c, r);
		return; /* else a second copy: an answer that crossed our data */
	}
	const struct comm__fp *mine = coll ? ours(c, f->seq) : NULL;
	/* of a collective we did (the last one too, once we are out of it: in a send or
	 * receive since), the same as ours: an answer that came late */
	bool in_it = c->cur_coll >= 0 && !comm__is_p2p(c->cur_coll) && c->cur_seq == f->seq;
	if (mine && f->seq <= c->seq && !in_it && comm__fp_same(f, mine))
		return;
	if (comm__fp_owed(c, r) && !coll && p->fp_req_sent &&
	    !(p->p2p_seen && comm__fp_same(&p->p2p_fp, f))) {
		/* in a send or receive: asked again later, the same answer says it is stuck */
		p->p2p_fp = *f;
		p->p2p_seen = true;
		p->fp_req_sent = false;
		p->fp_reask_at = mono_ms() + P2P_RECHECK_MS;
		return;
	}
	if (comm__fp_owed(c, r) && ((coll && f->seq < c->seq) || (!coll && p->fp_req_sent))) {
		/* an earlier one that differs, or the answer of a peer still in the same send
		 * or receive: this collective fails */
		fp_take(c, r);
		return;
	}
	p->fp_pending = true; /* a later operation's, or the one an exchange waits for */
	p->fp_seq = f->seq;
}

void comm__fp_post(struct comm *c, const struct comm__fp *mine, bool all)
{
	comm__fp_remember(c, mine);
	c->fps[c->rank] = *mine;
	c->fp_lazy = true;
	c->fp_all = all;
	c->fp_bad = false;
	c->fp_missing = 0;
	for (int r = 0; r < c->nranks; r++)
		c->peers[r].fp_in = false;
	for (int r = 0; r < c->nranks; r++)
		if (c->peers[r].fd >= 0)
			fp_join(c, r);
	for (int r = 0; r < c->nranks; r++) {
		struct comm__peer *p = &c->peers[r];
		if (r == c->rank || p->fd < 0)
			continue;
		if (p->fp_pending && p->fp_seq == mine->seq) { /* came while we were in the last one */
			p->fp_pending = false;
			fp_take(c, r);
		}
		if (p->fp_asked)
			fp_serve(c, r, false);
	}
}

/* The fingerprints differ: name the difference among those that came. */
static bool came(const struct comm *c, int r, const void *arg)
{
	(void)arg;
	return c->peers[r].fp_in && c->peers[r].fp_got;
}

static int fp_differ(struct comm *c)
{
	return comm__fp_differ(c, came, NULL);
}

static int on_fp(struct comm *c, int r, const struct comm__hdr *h, const unsigned char *b)
{
	struct comm__peer *p = &c->peers[r];
	char why[COMM_ERRLEN];
	if (comm__fp_decode(b, (size_t)h->len, &p->fp, why, sizeof(why)))
		return comm__fail(c, COMM_E_PROTO, "bad frame from rank %d (host %s): %s", r,
				  p->host, why);
	fp_arrived(c, r);
	return 0;
}

static int on_fpreq(struct comm *c, int r, const struct comm__hdr *h, const unsigned char *b)
{
	(void)b;
	fp_asked(c, r, h->seq);
	return 0;
}

static const struct comm__check_ops check_ops = {
	.serve = fp_serve,
	.take = fp_take,
	.ask = fp_request,
	.join = fp_join,
	.differ = fp_differ,
};

void comm__agree_attach(struct comm *c)
{
	c->check = &check_ops;
	c->ctl[COMM__F_FP] = on_fp;
	c->ctl[COMM__F_FPREQ] = on_fpreq;
}
