/* The stall judgement of `run --engine hccl`. A rank stuck inside HCCL looks, from its host,
 * exactly like a rank whose peers are stuck: both sit in a stream wait. What tells them apart
 * is how far each got. Every rank counts the steps it completed (host calls returned,
 * collectives its device finished, seen through events); when no unfinished rank has moved
 * for stall_ms, the ranks with the fewest steps are the ones the others wait on. When every
 * rank stopped at the same step, nothing on the host says who: that is said, not guessed. */
#include "hccljudge.h"

enum hccl_verdict hccl_judge(const struct hccl_progress *p, int n, int64_t stall_ms,
			     int *culprits, int *nculprits)
{
	int done = 0;
	int64_t maxsteps = 0, minbusy = INT64_MAX;

	*nculprits = 0;
	/* the first failure is the cause, the later ones most likely its consequences (a
	 * peer's HCCL giving up on it); ties in rank order */
	for (int r = 0; r < n; r++) {
		if (p[r].state != HCCL_RANK_FAILED)
			continue;
		int at = (*nculprits)++;
		while (at > 0 && p[culprits[at - 1]].failed_ms < p[r].failed_ms) {
			culprits[at] = culprits[at - 1];
			at--;
		}
		culprits[at] = r;
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
