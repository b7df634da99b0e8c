/* `run --engine hccl`: the sweep's collectives run in HCCL on this rank's NPU, while the
 * libcomm communicator the ranks already share (the side channel) carries everything else.
 *
 * Every ACL and HCCL call runs on one worker thread of the rank. The rank's main thread never
 * enters HCCL: while a call (or the device work it queued) is outstanding it wakes every
 * SLICE_MS and the ranks exchange one progress record each (hccljudge.h) over the side
 * channel. So a rank stuck inside HCCL, whose host never comes back from a stream wait, still
 * answers, and the ranks agree on a verdict within HCCLCTL_HCCL_STALL seconds (default 5) of
 * the last progress instead of at HCCL's own execution timeout (HCCL_EXEC_TIMEOUT, 1836 s by
 * default). A rank that dies is named by libcomm's heartbeats, as with the libcomm engine.
 *
 * A collective's iterations are queued back to back; an event recorded after each tells the
 * host when the device finished it (the step count the judgement compares), and RING of them
 * in flight keep the device fed while the host waits on the oldest. The time is the device's:
 * events before the first and after the last iteration, aclrtEventElapsedTime. */
#include <errno.h>
#include <pthread.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmd/cli/cli.h"
#include "cmd/lib/hcclapi.h"
#include "probes/npu/hcclcodes.h"
#include "cmd/run/hccljudge.h"
#include "ranktable/ranktable.h"
#include "cmd/run/run.h"
#include "cmd/run/runhccl.h"
#include "ranktable/base/clock.h"
#include "ranktable/base/plural.h"

#define SLICE_MS 100
#define STALL_DEFAULT_MS 5000
/* Collectives queued ahead of the one the host waits on: the host looks every POLL_US, so
 * with 64 queued the device runs dry only when 64 collectives take less than the host's
 * wake-up (well under a millisecond): never for sizes that matter. A guess to check on an
 * NPU against hccl_test's times; it costs 64 events. */
#define RING 64

/* The calls a rank can be in, as the progress record's call index. */
enum call {
	C_NONE, C_ACL_INIT, C_SET_DEVICE, C_CREATE_STREAM, C_CREATE_EVENT, C_MALLOC, C_MEMCPY,
	C_GET_ROOT_INFO, C_INIT_ROOT_INFO, C_INIT_CLUSTER_INFO, C_GET_RANK, C_ALLREDUCE,
	C_ALLGATHER, C_REDUCESCATTER, C_BROADCAST, C_ALLTOALL, C_SEND, C_RECV, C_BARRIER,
	C_ELAPSED, C_DESTROY, C_COUNT
};
static const char *const call_names[C_COUNT] = {
	"nothing", "aclInit", "aclrtSetDevice", "aclrtCreateStream", "aclrtCreateEvent",
	"aclrtMalloc", "aclrtMemcpy", "HcclGetRootInfo", "HcclCommInitRootInfo",
	"HcclCommInitClusterInfo", "HcclGetRankId", "HcclAllReduce", "HcclAllGather",
	"HcclReduceScatter", "HcclBroadcast", "HcclAlltoAll", "HcclSend", "HcclRecv",
	"HcclBarrier", "aclrtEventElapsedTime", "HcclCommDestroy",
};

/* What each rank tells the others once, for the verdicts' wording. */
struct peer {
	char server[128];
	char plog[256];
	int32_t device, pad;
};

struct job {
	const struct run_params *p;
	struct run_bufs *b;
	size_t count, bytes;
	long iters;
	unsigned flags;
	double us;
	char *root; /* HCCL_ROOT_INFO_SIZE bytes */
};

struct hccl_engine {
	struct run_engine base; /* first: the sweep's pointer is this engine's */
	struct hccl_api api;
	int rank, n;
	int device;  /* as the verdicts name it: the table's (physical) id, or the local rank */
	int logical; /* aclrtSetDevice's */
	char devnote[300]; /* how the logical id was found, for -v */
	const char *where;
	const char *table;
	struct comm *side;
	int64_t stall_ms;
	hccl_comm_t comm;
	hccl_stream_t stream;
	hccl_event_t t0, t1, ring[RING];
	int nevents;
	void *dsend, *drecv;
	size_t dbytes;
	struct peer *peers;
	struct hccl_progress *last; /* every rank's record at the last round */
	/* the worker */
	pthread_t th;
	int th_up;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int (*fn)(struct hccl_engine *e, struct job *j);
	struct job *job;
	int pending, finished, result, quit;
	/* progress, written by the worker */
	int64_t steps, call, call_t0, step_t0;
	int abandon;
	/* the worker's failure, read once it finished */
	int fail_call, fail_code, fail_acl, fail_async;
	int64_t fail_t;
	char detail[COMM_ERRLEN];
	/* the outcome */
	char err[COMM_ERRLEN + 512];
	struct comm_verdict v;
	int broken; /* a job failed: the worker may never return */
};

/* ---- the worker's side ---- */

static void enter(struct hccl_engine *e, enum call c)
{
	__atomic_store_n(&e->call_t0, mono_ms(), __ATOMIC_RELAXED);
	__atomic_store_n(&e->call, (int64_t)c, __ATOMIC_RELEASE);
}

static void step(struct hccl_engine *e)
{
	__atomic_store_n(&e->step_t0, mono_ms(), __ATOMIC_RELAXED);
	__atomic_add_fetch(&e->steps, 1, __ATOMIC_RELEASE);
}

