/* Whether a line reads as an error, by its words: see logline.h. Every tool words a failure
 * with a few common words whatever its prefix, so those words, not the prefixes, decide; the
 * forms in which the same words say that nothing failed are rows of their own table, each
 * with the real form it stands for. Matching is by word: a row starts at a word start and
 * ends at a word end, so identifiers (HCCL_CONNECT_TIMEOUT, error_handler, on_failure) never
 * match: '_' is part of a word. */
#include <ctype.h>
#include <pthread.h>
#include <stddef.h>
#include <string.h>

#include "probes/logs/logtext.h"
#include "probes/logs/logline.h"
#include "probes/logs/ewholds.h"

#define EW_CASE 1 /* as written: upper-case names (errno, NCCL's level) */
/* an error at any level its writer chose, even after a word that calls the line
 * informational. A process that hangs says so in passing: vLLM's "No available shared memory
 * broadcast block found in 60 seconds. This typically happens when some processes are
 * hanging" is an INFO line. And a library that is there but cannot load is a broken install,
 * though NCCL logs its plugin's load at INFO and goes on without it ("NCCL INFO ...
 * dlerror=...: version `FABRIC_1.7' not found (required by ...)"); one that is not there at
 * all ("cannot open shared object file") is a probe's answer, and no row here. */
#define EW_ANY_LEVEL 2
/* a label whose number follows: an error only when that number is not 0 ("err=23", not
 * "err=0") */
#define EW_NONZERO 4
/* a status's name that heads the message it names: at the line's start (its prefix taken
 * off) or right after "] " or ": " ("W .../op_kernel.cc:993] Unavailable: {...}"); elsewhere
 * the same word is only a word ("the internal: field") */
#define EW_HEAD 8

/* A space in a row matches any run of blanks. Each row's comment is a real form of it (the
 * unit test reads each row on a real line). */
