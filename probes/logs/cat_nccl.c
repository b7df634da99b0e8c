/* NCCL (and RCCL, which prints the same): its WARN lines and the names of its result codes.
 * Sources: NCCL's src/transport/net_ib.cc (net_ib/p2p.cc in 2.2x+) for the completion errors,
 * src/misc/socket.cc for NET/Socket, src/bootstrap.cc, src/proxy.cc, src/init.cc, and
 * src/nccl.h.in (enum ncclResult_t) with ncclGetErrorString in src/misc/utils.cc for the
 * result names and numbers. The lines in tests/unit/test_catalog.c name where each was seen. */
#include <string.h>

#include "probes/npu/hcclcodes.h"
#include "probes/logs/catalog.h"
#include "probes/logs/hlogint.h"
#include "probes/logs/logtext.h"

/* "status=IBV_WC_RETRY_EXC_ERR(12)", "status=4", "with error 12": the completion status, and
 * with it the row of libibverbs' meaning. */
static int ib_completion(struct pspan m, const struct hx_vals *x, struct hlog_event *e)
{
	(void)x;
	long long v;
	struct pspan a = hlog__after(m, "status=");
	if (a.s) {
		size_t i = 0;
		while (i < a.n && ((a.s[i] >= 'A' && a.s[i] <= 'Z') || a.s[i] == '_'))
			i++;
		a.s += i;
		a.n -= i;
	} else {
		a = hlog__after(m, "with error");
	}
	if (!a.s || !hlog__num_at(a, &v))
		return 1; /* the row's own meaning: a completion error */
	const struct hlog_sig *s = hlog__ib_status(v);
	e->value = v;
	if (s && v > 0) {
		e->cat = s->cat;
		snprintf(e->detail, sizeof(e->detail), "%s", s->detail);
	}
	return 1;
}

/* "operation=Connect, res=3": the proxy passes on the ncclResult_t of what failed under it.
 * Only a system error (2, a socket or verb) or a remote error (6) says the connection itself
 * failed; a CUDA (1) or internal (3) error, or a refused argument (4, 5), is the failure of
 * the line before it, which the proxy merely reports: the row is not this line's. */
static int proxy_result(struct pspan m, const struct hx_vals *x, struct hlog_event *e)
{
	(void)x;
	long long v;
	struct pspan a = hlog__after(m, "res=");
	if (!a.s || !hlog__num_at(a, &v))
		return 1;
	e->value = v;
	return v == 2 || v == 6;
}

/* "Cuda failure 'invalid argument'": NCCL's check of a CUDA call, the quoted text being
 * cudaGetErrorString's. The name is the cause; where its words name a kind of failure (an
 * "uncorrectable ECC error", an "invalid device ordinal") that kind is taken, and memory is
 * left to the inner errors' row for a device out of memory. */
static int cuda_failure(struct pspan m, const struct hx_vals *x, struct hlog_event *e)
{
	(void)x;
	int fam = hlog__word_family(m);
	int cat = hlog__word_family_cat(fam);
	if (cat == HCAT_RESOURCE)
		return 0;
	if (fam >= 0 && cat != HCAT_UNRESOLVED)
		e->cat = cat;
	return 1;
}

/* A registration the verbs refused names why in errno's words. Too little locked memory
 * reads "Cannot allocate memory" (ENOMEM) or "Resource temporarily unavailable" (EAGAIN), as
 * does a line that names no reason; a reason of another kind says the buffer itself was
 * refused (GPU memory with no peer-memory module or DMA-BUF, an address the NIC cannot map),
 * which the line does not settle: the row's reading of memory does not hold for it. */
static const char *const reg_refused[] = {
	"Invalid argument", "Bad address", "Operation not permitted", "Operation not supported",
	"Permission denied", "No such device", "Function not implemented",
};

static int reg_mr_reason(struct pspan m, const struct hx_vals *x, struct hlog_event *e)
{
	(void)x;
	for (size_t i = 0; i < sizeof(reg_refused) / sizeof(reg_refused[0]); i++)
		if (hlog__has(m, reg_refused[i])) {
			e->cat = HCAT_UNRESOLVED;
			break;
		}
	return 1;
}