static int failed(struct hccl_engine *e, enum call c, int code, int acl, int async)
{
	const char *m = e->api.aclGetRecentErrMsg ? e->api.aclGetRecentErrMsg() : NULL;
	e->fail_call = (int)c;
	e->fail_code = code;
	e->fail_acl = acl;
	e->fail_async = async;
	e->fail_t = mono_ms();
	snprintf(e->detail, sizeof(e->detail), "%s", m && *m ? m : "");
	return -1;
}

/* One ACL or HCCL call: counted as a step when it returns 0, recorded when it does not. */
#define CALL(e, c, acl, expr)                                          \
	do {                                                           \
		enter(e, c);                                           \
		int rc_ = (expr);                                      \
		if (rc_ && !((c) == C_ACL_INIT &&                      \
			     rc_ == HCCL_ACL_ERROR_REPEAT_INITIALIZE)) \
			return failed(e, c, rc_, acl, -1);             \
		step(e);                                               \
	} while (0)

static int is_timeout(int rc)
{
	return rc == HCCL_ACL_ERROR_RT_STREAM_SYNC_TIMEOUT ||
	       rc == HCCL_ACL_ERROR_RT_EVENT_SYNC_TIMEOUT;
}

/* The stream failed under a collective: the ACL code, and HCCL's own reason. */
static int stream_failed(struct hccl_engine *e, int rc)
{
	int async = -1;
	if (e->comm && e->api.HcclGetCommAsyncError(e->comm, &async))
		async = -1;
	return failed(e, (enum call)e->call, rc, 1, async);
}

/* Waits until the device finished iteration `upto` - 1, counting each as a step. Polls the
 * oldest event; every POLL_SYNC polls it asks the stream, which is where a failed task shows
 * (its event never completes). */
#define POLL_US 50
#define POLL_SYNC 200
static int wait_done(struct hccl_engine *e, long *done, long upto)
{
	for (int polls = 0; *done < upto;) {
		int st = HCCL_EVENT_RECORDED_STATUS_NOT_READY;
		int rc = e->api.aclrtQueryEventStatus(e->ring[*done % RING], &st);
		if (rc)
			return stream_failed(e, rc);
		if (st == HCCL_EVENT_RECORDED_STATUS_COMPLETE) {
			++*done;
			step(e);
			continue;
		}
		if (++polls % POLL_SYNC) {
			struct timespec ts = { 0, POLL_US * 1000 };
			nanosleep(&ts, NULL);
			continue;
		}
		rc = e->api.aclrtSynchronizeStreamWithTimeout(e->stream, 1);
		if (rc == 0)
			continue; /* everything queued is done: the events say so now */
		if (!is_timeout(rc))
			return stream_failed(e, rc);
		if (__atomic_load_n(&e->abandon, __ATOMIC_ACQUIRE))
			return failed(e, (enum call)e->call, HCCL_ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, 1,
				      -1);
	}
	return 0;
}

/* A device lookup that cannot succeed: aclrtSetDevice's own code, with why. */
__attribute__((format(printf, 2, 3))) static int no_device(struct hccl_engine *e,
							   const char *fmt, ...)
{
	va_list ap;
	failed(e, C_SET_DEVICE, HCCL_ACL_ERROR_RT_INVALID_DEVICEID, 1, -1);
	va_start(ap, fmt);
	vsnprintf(e->detail, sizeof(e->detail), fmt, ap);
	va_end(ap);
	return -1;
}

/* A rank table's device_id is the NPU's physical id, and HCCL checks it against the physical
 * id of the current device; aclrtSetDevice takes a logical id, which differs where only some
 * NPUs are visible (a container given NPUs 4-7 sees them as 0-3). The logical id whose
 * physical id is the table's: asked of the runtime where it can say, else the position in
 * the visible-devices list, else the same number. Without a table the id is the local rank,
 * already logical. */
static int map_device(struct hccl_engine *e)
{
	static const char *const envs[] = { "ASCEND_RT_VISIBLE_DEVICES", "ASCEND_VISIBLE_DEVICES" };
	int phys = e->device;
	uint32_t n = 0, asked = 0;

	e->logical = phys;
	if (!e->table)
		return 0;
	if (e->api.aclrtGetPhyDevIdByLogicDevId && !e->api.aclrtGetDeviceCount(&n)) {
		for (; asked < n; asked++) {
			int32_t p = -1;
			if (e->api.aclrtGetPhyDevIdByLogicDevId((int32_t)asked, &p))
				break;
			if (p != phys)
				continue;
			e->logical = (int)asked;
			snprintf(e->devnote, sizeof(e->devnote), "the rank table's device %d is "
				 "logical device %u (aclrtGetPhyDevIdByLogicDevId)", phys, asked);
			return 0;
		}
		if (asked == n)
			return no_device(e, "the rank table's device %d is none of the %u NPUs this "
					    "process sees (aclrtGetPhyDevIdByLogicDevId); "
					    "ASCEND_RT_VISIBLE_DEVICES or the container's "
					    "ASCEND_VISIBLE_DEVICES leave it out", phys, n);
	}
	for (size_t i = 0; i < sizeof(envs) / sizeof(envs[0]); i++) {
		const char *v = getenv(envs[i]);
		if (!v || !*v)
			continue;
		int at = hccl_visible_position(v, phys);
		if (at == -2)
			return no_device(e, "%s=%.100s is not a list of device ids", envs[i], v);
		if (at < 0)
			return no_device(e, "the rank table's device %d is not in %s=%.100s", phys,
					 envs[i], v);
		e->logical = at;
		snprintf(e->devnote, sizeof(e->devnote), "the rank table's device %d is logical "
			 "device %d (its place in %s=%.100s)", phys, at, envs[i], v);
		return 0;
	}
	snprintf(e->devnote, sizeof(e->devnote), "the rank table's device %d, as the logical id "
		 "(no aclrtGetPhyDevIdByLogicDevId%s, no visible-devices list)", phys,
		 e->api.aclrtGetPhyDevIdByLogicDevId ? " answer" : "");
	return 0;
}