static const struct {
	const char *form;
	int flags;
} words[] = {
	{"error", 0},	      /* "ERROR: ...", "[error] ...", "Bus error" */
	{"errors", 0},	      /* "rank service processes with other errors" */
	{"fail", 0},	      /* MPICH's error stack: "pkt_RTS_handler(317): fail failed" */
	{"fails", 0},	      /* "Nnopbase fails to invoke the HcclAllocComResourceByTiling ..." */
	{"failed", 0},	      /* "HcclCommInitRootInfo failed", "check_result: failed" */
	{"failure", 0},	      /* "the connection failure between this device and ..." */
	{"fatal", 0},	      /* "Fatal error in PMPI_Init", "Fatal Python error: Aborted" */
	{"exception", 0},     /* "Cluster Exception Location[IP/ID]" */
	{"exceptions", 0},    /* "If dstRank reports other exceptions, ..." */
	{"abort", 0},	      /* NCCL: "failed : Software caused connection abort" */
	{"aborted", 0},	      /* Open MPI: "exited on signal 6 (Aborted)." */
	{"aborting", 0},      /* Cray MPICH's "aborting job:" over the reason */
	/* a library a feature needs, missing from the program: "MPIDI_CRAY_init:
	 * GPU_SUPPORT_ENABLED is requested, but GTL library is not linked" */
	{"is not linked", 0},
	{"refused", 0},	      /* Gloo: "SO_ERROR: Connection refused" */
	{"timeout", 0},	      /* "Watchdog caught collective operation timeout" */
	{"timed out", 0},     /* c10d: "(errno: 110 - Connection timed out)" */
	{"unreachable", 0},   /* "[Errno 101] Network is unreachable" */
	{"no route", 0},      /* "[Errno 113] No route to host" */
	{"cannot", 0},	      /* MPICH: "Internal MPI error!  Cannot read from remote process" */
	{"could not", 0},     /* "Could not find real path of /sys/class/net/eth0/device" */
	{"can't", 0},	      /* BusyBox: "nslookup: can't resolve 'master-0': Name does not resolve" */
	{"couldn't", 0},      /* perftest: "Couldn't set the link layer" */
	{"unable", 0},	      /* Open MPI: "A process or daemon was unable to complete a TCP connection" */
	{"invalid", 0},	      /* "The argument is invalid.Reason: Set visible device failed" */
	/* a link's state as one word, in a port's state table or an event's name: the HCCN
	 * tool's adapt status "L0:link_proc|L1:link_fail", "L2:linkdown"; NetApp's
	 * "vifmgr.clus.linkdown:EMERGENCY" ("linkdown_off", "link_down_err: 0x302" are names) */
	{"linkdown", 0},
	/* a switch port its own error shut (Cisco's and Arista's port status table: "Et23
	 * errdisabled link-flap") */
	{"errdisabled", 0},
	{"link_fail", 0},
	/* a state or setting the program refuses to work with: DCGM's diagnostic, "GPU 0's MIG
	 * configuration is incompatible with the diagnostic because it prevents access to the
	 * entire GPU." */
	{"incompatible", 0},
	/* two parts that must agree and do not: "The IB ports choosen for IB connection setup
	 * do not have the same subnet_prefix." */
	{"do not have the same", 0},
	/* what the node has against the build that runs: "NVIDIA H800 with CUDA capability sm_90
	 * is not compatible with the current PyTorch installation." (not a program's notice of
	 * a feature it leaves out, "sparse_attn is not compatible with ROCM") */
	{"not compatible with the current", 0},
	/* nvidia-smi's mark for a field of a GPU it could not read, in its table: "|   0  ERR!
	 *   On   | 00000000:19:00.0 Off |   ERR! |" (a GPU the driver cannot query; a power
	 * reading alone may come back on the next query) */
	{"err!", 0},
	/* a collection that lacks members it should have: NCCL's RAS status of a communicator
	 * some rank did not report for, "    0         1         2       7-8        16        15
	 * RUNNING  INCOMPLETE" and its heading "INCOMPLETE" */
	{"incomplete", 0},
	/* a device or transport the program was told to use, not there, and what it could use
	 * instead: UCX's "network device 'mlx5_ib0:1' is not available, please use one or more
	 * of: 'eth0'(tcp), 'lo'(tcp)" (alone, "not available" is as often an optional feature's) */
	{"not available, please use", 0},
	/* a hang named: "NCCL deadlock: rank0 sends 128 elements, rank1 expects 256" */
	{"deadlock", 0},
	/* a kernel table that ran out of room and what it does then: netfilter's "nf_conntrack:
	 * table full, dropping packet" */
	{"table full", 0},
	/* and a NIC's work queue: "SQ full (batch): ep=0 depth=4351 requested=1 max=4351" */
	{"sq full", 0},
	{"dropping packet", 0},
	/* the kernel's hung-task detector: "INFO: task ior:142307 blocked for more than 120
	 * seconds." (at any level: the kernel calls it INFO) */
	{"blocked for more than", EW_ANY_LEVEL},
	/* an error number labelled: PSM2's "e001.53882PSM2 no hfi units are active (err=23)"
	 * (not "err=0") */
	{"err=", EW_NONZERO},
	/* a process's end with a failing code and no other word: Torque's job record
	 * "Exit_status=271", Flux's "flux-job: task(s) exited with exit code 143", the launcher's
	 * "  Exit code:    3" in Open MPI's block, Ray's "raylet [exit code=1]", torch elastic's
	 * root cause "exitcode: 1" and its table's "  exitcode  : 1 (pid: 54305)" (not "exit
	 * code: 0") */
	{"exit_status=", EW_NONZERO},
	{"exit code ", EW_NONZERO},
	{"exit code: ", EW_NONZERO},
	{"exit code=", EW_NONZERO},
	{"exitcode: ", EW_NONZERO},
	{"exitcode : ", EW_NONZERO},
	/* ... and as a Python launcher or a service says it: DeepSpeed's "exits with return code
	 * = -9", ModelArts' "Training end with return code: 137", SCR's "scr_fetch_latest: return
	 * code 1" (not "return code = 0") */
	{"return code: ", EW_NONZERO},
	{"return code = ", EW_NONZERO},
	{"return code ", EW_NONZERO},
	/* a GPU with memory pages waiting to be retired, which takes a reset: nvidia-smi -q's
	 * Retired Pages section, "Pending Page Blacklist            : Yes" (DCGM's diagnostic
	 * fails on a pending retirement and health checks drain the node; "No" and "N/A" are no
	 * error) */
	{"pending page blacklist : yes", 0},
	{"killed", 0},	      /* the shell's "Killed"; "Out of memory: Killed process 7899" */
	/* a member of the cluster given up for dead: Ray's "The node with node id: ... has been
	 * marked dead because the detector has missed too many heartbeats from it." */
	{"marked dead", 0},
	{"marked as dead", 0},
	/* and in Flux's: "overlay.crit[1150]: disconnecting: no heartbeat for 5.1m" */
	{"no heartbeat", 0},
	/* Kubernetes' state of a container the kernel's OOM killer ended, one word in kubectl's
	 * table: "mfem-0-z6rhn    0/1     OOMKilled                0             107s" */
	{"oomkilled", 0},
	/* and the kernel's own record of the kill, with no other error word: "kernel:
	 * [266333.003777] oom-kill:constraint=CONSTRAINT_NONE,nodemask=(null),cpuset=/,
	 * mems_allowed=0,global_oom,task_memcg=/user.slice,task=python,pid=15850,uid=1000" */
	{"oom-kill", 0},
	/* a process of the job gone, in the launcher's plain words: Cray PALS's "x3103c0s7b0n0:
	 * rank 0 died from signal 15" */
	{"died", 0},
	{"segmentation fault", 0}, /* "Segmentation fault (core dumped)" */
	/* the IOMMU refusing a device's DMA, in the kernel's words: Intel's "DMAR: [DMA Write]
	 * Request device [02:00.0] fault addr cd139000 [fault reason 05] PTE Write access is not
	 * set", AMD's "AMD-Vi: Event logged [IO_PAGE_FAULT domain=0x0000 ...]" */
	{"fault reason", 0},
	{"io_page_fault", 0},
	/* a framework build without an operation the job runs: TensorFlow's "No OpKernel was
	 * registered to support Op 'NcclAllReduce' used by {{node NcclAllReduce}}" */
	{"no opkernel", 0},
	/* a native crash handler's heading, before its signal and frames: Open MPI's "[host:405884]
	 * *** Process received signal ***" */
	{"received signal", 0},
	/* torch elastic's agent told to stop from outside (its terminal closed, the scheduler's
	 * cancel): "Received 1 death signal, shutting down workers" */
	{"death signal", 0},
	/* a step that keeps failing while the program goes on trying: MPICH's "OFI is failing to
	 * make progress on posting a receive. MPICH suspects a hang ..." */
	{"failing to", 0},
	/* ENOENT's text, where a program or file the job needs is not there: bash starting a
	 * worker's daemon, "/bin/bash: line 1: /usr/sbin/sshd: No such file or directory" */
	{"no such file or directory", 0},
	/* a device or peer the process needs but cannot reach: NVSHMEM's "[GPU 1] Peer GPU 0 is
	 * not accessible, exiting ..." */
	{"not accessible", 0},
	/* the NVIDIA driver when a GPU left the PCIe bus (Xid 79), on a line of its own under
	 * "NVRM: The NVIDIA GPU 0000:b3:00.0": "NVRM: fallen off the bus and is not responding
	 * to commands." */
	{"fallen off the bus", 0},
	{"out of memory", 0}, /* "NCCL WARN Cuda failure 'out of memory'" */
	/* C++'s exception for an allocation the heap refused, named by itself under a program's
	 * heading: LightGBM's "Met Exceptions:" over "std::bad_alloc" */
	{"bad_alloc", 0},
	/* a resource the program found too small to start: HPE Slingshot's cxi_write_bw,
	 * "Insufficient 2M huge pages. Need 8 to run" */
	{"insufficient", 0},
	{"core dumped", 0},   /* "Segmentation fault (core dumped)" */
	{"illegal", 0},	      /* "Cuda failure 'an illegal memory access was encountered'" */
	/* the same on an AMD GPU, in the ROCm runtime's words before it aborts the process:
	 * "Memory access fault by GPU node-7 (Agent handle: 0x20916760) on address (nil).
	 * Reason: Unknown." */
	{"memory access fault", 0},
	/* a NIC's link gone, in systemd-networkd's words (its port flapping when "Gained
	 * carrier" follows): "systemd-networkd[5398]: ib6: lost carrier" */
	{"lost carrier", 0},
	{"terminate called", 0}, /* "terminate called after throwing an instance of ..." */
	{"connection reset", 0}, /* NCCL: "Call to recv from ... failed : Connection reset by peer" */
	{"lost communication", 0}, /* Open MPI: "ORTE has lost communication with a remote daemon." */
	/* the dynamic linker, when a library does not fit the one it was built against:
	 * ".../libtorch_npu.so: undefined symbol: _ZN5torch10ValueErrorC1EPKcz" */
	{"undefined symbol", EW_ANY_LEVEL},
	/* and for a version of a library it needs that the one installed lacks: "libfabric.so.1:
	 * version `FABRIC_1.7' not found (required by .../libnccl-net.so)" */
	{"not found (required by", EW_ANY_LEVEL},
	/* Python, when a package the code imports is not installed or not on its path:
	 * "ModuleNotFoundError: No module named 'tbe.common...'" (the class name is one word) */
	{"no module named", 0},
	/* a check on the job's settings that failed, in MindIE's words: "The size of npuDeviceIds
	 * does not equal to worldSize", "npuDeviceID does not allow repetitive element" */
	{"not equal", 0},
	{"not allow", 0},
	/* a program refusing its own command line: NVIDIA's fabric manager start script,
	 * "Unknown option: /usr/share/nvidia/nvswitch/fabricmanager.cfg" */
	{"unknown option", 0},
	/* and the same in other launchers' words: Intel MPI's Hydra, "[mpiexec@b03u14a] match_arg
	 * (../../../../../src/pm/i_hydra/libhydra/arg/hydra_arg.c:91): unrecognized argument x"
	 * (an option of another MPI's mpirun) */
	{"unrecognized argument", 0},
	/* and a request in a launcher's own syntax it cannot parse: Open MPI's "The mapping
	 * request contains an unrecognized modifier:" (any word the program does not know) */
	{"unrecognized", 0},
	/* the shell, for a program not on the PATH: "bash: orted: command not found" */
	{"command not found", 0},
	/* bash refusing a line of the job's script: "/bin/bash: SSH_CONNECTION: readonly
	 * variable" (a launcher exporting the ssh session's own variables), "set -u"'s
	 * "/usr/bin/enroot: line 44: HOME: unbound variable" */
	{"readonly variable", 0},
	{"unbound variable", 0},
	/* and its test builtin given a value it cannot compare, most often an empty variable
	 * (what a step before left unset): "./run_and_time.sh: line 40: [: : integer expression
	 * expected" (the script goes on) */
	{"integer expression expected", 0},
	/* errno's texts for an operation the system refused, where no other word of the line
	 * says it failed: ENOSPC in dd's "dd: writing `/mnt/testfs/test_3': No space left on
	 * device", EROFS, ESTALE (NFS), EPIPE ("RuntimeError: Broken pipe"), EBUSY, ENOTCONN */
	{"no space left on device", 0},
	{"read-only file system", 0},
	{"stale file handle", 0},
	{"broken pipe", 0},
	{"device or resource busy", 0},
	{"transport endpoint is not connected", 0},
	{"permission denied", 0}, /* "[Errno 13] Permission denied" */
	/* EPERM's text: sshd in a container without the capability, "chroot(\"/run/sshd\"):
	 * Operation not permitted [preauth]" */
	{"not permitted", 0},
	/* a name that does not resolve, as ping and older resolvers say it: "ping: unknown host
	 * lm-mpi-job-mpiworker-0.lm-mpi-job"; getaddrinfo's "Name or service not known" */
	{"unknown host", 0},
	{"service not known", 0},
	{"address already in use", 0}, /* Gloo: "bind: Address already in use" */
	{"mismatch", 0},      /* "Detected mismatch between collectives on ranks." */
	/* "mismatch" in words: "the socversion Ascend910B1 of bin package does not match the
	 * current device socverison Ascend310P3" */
	{"not match", 0},
	/* and contracted: NVIDIA's fabric manager, "fabric manager NVIDIA GPU driver interface
	 * version 530.30.02 don't match with driver version 530.41.03" */
	{"don't match", 0},
	{"doesn't match", 0},
	{"exceeded", 0},      /* NCCL: "socketStartConnect: exceeded timeouts (3)" */
	/* EMFILE's text with no other word: NCCL 1.x's "Socket.h(166):\"too many open files\"" */
	{"too many open files", 0},
	{"exited unexpectedly", 0}, /* Ray: "Some Ray subprocesses exited unexpectedly:" */
	{"panic", 0}, /* DPDK's rte_panic: "PANIC in app_check_link():", the kernel's "Kernel panic" */
	{"links are down", 0}, /* the line under it: "Some links are DOWN" */
	{"state is down", 0},  /* perftest on a port without a link: "Port number 1 state is Down" */
	/* a limit the program needs raised, in its own words: Intel MPI's DAPL provider "[0]
	 * DAPL startup: RLIMIT_MEMLOCK too small", vllm-ascend's "HCCL_BUFFSIZE is too small" */
	{"too small", 0},
	/* and the other way: PMIx under Spectrum MPI, "A received msg header indicates a size
	 * that is too large:" */
	{"too large", 0},
	/* a request over what there is: Ray's raylet, "System memory request exceeds memory
	 * available in /dev/shm" (at W, the store then falls back to a slower one) */
	{"exceeds", 0},
	/* at any level a NIC's port without a link is a fault: "W0911 06:19:37.204383  3746
	 * rdma_context.cpp:433] Device mlx5_3 port not active" */
	{"port not active", 0},
	/* a tool's help text for what stopped it, whatever its level: Open MPI's "Please correct
	 * the hostfile and try again." */
	{"try again", 0},
	/* Open MPI under a launcher it cannot talk to, at no level: "If srun is being used to
	 * launch application, 4 singletons will be started." (every rank alone) */
	{"singletons will be started", 0},
	{"please correct", 0},
	{"hanging", EW_ANY_LEVEL}, /* "This typically happens when some processes are hanging" */
	/* Horovod's stall inspector, under a WARNING: "Stalled ops:", "allreduce.avg_loss [missing
	 * ranks: 1]" */
	{"stalled", EW_ANY_LEVEL},
	{"missing ranks", EW_ANY_LEVEL},
	/* a native crash handler's dump names no error, only the address and the frames:
	 * "[host:3436928] Failing at address: 0xb8" */
	{"failing at address", 0},
	/* and the heading of a dump of frames framed by '=' runs: UCX's over a process it
	 * caught on a fatal signal, "==== backtrace (tid: 548615) ====" and, in older releases,
	 * "==== backtrace ====" (the dump, whoever prints it, is the crash) */
	{"= backtrace", 0},
	/* the signals that end a process on a fault or a kill, as torch elastic names them in
	 * its root-cause block: "traceback : Signal 11 (SIGSEGV) received by PID 3304209" */
	{"SIGSEGV", EW_CASE},
	/* a process ended by SIGKILL, by its number: MVAPICH's "MPI process (rank: 16, pid:
	 * 107546) terminated with signal 9 -> abort job" */
	{"signal 9", 0},
	/* the kernel refusing a module built for another kernel: "nv_peer_mem: Unknown symbol
	 * ib_register_peer_memory_client (err -22)", after "disagrees about version of symbol" */
	{"unknown symbol", 0},
	{"disagrees about version", 0},
	{"SIGKILL", EW_CASE}, /* "traceback : Signal 9 (SIGKILL) received by PID 14750" */
	/* a pod the kubelet evicted, as kubectl prints its status and reason ("Reason:
	 * Evicted"); capitalised, not a cache's "evicted 3 blocks" */
	{"Evicted", EW_CASE},
	/* the NVIDIA driver's fault report in the kernel log: "NVRM: Xid (PCI:0000:dc:00): 45,
	 * pid=1818990, name=python3, Ch 00000001" */
	{"NVRM: Xid", EW_CASE},
	{"NCCL WARN", EW_CASE}, /* NCCL's level for what failed: "NCCL WARN NET/IB : Got ..." */
	/* the same words in Chinese, as CANN's tools and MindCluster's diagnosis print them in a
	 * Chinese locale (no spaces between words there: a row matches inside a run of
	 * characters): "BackendConfig配置参数校验失败" (failed), "NPU端闪断错误" (error),
	 * "notify wait超时" (timed out). Not "异常" (abnormal), which a healthy check prints as
	 * "无异常" */
	{"失败", 0},
	{"错误", 0},
	{"超时", 0},
	/* a job's state as the scheduler recorded it, one word in its table: Slurm's sacct
	 * "1488666.bat+  batch  bsc32  4 OUT_OF_ME+  0:125" (its columns cut a longer word and
	 * mark the cut with '+'), seff's "State: OUT_OF_MEMORY (exit code 0)" (its states FAILED
	 * and TIMEOUT already read as words above) */
	{"OUT_OF_MEMORY", EW_CASE},
	{"OUT_OF_ME+", EW_CASE},
	{"ECONNREFUSED", EW_CASE}, /* errno names: "Connection refused (ECONNREFUSED, ...)" */
	{"EHOSTUNREACH", EW_CASE}, /* "No route to host (EHOSTUNREACH, ...)" */
	{"ENETUNREACH", EW_CASE}, /* "Network is unreachable (ENETUNREACH, ...)" */
	/* a cluster's scheduler that cannot place the pods: Volcano's event "Warning
	 * FailedScheduling 4m5s volcano 3/3 tasks in gang unschedulable: ..." */
	{"unschedulable", 0},
	/* data or a store found damaged: nvidia-smi's "WARNING: infoROM is corrupted at gpu
	 * 0008:00:00.0", glibc's "free(): corrupted unsorted chunks" */
	{"corrupted", 0},
	/* a memory access the MMU refused, of a GPU or of the kernel: amdgpu's "[gfxhub] page
	 * fault (src_id:0 ring:24 vmid:10 pasid:32769, for process rocm-bandwidth- ...)", the
	 * kernel's "general protection fault, probably for non-canonical address" (not "page
	 * faults" counted, /usr/bin/time's) */
	{"page fault", 0},
	{"protection fault", 0},
	/* the error mark of NVIDIA's (Mellanox's) firmware tools, an error whatever level the
	 * program that ran them logged their answer at: the SR-IOV operator's "I0607
	 * 15:07:30.467921  124588 utils.go:708] RunCommand(): -E- Failed to open the device" */
	{"-E-", EW_CASE | EW_ANY_LEVEL},
	/* the canonical status codes of gRPC and absl (TensorFlow's, XLA's) in their CamelCase
	 * names, heading the message of a failed call: TensorFlow's worker in a job whose
	 * parameter server went away, "W tensorflow/core/framework/op_kernel.cc:993] Unavailable:
	 * {\"created\":...,\"description\":\"EOF\",...,\"grpc_status\":14}", and "...] Internal: :
	 * Unable to connect to endpoint" */
	{"Unavailable: ", EW_CASE | EW_HEAD},
	{"Internal: ", EW_CASE | EW_HEAD},
};

