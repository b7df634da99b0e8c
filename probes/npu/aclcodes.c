/* The Ascend runtime's error codes (aclError) and what each says of a failed job, for the
 * engine's messages and the log triage. Written here, not copied: see hcclcodes.c. */
#include <stddef.h>

#include "probes/npu/hcclcodes.h"

/*
 * aclError codes a collective's stream or its setup gives back, from the runtime's
 * error_codes/rt_error_codes.h and acl_base.h (torch_npu's vendored copy,
 * third_party/acl/inc/acl/, before its headers were decoupled from CANN in 2026). 507048
 * is ACL_ERROR_RT_FFTS_PLUS_TIMEOUT: on Atlas A2 HCCL's tasks run as FFTS+ tasks, and it is
 * what a stream gives when HCCL_EXEC_TIMEOUT expires while a peer is late.
 */
static const struct hresult acls[] = {
	{100000, "ACL_ERROR_INVALID_PARAM", HCAT_CONFIG, "an argument is invalid"},
	{100002, "ACL_ERROR_REPEAT_INITIALIZE", HCAT_NONE, "aclInit was called before"},
	{107000, "ACL_ERROR_RT_PARAM_INVALID", HCAT_CONFIG, "a runtime call's argument is invalid"},
	{107001, "ACL_ERROR_RT_INVALID_DEVICEID", HCAT_CONFIG,
	 "the device id is not a logical id of this process"},
	{107002, "ACL_ERROR_RT_CONTEXT_NULL", HCAT_CONFIG, "no device is set on the thread"},
	{107019, "ACL_ERROR_RT_WAIT_TIMEOUT", HCAT_RANK_STUCK, "a wait of the runtime timed out"},
	{107020, "ACL_ERROR_RT_TASK_TIMEOUT", HCAT_RANK_STUCK, "a task did not finish in time"},
	/* what this driver, firmware or chip does not offer: a newer stack's feature asked of an
	 * older one (memory registration modes, a chip's copy engine) */
	{207000, "ACL_ERROR_RT_FEATURE_NOT_SUPPORT", HCAT_VERSION,
	 "the feature is not supported by this driver, firmware or chip"},
	{207001, "ACL_ERROR_RT_MEMORY_ALLOCATION", HCAT_RESOURCE, "device memory is exhausted"},
	{207004, "ACL_ERROR_RT_NO_DEVICE", HCAT_HARDWARE, "no device is visible"},
	{207006, "ACL_ERROR_RT_NO_PERMISSION", HCAT_CONFIG,
	 "the process may not use the device (its user or container lacks access)"},
	{507000, "ACL_ERROR_RT_INTERNAL_ERROR", HCAT_UNRESOLVED, "runtime internal error"},
	{507010, "ACL_ERROR_RT_LOST_HEARTBEAT", HCAT_HARDWARE,
	 "the device stopped answering the host"},
	{507011, "ACL_ERROR_RT_MODEL_EXECUTE", HCAT_UNRESOLVED, "a model or task failed"},
	/* an AI core task that fails or overruns is most often the operator's (an address out
	 * of range, a kernel bug, a shape it was not built for), only sometimes the chip: the
	 * code alone does not say which */
	{507014, "ACL_ERROR_RT_AICORE_TIMEOUT", HCAT_UNRESOLVED, "an AI core task timed out"},
	{507015, "ACL_ERROR_RT_AICORE_EXCEPTION", HCAT_UNRESOLVED, "an AI core task failed"},
	{507016, "ACL_ERROR_RT_AICORE_TRAP_EXCEPTION", HCAT_UNRESOLVED,
	 "an AI core task hit a trap"},
	{507017, "ACL_ERROR_RT_AICPU_TIMEOUT", HCAT_UNRESOLVED, "an AI CPU task timed out"},
	{507018, "ACL_ERROR_RT_AICPU_EXCEPTION", HCAT_UNRESOLVED, "an AI CPU task failed"},
	{507034, "ACL_ERROR_RT_VECTOR_CORE_TIMEOUT", HCAT_UNRESOLVED,
	 "a vector core task timed out"},
	{507035, "ACL_ERROR_RT_VECTOR_CORE_EXCEPTION", HCAT_UNRESOLVED,
	 "a vector core task failed"},
	{507036, "ACL_ERROR_RT_VECTOR_CORE_TRAP_EXCEPTION", HCAT_UNRESOLVED,
	 "a vector core task hit a trap"},
	{507046, "ACL_ERROR_RT_STREAM_SYNC_TIMEOUT", HCAT_RANK_STUCK,
	 "the stream did not finish within the wait"},
	{507047, "ACL_ERROR_RT_EVENT_SYNC_TIMEOUT", HCAT_RANK_STUCK,
	 "the event was not reached within the wait"},
	{507048, "ACL_ERROR_RT_FFTS_PLUS_TIMEOUT", HCAT_RANK_STUCK,
	 "a task on the device timed out (HCCL_EXEC_TIMEOUT): a peer did not keep up"},
	{507053, "ACL_ERROR_RT_DEVICE_MEM_ERROR", HCAT_HARDWARE, "device memory failed"},
	{507054, "ACL_ERROR_RT_HBM_MULTI_BIT_ECC_ERROR", HCAT_HARDWARE,
	 "an uncorrectable HBM ECC error"},
	{507056, "ACL_ERROR_RT_LINK_ERROR", HCAT_LINK_DOWN, "a link of the device failed"},
	{507057, "ACL_ERROR_RT_SUSPECT_REMOTE_ERROR", HCAT_LINK_DOWN,
	 "the fault is probably on the remote side"},
	{507904, "ACL_ERROR_RT_COMM_OP_RETRY_FAIL", HCAT_LINK_DOWN,
	 "retrying the collective failed"},
};

const char *hacl_name(long long v)
{
	const struct hresult *r = hresult_row(acls, sizeof(acls) / sizeof(acls[0]), v);
	return r ? r->name : NULL;
}

int hacl_cat(long long v)
{
	const struct hresult *r = hresult_row(acls, sizeof(acls) / sizeof(acls[0]), v);
	return r ? r->cat : HCAT_UNRESOLVED;
}

const char *hacl_meaning(long long v)
{
	const struct hresult *r = hresult_row(acls, sizeof(acls) / sizeof(acls[0]), v);
	return r ? r->meaning : NULL;
}
