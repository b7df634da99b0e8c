/* What a file's place in a collected bundle says about it (internal to probes/): the worker
 * (node) it came from, the kind of log it is, and the process, device or rank its name states.
 * Collectors lay a failed job out in a few ways:
 *   MindCluster:  worker-N/process_log/{run,debug}/plog/plog-PID_TIME.log,
 *                 worker-N/process_log/debug/device-D/device-PID_TIME.log,
 *                 worker-N/device_log/..., environment_check/worker-N/npu_info_*.txt
 *   ModelArts:    JOB/ascend/process_log/rank_N/{run,debug}/plog/..., JOB-proc-rank-N-device-D.txt,
 *                 JOB/ascend/environment_check/worker-N/...
 *   plain:        NODE/... (the first folder names the node)
 * Nothing here reads a file; names only. */
#ifndef HCCLCTL_PROBES_LOGS_BUNDLE_H
#define HCCLCTL_PROBES_LOGS_BUNDLE_H

#include <stddef.h>

enum hlog_fkind {
	HLOG_FK_OTHER,
	HLOG_FK_PLOG_RUN,   /* a plog of the run (INFO) level: where processes state who they are */
	HLOG_FK_PLOG_DEBUG, /* a plog of the debug level: where HCCL writes its errors */
	HLOG_FK_DEVICE,	    /* a device-side log (AI CPU, firmware, device OS) */
	HLOG_FK_ENV,	    /* the collector's environment check (npu_info, hccn_tool output) */
	HLOG_FK_SCREEN,	    /* the job's screen output (one rank's stdout) */
	HLOG_NFKINDS
};

struct hlog_place {
	char worker[64]; /* "worker-3" when a folder names it; "" */
	int kind;	 /* enum hlog_fkind */
	int pid;	 /* plog-PID_..., device-PID_... under process_log; -1 */
	int dev;	 /* a device-D folder, -device-D.txt, device_log/.../device-D_...; -1 */
	int rank;	 /* rank_N folder, -rank-N-; -1 */
};

/* Reads path (a file's path, any of its folders may be absent) into *p. */
void hlog__bundle_place(const char *path, struct hlog_place *p);

/* The node a file of a scanned directory belongs to: the worker its path names (full, the
 * path as opened: the input folder itself may be worker-N), else the first folder of rel;
 * "" when neither. */
void hlog__bundle_node(const char *full, const char *rel, char *node, size_t len);

/* "plog-run", "plog-debug", "device", "env-check", "screen", "other". */
const char *hlog__fkind_name(int kind);

#endif