#define NWORDS (sizeof(words) / sizeof(words[0]))

/* Forms that carry an error word and say that nothing failed. whole: 1 when the form vouches
 * for the whole line (a retry announced, a probe for an optional library), 2 for the rest of
 * its sentence (a condition's), 0 only for the words it spans; 3 as 1, for a form that ends a
 * word begun before it (a class name's tail: "SyntaxWarning:"). A "%d" matches a number. */

static const struct {
	const char *form;
	int whole;
	/* NULL, or: 0 when the form at m[at..at+len) does not vouch for this line after all */
	int (*holds)(struct pspan m, size_t at, size_t len);
} benign[] = {
	/* CANN's advice text: "Check the rank service processes with other errors or no errors" */
	{"no errors", 0, NULL},
	/* a counter of errors at zero, as ifconfig prints it: "RX errors 0  dropped 0  overruns 0" */
	{"errors 0", 0, NULL},
	/* a count of failures, labelled, at zero: vLLM's benchmark summary "Failed requests:
	 * 0"; a register of the AI core's dump "vector cube ecc 1bit error: 0," (the dump's
	 * other words still read). Not "0 failed": "device 0 failed on command" names a device */
	{"failed", 0, hlog__ew_counts_zero},
	{"error", 0, hlog__ew_counts_zero},
	/* and in a test suite's tally, counts after their labels: avocado's "RESULTS    : PASS 6
	 * | ERROR 0 | FAIL 0 | SKIP 0 | WARN 0 | INTERRUPT 0 | CANCEL 0" */
	{"fail", 0, hlog__ew_counts_zero},
	/* and one count per device, all at zero: gpu-burn's "errors: 0 - 0 - 0 - 0 - 0 - 0 - 0
	 * - 0   temps: 38 C - ..." */
	{"errors", 0, hlog__ew_counts_zero},
	/* a table's heading, the word a column's name: NCCL RAS's "Group     Comms     Nodes
	 * Ranks     Ranks     Ranks    Status  Errors" */
	{"errors", 0, hlog__ew_column_heading},
	/* and a section's title of a few words: dcgmi's "| NVLINK Error Counts |" over its links'
	 * counters, nvidia-smi -q's "ECC Errors" over its own */
	{"error", 0, hlog__ew_column_heading},
	/* mkdir's answer for a directory already there: "mkdir: cannot create directory
	 * 'logs': File exists" (a job script run again; what it wanted is in place) */
	{"cannot", 1, hlog__ew_dir_exists},
	/* and a benchmark's share of invalid answers: SGLang's "Invalid: 0.000" */
	{"invalid", 0, hlog__ew_counts_zero},
	/* and a tally's label after its count at zero, among other counts: kubectl's "Pods
	 * Statuses:    0 Active / 3 Succeeded / 0 Failed" */
	{"failed", 0, hlog__ew_zero_tally},
	/* and a count before its noun, at zero: a preflight audit's summary "[FAIL]  0/52
	 * failures" (the whole line: its tag is the check's name) */
	{"failures", 1, hlog__ew_zero_before},
	/* and a count at zero that opens the line's one sentence: HPL's summary "0 tests skipped
	 * because of illegal input values.", "0 tests completed and failed residual checks," */
	{"0 ", 1, hlog__ew_zero_subject},
	/* an error measured, a real number its value: OpenFOAM's "time step continuity errors :
	 * sum local = 0.000341587, global = 4.9514e-06" (a solver's residual, not a failure) */
	{"errors", 0, hlog__ew_real_value},
	/* and the heading of a data set's error measured, its numbers on the next line: PyTorch's
	 * quick start tutorial, "Test Error: " over " Accuracy: 4.1%, Avg loss: 2.166388" */
	{"error", 1, hlog__ew_split_heading},
	/* and a metric named for the error it measures: XGBoost's "[0]\ttrain-error:0.014433"
	 * (the training set's error rate after round 0) */
	{"error", 0, hlog__ew_real_value},
	/* a setting's name with its value, as a launcher or a config dump prints it: "-
	 * timeout=datetime.timedelta(seconds=3600)", "timeout=1800" (a wait that ran out says
	 * "timed out" or "timeout" without '=' after it) */
	{"timeout=", 0, NULL},
	/* and with blanks around the '=': TensorFlow's "Waiting for the cluster, timeout = inf" */
	{"timeout", 0, hlog__ew_assigned},
	/* and the same said in words, a timeout set to a span of time: torch's "Synchronizing
	 * and adjusting timeout for all ProcessGroups to 0:01:40", "Setting the NCCL timeout to
	 * 1800 seconds" */
	{"timeout", 0, hlog__ew_set_to_span},
	/* or its value right after it, a setting compared with another: torch_npu's "Warning: The
	 * watchdog timeout 90000ms(which is set by init_process_group) is less than or equal to
	 * HCCL execution timeout 1836000ms!" (not "timeout 30s exceeded") */
	{"timeout", 0, hlog__ew_span_after},
	/* a field of a status table whose value says there is none: npu-smi's "Error Code
	 * : NA", "Error Information : NA" */
	{"error", 0, hlog__ew_none_value},
	/* and a node's flag at false: kubectl describe node's "Unschedulable:      false" */
	{"unschedulable", 0, hlog__ew_none_value},
	{"failure", 0, hlog__ew_none_value},
	/* and a timeout's field of a status table at none: nvidia-smi -q's fabric health, "Access
	 * Timeout Recovery : N/A" */
	{"timeout", 0, hlog__ew_none_value},
	/* a level of logging as a setting's value: oneCCL's "|CCL_WARN| value of CCL_LOG_LEVEL
	 * changed to be error (default:warn)" */
	{"error", 0, hlog__ew_level_value},
	/* a step that failed and the fallback taken, said in a clause of its own: TensorFlow's
	 * "W .../eager/context.cc:566] Unable to destroy server_ object, so releasing instead.",
	 * hccl_tools' "Failed to call hccn_tool, try to read /etc/hccn.conf instead" */
	{"instead", 1, hlog__ew_fallback_clause},
	/* and the fallback said first in a clause of its own: "[LOG_CAT_SBGP] Failed to dlopen
	 * libnuma.so. Fallback to GROUP_BY_SOCKET manual.", NCCL's "Could not find a path for
	 * pattern 1, falling back to simple order" (not to the CPU: see the holds) */
	{"fallback to", 1, hlog__ew_fallback_taken},
	{"falling back to", 1, hlog__ew_fallback_taken},
	{"fall back to", 1, hlog__ew_fallback_taken},
	/* a step that cannot be done as asked and the setting the program changed to go on,
	 * said in a clause of its own: Slurm's "srun: warning: can't run 1 processes on 2 nodes,
	 * setting nnodes to 1" */
	{", setting", 1, hlog__ew_adjusted},
	/* and in a sentence of its own, the setting quoted with its new value: Transformers'
	 * "`use_cache=True` is incompatible with gradient checkpointing. Setting
	 * `use_cache=False`." */
	{". setting", 1, hlog__ew_adjusted},
	/* and two values that disagree, the program saying in a clause of its own which one it
	 * goes on with: Accelerate's "Gradient accumulation steps mismatch:
	 * GradientAccumulationPlugin has 1, DeepSpeed config has 4. Using DeepSpeed's value." */
	{". using", 1, hlog__ew_value_taken},
	/* and a value refused and put back by the program itself: MindCluster's quick start,
	 * "[WARNING] [470] profiler.py: Invalid parameter export_type: None, reset it to text."
	 * (not advice to reset a device: NVRM's "Xid ... 63, ... New row marked for remapping,
	 * reset gpu to activate") */
	{", reset it to", 1, NULL},
	/* or a setting's source missing and the defaults taken: "[WARNING] Config file not found:
	 * , using default configuration." */
	{", using default", 1, NULL},
	/* or the failure said to matter only for an intent the run may not have, in a clause of
	 * its own: DeepSpeed on a first start, "[WARNING] [engine.py:2699:load_checkpoint] Unable
	 * to find latest file at .//checkpoint/.../latest, if trying to load latest checkpoint
	 * please ensure this file exists or pass an explicit checkpoint tag ..." */
	{", if trying to", 1, NULL},
	/* UCX comparing the version the program was built for with the library it loaded, and
	 * going on with it (seen in runs that then worked on two clusters years apart): "UCX
	 * WARN  UCP version is incompatible, required: 1.8, actual: 1.7 (release 0 ...)", "UCX
	 * WARN  UCP API version is incompatible: required >= 1.20, actual 1.19.0 (loaded from
	 * /lib64/libucp.so.0)" */
	{"UCP version is incompatible", 1, NULL},
	/* a message that says itself it may be ignored, the error it names being one the program
	 * expects: vLLM's "WARNING ... [triton_decode_attention.py:44] The following error message
	 * 'operation scheduled before its operands' can be ignored." */
	{"can be ignored", 1, NULL},
	/* a feature left unused by a setting the user chose, said as the reason: vLLM's "To see
	 * benefits of async output processing, enable CUDA graph. Since, enforce-eager is
	 * enabled, async output processor cannot be used" */
	{"cannot be used", 0, hlog__ew_setting_chosen},
	/* an option the program cannot honour and says, in a sentence of its own, that it goes on
	 * without: Slurm's "srun: warning: can't honor --ntasks-per-node set to 8 which doesn't
	 * match the requested tasks 16 with the number of requested nodes 16. Ignoring
	 * --ntasks-per-node." */
	{"Ignoring --", 1, hlog__ew_sentence_start},
	/* a second registration refused because the first is there, nothing missing: XLA's "E
	 * .../cuda_dnn.cc:8454] Unable to register cuDNN factory: Attempting to register factory
	 * for plugin cuDNN when one has already been registered" (TensorFlow and JAX both load
	 * the plugin) */
	{"when one has already been registered", 1, NULL},
	/* a statistic the framework cannot take on this machine, which it says and goes on
	 * without: TensorFlow on hosts whose /proc/cpuinfo has no bogomips (ARM servers, Ascend's
	 * among them), "W tensorflow/core/platform/profile_utils/cpu_utils.cc:98] Failed to find
	 * bogomips in /proc/cpuinfo; cannot determine CPU frequency" */
	{"; cannot determine CPU frequency", 1, NULL},
	{"UCP API version is incompatible", 1, NULL},
	/* a failure foretold as what may come, not reported: NeMo's "[NeMo E ...] You are running
	 * multi-node training without SLURM handling the processes. Please note that this is not
	 * tested in NeMo and could result in errors." */
	{"errors", 0, hlog__ew_foretold},
	/* and as what one may see: Transformers' "This is a friendly reminder - the current text
	 * generation call will exceed the model's predefined maximum length (4096). Depending on
	 * the model, you may observe exceptions, performance degradation, or nothing at all." */
	{"exceptions", 0, hlog__ew_foretold},
	/* advice under a condition, for its sentence: "If connection to the dashboard fails,
	 * check your firewall settings and network configuration." (Ray's banner after "Ray
	 * runtime started."), DeepSpeed's "[WARNING] [stage3.py:2164:step] 2 pytorch allocator
	 * cache flushes since last step. ... If you are unable to make the cache flushes go away
	 * consider adding get_accelerator().empty_cache() calls in your training loop ..." */
	{"If ", 2, hlog__ew_advice_if},
	/* a failure said not to happen: SkyPilot's "Streaming logs... (Ctrl-C to exit log
	 * streaming; job will not be killed)" */
	{"killed", 0, hlog__ew_negated},
	/* a refusal said to hold at this moment, the program waiting for it to change: Ray's
	 * "The actor or task with ID ... cannot be scheduled right now. ... The required
	 * resources may be added as autoscaling takes place" (the whole line; a log that ends
	 * on it is a wait that never ended, which the word families read) */
	{"right now", 1, hlog__ew_for_now},
	/* a step given up on and said so, the work going on without it: "Unable to save dataset
	 * to W&B, skipping!", nvidia-peermem's "ERROR detected invalid context, skipping further
	 * processing" (a peer memory region freed before its callback, harmless) */
	{", skipping", 1, NULL},
	/* the kubelet's "Evicted" is a pod's status or reason, said alone; the same word heading a
	 * label, a noun after it and the label's colon, names a count (vmtouch's page-cache
	 * report, "Evicted Pages: 3720495 (14G)") */
	{"Evicted", 0, hlog__ew_label_head},
	/* nccl-tests' legend under its table, printed on every run: "# Errors with asterisks
	 * indicate errors that have exceeded the maximum threshold." */
	{"Errors with asterisks indicate", 1, NULL},
	/* nccl-tests before 2.10 name the wrong-value column "error": "busbw  error" */
	{"busbw error", 0, NULL},
	/* a retry announced is not the failure: NCCL's "Call to connect returned Connection
	 * refused, retrying"; the last one of a count is ("No route to host, retrying (34/34)") */
	{"retrying", 1, hlog__ew_retries_left},
	/* the same announced in other words: Paddle's "Retry to connect to 127.0.1.1:63917 while
	 * the server is not yet listening.", c10d's "The server socket on [...]:40613 has timed
	 * out, will retry.", gRPC's "Retry in 998 milliseconds" */
	{"retry to", 1, hlog__ew_retries_left},
	{"will retry", 1, hlog__ew_retries_left},
	{"retry in", 1, hlog__ew_retries_left},
	/* c10d trying each address a name resolves to, and the store's connect again until its
	 * timeout (which says so in words of its own), logged as the line's whole message: "[W
	 * socket.cpp:601] [c10d] The client socket has failed to connect to [AIBOT]:29500 (system
	 * error: 10049 - The requested address is not valid in its context.)"; not an exception
	 * that says it ("RuntimeError: The client socket has failed to connect to ...") */
	{"The client socket has failed to connect to", 1, hlog__ew_one_address},
	/* and its tries of each address family: "[W socket.cpp:558] [c10d] The IPv6 network
	 * addresses of (pytorch-workers-0-0.pytorch-workers, 3389) cannot be retrieved (gai
	 * error: -2 - Name or service not known).", "[c10d] The client socket cannot be
	 * initialized to connect to [ai1.mbk.ifra]:23456 (errno: 97 - Address family not
	 * supported by protocol)." */
	{"The IPv6 network addresses of", 1, hlog__ew_one_address},
	{"The client socket cannot be initialized to connect to", 1, hlog__ew_one_address},
	/* and the store's server trying each family to listen on: "[W socket.cpp:401] [c10d]
	 * The server socket cannot be initialized on [::]:29501 (errno: 97 - Address family not
	 * supported by protocol)." (it listens on IPv4 next; when no family works it says "...
	 * has failed to listen on any local network address") */
	{"The server socket cannot be initialized on", 1, hlog__ew_one_address},
	/* and the time waited before the next try: LightGBM's "[Warning] Connecting to rank 1
	 * failed, waiting for 10000 milliseconds" */
	{"waiting for", 1, hlog__ew_wait_before_retry},
	/* Paddle's "connect addr=173.15.88.4:6070 failed 4 times with reason: Connection refused
	 * retry after 2 seconds" */
	{"retry after", 1, hlog__ew_retries_left},
	/* HCCL marks an error it turned into a warning: "[WARNING] ... ErrToWarn: ... failed" */
	{"ErrToWarn", 1, NULL},
	/* NCCL's proxy as a communicator is torn down, after the work is done (seen in six runs
	 * that then reported success, on two sites): its service thread's listening socket
	 * closed under it, "proxy.cc:1458 NCCL WARN [Service thread] Accept failed Resource
	 * temporarily unavailable" (or "... Accept failed Success"), and the close it was asked
	 * for, "NCCL WARN [Proxy Service 7] Failed to execute operation Close from rank 7,
	 * retcode 3" */
	{"[Service thread] Accept failed", 1, NULL},
	{"Failed to execute operation Close", 1, NULL},
	/* HCOLL's subgroup module without libnuma, going on without NUMA-aware groups (three
	 * runs whose tables then ended "0 OK"): "[LOG_CAT_SBGP] libnuma.so: cannot open shared
	 * object file: No such file or directory" */
	{"[LOG_CAT_SBGP] libnuma.so", 1, NULL},
	/* NCCL up to 2.7 without InfiniBand libraries, going on over sockets: "misc/ibvwrap.cc:63
	 * NCCL WARN Failed to open libibverbs.so[.1]" */
	{"Failed to open libibverbs", 1, NULL},
	/* a failure the program says it ignored, going on without what failed: Open MPI's
	 * "mca_base_component_repository_open: unable to open mca_btl_usnic: libfabric.so.1:
	 * cannot open shared object file: No such file or directory (ignored)" */
	{"(ignored)", 1, NULL},
	/* ssh whose ~/.ssh cannot be written, connecting all the same: "Failed to add the host to
	 * the list of known hosts (/root/.ssh/known_hosts)." */
	{"Failed to add the host to the list of known hosts", 1, NULL},
	/* libibverbs itself, on a provider not installed: "libibverbs: Warning: couldn't load
	 * driver 'libipathverbs-rdmav25.so': ...: cannot open shared object file" */
	{"libibverbs: Warning: couldn't load driver", 1, NULL},
	/* Python's warning categories, any class whose name ends "Warning" and the colon its
	 * report puts after it (advice, not failures; the words are the advice's): "FutureWarning:
	 * `torch.cuda.amp.custom_bwd(args...)` is deprecated", "UserWarning: Detected call of
	 * `lr_scheduler.step()` before `optimizer.step()`. ... Failure to do this will result in
	 * ...", Ray's "DeprecationWarning: ... This will raise an error in the future!", numpy's
	 * "_methods.py:129: RuntimeWarning: invalid value encountered in scalar divide", SGLang's
	 * "session_controller.py:57: SyntaxWarning: invalid escape sequence '\-'" (not torch's
	 * bare "Warning: NPU warning, error code is 107020": no class before it) */
	{"Warning:", 3, hlog__ew_warning_class},
	{"is deprecated", 1, NULL}, /* "`torch.cuda.amp.custom_fwd(args...)` is deprecated. Please use" */
	{"has been deprecated", 1, NULL},
	/* a peer-to-peer capability report, CUDA's samples (p2pBandwidthLatencyTest, simpleP2P)
	 * printing what a pair of GPUs can do: "Device=0 CANNOT Access Peer Device=1" (the copies
	 * go through host memory instead) */
	{"CANNOT Access Peer", 1, NULL},
	/* a launcher that falls back and says so: DeepSpeed's runner on one node, "Unable to find
	 * hostfile, will proceed with training with local resources only." */
	{"will proceed with", 1, NULL},
	/* NCCL from 2.19 without InfiniBand libraries, going on over sockets (as "Failed to open
	 * libibverbs" above): "misc/ibvwrap.cc:173 NCCL WARN lib wrapper not initialized." */
	{"lib wrapper not initialized", 1, NULL},
	/* Hugging Face datasets offline, using its cache: "Using the latest cached version of the
	 * module from ... since it couldn't be found locally at ..." */
	{"Using the latest cached version", 1, NULL},
	/* Open MPI built with the openib BTL, run over UCX: "WARNING: There was an error
	 * initializing an OpenFabrics device." (the job goes on over the PML that works) */
	{"error initializing an OpenFabrics device", 1, NULL},
	/* Hugging Face's Trainer on inputs it cannot count tokens of: "Could not estimate the
	 * number of tokens of the input, floating-point operations will not be computed" */
	{"will not be computed", 1, NULL},
	/* Megatron-LM starting a run with no checkpoint yet: "WARNING: could not find the
	 * metadata file .../latest_checkpointed_iteration.txt", then "will not load any
	 * checkpoints and will start from random" */
	{"could not find the metadata file", 1, NULL},
	/* Open MPI counting the ranks that printed a help message already shown once: "415
	 * more processes have sent help message help-mpi-btl-openib.txt / error in device init",
	 * "1 more process has sent help message ..." (the message itself is read where it is
	 * printed) */
	{"sent help message", 1, NULL},
	/* and the advice it prints under that count: "Set MCA parameter \"orte_base_help_
	 * aggregate\" to 0 to see all help / error messages" */
	{"to see all help / error messages", 1, NULL},
	/* and its component selection at verbose level, a component that declines this node:
	 * "select: init of component openib returned failure" (another one is selected) */
	{"select: init of component", 1, NULL},
	/* PMIx's shared-memory store failing to take its lock under Slurm, printed by every rank
	 * of runs that then go on and finish: "PMIX ERROR: ERROR in file gds_ds12_lock_pthread.c
	 * at line 168" (the store falls back to its other component) */
	{"gds_ds12_lock_pthread.c", 1, NULL},
	/* libfabric probing its optional device-memory backends at start, one not installed:
	 * "ze_hmem_dl_init():474<warn> Failed to dlopen libze_loader.so", "ofi_hmem_init():339<warn>
	 * Failed to initialize hmem iface FI_HMEM_ZE: No data available" (the provider goes on
	 * with the backends there are) */
	{"<warn> Failed to dlopen", 1, NULL},
	{"Failed to initialize hmem iface", 1, NULL},
	/* a solver arming its floating-point traps at start: OpenFOAM's "sigFpe : Enabling
	 * floating point exception trapping (FOAM_SIGFPE)." */
	{"exception trapping", 1, NULL},
	/* an interactive bash started without a terminal (a container's or a service's entry
	 * script run with -i), which goes on without job control: "bash: cannot set terminal
	 * process group (-1): Inappropriate ioctl for device", then "bash: no job control in this
	 * shell" */
	{"cannot set terminal process group", 1, NULL},
};