static int job_setup(struct hccl_engine *e, struct job *j)
{
	(void)j;
	CALL(e, C_ACL_INIT, 1, e->api.aclInit(NULL));
	if (map_device(e))
		return -1;
	CALL(e, C_SET_DEVICE, 1, e->api.aclrtSetDevice(e->logical));
	CALL(e, C_CREATE_STREAM, 1, e->api.aclrtCreateStream(&e->stream));
	CALL(e, C_CREATE_EVENT, 1, e->api.aclrtCreateEvent(&e->t0));
	CALL(e, C_CREATE_EVENT, 1, e->api.aclrtCreateEvent(&e->t1));
	for (e->nevents = 0; e->nevents < RING; e->nevents++)
		CALL(e, C_CREATE_EVENT, 1, e->api.aclrtCreateEvent(&e->ring[e->nevents]));
	return 0;
}

static int job_root_info(struct hccl_engine *e, struct job *j)
{
	if (e->rank == 0)
		CALL(e, C_GET_ROOT_INFO, 0, e->api.HcclGetRootInfo(j->root));
	else
		step(e); /* every rank counts the same steps, or the judgement would blame rank 1.. */
	return 0;
}

static int job_init(struct hccl_engine *e, struct job *j)
{
	uint32_t n = 0, r = 0;
	if (e->table)
		CALL(e, C_INIT_CLUSTER_INFO, 0,
		     e->api.HcclCommInitClusterInfo(e->table, (uint32_t)e->rank, &e->comm));
	else
		CALL(e, C_INIT_ROOT_INFO, 0,
		     e->api.HcclCommInitRootInfo((uint32_t)e->n, j->root, (uint32_t)e->rank,
						 &e->comm));
	CALL(e, C_GET_RANK, 0, e->api.HcclGetRankId(e->comm, &r));
	CALL(e, C_GET_RANK, 0, e->api.HcclGetRankSize(e->comm, &n));
	if (r != (uint32_t)e->rank || n != (uint32_t)e->n) {
		failed(e, C_GET_RANK, 1, 0, -1);
		snprintf(e->detail, sizeof(e->detail),
			 "HCCL made this process rank %u of %u, hcclctl rank %d of %d", r, n, e->rank,
			 e->n);
	}
	return r != (uint32_t)e->rank || n != (uint32_t)e->n ? -1 : 0;
}

static int job_reserve(struct hccl_engine *e, struct job *j)
{
	if (e->dsend)
		e->api.aclrtFree(e->dsend);
	if (e->drecv)
		e->api.aclrtFree(e->drecv);
	e->dsend = e->drecv = NULL;
	CALL(e, C_MALLOC, 1, e->api.aclrtMalloc(&e->dsend, j->bytes, HCCL_MEM_MALLOC_HUGE_FIRST));
	CALL(e, C_MALLOC, 1, e->api.aclrtMalloc(&e->drecv, j->bytes, HCCL_MEM_MALLOC_HUGE_FIRST));
	e->dbytes = j->bytes;
	return 0;
}

/* Queues one iteration of p's collective (sendrecv: the ring of runrank.c, even ranks
 * sending first, so the chain never waits on itself). */
static int enqueue(struct hccl_engine *e, const struct run_params *p, size_t count)
{
	struct hccl_api *a = &e->api;
	int t = hccl_dtype_of(p->dtype), op = hccl_op_of(p->op);
	int next = (e->rank + 1) % e->n, prev = (e->rank + e->n - 1) % e->n;
	switch (p->coll) {
	case COMM_COLL_ALLREDUCE:
		CALL(e, C_ALLREDUCE, 0,
		     a->HcclAllReduce(e->dsend, e->drecv, count, t, op, e->comm, e->stream));
		break;
	case COMM_COLL_ALLGATHER:
		CALL(e, C_ALLGATHER, 0,
		     a->HcclAllGather(e->dsend, e->drecv, count, t, e->comm, e->stream));
		break;
	case COMM_COLL_REDUCESCATTER:
		CALL(e, C_REDUCESCATTER, 0,
		     a->HcclReduceScatter(e->dsend, e->drecv, count, t, op, e->comm, e->stream));
		break;
	case COMM_COLL_BROADCAST:
		CALL(e, C_BROADCAST, 0,
		     a->HcclBroadcast(e->drecv, count, t, (uint32_t)p->root, e->comm, e->stream));
		break;
	case COMM_COLL_ALLTOALL:
		CALL(e, C_ALLTOALL, 0,
		     a->HcclAlltoAll(e->dsend, count, t, e->drecv, count, t, e->comm, e->stream));
		break;
	case COMM_COLL_SEND:
	case COMM_COLL_RECV:
		if (e->n == 1) {
			size_t bytes = count * comm_dtype_size(p->dtype);
			CALL(e, C_MEMCPY, 1,
			     a->aclrtMemcpy(e->drecv, e->dbytes, e->dsend, bytes,
					    HCCL_MEMCPY_DEVICE_TO_DEVICE));
		} else if (e->rank % 2 == 0) {
			CALL(e, C_SEND, 0,
			     a->HcclSend(e->dsend, count, t, (uint32_t)next, e->comm, e->stream));
			CALL(e, C_RECV, 0,
			     a->HcclRecv(e->drecv, count, t, (uint32_t)prev, e->comm, e->stream));
		} else {
			CALL(e, C_RECV, 0,
			     a->HcclRecv(e->drecv, count, t, (uint32_t)prev, e->comm, e->stream));
			CALL(e, C_SEND, 0,
			     a->HcclSend(e->dsend, count, t, (uint32_t)next, e->comm, e->stream));
		}
		break;
	case COMM_COLL_BARRIER:
		CALL(e, C_BARRIER, 0, a->HcclBarrier(e->comm, e->stream));
		break;
	default:
		return failed(e, C_NONE, 1, 0, -1);
	}
	return 0;
}

