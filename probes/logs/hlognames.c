/* The names of the triage's kinds and of the reasons a file was skipped, as the report and
 * the JSON show them. Apart from the reading (hccllog.c), which the chain of waits (chain.c)
 * names kinds from, so that neither calls the other in a circle. */
#include "probes/logs/hccllog.h"

static const char *const kind_names[HLOG_NKINDS] = {
	[HLOG_NONE] = "none",
	[HLOG_SOCKET_TIMEOUT] = "socket-timeout",
	[HLOG_NOTIFY_TIMEOUT] = "notify-timeout",
	[HLOG_ROOT_TIMEOUT] = "root-timeout",
	[HLOG_FFTS_TIMEOUT] = "task-timeout",
	[HLOG_HEARTBEAT_LOST] = "heartbeat-lost",
	[HLOG_HEARTBEAT_STUCK] = "heartbeat-stuck",
	[HLOG_HEARTBEAT] = "heartbeat",
	[HLOG_ERROR_CQE] = "error-cqe",
	[HLOG_LINK_DOWN] = "link-down",
	[HLOG_MISMATCH] = "mismatch",
	[HLOG_DETECT_NONE] = "detector-no-fault",
	[HLOG_PORT_BOUND] = "port-bound",
	[HLOG_TLS] = "tls",
	[HLOG_NPU_BUSY] = "npu-busy",
	[HLOG_DEVICE_IP] = "device-ip",
	[HLOG_VERSION] = "package",
	[HLOG_INNER] = "inner-error",
	[HLOG_CODE] = "error-code",
	[HLOG_TLS_SWITCH] = "tls-switch",
	[HLOG_ENTRY] = "entry",
	[HLOG_API] = "call-failed",
	[HLOG_WATCHDOG] = "collective-timeout",
	[HLOG_KB] = "knowledge-base",
	[HLOG_PLACE] = "place",
	[HLOG_WORDS] = "words",
	[HLOG_ROSTER] = "roll-call",
};

const char *hlog_kind_name(int kind)
{
	return kind >= 0 && kind < HLOG_NKINDS ? kind_names[kind] : "?";
}

static const char *const skip_names[HLOG_NSKIP] = {
	[HLOG_SKIP_BINARY] = "binary",
	[HLOG_SKIP_UNREADABLE] = "unreadable",
	[HLOG_SKIP_SPECIAL] = "not a regular file",
	[HLOG_SKIP_GZIP] = "bad gzip",
	[HLOG_SKIP_LIMIT] = "over the limits",
	[HLOG_SKIP_BOMB] = "gzip bomb",
};

const char *hlog_skip_name(int why)
{
	return why >= 0 && why < HLOG_NSKIP ? skip_names[why] : "?";
}