#define NBENIGN (sizeof(benign) / sizeof(benign[0]))

static char lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

/* The length of form matched at s[0..n), 0 when it does not match. Case-insensitive unless
 * exact; ' ' matches a run of blanks, "%d" a run of digits; a form ending in a word character
 * must end at a word end. */
static size_t match_at(const char *s, size_t n, const char *form, int exact)
{
	size_t i = 0;
	const char *f = form;
	for (; *f; f++) {
		int digits = f[0] == '%' && f[1] == 'd';
		if (*f == ' ' || digits) {
			size_t b = i;
			while (i < n && (digits ? s[i] >= '0' && s[i] <= '9' : ew_blank(s[i])))
				i++;
			if (i == b)
				return 0;
			f += digits;
			continue;
		}
		if (i >= n || (exact ? s[i] != *f : lower(s[i]) != lower(*f)))
			return 0;
		i++;
	}
	if (hlog__word_char(f[-1]) && i < n && hlog__word_char(s[i]))
		return 0;
	return i;
}

/* Rows by the lower case of their first byte, so that a word is checked against few rows. */
static unsigned char by_first[128][24];
static unsigned char n_first[128];
static pthread_once_t index_once = PTHREAD_ONCE_INIT;

static void build_index(void)
{
	for (size_t r = 0; r < NWORDS; r++) {
		unsigned char c = (unsigned char)lower(words[r].form[0]) & 127;
		if (n_first[c] < sizeof(by_first[c]))
			by_first[c][n_first[c]++] = (unsigned char)r;
	}
}