static size_t out_elems(enum comm_coll coll, size_t count, int n)
{
	return coll == COMM_COLL_ALLGATHER || coll == COMM_COLL_ALLTOALL ? count * (size_t)n :
	       coll == COMM_COLL_BARRIER				    ? 0 :
									      count;
}

static size_t in_elems(enum comm_coll coll, size_t count, int n)
{
	return coll == COMM_COLL_REDUCESCATTER || coll == COMM_COLL_ALLTOALL ? count * (size_t)n :
	       coll == COMM_COLL_BARRIER || coll == COMM_COLL_BROADCAST	     ? 0 :
										       count;
}

static int job_run(struct hccl_engine *e, struct job *j)
{
	const struct run_params *p = j->p;
	size_t ts = comm_dtype_size(p->dtype);
	size_t inb = in_elems(p->coll, j->count, e->n) * ts;
	size_t outb = out_elems(p->coll, j->count, e->n) * ts;
	long done = 0;
	struct hccl_api *a = &e->api;

	if ((j->flags & RUN_IN) && inb)
		CALL(e, C_MEMCPY, 1,
		     a->aclrtMemcpy(e->dsend, e->dbytes, j->b->send, inb, HCCL_MEMCPY_HOST_TO_DEVICE));
	if ((j->flags & RUN_IN) && p->coll == COMM_COLL_BROADCAST && outb)
		CALL(e, C_MEMCPY, 1,
		     a->aclrtMemcpy(e->drecv, e->dbytes, j->b->recv, outb,
				    HCCL_MEMCPY_HOST_TO_DEVICE));
	int rc = j->us ? a->aclrtRecordEvent(e->t0, e->stream) : 0;
	if (rc)
		return failed(e, C_ELAPSED, rc, 1, -1);
	for (long it = 0; it < j->iters; it++) {
		if (it >= RING && wait_done(e, &done, it - RING + 1))
			return -1;
		if (enqueue(e, p, j->count))
			return -1;
		rc = a->aclrtRecordEvent(e->ring[it % RING], e->stream);
		if (rc)
			return failed(e, C_ELAPSED, rc, 1, -1);
	}
	/* the wait is in the collective, as the progress records say */
	if (j->us && (rc = a->aclrtRecordEvent(e->t1, e->stream)))
		return failed(e, C_ELAPSED, rc, 1, -1);
	if (wait_done(e, &done, j->iters))
		return -1;
	if (j->us) {
		float ms = 0;
		rc = e->api.aclrtSynchronizeEvent(e->t1);
		if (!rc)
			rc = a->aclrtEventElapsedTime(&ms, e->t0, e->t1);
		if (rc)
			return failed(e, C_ELAPSED, rc, 1, -1);
		j->us = 1e3 * (double)ms / (double)(j->iters > 0 ? j->iters : 1);
	}
	if ((j->flags & RUN_OUT) && outb)
		CALL(e, C_MEMCPY, 1,
		     a->aclrtMemcpy(j->b->recv, outb, e->drecv, outb, HCCL_MEMCPY_DEVICE_TO_HOST));
	enter(e, C_NONE);
	return 0;
}

static int job_teardown(struct hccl_engine *e, struct job *j)
{
	(void)j;
	if (e->comm)
		CALL(e, C_DESTROY, 0, e->api.HcclCommDestroy(e->comm));
	e->comm = NULL;
	if (e->dsend)
		e->api.aclrtFree(e->dsend);
	if (e->drecv)
		e->api.aclrtFree(e->drecv);
	for (int i = 0; i < e->nevents; i++)
		e->api.aclrtDestroyEvent(e->ring[i]);
	if (e->t0)
		e->api.aclrtDestroyEvent(e->t0);
	if (e->t1)
		e->api.aclrtDestroyEvent(e->t1);
	if (e->stream)
		e->api.aclrtDestroyStream(e->stream);
	e->api.aclrtResetDevice(e->logical);
	e->api.aclFinalize();
	return 0;
}

