/* HCCL's task exception report ("Task run failed, base information is ... tag[AllReduce_G]",
 * "groupRank information is group:[G], ..., rankId[1]") compared across the ranks of one group.
 * Each rank writes it when a collective of G waited HCCL_EXEC_TIMEOUT for its peers, so:
 * ranks that report different collectives for the same group were not running the same step
 * (a desync; whichever finished its wait first is not the point), and ranks that report the
 * same collective far apart in time arrived far apart: each waited the same timeout from its
 * own arrival, so the one that reported last arrived last and held the others up. Ranks
 * waiting on a common third rank time out within seconds of each other; a minute apart is
 * more than clock skew or scheduling explains. A report may also say how far its collective had
 * got (the task's index in it): the one rank still behind where all the others have got to
 * is the one they wait for. */
#include <stdio.h>
#include <string.h>

#include "probes/npu/hcclcodes.h"
#include "probes/logs/hlogint.h"

#define TASK_MAX 32
#define LATE_US (60LL * 1000000) /* arrivals this far apart are not one wait */

struct task {
	const struct hlog_event *base; /* the line with the op's tag */
	const struct hlog_event *grp;  /* the line with the group and the rank */
};

static int task_line(const struct hlog_event *e)
{
	return e->kind == HLOG_NOTIFY_TIMEOUT && strstr(e->text, "Task run failed");
}

/* One entry per process: its first tagged line and its first group line. */
static size_t collect(const struct hlog_report *r, struct task *t)
{
	size_t n = 0;
	for (size_t i = 0; i < r->nev; i++) {
		const struct hlog_event *e = &r->ev[i];
		int has_op = e->op[0] != '\0', has_grp = e->group[0] && e->rank >= 0;
		if (!task_line(e) || (!has_op && !has_grp))
			continue;
		size_t k;
		for (k = 0; k < n; k++) {
			const struct hlog_event *o = t[k].base ? t[k].base : t[k].grp;
			if (o->fi == e->fi && o->pid == e->pid)
				break;
		}
		if (k == n) {
			if (n == TASK_MAX)
				continue;
			t[n].base = t[n].grp = NULL;
			n++;
		}
		if (has_op && !t[k].base)
			t[k].base = e;
		if (has_grp && !t[k].grp)
			t[k].grp = e;
	}
	/* keep the processes whose report names its op, group and rank */
	size_t m = 0;
	for (size_t k = 0; k < n; k++)
		if (t[k].base && t[k].grp)
			t[m++] = t[k];
	return m;
}

/* The device of the process that wrote e, from another line of its file ("deviceLogicId[1]"
 * where it set up its communicator); -1. */
static int proc_dev(const struct hlog_report *r, const struct hlog_event *e)
{
	for (size_t i = 0; i < r->nev; i++)
		if (r->ev[i].fi == e->fi && r->ev[i].pid == e->pid && r->ev[i].dev >= 0)
			return r->ev[i].dev;
	return -1;
}

/* The verdict on rank a against rank b (the cause text is the caller's). */
static void verdict(struct hlog_report *r, const struct task *a, const struct task *b, int cat,
		    const char *detail, const char *fix)
{
	r->kind = HLOG_NOTIFY_TIMEOUT;
	r->first = a->base;
	r->cat = cat;
	snprintf(r->detail, sizeof(r->detail), "%s", detail);
	snprintf(r->group, sizeof(r->group), "%s", a->grp->group);
	snprintf(r->node, sizeof(r->node), "%s", a->grp->node);
	r->rank = a->grp->rank;
	r->peer_rank = b->grp->rank;
	r->dev = a->grp->dev >= 0    ? a->grp->dev
		 : a->base->dev >= 0 ? a->base->dev
				     : proc_dev(r, a->base);
	snprintf(r->fix, sizeof(r->fix), "%s", fix);
	hlog__evidence(r, a->base);
	hlog__evidence(r, b->base);
}

static const char *node_or(const struct task *t)
{
	return t->grp->node[0] ? t->grp->node : "?";
}

/* How many tasks of x's group are in x's collective. */
static size_t same_op(const struct task *t, size_t n, const struct task *x)
{
	size_t k = 0;
	for (size_t j = 0; j < n; j++)
		k += !strcmp(t[j].grp->group, x->grp->group) && !strcmp(t[j].base->op, x->base->op);
	return k;
}