size_t hlog__error_rows(void)
{
	return NWORDS;
}

size_t hlog__benign_rows(void)
{
	return NBENIGN;
}

const char *hlog__error_row_name(size_t row)
{
	return row < NWORDS    ? words[row].form
	       : row == NWORDS ? "(exception class or assertion)"
			       : NULL;
}

const char *hlog__benign_row_name(size_t row)
{
	return row < NBENIGN ? benign[row].form : NULL;
}

/* A Python exception class at the end of a dotted name: "RuntimeError", "torch.distributed.
 * DistBackendError", "ncclSystemError", "cudaErrorLaunchFailure". Or a C macro's report of a
 * failed assertion, its name in capitals ("ASSERT", or ending "_ASSERT") and a colon after it:
 * ggml's "GGML_ASSERT: .../ggml-backend.c:226: offset + size <= ggml_nbytes(tensor) &&
 * "tensor write out of bounds"", Qt's "ASSERT: "i < size()" in file ..." (not the macro named
 * in code or prose, "GGML_ASSERT(x)"). */
static int class_word(const char *s, size_t n, size_t left)
{
	static const char *const tails[] = {"Error", "Exception", "Failure"};
	for (size_t t = 0; t < sizeof(tails) / sizeof(tails[0]); t++) {
		size_t k = 0;
		while (tails[t][k])
			k++;
		if (n > k && !memcmp(s + n - k, tails[t], k) && s[n - k - 1] != '_')
			return 1;
	}
	return n >= 6 && left > n && s[n] == ':' && !memcmp(s + n - 6, "ASSERT", 6) &&
	       (n == 6 || s[n - 7] == '_');
}