static void *worker(void *arg)
{
	struct hccl_engine *e = arg;
	pthread_mutex_lock(&e->mu);
	for (;;) {
		while (!e->pending && !e->quit)
			pthread_cond_wait(&e->cv, &e->mu);
		if (e->quit)
			break;
		e->pending = 0;
		pthread_mutex_unlock(&e->mu);
		int rc = e->fn(e, e->job);
		pthread_mutex_lock(&e->mu);
		e->result = rc;
		e->finished = 1;
		pthread_cond_broadcast(&e->cv);
	}
	pthread_mutex_unlock(&e->mu);
	return NULL;
}

/* ---- the main thread's side: a job, and the rounds while it runs ---- */

static void name_rank(const struct hccl_engine *e, int r, char *out, size_t len)
{
	snprintf(out, len, "rank %d (server %s, device %d)", r, e->peers[r].server,
		 e->peers[r].device);
}

static void verdict_init(struct comm_verdict *v, int kind, int coll)
{
	*v = (struct comm_verdict){ .kind = kind, .rank = -1, .link_from = -1, .link_to = -1,
				    .coll = coll, .step = -1, .waiter = -1, .peer = -1 };
}

static int coll_of(int64_t call)
{
	static const int map[C_COUNT] = {
		[C_ALLREDUCE] = COMM_COLL_ALLREDUCE, [C_ALLGATHER] = COMM_COLL_ALLGATHER,
		[C_REDUCESCATTER] = COMM_COLL_REDUCESCATTER, [C_BROADCAST] = COMM_COLL_BROADCAST,
		[C_ALLTOALL] = COMM_COLL_ALLTOALL, [C_SEND] = COMM_COLL_SEND,
		[C_RECV] = COMM_COLL_RECV, [C_BARRIER] = COMM_COLL_BARRIER,
	};
	return call >= C_ALLREDUCE && call <= C_BARRIER ? map[call] : -1;
}

static const char *call_name(int64_t c)
{
	return c >= 0 && c < C_COUNT ? call_names[c] : "?";
}

/* The verdict's message, cut to its size. */
__attribute__((format(printf, 2, 3))) static void set_msg(struct comm_verdict *v,
							 const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(v->msg, sizeof(v->msg), fmt, ap);
	va_end(ap);
}

/* The verdict on failed ranks, from their records alone, so every rank words it alike. */
static void verdict_failed(struct hccl_engine *e, const struct hccl_progress *all,
			   const int *cul, int nc)
{
	const struct hccl_progress *f = &all[cul[0]];
	char who[300], what[700];
	name_rank(e, cul[0], who, sizeof(who));
	const char *an = hccl_acl_error_name((int)f->code);
	if (!f->acl)
		snprintf(what, sizeof(what), "%s returned %s (%lld): %s", call_name(f->call),
			 hccl_result_name((int)f->code), (long long)f->code,
			 e->api.HcclGetErrorString((int)f->code));
	else if (f->async == 0) /* HCCL recorded nothing: the stream's code is all there is */
		snprintf(what, sizeof(what), "%s failed on the device: the stream wait returned "
			 "%lld (%s)", call_name(f->call), (long long)f->code, an ? an : "aclError");
	else if (f->async > 0)
		snprintf(what, sizeof(what),
			 "%s failed on the device: the stream wait returned %lld (%s); "
			 "HcclGetCommAsyncError: %s (%lld): %s",
			 call_name(f->call), (long long)f->code, an ? an : "aclError",
			 hccl_result_name((int)f->async), (long long)f->async,
			 e->api.HcclGetErrorString((int)f->async));
	else
		snprintf(what, sizeof(what), "%s returned aclError %lld%s%s%s", call_name(f->call),
			 (long long)f->code, an ? " (" : "", an ? an : "", an ? ")" : "");
	verdict_init(&e->v, RUN_VERDICT_HCCL_ERROR, coll_of(f->call));
	e->v.rank = cul[0];
	e->v.seq = (uint32_t)f->steps;
	snprintf(e->v.host, sizeof(e->v.host), "%s", e->peers[cul[0]].server);
	char more[200] = "";
	for (int i = 1, at = 0; i < nc && at < (int)sizeof(more) - 16; i++)
		at += snprintf(more + at, sizeof(more) - (size_t)at, "%s%d",
			       i > 1 ? ", " : nc == 2 ? "; also failed: rank " : "; also failed: ranks ",
			       cul[i]);
	set_msg(&e->v, "%s: %s%s; its plog: %s", who, what, more, e->peers[cul[0]].plog);
}

