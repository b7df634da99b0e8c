/* The Ascend runtime's error codes (aclError) as the frameworks print a failed runtime call:
 * torch_npu and vLLM-Ascend's "RuntimeError: ACL stream synchronize failed, error code:507048",
 * "... error code is 507015". The number's kind comes from the runtime's table of codes
 * (probes/npu/hcclcodes.c, from error_codes/rt_error_codes.h), so one row per kind reads every
 * code of that kind; a number the table does not know is left to the other rules. Kinds with
 * no row (hardware, links) wait for a real line that shows them in this form. */
#include <string.h>

#include "probes/npu/hcclcodes.h"
#include "probes/logs/catalog.h"
#include "probes/logs/logtext.h"

/* The number after key (":", " is", "=" or a blank between) that the runtime's table names,
 * or -1. */
static long long acl_code_after(struct pspan m, const char *key)
{
	struct pspan a = hlog__value_after(m, key);
	if (a.s && a.n >= 2 && a.s[0] == 'i' && a.s[1] == 's') /* "error code is 207001" */
		a.s += 2, a.n -= 2;
	long long v;
	return a.s && hlog__num_at(a, &v) && hacl_name(v) ? v : -1;
}

/* The number after "error code", when the runtime's table names it as of kind cat: the event
 * takes the code as its result. */
static int acl_code_of(struct pspan m, int cat, struct hlog_event *e)
{
	long long v = acl_code_after(m, "error code");
	if (v < 0 || hacl_cat(v) != cat)
		return 0;
	e->result = v;
	return 1;
}

#define ACL_KIND(fn, cat)                                                                    \
	static int fn(struct pspan m, const struct hx_vals *x, struct hlog_event *e)        \
	{                                                                                     \
		(void)x;                                                                      \
		return acl_code_of(m, cat, e);                                                \
	}
ACL_KIND(acl_timeout, HCAT_RANK_STUCK)
ACL_KIND(acl_memory, HCAT_RESOURCE)
ACL_KIND(acl_config, HCAT_CONFIG)
ACL_KIND(acl_version, HCAT_VERSION)

/* A task fault's code names no kind: the row only keeps the line from passing as unclassified.
 * A line of torch_npu's call wrapper ("NPU function error: aclrtSynchronizeEvent(event_), error
 * code is 507015") is left to the reading of failed calls, which keeps the call's name. */
static int acl_task(struct pspan m, const struct hx_vals *x, struct hlog_event *e)
{
	(void)x;
	return !hlog__has(m, "function error:") && acl_code_of(m, HCAT_UNRESOLVED, e);
}

/* The row of the table below that reads "error code" numbers of kind cat (defined after it). */
static const struct hlog_sig *acl_kind_row(int cat);

/* The event takes code v, when the runtime's table names it, with the row of its kind. */
static int take_code_row(long long v, struct hlog_event *e)
{
	const struct hlog_sig *row = v >= 0 && hacl_name(v) ? acl_kind_row(hacl_cat(v)) : NULL;
	if (!row)
		return 0;
	e->cat = row->cat;
	e->result = v;
	snprintf(e->detail, sizeof(e->detail), "%s", row->detail);
	return 1;
}

/* CANN's own report of a failed runtime call (log_inner.cpp's ReportCallError, in EH9999 and
 * EE9999 messages): "synchronize stream failed, runtime result = 507048". The code is read
 * as the rows below read "error code", and the line takes the row of the code's kind. */
static int acl_result(struct pspan m, const struct hx_vals *x, struct hlog_event *e)
{
	(void)x;
	return take_code_row(acl_code_after(m, "runtime result"), e);
}

/* A runtime call's return value as the libraries above it log it: "Register mem ret:207000."
 * (a transfer engine over the runtime), "ret=507033", MindSpore's "Call aclrtSetDevice failed,
 * ret[107001]": "ret" as a word, ':', '=' or '[', and a number the runtime's table names; the
 * first such "ret" decides. */
static int acl_ret(struct pspan m, const struct hx_vals *x, struct hlog_event *e)
{
	(void)x;
	for (size_t i = 0; i + 4 < m.n; i++) {
		if (memcmp(m.s + i, "ret", 3) || (i && hlog__word_char(m.s[i - 1])) ||
		    (m.s[i + 3] != ':' && m.s[i + 3] != '=' && m.s[i + 3] != '['))
			continue;
		long long v;
		struct pspan a = {m.s + i + 4, m.n - i - 4};
		return hlog__num_at(a, &v) && take_code_row(v, e);
	}
	return 0;
}

/* The driver's own error numbers (drvError_t in the driver's ascend_hal_error.h), as the
 * runtime logs a failed driver call: "halMemAlloc failed:size=2097152(Byte), type=2, ...,
 * drvRetCode=6". Only the numbers whose name says the device lacked a resource are read;
 * the others (an inner error, a parameter, a timeout, a process gone) say nothing of the
 * cause and are left to the other rules, and the kinds that do say one (DRV_ERROR_BUS_DOWN,
 * DRV_ERROR_OPER_NOT_PERMITTED, ...) wait for a real line that shows them. */
