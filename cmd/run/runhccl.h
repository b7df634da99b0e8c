/* cmd/run/runhccl.c: the HCCL engine of `hcclctl run` (see its opening comment). */
#ifndef HCCLCTL_RUNHCCL_H
#define HCCLCTL_RUNHCCL_H

#include <stddef.h>

#include "cmd/lib/hcclapi.h"
#include "cmd/run/run.h"

struct run_hccl_args {
	const struct hccl_api *api; /* loaded by hccl_api_load */
	const char *table;          /* the rank table for HcclCommInitClusterInfo; NULL: root info */
	int device;                 /* the table's device_id (physical); without a table unused:
				     * the launcher's local rank, else the ranks before this one
				     * on its server */
	const char *server;         /* this rank's server, for the verdicts */
	const char *where;          /* "run allreduce", for warnings and -v */
};

/* Opens HCCL on this rank beside the side channel c (which must outlive it): the device,
 * a stream, HCCL's communicator (from the table, else from rank 0's root info sent over c).
 * Collective over c. *out is set even on failure (for its message and verdict) and is
 * released by run_hccl_close. 0, a comm_status, or RUN_E_ENGINE. */
int run_hccl_open(struct run_engine **out, struct comm *c, const struct run_hccl_args *a);
/* Collective over c when the engine is healthy: destroys HCCL's communicator and the device
 * state. After a verdict it leaves them (and the thread that may be stuck in HCCL) to the
 * process's exit. */
void run_hccl_close(struct run_engine *e, struct comm *c);
/* The last failure's message ("" when none); its verdict (1 and *v filled, else 0); and 1
 * when a job failed, so the process must end without waiting on HCCL's thread. */
const char *run_hccl_error(const struct run_engine *e);
int run_hccl_verdict(const struct run_engine *e, struct comm_verdict *v);
int run_hccl_stalled(const struct run_engine *e);
/* "; rank R was on device D of SERVER, in CALL; its plog: DIR" into out[len], for a verdict
 * of the side channel's about rank R. */
void run_hccl_where(const struct run_engine *e, int rank, char *out, size_t len);

/* Rank's device id and server in the rank table at path; 0, or a negative errno with err. */
int run_hccl_table_entry(const char *path, int rank, int *device, char *server, size_t len,
			 char *err, size_t errlen);
/* How many ranks the rank table at path has; 0, or a negative errno with err. */
int run_hccl_table_ranks(const char *path, size_t *nranks, char *err, size_t errlen);
/* Where CANN writes this process's plogs: $ASCEND_PROCESS_LOG_PATH, else ~/ascend/log. */
void run_hccl_plog_dir(char *out, size_t len);

#endif