static void verdict_stall(struct hccl_engine *e, const struct hccl_progress *all, int k,
			  const int *cul, int nc)
{
	const struct hccl_progress *f = &all[cul[0]];
	char who[600] = "", others[200] = "";
	int ndone = 0, nfailed = 0, first = -1;
	for (int r = 0; r < e->n; r++) {
		ndone += all[r].state == HCCL_RANK_DONE;
		if (all[r].state == HCCL_RANK_FAILED && !nfailed++)
			first = r;
	}
	if (nfailed) { /* HCCL's own timeout (or a broken link) ended their wait */
		const char *an = all[first].acl ? hacl_name(all[first].code) : NULL;
		snprintf(others, sizeof(others), "%d other rank%s gave up waiting on it (rank %d: %s "
			 "%lld)", nfailed, plural_s(nfailed), first,
			 an ? an : all[first].acl ? "aclError" : hccl_result_name((int)all[first].code),
			 (long long)all[first].code);
	}
	verdict_init(&e->v, COMM_VERDICT_STUCK_RANK, coll_of(f->call));
	e->v.seq = (uint32_t)f->steps;
	e->v.after_ms = (uint32_t)f->idle_ms;
	if (k == HCCL_JUDGE_ALL_STUCK) {
		char plogs[300] = "";
		for (int r = 0, at = 0; r < e->n && at < (int)sizeof(plogs) - 40; r++)
			if (!r || strcmp(e->peers[r].plog, e->peers[0].plog))
				at += snprintf(plogs + at, sizeof(plogs) - (size_t)at, "%srank %d: %s",
					       at ? ", " : "", r, e->peers[r].plog);
		set_msg(&e->v,
			 "every rank is stuck in %s, none behind the others, no progress for "
			 "%.1f s: HCCL waits on something below its calls (a device, a link, a "
			 "peer's NIC); its plogs name it (%s)",
			 call_name(f->call), (double)f->idle_ms / 1e3, plogs);
		return;
	}
	e->v.rank = cul[0];
	snprintf(e->v.host, sizeof(e->v.host), "%s", e->peers[cul[0]].server);
	for (int i = 0, at = 0; i < nc && at < (int)sizeof(who) - 200; i++) {
		char one[300];
		name_rank(e, cul[i], one, sizeof(one));
		at += snprintf(who + at, sizeof(who) - (size_t)at, "%s%s", i ? ", " : "", one);
	}
	set_msg(&e->v,
		 "%s stuck in %s: no progress for %.1f s while %s; its plog: %s", who,
		 call_name(f->call), (double)f->idle_ms / 1e3,
		 nfailed ? others :
		 ndone	 ? "the other ranks finished the call" :
			   "the other ranks got further and wait on it",
		 e->peers[cul[0]].plog);
}

/* Runs fn on the worker and takes part in the progress rounds until every rank's job is
 * done, one failed, or a stall is judged. 0, a comm_status, or RUN_E_ENGINE. */
static int dispatch(struct hccl_engine *e, struct comm *c,
		    int (*fn)(struct hccl_engine *, struct job *), struct job *j)
{
	struct hccl_progress mine, *all = calloc((size_t)e->n, sizeof(*all));
	int *cul = calloc((size_t)e->n, sizeof(*cul)), nc, was_done = 0;
	int rc = 0;

	if (!all || !cul) {
		free(all);
		free(cul);
		snprintf(e->err, sizeof(e->err), "out of memory");
		return COMM_E_NOMEM;
	}
	pthread_mutex_lock(&e->mu);
	e->fn = fn;
	e->job = j;
	e->finished = 0;
	e->pending = 1;
	pthread_cond_broadcast(&e->cv);
	pthread_mutex_unlock(&e->mu);
	for (;;) {
		pthread_mutex_lock(&e->mu);
		if (!was_done) {
			struct timespec dl;
			clock_gettime(CLOCK_REALTIME, &dl);
			dl.tv_nsec += SLICE_MS * 1000000L;
			dl.tv_sec += dl.tv_nsec / 1000000000L;
			dl.tv_nsec %= 1000000000L;
			while (!e->finished &&
			       pthread_cond_timedwait(&e->cv, &e->mu, &dl) != ETIMEDOUT)
				;
		}
		int fin = e->finished, res = e->result;
		pthread_mutex_unlock(&e->mu);
		if (was_done)
			usleep(SLICE_MS * 1000);
		int64_t t = mono_ms();
		mine = (struct hccl_progress){
			.state = !fin ? HCCL_RANK_BUSY : res ? HCCL_RANK_FAILED : HCCL_RANK_DONE,
			.steps = __atomic_load_n(&e->steps, __ATOMIC_ACQUIRE),
			.call = fin && res ? e->fail_call :
					     __atomic_load_n(&e->call, __ATOMIC_ACQUIRE),
			.in_call_ms = t - __atomic_load_n(&e->call_t0, __ATOMIC_RELAXED),
			.idle_ms = t - __atomic_load_n(&e->step_t0, __ATOMIC_RELAXED),
			.code = fin && res ? e->fail_code : 0,
			.acl = fin && res ? e->fail_acl : 0,
			.async = fin && res ? e->fail_async : -1,
			.failed_ms = fin && res ? t - e->fail_t : 0,
		};
		was_done = fin && !res;
		rc = comm_allgather(c, &mine, all, HCCL_PROGRESS_WORDS, COMM_INT64);
		if (rc) {
			snprintf(e->err, sizeof(e->err), "%s", comm_last_error(c));
			break;
		}
		memcpy(e->last, all, (size_t)e->n * sizeof(*all));
		int k = hccl_judge(all, e->n, e->stall_ms, cul, &nc);
		if (k == HCCL_JUDGE_WAIT)
			continue;
		if (k == HCCL_JUDGE_DONE)
			break;
		__atomic_store_n(&e->abandon, 1, __ATOMIC_RELEASE);
		if (k == HCCL_JUDGE_FAILED) {
			verdict_failed(e, all, cul, nc);
		} else {
			verdict_stall(e, all, k, cul, nc);
		}
		/* the verdict says it for every rank; a failed rank's own line adds what only
		 * it knows, ACL's last message */
		if (fin && res && *e->detail)
			snprintf(e->err, sizeof(e->err), "rank %d (server %s, device %d): %s: %s",
				 e->rank, e->peers[e->rank].server, e->device,
				 call_name(e->fail_call), e->detail);
		rc = RUN_E_ENGINE;
		break;
	}
	free(all);
	free(cul);
	if (rc) { /* the worker may be inside HCCL for good: never wait on it again */
		__atomic_store_n(&e->abandon, 1, __ATOMIC_RELEASE);
		e->broken = 1;
	}
	return rc;
}

