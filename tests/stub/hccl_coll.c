/* libhccl stand-in: the collectives. The host call checks its arguments as HCCL documents
 * them and queues the work on the stream (aclrtLaunchCallback); the stream's worker then
 * moves the data (stubhccl_exchange) and reduces it in rank order, so every rank gets the
 * same bits. A failure on the stream fails the stream's task (aclStubTaskFail) and is kept
 * for HcclGetCommAsyncError. The fault knobs act here, at the K-th call on a communicator. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/stub/hccl_internal.h"
#include "tests/stub/stub_log.h"

/* The runtime code the stand-in's failed HCCL task gives at stream synchronisation. Real
 * CANN reports a failed communication task under several codes depending on where it ran
 * (AICPU, FFTS+, SDMA); this is the AICPU one, where op-base HCCL tasks are launched. */
#define TASK_FAILED ACL_ERROR_RT_AICPU_EXCEPTION

enum { F_NONE, F_ASYNC, F_HANG_BEFORE, F_HANG_AFTER, F_CORRUPT };

struct task {
	struct stub_comm *c;
	int coll, dtype, op, is_send;
	uint32_t root; /* broadcast's root, or send/recv's peer */
	const void *send;
	void *recv;
	uint64_t count;
	int fault, code;
	unsigned call;
};

static void hang(const struct task *t)
{
	stub_log("call %u (%s) on rank %u: hanging (HCCL_STUB_HANG_RANK)", t->call,
		 stubhccl_coll_name(t->coll), t->c->rank);
	for (;;)
		pause();
}

static void exchange_all(struct stub_xfer *x, uint32_t n, uint32_t me, const char *send,
			 char *tmp, size_t bytes, int split)
{
	for (uint32_t p = 0; p < n; p++) {
		if (p == me)
			continue;
		x[p] = (struct stub_xfer){ .out = send + (split ? p * bytes : 0), .outlen = bytes,
					   .in = tmp + p * bytes, .inlen = bytes, .send = 1,
					   .recv = 1 };
	}
	memcpy(tmp + me * bytes, send + (split ? me * bytes : 0), bytes);
}

/* A buffer of at least len bytes: the communicator's kept one when no other collective of
 * it holds it (one stream per communicator is the rule, not a promise), else a new one. */
static char *scratch_get(struct stub_comm *c, size_t len)
{
	char *p = NULL;

	pthread_mutex_lock(&c->lock);
	if (!c->scratch_busy) {
		if (c->scratch_cap < len) {
			free(c->scratch);
			c->scratch_cap = 0;
			if ((c->scratch = malloc(len)))
				c->scratch_cap = len;
		}
		if ((p = c->scratch))
			c->scratch_busy = 1;
	}
	pthread_mutex_unlock(&c->lock);
	return p ? p : malloc(len);
}

static void scratch_put(struct stub_comm *c, char *p)
{
	pthread_mutex_lock(&c->lock);
	if (p && p == c->scratch)
		c->scratch_busy = 0;
	else
		free(p);
	pthread_mutex_unlock(&c->lock);
}

