/* The part of CANN that `run --engine hccl` calls, loaded at run time with dlopen so that one
 * hcclctl binary runs on machines with and without the libraries. Types and constants are
 * transcribed from the public headers named beside each; nothing here includes them. */
#ifndef HCCLCTL_HCCLAPI_H
#define HCCLCTL_HCCLAPI_H

#include <stddef.h>
#include <stdint.h>

#include "libcomm/libcomm.h"

/* acl/acl_base.h: aclError is an int, ACL_SUCCESS 0. */
typedef int hccl_acl_error;
#define HCCL_ACL_SUCCESS 0
/* acl/acl_base.h: aclInit on a process that already called it. */
#define HCCL_ACL_ERROR_REPEAT_INITIALIZE 100002
/* acl/error_codes/rt_error_codes.h: a device id that is no logical device of the process. */
#define HCCL_ACL_ERROR_RT_INVALID_DEVICEID 107001
/* acl/acl_base.h (runtime codes): the two a stream wait gives back. */
#define HCCL_ACL_ERROR_RT_STREAM_SYNC_TIMEOUT 507046
#define HCCL_ACL_ERROR_RT_EVENT_SYNC_TIMEOUT 507047

/* acl/acl_rt.h: aclrtMemcpyKind. */
enum hccl_memcpy_kind {
	HCCL_MEMCPY_HOST_TO_HOST = 0,
	HCCL_MEMCPY_HOST_TO_DEVICE = 1,
	HCCL_MEMCPY_DEVICE_TO_HOST = 2,
	HCCL_MEMCPY_DEVICE_TO_DEVICE = 3,
};
/* acl/acl_rt.h: aclrtMemMallocPolicy ACL_MEM_MALLOC_HUGE_FIRST. */
#define HCCL_MEM_MALLOC_HUGE_FIRST 0
/* acl/acl_rt.h: aclrtEventRecordedStatus. */
#define HCCL_EVENT_RECORDED_STATUS_NOT_READY 0
#define HCCL_EVENT_RECORDED_STATUS_COMPLETE 1

/* hccl/hccl_types.h: HcclResult (names: probes/npu/hcclcodes.h). */
#define HCCL_RESULT_SUCCESS 0
#define HCCL_RESULT_E_INTERNAL 4
/* hccl/hccl_types.h: HcclDataType. */
enum hccl_dtype {
	HCCL_DT_INT8 = 0, HCCL_DT_INT16 = 1, HCCL_DT_INT32 = 2, HCCL_DT_FP16 = 3,
	HCCL_DT_FP32 = 4, HCCL_DT_INT64 = 5, HCCL_DT_UINT64 = 6, HCCL_DT_UINT8 = 7,
	HCCL_DT_UINT16 = 8, HCCL_DT_UINT32 = 9, HCCL_DT_FP64 = 10, HCCL_DT_BFP16 = 11,
};
/* hccl/hccl_types.h: HcclReduceOp. */
enum hccl_op { HCCL_OP_SUM = 0, HCCL_OP_PROD = 1, HCCL_OP_MAX = 2, HCCL_OP_MIN = 3 };
/* hccl/hccl_types.h: HCCL_ROOT_INFO_BYTES, the size of HcclRootInfo. */
#define HCCL_ROOT_INFO_SIZE 4108

typedef void *hccl_comm_t;   /* hccl/hccl_types.h: HcclComm */
typedef void *hccl_stream_t; /* acl/acl_base.h: aclrtStream */
typedef void *hccl_event_t;  /* acl/acl_base.h: aclrtEvent */

/* One pointer per function hcclctl calls, with the signatures of acl/acl.h, acl/acl_rt.h
 * and hccl/hccl.h. */