/* Whether benign row r may match at a byte a word character comes before: a form that
 * starts with a mark, or one that ends a word begun before it (whole 3). */
static int benign_inside_word(size_t r)
{
	return !hlog__word_char(benign[r].form[0]) || benign[r].whole == 3;
}

/* Where benign row r first matches in m at or after from, its length in *len; -1. */
static long benign_from(struct pspan m, size_t r, size_t from, size_t *len)
{
	for (size_t i = from; i < m.n; i++) {
		if (i && hlog__word_char(m.s[i - 1]) && !benign_inside_word(r))
			continue;
		size_t k = match_at(m.s + i, m.n - i, benign[r].form, 0);
		if (k) {
			*len = k;
			return (long)i;
		}
	}
	return -1;
}

/* Where benign row r next matches in m at or after from and holds there, its length in *len;
 * -1. */
static long holding_from(struct pspan m, size_t r, size_t from, size_t *len)
{
	for (long i = benign_from(m, r, from, len); i >= 0; i = benign_from(m, r, (size_t)i + 1, len))
		if (!benign[r].holds || benign[r].holds(m, (size_t)i, *len))
			return i;
	return -1;
}

/* The benign rows by the lower case of the first byte a match starts on (a form that starts
 * with a blank, on ' ' and '\t'; with "%d", on each digit), in table order: one pass over a
 * line then tries only the rows that can start at each byte, instead of every row at every
 * byte (half of reading a log went there). */