static const char socket_fix[] =
	"check that the peer's address is reachable from this host on the interface NCCL chose "
	"(NCCL_SOCKET_IFNAME, the same on every node), that no firewall drops the ports, and that "
	"the peer process was still running";

static const char memlock_fix[] = HLOG_MEMLOCK_FIX;

static const struct hlog_sig rows[] = {
	/* net_ib: WARN("NET/IB: Got completion from peer %s with status=%s(%d) ...") */
	{{"NET/IB", "Got completion from peer"}, HCAT_LINK_DOWN, "ib-completion",
	 "an InfiniBand/RoCE work request to the peer completed with an error",
	 "check the port on both hosts (ibstat, ibv_devinfo), its error counters and the cable; "
	 "the status number says which kind of error",
	 0, ib_completion},
	/* net_ib.cu before 2.12: WARN("NET/IB : Got completion with error %d, opcode %d, len %d,
	 * vendor err %d"), no peer named */
	{{"NET/IB", "Got completion with error"}, HCAT_LINK_DOWN, "ib-completion-old",
	 "an InfiniBand/RoCE work request completed with an error",
	 "check the port on both hosts (ibstat, ibv_devinfo), its error counters and the cable; "
	 "the status number says which kind of error",
	 0, ib_completion},
	{{"NET/IB", "Got CQE with error"}, HCAT_LINK_DOWN, "ib-cqe",
	 "an InfiniBand/RoCE work request completed with an error", "see the completion status line",
	 0, NULL},
	/* net_ib's "async fatal event on QP (...): %s" and "Got async event : %s" name the event
	 * as ibv_event_type_str() does: the verbs table (cat_ibwc.c) reads it */
	/* socket.cc: WARN("NET/Socket : Connect to %s failed : %s") */
	{{"NET/Socket", "Connect to", "failed"}, HCAT_NET, "nccl-socket-connect",
	 "NCCL could not open a TCP connection to a peer", socket_fix, 0, NULL},
	/* socket.cc: "socketPollConnect poll() returned %d, no POLLOUT events", a connect whose
	 * socket never became writable: the TCP handshake with the peer never completed (its
	 * node dropped the SYN, or nothing answers on that address) */
	{{"socketPollConnect", "no POLLOUT"}, HCAT_NET, "nccl-connect-poll",
	 "NCCL's TCP connect to a peer never completed: the peer's node did not answer the "
	 "connection", socket_fix, 0, NULL},
	/* socket.cc: "socketStartConnect: exceeded timeouts (%d)", after every retry of a connect
	 * timed out */
	{{"exceeded timeouts"}, HCAT_NET, "nccl-connect-timeouts",
	 "NCCL's socket connect retried until its timeout ran out: the peer's address did not "
	 "answer", socket_fix, 0, NULL},
	/* ibvwrap.cc: WARN("Call to ibv_create_cq failed") (UCX: "ibv_create_cq() failed: Cannot
	 * allocate memory. Please set max locked memory (ulimit -l) ..."); NCCL's troubleshooting
	 * guide sends it to the locked-memory limit, and Horovod's sends "Call to ibv_create_qp
	 * failed" and "Call to ibv_reg_mr failed" there too */
	{{"ibv_create_cq", "failed"}, HCAT_RESOURCE, "ib-create-cq",
	 "the NIC's completion queue could not be created: the process may lock too little "
	 "memory (ulimit -l) for the InfiniBand/RoCE driver",
	 memlock_fix, 0, NULL},
	{{"ibv_create_qp", "failed"}, HCAT_RESOURCE, "ib-create-qp",
	 "a queue pair could not be created on the NIC: the process may lock too little memory "
	 "(ulimit -l) for the InfiniBand/RoCE driver, or the NIC ran out of queue pairs",
	 memlock_fix, 0, NULL},
	{{"ibv_reg_mr", "failed"}, HCAT_RESOURCE, "ib-reg-mr",
	 "a buffer could not be registered with the NIC: the process may lock too little memory "
	 "(ulimit -l), or GPU memory cannot be registered (GPUDirect RDMA's peer-memory module is "
	 "not loaded)",
	 HLOG_MEMLOCK_FIX "; for GPU buffers check that nvidia-peermem is loaded (or test without "
	 "GPUDirect: NCCL_NET_GDR_LEVEL=LOC)",
	 0, reg_mr_reason},
	/* rdma-core's mlx5 provider asking the kernel's driver for a verb it does not have, its
	 * ioctl answering EPROTONOSUPPORT: UCX's "mlx5dv_devx_create_event_channel() failed:
	 * Protocol not supported" with MLNX_OFED 5's libraries in a container on a host whose
	 * mlx5_ib is older, or new rdma-core on an old distribution kernel */
	{{"mlx5dv_", "Protocol not supported"}, HCAT_VERSION, "rdma-verb-unsupported",
	 "the RDMA user-space libraries called a verb the kernel's NIC driver does not have: "
	 "they are newer than the driver (a container's MLNX_OFED or rdma-core over an older "
	 "host driver or kernel)",
	 "use user-space RDMA libraries of the host driver's release (ofed_info -s and the "
	 "container's rdma-core or MLNX_OFED), or update the host's driver to theirs, on every "
	 "node",
	 0, NULL},
	/* NVSHMEM's IB transports (src/modules/transport/ibrc/ibrc.cpp and its kin), when
	 * GPUDirect RDMA's kernel module is not loaded: "nvshmemt_init:1851: neither nv_peer_mem,
	 * or nvidia_peermem detected. Skipping transport." Without it the remote GPUs are not
	 * reachable ("Peer GPU 0 is not accessible", "building transport map failed") */
	{{"neither", "nvidia_peermem detected"}, HCAT_CONFIG, "gdr-module-missing",
	 "GPUDirect RDMA's kernel module (nvidia_peermem, or the older nv_peer_mem) is not loaded: "
	 "the NIC cannot reach GPU memory, so the transport between the nodes' GPUs is skipped",
	 "load it on every node (modprobe nvidia_peermem; lsmod | grep peermem) or use a driver "
	 "with DMA-BUF support, then run again",
	 0, NULL},
	/* graph/xml.cc and graph/search.cc importing the files the job gave (NCCL_TOPO_FILE,
	 * NCCL_GRAPH_FILE): "NCCL WARN XML Import Channel : dev 1 not found." when the file
	 * names a GPU or NIC this node does not have */
	{{"NCCL WARN", "XML Import"}, HCAT_CONFIG, "nccl-topo-file",
	 "a topology or graph file NCCL was given (NCCL_TOPO_FILE, NCCL_GRAPH_FILE) does not fit "
	 "this node: it names a device the node does not have",
	 "unset NCCL_GRAPH_FILE / NCCL_TOPO_FILE (or point them at the files made for this node "
	 "type and GPU count); an image's profile or /etc/nccl.conf may set them",
	 0, NULL},
	/* bootstrap.cc: WARN("Bootstrap : no socket interface found") */
	{{"Bootstrap", "no socket interface found"}, HCAT_CONFIG, "nccl-no-interface",
	 "NCCL found no network interface to bootstrap over",
	 "set NCCL_SOCKET_IFNAME to an interface that exists and is up on every node (ip -br "
	 "addr); a name that matches nothing leaves NCCL without any",
	 0, NULL},
	/* socket.cc: "connecting to address %s with family %d is neither AF_INET(%d) nor
	 * AF_INET6(%d)": the address it was given is no address. NVIDIA/nccl#1837 reproduces it
	 * with an NCCL_SOCKET_IFNAME that matches no interface; in NVIDIA/nccl-tests#294 a
	 * maintainer suspects ranks whose builds differ */
	{{"is neither AF_INET"}, HCAT_CONFIG, "nccl-socket-family",
	 "NCCL was given no usable address to connect to: no interface matched its settings on "
	 "some node, or the ranks run builds that disagree on what they exchange",
	 "set NCCL_SOCKET_IFNAME to an interface that exists and is up on every node (ip -br "
	 "addr); a name that matches nothing leaves NCCL without any. If it does, check that "
	 "every node runs the same NCCL and the same program binary",
	 0, NULL},
	/* graph/xml.cc: WARN("Could not find real path of %s"): the topology search reads the
	 * PCI tree under /sys, which a VM, WSL2 or a container without /sys does not show */
	{{"Could not find real path of"}, HCAT_CONFIG, "nccl-topo-sysfs",
	 "NCCL could not read the PCI topology of a device from /sys (a VM, WSL2 or a container "
	 "that hides the PCI tree)",
	 "run where /sys/class and /sys/bus/pci show the devices (mount /sys into the container; "
	 "on WSL2 or a VM give NCCL a topology file: NCCL_TOPO_FILE), or check that the device "
	 "is still on the bus (lspci)",
	 0, NULL},
	/* graph/rings.cc: WARN("Error : ring %d does not loop back to start (%d != %d)"), then
	 * ncclInternalError: the ranks built rings that do not agree, each from its own view of
	 * the topology. Seen with an OFI plugin built from the wrong branch for the instance
	 * (NVIDIA/nccl#520), with 2.19's link speeds read uninitialised, fixed in 2.20
	 * (NVIDIA/nccl#1020), and with NCCL_HOSTID set to one value for two nodes (#879) */
	{{"does not loop back to start"}, HCAT_VERSION, "nccl-ring-disagree",
	 "the ranks computed rings that do not agree (each from its own view of the topology): "
	 "NCCL builds, network plugins or NCCL settings that differ between the ranks, or a "
	 "release with a defect in that computation",
	 "run the same NCCL release and the same network plugin build (the one made for this "
	 "instance type) on every node, with the same NCCL_* settings (NCCL_HOSTID, "
	 "NCCL_TOPO_FILE, NCCL_ALGO); if they are the same, move to a newer NCCL release",
	 0, NULL},
	/* bootstrap.cc: WARN("Bootstrap Root : rank %d of %d ranks has already checked in"): a
	 * second process claimed the same rank of the same communicator (two launchers' ranks
	 * colliding, or two jobs given one NCCL_COMM_ID) */
	{{"ranks has already checked in"}, HCAT_CONFIG, "nccl-rank-twice",
	 "two processes joined NCCL's bootstrap with the same rank",
	 "give every process its own rank (the launcher's RANK / LOCAL_RANK per node and "
	 "NODE_RANK, the job's world size), and never share one NCCL_COMM_ID or master port "
	 "between jobs",
	 0, NULL},
	/* proxy.cc: WARN("Proxy Call to rank %d failed (%s)") */
	{{"Proxy Call to rank", "failed"}, HCAT_NET, "nccl-proxy-call",
	 "NCCL's proxy thread could not reach another rank's proxy",
	 "the rank it names is unreachable or gone: check its log and the network between the two",
	 0, NULL},
	/* proxy.cc: "[Service thread] Error encountered progressing operation=Connect, res=3" */
	{{"[Service thread] Error encountered progressing operation"}, HCAT_NET,
	 "nccl-proxy-connect", "NCCL's proxy service failed while setting up a connection",
	 socket_fix, 0, proxy_result},
	/* checks.h: CUDACHECK's WARN("Cuda failure '%s'", cudaGetErrorString(err)) */
	{{"NCCL WARN", "Cuda failure '"}, HCAT_UNRESOLVED, "nccl-cuda-failure",
	 "a CUDA call inside NCCL failed (the quoted name is CUDA's)",
	 "the quoted CUDA error names what failed: check the GPU and its driver (nvidia-smi, Xid "
	 "lines in the kernel log), that the driver fits the CUDA runtime, and the peer-to-peer "
	 "and shared-memory paths NCCL chose (NCCL_P2P_DISABLE, NCCL_SHM_DISABLE narrow it down)",
	 0, cuda_failure},
	/* init.cc: WARN("Duplicate GPU detected : rank %d and rank %d both on CUDA device %lx"),
	 * and its words without NCCL's prefix: "Error: rank 27 and rank 19 both on CUDA device
	 * 53000 (PCI 53:00.0)" */
	{{"both on CUDA device"}, HCAT_CONFIG, "duplicate-gpu",
	 "two ranks of one communicator are on the same GPU",
	 "give every local rank its own device (torch.cuda.set_device(local_rank) before "
	 "init_process_group, CUDA_VISIBLE_DEVICES per process, one process per GPU)",
	 5, NULL},
	/* alloc.h: the allocation of NCCL's buffers (its "Cuda failure 'out of memory'" is the
	 * inner-error table's "out of memory") */
	{{"Failed to CUDA calloc"}, HCAT_RESOURCE, "cuda-calloc",
	 "a CUDA allocation for NCCL's buffers failed: the GPU is out of memory",
	 "leave room for NCCL's buffers and check nvidia-smi for another process on the GPU", 0,
	 NULL},
	/* shmutils.cc: WARN("Error while creating shared memory segment %s (size %zu)"), under
	 * "unhandled system error" as its "Last error:" */
	{{"Error while creating shared memory segment"}, HCAT_RESOURCE, "nccl-shm-create",
	 "NCCL could not create its shared-memory segment in /dev/shm: it is too small or full "
	 "(a container's default is 64 MB)",
	 "give the container more shared memory (docker --shm-size=1g, or --ipc=host; on "
	 "Kubernetes an emptyDir of medium Memory mounted on /dev/shm) and remove stale "
	 "/dev/shm/nccl-* files; NCCL_SHM_DISABLE=1 only tests without it",
	 0, NULL},
	/* p2p.cc: WARN("failed to open CUDA IPC handle : %d %s") */
	{{"failed to open CUDA IPC handle"}, HCAT_CONFIG, "nccl-cuda-ipc",
	 "NCCL could not map another process's GPU buffer over CUDA IPC: it took that process "
	 "for one on the same machine (the same hostname or host hash), or the container keeps "
	 "processes from sharing memory",
	 "give every node its own hostname (or NCCL_HOSTID), run containers with --ipc=host "
	 "(and --pid=host); NCCL_P2P_DISABLE=1 tests without the path",
	 0, NULL},
	/* ncclGetErrorString (utils.cc) for the values of ncclResult_t (nccl.h) */
	/* a CUDA call, any of them: a device fault, but as often a driver or toolkit that does
	 * not fit the NCCL build, an NVLS or IPC call the system does not allow, memory it could
	 * not map. Of 17 real jobs that ended on it, the device was the cause in 2; the CUDA
	 * error above it ("uncorrectable ECC", "named symbol not found") says which */
	{{"unhandled cuda error"}, HCAT_UNRESOLVED, "ncclUnhandledCudaError",
	 "a CUDA call inside NCCL failed (ncclResult_t 1): a device fault, a driver or toolkit "
	 "that does not fit, or a call the system does not allow",
	 "read the CUDA error above it and the kernel log (Xid lines) of that GPU", 1, NULL},
	/* a system call, any of them: the socket of a peer that went away, /dev/shm too small,
	 * a verb the NIC refused, memory it could not pin. Of 25 real jobs that ended on it, the
	 * network was the cause in 5; the lines around it (a refused connection, a shared-memory
	 * segment it could not create) say which, so the code alone names no kind */
	{{"unhandled system error"}, HCAT_UNRESOLVED, "ncclSystemError",
	 "a system call inside NCCL failed (ncclResult_t 2): a socket or an InfiniBand verb "
	 "while connecting ranks, shared memory, or memory it could not pin",
	 "rerun with NCCL_DEBUG=INFO and read the WARN line before it: it names the call and the "
	 "peer; check /dev/shm size and the IPC_LOCK capability in containers",
	 2, NULL},
	/* an inconsistency NCCL caught in itself: the "Last error:" line under it says what (a
	 * NIC without a bus id in a VM, a socket family, a bootstrap peer that closed); none of
	 * the jobs seen with it was two NCCL builds, so the code alone names no kind */
	{{"internal error - please report this issue to the NCCL developers"}, HCAT_UNRESOLVED,
	 "ncclInternalError",
	 "NCCL hit an inconsistency of its own (ncclResult_t 3): the line under it says what",
	 "run the same NCCL (and plugin) version on every node; rerun with NCCL_DEBUG=INFO", 3,
	 NULL},
	{{"NCCL error", "invalid argument"}, HCAT_CONFIG, "ncclInvalidArgument",
	 "a call into NCCL had an invalid argument (ncclResult_t 4)",
	 "check the arguments of the failing call (counts, types, root, device pointers)", 4,
	 NULL},
	/* the settings left NCCL no way to run a call: enqueue.cc, "Error : no algorithm/protocol
	 * available for function Broadcast with datatype ncclInt8. NCCL_ALGO was set to NVLS."
	 * (the "Last error:" under an invalid usage) */
	{{"no algorithm/protocol available"}, HCAT_CONFIG, "nccl-no-algorithm",
	 "NCCL had no algorithm and protocol it was allowed to run this collective with: "
	 "NCCL_ALGO or NCCL_PROTO left none that fits the call and its data type",
	 "unset NCCL_ALGO and NCCL_PROTO (or list more than one, Ring among them) on every rank, "
	 "and look for where the setting came from (a job script, a test that set it and did not "
	 "restore it)",
	 5, NULL},
	{{"NCCL error", "invalid usage"}, HCAT_CONFIG, "ncclInvalidUsage",
	 "NCCL was used in a way it does not allow (ncclResult_t 5): two ranks on one GPU, a "
	 "communicator used after abort",
	 "read the WARN line before it for which rule was broken", 5, NULL},
	/* net_socket.cc: WARN("NET/Socket : peer %s message truncated : receiving %d bytes
	 * instead of %d. If you believe your socket network is in healthy state, there may be a
	 * mismatch in collective sizes or environment settings (e.g. NCCL_PROTO, NCCL_ALGO)
	 * between ranks") */
	{{"message truncated", "receiving"}, HCAT_OP_MISMATCH, "nccl-message-truncated",
	 "a rank received more than it had posted a receive for: the ranks called collectives of "
	 "different sizes or types, or run with different NCCL_PROTO / NCCL_ALGO settings",
	 "check that every rank makes the same collective calls with the same counts and types "
	 "(the same program and the same data on every rank), and that NCCL_PROTO, NCCL_ALGO and "
	 "the other NCCL_ variables are the same everywhere",
	 0, NULL},
	/* net_ib.cc: WARN("NET/IB : Unable to open device %s", devName): a device the verbs
	 * library lists that cannot be opened (its driver, /dev/infiniband missing in a
	 * container, or a device not meant for the job) */
	{{"NET/IB", "Unable to open device"}, HCAT_CONFIG, "nccl-ib-open-device",
	 "NCCL could not open an RDMA device the node lists",
	 "make the device usable where the ranks run (its driver loaded, /dev/infiniband in the "
	 "container) or leave it out with NCCL_IB_HCA (e.g. ^name to exclude it), the same on "
	 "every node",
	 0, NULL},
	/* graph/xml.h: WARN("Attribute %s of node %s not found"): the topology NCCL holds of the
	 * machine lacks what it reads, either from a topology XML it was given (NCCL_TOPO_FILE,
	 * or a network plugin's static topology for one instance type) or from a device it could
	 * not place ("Attribute busid of node nic not found": a NIC without a PCI path) */
	{{"Attribute", "of node", "not found"}, HCAT_CONFIG, "nccl-topo-attribute",
	 "NCCL's topology of this machine lacks an attribute it needs: a topology file that does "
	 "not describe this machine, or a device it could not place (a virtual NIC with no PCI "
	 "bus id)",
	 "unset NCCL_TOPO_FILE (or the plugin's static topology) so that NCCL reads the machine "
	 "itself, or give a topology file made for this machine and this NCCL release; leave a "
	 "NIC it cannot place out (NCCL_IB_HCA, NCCL_SOCKET_IFNAME)",
	 0, NULL},
	/* which of the two the words do not say, nor that anything waited: the line under it (a
	 * completion error, a reset connection) or the peer's own log does */
	{{"remote process exited or there was a network error"}, HCAT_UNRESOLVED,
	 "ncclRemoteError",
	 "NCCL lost a peer (ncclResult_t 6): the remote process exited or the network between "
	 "them failed",
	 "find the first rank that stopped (its own log) or the first network error", 6, NULL},
};

const struct hlog_sigtab hlog__cat_nccl = {"nccl", rows, sizeof(rows) / sizeof(rows[0])};
