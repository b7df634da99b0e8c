/* The word families (see wordfam.c), first part: what the node is and has. A device's fault,
 * memory and other resources, links, names, interfaces and the job's environment, files,
 * devices and permissions. Each row a family of failure, the phrases that name it, its cause
 * and fix; the comment over each row quotes the real lines it was written for. The rows go
 * from the cause that explains the most to the least, across the three parts in order
 * (wordfam_soft.c, then wordfam_proc.c). */
#include <stddef.h>

#include "probes/npu/hcclcodes.h"
#include "probes/logs/hlogcause.h"
#include "probes/logs/wordfam.h"

const struct family hlog__fams_node[] = {
	/* a device's own fault explains everything its process did after it: "CUDA error:
	 * uncorrectable ECC error encountered", "CUDA error: uncorrectable NVLink error detected
	 * during the execution", PCIe AER's "Uncorrected (Fatal) error received", "multi-bit ECC
	 * error", "hardware error" (what a device cannot correct is the device's fault, whichever
	 * part of it) */
	{.cat = HCAT_HARDWARE,
	 .name = "hardware",
	 .what = "a device reported a hardware fault",
	 .fix = "take the device the line names out of service and check its health (npu-smi info "
		"-t health, nvidia-smi -q -d ECC, the kernel log); reset or replace it before the "
		"next run",
	 .any = {"uncorrectable", "uncorrected", "ecc err", "multi-bit ecc", "double-bit ecc",
		 "double bit ecc", "hardware error", "hardware failure", "machine check",
		 /* nvidia-smi -q: pages that failed, to be retired at the next reset */
		 "pending page blacklist",
		 /* in Chinese, "损坏" (damaged): a runner's "错误: NPU 卡 7 已损坏，无法使用" (NPU
		  * card 7 is damaged, cannot be used) */
		 "损坏",
		 /* the same, abbreviated inside a register's or counter's name: the Cassini
		  * NIC's "C_EC_UNCOR_NS: C1_PCT error: tct_cam_ucor (42)" */
		 "_uncor_", "_ucor ",
		 /* NVIDIA's Xid 79 and NVML's ERROR_GPU_IS_LOST: the device left the PCIe bus */
		 "fallen off the bus", "gpu is lost", "error_gpu_is_lost",
		 /* nvidia-smi when NVML cannot open a GPU it lists: "Unable to determine the
		  * device handle for GPU0000:0F:00.0: Unknown Error" */
		 "unable to determine the device handle",
		 /* the NVIDIA driver's NV_ERR_RESET_REQUIRED: "Assertion failed: Reset required
		  * [NV_ERR_RESET_REQUIRED]" (the GPU must be reset before it works again) */
		 "reset required",
		 /* NVIDIA's device plugin on an Xid its health check counts as critical:
		  * "XidCriticalError: Xid=69 on Device=GPU-7540a9b3-..., the device will go
		  * unhealthy", then "'nvidia.com/gpu' device marked unhealthy" */
		 "xid", "go unhealthy", "marked unhealthy",
		 /* a memory module's error as the kernel's EDAC names its type, corrected or not,
		  * at the DIMM it names: rasdaemon's "1 Corrected error(s): memory read error at
		  * CPU_SrcID#1_MC#1_Chan#1_DIMM#0 location: ...", EDAC's "1 CE memory scrubbing
		  * error on CPU_SrcID#1_Ha#0_Chan#1_DIMM#0" */
		 "memory read error", "memory write error", "memory scrubbing error"}},
	/* a CPU of the node that stopped scheduling, as the kernel's watchdogs report it: "watchdog:
	 * BUG: soft lockup - CPU#29 stuck for 22s! [inception:274704]", "NMI watchdog: Watchdog
	 * detected hard LOCKUP on cpu 34". The processes on that node stall with it, and their
	 * peers wait on them */
	{.cat = HCAT_HARDWARE,
	 .name = "cpu-lockup",
	 .what = "a CPU of the node was stuck in the kernel (a soft or hard lockup): "
		 "a driver or the kernel looping, or a fault of the CPU, its memory or firmware",
	 .fix = "read the node's kernel log around it (dmesg -T: the call trace under the lockup "
		"names the driver or module it was in) and its hardware events (ipmitool sel list, "
		"rasdaemon); drain the node, update or roll back that driver or the kernel, and "
		"test the node before the next run",
	 .any = {"soft lockup", "hard lockup"}},
	/* a GPU's on-board store of its configuration and error records, damaged (not a check of
	 * it failed among others, dcgmi diag's "| Inforom | Fail |" beside persistence mode's):
	 * nvidia-smi's "WARNING: infoROM is corrupted at gpu 0008:00:00.0" */
	{.cat = HCAT_HARDWARE,
	 .name = "hardware",
	 .any = {"inforom"},
	 .also = {"corrupt"}},
	/* the NVIDIA driver that cannot bring a GPU up at boot: "NVRM: RmInitAdapter failed!
	 * (0x26:0xffff:1127)", "NVRM: rm_init_adapter failed for device bearing minor number 0" */
	{.cat = HCAT_HARDWARE,
	 .name = "hardware",
	 .fix = "take the device the line names out of service and check its health (nvidia-smi "
		"-q, the kernel log since boot, its PCIe link with lspci -vv); reseat, reset or "
		"replace it, and check that the driver and its firmware match, before the next run",
	 .any = {"rminitadapter failed", "rm_init_adapter failed"}},
	/* a collective or a transfer whose results were checked and found wrong: what a test
	 * counts in a column of wrong values (nccl-tests' "#wrong"), or says in words */
	{.cat = HCAT_HARDWARE,
	 .name = "wrong-results",
	 .what = "the collective returned wrong data: values were corrupted on the way",
	 .fix = "rerun the test per link and per device to isolate the one that corrupts "
		"(NCCL_P2P_DISABLE=1, NCCL_SHM_DISABLE=1, one node at a time; an NCCL_PROTO or "
		"NCCL_ALGO at a time), check the devices' ECC counters and Xid lines, and the "
		"network's settings its vendor requires for GPU Direct",
	 .any = {"wrong results", "wrong values", "incorrect results", "incorrect values"}},
	/* a device's PCIe link that a health check measured below its bound: IBM Autopilot's
	 * "[[ PCIEBW ]] FAIL" over one GPU at 5.3 GB/s, "Node Status: PCIE Failed" */
	{.cat = HCAT_HARDWARE,
	 .name = "pcie",
	 .what = "a device's PCIe link failed a check",
	 .fix = "compare the device's PCIe link with what it should be (lspci -vv: LnkSta against "
		"LnkCap, speed and width; nvidia-smi -q or npu-smi info for the device's own view) "
		"and reseat, move or replace the card or riser whose link is degraded",
	 .any = {"pcie", "pci-e", "pci express"},
	 .also = {"fail", "degraded", "downgraded", "below"}},
	/* an RDMA queue with no room left for the work the program posts: a Broadcom NIC's
	 * send queue under IBGDA, "SQ full (batch): ep=0 depth=4351 requested=1 max=4351" */
	{.cat = HCAT_RESOURCE,
	 .name = "queue-full",
	 .what = "a queue of the NIC or the transport had no room left for the work posted",
	 .fix = "give the queue more room or post less at once (the transport's queue depth or "
		"in-flight limit, fewer requests per batch), and check that the other end drains it "
		"(a peer that stopped reading fills the queue too)",
	 .any = {"sq full", "cq full", "rq full", "queue full", "queue is full"}},
	/* the dynamic loader with no room left for the thread-local storage of a library loaded
	 * late (dlopen, an import): glibc's "ImportError: .../lib/libgomp.so.1: cannot allocate
	 * memory in static TLS block". The room is fixed when the program starts; no memory ran
	 * out, so the row comes before the memory rows, whose words the line has too */
	{.cat = HCAT_CONFIG,
	 .name = "static-tls",
	 .what = "the dynamic loader had no room left for a library loaded after the program "
		 "started (its static TLS block)",
	 .fix = "load the library the line names when the program starts: LD_PRELOAD=<its path> "
		"before the launch command on every node (or import it before the others)",
	 .any = {"static tls block"}},
	{.cat = HCAT_RESOURCE,
	 .name = "memory",
	 .what = "memory ran out",
	 .fix = "find what holds the memory (the job's batch size, another process on the node, "
		"the "
		"kernel's OOM killer in dmesg) and run again with less",
	 .any = {"out of memory", "cannot allocate memory", "oom-kill", "oom killer", "oom_kill",
		 "oomkilled",
		 /* the same as an API's result names it, inside the identifier: Level Zero's
		  * "ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY" (oneCCL on Intel GPUs), CUDA driver's
		  * CUDA_ERROR_OUT_OF_MEMORY, Vulkan's VK_ERROR_OUT_OF_HOST_MEMORY; HIP's
		  * hipErrorOutOfMemory and Python's OutOfMemoryError */
		 "_out_of_memory", "_out_of_device_memory", "_out_of_host_memory", "OutOfMemory",
		 /* and as Slurm records a job's state, whole or cut to its column by sacct:
		  * "OUT_OF_MEMORY", "OUT_OF_ME+" */
		 "out_of_memory", "out_of_me+",
		 /* C++'s exception for an allocation the heap refused: "std::bad_alloc",
		  * "terminate called after throwing an instance of 'std::bad_alloc'" */
		 "bad_alloc",
		 /* an allocation of a size refused, in NCCL 1's words: "failed to allocate 2101248
		  * byte device buffer", "NCCL Init failed (10) 'cuda malloc failed'" */
		 "byte device buffer", "malloc failed",
		 /* vLLM: "No available memory for the cache blocks." */
		 "no available memory", "not enough memory", "insufficient memory",
		 /* Ray's memory monitor: "Task was killed due to the node running low on memory",
		  * "... which exceeds the memory usage threshold of 0.95" */
		 "low on memory", "memory usage threshold",
		 /* and its raylet's count: "13 Workers (tasks / actors) killed due to memory
		  * pressure (OOM)" */
		 "memory pressure", "(oom)",
		 /* and its object store: "System memory request exceeds memory available in
		  * /dev/shm" */
		 "exceeds memory available", "exceeds the memory available"}},
	/* memory a task asks for that the node cannot give it: Slurm's "srun: error: Unable to
	 * create step for job 1853845: Memory required by task is not available" (a node whose
	 * memory others hold) */
	{.cat = HCAT_RESOURCE,
	 .name = "memory",
	 .fix = "give the task the memory it asks for: a node with that much free (sinfo -N -o "
		"'%N %e' shows the free memory; a node left with stray processes is drained and "
		"cleaned), or ask for less (--mem, --mem-per-cpu)",
	 .any = {"memory required", "memory requested"},
	 .also = {"not available", "unavailable", "exceeds"}},
	/* a pool the program draws from with nothing left in it: Mooncake's store, its segments
	 * full, "Failed to start put operation: NO_AVAILABLE_HANDLE" */
	{.cat = HCAT_RESOURCE,
	 .name = "exhausted",
	 .what = "a pool the program draws from (handles, buffers, slots, segments) had none left",
	 .fix = "give the pool more room (the size the program's configuration sets for it) or "
		"free what holds it (requests or objects never released), then run again",
	 .any = {"no available", "none available"},
	 .also = {"handle", "buffer", "slot", "segment", "space"}},
	/* the same as a status's name: "NO_AVAILABLE_HANDLE" */
	{.cat = HCAT_RESOURCE,
	 .name = "exhausted",
	 .fix = "give the pool the status names more room (the size the program's configuration "
		"sets for it) or free what holds it (requests or objects never released), then run "
		"again",
	 .any = {"no_available_"}},
	/* the same as the CUDA runtime's error number alone: "CUDA error: 2" */
	{.cat = HCAT_RESOURCE,
	 .name = "memory",
	 .fix = "find what holds the GPU's memory (nvidia-smi; the job's batch size or buffers, "
		"memory a library keeps after it was freed) and run again with less",
	 .form = hlog__wf_cuda_oom},
	/* an allocation of a stated size refused, in any runtime's words: the Neuron runtime's
	 * "Failed to allocate 4.000GB (alignment: none, usage: tensors) on ND 0:NC 4", XLA's
	 * "failed to allocate 9.82G (10542804992 bytes) from device", UCX's "failed to allocate
	 * 4259952 bytes" */
	{.cat = HCAT_RESOURCE,
	 .name = "memory",
	 .what = "an allocation of memory failed: what was asked for was not free",
	 .fix = "find what holds the memory (the job's batch size or model shards, another process "
		"on the device or node, a cache that keeps it) and run again with less, or on a "
		"device with more free",
	 .form = hlog__wf_alloc_size},
	/* a process over the memory it was allowed, killed or restarted for it: YARN's
	 * "Container killed by YARN for exceeding memory limits", Dask's nanny "Worker exceeded
	 * 95% memory budget. Restarting", Slurm's "Job 7 exceeded memory limit (x > y), being
	 * killed" */
	{.cat = HCAT_RESOURCE,
	 .name = "memory",
	 .what = "a process went over the memory it was allowed",
	 .fix = "give the job more memory where its limit is set (the scheduler's or the "
		"container's: YARN's executor memory and overhead, Slurm's --mem, a pod's limits, "
		"Dask's worker memory limit) or make it use less (smaller batches or partitions)",
	 .any = {"memory limit", "memory budget", "mem limit",
		 /* LSF's end of a job it killed at its limit: "TERM_MEMLIMIT: job killed after
		  * reaching LSF memory usage limit." */
		 "memory usage limit", "term_memlimit"},
	 .also = {"exceed", "beyond", "above", "reaching"}},
	/* the node's shared memory (/dev/shm) smaller than the job asks: Ray's "The configured
	 * object store size exceeds the capacity of /dev/shm", a container's default 64 MB */
	{.cat = HCAT_RESOURCE,
	 .name = "memory",
	 .what = "the node's shared memory (/dev/shm) is smaller than the job needs",
	 .fix = "give the job more shared memory (docker run --shm-size, a Kubernetes emptyDir "
		"of medium Memory on /dev/shm) or ask it for less, then run again",
	 .any = {"/dev/shm"},
	 .also = {"exceeds", "too small", "not enough", "insufficient", "no space"}},
	/* an allocation that failed, in any library's words: "Alloc gva local mem error", NCCL's
	 * "Failed to CUDA calloc 6291456 bytes" (the line is already an error; the words say it
	 * was memory it could not get) */
	{.cat = HCAT_RESOURCE,
	 .name = "memory",
	 .what = "memory could not be allocated",
	 .fix = "find what holds the memory (the job's batch size, another process on the device "
		"or node, npu-smi info / nvidia-smi, the kernel's OOM killer in dmesg) and run "
		"again with less",
	 .any = {"alloc", "malloc", "calloc", "allocation",
		 /* and memory set aside for it: the Neuron runtime's "Failed to reserve one
		  * tmpbuf memory" */
		 "reserve"},
	 .also = {"mem", "bytes"},
	 /* locked memory is a limit of the process, not memory the node lacks (below) */
	 .not = {"locked memory", "memlock"}},
	/* the same in a library's shortest words: BKCL's "[WARN][BKCL][...kl2_init.cpp:108] param
	 * 0 data alloc failed" (Kunlun XPU), "allocation failed" */
	{.cat = HCAT_RESOURCE,
	 .name = "memory",
	 .fix = "find what holds the memory (the job's batch size, another process on the device "
		"or node, the device's own tool: npu-smi info, nvidia-smi, xpu-smi; the kernel's "
		"OOM killer in dmesg) and run again with less",
	 .any = {"alloc failed", "allocation failed", "alloc fail"}},
	/* a cloud or a scheduler with no machine left of the kind the job asked for: OCI's
	 * "problem launching instance: {... 'message': 'Out of host capacity.', 'status': 500}",
	 * CycleCloud's "Bucket NodeBucket(htc, available=0, ...) does not have capacity" */
	{.cat = HCAT_RESOURCE,
	 .name = "capacity",
	 .what = "the cloud or scheduler had no capacity left for the machines the job asked for",
	 .fix = "ask for machines that are there: another instance type, zone or region, a "
		"capacity reservation, or fewer nodes; or wait and start the nodes again (the "
		"provider's console or CLI shows what the region has)",
	 .any = {"out of host capacity", "out of capacity", "insufficient capacity",
		 "not have capacity", "no capacity",
		 /* a cluster's scheduler with no room for the pods: Volcano's "3/3 tasks in gang
		  * unschedulable: pod group is not ready, 3 Pending, 3 minAvailable" */
		 "unschedulable"}},
	/* the kubelet evicting a pod when its node ran short of memory, disk or process ids
	 * ("Status: Failed", "Reason: Evicted", "Message: The node was low on resource:
	 * memory.") */
	{.cat = HCAT_RESOURCE,
	 .name = "evicted",
	 .what = "the node ran short of a resource and its kubelet evicted the job's pod",
	 .fix = "read which resource ran short (kubectl describe pod: the Message line; kubectl "
		"describe node: its pressure conditions), then give the pod requests and limits "
		"that fit the node or move the job to nodes with room",
	 .any = {"evicted", "low on resource"}},
	/* a limit of the host or the NIC reached: EMFILE's text (Neuron's bootstrap "CCOM WARN
	 * Call to accept failed : Too many open files"), the mlx5 firmware's status 0x8
	 * ("CREATE_MKEY(0x200) op_mod(0x0) failed, status limits exceeded(0x8)": out of memory
	 * keys, or of UAR pages for the processes that opened the device) */
	{.cat = HCAT_RESOURCE,
	 .name = "limit",
	 .what = "a process ran into a limit of its host or its NIC",
	 .fix = "raise the limit the line names (open files: ulimit -n where the ranks start; "
		"locked memory: ulimit -l unlimited there, or memlock in limits.conf and the "
		"scheduler's or container's limits; a NIC's limits: fewer processes or registered "
		"buffers per NIC, e.g. a smaller registration cache) or start fewer ranks per node",
	 .any = {"too many open files", "limits exceeded", "limit exceeded",
		 /* a count over the most a resource allows: the Neuron runtime's "Number of ONE
		  * TMPBUF pages requested exceeded the max number of pages allowed (requested: 28,
		  * max allowed: 16)" */
		 "exceeded the max", "exceeds the max",
		 /* the locked-memory limit RDMA registrations need: Intel MPI's "DAPL startup:
		  * RLIMIT_MEMLOCK too small", ulimit's "max locked memory" */
		 "_memlock", "memlock", "locked memory",
		 /* and a registration refused in perftest's words, where that limit is the usual
		  * cause: "Couldn't allocate MR", "failed to create mr" */
		 "allocate mr", "create mr",
		 /* a queue or pool used up: MPICH over CXI, "MPICH suspects a hang due to
		  * completion queue exhaustion", gRPC's RESOURCE_EXHAUSTED */
		 "exhaustion", "exhausted",
		 /* an API's result for the same, as a phrase or inside its identifier: Level
		  * Zero's "UR_RESULT_ERROR_OUT_OF_RESOURCES", OpenCL's CL_OUT_OF_RESOURCES */
		 "out of resources", "_out_of_resources"},
	 /* but tries used up are no resource: MS-MPI's "unable to connect to 10.172.134.94 on
	  * port 24332, exhausted all endpoints" (a connection that failed every way) */
	 .not = {"exhausted all", "retries exhausted", "attempts exhausted"}},
	/* the ports a program may take, all taken: Ray's raylet, "Failed to register worker ... to
	 * Raylet. Invalid: Invalid: No available ports. Please specify a wider port range" */
	{.cat = HCAT_RESOURCE,
	 .name = "ports",
	 .what = "no free port was left in the range the program may use",
	 .fix = "widen the port range the program may use (its own option, e.g. Ray's "
		"--min-worker-port/--max-worker-port; net.ipv4.ip_local_port_range for ephemeral "
		"ports), run fewer processes per node, and stop processes of an earlier run that "
		"still hold ports",
	 .any = {"no available port", "no free port", "out of ports", "no more ports"}},
	/* no device for the job to run on: torch's "No CUDA GPUs are available", vLLM's "Current
	 * node has no NPU available", CUDA's "no CUDA-capable device is detected": the devices
	 * are not visible where the process runs */
	{.cat = HCAT_CONFIG,
	 .name = "no-device",
	 .what = "the process found no device to run on",
	 .fix = "make the devices visible where the process runs (ASCEND_RT_VISIBLE_DEVICES / "
		"CUDA_VISIBLE_DEVICES, the container's device list, the scheduler's device request "
		"on every node) and check them there with npu-smi info or nvidia-smi",
	 .any = {"no npu", "no npus", "no gpu", "no gpus", "no cuda", "no device", "no devices"},
	 .also = {"available", "found", "detected", "visible"}},
	{.cat = HCAT_LINK_DOWN,
	 .name = "link-down",
	 .what = "a network link is down",
	 .fix = "check the link of the NIC it names (cable, switch port, the NIC's link state) on "
		"both "
		"ends, then run again",
	 .any = {"link down", "link is down", "links are down", "port_down", "link state down",
		 /* a port's state as one word (the HCCN tool's "L1:link_fail", "L2:linkdown") */
		 "linkdown", "link_fail",
		 /* a switch port its own error shut: "Et23 errdisabled link-flap" */
		 "errdisabled",
		 "carrier lost",
		 /* systemd-networkd's: "ib6: lost carrier" */
		 "lost carrier",
		 /* Open MPI's openib: "there are no active ports detected (or Open MPI was unable
		  * to use them)" */
		 "no active ports",
		 /* an RDMA transfer engine on a NIC whose port has no link: "Device mlx5_3 port
		  * not active" */
		 "port not active", "port is not active",
		 /* perftest on a port without a link: "Port number 1 state is Down" */
		 "state is down",
		 /* NVML on a GPU none of whose NVLinks came up, under nvidia-smi nvlink -s's
		  * heading for it: "NVML: Unable to retrieve NVLink information as all links are
		  * inactive" */
		 "links are inactive", "link is inactive",
		 /* a node health check's verdict on its RDMA links: OCI's node problem detector,
		  * "RdmaLink       True     RdmaLinkHasIssues      Healthcheck:: RDMA Link Error" */
		 "rdma link error",
		 /* a switch's or NIC's port that failed, in its own alarm: a SuperPod switch's
		  * "%%01DEVM/1/hwPortFail_active(l):...;The port failed partially. (...,
		  * EntPhysicalName=400GHL1/1/2:1, ..., Reason=Port real lanes are less than
		  * quarter of the configured lanes.)" (not a socket's port: see .not) */
		 "port failed", "port has failed"},
	 .not = {"bind", "connect", "listen", "socket", "tcp", "udp"}},
	/* a link that passes errors at the physical layer: HPE Slingshot's cxiberstat,
	 * "x2510c7s6b0n0: Warning: encountered unexpected Link Mode NA for non-zero error rate
	 * 595424" (a cable, transceiver or port going bad, the link about to drop) */
	{.cat = HCAT_LINK_DOWN,
	 .name = "link-errors",
	 .what = "a network link is passing errors at the physical layer",
	 .fix = "check the link the line names on both ends (its cable and transceiver, the "
		"switch port; the NIC's error counters and link state); reseat or replace what is "
		"failing, then run again",
	 .any = {"error rate", "bit error", "symbol error", "crc error"},
	 .also = {"link", "port", "lane"}},
	/* a node health check that finds no port up: NHC's check_hw_ib "No IB port is ACTIVE
	 * (LinkUp 100 Gb/sec)." (or "No IB port 1 is ACTIVE") */
	{.cat = HCAT_LINK_DOWN,
	 .name = "link-down",
	 .fix = "check the link of the NIC it names (cable, switch port, the NIC's link state) on "
		"both ends (ibstat, ip link), then run again",
	 /* and Omni-Path's PSM2 on a node whose HFI has no active port: "PSM2 no hfi units
	  * are active (err=23)" */
	 .any = {"no ib port", "no infiniband port", "no port", "no hfi unit"},
	 .also = {"is active", "are active"}},
	/* a node whose InfiniBand adapter is not seen at all (not seated, dead, or its driver not
	 * loaded): NHC's check_hw_ib "No Infiniband device was found.", libibverbs' example
	 * programs' (ibv_rc_pingpong) "No IB devices found" (NCCL's "NET/IB : No device
	 * found." is INFO, no error line) */
	{.cat = HCAT_LINK_DOWN,
	 .name = "link-down",
	 .fix = "check that the node sees its InfiniBand adapter (lspci, ibstat, ibv_devinfo) and "
		"that the adapter's driver is loaded (mlx5_ib, ib_uverbs); reseat or replace it, or "
		"take the node out, then run again",
	 .any = {"no infiniband device", "no ib device", "no rdma device"}, /* "...s" too */
	 .also = {"found", "detected"}},
	/* a NIC the transport was told to use that it finds no usable port of (down, or gone):
	 * UCX's "network device 'mlx5_ib0:1' is not available, please use one or more of:
	 * 'eth0'(tcp), 'lo'(tcp)" on the one node of 256 whose InfiniBand port was missing */
	{.cat = HCAT_LINK_DOWN,
	 .name = "link-down",
	 .fix = "check the NIC and port the line names on that node (ibstat or ibv_devinfo: its "
		"state and physical state; ip link), bring the port up or take the node out, and "
		"name the same devices on every node (UCX_NET_DEVICES, NCCL_IB_HCA)",
	 .any = {"network device", "net device"},
	 .also = {"not available"}},
	{.cat = HCAT_NET,
	 .name = "name-resolution",
	 .what = "a host name does not resolve",
	 .fix = "make every node's host name resolve on every node (/etc/hosts or DNS), or give "
		"addresses instead of names",
	 .any = {"name or service not known", "name resolution", "gethostbyname",
		 "could not resolve", "unknown host", "nodename nor servname", "can't resolve",
		 "cannot resolve", "does not resolve",
		 /* gRPC's status 14 text: "error_code 14 error_message DNS resolution failed" */
		 "dns resolution"},
	 /* what else a program resolves: the GPU operator's driver container, "Could not
	  * resolve Linux kernel version" (no driver image for the node's OS); a linker's or a
	  * package manager's */
	 .not = {"version", "symbol", "dependenc", "import", "reference"}},
	/* no network interface to use, in any library's words: oneCCL's "fill_local_host_ip:
	 * can't find interface to get host IP" (only loopback there), Gloo's "Unable to find
	 * address for: eth0", NCCL's "no socket interface found" */
	{.cat = HCAT_CONFIG,
	 .name = "no-interface",
	 .what = "no network interface the job can use was found on this node",
	 .fix = "name an interface that exists, is up and has an address on the nodes' network, "
		"the same on every node (NCCL_SOCKET_IFNAME, GLOO_SOCKET_IFNAME, CCL_KVS_IFACE or "
		"the library's own setting; ip -br addr lists them), and in a container give it the "
		"host's network",
	 .any = {"find interface", "find address for", "no socket interface", "no interface found",
		 /* Flux's broker given a network no interface of the node is on:
		  * "flux-broker: could not find address associated with 192.16.1.1/24" */
		 "find address associated with",
		 "interface not found", "no such interface", "no usable interface",
		 /* a NIC the transport was pointed at and cannot open: libfabric's PSM3 on a plain
		  * Ethernet port, "PSM3 can't open nic unit: 0 (err=23)" */
		 "open nic"}},
	/* a configuration file that lists one thing twice: Slurm's "slurmd[57977]: fatal:
	 * gres.conf duplicate records for gpu", "slurmctld[26180]: error: Duplicated NodeHostName
	 * nrel-hpc-0 in the config file" */
	{.cat = HCAT_CONFIG,
	 .name = "setting",
	 .what = "a configuration file lists the same entry twice",
	 .fix = "keep one entry for each name in the file the line names (the same file on "
		"every node), then restart the service that read it",
	 .any = {"duplicate record", "duplicate entr", "duplicated "},
	 .also = {"config", ".conf"}},
	/* a bound a setting breaks: "HCCL_BUFFSIZE is too SMALL", "NCCL_SOCKET_IFNAME is not
	 * set", "the parameter ... must be ..." (a setting named with a bound it misses) */
	{.cat = HCAT_CONFIG,
	 .name = "setting",
	 .what = "a setting is outside what the job needs",
	 .fix = "set the variable or option the line names to a value within the bound it gives "
		"(the same on every node), then run again",
	 .any = {"too small", "too large", "too big", "is not set", "not set", "must be",
		 "must not", "should be", "out of range", "exceeds the", "invalid value",
		 /* a setting the program cannot work under: DCGM's "GPU 0's MIG configuration is
		  * incompatible with the diagnostic because it prevents access to the entire GPU." */
		 "is incompatible", "are incompatible",
		 /* a maximum the job's own setting puts, and the program saying so: NVRx's
		  * "Maximum number of nodes (4) exceeded. ... This is likely a configuration
		  * error - please check max_nodes setting." */
		 "exceeded"},
	 .also = {"HCCL_", "NCCL_", "GLOO_", "TORCH_", "ASCEND_", "MASTER_ADDR", "MASTER_PORT",
		  "WORLD_SIZE", "environment variable", "parameter", "config", "configuration",
		  "setting"}},
	/* the same said of a variable the program needs and was not given, whatever its prefix:
	 * "HPCX_DIR is not set." */
	{.cat = HCAT_CONFIG,
	 .name = "setting",
	 .form = hlog__wf_env_unset},
	/* a feature of the node or the program whose state is the error itself: AMD uProf's
	 * "Error: NMI watchdog is enabled. NMI uses one Core HW PMC counter." (not a guess at
	 * what a state may have caused) */
	{.cat = HCAT_CONFIG,
	 .name = "setting",
	 .what = "a feature is on or off where the program needs the other",
	 .fix = "turn the feature the line names on or off as the program needs (a kernel setting "
		"through sysctl, a driver's module option, the program's own option), on every "
		"node, then run again",
	 .any = {"is enabled", "is not enabled", "is disabled", "is not disabled"},
	 .sure = 1},
	/* a file system that is full: "msg_mgr_dump raise error[[Errno 28] No space left on
	 * device]" (CANN's operator compiler on a full disk) */
	{.cat = HCAT_RESOURCE,
	 .name = "disk-full",
	 .what = "a disk the job writes to is full",
	 .fix = "free or enlarge the file system the job writes to (df -h; its caches, logs and "
		"temporary files: ~/.cache, ~/ascend/log, /tmp, the kernel_meta directory), then "
		"run again",
	 .any = {"no space left on device", "enospc", "disk quota exceeded",
		 /* Ray's object store spilling to a full disk: "ray.exceptions.OutOfDiskError:
		  * Local disk is full" */
		 "disk is full", "OutOfDisk"}},
	/* and a file system's use told as a share, at or near the top, or its space left as
	 * none: Ray's file_system_monitor, "/tmp/ray/session_2023-12-06_16-50-22_168114_101109
	 * is over 95% full, available space: 0; capacity: 67108864" (not a buffer, queue or
	 * memory said to be full, the rows below) */
	{.cat = HCAT_RESOURCE,
	 .name = "disk-full",
	 .any = {"% full", "available space: 0"},
	 .not = {"buffer", "queue", "memory", "pool", "cache", "store"}},
	/* a store the job puts data in that is full: Ray's "Failed to put object ... in object
	 * store because it is full", a queue or buffer that is */
	{.cat = HCAT_RESOURCE,
	 .name = "store-full",
	 .what = "a store the job puts data in is full",
	 .fix = "find what fills it and give it more room or put less in it at a time: an object "
		"store (Ray's --object-store-memory and spilling to a disk with space; objects "
		"larger than the store must be split), a queue or buffer the line names (its size "
		"setting)",
	 .any = {"is full", "are full", "was full"},
	 .also = {"store", "queue", "buffer", "cache", "pool", "memory"}},
	/* a table of the node's kernel that its traffic filled: netfilter's connection tracking,
	 * "nf_conntrack: table full, dropping packet" (a node that opens many connections, or a
	 * limit set low). New connections are dropped: rendezvous and links time out on that
	 * node. */
	{.cat = HCAT_RESOURCE,
	 .name = "kernel-table-full",
	 .what = "a table of the node's kernel is full and it drops the packets that need a new "
		 "entry",
	 .fix = "raise the table's limit on that node (connection tracking: sysctl "
		"net.netfilter.nf_conntrack_max, and kube-proxy's --conntrack-min on Kubernetes) "
		"or find what fills it (conntrack -C counts the entries), then run again",
	 .any = {"table full", "table is full"}},
	/* a backend the installed build lacks: "RuntimeError: Distributed package doesn't have
	 * NCCL built in" (DeepSpeed asking for nccl on an Ascend node), "Torch not compiled with
	 * CUDA enabled" */
	/* the MPI library and the launcher without a process-management interface in common:
	 * every rank starts alone, as a singleton (Open MPI 5 under srun --mpi=pmi2: "No PMIx
	 * server was reachable, but a PMI1/2 was detected. ... 4 singletons will be started";
	 * MPICH's "This singleton init program attempted to access some feature for which
	 * process manager support was required"; "OMPI was not built with SLURM's PMI support").
	 * Not a PMI_Init that failed alone: it fails too when another rank died first */
	{.cat = HCAT_CONFIG,
	 .name = "pmi-launch",
	 .what = "the MPI library and the launcher share no process-management interface, so the "
		 "ranks did not start as one job",
	 .fix = "launch with what the MPI library was built for (srun --mpi=pmix or pmi2 as "
		"srun --mpi=list shows and the library supports; or the library's own mpirun / "
		"mpiexec), or rebuild the library with the scheduler's PMI",
	 /* MPI's singletons in its words ("4 singletons will be started", "This singleton init
	  * program"), not a class of that name ("Recipe-Singleton") */
	 .any = {"singletons", "singleton init", "pmix server", "pmi support"}},
	/* the same seen from Open MPI's PMIx client, which found no server to talk to where the
	 * launcher started it: "OPAL ERROR: Unreachable in file ../../../../../opal/mca/pmix/
	 * pmix3x/pmix3x_client.c at line 111" (srun without --mpi=pmix, or a library built
	 * without the scheduler's PMI) */
	{.cat = HCAT_CONFIG,
	 .name = "pmi-launch",
	 .any = {"pmix2x_client", "pmix3x_client", "ext2x_client", "ext3x_client"},
	 .also = {"unreachable"}},
	{.cat = HCAT_CONFIG,
	 .name = "backend-missing",
	 .what = "the job asks for a backend its installed build does not have",
	 .fix = "ask for the backend the node's devices have (hccl on Ascend NPUs, nccl on NVIDIA "
		"GPUs, gloo on CPUs: the launcher's or framework's backend option), or install the "
		"build that has it",
	 .any = {"built in", "compiled with", "built with"},
	 .also = {"doesn't have", "does not have", "not compiled", "not built"}},
	/* the same as advice to rebuild: MXNet's "compile with USE_DIST_KVSTORE=1 to use
	 * dist_sync" */
	{.cat = HCAT_CONFIG,
	 .name = "backend-missing",
	 .fix = "install a build of the framework that has the feature the line names (or build "
		"it with the option the line gives), or ask for one the installed build has",
	 .any = {"compile with", "recompile with", "rebuild with", "build with"},
	 .also = {"to use", "to enable", "to support"},
	 /* but not a build that adds checks for debugging: torch's "Compile with
	  * `TORCH_USE_CUDA_DSA` to enable device-side assertions." under every CUDA error */
	 .not = {"assertion", "debug"}},
	/* a release whose own default its build lacks: torch's TCPStore asking for libuv by
	 * default on Windows wheels built without it, "use_libuv was requested but PyTorch was
	 * built without libuv support, run with USE_LIBUV=0 to disable it" (the user asked for
	 * nothing; other releases do not ask, or have it) */
	{.cat = HCAT_VERSION,
	 .name = "version",
	 .what = "software versions do not fit together",
	 .fix = "install a PyTorch release whose store default fits its build (on Windows one "
		"that does not ask for libuv), or turn it off as the line says: USE_LIBUV=0 in "
		"the launch's environment on every node",
	 .any = {"use_libuv was requested"},
	 .also = {"built without", "build without"}},
	/* and as the build's own lack of a feature asked for: "... but PyTorch was built without
	 * libuv support" said of a feature the job's own setting requested */
	{.cat = HCAT_CONFIG,
	 .name = "backend-missing",
	 .what = "the job asks for a feature its installed build does not have",
	 .fix = "turn the feature off as the line says (its option or variable), or install a "
		"build of the framework that has it",
	 .any = {"built without", "build without", "compiled without"},
	 .also = {"support", "requested", "enabled"}},
	/* in the passive: Horovod's "ValueError: MPI support has not been built.  If this is not
	 * expected, ensure MPI is installed and reinstall Horovod with HOROVOD_WITH_MPI=1" */
	{.cat = HCAT_CONFIG,
	 .name = "backend-missing",
	 .what = "the job asks for a feature its installed build does not have",
	 .fix = "install a build that has the feature the line names (or rebuild it with the "
		"option the line gives), or ask for one the installed build has",
	 .any = {"not been built", "not been compiled"},
	 .also = {"support"}},
	/* a program the job starts is not installed where it runs: "bash: orted: command not
	 * found" (Open MPI's daemon on a node whose PATH lacks it) */
	{.cat = HCAT_CONFIG,
	 .name = "not-installed",
	 .what = "a program the job starts is not installed",
	 .fix = "install the program the line names on every node at the same path, or make the "
		"non-interactive shell of each node find it (PATH and LD_LIBRARY_PATH set in "
		"~/.bashrc before its interactive check, or the launcher's prefix option)",
	 .any = {"command not found",
		 /* Open MPI's launcher for a program missing on a node it starts ranks on:
		  * "mpirun was unable to find the specified executable file, and therefore" */
		 "find the specified executable",
		 /* and for one it cannot run there: "mpirun was unable to launch the specified
		  * application as it could not access" (over "or execute an executable:") */
		 "unable to launch the specified application"}},
	/* and said of the search path: Open MPI's Slurm starter, "The SLURM process starter for
	 * OpenMPI was unable to locate a" / "usable "srun" command in its path." */
	{.cat = HCAT_CONFIG,
	 .name = "not-installed",
	 .any = {"in its path", "in your path", "in the path", "in $path"},
	 .also = {"unable to locate", "unable to find", "could not find", "cannot find",
		  "can't find", "not found", "could not locate", "cannot locate"}},
	/* the shell refusing a line of the job's script, in bash's words: "/bin/bash:
	 * SSH_CONNECTION: readonly variable", "/usr/bin/enroot: line 44: HOME: unbound variable"
	 * (set -u), "bad substitution", "syntax error near unexpected token" */
	{.cat = HCAT_CONFIG,
	 .name = "shell",
	 .what = "the shell refused a line of the job's launch script",
	 .fix = "correct the script or environment the line names: a variable the shell keeps "
		"read-only (SSH_*, UID, PPID) must not be set or exported to the ranks, a variable "
		"used under set -u must be set on every node, and the script must parse "
		"(bash -n SCRIPT)",
	 .any = {"readonly variable", "unbound variable", "bad substitution",
		 "syntax error near unexpected token",
		 /* a quote left open: "slurm_script: line 111: unexpected EOF while looking for
		  * matching `"'", then "line 112: syntax error: unexpected end of file" */
		 "unexpected EOF while looking for matching", "syntax error: unexpected end of file"}},
	/* a container image the node cannot pull, in Kubernetes' words (its events and pod
	 * statuses, whatever operator relays them): "Warning  ErrImagePull ... failed to pull and
	 * unpack image \"docker.io/...\": ... not found", "Back-off pulling image ..." */
	{.cat = HCAT_CONFIG,
	 .name = "image-pull",
	 .what = "a node could not pull the job's container image",
	 .fix = "check the image's name and tag in the job's spec against the registry (a worker's "
		"image often differs from the chief's by a typo), the node's access to the registry "
		"and the pull secret, then start the job again",
	 .any = {"errimagepull", "imagepullbackoff", "pulling image", "pull image",
		 "pull and unpack image"},
	 /* a pull the network failed is the network's ("dial tcp ...: i/o timeout") */
	 .not = {"dial tcp", "i/o timeout", "connection refused", "no route to host"}},
	/* a container that the runtime could not start, in containerd's, runc's and Docker's
	 * words: "Error response from daemon: failed to create task for container: failed to
	 * create shim task: OCI runtime create failed: ... error running prestart hook #0: exit
	 * status 255, ... failed to mount src: /usr/local/bin/npu-smi" (a device runtime's hook
	 * that mounts the host's driver and tools) */
	{.cat = HCAT_CONFIG,
	 .name = "container-start",
	 .what = "the container runtime could not start the job's container",
	 .fix = "read the runtime's or its hook's reason on the line (a file or device of the "
		"host it cannot mount, a path already there, a runtime not set up: "
		"ascend-docker-runtime or nvidia-container-toolkit and its config), fix that "
		"on the node, and check the container's devices and mounts against what the "
		"host has",
	 .any = {"oci runtime create failed", "oci runtime exec failed", "failed to create shim",
		 "error during container init", "prestart hook", "createcontainer hook"},
	 /* the hook's reason a version the host lacks: the versions' row says it ("requirement
	  * error: unsatisfied condition: cuda>=11.0, please update your driver to a newer
	  * version") */
	 .not = {"unsatisfied condition", "newer version"}},
	/* the job's settings read for a key they do not hold (wordfam_forms.c): "'Namespace'
	 * object has no attribute 'rank'" */
	{.cat = HCAT_CONFIG,
	 .name = "arguments",
	 .what = "the program reads a setting its configuration does not hold",
	 .fix = "give the setting the line names (the key in the config file, or the option on "
		"the command line or in the launcher's template), or run the program with the "
		"config file made for its release",
	 .form = hlog__wf_settings_object_attr},
	/* a command line the program refuses: click's "Error: Missing argument --ray_address"
	 * (a launcher template whose variable was never filled), argparse's "error: the
	 * following arguments are required: --nnodes", "unrecognized arguments: --foo" */
	{.cat = HCAT_CONFIG,
	 .name = "arguments",
	 .what = "the command the job was started with is not one the program accepts",
	 .fix = "correct the command line the line names (the option it lacks or does not know): "
		"the launcher's template, the job's manifest, or the environment variable that was "
		"to fill it in",
	 .any = {"missing argument", "missing option", "arguments are required",
		 "argument is required", "unrecognized argument", "unrecognized option",
		 "unknown option", "no such option"}},
	/* the same refusal of a word of the command line, said of any part of it: Open MPI's
	 * "The mapping request contains an unrecognized modifier:" (of --map-by) */
	{.cat = HCAT_CONFIG,
	 .name = "arguments",
	 .any = {"unrecognized", "unrecognised", "not recognized", "not recognised"},
	 .also = {"argument", "option", "modifier", "flag", "parameter", "keyword", "directive",
		  "switch", "token"}},
	/* a value the program needs and was not given, on its error line: Intel VTune's "vtune:
	 * Error: MPI application analysis is not possible if a result directory name is not
	 * provided or contains @ characters." */
	{.cat = HCAT_CONFIG,
	 .name = "arguments",
	 .what = "the program was not given a value it needs",
	 .fix = "give the program what the line says it lacks (its option on the command line, "
		"the key in its config file or the environment variable), then run again",
	 .any = {"not provided", "not specified", "was not given", "were not given"}},
	/* a job script's own check of its command line: "/var/spool/slurm/slurmd/job09770/
	 * slurm_script: line 13: 1: ERROR: global batch size must be passed as first argument to
	 * job.sh" */
	{.cat = HCAT_CONFIG,
	 .name = "arguments",
	 .fix = "give the job the argument the line names (the submit command's arguments to the "
		"script, the launcher's template), then run again",
	 .any = {"must be passed", "must be given", "must be provided", "must be specified"},
	 .also = {"argument", "option", "parameter", "flag"}},
	/* a TLS peer whose certificate does not vouch for the name or address it was reached at,
	 * or is not trusted: gRPC under Ray's TLS, "ipv4:10.108.163.118:6379: Peer name
	 * 10.108.163.118 is not in peer certificate"; OpenSSL's "certificate verify failed",
	 * Go's "x509: certificate signed by unknown authority" (the connection was made: what
	 * fails is the trust) */
	{.cat = HCAT_CONFIG,
	 .name = "certificate",
	 .what = "a TLS certificate was refused",
	 .fix = "issue the certificate for every name and address the peers use to reach it (its "
		"subject alternative names: the pod's or node's IP and host name), signed by the CA "
		"every peer trusts and valid at the nodes' time (check their clocks); then restart "
		"the services that load it",
	 .any = {"peer certificate", "certificate verify failed", "certificate_verify_failed",
		 "x509:", "certificate has expired", "certificate is not valid", "unknown authority",
		 "bad certificate", "tls handshake", "ssl handshake"}},
	/* a library a program loads is not where the loader looks, in the loader's own words:
	 * "error while loading shared libraries: libhccl.so: cannot open shared object file",
	 * Slurm's "dlopen(.../switch_hpe_slingshot.so): libjson-c.so.3: cannot open shared
	 * object file" (NCCL's plugin probe says it at INFO level, which is no error line) */
	{.cat = HCAT_CONFIG,
	 .name = "library-missing",
	 .what = "a library a program loads is missing where it runs",
	 .fix = "install the library the line names on every node (the same release as where the "
		"program was built), or point the loader at it (LD_LIBRARY_PATH, ldconfig, the "
		"container's mounts); ldd on the program lists what is not found",
	 .any = {"cannot open shared object file", "error while loading shared libraries",
		 /* and the linker's, building a kernel at run time: "/usr/bin/ld: cannot find
		  * -lcudart" */
		 "cannot find -l",
		 /* a library the program was to be linked with, missing from its build: Cray
		  * MPICH's "GPU_SUPPORT_ENABLED is requested, but GTL library is not linked" */
		 "library is not linked", "library not linked"}},
	/* a library the program tried to load and could not, said without the loader's words:
	 * NVIDIA's device plugin, "Failed to start nvml with error:  could not load NVML
	 * library"; XLA's "Unable to load NCCL library" */
	{.cat = HCAT_CONFIG,
	 .name = "library-missing",
	 .fix = "install the library the line names on every node (the same release as where the "
		"program was built), or point the loader at it (LD_LIBRARY_PATH, ldconfig, the "
		"container's mounts and runtime: a GPU container needs the vendor's runtime to mount "
		"the driver's libraries)",
	 .any = {"could not load", "couldn't load", "cannot load", "can't load", "unable to load",
		 "failed to load",
		 /* Slurm's MPI plugin: "mpi/pmix_v5: init: (null) [0]: mpi_pmix.c:193: pmi/pmix:
		  * can not load PMIx library" */
		 "can not load",
		 /* and a status's name for it, NVML's in HAMi's device plugin: "failed to
		  * initialize NVML: ERROR_LIBRARY_NOT_FOUND" */
		 "library not found", "_library_not_found"},
	 .also = {"library", "libraries", "_library_not_found"}},
	/* processes that could not be pinned to the cores asked for: Open MPI's "hwloc_set_cpubind
	 * returned \"Error\" for bitmap \"0\"" on a node shared with other jobs, Slurm's
	 * "srun: error: CPU binding outside of job step allocation" */
	{.cat = HCAT_CONFIG,
	 .name = "binding",
	 .what = "processes could not be bound to the cores asked for",
	 .fix = "bind within the cores the job was given (srun --cpu-bind or mpirun --bind-to "
		"with the allocation's cores; --bind-to none where the node is shared), or ask the "
		"scheduler for whole nodes or as many cores as ranks",
	 .any = {"cpubind", "_cpubind", "membind", "_membind", "cpu binding", "cpu-bind", "bind to core",
		 "binding more"},
	 .also = {"error", "fail", "outside", "more processes than"}},
	/* a kernel module the job's stack needs, not loaded: NVIDIA's fabric manager pre-check,
	 * "Kernel module "ib_umad" has not been loaded, fabric manager cannot be started" */
	/* and a driver, said as the likely reason: the Ascend runtime's "Failed to get phy dev id
	 * by logic dev id, driver may not be loaded" */
	{.cat = HCAT_CONFIG,
	 .name = "module-not-loaded",
	 .what = "a kernel module or driver the job's stack needs is not loaded",
	 .fix = "load the module the line names on that node (modprobe NAME; lsmod lists what is "
		"loaded; for a device's driver, its install and its device nodes under /dev) and "
		"have it loaded at boot (/etc/modules-load.d), then start the service or job again",
	 .any = {"module", "driver"},
	 .also = {"not loaded", "not be loaded", "not been loaded", "isn't loaded"}},
	/* a shared-memory object that is not there (ENOENT from shm_open or under /dev/shm): its
	 * name is one a process of the job made, not a path the job names. NCCL's troubleshooting
	 * names the usual setting: systemd-logind's RemoveIPC removing a user's segments under a
	 * running job ("unlink shared memory /dev/shm/nccl-d5rTd0 failed, error: No such file or
	 * directory"); ranks of one node in separate IPC namespaces do the same. UCX's
	 * "mm_posix.c:238  UCX  ERROR shm_open(file_name=/ucx_shm_posix_2e841ba5 flags=0x0)
	 * failed: No such file or directory" */
	{.cat = HCAT_CONFIG,
	 .name = "shm-gone",
	 .what = "a shared-memory segment a process of the job made is gone",
	 .fix = "keep /dev/shm of a running job: RemoveIPC=no in /etc/systemd/logind.conf (then "
		"restart systemd-logind) where the job's user logs out, no cleaner of /dev/shm, and "
		"the ranks of a node in one IPC namespace (--ipc=host, or one pod per node); if "
		"none applies, the rank that made it exited first: find it in the launcher's lines",
	 .any = {"shm_open", "/dev/shm/", "sem_open", "shmget", "shmat"},
	 .also = {"no such file or directory", "enoent"}},
	/* a path the job names that is not there on the node that runs it (ENOENT): the
	 * launcher's workers without the script, "/usr/bin/python3: can't open file
	 * 'train_mpu.py': [Errno 2] No such file or directory", Python's FileNotFoundError */
	{.cat = HCAT_CONFIG,
	 .name = "missing-file",
	 .what = "a file or directory the job names is not there",
	 .fix = "check the path the line names on the node that printed it (the script, data, "
		"model or checkpoint; a mount or a copy missing on that node or in its container); "
		"give every node the same files at the same path",
	 .any = {"no such file or directory", "filenotfounderror"}},
	/* and a program's own check that it is there, a bare assert the scan joins to the
	 * statement its traceback printed: "AssertionError: os.path.exists(path)" (NVIDIA's
	 * Transformer-XL without its dataset's train.txt) */
	{.cat = HCAT_CONFIG,
	 .name = "missing-file",
	 .any = {"AssertionError: os.path.exists(", "AssertionError: os.path.isfile(",
		 "AssertionError: os.path.isdir("}},
	/* a path that is there but of the other kind: a file where a directory is wanted or the
	 * other way round (kubelet's "MountVolume.SetUp failed for volume ... : hostPath type
	 * check failed: /var/log/mindx-dl/ascend-device-plugin is not a directory", Python's
	 * NotADirectoryError and IsADirectoryError; libc's strerror of EISDIR, as CatBoost
	 * quotes it: "AN EXCEPTION OCCURRED. (TFileError) (Is a directory)
	 * util/system/file.cpp:877: can not read data from "/my-data-folder"") */
	{.cat = HCAT_CONFIG,
	 .name = "path-kind",
	 .what = "a path the job names is a file where a directory is wanted, or a directory "
		 "where a file is",
	 .fix = "look at the path the line names on the node that printed it (ls -ld): create the "
		"directory, or remove the file that stands in its place (a mount or a volume's "
		"hostPath made before it existed is a common one), the same on every node",
	 .any = {"is not a directory", "notadirectoryerror", "isadirectoryerror", "is a directory"},
	 /* (a provider's own error number that libfabric prints with errno's text, "prov_err:
	  * Not a directory (20)", is no path) */
	 .not = {"prov_err"}},
	/* a device another process or container already holds: the NPU driver's "dcmi model
	 * initialized failed, because the device is used. ret is -8020", EBUSY's "Device or
	 * resource busy" from an open */
	{.cat = HCAT_CONFIG,
	 .name = "device-held",
	 .what = "a device the job needs is held by another process or container",
	 .fix = "find what holds the device (npu-smi info or nvidia-smi lists the processes; "
		"lsof or fuser on its /dev node; another container given the same device) and stop "
		"it, or give this job other devices; one device per container",
	 .any = {"device is used", "device is busy", "device or resource busy", "device is in use",
		 "used by another", "occupied by another",
		 /* CUDA's cudaErrorDevicesUnavailable: "CUDA-capable device(s) is/are busy or
		  * unavailable" */
		 "busy or unavailable"}},
	{.cat = HCAT_CONFIG,
	 .name = "device-held",
	 .fix = "find what holds the GPUs (nvidia-smi lists the processes and the compute mode: "
		"in Exclusive_Process one process per GPU) and stop it, or give each rank a GPU of "
		"its own (its local rank's, CUDA_VISIBLE_DEVICES)",
	 .form = hlog__wf_cuda_busy},
	/* a credential refused as expired or from the future: the clocks of the nodes disagree
	 * (munge's "Munge decode failed: Expired credential" on a node 5 minutes ahead; Slurm's
	 * "Task launch for 1466614.0 failed on node compute-0-1: Job credential expired"), or
	 * one kept past its lifetime */
	{.cat = HCAT_CONFIG,
	 .name = "clock",
	 .what = "a credential was refused as expired or not yet valid: the clocks of the nodes "
		 "disagree, or it was kept past its lifetime",
	 .fix = "compare the clocks of the nodes (date on each, chronyc tracking or timedatectl) "
		"and keep them in step with NTP or chrony, in containers too; then restart the "
		"services that issue and check the credentials (munge, slurmd) and run again",
	 .any = {"expired credential", "credential expired", "rewound credential",
		 "credential is not yet valid", "certificate is not yet valid", "clock skew",
		 "clock skewed", "clocks are skewed"}},
	/* access refused, in any library's words: ssh between the nodes "Permission denied
	 * (publickey,password)", "open /dev/davinci0: Permission denied", EPERM's "Operation not
	 * permitted" */
	{.cat = HCAT_CONFIG,
	 .name = "permission",
	 .what = "an access was refused (a permission, a key or a capability the job lacks)",
	 .fix = "give the job's user what the line names: the node's ssh key in authorized_keys "
		"for password-less login between the nodes, read/write access to the device or "
		"file (its group, e.g. HwHiAiUser for /dev/davinci*), or the container's "
		"capability; then run again",
	 .any = {"permission denied", "access denied", "operation not permitted", "eacces",
		 "insufficient permission", "insufficient privilege",
		 /* ssh refusing the login, in OpenSSH's and paramiko's words (a launcher that
		  * starts the other nodes over ssh: "exception: No authentication methods
		  * available", "not a valid RSA private key file") */
		 "host key verification failed", "authentication failed",
		 "no authentication methods", "not a valid rsa private key",
		 /* Kubernetes' API server refusing a service account a verb its role lacks:
		  * "endpoints \"tf-operator\" is forbidden: User
		  * \"system:serviceaccount:default:tf-job-operator\" cannot get endpoints in the
		  * namespace \"default\"" */
		 "is forbidden",
		 /* a cloud API refusing the credentials the cluster's own service uses: AWS's "The
		  * provided credentials do not have permission to create the service-linked role
		  * for EC2 Spot Instances." */
		 "not have permission",
		 /* HTTP's 401 and 403 from a registry or service the job must log in to: enroot's
		  * "[ERROR] URL https://registry-1.docker.io/v2/.../manifests/... returned error
		  * code: 401 Unauthorized" */
		 "401 unauthorized", "403 forbidden",
		 /* sudo asking for a password where nobody can type it: Ansible's "fatal:
		  * [172.0.0.100]: FAILED! => {\"msg\": \"Missing sudo password\"}", sudo's own "a
		  * password is required" */
		 "sudo password", "password is required",
		 /* a daemon refusing a request from a user it does not trust: Slurm's slurmd,
		  * "error: Security violation, acct_gather_update RPC from uid 994" (the
		  * controller's SlurmUser not the same uid on every node) */
		 "security violation"}},
	/* and by EPERM's or EACCES's number alone: Open MPI's shared memory copy without the
	 * ptrace capability, "Read -1, expected 10024, errno = 1" */
	{.cat = HCAT_CONFIG,
	 .name = "permission",
	 .fix = "give the job's user what the call needs: access to the device or file, or the "
		"container's capability (SYS_PTRACE for a copy between processes, CMA); then run "
		"again",
	 .form = hlog__wf_errno_access},
	/* the CUDA runtime's words for a node whose GPU software is not set up to run
	 * (cudaGetErrorString of cudaErrorSystemNotReady): "system not yet initialized", on
	 * NVSwitch systems the fabric manager not running */
	{.cat = HCAT_CONFIG,
	 .name = "gpu-not-ready",
	 .what = "the GPUs of this node are not ready for CUDA work",
	 .fix = "on NVSwitch systems (HGX, DGX) start the fabric manager (systemctl start "
		"nvidia-fabricmanager, its version equal to the driver's); check nvidia-smi, the "
		"container's GPU access (--gpus) and CUDA_VISIBLE_DEVICES",
	 .any = {"system not yet initialized"}},
};
const size_t hlog__nfams_node = sizeof(hlog__fams_node) / sizeof(hlog__fams_node[0]);