static unsigned char benign_row[10 * NBENIGN]; /* a row is in 10 lists at most ("%d") */
static unsigned short benign_start[129];
static pthread_once_t benign_once = PTHREAD_ONCE_INIT;

static int benign_starts_on(size_t r, unsigned c)
{
	const char *f = benign[r].form;
	if (f[0] == '%' && f[1] == 'd')
		return c >= '0' && c <= '9';
	if (f[0] == ' ')
		return c == ' ' || c == '\t';
	return ((unsigned char)lower(f[0]) & 127) == c;
}

static void build_benign_index(void)
{
	size_t k = 0;
	for (unsigned c = 0; c < 128; c++) {
		benign_start[c] = (unsigned short)k;
		for (size_t r = 0; r < NBENIGN; r++)
			if (benign_starts_on(r, c))
				benign_row[k++] = (unsigned char)r;
	}
	benign_start[128] = (unsigned short)k;
}

int hlog__benign_at(struct pspan m, size_t at, size_t len)
{
	_Static_assert(NBENIGN < 256, "benign rows index as bytes");
	pthread_once(&benign_once, build_benign_index);
	long best = -1;
	for (size_t i = 0; i < m.n; i++) {
		unsigned c = (unsigned char)lower(m.s[i]) & 127;
		int after_word = i && hlog__word_char(m.s[i - 1]);
		for (unsigned j = benign_start[c]; j < benign_start[c + 1]; j++) {
			size_t r = benign_row[j], k;
			if (best >= 0 && r >= (size_t)best)
				break; /* in table order: no lower row is left at this byte */
			if (after_word && !benign_inside_word(r))
				continue;
			if (!(k = match_at(m.s + i, m.n - i, benign[r].form, 0)) ||
			    (benign[r].holds && !benign[r].holds(m, i, k)))
				continue;
			size_t end = benign[r].whole == 2 ? hlog__ew_sentence_end(m, i + k) : i + k;
			if (benign[r].whole == 1 || benign[r].whole == 3 || (i <= at && at + len <= end))
				best = (long)r;
		}
	}
	return (int)best;
}

