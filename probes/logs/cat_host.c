/* What the rest of a node prints when a collective job fails: MPI (Open MPI's help texts in
 * ompi/mpi/help-mpi-api.txt, orte/opal help files and mpirun's notices; MPICH's "Fatal error in
 * PMPI_X: ..., error stack:" from src/mpi/errhan; PMIx's PMIX_ERROR_LOG), the collective tests
 * (nccl-tests' src/common.cu summary), the serving engines (vLLM's
 * vllm/executor/ray_utils.py, Ray's autoscaler), UCX's status strings, and the kernel
 * (e1000e/igb/ixgbe/i40e "NIC Link is Down", the bonding driver, drivers/pci/pcie/aer.c,
 * fs/ext4 and the block layer, mm/oom_kill.c). */
#include <string.h>

#include "probes/npu/hcclcodes.h"
#include "probes/logs/catalog.h"
#include "probes/logs/logline.h"
#include "probes/logs/logtext.h"

/* A connect that will be retried has not failed yet ("connect returned No route to host,
 * retrying (26/34)"); the last try of the count has. */
static int no_retry_left(struct pspan m, const struct hx_vals *x, struct hlog_event *e)
{
	(void)x;
	(void)e;
	return !hlog__retry_left(m);
}

/* EPIPE's text, not a shell's report of a job it ran ("hooks.d/10-shadow.sh: line 70: 3474706
 * Broken pipe             yes 2> /dev/null": the process id, then the signal that ended it,
 * SIGPIPE, then its command): a writer whose reader had gone, not a socket's peer. */
static int socket_broken_pipe(struct pspan m, const struct hx_vals *x, struct hlog_event *e)
{
	const char *p = hlog__find(m, "Broken pipe");
	size_t i = p ? (size_t)(p - m.s) : 0, d = 0;
	while (i && m.s[i - 1] == ' ')
		i--;
	while (i && m.s[i - 1] >= '0' && m.s[i - 1] <= '9')
		i--, d++;
	if (d && (!i || m.s[i - 1] == ' '))
		return 0;
	return no_retry_left(m, x, e);
}

static const char ofi_none_meaning[] =
	"libfabric found no provider on this host that fits what was asked (fi_getinfo: no data): "
	"the fabric's devices are not visible here, or the provider asked for is not installed";
static const char ofi_none_fix[] =
	"list what this host offers with fi_info (fi_info -p efa, -p verbs, -p tcp); in a "
	"container, pass the fabric's devices in (/dev/infiniband); or name a provider that is "
	"there (FI_PROVIDER=tcp, I_MPI_OFI_PROVIDER)";

static const char mpi_component_fix[] =
	"install the same Open MPI build (and UCX, libfabric) on every node; ompi_info on this "
	"host lists the components it can load; or exclude the component (--mca pml ^ucx)";

/* "PML ucx cannot be selected": the words are Open MPI's only after one of its frameworks'
 * names ("PML", "MTL", "BTL", "OSC", "COLL"), as its select code prints them. */
static int mpi_component(struct pspan m, const struct hx_vals *x, struct hlog_event *e)
{
	(void)x;
	(void)e;
	static const char *const fw[] = {"PML ", "MTL ", "BTL ", "OSC ", "COLL "};
	for (size_t i = 0; i < sizeof(fw) / sizeof(fw[0]); i++)
		if (hlog__has(m, fw[i]))
			return 1;
	return 0;
}

static const char killed_meaning[] =
	"a rank was killed with SIGKILL, most often by the kernel's OOM killer";
static const char killed_fix[] =
	"check the node's kernel log for the OOM killer (dmesg | grep -i 'killed process') and "
	"lower the memory per rank (data loader workers, pinned memory, batch)";
static const char crash_fix[] =
	"read the frames of the crash (the library they end in) and the lines just before it; "
	"run the rank again with a core dump (ulimit -c unlimited) or under gdb if it repeats";
static const char op_bin_meaning[] =
	"no compiled kernel of the operator fits its input types: the installed operator package "
	"does not have it";
static const char op_bin_fix[] =
	"install the operator (kernels) package that matches the CANN toolkit, or use a supported "
	"data type for that operator";
static const char errno_net_fix[] =
	"check that the peer's address and port are right and reachable from this host (ping, nc "
	"-zv ADDR PORT), on the interface the job uses, and that no firewall drops them";

static const char unreach_meaning[] =
	"the MPI runtime found no network path to a peer process (OPAL's Unreachable)";
static const char unreach_fix[] =
	"check that the nodes reach each other on the interfaces MPI uses (btl_tcp_if_include, "
	"oob_tcp_if_include, UCX_NET_DEVICES) and that no firewall drops the ports";

/* hccn_tool -net_health -g: "net health status: Success", or what failed (Socket fail,
 * Receive timeout, Unreachable, Time exceeded, Fault, ...): every status but success is the
 * NPU's NIC failing to reach the address its health check probes, except "Init", which the
 * tool prints when no detect address is set (nothing was probed). */
static int net_health_failed(struct pspan m, const struct hx_vals *x, struct hlog_event *e)
{
	(void)x;
	(void)e;
	struct pspan v = hlog__after(m, "net health status:");
	while (v.s && v.n && *v.s == ' ')
		v.s++, v.n--;
	/* "Init": no detect address is configured, so nothing was probed */
	return v.s && v.n && !(v.n >= 7 && !memcmp(v.s, "Success", 7)) &&
	       !(v.n >= 4 && !memcmp(v.s, "Init", 4) && (v.n == 4 || !hlog__word_char(v.s[4])));
}

