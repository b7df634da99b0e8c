/* The word families (see wordfam.c): each row a family of failure, the phrases that name
 * it, its cause and fix; the rows go from the cause that explains the most to the least. The
 * comment over each row quotes the real lines it was written for. */
#include <stddef.h>

#include "probes/npu/hcclcodes.h"
#include "probes/logs/hlogcause.h"
#include "probes/logs/wordfam.h"

const struct family hlog__fams[] = {
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
		 "xid", "go unhealthy", "marked unhealthy"}},
	/* the NVIDIA driver that cannot bring a GPU up at boot: "NVRM: RmInitAdapter failed!
	 * (0x26:0xffff:1127)", "NVRM: rm_init_adapter failed for device bearing minor number 0" */
	{.cat = HCAT_HARDWARE,
	 .name = "hardware",
	 .what = "a device reported a hardware fault",
	 .fix = "take the device the line names out of service and check its health (nvidia-smi "
		"-q, the kernel log since boot, its PCIe link with lspci -vv); reseat, reset or "
		"replace it, and check that the driver and its firmware match, before the next run",
	 .any = {"rminitadapter failed", "rm_init_adapter failed"}},
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
		 /* vLLM: "No available memory for the cache blocks." */
		 "no available memory", "not enough memory", "insufficient memory",
		 /* Ray's memory monitor: "Task was killed due to the node running low on memory",
		  * "... which exceeds the memory usage threshold of 0.95" */
		 "low on memory", "memory usage threshold",
		 /* and its object store: "System memory request exceeds memory available in
		  * /dev/shm" */
		 "exceeds memory available", "exceeds the memory available"}},
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
	 .any = {"alloc", "malloc", "calloc", "allocation"},
	 .also = {"mem", "bytes"}},
	/* the same in a library's shortest words: BKCL's "[WARN][BKCL][...kl2_init.cpp:108] param
	 * 0 data alloc failed" (Kunlun XPU), "allocation failed" */
	{.cat = HCAT_RESOURCE,
	 .name = "memory",
	 .what = "memory could not be allocated",
	 .fix = "find what holds the memory (the job's batch size, another process on the device "
		"or node, the device's own tool: npu-smi info, nvidia-smi, xpu-smi; the kernel's "
		"OOM killer in dmesg) and run again with less",
	 .any = {"alloc failed", "allocation failed", "alloc fail"}},
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
		 /* the locked-memory limit RDMA registrations need: Intel MPI's "DAPL startup:
		  * RLIMIT_MEMLOCK too small", ulimit's "max locked memory" */
		 "_memlock", "memlock", "locked memory",
		 /* a queue or pool used up: MPICH over CXI, "MPICH suspects a hang due to
		  * completion queue exhaustion", gRPC's RESOURCE_EXHAUSTED */
		 "exhaustion", "exhausted",
		 /* an API's result for the same, as a phrase or inside its identifier: Level
		  * Zero's "UR_RESULT_ERROR_OUT_OF_RESOURCES", OpenCL's CL_OUT_OF_RESOURCES */
		 "out of resources", "_out_of_resources"}},
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
		 "carrier lost",
		 /* Open MPI's openib: "there are no active ports detected (or Open MPI was unable
		  * to use them)" */
		 "no active ports",
		 /* an RDMA transfer engine on a NIC whose port has no link: "Device mlx5_3 port
		  * not active" */
		 "port not active", "port is not active",
		 /* perftest on a port without a link: "Port number 1 state is Down" */
		 "state is down"}},
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
	 .what = "a network link is down",
	 .fix = "check the link of the NIC it names (cable, switch port, the NIC's link state) on "
		"both ends (ibstat, ip link), then run again",
	 /* and Omni-Path's PSM2 on a node whose HFI has no active port: "PSM2 no hfi units
	  * are active (err=23)" */
	 .any = {"no ib port", "no infiniband port", "no port", "no hfi unit"},
	 .also = {"is active", "are active"}},
	{.cat = HCAT_NET,
	 .name = "name-resolution",
	 .what = "a host name does not resolve",
	 .fix = "make every node's host name resolve on every node (/etc/hosts or DNS), or give "
		"addresses instead of names",
	 .any = {"name or service not known", "name resolution", "gethostbyname",
		 "could not resolve", "unknown host", "nodename nor servname", "can't resolve",
		 "cannot resolve", "does not resolve",
		 /* gRPC's status 14 text: "error_code 14 error_message DNS resolution failed" */
		 "dns resolution"}},
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
		 "interface not found", "no such interface", "no usable interface",
		 /* a NIC the transport was pointed at and cannot open: libfabric's PSM3 on a plain
		  * Ethernet port, "PSM3 can't open nic unit: 0 (err=23)" */
		 "open nic"}},
	/* a bound a setting breaks: "HCCL_BUFFSIZE is too SMALL", "NCCL_SOCKET_IFNAME is not
	 * set", "the parameter ... must be ..." (a setting named with a bound it misses) */
	{.cat = HCAT_CONFIG,
	 .name = "setting",
	 .what = "a setting is outside what the job needs",
	 .fix = "set the variable or option the line names to a value within the bound it gives "
		"(the same on every node), then run again",
	 .any = {"too small", "too large", "too big", "is not set", "not set", "must be",
		 "must not", "should be", "out of range", "exceeds the", "invalid value",
		 /* a maximum the job's own setting puts, and the program saying so: NVRx's
		  * "Maximum number of nodes (4) exceeded. ... This is likely a configuration
		  * error - please check max_nodes setting." */
		 "exceeded"},
	 .also = {"HCCL_", "NCCL_", "GLOO_", "TORCH_", "ASCEND_", "MASTER_ADDR", "MASTER_PORT",
		  "WORLD_SIZE", "environment variable", "parameter", "config", "configuration",
		  "setting"}},
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
	 .any = {"singleton", "pmix server", "pmi support"}},
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
	 .what = "the job asks for a backend its installed build does not have",
	 .fix = "install a build of the framework that has the feature the line names (or build "
		"it with the option the line gives), or ask for one the installed build has",
	 .any = {"compile with", "recompile with", "rebuild with", "build with"},
	 .also = {"to use", "to enable", "to support"}},
	/* and as the build's own lack: torch's "use_libuv was requested but PyTorch was built
	 * without libuv support, run with USE_LIBUV=0 to disable it" (2.4's "was build without") */
	{.cat = HCAT_CONFIG,
	 .name = "backend-missing",
	 .what = "the job asks for a feature its installed build does not have",
	 .fix = "turn the feature off as the line says (its option or variable), or install a "
		"build of the framework that has it",
	 .any = {"built without", "build without", "compiled without"},
	 .also = {"support", "requested", "enabled"}},
	/* a program the job starts is not installed where it runs: "bash: orted: command not
	 * found" (Open MPI's daemon on a node whose PATH lacks it) */
	{.cat = HCAT_CONFIG,
	 .name = "not-installed",
	 .what = "a program the job starts is not installed",
	 .fix = "install the program the line names on every node at the same path, or make the "
		"non-interactive shell of each node find it (PATH and LD_LIBRARY_PATH set in "
		"~/.bashrc before its interactive check, or the launcher's prefix option)",
	 .any = {"command not found"}},
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
		 "syntax error near unexpected token"}},
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
		 "error during container init", "prestart hook", "createcontainer hook"}},
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
		 /* a library the program was to be linked with, missing from its build: Cray
		  * MPICH's "GPU_SUPPORT_ENABLED is requested, but GTL library is not linked" */
		 "library is not linked", "library not linked"}},
	/* a kernel module the job's stack needs, not loaded: NVIDIA's fabric manager pre-check,
	 * "Kernel module "ib_umad" has not been loaded, fabric manager cannot be started" */
	{.cat = HCAT_CONFIG,
	 .name = "module-not-loaded",
	 .what = "a kernel module the job's stack needs is not loaded",
	 .fix = "load the module the line names on that node (modprobe NAME; lsmod lists what is "
		"loaded) and have it loaded at boot (/etc/modules-load.d), then start the "
		"service or job again",
	 .any = {"module"},
	 .also = {"not loaded", "not been loaded", "isn't loaded"}},
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
		 "used by another", "occupied by another"}},
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
		 /* HTTP's 401 and 403 from a registry or service the job must log in to: enroot's
		  * "[ERROR] URL https://registry-1.docker.io/v2/.../manifests/... returned error
		  * code: 401 Unauthorized" */
		 "401 unauthorized", "403 forbidden"}},
	/* and by EPERM's or EACCES's number alone: Open MPI's shared memory copy without the
	 * ptrace capability, "Read -1, expected 10024, errno = 1" */
	{.cat = HCAT_CONFIG,
	 .name = "permission",
	 .what = "an access was refused (a permission, a key or a capability the job lacks)",
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
	/* ranks that called different collectives, or the same one differently, in a library's
	 * own words: Horovod's "Mismatched ALLREDUCE CPU/GPU device selection: One rank specified
	 * device GPU, but another rank specified device CPU.", TensorFlow's "Invalid argument:
	 * Shape mismatch in the collective instance 106", the Neuron runtime's "mismatching
	 * number of cc ops, expected 3 received 6. Check if ranks 0 and 1 are using the same
	 * neff". Before "invalid", whose word such a line may carry */
	{.cat = HCAT_OP_MISMATCH,
	 .name = "collective-mismatch",
	 .what = "the ranks called different collectives, or one with different arguments",
	 .fix = "make every rank make the same collective calls in the same order with the same "
		"shapes, types and devices (the same program and data path on every rank)",
	 .any = {"mismatched", "mismatching", "mismatch between", "shape mismatch", "size mismatch",
		 /* Gloo's words under its size check: "op.preamble.length <= op.nbytes. 8 vs
		  * 4." then "Is there a distributed collective mismatch in your code?" */
		 "collective mismatch"},
	 .also = {"allreduce", "allgather", "alltoall", "broadcast", "reducescatter",
		  "reduce_scatter", "collective", "another rank", "ranks",
		  /* Accelerate: "Cannot apply desired operation due to shape mismatches. All
		   * shapes across devices must be valid." */
		  "across devices", "across ranks"}},
	/* code built for other GPUs than these: CUDA's cudaErrorInvalidDeviceFunction ("Cuda
	 * failure 'invalid device function'"), cudaErrorNoKernelImageForDevice ("no kernel image
	 * is available for execution on the device") and cudaErrorSymbolNotFound: the binary
	 * (NCCL, PyTorch) lacks this GPU's architecture. Before "invalid", whose words it shares */
	{.cat = HCAT_VERSION,
	 .name = "gpu-arch",
	 .what = "the program was not built for this GPU's architecture",
	 .fix = "install a build (NCCL, PyTorch, the extension) compiled for this GPU's compute "
		"capability (nvidia-smi --query-gpu=compute_cap), or build it with that "
		"architecture (TORCH_CUDA_ARCH_LIST, NVCC_GENCODE)",
	 .any = {"invalid device function", "no kernel image is available",
		 /* cudaErrorSymbolNotFound, a kernel the binary lacks for this GPU: NCCL 2.14
		  * on an RTX 5090 (sm_120), "NCCL WARN Cuda failure 'named symbol not found'" */
		 "named symbol not found",
		 /* HIP's: "hipErrorNoBinaryForGpu: Unable to find code object for all current
		  * devices!" (a code object built for gfx90a:xnack+ on a GPU run xnack-) */
		 "NoBinaryForGpu", "unable to find code object"}},
	/* a job step asking for more than its allocation holds: Slurm's "srun: error: Unable to
	 * create step for job 551: More processors requested than permitted" */
	{.cat = HCAT_CONFIG,
	 .name = "allocation",
	 .what = "the job step asks for more than the job's allocation holds",
	 .fix = "ask the step for no more tasks, CPUs, GPUs or nodes than the job was given (srun "
		"-n/-c/--gpus within the sbatch or salloc request), or request a larger allocation",
	 .any = {"than permitted", "than allowed", "than allocated"},
	 .also = {"request", "processors", "nodes", "tasks", "cpus", "gpus"}},
	/* a check of the job's shape that failed: its ranks against its devices or nodes
	 * (Megatron-DeepSpeed's "AssertionError: expected local-rank to be the same as rank %
	 * device-count.", vLLM's "local_world_size (16) must be less than or equal to the number
	 * of visible devices (8).", TensorRT-LLM's "Only 8 GPUs are available, but 16 are
	 * required.") */
	{.cat = HCAT_CONFIG,
	 .name = "world-size",
	 .what = "the job's ranks do not fit its devices or nodes",
	 .fix = "make the ranks started on each node (nproc_per_node, the local world size, "
		"the tensor and pipeline sizes) match the devices visible there, and the world "
		"size the nodes times the ranks per node",
	 .any = {"world_size", "world size", "worldsize", "local_rank", "local-rank",
		 "device-count", "device count", "visible devices", "nproc_per_node",
		 "gpus are available", "npus are available", "devices are available",
		 "gpus available", "npus available", "devices available"},
	 .also = {"must be", "expected", "should be", "same as", "less than", "greater than",
		  "equal to", "required", "requested"}},
	/* the rank table against the node it runs on: "ranktable config devId[1], but local
	 * devId[3]", "... in the rank table does not match ..." */
	{.cat = HCAT_CONFIG,
	 .name = "ranktable",
	 .what = "the rank table does not match the node",
	 .fix = "correct the rank table's entry for this node (its device ids are the physical "
		"ids, its device_ip the NPU NIC's address, as hccn_tool and npu-smi show them), or "
		"generate it again",
	 .any = {"ranktable", "rank table", "rank_table"},
	 .also = {"but local", "inconsistent", "mismatch", "not match", "differ", "but the"}},
	/* the IOMMU refusing a device's DMA (a GPU's peer-to-peer writes, a NIC's to GPU memory):
	 * "DMAR: [DMA Write] Request device [02:00.0] fault addr cd139000 [fault reason 05] PTE
	 * Write access is not set", "AMD-Vi: Event logged [IO_PAGE_FAULT ...]" */
	{.cat = HCAT_CONFIG,
	 .name = "iommu",
	 .what = "the IOMMU blocked a device's DMA (peer-to-peer between GPUs, or a NIC's to GPU "
		 "memory)",
	 .fix = "put the IOMMU in pass-through mode for the devices (iommu=pt on the kernel "
		"command line, with intel_iommu=on or amd_iommu=on) or turn it off, and check that "
		"PCIe ACS does not redirect peer-to-peer traffic; reboot, then run again",
	 .any = {"dmar", "amd-vi", "iommu"},
	 .also = {"fault reason", "io_page_fault", "page fault", "fault addr"}},
	/* a framework build without the operation the job asks for on its device: TensorFlow's
	 * "No OpKernel was registered to support Op 'NcclAllReduce' used by {{node
	 * NcclAllReduce}}" (a build without NCCL, on Windows) */
	{.cat = HCAT_CONFIG,
	 .name = "no-kernel",
	 .what = "the installed build of the framework has no implementation of the operation for "
		 "this device",
	 .fix = "install a build of the framework that has the operation for the device (a GPU "
		"build with NCCL for NCCL collectives), or choose a strategy or backend the build "
		"has",
	 .any = {"no opkernel was registered", "no registered kernels"}},
	/* Python's words for a package the code imports that is not installed where it runs:
	 * "No module named 'numpy'" (one name: the package itself is missing) */
	{.cat = HCAT_CONFIG,
	 .name = "missing-package",
	 .what = "a package the program imports is not installed",
	 .fix = "install the package the line names into the environment the job runs in (the "
		"same Python, virtual environment or container image on every node), or point the "
		"job at the environment that has it",
	 .form = hlog__wf_module_missing},
	/* and for a part of one that is installed, which that release lacks ("No module named
	 * 'tbe.common.repository_manager...'", a CANN whose Python parts do not fit the
	 * interpreter; "No module named 'atb_llm.models.qwen2_moe...'", a release without the
	 * model) */
	{.cat = HCAT_VERSION,
	 .name = "version",
	 .what = "software versions do not fit together",
	 .fix = "install the release of the package the line names that the calling code was "
		"made for (its requirements name it), the same on every node",
	 .form = hlog__wf_module_part_missing},
	/* the dynamic linker's own words: a library built against another version of one it
	 * loads ("undefined symbol: _ZN3Mki...", "symbol lookup error", "version `GLIBCXX_3.4.30'
	 * not found (required by ...)") */
	{.cat = HCAT_VERSION,
	 .name = "version",
	 .what = "software versions do not fit together",
	 .fix = "install the same, compatible versions of the driver, runtime and libraries on "
		"every node; the library the line names was built against another version of one "
		"it loads",
	 .any = {"undefined symbol", "symbol lookup error", "not found (required by",
		 /* a kernel module built against another kernel or driver stack: "nv_peer_mem:
		  * disagrees about version of symbol ib_register_peer_memory_client", "Unknown
		  * symbol ib_register_peer_memory_client (err -22)" */
		 "disagrees about version of symbol", "unknown symbol"}},
	/* Python's words for a call that does not fit the function it calls, across packages: a
	 * caller written for another release of the callee. DeepSpeed's elastic agent under a
	 * newer torch, "TypeError: DSElasticAgent._set_master_addr_port() takes 3 positional
	 * arguments but 4 were given" */
	{.cat = HCAT_VERSION,
	 .name = "version",
	 .what = "software versions do not fit together",
	 .fix = "install the releases of the two packages the traceback passes between that are "
		"made for each other (the caller's requirements name the callee's versions), the "
		"same on every node",
	 .any = {"positional arguments but", "positional argument but",
		 "unexpected keyword argument"},
	 .also = {"TypeError"}},
	/* Python's words for a module the caller expected another release of: "AttributeError:
	 * module 'torch_npu' has no attribute 'npu_rope'" (vLLM-Ascend 0.7.1 on a torch_npu
	 * without the operator). An object's missing attribute ("'NoneType' object has no
	 * attribute") is a bug, not this */
	{.cat = HCAT_VERSION,
	 .name = "version",
	 .what = "software versions do not fit together",
	 .fix = "install the release of the module the line names that the calling package was "
		"made for (its requirements name it), the same on every node",
	 .any = {"has no attribute"},
	 .also = {"module '"}},
	{.cat = HCAT_VERSION,
	 .name = "version",
	 .what = "software versions do not fit together",
	 .fix = "install the same, compatible versions of the driver, runtime and libraries on "
		"every "
		"node",
	 /* a package built for another chip: "the socversion Ascend910B1 of bin package does
	  * not match the current device socverison Ascend310P3" (CANN's SoC version) */
	 .any = {"version", "socversion", "soc_version", "package"},
	 /* "CUDA driver version is insufficient for CUDA runtime version" */
	 .also = {"mismatch", "incompatible", "not match", "not supported", "unsupported",
		  "insufficient", "too old"}},
	/* a value the program refuses: "Invalid DP number per node: 0", "invalid device
	 * ordinal", "rank size 16 is invalid", "The size of npuDeviceIds does not equal to
	 * worldSize" (not a bad pointer or address, which is a bug) */
	{.cat = HCAT_CONFIG,
	 .name = "invalid",
	 .what = "a value the job was given is refused",
	 .fix = "correct the value the line names (the job's arguments, its rank table or "
		"environment), the same on every node, then run again",
	 .any = {"invalid", "not a valid", "illegal", "not equal", "not allow",
		 /* a requirement on two values, unmet: Kripke's "Assertion Failed: Number of MPI
		  * ranks must match decomposition, expected 12288 ranks" */
		 "must match",
		 /* in Chinese: "非法" (illegal), "校验失败" (failed its check): MindIE's
		  * "BackendConfig配置参数校验失败" */
		 "非法", "校验失败"},
	 .also = {"number", "size", "count", "rank", "device", "parameter", "option",
		  "value", "config", "setting", "ordinal",
		  /* Python's argparse: "error: argument --kv-cache-dtype: invalid choice: 'int8'" */
		  "choice",
		  /* Slurm refusing a request: "sbatch: error: Invalid generic resource (gres)
		   * specification" */
		  "specification",
		  /* in Chinese: "参数" (parameter), "配置" (setting) */
		  "参数", "配置"},
	 .not = {"memory", "pointer", "address", "access", "instruction", "handle",
		 /* HCCL's one-sided memory: "The parameter memHandle[0xfffd7cc769e0] is invalid." */
		 "memhandle", "mem_handle"}},
	/* a check of two values the job was given, failed: HPL-MxP's "ERROR 2 (22->a0003):
	 * Number of processes (32) != nprow (8) * npcol (8)"; not a program's own assertion
	 * ("Assertion `((count) != 0)' failed", "Check nnopExecutor != nullptr failed"), a bug */
	{.cat = HCAT_CONFIG,
	 .name = "invalid",
	 .what = "a value the job was given does not fit another",
	 .fix = "correct the values the line compares (the job's arguments, its process count "
		"and grid, its rank table or environment), the same on every node, then run again",
	 .any = {" != "},
	 .also = {"number", "size", "count", "rank", "device", "parameter", "option", "value",
		  "processes", "nodes"},
	 .not = {"assert", "check", "nullptr", "null", "memory", "pointer", "address"}},
	/* the same told as an order between two named quantities: nekRS's "Error in setup: MPI
	 * tasks > number of elements!" */
	{.cat = HCAT_CONFIG,
	 .name = "invalid",
	 .what = "a value the job was given does not fit another",
	 .fix = "correct the values the line compares (the job's arguments, its process count "
		"and its problem's size, its rank table or environment), the same on every node, "
		"then run again",
	 .form = hlog__wf_word_compare,
	 .also = {"number", "size", "count", "rank", "device", "parameter", "option", "value",
		  "processes", "nodes", "tasks"},
	 .not = {"assert", "check", "nullptr", "null", "memory", "pointer", "address"}},
	/* a value quoted whole and called invalid, with no noun to say what it was for: numactl
	 * refusing the CPUs it was given, "<0-7,64-71> is invalid" */
	{.cat = HCAT_CONFIG,
	 .name = "invalid",
	 .what = "a value the job was given is refused",
	 .fix = "correct the value the line names (the job's arguments, its rank table or "
		"environment), the same on every node, then run again",
	 .form = hlog__wf_quoted_invalid,
	 .not = {"memory", "pointer", "address", "access", "instruction", "handle"}},
	/* a plugin the program looks for and does not find: Slurm built without the MPI plugin
	 * the job asks for, "srun: error: Couldn't find the specified plugin name for mpi/pmix
	 * looking at all files", "srun: error: cannot find mpi plugin for mpi/pmix" (after
	 * the version rows: a plugin that does not load because it needs another version of a
	 * library, "version `FABRIC_1.7' not found (required by .../libnccl-net.so)", is theirs) */
	{.cat = HCAT_CONFIG,
	 .name = "plugin-missing",
	 .what = "a plugin the job asks for is not installed where it runs",
	 .fix = "install the plugin the line names on every node (a scheduler's MPI plugin: srun "
		"--mpi=list shows those it has), or ask for one that is installed",
	 .any = {"plugin"},
	 .also = {"couldn't find", "could not find", "cannot find", "can't find", "unable to find",
		  "not found", "no such plugin"}},
	/* what the software says it cannot do with the setup it was given: xLLM's LCCL "do not
	 * support pcie > 2 rank! rankSize_ = 4", "... is not supported on this platform" */
	{.cat = HCAT_CONFIG,
	 .name = "unsupported",
	 .what = "the job asks for something the software does not support",
	 .fix = "change the setup the line names to one the software supports (the number of "
		"ranks, the topology or links between devices, the mode or option), or use a "
		"release that supports it",
	 .any = {"not support", "not supported", "unsupported", "does not support",
		 "do not support", "is not available"}},
	/* SIGBUS: a process touched a page of shared memory whose backing store had run out (a
	 * container's /dev/shm of 64 MB under NCCL: "Caught signal 7 (Bus error: nonexistent
	 * physical address)" in ncclGroupEnd); not the PCIe AER's "PCIe Bus Error", a device's */
	{.cat = HCAT_RESOURCE,
	 .name = "bus-error",
	 .what = "a process was killed by SIGBUS: it touched shared memory whose backing store had "
		 "run out",
	 .fix = "give the container more shared memory (docker --shm-size or --ipc=host; on "
		"Kubernetes an emptyDir of medium Memory on /dev/shm) and check df /dev/shm on the "
		"node; if /dev/shm has room, read the kernel log for memory faults",
	 .any = {"sigbus", "bus error", "signal 7"},
	 .not = {"pcie"}},
	/* a resource the program needs to start, found too small for it: HPE Slingshot's
	 * "cxi_write_bw: Insufficient 2M huge pages. Need 8 to run", "insufficient resources"
	 * (a permission that is too narrow is the permission row's; after the bus error, whose
	 * line may offer "insufficient shared memory" as its cause) */
	{.cat = HCAT_RESOURCE,
	 .name = "insufficient",
	 .what = "a resource the job needs is too small for it",
	 .fix = "give the node or the job more of what the line names (huge pages: vm.nr_hugepages "
		"or the boot's hugepages=; memory, ports or handles: the limits of the job, its "
		"container or the node), or ask for less, then run again",
	 .any = {"insufficient"},
	 /* nor a buffer an API was handed too small: NVML's NVML_ERROR_INSUFFICIENT_SIZE under
	  * Slurm's GPU accounting, "slurmstepd: error: NVML: Failed to get Compute running
	  * procs(7): Insufficient Size" */
	 .not = {"permission", "privilege", "rights", "access", "insufficient size"}},
	/* a process ended by SIGKILL, which it cannot catch: most often the kernel's OOM killer
	 * or the scheduler's memory limit (MVAPICH's "MPI process (rank: 16, pid: 107546)
	 * terminated with signal 9", torch elastic's "exitcode: -9", a container's exit code 137).
	 * Not a launcher's own kill of what is left once the job failed ("forcefully exiting
	 * via Signals.SIGKILL") */
	{.cat = HCAT_RESOURCE,
	 .name = "killed",
	 .what = "a process was killed with SIGKILL, most often by the kernel's OOM killer or a "
		 "memory limit",
	 .fix = "read the kernel log of the node at that time (dmesg -T | grep -i -e oom -e "
		"killed) and the scheduler's record of the job (sacct -o MaxRSS,State); give the "
		"job more memory or use less (batch size, workers per node, data loader workers)",
	 .any = {"signal 9", "sigkill", "exitcode: -9", "exit code -9", "exit code: -9",
		 "exit code 137", "exitcode: 137", "oomkilled"},
	 .not = {"forcefully", "sending process", "closing signal", "via signals"}},
	/* a launcher stopped from outside, the job with it: torch elastic's agent, "Received 1
	 * death signal, shutting down workers" (SIGHUP when the terminal that started it closed;
	 * SIGTERM from a scheduler's cancel, time limit or preemption). Its peers' lost
	 * connections and closed rendezvous follow from it */
	{.cat = HCAT_CONFIG,
	 .name = "stopped-from-outside",
	 .what = "the job's launcher was stopped by a signal from outside the job",
	 .fix = "find who sent it: a terminal or ssh session that closed (start the job detached: "
		"sbatch, nohup, tmux), or the scheduler (sacct -j JOB -o State,ExitCode,Timelimit: a "
		"cancel, the time limit, a preemption); then run again where nothing stops it",
	 .any = {"death signal"}},
	/* a crash explains the refused connections and timeouts of its peers; a cause its own
	 * process stated before it (memory, a setting, versions) explains the crash */
	{.cat = HCAT_UNRESOLVED,
	 .name = "crash",
	 .what = "a process crashed",
	 .fix = "find the first process that died (its core dump or the launcher's line naming its "
		"rank) "
		"and the lines before it in that rank's log; the other ranks' errors follow from "
		"it",
	 .any = {"segmentation fault", "sigsegv", "signal 11", "core dumped", "illegal instruction",
		 "sigill", "sigabrt", "bus error", "terminate called", "exited on signal",
		 "killed by signal",
		 /* an exception nothing caught, which ends the process as "terminate called"
		  * does: Ray's "logging.cc:97: Unhandled exception: N3c105ErrorE. what(): ..." */
		 "unhandled exception",
		 /* a crash handler's heading: Open MPI's "*** Process received signal ***" */
		 "received signal"}},
	/* an address whose host is empty ("ray start --address=:6379", "connect to ... address
	 * :6379", "tcp://:29500"): the variable that should hold the master's host was empty
	 * when the command line was made, so every connection goes nowhere */
	{.cat = HCAT_CONFIG,
	 .name = "empty-host",
	 .what = "an address with no host was given (an empty variable)",
	 .fix = "set the master's host where the job's command line is made (MASTER_ADDR, the "
		"head node's address, --address HOST:PORT) on every node, then run again",
	 .any = {"connect", "address", "addr", "host"},
	 .form = hlog__wf_empty_host},
	/* a service that answers requests with an HTTP error: "[status code: 404]" */
	{.cat = HCAT_UNRESOLVED,
	 .name = "http-error",
	 .what = "a service answered requests with an HTTP error",
	 .fix = "the service the job talks to is up but refuses or cannot serve the request: check "
		"the address and path it is asked for (an API path or model name the service does "
		"not have) and the service's own log",
	 .form = hlog__wf_http_status},
	{.cat = HCAT_NET,
	 .name = "refused",
	 .what = "a peer refused the connection",
	 .fix = "the peer was not listening at that address and port: check that it started, that "
		"the "
		"address and port are the ones it listens on, and that no firewall rejects them",
	 .any = {"connection refused", "refused"}},
	{.cat = HCAT_NET,
	 .name = "unreachable",
	 .what = "a peer cannot be reached",
	 .fix = "check the route from this node to the peer (ip route, the interface the job binds "
		"to, "
		"firewalls)",
	 .any = {"unreachable", "no route to host", "not reachable"}},
	/* a connection that was up and went away, in words that do not say the peer closed it
	 * (a peer that reset or closed it is the catalog's, as a rank that stopped): Open MPI's
	 * "ORTE has lost communication with a remote daemon", NCCL's "Connect to
	 * 10.0.0.2<40815> failed : Software caused connection abort" (ECONNABORTED) */
	{.cat = HCAT_NET,
	 .name = "connection-lost",
	 .what = "a connection to a peer was lost",
	 .fix = "find out whether the peer the line names is still running (its own log, the "
		"launcher's exit lines): if it died, its first error is the cause; if it runs, "
		"check the network between the two nodes (link state, routes, firewall, the "
		"interface the job binds to)",
	 .any = {"lost communication", "lost connection", "connection lost", "lost contact",
		 "connection abort", "connection aborted"}},
	/* links that were being set up and never came up: HCCL's "Wait links establish
	 * completed failed, local role is client. ret[9]", "failed to establish connection" */
	{.cat = HCAT_NET,
	 .name = "link-setup",
	 .what = "links between ranks could not be set up",
	 .fix = "check that the peer ranks started and reached the same step, and that this node "
		"reaches them on the addresses and ports the job uses (device IPs and their "
		"links for NPUs: hccn_tool -i N -link -g, -net_health -g; routes and firewall "
		"for host sockets)",
	 .any = {"links establish", "link establish", "establish link", "establish links",
		 "establish connection", "establish the connection", "connection establishment"},
	 .also = {"fail", "failed", "failure", "timeout", "timed out", "error"}},
	{.cat = HCAT_NET,
	 .name = "connect-timeout",
	 .what = "a connection to a peer timed out",
	 .fix = "check that the peer's address and port are reachable from this node (firewall, "
		"routes, "
		"the interface the job binds to) and that the peer was up and listening",
	 .any = {"timed out", "timeout", "time out"},
	 /* a service that never came up at the address it was looked for at */
	 .also = {"connect", "become available", "to be available", "unavailable"},
	 /* a wait for the others to arrive, whose advice names connecting: JAX's coordination
	 * service, "cluster registration failed ... tasks crashed earlier before connecting",
	 * "Barrier timed out. Id: [Init]Wait_for_all_tasks_to_register" (the timeout's below) */
	 .not = {"barrier", "registration", "to register"}},
	{.cat = HCAT_NET,
	 .name = "connect-failed",
	 .what = "a connection to a peer could not be made",
	 .fix = "check that the peer the line names is up and listening at that address and "
		"port, and that this node reaches it (routes, firewall, the interface the job "
		"binds to)",
	 .any = {"failed to connect", "connect failed", "connection failed", "could not connect",
		 "unable to connect", "cannot connect", "can't connect", "not connected to",
		 "link failed", "failed to link",
		 /* a retry of a connection, on the line a log ends on: it never came back */
		 "retry to connect", "retrying to connect"}},
	/* a connection that could not be finished: Open MPI's "A process or daemon was unable
	 * to complete a TCP connection to another process" */
	{.cat = HCAT_NET,
	 .name = "connect-failed",
	 .what = "a connection to a peer could not be made",
	 .fix = "check that the peer the lines name is up and reachable from this node (firewall "
		"on the remote host, routes, the interface the job binds to)",
	 .any = {"unable to complete", "could not complete", "failed to complete",
		 "unable to establish", "could not establish", "failed to establish"},
	 .also = {"connection", "connect"}},
	/* torch elastic's agent and its rendezvous store: the exception's class and message
	 * (torch/distributed/elastic/rendezvous/c10d_rendezvous_backend.py, "The connection to
	 * the C10d store has failed. See inner exception for details."). A wrapper: its inner
	 * exception, where a rule knows it, names the address and says more */
	{.cat = HCAT_NET,
	 .name = "rendezvous",
	 .what = "the elastic agent could not reach its rendezvous store",
	 .fix = "check that the rendezvous host (--rdzv-endpoint HOST:PORT, the first node) is up "
		"and its agent started, that its name resolves the same on every node, and that "
		"the port is open between the nodes (a firewall, a Kubernetes service or a "
		"cluster that exposes only some ports)",
	 .any = {"rendezvousconnectionerror", "connection to the c10d store"}},
	/* the launcher's list of hosts and their slots (below the network's families: a host of
	 * the list that cannot be reached is the network's, "host=gadi-gpu-v100-0011 was not
	 * reachable via ssh"): Open MPI's "A hostfile was provided that
	 * contains multiple definitions of the slot count", "Please correct the hostfile and try
	 * again", DeepSpeed's and MPICH's host and machine files */
	{.cat = HCAT_CONFIG,
	 .name = "hostfile",
	 .what = "the launcher's host list is wrong",
	 .fix = "correct the host file the launcher reads (one line per host with its slots, "
		"names that resolve to the nodes meant, as many slots as ranks), then run again",
	 .any = {"hostfile", "host file", "machinefile", "machine file", "slot count"}},
	/* a process that stopped making progress: "some processes are hanging", "hung", Horovod's
	 * "Stalled ops:" and "[missing ranks: 1]" */
	{.cat = HCAT_RANK_STUCK,
	 .name = "hang",
	 .says = WF_SAYS_WAITS,
	 .what = "a process hangs",
	 .fix = "find the rank that stopped making progress (its own log, py-spy dump or gdb on "
		"its process, the last collective each rank entered); the ranks waiting for it "
		"are not the cause",
	 .any = {"hanging", "hung", "deadlock", "stalled", "missing ranks",
		 /* TensorFlow's master, every 10 s: "CreateSession still waiting for response
		  * from worker: /job:worker/replica:0/task:12" */
		 "still waiting"},
	 /* a hang foretold is none: vLLM's "Error executing method 'init_device'. This might
	  * cause deadlock in distributed execution." under the error that happened */
	 .not = {"might cause", "may cause", "could cause", "possible deadlock"}},
	/* a wait given up on in other words: MosaicML streaming's "RuntimeError: Waiting for
	 * local rank 0, bailing out: 60.000 < 60.053 sec." */
	{.cat = HCAT_RANK_STUCK,
	 .name = "timeout",
	 .what = "a wait ran out",
	 .fix = "a wait for another rank or service ran out: find the rank that was late or "
		"stopped (its own log, the first error by time across ranks); raise the timeout "
		"only when it is known to be merely slow",
	 .any = {"waiting for", "waited for"},
	 .also = {"bailing out", "giving up", "gave up"}},
	{.cat = HCAT_RANK_STUCK,
	 .name = "timeout",
	 .what = "a wait ran out",
	 .fix = "a wait for another rank or service ran out: find the rank that was late or "
		"stopped (its "
		"own log, the first error by time across ranks); raise the timeout only when it is "
		"known to be merely slow",
	 .any = {"timed out", "timeout", "time out", "deadline exceeded", "超时",
		 /* the scheduler ending a job that used up its time: Slurm's "slurmstepd:
		  * error: *** JOB 8384637 ON nid001044 CANCELLED AT 2023-05-02T03:58:46 DUE TO
		  * TIME LIMIT ***" (a job that hung, or one given too little time) */
		 "due to time limit"}},
	/* an error line that ends in the program's own advice on a setting: TensorRT-LLM's
	 * "... may use dynamic buffer which will fail with NIXL backend. It is recommended to
	 * set cacheTransceiverConfig.MaxTokensInBuffer to a value greater than the maximum ISL"
	 * (after the rows for what failed, whose words say more) */
	{.cat = HCAT_CONFIG,
	 .name = "advised-setting",
	 .what = "the program says a setting of the job does not fit what it does",
	 .fix = "set what the line advises (the option or variable it names, to the value or bound "
		"it gives), the same on every node, then run again",
	 .any = {"recommended to set", "please set", "consider setting", "try setting",
		 "you should set", "you must set", "you need to set"},
	 /* not advice on how to debug: torch_npu's "If you want to get the accurate stacktrace,
	  * please set environment variable ASCEND_LAUNCH_BLOCKING=1." under every asynchronous
	  * operator error */
	 .not = {"stacktrace", "stack trace", "debug", "launch_blocking", "_debug",
		 "_launch_blocking"}},
	/* the same advice as the assignment to make: oneCCL's "EXCEPTION: to get local_idx/count
	 * from ATL, set CCL_ZE_IPC_EXCHANGE=sockets explicitly" */
	{.cat = HCAT_CONFIG,
	 .name = "advised-setting",
	 .what = "the program says a setting of the job does not fit what it does",
	 .fix = "set what the line advises (the variable it names, to the value it gives), the "
		"same on every node, then run again",
	 .form = hlog__wf_set_assignment,
	 .not = {"stacktrace", "stack trace", "debug", "launch_blocking", "_debug",
		 "_launch_blocking"}},
	/* a Python exception whose own line is missing or says nothing a row above knows: the
	 * frames of its traceback still say a process failed */
	{.cat = HCAT_UNRESOLVED,
	 .name = "exception",
	 .weak = 1,
	 .what = "a process raised an exception",
	 .fix = "read the exception at the end of the traceback and the lines before it in that "
		"process's log; the first process to fail by time is the place to start",
	 .any = {"traceback (most recent call last)", "file \"", "raise "},
	 .also = {"traceback", ", line ", "error", "exception"}},
	/* words that say the process gave up, not only that something went wrong: "Fatal error
	 * in MPI_Init: Other MPI error", "Abort(1091215): Fatal error in ...", "... aborting job".
	 * The job failed, so it is a failure with an unknown cause, not a warning */
	{.cat = HCAT_UNRESOLVED,
	 .name = "fatal",
	 .weak = 1,
	 .what = "a process stopped on a fatal error",
	 .fix = "read the line and the lines after it (an error stack, the launcher's summary) in "
		"that process's log; the first process to stop by time is the place to start",
	 .any = {"fatal", "abort", "aborted", "aborting", "mpi_abort",
		 /* glog's CHECK, which aborts the process: "Check failed: ret == LLM_SUCCESS
		  * Initialize LlmDataList failed", "*** Check failure stack trace: ***" */
		 "check failed", "check failure stack trace",
		 /* a launcher that gave up on its daemons: Open MPI's "ORTE was unable to
		  * reliably start one or more daemons." (the lines before it say why) */
		 "unable to reliably start"}},
	/* a process that ended with a failing exit code, which says that it failed, not why:
	 * torch elastic's "failed (exitcode: 1) local_rank: 3 (pid: 429)", Ray's "Some Ray
	 * subprocesses exited unexpectedly:", a CI runner's "Error: Process completed with exit
	 * code 143." After the fatal family: a fatal line says more */
	{.cat = HCAT_UNRESOLVED,
	 .name = "exit",
	 .weak = 1,
	 .says = WF_SAYS_TASK_ENDED,
	 .what = "a process ended with a failing exit code",
	 .fix = "read that process's own log (the rank or service the line names) for its first "
		"error; the first process to end by time is the place to start",
	 .form = hlog__wf_exit_failed},
	/* a Python exception's own line, alone: "IndexError: list index out of range"; after the
	 * exit family, which says more of "subprocess.CalledProcessError: Command ... returned
	 * non-zero exit status 255." */
	{.cat = HCAT_UNRESOLVED,
	 .name = "exception",
	 .weak = 1,
	 .what = "a process raised an exception",
	 .fix = "read the exception and the lines before it in that process's log (its traceback "
		"names the call that raised); the first process to fail by time is the place to "
		"start",
	 .form = hlog__wf_exception_class},
};
const size_t hlog__nfams = sizeof(hlog__fams) / sizeof(hlog__fams[0]);
