/* Profiling: every step of every collective as Chrome trace events ("X" events, µs since the
 * epoch so ranks on different hosts line up), for Perfetto or chrome://tracing. Off by default;
 * when off the engine pays one branch per step. When on, events go into a buffer allocated
 * up front (no allocation on the hot path); events beyond it are counted, not kept.
 *
 * Lanes (threads in the viewer) per rank: the collectives, their steps and waits on tid 0;
 * compute between steps (reduce, copies) on tid 1; sends to peer P on tid 1000+P, receives
 * from P on tid 2000+P, so that concurrent transfers never overlap in one lane. */
#include <errno.h>
#include <time.h>
#include <unistd.h>

#include "libcomm/internal.h"

enum pkind { P_COLL, P_STEP, P_SEND, P_RECV, P_WAIT, P_COMPUTE, P_FP };

struct pev {
	int64_t ts, dur;
	uint64_t bytes;
	uint32_t seq;
	int32_t peer, step;
	int8_t kind, coll;
};

struct comm__profile {
	struct pev *ev;
	size_t n, cap, dropped;
	int64_t op_ts, last_step_end;
};

int64_t comm__prof_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

int comm_profile_start(struct comm *c, size_t max_events)
{
	if (!c || c->profile)
		return COMM_E_INVAL;
	struct comm__profile *p = calloc(1, sizeof(*p));
	size_t cap = max_events ? max_events : 200000;
	if (p)
		p->ev = malloc(cap * sizeof(*p->ev));
	if (!p || !p->ev) {
		free(p);
		return COMM_E_NOMEM;
	}
	p->cap = cap;
	c->profile = p;
	return 0;
}

void comm_profile_stop(struct comm *c)
{
	if (!c || !c->profile)
		return;
	free(c->profile->ev);
	free(c->profile);
	c->profile = NULL;
}

static void add(struct comm *c, int kind, int64_t ts, int64_t end, int peer, int step,
		uint64_t bytes)
{
	struct comm__profile *p = c->profile;
	if (p->n == p->cap) {
		p->dropped++;
		return;
	}
	p->ev[p->n++] = (struct pev){ ts, end > ts ? end - ts : 0, bytes, c->cur_seq, peer, step,
				      (int8_t)kind, (int8_t)c->cur_coll };
}

void comm__prof_op(struct comm *c, bool begin)
{
	struct comm__profile *p = c->profile;
	int64_t now = comm__prof_now();
	if (begin) {
		p->op_ts = now;
		p->last_step_end = 0;
		return;
	}
	add(c, P_COLL, p->op_ts, now, c->cur_peer, -1, c->cur_bytes);
}

void comm__prof_step(struct comm *c, int step, bool fp, const struct comm__xfer *x, size_t n,
		     int64_t t0)
{
	struct comm__profile *p = c->profile;
	int64_t now = comm__prof_now();
	if (p->last_step_end && !fp) /* between two steps: the algorithm computed */
		add(c, P_COMPUTE, p->last_step_end, t0, -1, step, 0);
	add(c, fp ? P_FP : P_STEP, t0, now, -1, step, 0);
	for (size_t i = 0; i < n && !fp; i++) {
		if (x[i].peer == c->rank)
			continue;
		const struct comm__xstate *st = &c->xs[i];
		if (x[i].slen)
			add(c, P_SEND, t0, st->s_end ? st->s_end : now, x[i].peer, step, x[i].slen);
		if (x[i].rlen)
			add(c, P_RECV, t0, st->r_end ? st->r_end : now, x[i].peer, step, x[i].rlen);
	}
	p->last_step_end = now;
}

void comm__prof_wait(struct comm *c, int64_t t0, int peer)
{
	int64_t now = comm__prof_now();
	if (now - t0 >= 20) /* shorter waits are noise in a viewer */
		add(c, P_WAIT, t0, now, peer, c->cur_step, 0);
}

int comm_profile_json(struct comm *c, char **out, size_t *len)
{
	if (!c || !c->profile || !out || !len)
		return COMM_E_INVAL;
	struct comm__profile *p = c->profile;
	struct buf b;
	if (buf_init(&b, 1 << 16, 1u << 30))
		return COMM_E_NOMEM;
	static const char *const names[] = { "coll", "step", "send", "recv", "wait", "compute",
					     "fingerprint" };
	/* lane names first, so the viewer labels them */
	buf_printf(&b,
		   "{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": %d, \"args\": {\"name\": "
		   "\"rank %d "
		   "(%s)\"}},\n{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": %d, \"tid\": 0, "
		   "\"args\": "
		   "{\"name\": \"collectives\"}},\n{\"name\": \"thread_name\", \"ph\": \"M\", "
		   "\"pid\": %d, "
		   "\"tid\": 1, \"args\": {\"name\": \"compute\"}}",
		   c->rank, c->rank, c->host, c->rank, c->rank);
	for (int r = 0; r < c->nranks; r++) {
		if (r == c->rank)
			continue;
		buf_printf(
			&b,
			",\n{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": %d, \"tid\": %d, "
			"\"args\": {\"name\": \"send to %d\"}},\n{\"name\": \"thread_name\", "
			"\"ph\": "
			"\"M\", \"pid\": %d, \"tid\": %d, \"args\": {\"name\": \"recv from %d\"}}",
			c->rank, 1000 + r, r, c->rank, 2000 + r, r);
	}
	for (size_t i = 0; i < p->n; i++) {
		const struct pev *e = &p->ev[i];
		const char *cn = e->coll >= 0 ? comm__op_display(e->coll) : "?";
		int tid = e->kind == P_SEND ? 1000 + e->peer
			  : e->kind == P_RECV ? 2000 + e->peer
			  : e->kind == P_COMPUTE ? 1
						  : 0;
		if (e->kind == P_COLL)
			buf_printf(&b, ",\n{\"name\": \"%s #%u\", \"cat\": \"coll\"", cn, e->seq);
		else if (e->kind == P_STEP)
			buf_printf(&b, ",\n{\"name\": \"step %d\", \"cat\": \"step\"", e->step);
		else
			buf_printf(&b, ",\n{\"name\": \"%s\", \"cat\": \"%s\"", names[e->kind],
				   names[e->kind]);
		buf_printf(
			&b,
			", \"ph\": \"X\", \"ts\": %lld, \"dur\": %lld, \"pid\": %d, \"tid\": %d, "
			"\"args\": {\"collective\": \"%s\", \"seq\": %u, \"step\": %d",
			(long long)e->ts, (long long)e->dur, c->rank, tid, cn, e->seq, e->step);
		if (e->peer >= 0)
			buf_printf(&b, ", \"peer\": %d", e->peer);
		if (e->bytes)
			buf_printf(&b, ", \"bytes\": %llu", (unsigned long long)e->bytes);
		buf_printf(&b, "}}");
	}
	if (p->dropped)
		buf_printf(&b,
			   ",\n{\"name\": \"events dropped\", \"ph\": \"i\", \"s\": \"p\", \"ts\": "
			   "%lld, "
			   "\"pid\": %d, \"tid\": 0, \"args\": {\"dropped\": %zu}}",
			   (long long)comm__prof_now(), c->rank, p->dropped);
	if (b.err) {
		buf_release(&b);
		return COMM_E_NOMEM;
	}
	*len = b.len;
	*out = buf_take(&b);
	return 0;
}