static const int drv_resource_codes[] = {
	6,  /* DRV_ERROR_OUT_OF_MEMORY */
	14, /* DRV_ERROR_NO_RESOURCES */
	40, /* DRV_ERROR_MALLOC_FAIL */
	47, /* DRV_ERROR_NO_EVENT_RESOURCES */
	48, /* DRV_ERROR_NO_STREAM_RESOURCES */
	49, /* DRV_ERROR_NO_NOTIFY_RESOURCES */
	50, /* DRV_ERROR_NO_MODEL_RESOURCES */
	54, /* DRV_ERROR_NO_FREE_SPACE */
	60, /* DRV_ERROR_SQID_FULL */
	76, /* DRV_ERROR_QUEUE_FULL */
};

/* The driver's number after "drvRetCode" ('=', ':' or a blank between), when it names a
 * resource the device lacked: the event takes it as its result. */
static int drv_resource(struct pspan m, const struct hx_vals *x, struct hlog_event *e)
{
	(void)x;
	struct pspan a = hlog__value_after(m, "drvRetCode");
	long long v;
	if (!a.s || !hlog__num_at(a, &v))
		return 0;
	for (size_t i = 0; i < sizeof(drv_resource_codes) / sizeof(drv_resource_codes[0]); i++)
		if (drv_resource_codes[i] == v) {
			e->result = v;
			return 1;
		}
	return 0;
}

static const char ret_meaning[] =
	"a runtime call returned a code of the runtime's table (the code's kind says which)";
static const char ret_fix[] = "read the code's kind: the lines around it name the call";

static const struct hlog_sig rows[] = {
	/* one row per written form, so that only lines with "ret:", "ret=" or "ret[" are read
	 * (not every "return", "retry" or "secret") */
	{{"ret:"}, HCAT_UNRESOLVED, "acl-ret", ret_meaning, ret_fix, 0, acl_ret},
	{{"ret="}, HCAT_UNRESOLVED, "acl-ret2", ret_meaning, ret_fix, 0, acl_ret},
	{{"ret["}, HCAT_UNRESOLVED, "acl-ret3", ret_meaning, ret_fix, 0, acl_ret},
	{{"runtime result"}, HCAT_UNRESOLVED, "acl-runtime-result",
	 "a runtime call failed with a code of the runtime's table (the code's kind says which)",
	 "read the code's kind: the lines around it name the call", 0, acl_result},
	/* 507046 stream, 507047 event, 507048 an FFTS+ task under HCCL_EXEC_TIMEOUT */
	{{"error code"}, HCAT_RANK_STUCK, "acl-timeout",
	 "a runtime call gave a timeout code: the device waited for a collective whose peer did "
	 "not keep up",
	 "a timeout here is the echo of another rank that stopped or fell behind: find the rank "
	 "whose log shows the first error or that stopped logging first; raise HCCL_EXEC_TIMEOUT "
	 "only when that rank is known to be merely slow",
	 0, acl_timeout},
	{{"error code"}, HCAT_RESOURCE, "acl-memory",
	 "a runtime call failed because device memory ran out",
	 "lower the memory the job needs on the device (batch size, HCCL_BUFFSIZE, the number of "
	 "communicators) and make sure no other process holds memory on it (npu-smi info)",
	 0, acl_memory},
	{{"error code"}, HCAT_CONFIG, "acl-config",
	 "a runtime call refused an argument (an invalid parameter or device id)",
	 "check the device ids the job uses against what the container sees "
	 "(ASCEND_RT_VISIBLE_DEVICES) and the arguments of the call the line names",
	 0, acl_config},
	/* 207000: a feature this driver, firmware or chip lacks */
	{{"error code"}, HCAT_VERSION, "acl-version",
	 "a runtime call asked for a feature this driver, firmware or chip does not support",
	 "compare the driver, firmware and CANN versions on this node (npu-smi info, the CANN "
	 "version file) with what the feature needs (the framework's or library's release notes), "
	 "and upgrade them together, or turn the feature off",
	 0, acl_version},
	/* 507014-507018 AI core and AI CPU, 507034-507036 vector core: a task of an operator
	 * failed or overran on the device, which the code alone does not pin on the operator or
	 * the chip */
	{{"error code"}, HCAT_UNRESOLVED, "acl-task-fault",
	 "a task of an operator failed or timed out on the device (an AI core, vector core or AI "
	 "CPU fault)",
	 "read the device's own log for the operator and its error (plog: the first ERROR of the "
	 "stream), run again with ASCEND_LAUNCH_BLOCKING=1 to find the operator, and compare with "
	 "a known-good CANN and framework release; if one chip alone fails every time, have it "
	 "checked (npu-smi info -t health)",
	 0, acl_task},
	{{"drvRetCode"}, HCAT_RESOURCE, "drv-resource",
	 "a driver call failed for want of a resource on the device (memory, streams, events, "
	 "queue slots)",
	 "free the device's memory and resources for the job: no other process on it (npu-smi "
	 "info), a smaller batch or HCCL_BUFFSIZE, fewer streams or communicators; for a huge-page "
	 "allocation, check the device's huge pages as well",
	 0, drv_resource},
};

static const struct hlog_sig *acl_kind_row(int cat)
{
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		if (!strcmp(rows[i].needle[0], "error code") && rows[i].cat == cat)
			return &rows[i];
	return NULL;
}

const struct hlog_sigtab hlog__cat_acl = {"acl", rows, sizeof(rows) / sizeof(rows[0])};
