/* What the files of the stand-in libascendcl.so share. Nothing here is exported. */
#ifndef STUB_ACL_INTERNAL_H
#define STUB_ACL_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "tests/stub/acl_types.h"

/* Keeps msg (printf-style) as this thread's aclGetRecentErrMsg text and returns code, so a
 * failing call reads `return stubacl_fail(CODE, "aclrtMalloc: size is 0")`. */
aclError stubacl_fail(aclError code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The device the calling thread set with aclrtSetDevice, or -1. */
int stubacl_current_device(void);
/* Logical devices this process sees: the machine's HCCL_STUB_DEVICE_COUNT (default 8, one
 * Atlas 800T A2) filtered by ASCEND_RT_VISIBLE_DEVICES or ASCEND_VISIBLE_DEVICES. */
uint32_t stubacl_device_count(void);
/* The physical id of a logical device, or -1 when there is no such logical device. */
int32_t stubacl_physical_id(int32_t logical);

/* A unit of stream work. run is called on the stream's worker in enqueue order with the
 * stream's status: 0, or the code of an earlier failed task, in which case the work is
 * skipped by the task itself (an event then completes with that error). */
struct stubacl_task {
	void (*run)(struct stubacl_task *t, aclError status);
	struct stubacl_task *next;
};
/* Resolves a stream handle (NULL: the calling thread's device's default stream, made on
 * first use). 0 and *out, or an ACL error. */
aclError stubacl_stream_get(aclrtStream s, void **out);
/* Queues t on the stream from stubacl_stream_get; t must stay valid until run. */
aclError stubacl_stream_enqueue(void *stream, struct stubacl_task *t);
/* Stops and frees every stream (aclFinalize, aclrtResetDevice). */
void stubacl_streams_release(int device);

#endif