static int engine_reserve(struct run_engine *base, size_t bytes)
{
	struct hccl_engine *e = (struct hccl_engine *)base;
	struct job j = { .bytes = bytes ? bytes : 1 };
	return dispatch(e, e->side, job_reserve, &j);
}

static int engine_run(struct run_engine *base, struct comm *c, const struct run_params *p,
		      struct run_bufs *b, size_t count, long iters, unsigned flags, double *us)
{
	struct hccl_engine *e = (struct hccl_engine *)base;
	struct job j = { .p = p, .b = b, .count = count, .iters = iters, .flags = flags,
			 .us = us ? 1 : 0 };
	int rc = dispatch(e, c, job_run, &j);
	if (!rc && us)
		*us = j.us;
	return rc;
}

/* ---- opening and closing ---- */

static int64_t stall_ms(void)
{
	const char *v = getenv("HCCLCTL_HCCL_STALL");
	char *end;
	double s = v && *v ? strtod(v, &end) : 0;
	if (!v || !*v || *end || s < 0.2 || s > 86400)
		return STALL_DEFAULT_MS;
	return (int64_t)(s * 1000);
}

void run_hccl_plog_dir(char *out, size_t len)
{
	const char *d = getenv("ASCEND_PROCESS_LOG_PATH"), *home = getenv("HOME");
	if (d && *d) {
		snprintf(out, len, "%s", d);
		return;
	}
	if (!home || !*home) {
		struct passwd *pw = getpwuid(getuid());
		home = pw ? pw->pw_dir : "/root";
	}
	snprintf(out, len, "%s/ascend/log", home);
}

static int table_load(const char *path, struct rt_table *t, char *err, size_t errlen)
{
	struct rt_diags d = { 0 };
	char *buf = NULL;
	size_t n = 0;
	int rc = rt_read_file(path, 64UL << 20, &buf, &n, err, errlen);
	if (rc)
		return rc;
	rc = rt_table_load(t, path, buf, n, &d, err, errlen);
	free(buf);
	rt_diags_release(&d);
	return rc;
}

int run_hccl_table_ranks(const char *path, size_t *nranks, char *err, size_t errlen)
{
	struct rt_table t = { 0 };
	int rc = table_load(path, &t, err, errlen);
	if (rc)
		return rc;
	*nranks = t.nranks;
	rt_table_release(&t);
	return 0;
}

int run_hccl_table_entry(const char *path, int rank, int *device, char *server, size_t len,
			 char *err, size_t errlen)
{
	struct rt_table t = { 0 };
	int rc = table_load(path, &t, err, errlen);
	if (rc)
		return rc;
	rc = -ENOENT;
	snprintf(err, errlen, "%s has no rank %d", path, rank);
	for (size_t i = 0; i < t.nranks; i++)
		if (t.ranks[i].rank_id == rank) {
			*device = t.ranks[i].device_id >= 0 ? (int)t.ranks[i].device_id : rank;
			snprintf(server, len, "%s", t.ranks[i].server_id ? t.ranks[i].server_id :
					    t.ranks[i].host_ip ? t.ranks[i].host_ip : "?");
			rc = 0;
			break;
		}
	rt_table_release(&t);
	return rc;
}

/* The launchers' local-rank variables, the innermost launcher's first: torchrun under srun
 * has both LOCAL_RANK and SLURM_LOCALID, and only its own differs between its workers. */
static const char *const local_envs[] = {
	"LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "PMI_LOCAL_RANK",
	"SLURM_LOCALID",
};

/* This process's local rank from its launcher, naming the variable; -1 when none is set. */
static int env_local_rank(const char **name)
{
	for (size_t i = 0; i < sizeof(local_envs) / sizeof(local_envs[0]); i++) {
		const char *v = getenv(local_envs[i]);
		if (v && *v && strlen(v) < 6 && strspn(v, "0123456789") == strlen(v)) {
			*name = local_envs[i];
			return atoi(v);
		}
	}
	return -1;
}

/* A rank whose launcher gave no local rank: the ranks before it on its server. */
static int count_local(const struct hccl_engine *e, int r)
{
	int k = 0;
	for (int q = 0; q < r; q++)
		k += !strcmp(e->peers[q].server, e->peers[r].server);
	return k;
}

/* HCCL's own execution timeout fails the healthy ranks' streams when a peer stalls; below
 * the stall limit it acts first, and what the verdict then has is their timeouts. */
static void warn_exec_timeout(const struct hccl_engine *e)
{
	const char *v = getenv("HCCL_EXEC_TIMEOUT");
	char *end;
	long t = v && *v ? strtol(v, &end, 10) : 0;
	if (!v || !*v || *end || t <= 0 || t > INT32_MAX || t * 1000 >= e->stall_ms)
		return;
	warn_msg(e->where, "HCCL_EXEC_TIMEOUT=%ld s is below the stall limit (HCCLCTL_HCCL_STALL, "
			   "%.1f s): a stalled rank's peers fail with HCCL's timeout first, and the "
			   "verdict names the rank they waited on from that",
		 t, (double)e->stall_ms / 1e3);
}