int hlog__benign_row_in(struct pspan m, size_t row)
{
	size_t k;
	return row < NBENIGN && holding_from(m, row, 0, &k) >= 0;
}

int hlog__retry_left(struct pspan m)
{
	size_t k;
	for (size_t r = 0; r < NBENIGN; r++)
		/* the rows whose form is a try to be made again: a retry announced, c10d's try
		 * of one address of several */
		if ((benign[r].holds == hlog__ew_retries_left ||
		     benign[r].holds == hlog__ew_wait_before_retry ||
		     benign[r].holds == hlog__ew_one_address) &&
		    holding_from(m, r, 0, &k) >= 0)
			return 1;
	return 0;
}

/* Whether the word at m.s[i] is part of a command-line option's name, as a launcher echoes
 * its command ("--abort-signal 9", "--ignore-errors", "-x NCCL_ASYNC_ERROR_HANDLING" is not:
 * no '-' right before the word): the option names a behaviour, nothing failed. */
static int option_name(struct pspan m, size_t i)
{
	if (!i || m.s[i - 1] != '-')
		return 0;
	size_t t = i - 1;
	while (t && (hlog__word_char(m.s[t - 1]) || m.s[t - 1] == '-'))
		t--;
	return m.s[t] == '-' && (!t || m.s[t - 1] == ' ' || m.s[t - 1] == '\t' ||
				 m.s[t - 1] == '"' || m.s[t - 1] == '\'' || m.s[t - 1] == '[');
}

/* Whether the word at s[i..i+k) is the quoted key of a number, a setting in the settings a
 * launcher prints (torchrun's "rdzv_configs : {'timeout': 900}", "\"max_failures\": 3"): it
 * names the setting, it says nothing failed. A key whose value is text ("\"error\": \"...\"")
 * is left to its value's words. */
static int setting_key(struct pspan m, size_t i, size_t k)
{
	if (!i || (m.s[i - 1] != '\'' && m.s[i - 1] != '"'))
		return 0;
	size_t j = i + k;
	while (j < m.n && (hlog__word_char(m.s[j]) || m.s[j] == ' ') && m.s[j] != m.s[i - 1])
		j++; /* the rest of a key of several words ("timed out") */
	if (j + 1 >= m.n || m.s[j] != m.s[i - 1] || m.s[j + 1] != ':')
		return 0;
	for (j += 2; j < m.n && m.s[j] == ' '; j++)
		;
	return j < m.n && (isdigit((unsigned char)m.s[j]) || m.s[j] == '-');
}

/* Whether s[0..n) starts with a number other than 0: "23", "-9", not "0", "0x0" or "None". */
static int nonzero_at(const char *s, size_t n)
{
	size_t i = n && s[0] == '-';
	if (i >= n || !isdigit((unsigned char)s[i]))
		return 0;
	return s[i] != '0' || (i + 1 < n && isdigit((unsigned char)s[i + 1]));
}

/* Whether s[i] starts the message: only blanks before it, or "] " or ": " right before. */
static int message_head(const char *s, size_t i)
{
	size_t b = i;
	while (b && (s[b - 1] == ' ' || s[b - 1] == '\t'))
		b--;
	return !b || (b < i && (s[b - 1] == ']' || s[b - 1] == ':'));
}

/* The first error word of m (of row only, unless only < 0) no benign form covers. */
static int first_word(struct pspan m, long only, int *len, int *row)
{
	pthread_once(&index_once, build_index);
	size_t n = m.n < 4096 ? m.n : 4096;
	const char *s = m.s;
	for (size_t i = 0; i < n;) {
		/* the lead byte of a UTF-8 character: in a script written without spaces (Chinese)
		 * a word may start at any character */
		int wide = (unsigned char)s[i] >= 0xC0;
		/* a mark that opens a row ("-E-") is looked at as a word is, and the word after it
		 * too; not inside a word ("pre-E-series") */
		int mark = !hlog__word_char(s[i]) && !wide;
		if (mark && ((unsigned char)s[i] >= 0x80 || !n_first[(unsigned char)s[i]] ||
			     (i && hlog__word_char(s[i - 1])))) {
			i++;
			continue;
		}
		size_t end = i + 1;
		while (!wide && !mark && end < n && hlog__word_char(s[end]))
			end++;
		unsigned char c = (unsigned char)lower(s[i]) & 127;
		size_t k = 0;
		int r = -1;
		for (unsigned j = 0; j < n_first[c] && !k; j++) {
			r = by_first[c][j];
			if (only < 0 || only == r)
				k = match_at(s + i, n - i, words[r].form, words[r].flags & EW_CASE);
		}
		if (k && (words[r].flags & EW_NONZERO) && !nonzero_at(s + i + k, n - i - k))
			k = 0;
		if (k && (words[r].flags & EW_HEAD) && !message_head(s, i))
			k = 0;
		if (!k && !wide && !mark && (only < 0 || only == (long)NWORDS) &&
		    class_word(s + i, end - i, n - i)) {
			k = end - i;
			r = (int)NWORDS; /* the class-name row */
		}
		if (k && !setting_key(m, i, k) && !option_name(m, i) &&
		    hlog__benign_at(m, i, k) < 0) {
			*len = (int)k;
			if (row)
				*row = r;
			return (int)i;
		}
		i = end;
	}
	*len = 0;
	return -1;
}

/* Words beyond the rows' own that make a line an error: the class names' tails and the
 * assertion's word (above), logline.c's exception tails, hlog__http_failure's "status" and a
 * call's errno. */
static const char *const gate_extra[] = {"error", "exception", "failure", "assert", "interrupt",
					 "exit", "status", "errno"};

int hlog__error_gate_word(size_t i, struct pspan *w)
{
	if (i >= NWORDS) {
		i -= NWORDS;
		if (i >= sizeof(gate_extra) / sizeof(gate_extra[0]))
			return 0;
		*w = (struct pspan){gate_extra[i], strlen(gate_extra[i])};
		return 1;
	}
	/* a row matches only where its longest run without a blank does (no row has "%d") */
	const char *f = words[i].form;
	*w = (struct pspan){f, 0};
	while (*f) {
		size_t k = strcspn(f, " ");
		if (k > w->n)
			*w = (struct pspan){f, k};
		f += k + (f[k] == ' ');
	}
	return 1;
}

int hlog__error_word(struct pspan m, int *len, int *row)
{
	return first_word(m, -1, len, row);
}

int hlog__any_level_word(struct pspan m)
{
	for (size_t r = 0; r < NWORDS; r++)
		if ((words[r].flags & EW_ANY_LEVEL) && hlog__error_row_at(m, r) >= 0)
			return 1;
	return 0;
}

int hlog__error_row_at(struct pspan m, size_t row)
{
	int len;
	return first_word(m, (long)row, &len, NULL);
}