/* The id the runtime refused: "set ASCEND_RT_VISIBLE_DEVICES:[4] error". */
static int visible_device(struct pspan m, const struct hx_vals *x, struct hlog_event *e)
{
	(void)x;
	int d;
	if (hlog__int_after(m, "VISIBLE_DEVICES:[", &d) && d >= 0)
		e->dev = d;
	return 1;
}

/* The Xid number of "NVRM: Xid (PCI:0000:dc:00): 45, pid=..." (the first number after the
 * parenthesis), or -1. */
static int xid_number(struct pspan m)
{
	const char *p = hlog__find(m, "NVRM: Xid");
	if (!p)
		return -1;
	struct pspan t = {p, m.n - (size_t)(p - m.s)};
	const char *c = hlog__find(t, "):");
	if (!c)
		return -1;
	size_t i = (size_t)(c - m.s) + 2;
	while (i < m.n && m.s[i] == ' ')
		i++;
	int n = 0, d = 0;
	for (; i < m.n && d < 6 && m.s[i] >= '0' && m.s[i] <= '9'; i++, d++)
		n = n * 10 + (m.s[i] - '0');
	return d ? n : -1;
}

/* NVIDIA's Xid catalog (docs.nvidia.com/deploy/xid-errors): the Xids whose causes it gives as
 * a program's own fault or the driver's handling of it, not the GPU's hardware (13 graphics
 * engine exception, 31 memory page fault, 43 GPU stopped processing, 68 video decoder
 * exception, 69 graphics engine class error, 109 context switch timeout) */
static const int xid_program[] = {13, 31, 43, 68, 69, 109};
/* and those of the GPU System Processor's firmware not answering the driver (119 GSP RPC
 * timeout, 120 GSP error), which driver releases fixed */
static const int xid_gsp[] = {119, 120};

static int xid_in(struct pspan m, const int *set, size_t n)
{
	int v = xid_number(m);
	for (size_t i = 0; v >= 0 && i < n; i++)
		if (set[i] == v)
			return 1;
	return 0;
}

static int xid_of_program(struct pspan m, const struct hx_vals *x, struct hlog_event *e)
{
	(void)x;
	(void)e;
	return xid_in(m, xid_program, sizeof(xid_program) / sizeof(xid_program[0]));
}

static int xid_of_gsp(struct pspan m, const struct hx_vals *x, struct hlog_event *e)
{
	(void)x;
	(void)e;
	return xid_in(m, xid_gsp, sizeof(xid_gsp) / sizeof(xid_gsp[0]));
}

static const char slurm_low_memory[] =
	"Slurm drained a node that has less memory than slurm.conf gives it (RealMemory)";
static const char slurm_low_memory_fix[] =
	"set the node's RealMemory in slurm.conf to what slurmd -C reports on it (or less), "
	"reconfigure (scontrol reconfigure) and resume it (scontrol update nodename=NODE "
	"state=resume)";