int run_hccl_open(struct run_engine **out, struct comm *c, const struct run_hccl_args *a)
{
	struct hccl_engine *e = calloc(1, sizeof(*e));
	int rc;

	*out = NULL;
	if (!e)
		return COMM_E_NOMEM;
	e->base.name = "hccl";
	e->base.reserve = engine_reserve;
	e->base.run = engine_run;
	e->api = *a->api;
	e->rank = comm_rank(c);
	e->n = comm_size(c);
	e->device = a->device;
	e->where = a->where ? a->where : "run";
	e->table = a->table;
	e->side = c;
	e->stall_ms = stall_ms();
	e->call_t0 = e->step_t0 = mono_ms();
	pthread_mutex_init(&e->mu, NULL);
	pthread_cond_init(&e->cv, NULL);
	*out = &e->base;
	e->peers = calloc((size_t)e->n, sizeof(*e->peers));
	e->last = calloc((size_t)e->n, sizeof(*e->last));
	if (!e->peers || !e->last) {
		snprintf(e->err, sizeof(e->err), "out of memory");
		return COMM_E_NOMEM;
	}
	if (pthread_create(&e->th, NULL, worker, e)) {
		snprintf(e->err, sizeof(e->err), "cannot start the HCCL thread");
		return COMM_E_SYS;
	}
	e->th_up = 1;
	const char *lr = NULL;
	struct peer me = { .device = a->table ? a->device : env_local_rank(&lr) };
	snprintf(me.server, sizeof(me.server), "%s", a->server);
	run_hccl_plog_dir(me.plog, sizeof(me.plog));
	rc = comm_allgather(c, &me, e->peers, sizeof(me), COMM_INT8);
	if (rc) {
		snprintf(e->err, sizeof(e->err), "%s", comm_last_error(c));
		return rc;
	}
	for (int r = 0; r < e->n; r++)
		if (e->peers[r].device < 0)
			e->peers[r].device = count_local(e, r);
	e->device = e->peers[e->rank].device;
	if (!a->table && lr)
		snprintf(e->devnote, sizeof(e->devnote), "device %d (%s)", e->device, lr);
	else if (!a->table)
		snprintf(e->devnote, sizeof(e->devnote), "device %d (no launcher's local rank: "
			 "%d rank%s before it on %s)", e->device, e->device, plural_s(e->device),
			 me.server);
	if (e->rank == 0)
		warn_exec_timeout(e);
	char root[HCCL_ROOT_INFO_SIZE] = { 0 };
	struct job j = { .root = root };
	rc = dispatch(e, c, job_setup, &j);
	if (!rc && g_opts.verbose)
		fprintf(stderr, "hcclctl: %s: rank %d: %s\n", e->where, e->rank, e->devnote);
	if (!rc && !e->table) {
		/* rank 0's root info reaches the others over the side channel */
		rc = dispatch(e, c, job_root_info, &j);
		if (!rc && (rc = comm_broadcast(c, root, sizeof(root), COMM_INT8, 0)))
			snprintf(e->err, sizeof(e->err), "%s", comm_last_error(c));
	}
	if (!rc)
		rc = dispatch(e, c, job_init, &j);
	return rc;
}

void run_hccl_where(const struct run_engine *base, int rank, char *out, size_t len)
{
	const struct hccl_engine *e = (const struct hccl_engine *)base;
	if (rank < 0 || rank >= e->n || !e->peers)
		return;
	const struct peer *p = &e->peers[rank];
	const char *call = e->last ? call_name(e->last[rank].call) : NULL;
	snprintf(out, len, "; rank %d was on device %d of %s%s%s; its plog: %s", rank, p->device,
		 p->server, call && e->last[rank].call != C_NONE ? ", in " : "",
		 call && e->last[rank].call != C_NONE ? call : "", p->plog);
}

const char *run_hccl_error(const struct run_engine *base)
{
	return ((const struct hccl_engine *)base)->err;
}

int run_hccl_verdict(const struct run_engine *base, struct comm_verdict *v)
{
	const struct hccl_engine *e = (const struct hccl_engine *)base;
	if (e->v.kind == COMM_VERDICT_NONE)
		return 0;
	*v = e->v;
	return 1;
}

int run_hccl_stalled(const struct run_engine *base)
{
	const struct hccl_engine *e = (const struct hccl_engine *)base;
	return e->broken;
}

void run_hccl_close(struct run_engine *base, struct comm *c)
{
	struct hccl_engine *e = (struct hccl_engine *)base;
	if (!e)
		return;
	/* after a verdict the worker may never come back from HCCL: it and the device's
	 * resources are left to the process's exit */
	if (e->th_up && !e->broken) {
		struct job j = { 0 };
		if (c && dispatch(e, c, job_teardown, &j))
			return;
		pthread_mutex_lock(&e->mu);
		e->quit = 1;
		pthread_cond_broadcast(&e->cv);
		pthread_mutex_unlock(&e->mu);
		pthread_join(e->th, NULL);
		pthread_mutex_destroy(&e->mu);
		pthread_cond_destroy(&e->cv);
		free(e->peers);
		free(e->last);
		free(e);
	}
}