struct hccl_api {
	/* libascendcl.so */
	int (*aclInit)(const char *config);
	int (*aclFinalize)(void);
	int (*aclrtSetDevice)(int32_t dev);
	int (*aclrtResetDevice)(int32_t dev);
	int (*aclrtGetDeviceCount)(uint32_t *count);
	int (*aclrtCreateStream)(hccl_stream_t *s);
	int (*aclrtDestroyStream)(hccl_stream_t s);
	int (*aclrtSynchronizeStream)(hccl_stream_t s);
	int (*aclrtSynchronizeStreamWithTimeout)(hccl_stream_t s, int32_t ms);
	int (*aclrtMalloc)(void **p, size_t size, int policy);
	int (*aclrtFree)(void *p);
	int (*aclrtMemcpy)(void *dst, size_t dmax, const void *src, size_t n, int kind);
	int (*aclrtMemset)(void *p, size_t max, int32_t value, size_t n);
	int (*aclrtCreateEvent)(hccl_event_t *e);
	int (*aclrtDestroyEvent)(hccl_event_t e);
	int (*aclrtRecordEvent)(hccl_event_t e, hccl_stream_t s);
	int (*aclrtSynchronizeEvent)(hccl_event_t e);
	int (*aclrtQueryEventStatus)(hccl_event_t e, int *status);
	int (*aclrtEventElapsedTime)(float *ms, hccl_event_t start, hccl_event_t end);
	int (*aclrtGetVersion)(int32_t *major, int32_t *minor, int32_t *patch);
	const char *(*aclGetRecentErrMsg)(void);
	/* acl/acl_rt.h of CANN 8.1 and later (hicann/runtime include/external/acl/acl_rt.h):
	 * optional, NULL when the runtime has none */
	int (*aclrtGetPhyDevIdByLogicDevId)(int32_t logical, int32_t *physical);
	/* libhccl.so */
	int (*HcclCommInitClusterInfo)(const char *path, uint32_t rank, hccl_comm_t *comm);
	int (*HcclGetRootInfo)(void *root);
	int (*HcclCommInitRootInfo)(uint32_t n, const void *root, uint32_t rank,
				    hccl_comm_t *comm);
	int (*HcclCommDestroy)(hccl_comm_t comm);
	int (*HcclAllReduce)(void *send, void *recv, uint64_t count, int dtype, int op,
			     hccl_comm_t comm, hccl_stream_t s);
	int (*HcclAllGather)(void *send, void *recv, uint64_t send_count, int dtype,
			     hccl_comm_t comm, hccl_stream_t s);
	int (*HcclReduceScatter)(void *send, void *recv, uint64_t recv_count, int dtype, int op,
				 hccl_comm_t comm, hccl_stream_t s);
	int (*HcclBroadcast)(void *buf, uint64_t count, int dtype, uint32_t root,
			     hccl_comm_t comm, hccl_stream_t s);
	int (*HcclAlltoAll)(const void *send, uint64_t send_count, int send_type,
			    const void *recv, uint64_t recv_count, int recv_type, hccl_comm_t comm,
			    hccl_stream_t s);
	int (*HcclSend)(void *buf, uint64_t count, int dtype, uint32_t dest, hccl_comm_t comm,
			hccl_stream_t s);
	int (*HcclRecv)(void *buf, uint64_t count, int dtype, uint32_t src, hccl_comm_t comm,
			hccl_stream_t s);
	int (*HcclBarrier)(hccl_comm_t comm, hccl_stream_t s);
	int (*HcclGetRankSize)(hccl_comm_t comm, uint32_t *n);
	int (*HcclGetRankId)(hccl_comm_t comm, uint32_t *rank);
	int (*HcclGetCommAsyncError)(hccl_comm_t comm, int *async_error);
	const char *(*HcclGetErrorString)(int code);

	/* what was loaded, for -v */
	char acl_path[4096], hccl_path[4096];
	char acl_version[32];   /* aclrtGetVersion: "1.0.0" */
	char cann_version[64];  /* version.info above libhccl.so, "" when none */
	char cann_note[300];    /* why there is none: "no version.info", or what is wrong */
	void *acl_handle, *hccl_handle;
};

/* The fix a missing library or symbol points to. */
#define HCCL_SET_ENV "source /usr/local/Ascend/ascend-toolkit/set_env.sh"

/* Loads libascendcl.so and libhccl.so and every symbol above: first by name (the dynamic
 * loader's LD_LIBRARY_PATH), then from $ASCEND_HOME_PATH/lib64, then
 * $ASCEND_TOOLKIT_HOME/lib64. 0, or -ENOENT (a library not found: err names it and every
 * path tried) or -ENOSYS (a symbol missing: err names it and the library). The handles stay
 * open for the life of the process. */
int hccl_api_load(struct hccl_api *a, char *err, size_t errlen);

/* hccl_api_load in a child process that then exits: whether the libraries load, and a's
 * paths and versions for -v (its function pointers stay NULL), without this process ever
 * holding CANN's runtime, so that it can fork ranks that load it themselves. The same
 * returns as hccl_api_load, or -EAGAIN when the child could not answer. */
int hccl_api_probe(struct hccl_api *a, char *err, size_t errlen);

/* "HCCL_E_INTERNAL" for an HcclResult; "HCCL_E_?" for a value hccl_types.h does not name. */
const char *hccl_result_name(int code);
/* "ACL_ERROR_RT_STREAM_SYNC_TIMEOUT" for the aclError codes a run meets; NULL otherwise. */
const char *hccl_acl_error_name(int code);
/* Whether HCCL's documented support table (Atlas A2, CANN 8) has coll on dtype with op: 0,
 * or -ENOTSUP with why ("HcclAllReduce takes no fp64: ..."). HCCL's own parameter check
 * passes more (fp64 reductions) than the device computes as documented. */
int hccl_supported(enum comm_coll coll, enum comm_dtype t, enum comm_op op, char *why,
		   size_t len);
/* The position of physical id phys in a visible-devices list ("4,5,6,7", as
 * ASCEND_RT_VISIBLE_DEVICES and ASCEND_VISIBLE_DEVICES give them), which is its logical id;
 * -1 when it is not listed, -2 when the list is not a comma-separated list of ids. */
int hccl_visible_position(const char *list, int phys);
/* hcclctl's dtype and op as HCCL's (hccl_types.h); -1 when HCCL has none. */
int hccl_dtype_of(enum comm_dtype t);
int hccl_op_of(enum comm_op op);

#endif
