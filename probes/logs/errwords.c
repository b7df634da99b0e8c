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
	/* and its watchdogs on a CPU that stopped scheduling: "watchdog: BUG: soft lockup -
	 * CPU#7 stuck for 23s! [pytest:25222]", "NMI watchdog: Watchdog detected hard LOCKUP on
	 * cpu 34" */
	{"soft lockup", EW_ANY_LEVEL},
	{"hard lockup", EW_ANY_LEVEL},
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
	/* a device plugin taking a device out of service, at any level (NVIDIA's logs it at I):
	 * "XidCriticalError: Xid=79 on Device=GPU-adb24b25-...; marking device as unhealthy.",
	 * "'nvidia.com/gpu' device marked unhealthy: GPU-adb24b25-..." (not "0 unhealthy" of a
	 * summary, nor a health check's name) */
	{"as unhealthy", EW_ANY_LEVEL},
	{"marked unhealthy", EW_ANY_LEVEL},
	/* a launcher ending the processes left once one of them failed, at any level:
	 * DeepSpeed's "[INFO] [launch.py:318:sigkill_handler] Killing subprocess 3698707" */
	{"killing subprocess", EW_ANY_LEVEL},
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
	/* and the other texts strerror gives for a call the kernel refused, whatever printed
	 * them: UCX's "cma_ep.c:95   process_vm_readv(pid=94123 length=25800) returned -1: Bad
	 * address" (EFAULT), perftest's "ERRNO: Bad address.", "rdma_create_ep: No such device"
	 * (ENODEV), Open MPI's "  Error: Function not implemented (38)" under its OFI block
	 * (ENOSYS), TensorPipe's "In operator() at tensorpipe/common/ibv.h:172 "": Operation not
	 * supported" (EOPNOTSUPP), "Input/output error" (EIO) */
	{"bad address", 0},
	{"no such device", 0},
	{"function not implemented", 0},
	{"operation not supported", 0},
	{"input/output error", 0},
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
	/* Kubernetes' validation of an object's field: "spec.operator.defaultRuntime: Unsupported
	 * value: \"\": supported values: ..." (the API server refuses the object) */
	{"Unsupported value", 0},
	/* Go's zap logger's level above error, as its console encoder writes it:
	 * "2021-08-23T13:43:50.931Z        DPANIC  controllers.ClusterPolicy" */
	{"DPANIC", EW_CASE},
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


/* Rows by the lower case of their first byte, so that a word is checked against few rows. */
static unsigned char by_first[128][24];
static unsigned char n_first[128];
static pthread_once_t index_once = PTHREAD_ONCE_INIT;

static void build_index(void)
{
	for (size_t r = 0; r < NWORDS; r++) {
		unsigned char c = (unsigned char)hlog__ew_lower(words[r].form[0]) & 127;
		if (n_first[c] < sizeof(by_first[c]))
			by_first[c][n_first[c]++] = (unsigned char)r;
	}
}

size_t hlog__error_rows(void)
{
	return NWORDS;
}

const char *hlog__error_row_name(size_t row)
{
	return row < NWORDS    ? words[row].form
	       : row == NWORDS ? "(exception class or assertion)"
			       : NULL;
}

/* A Python exception class at the end of a dotted name: "RuntimeError", "torch.distributed.
 * DistBackendError", "ncclSystemError", "cudaErrorLaunchFailure". Or a C macro's report of a
 * failed assertion, its name in capitals ("ASSERT", or ending "_ASSERT") and a colon after it:
 * ggml's "GGML_ASSERT: .../ggml-backend.c:226: offset + size <= ggml_nbytes(tensor) &&
 * "tensor write out of bounds"", Qt's "ASSERT: "i < size()" in file ..." (not the macro named
 * in code or prose, "GGML_ASSERT(x)"). */
/* A C macro's label in capitals with ERROR or FATAL among its parts, heading a message in
 * words: Open MPI's "ORTE_ERROR_LOG: Not found in file base/plm_base_launch_support.c at line
 * 99", "ORTE_ERROR_LOG: Data unpack would read past end of buffer". Not a setting's name with
 * its value ("NCCL_ASYNC_ERROR_HANDLING: 1", "...: True") nor a register's count
 * ("WALKER_ERROR: 0x0"). */