/* Runs the collective of t; its result count in *nres (for HCCL_STUB_CORRUPT_*). */
static HcclResult perform(struct task *t, size_t *nres, char *why, size_t whylen)
{
	struct stub_comm *c = t->c;
	uint32_t n = c->nranks, me = c->rank;
	size_t esz = stubhccl_dtype_size(t->dtype), bytes = (size_t)t->count * esz;
	struct stub_xfer *x = calloc(n, sizeof(*x));
	struct stub_hdr h = { .coll = (uint8_t)t->coll, .dtype = (uint8_t)t->dtype,
			      .count = t->count };
	char *tmp = NULL;
	HcclResult rc;

	*nres = 0;
	if (t->coll == STUB_ALLREDUCE || t->coll == STUB_REDUCESCATTER)
		h.op = (uint8_t)t->op;
	if (t->coll == STUB_BROADCAST)
		h.root = t->root;
	if (!x || (t->coll != STUB_SEND && t->coll != STUB_BROADCAST &&
		   !(tmp = scratch_get(c, n * bytes + 1)))) {
		free(x);
		snprintf(why, whylen, "rank %u: out of memory", me);
		return HCCL_E_MEMORY;
	}
	switch (t->coll) {
	case STUB_ALLREDUCE:
	case STUB_ALLGATHER:
	case STUB_REDUCESCATTER:
	case STUB_ALLTOALL:
		exchange_all(x, n, me, t->send, tmp, bytes,
			     t->coll == STUB_REDUCESCATTER || t->coll == STUB_ALLTOALL);
		break;
	case STUB_BROADCAST:
		for (uint32_t p = 0; p < n; p++)
			if (p != me && (me == t->root || p == t->root))
				x[p] = (struct stub_xfer){ .out = t->recv, .outlen = bytes,
							   .in = t->recv, .inlen = bytes,
							   .send = me == t->root, .recv = me != t->root };
		break;
	case STUB_SEND:
		x[t->root] = (struct stub_xfer){ .out = t->send, .outlen = bytes, .in = t->recv,
						 .inlen = bytes, .send = t->is_send,
						 .recv = !t->is_send };
		break;
	case STUB_BARRIER:
		for (uint32_t p = 0; p < n; p++)
			if (p != me)
				x[p] = (struct stub_xfer){ .send = 1, .recv = 1 };
		break;
	}
	rc = stubhccl_exchange(c, &h, x, why, whylen);
	if (rc == HCCL_SUCCESS) {
		switch (t->coll) {
		case STUB_ALLREDUCE:
		case STUB_REDUCESCATTER:
			/* In rank order on every rank: the same operands in the same order. */
			for (uint32_t p = 1; p < n; p++)
				stubhccl_reduce(t->dtype, t->op, tmp, tmp + p * bytes, t->count);
			memcpy(t->recv, tmp, bytes);
			*nres = t->count;
			break;
		case STUB_ALLGATHER:
		case STUB_ALLTOALL:
			memcpy(t->recv, tmp, n * bytes);
			*nres = n * t->count;
			break;
		case STUB_BROADCAST:
			*nres = t->count;
			break;
		case STUB_SEND:
			*nres = t->is_send ? 0 : t->count;
			break;
		}
	}
	scratch_put(c, tmp);
	free(x);
	return rc;
}

static void run(void *arg)
{
	struct task *t = arg;
	struct stub_comm *c = t->c;
	char why[STUB_WHYLEN] = "";
	HcclResult rc;
	size_t nres = 0;

	if (t->fault == F_ASYNC) {
		rc = (HcclResult)t->code;
		snprintf(why, sizeof(why), "HCCL_STUB_ERROR_RANK=%u HCCL_STUB_ERROR_ASYNC=1", c->rank);
	} else {
		if (t->fault == F_HANG_BEFORE)
			hang(t);
		rc = perform(t, &nres, why, sizeof(why));
	}
	if (rc) {
		/* HCCL_EXEC_TIMEOUT running out is the task's timeout on the device, 507048, with
		 * no async error of HCCL's own (as an independent stand-in written from the
		 * headers has it; to confirm on an NPU) */
		int timed_out = rc == HCCL_E_TIMEOUT && t->fault != F_ASYNC;
		pthread_mutex_lock(&c->lock);
		if (!c->async_error && !timed_out)
			c->async_error = rc;
		pthread_mutex_unlock(&c->lock);
		aclStubTaskFail(timed_out ? ACL_ERROR_RT_FFTS_PLUS_TIMEOUT : TASK_FAILED);
		stub_log("call %u (%s) on rank %u failed on the stream: %d (%s): %s", t->call,
			 stubhccl_coll_name(t->coll), c->rank, rc, HcclGetErrorString(rc), why);
	} else if (t->fault == F_CORRUPT && nres) {
		size_t i = (size_t)c->fault.corrupt_index < nres ? (size_t)c->fault.corrupt_index
								 : nres - 1;

		stubhccl_corrupt(t->dtype, t->recv, i);
		stub_log("call %u on rank %u: element %zu corrupted (HCCL_STUB_CORRUPT_RANK)", t->call,
			 c->rank, i);
	}
	if (rc == HCCL_SUCCESS && t->fault == F_HANG_AFTER)
		hang(t);
	stubhccl_comm_put(c);
	free(t);
}

/* Whether [p, p + bytes) is device memory: HCCL_E_PTR when p is NULL or host memory,
 * HCCL_E_PARA when the allocation is shorter than the operation needs. */
