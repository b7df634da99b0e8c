/* The stall judgement of `run --engine hccl`. A rank stuck inside HCCL looks, from its host,
 * exactly like a rank whose peers are stuck: both sit in a stream wait. What tells them apart
 * is how far each got. Every rank counts the steps it completed (host calls returned,
 * collectives its device finished, seen through events); when no unfinished rank has moved
 * for stall_ms, the ranks with the fewest steps are the ones the others wait on. When every
 * rank stopped at the same step, nothing on the host says who: that is said, not guessed. */
#include "cmd/run/hccljudge.h"
#include "probes/npu/hcclcodes.h"

/* HCCL codes a rank gets when a peer failed first: its connection or transfer to the peer
 * broke, the peer stopped answering (hccl/hccl_types.h: HCCL_E_TIMEOUT 9, HCCL_E_TCP_CONNECT
 * 11, HCCL_E_ROCE_CONNECT 12, HCCL_E_TCP_TRANSFER 13, HCCL_E_ROCE_TRANSFER 14, HCCL_E_NETWORK
 * 19, HCCL_E_REMOTE 21). A stream that failed on a timeout of the device's (507048 when
 * HCCL_EXEC_TIMEOUT ran out) or with one of those as HCCL's async error is an echo too. Ranks
 * fail moments apart and their clocks are read at different moments, so "how long ago"
 * alone cannot order a cause and its echo reliably. */
static int echo_code(int64_t code)
{
	switch (code) {
	case 9:
	case 11:
	case 12:
	case 13:
	case 14:
	case 19:
	case 21:
		return 1;
	default:
		return 0;
	}
}

/* A stream that failed because its wait on a peer ran out (HCCL_EXEC_TIMEOUT): the device's
 * timeout code, or HCCL_E_TIMEOUT as HCCL's async error. */
static int timed_out_on_device(const struct hccl_progress *p)
{
	return p->acl && (hacl_cat(p->code) == HCAT_RANK_STUCK || p->async == 9);
}

static int echoes_a_peer(const struct hccl_progress *p)
{
	if (!p->acl)
		return echo_code(p->code);
	return timed_out_on_device(p) || (p->async > 0 && echo_code(p->async));
}

/* a leads b: a cause before an echo, then the earlier failure */
static int fails_before(const struct hccl_progress *a, const struct hccl_progress *b)
{
	if (echoes_a_peer(a) != echoes_a_peer(b))
		return !echoes_a_peer(a);
	return a->failed_ms > b->failed_ms;
}

enum hccl_verdict hccl_judge(const struct hccl_progress *p, int n, int64_t stall_ms,
			     int *culprits, int *nculprits)
{
	int done = 0;
	int64_t maxsteps = 0, minbusy = INT64_MAX;

	*nculprits = 0;
	/* the first failure is the cause, the later ones most likely its consequences (a
	 * peer's HCCL giving up on it); a failure that only echoes a peer's comes after one
	 * that does not; ties in rank order */
	for (int r = 0; r < n; r++) {
		if (p[r].state != HCCL_RANK_FAILED)
			continue;
		int at = (*nculprits)++;
		while (at > 0 && fails_before(&p[r], &p[culprits[at - 1]])) {
			culprits[at] = culprits[at - 1];
			at--;
		}
		culprits[at] = r;
	}
	/* only streams that gave up on a peer, while ranks are still in HCCL: those are what
	 * the others waited on (a rank hung with HCCL_EXEC_TIMEOUT below the stall limit), and
	 * the one furthest behind is named. A host call that returned a timeout failed on its
	 * own rank first and stays the cause. */
	int waited = *nculprits > 0;
	for (int i = 0; i < *nculprits; i++)
		waited &= timed_out_on_device(&p[culprits[i]]);
	if (waited) {
		int64_t least = INT64_MAX, first = 0;
		for (int r = 0; r < n; r++)
			if (p[r].state == HCCL_RANK_BUSY && p[r].steps < least)
				least = p[r].steps;
		for (int i = 0; i < *nculprits; i++)
			if (p[culprits[i]].failed_ms > first)
				first = p[culprits[i]].failed_ms;
		/* the peers that waited on the same rank time out at about the same moment, some
		 * a heartbeat later: until the first has been out for the grace, a rank still in
		 * HCCL may be one of them, not the one they waited on */
		if (least != INT64_MAX && first < HCCL_JUDGE_GRACE_MS && first < stall_ms) {
			*nculprits = 0;
			return HCCL_JUDGE_WAIT;
		}
		if (least != INT64_MAX) {
			*nculprits = 0;
			for (int r = 0; r < n; r++)
				if (p[r].state == HCCL_RANK_BUSY && p[r].steps == least)
					culprits[(*nculprits)++] = r;
			return HCCL_JUDGE_BEHIND;
		}
	}
	if (*nculprits)
		return HCCL_JUDGE_FAILED;
	for (int r = 0; r < n; r++) {
		if (p[r].steps > maxsteps)
			maxsteps = p[r].steps;
		if (p[r].state == HCCL_RANK_DONE) {
			done++;
			continue;
		}
		if (p[r].idle_ms < stall_ms)
			return HCCL_JUDGE_WAIT;
		if (p[r].steps < minbusy)
			minbusy = p[r].steps;
	}
	if (done == n)
		return HCCL_JUDGE_DONE;
	for (int r = 0; r < n; r++)
		if (p[r].state == HCCL_RANK_BUSY && (minbusy < maxsteps ? p[r].steps == minbusy : 1))
			culprits[(*nculprits)++] = r;
	return minbusy < maxsteps ? HCCL_JUDGE_BEHIND : HCCL_JUDGE_ALL_STUCK;
}