static int macro_label(const char *s, size_t n, size_t left)
{
	if (left < n + 3 || s[n] != ':' || s[n + 1] != ' ' || !isalpha((unsigned char)s[n + 2]))
		return 0;
	size_t w = n + 2; /* a message of words, not one value ("...: True") */
	while (w < left && s[w] != ' ')
		w++;
	if (w + 1 >= left || !isalpha((unsigned char)s[w + 1]))
		return 0;
	int parts = 0, bad = 0;
	for (size_t b = 0; b < n;) {
		size_t e = b;
		while (e < n && s[e] != '_')
			e++;
		for (size_t k = b; k < e; k++)
			if (!isupper((unsigned char)s[k]) && !isdigit((unsigned char)s[k]))
				return 0;
		parts++;
		bad |= (e - b == 5 && (!memcmp(s + b, "ERROR", 5) || !memcmp(s + b, "FATAL", 5)));
		b = e + 1;
	}
	return parts > 1 && bad;
}

/* The tails of a class's name that make it an exception's or a failure's, one table for the
 * name heading a line before its ':' (logline.c) and for a word anywhere (class_word).
 * TAIL_WORD: also as a word anywhere ("... raised RuntimeError"); TAIL_BARE: the tail alone
 * heads such a line ("Error: ..."), where the others need a longer name ending in them:
 * "Invalid: 0.000" is a benchmark's label, "pyarrow.lib.ArrowInvalid: Index not in
 * dictionary bounds" an exception. */
enum { TAIL_WORD = 1, TAIL_BARE = 2 };
#define CT(t, f) {t, sizeof(t) - 1, f}
static const struct {
	const char *tail;
	size_t n;
	unsigned flags;
} class_tails[] = {
	CT("Error", TAIL_WORD | TAIL_BARE), CT("Exception", TAIL_WORD | TAIL_BARE),
	CT("Failure", TAIL_WORD | TAIL_BARE),
	/* Kubernetes' and its schedulers' event reasons: "FilteringFailed", "BindingFailed";
	 * torch's "BackendCompilerFailed" */
	CT("Failed", TAIL_WORD), CT("Interrupt", TAIL_BARE), CT("Exit", TAIL_BARE),
	/* requests' "ReadTimeout: ...", pyarrow's "ArrowInvalid: ..." */
	CT("Invalid", 0), CT("Timeout", 0),
};
#undef CT

int hlog__class_tail(const char *s, size_t n, int head)
{
	for (size_t t = 0; t < sizeof(class_tails) / sizeof(class_tails[0]); t++) {
		size_t k = class_tails[t].n;
		unsigned f = class_tails[t].flags;
		if ((!head && !(f & TAIL_WORD)) || n < k || memcmp(s + n - k, class_tails[t].tail, k))
			continue;
		if (n == k) {
			if (head && (f & TAIL_BARE))
				return 1;
			continue;
		}
		char prev = s[n - k - 1];
		if (head ? (f & TAIL_BARE) || isalnum((unsigned char)prev) : prev != '_')
			return 1;
	}
	return 0;
}

static int class_word(const char *s, size_t n, size_t left)
{
	if (macro_label(s, n, left) || hlog__class_tail(s, n, 0))
		return 1;
	/* and the same word first, the reason's part after it capitalised: "Warning
	 * FailedScheduling  10s  hami-scheduler  0/1 nodes available", "FailedMount" */
	if (n > 6 && !memcmp(s, "Failed", 6) && s[6] >= 'A' && s[6] <= 'Z')
		return 1;
	return n >= 6 && left > n && s[n] == ':' && !memcmp(s + n - 6, "ASSERT", 6) &&
	       (n == 6 || s[n - 7] == '_');
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
		unsigned char c = (unsigned char)hlog__ew_lower(s[i]) & 127;
		size_t k = 0;
		int r = -1;
		for (unsigned j = 0; j < n_first[c] && !k; j++) {
			r = by_first[c][j];
			if (only < 0 || only == r)
				k = hlog__ew_match_at(s + i, n - i, words[r].form, words[r].flags & EW_CASE);
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
	/* a row of words in prose is found whole: its words come one blank apart in the lines
	 * that carry it ("no space left on device"), and its longest word alone ("device",
	 * "transport", "return") is in most lines of a healthy log, which then all took the slow
	 * reading (a third of judging a healthy 200 MB log); a row with a label's colon or '=',
	 * whose blanks a table pads ("pending page blacklist : yes", "exit code: "), by its
	 * longest run without a blank (no row has "%d") */
	const char *f = words[i].form;
	size_t n = strlen(f);
	if (n && f[n - 1] != ' ' && !strpbrk(f, ":=(")) {
		*w = (struct pspan){f, n};
		return 1;
	}
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