static HcclResult check_buf(const void *p, size_t bytes)
{
	aclrtPtrAttributes a;
	void *base;
	size_t size;

	if (!p)
		return HCCL_E_PTR;
	if (bytes == 0)
		return HCCL_SUCCESS;
	if (aclrtPointerGetAttributes(p, &a) != ACL_SUCCESS ||
	    a.location.type != ACL_MEM_LOCATION_TYPE_DEVICE)
		return HCCL_E_PTR;
	if (aclrtMemGetAddressRange((void *)(uintptr_t)p, &base, &size) != ACL_SUCCESS ||
	    (uintptr_t)p - (uintptr_t)base + bytes > size)
		return HCCL_E_PARA;
	return HCCL_SUCCESS;
}

/* The host side of every collective. sendn and recvn: the elements send and recv hold. */
static HcclResult submit(const char *fn, HcclComm comm, aclrtStream stream, struct task *proto,
			 uint64_t sendn, uint64_t recvn)
{
	struct stub_comm *c;
	struct task *t;
	size_t esz;
	HcclResult rc;
	const char *why = "";

	if ((rc = stubhccl_comm_get(comm, &c)))
		return rc;
	esz = stubhccl_dtype_size(proto->dtype);
	if (!stream) {
		rc = HCCL_E_PTR, why = "stream is NULL";
	} else if ((rc = stubhccl_check_types(proto->coll, proto->dtype, proto->op))) {
		why = rc == HCCL_E_PARA ? "unknown data type or reduce op"
					: "data type or op not supported for this collective";
	} else if (proto->count > ((uint64_t)1 << 40) / (esz * c->nranks)) {
		rc = HCCL_E_PARA, why = "count too large";
	} else if ((proto->coll == STUB_BROADCAST || proto->coll == STUB_SEND) &&
		   (proto->root >= c->nranks || (proto->coll == STUB_SEND && proto->root == c->rank))) {
		rc = HCCL_E_PARA, why = proto->coll == STUB_SEND ? "peer rank out of range or self"
								  : "root out of range";
	} else if (proto->coll != STUB_BARRIER &&
		   (((proto->coll != STUB_SEND || proto->is_send) &&
		     (rc = check_buf(proto->send, (size_t)(sendn * esz)))) ||
		    ((proto->coll != STUB_SEND || !proto->is_send) &&
		     (rc = check_buf(proto->recv, (size_t)(recvn * esz)))))) {
		why = rc == HCCL_E_PTR ? "a buffer is NULL or not device memory (aclrtMalloc)"
				       : "a buffer is shorter than count needs";
	} else if (proto->coll == STUB_ALLTOALL && proto->count &&
		   (const char *)proto->send < (const char *)proto->recv + recvn * esz &&
		   (const char *)proto->recv < (const char *)proto->send + sendn * esz) {
		rc = HCCL_E_PARA, why = "sendBuf and recvBuf overlap";
	}
	if (rc || (proto->count == 0 && proto->coll != STUB_BARRIER)) {
		stub_log("%s(count %llu, %s) = %d%s%s", fn, (unsigned long long)proto->count,
			 stubhccl_dtype_name(proto->dtype), rc, *why ? ": " : "", why);
		stubhccl_comm_put(c);
		return rc;
	}
	pthread_mutex_lock(&c->lock);
	proto->call = ++c->ncalls;
	pthread_mutex_unlock(&c->lock);
	if (c->fault.at == (long)proto->call) {
		if (c->fault.error_rank == (long)c->rank && !c->fault.error_async) {
			rc = (HcclResult)c->fault.error_code;
			stub_log("%s call %u on rank %u = %d (HCCL_STUB_ERROR_RANK)", fn, proto->call,
				 c->rank, rc);
			stubhccl_comm_put(c);
			return rc;
		}
		if (c->fault.error_rank == (long)c->rank)
			proto->fault = F_ASYNC, proto->code = c->fault.error_code;
		else if (c->fault.hang_rank == (long)c->rank)
			proto->fault = c->fault.hang_before ? F_HANG_BEFORE : F_HANG_AFTER;
		else if (c->fault.corrupt_rank == (long)c->rank)
			proto->fault = F_CORRUPT;
	}
	if (!(t = malloc(sizeof(*t)))) {
		stubhccl_comm_put(c);
		return HCCL_E_MEMORY;
	}
	*t = *proto;
	t->c = c; /* the reference taken above goes with the task */
	if (aclrtLaunchCallback(run, t, ACL_CALLBACK_BLOCK, stream) != ACL_SUCCESS) {
		free(t);
		stubhccl_comm_put(c);
		stub_log("%s: the stream does not take work", fn);
		return HCCL_E_RUNTIME;
	}
	stub_log("%s(count %llu, %s) = 0, call %u on rank %u", fn, (unsigned long long)proto->count,
		 stubhccl_dtype_name(proto->dtype), proto->call, c->rank);
	return HCCL_SUCCESS;
}

