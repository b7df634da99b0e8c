/* Who holds up an HCCL job: the judgement every rank makes, identically, from the progress
 * records the ranks exchange over the side channel while their HCCL calls run. */
#ifndef HCCLCTL_HCCLJUDGE_H
#define HCCLCTL_HCCLJUDGE_H

#include <stdint.h>

enum hccl_rank_state { HCCL_RANK_BUSY, HCCL_RANK_DONE, HCCL_RANK_FAILED };

/* One rank's record, all int64 so that it travels as one allgather of HCCL_PROGRESS_WORDS. */
struct hccl_progress {
	int64_t state;      /* enum hccl_rank_state of its current job */
	int64_t steps;      /* calls returned and collectives completed on its device, so far */
	int64_t call;       /* the call it is in (or failed in): an index of hccl_call_names */
	int64_t in_call_ms; /* how long it has been in that call */
	int64_t idle_ms;    /* how long since its steps last grew */
	int64_t code;       /* FAILED: the HcclResult (or aclError when acl is set) */
	int64_t acl;        /* FAILED: 1 when code is an aclError */
	int64_t async;      /* FAILED: the HcclGetCommAsyncError code of a stream failure, or -1 */
	int64_t failed_ms;  /* FAILED: how long ago */
};
#define HCCL_PROGRESS_WORDS 9

enum hccl_verdict {
	HCCL_JUDGE_WAIT,      /* someone still makes progress, or has not been idle long enough */
	HCCL_JUDGE_DONE,      /* every rank finished its job */
	HCCL_JUDGE_FAILED,    /* culprits: the ranks whose call failed, the first to fail first */
	HCCL_JUDGE_BEHIND,    /* culprits: the stalled ranks behind the others */
	HCCL_JUDGE_ALL_STUCK, /* every unfinished rank stalled at the same step: none to blame */
};

/* How long after the first stream gave up on a peer the ranks still in HCCL are judged:
 * the other peers of the same rank give up within it. */
#define HCCL_JUDGE_GRACE_MS 2000

/* Judges n records: stall_ms is how long every unfinished rank must have been without
 * progress before a stall is declared. culprits (n entries) gets the ranks named, *nculprits
 * their count. */
enum hccl_verdict hccl_judge(const struct hccl_progress *p, int n, int64_t stall_ms,
			     int *culprits, int *nculprits);

#endif