static const struct hlog_sig rows[] = {
	/* MPICH: "Fatal error in PMPI_Test: Message truncated, error stack:" */
	{{"Fatal error in", "Message truncated"}, HCAT_OP_MISMATCH, "mpi-truncated",
	 "an MPI receive got more data than its buffer holds: the ranks disagree on a message size",
	 "make sender and receiver agree on count and datatype (the error stack names the call)",
	 0, NULL},
	{{"Fatal error in", "Invalid communicator"}, HCAT_CONFIG, "mpi-invalid-comm",
	 "an MPI call was given a communicator that is not valid (freed, or from another library "
	 "build)",
	 "check that every part of the program links the same MPI and uses live communicators", 0,
	 NULL},
	/* the failed phase, not its cause: of the jobs seen with it, three of four had a cause
	 * their lines did not state; a line that names the fabric's failure outranks it */
	/* Open MPI's mca_base help text: "A requested component was not found, or was unable to
	 * be opened.  This means that this component is either not installed or is unable to be
	 * used on your system", with the framework and component under it */
	{{"A requested component was not found"}, HCAT_CONFIG, "mpi-component-missing",
	 "Open MPI was asked for a component (the framework and component under the line) that "
	 "is not installed on this host or cannot load its libraries",
	 "install the same Open MPI build, with that component, on every node (ompi_info lists "
	 "what loads), or stop asking for it (--mca btl ^openib, the component the line names)",
	 0, NULL},
	/* Open MPI's rmaps help text when the job asks for more processes than the hosts offer
	 * slots (help-orte-rmaps-base.txt, "There are not enough slots available in the system
	 * to satisfy the N slots that were requested by the application: ... Either request
	 * fewer slots for your application, or make more slots available for use."): a hostfile
	 * without "slots=", or -np over the cores */
	{{"request fewer slots"}, HCAT_CONFIG, "mpi-not-enough-slots",
	 "mpirun was asked for more processes than the hosts it was given have slots",
	 "give each host its slots in the hostfile (\"HOST slots=GPUS\", one per rank to run "
	 "there) or --host HOST:N, or ask for fewer processes (-np); --oversubscribe only "
	 "where ranks may share a core",
	 0, NULL},
	/* libfabric's fi_getinfo() with -FI_ENODATA: no provider on this host matches what was
	 * asked (no such fabric device visible, the provider not installed or excluded). NCCL's
	 * OFI plugin: "NET/OFI OFI fi_getinfo() call failed: No data available"; MPICH's CH4/OFI
	 * names the same call addrinfo: "OFI addrinfo() failed (...:No data available)" */
	{{"fi_getinfo", "failed", "No data available"}, HCAT_CONFIG, "ofi-no-provider",
	 ofi_none_meaning, ofi_none_fix, 0, NULL},
	{{"OFI addrinfo() failed", "No data available"}, HCAT_CONFIG, "ofi-no-provider2",
	 ofi_none_meaning, ofi_none_fix, 0, NULL},
	/* Open MPI's (ORTE's, PRRTE's) help text for a daemon started on a node that never
	 * called back: "An ORTE daemon has unexpectedly failed after launch and before
	 * communicating back to mpirun. This could be caused by ... an inability to create a
	 * connection back to mpirun due to a lack of common network interfaces and/or no route
	 * found between them." */
	{{"daemon has unexpectedly failed after launch"}, HCAT_NET, "mpi-daemon-no-callback",
	 "a launcher daemon started on a node but never connected back to mpirun: most often no "
	 "network the two hosts share, no route, or a firewall between them",
	 "check that every node reaches the launching host on the interface Open MPI uses (ping, "
	 "nc to a port; firewalls off or open between the nodes), and restrict Open MPI to the "
	 "nodes' common network (--mca oob_tcp_if_include, --mca btl_tcp_if_include with that "
	 "interface or subnet)",
	 0, NULL},
	{{"Fatal error in PMPI_Init"}, HCAT_UNRESOLVED, "mpi-init",
	 "MPI could not initialise: the launcher, the process manager or the fabric it asked for "
	 "does not fit this node",
	 "launch with the MPI's own launcher (mpirun/srun --mpi=pmix as the MPI was built for) and "
	 "read the error stack's last lines for the fabric (OFI provider, UCX) that failed",
	 0, NULL},
	/* Open MPI/PRRTE/PMIx error logs with OPAL's "Unreachable" (OPAL_ERR_UNREACH, -12):
	 * "[[%d,%d],%d] ORTE_ERROR_LOG: Unreachable in file %s at line %d", and MPI_INIT's help
	 * text: "--> Returned \"Unreachable\" (-12) instead of \"Success\" (0)" */
	{{"ERROR_LOG: Unreachable"}, HCAT_NET, "mpi-unreachable", unreach_meaning, unreach_fix,
	 0, NULL},
	{{"Returned \"Unreachable\""}, HCAT_NET, "mpi-unreachable2", unreach_meaning, unreach_fix,
	 0, NULL},
	/* OpenSSH, under a launcher that starts its daemons over ssh (mpirun, prterun, pdsh):
	 * "ssh_exchange_identification: Connection closed by remote host" (kex_ since 8.0) */
	{{"exchange_identification", "Connection closed by remote host"}, HCAT_NET, "ssh-closed",
	 "the remote sshd closed the connection before login, so the launcher could not start its "
	 "daemon there",
	 "check sshd on that node (running, MaxStartups for many parallel logins, a firewall or "
	 "fail2ban), or launch through the scheduler (srun, a PMIx server) instead of ssh",
	 0, NULL},
	/* Open MPI's TCP transport (help-mpi-btl-tcp.txt, "client connect fail"): "WARNING: Open
	 * MPI failed to TCP connect to a peer MPI process." with the address under it ("Message:
	 * connect() to 169.254.140.13:1026 failed") */
	{{"Open MPI failed to TCP connect to a peer"}, HCAT_NET, "mpi-tcp-connect",
	 "an MPI process could not open a TCP connection to a peer process",
	 "check that every node reaches the others' addresses on the interfaces MPI uses (limit "
	 "them with --mca btl_tcp_if_include to the network the nodes share; a link-local "
	 "169.254.x.x or a container's bridge address is reachable from no other node) and that no "
	 "firewall drops the ports",
	 0, NULL},
	/* ... and a connection that came from an address its peer never listed (btl_tcp_proc.c:
	 * "btl: tcp: Match incoming connection from [[27443,1],1] 44.128.0.4 with locally known
	 * IP 2.2.2.77 failed (iface 0/4)!"): NAT or masquerading between the nodes, or interfaces
	 * that differ */
	{{"Match incoming connection from", "failed"}, HCAT_CONFIG, "mpi-tcp-unknown-source",
	 "a peer's connection came from an address that peer did not announce (NAT or "
	 "masquerading between the nodes, or containers on different networks), so MPI refused "
	 "it",
	 "run the ranks on addresses the nodes reach directly (host networking without "
	 "masquerading) and restrict MPI to that network with --mca btl_tcp_if_include, the same "
	 "on every node",
	 0, NULL},
	/* Open MPI help-mpi-runtime: a peer exited without MPI_Finalize */
	{{"An MPI communication peer process has unexpectedly disconnected"}, HCAT_RANK_STUCK,
	 "mpi-peer-gone", "an MPI peer process died without finalizing",
	 "read the log of the rank that died first (a crash, the OOM killer, a signal)", 0, NULL},
	/* the rank's own error ended it, which the lines before the abort say (no hang: the
	 * row names what happened, the words of those lines why) */
	{{"MPI_ABORT was invoked on rank"}, HCAT_UNRESOLVED, "mpi-abort",
	 "a rank called MPI_Abort: it hit an error of its own and took the job down",
	 "read that rank's output just before the abort for its error", 0, NULL},
	/* mpirun: "mpirun noticed that process rank 0 with PID 77967 on node n342 exited on
	 * signal 9 (Killed)." */
	{{"mpirun noticed that process rank", "signal 9"}, HCAT_RESOURCE, "mpi-rank-killed",
	 killed_meaning, killed_fix, 0, NULL},
	/* torch elastic's root-cause block: "traceback : Signal 9 (SIGKILL) received by PID
	 * 14750" */
	{{"(SIGKILL) received by PID"}, HCAT_RESOURCE, "rank-sigkill", killed_meaning, killed_fix,
	 0, NULL},
	/* the same block for a fault signal ("Signal 11 (SIGSEGV) received by PID 3304209"), and
	 * a crash handler's dump ("[host:pid] Failing at address: 0xb8", Open MPI's and
	 * MindSpore's): the process crashed, which does not say why */
	{{"(SIGSEGV) received by PID"}, HCAT_UNRESOLVED, "rank-crashed",
	 "a rank's process crashed on a fault signal", crash_fix, 0, NULL},
	{{"Failing at address"}, HCAT_UNRESOLVED, "native-crash",
	 "a process crashed in native code; its handler printed the faulting address and frames",
	 crash_fix, 0, NULL},
	/* MVAPICH2's signal handler: "[host:mpi_rank_3][error_sighandler] Caught error:
	 * Segmentation fault (signal 11)" */
	{{"error_sighandler", "Caught error"}, HCAT_UNRESOLVED, "mpi-signal-crash",
	 "an MPI rank's process crashed on a fault signal its handler caught", crash_fix, 0,
	 NULL},
	/* MindSpore's msrun launcher: "Worker process 130673 exit with exception." */
	{{"Worker process", "exit with exception"}, HCAT_UNRESOLVED, "launcher-worker-exit",
	 "the launcher saw a worker process exit with an error",
	 "read that worker's own log (msrun writes one per worker, worker_N.log) for its first "
	 "error",
	 0, NULL},
	/* MVAPICH2: "rdma_iba_hca_init(1636)..: cannot create cq" */
	{{"cannot create cq"}, HCAT_RESOURCE, "mpi-create-cq",
	 "MPI could not create the NIC's completion queue: most often too little locked memory "
	 "(ulimit -l) where the ranks start",
	 HLOG_MEMLOCK_FIX, 0, NULL},
	/* Open MPI's MCA base (help-mca-base.txt, "find-available:none found"): "No components
	 * were able to be opened in the pml framework." and the PML's own "PML ucx cannot be
	 * selected" (pml_base_select.c): the transport the job asked for cannot be loaded here */
	{{"No components were able to be opened in the"}, HCAT_CONFIG, "mpi-no-component",
	 "Open MPI could not load any component of one of its frameworks on this host: a plugin "
	 "or a library it needs is missing",
	 mpi_component_fix,
	 0, NULL},
	{{"cannot be selected"}, HCAT_CONFIG, "mpi-component-select",
	 "Open MPI could not select the component the job asked for on this host (it failed to "
	 "load or to initialise)",
	 mpi_component_fix,
	 0, mpi_component},
	/* Open MPI's bml/r2 help text ("unreachable proc"): "At least one pair of MPI processes
	 * are unable to reach each other for MPI communications. ... BTLs attempted: vader self" */
	{{"unable to reach each other"}, HCAT_CONFIG, "mpi-no-transport",
	 "no MPI transport the job allowed connects two of its processes (the ones it tried "
	 "cannot reach the other host)",
	 "allow a transport that reaches between the nodes (--mca btl tcp,vader,self, or the "
	 "fabric's own: --mca pml ucx, --mca mtl psm2 or ofi on Omni-Path) and check the "
	 "interfaces it may use (btl_tcp_if_include)",
	 0, NULL},
	{{"There are not enough slots available in the system"}, HCAT_CONFIG, "mpi-slots",
	 "more ranks were asked for than the host list offers slots",
	 "give slots per host (hostfile 'node slots=8', -H node:8) or ask for fewer ranks", 0,
	 NULL},
	{{"PMIX ERROR: UNREACHABLE"}, HCAT_RANK_STUCK, "pmix-unreachable",
	 "the PMIx server lost a client of the job: a process of it is gone",
	 "find the process that died first (its log, the kernel log for the OOM killer)", 0, NULL},
	/* nccl-tests common.cu: "# Out of bounds values : %d %s" (OK or FAILED), and the #wrong
	 * column of each size */
	{{"Out of bounds values", "FAILED"}, HCAT_HARDWARE, "wrong-results",
	 "the collective test found wrong values in its results: data was corrupted on the way",
	 "rerun the test per link and per GPU to isolate the faulty one (NCCL_P2P_DISABLE=1, "
	 "NCCL_SHM_DISABLE=1, one node), check the GPUs' ECC counters and Xid lines",
	 0, NULL},
	{{"Test NCCL failure"}, HCAT_NET, "nccl-test-failure",
	 "an NCCL call of the test program failed; the quoted reason says which",
	 "rerun with NCCL_DEBUG=INFO and read the first WARN line", 0, NULL},
	/* vLLM: "The number of required GPUs exceeds the total number of available GPUs in the
	 * placement group." (also "... in the cluster.") */
	{{"number of required GPUs exceeds the total number of available GPUs"}, HCAT_CONFIG,
	 "world-exceeds-devices",
	 "the engine's world size (tensor x pipeline parallel) is larger than the devices it sees",
	 "lower --tensor-parallel-size / --pipeline-parallel-size, or make every node's devices "
	 "visible (join the Ray cluster with its devices, ASCEND_RT_VISIBLE_DEVICES / "
	 "CUDA_VISIBLE_DEVICES)",
	 0, NULL},
	/* Ray's autoscaler (autoscaler/_private/resource_demand_scheduler.py): "No available node
	 * types can fulfill resource request {'node:10.0.0.5': 0.001, 'GPU': 1.0}". A request
	 * that no node can ever meet waits forever; a "node:ADDR" resource in it is the address a
	 * worker was told to run on, which no node of the cluster registered under. */
	{{"No available node types can fulfill resource request"}, HCAT_CONFIG, "ray-unfulfillable",
	 "the job asked Ray for resources no node of the cluster has (a node address, or more "
	 "GPUs/NPUs than a node offers): it waits for them forever",
	 "compare the request with `ray status`: a 'node:ADDR' resource must be the address a node "
	 "joined with (ray start --node-ip-address, VLLM_HOST_IP, the interface Ray picked); the "
	 "device counts must fit a node",
	 0, NULL},
	/* UCX (src/ucs/type/status.c, ucs_status_string) as it logs a failed endpoint: "UCX  ERROR
	 * Error Endpoint timeout was not handled for ep ...", "UCX  ERROR ucp_ep_create() failed:
	 * Destination is unreachable" */
	{{"UCX", "Endpoint timeout"}, HCAT_NET, "ucx-endpoint-timeout",
	 "UCX gave up on a connection after its transport's retries: the peer stopped answering "
	 "over the network (a link, switch or route fault, or the peer's host went down)",
	 "check the link of both hosts (ibstat / ip -br link, the switch port and its counters); "
	 "if the peer's host or process had gone, its own log holds the cause",
	 0, NULL},
	{{"UCX", "Destination is unreachable"}, HCAT_NET, "ucx-unreachable",
	 "UCX found no transport that reaches the peer",
	 "check that UCX_NET_DEVICES and UCX_TLS name devices and transports both hosts have and "
	 "that reach each other (same subnet or a route, the port active: ucx_info -d)",
	 0, NULL},
	/* UCX failing to open one of its RDMA transports on a device (uct_iface_open names the
	 * transport and the device: "UCX ERROR uct_iface_open(ud_verbs/mana_0:1) failed: Address
	 * not valid"): the device does not offer that transport to this process (a NIC whose
	 * verbs provider lacks it, a container without the RDMA device files), and UCX stops
	 * the process's start-up instead of going on without it */
	{{"uct_iface_open(", "_verbs/"}, HCAT_CONFIG, "ucx-transport-unopened",
	 "UCX could not open an RDMA transport on the device it names: the device does not offer "
	 "that transport here",
	 "list what the device offers (ucx_info -d) and limit UCX to it: UCX_TLS (tcp,self,sm "
	 "where no RDMA transport works) or UCX_NET_DEVICES; in a container, give it the RDMA "
	 "devices (/dev/infiniband)",
	 0, NULL},
	/* vLLM (executor/ray_utils.py): "Ray does not allocate any GPUs on the driver node.
	 * Consider adjusting the Ray placement group or running the driver on a GPU node." */
	{{"does not allocate any GPUs on the driver node"}, HCAT_CONFIG, "ray-driver-no-device",
	 "the engine's driver runs on a node where Ray gave it no device",
	 "start the engine on a node that joined the Ray cluster with its devices, or place the "
	 "driver's bundle on a device node (the placement group, VLLM_HOST_IP)",
	 0, NULL},
	/* hccn_tool -net_health -g, its statuses as the Ascend NIC tool's manual lists them */
	{{"net health status:"}, HCAT_NET, "npu-net-health",
	 "the NPU's network port cannot reach the address its health check probes (hccn_tool "
	 "-net_health)",
	 "on that NPU: hccn_tool -i N -netdetect -g (the address probed), -ip -g, -link -g, "
	 "-gateway -g; ping the probed address from the NPU (hccn_tool -i N -ping -g address "
	 "ADDR); check the cable and switch port, and that the probed address answers",
	 0, net_health_failed},
	/* rdma-core's ibdev2netdev, a port and its net device with its link state: "mlx5_18 port 1
	 * ==> net1 (Down)" ("(Up)" when it has one) */
	{{"==> ", "(Down)"}, HCAT_LINK_DOWN, "ibdev2netdev-down",
	 "an RDMA port has no link (ibdev2netdev shows its net device Down)",
	 "check the port's cable, optics and switch port (ibstat, ip link show on the net device); "
	 "in a container or VF, that the interface given to it is the one cabled and up",
	 0, NULL},
	/* nvidia-smi nvlink -s, a GPU's links under its heading: "GPU 3: Tesla V100-SXM2-32GB
	 * (UUID: ...)", then "         Link 3: <inactive>" for a link with no connection */
	{{"Link ", ": <inactive>"}, HCAT_LINK_DOWN, "nvlink-inactive",
	 "an NVLink link of a GPU is inactive (nvidia-smi nvlink -s)",
	 "check the GPU's NVLink links (nvidia-smi nvlink -s, -e for their error counters) and "
	 "the fabric manager where there is one (systemctl status nvidia-fabricmanager); a link "
	 "that stays inactive after a reset needs the board or the bridge seen to",
	 0, NULL},
	/* NVIDIA SHARP and the subnet manager's port: the SHARP daemon of a job, "ERROR
	 * collect_ports_data: device mlx5_0 port 1 is not valid (port is used by SM)", and its
	 * aggregation manager, "Local Port validation failed. error: FabricProvider must bind
	 * to port with master SM (SM LID:35 local LID:2. Exiting." */
	{{"port is used by SM"}, HCAT_CONFIG, "sharp-port-sm",
	 "SHARP will not use the port the InfiniBand subnet manager runs on",
	 "give the job's collectives an HCA port that the subnet manager does not run on "
	 "(SHARP_COLL_IB_DEV_LIST / NCCL_IB_HCA), or move the subnet manager to another port",
	 0, NULL},
	{{"must bind to port with master SM"}, HCAT_CONFIG, "sharp-am-port",
	 "SHARP's aggregation manager runs on a port that is not the master subnet manager's",
	 "run sharp_am where the master subnet manager runs (sminfo shows its LID), or set its "
	 "ib_dev/port in sharp_am.cfg to that port, then restart it",
	 0, NULL},
	/* kernel: Intel drivers print "NIC Link is Down" */
	{{"NIC Link is Down"}, HCAT_LINK_DOWN, "kernel-link-down",
	 "the kernel saw a NIC lose its link", "check the cable, the optics and the switch port", 0,
	 NULL},
	/* the bonding driver (drivers/net/bonding/bond_main.c): a member NIC whose link went
	 * down, taken out of the bond ("bond0: link status definitely down for interface eno50,
	 * disabling it"), and a bond left with no member up ("bond1: now running without any
	 * active interface!") */
	{{"link status definitely down"}, HCAT_LINK_DOWN, "bond-member-down",
	 "the bonding driver saw a member NIC of a bond lose its link and took it out of the bond",
	 "check that NIC's cable, optics and switch port (ethtool IFACE, ip -s link); the bond "
	 "runs on the members left, and with none left it has no link at all",
	 0, NULL},
	{{"without any active interface"}, HCAT_LINK_DOWN, "bond-no-member",
	 "a bond has no member NIC with a link: the node lost that network",
	 "check every member NIC of the bond (cat /proc/net/bonding/BOND), their cables and "
	 "switch ports, and the switch side of the bond (LACP) when the links are up",
	 0, NULL},
	/* aer.c: "AER: Uncorrected (Fatal) error received", "(Non-Fatal)" */
	{{"AER:", "Uncorrected"}, HCAT_HARDWARE, "pcie-aer",
	 "a PCIe device reported an uncorrected error (AER)",
	 "find the device by its bus id (lspci -s), check its slot and riser, and replace it if "
	 "it repeats",
	 0, NULL},
	{{"EXT4-fs error"}, HCAT_HARDWARE, "fs-error",
	 "the file system reported an error (corruption, or the disk under it failing)",
	 "check the disk (smartctl, dmesg for I/O errors) and run fsck on it when unmounted", 0,
	 NULL},
	{{"I/O error, dev"}, HCAT_HARDWARE, "disk-io-error", "a block device failed a read or write",
	 "check the disk (smartctl -a) and its cabling; replace it if it repeats", 0, NULL},
	/* oom_kill.c: "Out of memory: Killed process 4567 (python)", cgroup form "Memory cgroup
	 * out of memory: Killed process" */
	{{"out of memory: Killed process"}, HCAT_RESOURCE, "oom-killer-cgroup",
	 "the kernel killed a process of the job: its memory cgroup (container limit) was full",
	 "raise the container's memory limit or lower the memory per rank (data loader workers, "
	 "pinned memory)",
	 0, NULL},
	/* nvidia's kernel driver: "NVRM: Xid (PCI:0000:dc:00): 45, pid=..., Ch 00000001"; by its
	 * number, a program's fault, the firmware's, else the GPU's */
	{{"NVRM: Xid"}, HCAT_UNRESOLVED, "nvidia-xid-program",
	 "the NVIDIA driver stopped a program's work on the GPU at that PCI address (an Xid that "
	 "NVIDIA's catalog gives as the program's own fault, such as a bad memory access, more "
	 "often than the GPU's)",
	 "read the program's own error at that time (the pid on the line is its process); run it "
	 "again under compute-sanitizer; drain the GPU only if the Xid repeats with other "
	 "programs or comes with a hardware Xid (48, 63, 64, 74, 79, 94, 95)",
	 0, xid_of_program},
	{{"NVRM: Xid"}, HCAT_VERSION, "nvidia-xid-gsp",
	 "the GPU's system processor (GSP firmware) stopped answering the NVIDIA driver",
	 "update the NVIDIA driver to a release that fixes GSP timeouts for this GPU, or load the "
	 "driver with its GSP firmware off (NVreg_EnableGpuFirmware=0) where the GPU allows; "
	 "reset the GPU to recover it",
	 0, xid_of_gsp},
	{{"NVRM: Xid"}, HCAT_HARDWARE, "nvidia-xid",
	 "the NVIDIA driver reported a GPU fault (an Xid event) on the device at that PCI address",
	 "look the Xid number up in NVIDIA's Xid table, start from the earliest one (\"caused by "
	 "previous Xid\" names it), and drain the GPU (nvidia-smi -q, a reset or replacement) if "
	 "it is a hardware or NVLink one",
	 0, NULL},
	/* CANN's operator packages: "Cannot find bin of op Range, integral key ...", "Cannot find
	 * binary for op Range." */
	{{"Cannot find bin of op"}, HCAT_VERSION, "op-binary-missing", op_bin_meaning, op_bin_fix,
	 0, NULL},
	{{"Cannot find binary for op"}, HCAT_VERSION, "op-binary-missing2", op_bin_meaning,
	 op_bin_fix, 0, NULL},
	/* the runtime's EE1001: "Set visible device failed, invalid device=6, input visible
	 * devices:6" */
	{{"Set visible device failed"}, HCAT_CONFIG, "visible-device-invalid",
	 "the process was given a device index its visible devices do not have",
	 "give each process an index within ASCEND_RT_VISIBLE_DEVICES (it renumbers the devices "
	 "from 0), and check which devices the container was started with",
	 0, NULL},
	/* the runtime's own check of the variable (runtime.cc GetVisibleDevices): "set
	 * ASCEND_RT_VISIBLE_DEVICES:[4] error, input data rang[0-2)": an id past the devices the
	 * host or container has */
	{{"set ASCEND_RT_VISIBLE_DEVICES", "error"}, HCAT_CONFIG, "visible-devices-range",
	 "ASCEND_RT_VISIBLE_DEVICES names a device this host (or container) does not have",
	 "list only devices the host has (npu-smi info; in a container, the ones it was started "
	 "with) in ASCEND_RT_VISIBLE_DEVICES, and index them from 0 in the job",
	 0, visible_device},
	{{"Out of memory: Killed process"}, HCAT_RESOURCE, "oom-killer",
	 "the kernel's OOM killer killed a process: the node ran out of memory",
	 "lower the memory per rank (data loader workers, pinned memory, batch) or add swap", 0,
	 NULL},
	/* and the first line of its report (oom_kill.c dump_header): "main invoked oom-killer:
	 * gfp_mask=0x1100dca(GFP_HIGHUSER_MOVABLE|__GFP_ZERO), order=0, oom_score_adj=0" */
	{{"invoked oom-killer"}, HCAT_RESOURCE, "oom-killer-invoked",
	 "the kernel's OOM killer ran: the node (or the memory cgroup of the process that asked) "
	 "ran out of memory, and a process was killed to free some",
	 "find the process it killed (the \"Killed process\" line below it in dmesg) and lower "
	 "the memory per rank (data loader workers, pinned memory, batch, model shards per node) "
	 "or give the node or container more",
	 0, NULL},
	/* name resolution, as MPICH's TCP channel and glibc's gai_strerror word it:
	 * "MPID_nem_tcp_init(384).............: gethostbyname failed, node7 (errno 1)",
	 * "Temporary failure in name resolution" (EAI_AGAIN). A name that does not resolve is the
 * network's failure to reach the host, as the torch store's "Name or service not known" is */
	{{"gethostbyname failed"}, HCAT_NET, "host-unresolved2",
	 "a host name of the job does not resolve on this node (the host's own name included)",
	 "make every host name of the job, this host's own included, resolve on every node "
	 "(/etc/hosts or DNS), or give addresses", 0, NULL},
	{{"Temporary failure in name resolution"}, HCAT_NET, "host-unresolved3",
	 "a host name of the job could not be resolved: the resolver did not answer (EAI_AGAIN)",
	 "check the node's resolver (/etc/resolv.conf, the DNS server) or list the hosts in "
	 "/etc/hosts on every node", 0, NULL},
	/* musl's gai_strerror(EAI_NONAME), as BusyBox's nslookup and Alpine-based images print
	 * it: "nslookup: can't resolve 'master-0': Name does not resolve" */
	{{"Name does not resolve"}, HCAT_NET, "host-unresolved4",
	 "a host name of the job does not resolve on this node (no such name in DNS or /etc/hosts)",
	 "make every host name of the job resolve on every node (/etc/hosts or DNS; in Kubernetes "
	 "the pod's service must exist and be ready before its name resolves), or give addresses",
	 0, NULL},
	/* glibc's strerror texts, whoever prints them (c10d's store, NCCL's sockets, servers),
	 * last so that a stack's own row wins */
	{{"Software caused connection abort"}, HCAT_NET, "errno-conn-aborted",
	 "a connection was aborted on this host's side (ECONNABORTED) while it was being set up "
	 "or used",
	 errno_net_fix, 0, no_retry_left},
	{{"No route to host"}, HCAT_NET, "errno-no-route",
	 "the peer's address has no route from this host (EHOSTUNREACH)", errno_net_fix, 0,
	 no_retry_left},
	{{"Network is unreachable"}, HCAT_NET, "errno-net-unreachable",
	 "the peer's network is not reachable from this host (ENETUNREACH)", errno_net_fix, 0,
	 no_retry_left},
	{{"Address family not supported by protocol"}, HCAT_CONFIG, "errno-afnosupport",
	 "a socket of an address family this host does not have was asked for (EAFNOSUPPORT), "
	 "most often IPv6 on a host without it",
	 "give IPv4 addresses (MASTER_ADDR, the host names' resolution) or enable IPv6 on every "
	 "node; check what localhost resolves to (/etc/hosts)", 0, NULL},
	/* EACCES: NCCL's "Call to shm_open failed : Permission denied" under its "Error while
	 * creating shared memory segment" (a segment name another user's job left in /dev/shm),
	 * a device node or a file the job's user may not open */
	{{"Permission denied"}, HCAT_CONFIG, "errno-access",
	 "the call was refused access (EACCES): a file, device or shared-memory segment the "
	 "job's user may not open",
	 "check the owner and mode of what the line names (ls -l; for NCCL's shared memory "
	 "/dev/shm/nccl-* left by another user's job, for RDMA /dev/infiniband/*) and run as "
	 "a user that may open it, or give the container the device or capability it needs",
	 0, NULL},
	{{"Connection refused"}, HCAT_NET, "errno-refused",
	 "nothing listened at the peer's address and port (ECONNREFUSED)", errno_net_fix, 0,
	 no_retry_left},
	/* EADDRNOTAVAIL: a bind to an address that is not this host's (the rank table's or a
	 * config's IP of another node, an IPv6 link-local address without its interface); on a
	 * connect, no local port left. DGL's "Failed bind on 16x.1xx.1xx.1xx:3026 ,errno=99",
	 * c10d's "The server socket has failed to bind to ... (errno: 99 - Cannot assign
	 * requested address)" */
	{{"Cannot assign requested address"}, HCAT_CONFIG, "errno-addr-not-avail",
	 "an address this host does not have was asked for (EADDRNOTAVAIL): a bind to another "
	 "host's address, or a connect with no local port left",
	 "bind only addresses of this host (ip -br addr): its own IP in the rank table or the "
	 "job's config, MASTER_ADDR's listener on the master alone, an interface that exists "
	 "(NCCL_SOCKET_IFNAME, GLOO_SOCKET_IFNAME); on connects, widen the local port range "
	 "(net.ipv4.ip_local_port_range)",
	 0, NULL},
	/* a reset is the network's answer, as a refusal is: what sent it (the peer's process
	 * ending with data unread, its host, a firewall between) the line does not say */
	{{"Connection reset by peer"}, HCAT_NET, "errno-reset",
	 "the other end reset the connection (ECONNRESET): its process ended or crashed, or "
	 "something between the hosts (a firewall, a load balancer, a NAT timeout) cut it",
	 "read the log of the process at the other end (the rank or address it names) for why "
	 "it stopped; if it did not, check the firewalls and idle timeouts between the hosts",
	 0, no_retry_left},
	/* ENODEV from a device call: "NCCL WARN Call to ibv_modify_qp failed with error No such
	 * device" (an RDMA device the job selected that cannot be used: no address or link on
	 * its port) */
	{{"No such device"}, HCAT_CONFIG, "errno-no-device",
	 "a device the job selected is not there or cannot be used (ENODEV)",
	 "select only the devices this host has and has set up (NCCL_IB_HCA, NCCL_SOCKET_IFNAME, "
	 "the visible devices); check each one's port, link and address (ibv_devinfo, ip addr)",
	 0, NULL},
	/* Slurm's RPC to a daemon that did not answer in time (SLURM_PROTOCOL_SOCKET_IMPL_TIMEOUT's
	 * text): "srun: error: slurm_receive_msgs: [[n1]:6818] failed: Socket timed out on
	 * send/recv operation" (6818 is slurmd's port, 6817 slurmctld's) */
	{{"Socket timed out on send/recv operation"}, HCAT_NET, "slurm-rpc-timeout",
	 "a Slurm daemon did not answer in time: the node is down or unreachable from here, its "
	 "slurmd is hung, or it rejects the request (a munge key or clock that differs between "
	 "the nodes)",
	 "from the controller, check the node the line names: sinfo -R and scontrol show node, "
	 "that its slurmd runs and its port (6818) is reachable (firewall), and that munge works "
	 "between the two (munge -n | ssh NODE unmunge; the same /etc/munge/munge.key, clocks in "
	 "step)",
	 0, NULL},
	/* slurmctld draining a node that registered with less than slurm.conf gives it (its
	 * node_mgr.c): "error: Node ip-10-2-1-120 has low real_memory size (63622 < 64000)", the
	 * reason sinfo -R then shows, "Low RealMemory"; and slurmd finding fewer GPUs than the
	 * node's Gres, "Reason=gres/gpu count reported lower than configured (0 < 8)". The
	 * node takes no jobs: those for it wait (PENDING) or fail */
	{{"low real_memory"}, HCAT_CONFIG, "slurm-node-low-memory", slurm_low_memory,
	 slurm_low_memory_fix, 0, NULL},
	{{"Low RealMemory"}, HCAT_CONFIG, "slurm-drain-low-memory", slurm_low_memory,
	 slurm_low_memory_fix, 0, NULL},
	{{"count reported lower than configured"}, HCAT_CONFIG, "slurm-node-gres-count",
	 "Slurm drained a node whose slurmd found fewer devices of a kind (GPUs) than "
	 "slurm.conf's Gres for it",
	 "compare nvidia-smi -L (or npu-smi info) on the node with its Gres in slurm.conf and "
	 "gres.conf (the device files, the count); a GPU the driver lost is a hardware fault "
	 "(dmesg: Xid, fallen off the bus). Then restart slurmd and resume the node (scontrol "
	 "update nodename=NODE state=resume)",
	 0, NULL},
	{{"Broken pipe"}, HCAT_RANK_STUCK, "errno-broken-pipe",
	 "the peer had closed the connection when this end wrote to it (EPIPE): its process "
	 "most often exited or crashed",
	 "read the log of the process at the other end for why it stopped", 0,
	 socket_broken_pipe},
};

/* Linux's numbers of the errno rows above (asm-generic/errno.h) */
const struct hlog_errno_row hlog__errno_rows[] = {
	{19, "errno-no-device"},       {32, "errno-broken-pipe"},
	{97, "errno-afnosupport"},     {99, "errno-addr-not-avail"},
	{101, "errno-net-unreachable"}, {103, "errno-conn-aborted"},
	{104, "errno-reset"},	       {111, "errno-refused"},
	{113, "errno-no-route"},
};
const size_t hlog__n_errno_rows = sizeof(hlog__errno_rows) / sizeof(hlog__errno_rows[0]);

const struct hlog_sigtab hlog__cat_host = {"host", rows, sizeof(rows) / sizeof(rows[0])};