/* Ranks of a communicator, for the element counts of the buffers; 0 for a bad handle. */
static uint32_t size_of(HcclComm comm)
{
	uint32_t n = 0;

	return HcclGetRankSize(comm, &n) == HCCL_SUCCESS ? n : 0;
}

HcclResult HcclAllReduce(void *sendBuf, void *recvBuf, uint64_t count, HcclDataType dataType,
			 HcclReduceOp op, HcclComm comm, aclrtStream stream)
{
	struct task t = { .coll = STUB_ALLREDUCE, .dtype = dataType, .op = op, .send = sendBuf,
			  .recv = recvBuf, .count = count };

	return submit("HcclAllReduce", comm, stream, &t, count, count);
}

HcclResult HcclBroadcast(void *buf, uint64_t count, HcclDataType dataType, uint32_t root,
			 HcclComm comm, aclrtStream stream)
{
	struct task t = { .coll = STUB_BROADCAST, .dtype = dataType, .root = root, .send = buf,
			  .recv = buf, .count = count };

	return submit("HcclBroadcast", comm, stream, &t, count, count);
}

HcclResult HcclReduceScatter(void *sendBuf, void *recvBuf, uint64_t recvCount,
			     HcclDataType dataType, HcclReduceOp op, HcclComm comm,
			     aclrtStream stream)
{
	struct task t = { .coll = STUB_REDUCESCATTER, .dtype = dataType, .op = op,
			  .send = sendBuf, .recv = recvBuf, .count = recvCount };

	return submit("HcclReduceScatter", comm, stream, &t, recvCount * size_of(comm), recvCount);
}

HcclResult HcclAllGather(void *sendBuf, void *recvBuf, uint64_t sendCount, HcclDataType dataType,
			 HcclComm comm, aclrtStream stream)
{
	struct task t = { .coll = STUB_ALLGATHER, .dtype = dataType, .send = sendBuf,
			  .recv = recvBuf, .count = sendCount };

	return submit("HcclAllGather", comm, stream, &t, sendCount, sendCount * size_of(comm));
}

HcclResult HcclAlltoAll(const void *sendBuf, uint64_t sendCount, HcclDataType sendType,
			const void *recvBuf, uint64_t recvCount, HcclDataType recvType,
			HcclComm comm, aclrtStream stream)
{
	struct task t = { .coll = STUB_ALLTOALL, .dtype = sendType, .send = sendBuf,
			  .recv = (void *)(uintptr_t)recvBuf, .count = sendCount };
	uint32_t n = size_of(comm);

	if (n && (sendType != recvType || sendCount != recvCount)) {
		stub_log("HcclAlltoAll = %d: send and receive counts or types differ", HCCL_E_PARA);
		return HCCL_E_PARA;
	}
	return submit("HcclAlltoAll", comm, stream, &t, sendCount * n, recvCount * n);
}

HcclResult HcclSend(void *sendBuf, uint64_t count, HcclDataType dataType, uint32_t destRank,
		    HcclComm comm, aclrtStream stream)
{
	struct task t = { .coll = STUB_SEND, .dtype = dataType, .root = destRank, .is_send = 1,
			  .send = sendBuf, .count = count };

	return submit("HcclSend", comm, stream, &t, count, 0);
}

HcclResult HcclRecv(void *recvBuf, uint64_t count, HcclDataType dataType, uint32_t srcRank,
		    HcclComm comm, aclrtStream stream)
{
	struct task t = { .coll = STUB_SEND, .dtype = dataType, .root = srcRank, .recv = recvBuf,
			  .count = count };

	return submit("HcclRecv", comm, stream, &t, 0, count);
}

HcclResult HcclBarrier(HcclComm comm, aclrtStream stream)
{
	struct task t = { .coll = STUB_BARRIER, .dtype = HCCL_DATA_TYPE_INT8 };

	return submit("HcclBarrier", comm, stream, &t, 0, 0);
}