/* The one task of n that is behind all the others of its group (a lower index, the others at
 * one index), or NULL; *peer: one of the others. Their collectives are not compared: a rank
 * still at an earlier task holds the others up whether or not its tag reads as theirs (the
 * reports of a rank behind may name the collective before). */
static const struct task *behind(const struct task *t, size_t n, const struct task **peer)
{
	for (size_t i = 0; i < n; i++) {
		const struct task *a = &t[i];
		int step = -1, peers = 0, lags = a->base->step >= 0;
		for (size_t j = 0; j < n && lags; j++) {
			const struct task *b = &t[j];
			if (j == i || strcmp(a->grp->group, b->grp->group) ||
			    a->grp->rank == b->grp->rank)
				continue;
			if (step < 0)
				step = b->base->step;
			*peer = b;
			lags = b->base->step == step && step > a->base->step;
			peers++;
		}
		if (lags && peers)
			return a;
	}
	return NULL;
}

int hlog__task_conclude(struct hlog_report *r)
{
	struct task t[TASK_MAX];
	size_t n = collect(r, t);
	const struct task *peer = NULL, *slow = behind(t, n, &peer);
	if (slow) {
		verdict(r, slow, peer, HCAT_RANK_STUCK, "behind",
			"find what held that rank up inside the collective (its link to the peer "
			"it waited for: hccn_tool -i DEV -link -g and -stat -g; a slow or stopped "
			"device: npu-smi info); the others waited for it until the execution "
			"timeout");
		struct sbuf s = {r->cause, sizeof(r->cause), 0};
		hlog__sb_add(&s,
			     "rank %d of group %s (node %s) was at task %d of %s when it timed "
			     "out, while the other ranks had got to task %d of %s: it fell behind "
			     "and held them up",
			     slow->grp->rank, slow->grp->group, node_or(slow), slow->base->step,
			     slow->base->op, peer->base->step, peer->base->op);
		return 1;
	}
	for (size_t i = 0; i < n; i++) {
		const struct task *a = &t[i];
		const struct task *other = NULL, *late = NULL, *early = a;
		for (size_t j = 0; j < n; j++) {
			const struct task *b = &t[j];
			if (j == i || strcmp(a->grp->group, b->grp->group) ||
			    a->grp->rank == b->grp->rank)
				continue;
			if (strcmp(a->base->op, b->base->op)) {
				other = b;
				break;
			}
			if (b->base->t_us >= 0 && early->base->t_us >= 0 &&
			    b->base->t_us < early->base->t_us)
				early = b;
			if (b->base->t_us >= 0 && a->base->t_us >= 0 &&
			    b->base->t_us - a->base->t_us >= LATE_US &&
			    (!late || b->base->t_us > late->base->t_us))
				late = b;
		}
		struct sbuf s = {r->cause, sizeof(r->cause), 0};
		/* the odd one out is named: of three ranks in AllReduce and one in another, the
		 * one */
		if (other && same_op(t, n, other) < same_op(t, n, a)) {
			const struct task *x = a;
			a = other;
			other = x;
		}
		if (other) {
			verdict(r, a, other, HCAT_OP_MISMATCH, "different-ops",
				"find where the ranks' scripts diverge before this collective (a "
				"branch on the rank or on the data, a step some ranks skip); trace "
				"every rank's ops with HCCL_ENTRY_LOG_ENABLE=1 and compare them");
			hlog__sb_add(&s,
				     "rank %d of group %s (node %s) timed out in %s while rank %d "
				     "(node %s) timed out in %s: the ranks did not call the same "
				     "collective at the same point",
				     a->grp->rank, a->grp->group, node_or(a), a->base->op,
				     other->grp->rank, node_or(other), other->base->op);
			return 1;
		}
		if (late && early == a) {
			verdict(r, late, a, HCAT_RANK_STUCK, "arrived-late",
				"find what that rank did before the collective (data loading, "
				"evaluation, checkpoint saving, a slow host); if the gap is "
				"expected, "
				"raise HCCL_EXEC_TIMEOUT above it on every rank");
			hlog__sb_add(
				&s,
				"rank %d of group %s (node %s) reached %s %llds after rank %d "
				"did: both waited the execution timeout from their own arrival, "
				"so rank %d is the one that held the collective up",
				late->grp->rank, late->grp->group, node_or(late), late->base->op,
				(long long)((late->base->t_us - a->base->t_us) / 1000000),
				a->grp->rank, late->grp->rank);
			return 1;
		}
	}
	return 0;
}
