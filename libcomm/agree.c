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
 * naming the difference, as the exchange would have. */
#include "libcomm/internal.h"

#define FRAME (COMM__HDR_LEN + COMM__FP_LEN)
#define COLLECT_MS 1000 /* how long a rank that saw a difference gathers fingerprints */

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
	if (p->ctl_sent == p->ctl_len)
		p->ctl_sent = p->ctl_len = 0;
	if (p->ctl_len + COMM__HDR_LEN + len > sizeof(p->ctl_tx))
		return false;
	struct comm__hdr h = { type, seq, -1, (uint32_t)c->rank, len };
	comm__hdr_encode(p->ctl_tx + p->ctl_len, &h);
	if (f)
		comm__fp_encode(f, p->ctl_tx + p->ctl_len + COMM__HDR_LEN);
	p->ctl_len += COMM__HDR_LEN + len;
	return true;
}

void comm__fp_serve(struct comm *c, int r, bool front)
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

void comm__fp_asked(struct comm *c, int r, uint32_t seq)
{
	c->peers[r].fp_asked = true;
	c->peers[r].fp_ask_seq = seq;
	comm__fp_serve(c, r, false);
}

bool comm__fp_request(struct comm *c, int r)
{
	struct comm__peer *p = &c->peers[r];
	if (p->fp_req_sent || !comm__fp_owed(c, r))
		return false;
	p->fp_req_sent = ctl_queue(c, r, COMM__F_FPREQ, c->cur_seq, NULL);
	c->fp_requests += p->fp_req_sent;
	return p->fp_req_sent;
}

void comm__fp_take(struct comm *c, int r)
{
	struct comm__peer *p = &c->peers[r];
	c->fps[r] = p->fp;
	p->fp_got = true;
	c->fp_missing--;
	if (c->fp_bad || comm__fp_same(&c->fps[r], &c->fps[c->rank]))
		return;
	c->fp_bad = true;
	c->fp_collect_end = comm__now_ms() + COLLECT_MS;
	for (int q = 0; q < c->nranks; q++)
		comm__fp_request(c, q);
}

void comm__fp_arrived(struct comm *c, int r)
{
	struct comm__peer *p = &c->peers[r];
	const struct comm__fp *f = &p->fp;
	bool coll = !comm__is_p2p(f->coll);
	if (coll && c->fp_lazy && f->seq == c->cur_seq) {
		if (!p->fp_got) /* this collective's */
			comm__fp_take(c, r);
		return; /* else a second copy: an answer that crossed our data */
	}
	const struct comm__fp *mine = coll ? ours(c, f->seq) : NULL;
	if (mine && f->seq < c->seq && comm__fp_same(f, mine))
		return; /* of a collective we did, the same as ours: an answer that came late */
	if (comm__fp_owed(c, r) && ((coll && f->seq < c->seq) || (!coll && p->fp_req_sent))) {
		/* an earlier one that differs, or the answer of a peer in a send or receive
		 * instead: this collective fails */
		comm__fp_take(c, r);
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
	for (int r = 0; r < c->nranks; r++) {
		struct comm__peer *p = &c->peers[r];
		if (r == c->rank || p->fd < 0)
			continue;
		p->fp_got = p->fp_req_sent = false;
		p->fp_due = true;
		c->fp_missing++;
		if (all)
			comm__fp_serve(c, r, true);
	}
	for (int r = 0; r < c->nranks; r++) {
		struct comm__peer *p = &c->peers[r];
		if (r == c->rank || p->fd < 0)
			continue;
		if (p->fp_pending && p->fp_seq == mine->seq) { /* came while we were in the last one */
			p->fp_pending = false;
			comm__fp_take(c, r);
		}
		if (p->fp_asked)
			comm__fp_serve(c, r, false);
	}
}
