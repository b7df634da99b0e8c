/* The error-code catalog: one row per code, sub-message or HcclResult. The rows say what a code
 * usually means when it is the *first* error of a job, because that is the question the log
 * triage asks; the same code seen later in a cascade is often only a consequence. Meanings and
 * fixes are written here, not copied: the vendor texts are terse, change between releases and
 * point at documents the operator does not have. */
#include <pthread.h>
#include <string.h>

#include "probes/npu/hcclcodes.h"
#include "ranktable/base/acm.h"

#define NROWS(a) (sizeof(a) / sizeof((a)[0]))

static const char *const cat_names[HCAT_N] = {
	[HCAT_NONE] = "none",
	[HCAT_LINK_DOWN] = "link-down",
	[HCAT_NET] = "network-unreachable",
	[HCAT_RESOURCE] = "memory/resource",
	[HCAT_RANK_STUCK] = "rank-stuck",
	[HCAT_OP_MISMATCH] = "op-mismatch",
	[HCAT_CONFIG] = "config",
	[HCAT_VERSION] = "version-mismatch",
	[HCAT_HARDWARE] = "hardware",
	[HCAT_UNRESOLVED] = "unresolved",
};

const char *hcat_name(int cat)
{
	if (cat < 0 || cat >= HCAT_N)
		return "?";
	return cat_names[cat];
}

int hcat_from_name(const char *name)
{
	if (!name)
		return -1;
	for (int i = 0; i < HCAT_N; i++)
		if (!strcmp(cat_names[i], name))
			return i;
	return -1;
}

/*
 * Codes as the screen and plogs print them.
 *
 * Built from:
 * - EI0001-EI0020: HCOMM src/legacy/ascend910/common/error_code/error_code.cc (GitHub mirror
 *   libochao-huawei/hcomm of gitcode.com/cann/hcomm), its older revision (which also holds
 *   EJ0001-EJ0004), and hicann/runtime src/dfx/error_manager/error_code.json.
 * - EJ0001-EJ0004, EE1xxx, EL00xx, E300xx: hicann/runtime src/dfx/error_manager/error_code.json;
 *   EL0019 from https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/910beta3/
 *   maintenref/troubleshooting/atlaserrorcode_15_0462.html.
 * - The x9999 / EE8888 inner codes: hicann/runtime src/runtime/core/inc/spec/base_info.hpp
 *   (RT_*_INNER_ERROR) and docs/zh/guidelines/error_message_guide/macro-selection-guide.md;
 *   EJ9999 from the E*9*** list at https://www.hiascend.com/document/detail/zh/canncommercial/
 *   800/developmentguide/maintenref/troubleshooting/atlaserrorcode_15_0314.html.
 * - ERRxxxxx: Ascend/pytorch torch_npu/utils/_error_code.py, torch_npu/csrc/core/npu/
 *   NPUException.h (SubModule PTA=0 OPS=1 DIST=2 GRAPH=3 PROF=4; ErrCode 1-12, ACL=100,
 *   HCCL=200, GE=300, 999) and docs/zh/user_guide/troubleshooting/error_code_description/
 *   error_code_information.md.
 * - What the codes mean in practice: the HCCL user guide's fault pages (CANN 8.0.RC3 and 9.0,
 *   https://www.hiascend.com/document/detail/zh/canncommercial/900/API/hcclug/), hicann/hccl
 *   docs/zh/user_guide/fault_diagnosis, and the issue threads listed above hinner's table.
 *
 * name: the title the vendor prints before "(CODE):". Releases renamed them (EI0006 was
 * "Get Socket Timeout", "Get_Socket_Timeout", then "Communication_Error_Get_Socket"); where a
 * real screen line was seen its title is used, else the current HCOMM / runtime title. The
 * triage keys on the code, never on the title. Inner codes (x9999) have no title.
 */
static const struct hcode codes[] = {
	/* HCCL */
	{"EI0001", HCAT_CONFIG, "Config_Error_Invalid_Environment_Variable",
	 "An HCCL environment variable has a value HCCL rejects: out of range, badly formed, or "
	 "in a combination that is not allowed.",
	 "Take the variable and the allowed range from the message, correct or unset it on every "
	 "rank, and compare what each rank logged at start-up under [HCCL_ENV]. Usual suspects: "
	 "HCCL_CONNECT_TIMEOUT (120-7200), HCCL_EXEC_TIMEOUT, HCCL_IF_BASE_PORT, HCCL_RDMA_TC "
	 "(multiple of 4) and HCCL_RDMA_SL (0-7), HCCL_SOCKET_IFNAME naming a NIC the container "
	 "lacks, and HCCL_INTRA_PCIE_ENABLE=1 together with HCCL_INTRA_ROCE_ENABLE=1."},
	{"EI0002", HCAT_RANK_STUCK, "Communication_Error_Timeout",
	 "A collective on this NPU waited for a notify from a peer rank that never came: the peer "
	 "did not reach the same step in time.",
	 "Go to the peer named as the waited-for rank and to the earliest error of the whole job: "
	 "that rank usually crashed, hung, or issued a different collective. If every rank reports "
	 "this, compare when each failed; a spread close to HCCL_EXEC_TIMEOUT means one rank was "
	 "slow (checkpoint, data loading, uneven samples) - remove the skew or raise "
	 "HCCL_EXEC_TIMEOUT. Grep the plogs for 'error cqe' to rule out a flapping RoCE link."},
	{"EI0003", HCAT_CONFIG, "Invalid_Argument_Collective_Communication_Operator",
	 "An HCCL call was passed an argument it refuses (null pointer, value out of range, bad "
	 "string or path).",
	 "Use the operator, parameter and value in the message to find the caller; check RANK_ID, "
	 "RANK_TABLE_FILE, counts and data types handed down by the framework, and that the "
	 "framework, torch_npu and CANN versions are a supported set."},
	{"EI0004", HCAT_CONFIG, "File_Operation_Error_Parse",
	 "HCCL could not use the rank table, or this process's rank does not fit it: bad path, "
	 "invalid JSON, or missing or malformed fields.",
	 "Check that RANK_TABLE_FILE names a readable file ending in .json that parses as strict "
	 "JSON (no comments), that rank ids run 0..N-1 with string values, and that this "
	 "process's rank and device appear in it; 'hcclctl ranktable validate FILE' names the "
	 "field and line."},
	{"EI0005", HCAT_OP_MISMATCH, "Invalid_Argument",
	 "Two ranks met on a link but were about to run different collectives, or the same one "
	 "with another count, data type, reduce op or tag.",
	 "Compare the parameter and the local and remote values in the message, then make every "
	 "rank issue the same collectives in the same order with the same shapes (uneven last "
	 "batches, rank-dependent branches and mismatched pipeline stages are typical). A "
	 "different rank table or CANN version on some node gives the same error."},
	{"EI0006", HCAT_NET, "Get_Socket_Timeout",
	 "Setting up a connection to a peer rank timed out: the peer did not answer within "
	 "HCCL_CONNECT_TIMEOUT.",
	 "Read the Reason and the LINK_ERROR_INFO table for the peer's IP. If the peer never got "
	 "to this collective (crashed, started late, took another code path), fix that rank. "
	 "Otherwise test the path from both ends: hccn_tool -i N -ping -g address PEER_DEVICE_IP, "
	 "hccn_tool -i N -link -g, hccn_tool -i N -tls -g (the TLS switch must match), check the "
	 "device IPs share a subnet, and raise HCCL_CONNECT_TIMEOUT when ranks start far apart."},
	{"EI0007", HCAT_RESOURCE, "Resource_Error",
	 "HCCL could not get a resource it needs (device memory, notifies, streams) because the "
	 "NPU has none left.",
	 "Check what else holds the NPU with npu-smi info; lower HCCL_BUFFSIZE or the number of "
	 "communicators (each takes about twice HCCL_BUFFSIZE of device memory), and shrink the "
	 "model's own memory use."},
	{"EI0008", HCAT_VERSION, "Package_Error_Incorrect_HCCL_Version",
	 "Two ranks run different HCCL (CANN) versions and refuse to connect.",
	 "Install the same CANN toolkit release on every node and in every container image; the "
	 "INFO-level plog of each node prints its CANN version, which finds the odd one out."},
	{"EI0009", HCAT_LINK_DOWN, "Communication_Error_Initialize_Transport",
	 "HCCL could not bring up the transport (the RoCE link) from this NPU to a peer.",
	 "On every NPU of both servers: hccn_tool -i N -link -g must say UP, hccn_tool -i N "
	 "-optical -g must show the module present, hccn_tool -i N -ip -g must show an address, "
	 "hccn_tool -i N -lldp -g must see the switch. Restore a lost NIC configuration with "
	 "hccn_tool -a -cfg recovery."},
	{"EI0010", HCAT_LINK_DOWN, "Communication_Error_P2P",
	 "Copying between NPUs of one server over HCCS or PCIe (peer-to-peer) failed.",
	 "Check npu-smi info -t topo and npu-smi info -t hccs -i N -c 0 for unhealthy HCCS links, "
	 "and npu-smi info -t health -i N. Where a VM or container blocks peer-to-peer access, "
	 "export HCCL_INTRA_ROCE_ENABLE=1 and HCCL_INTRA_PCIE_ENABLE=0 to send intra-server "
	 "traffic over RoCE."},
	{"EI0011", HCAT_RESOURCE, "Resource_Error_Insufficient_Device_Memory",
	 "An HCCL allocation of NPU memory (communication buffers or queue pairs) failed.",
	 "Lower HCCL_BUFFSIZE, the number of communicators or of RoCE links, or the model's own "
	 "memory (batch size); make sure no other process holds memory on the NPU (npu-smi "
	 "info)."},
	/* HCCL's fault-diagnosis guide for EI0012: most often the SDMA engine's page-table
	 * translation failed, i.e. an address of the copy was not allocated, too small or
	 * already freed (the communicator destroyed before the operator finished); a link
	 * fault is the rarer cause. So memory first, then the links. */
	{"EI0012", HCAT_RESOURCE, "Execution_Error_SDMA",
	 "A DMA copy that a collective issued between NPUs failed on the device: most often an "
	 "address of the copy was not mapped (a buffer not allocated, too small or already "
	 "freed).",
	 "Look for a buffer freed or resized, or a communicator destroyed, while the collective "
	 "was still running (and for another process remapping memory on the same NPU: sleep or "
	 "offload modes); check the remote rank's log, it may have exited; if memory handling is "
	 "sound, check the links: npu-smi info -t hccs -i N -c 0 and npu-smi info -t health -i N."},
	{"EI0013", HCAT_LINK_DOWN, "Execution_Error_ROCE_CQE",
	 "A RoCE transfer to the named peer failed after its retransmissions ran out (an error "
	 "completion): the link dropped packets or the peer disappeared.",
	 "Check the peer process did not exit first. Then on both NPUs: hccn_tool -i N -link_stat "
	 "-g (link flaps), hccn_tool -i N -stat -g (retransmits, PFC), hccn_tool -i N -optical -g "
	 "(power, loss of signal), hccn_tool -i N -fec -g, and MTU, PFC and DSCP settings against "
	 "the switch. HCCL_RDMA_TIMEOUT and HCCL_RDMA_RETRY_CNT only buy time."},
	{"EI0014", HCAT_CONFIG, "Config_Error_Ranktable",
	 "A rank-table value failed HCCL's checks or contradicts the hardware it runs on "
	 "(duplicate ids or IPs, wrong device IP, bad super-pod fields).",
	 "Run 'hcclctl ranktable validate FILE'; compare each device_ip with hccn_tool -i N -ip -g "
	 "on that server, and each device_id with the NPUs the process sees "
	 "(ASCEND_RT_VISIBLE_DEVICES)."},
	{"EI0015", HCAT_NET, "Communication_Error_Ranktable_Detect",
	 "Root-info negotiation failed: some ranks did not reach the root rank's host socket "
	 "before the timeout.",
	 "Check that every unconnected rank in the message really started and called "
	 "communicator init; that the root's host IP and port (HCCL_IF_BASE_PORT, default 60000) "
	 "are reachable from them (firewall, routing); that HCCL_SOCKET_IFNAME or HCCL_IF_IP "
	 "selects a routable NIC on every node; raise HCCL_CONNECT_TIMEOUT if ranks start far "
	 "apart."},
	{"EI0016", HCAT_CONFIG, "Config_Error",
	 "A setting that must agree across ranks does not, or has a value HCCL rejects; most "
	 "often the TLS switch of the NPU NICs.",
	 "Compare the rank lists given for each value. For TLS run hccn_tool -i N -tls -g on every "
	 "NPU of every server and set one state everywhere with hccn_tool -i N -tls -s enable 0 "
	 "(or 1, with the same certificates on all NPUs)."},
	{"EI0017", HCAT_CONFIG, "Config_Error_Ranktable",
	 "A key HCCL requires is missing from the rank table.",
	 "Add the named key (version, server_count, device_ip, rank_id, super_device_id for 1.2, "
	 "...) as a string value; 'hcclctl ranktable validate FILE' lists every missing key."},
	{"EI0018", HCAT_LINK_DOWN, "Execution_Error_UB_CQE",
	 "A transfer over the UB fabric to the named peer ended in an error completion: the link "
	 "or the peer failed.",
	 "Check the peer process did not exit first, then the fabric ports between the two NPUs "
	 "for link-down and error counters, and npu-smi info -t health -i N on both."},
	{"EI0019", HCAT_NET, "Communication_Error_Bind_IP_Port",
	 "HCCL could not listen on the host NIC port it needs, usually because another process "
	 "holds it.",
	 "Find the holder with ss -ltnp (HCCL uses 60000 and up by default); give each job its "
	 "own range with HCCL_IF_BASE_PORT or HCCL_HOST_SOCKET_PORT_RANGE, keep it out of "
	 "ephemeral use with sysctl -w net.ipv4.ip_local_reserved_ports=60000-60031, and make sure "
	 "the job was not started twice on the same NPUs."},
	{"EI0020", HCAT_NET, "Communication_Error_Bind_IP_Port",
	 "HCCL could not listen on the NPU NIC port (16666 by default) because another process on "
	 "the same NPU already does.",
	 "When several processes share an NPU, set HCCL_NPU_SOCKET_PORT_RANGE (auto, or a "
	 "distinct range per process) on all ranks; otherwise stop the leftover process on that "
	 "NPU."},
	{"EI9999", HCAT_UNRESOLVED, "",
	 "HCCL reported an internal failure; the code carries no meaning, the lines after it do.",
	 "Read the sub-messages that follow it and the first ERROR line of the plog "
	 "($HOME/ascend/log/debug/plog) to find the real cause."},

	/* HCCP (the RDMA agent on the NPU) */
	{"EJ0001", HCAT_RESOURCE, "HCCP_Process_Initialization_Failure",
	 "The HCCP process could not start on the NPU, almost always because an earlier job or a "
	 "second process still holds the device.",
	 "Stop the leftover processes (npu-smi info lists them; hccn_tool -i N -process -g shows "
	 "HCCP on the device), wait about 10 s and start again; check the launcher starts exactly "
	 "one process per NPU (nproc_per_node, mpirun -n and -p)."},
	{"EJ0002", HCAT_LINK_DOWN, "Environment_Error", "The NPU NIC port HCCL needs is down.",
	 "Run hccn_tool -i N -link -g for every NPU; for a port that is DOWN check cable and "
	 "optics (hccn_tool -i N -optical -g), the switch side (hccn_tool -i N -lldp -g), and "
	 "reload the saved NIC configuration with hccn_tool -a -cfg recovery."},
	{"EJ0003", HCAT_NET, "Bind_Failed",
	 "HCCP could not bind the IP and port it needs: the port is already in use, or the IP is "
	 "not configured on this host or NPU.",
	 "For 'already bound' free the port or move the job (HCCL_IF_BASE_PORT, "
	 "HCCL_HOST_SOCKET_PORT_RANGE, HCCL_NPU_SOCKET_PORT_RANGE) and reserve the range with "
	 "sysctl net.ipv4.ip_local_reserved_ports; for 'cannot assign address' check hccn_tool -i "
	 "N -ip -g against the rank table, or pin the host NIC with HCCL_SOCKET_IFNAME."},
	{"EJ0004", HCAT_CONFIG, "Invalid_Argument_IP_Address",
	 "HCCP's IP check failed: the rank table's device IP is not the one configured on the NPU "
	 "NIC.",
	 "Compare each device_ip in the rank table with hccn_tool -i N -ip -g on that server (and "
	 "/etc/hccn.conf), fix the table or regenerate it with 'hcclctl ranktable gen', and check "
	 "no rank id is used twice."},
	{"EJ9999", HCAT_UNRESOLVED, "",
	 "HCCP reported an internal failure without a specific code.",
	 "Read the HCCP lines around it in the plog and the device log: ret(-67) means the NIC "
	 "link is down, error 98 a port already in use, error 99 an address not configured."},

	/* runtime */
	{"EE1001", HCAT_UNRESOLVED, "Invalid_Argument",
	 "The runtime rejected an argument; it is the runtime's catch-all code, so the reason "
	 "printed with it is what matters.",
	 "Read the Reason and the runtime lines after it; check the process uses the NPU it "
	 "expects (ASCEND_RT_VISIBLE_DEVICES, device ids) and that CANN and driver match."},
	{"EE1002", HCAT_RANK_STUCK, "Execution_Error_Stream_Synchronize_Timeout",
	 "Waiting for a stream to finish timed out; in a distributed job the stream usually holds "
	 "a collective waiting on another rank.",
	 "Find the rank that stopped first (its own error, or a missing heartbeat) and fix it; if "
	 "all ranks were merely slow, raise the synchronize timeout or HCCL_EXEC_TIMEOUT, and "
	 "check the NPU network with hccn_tool -i N -link -g."},
	{"EE1013", HCAT_RESOURCE, "Resource_Error_Insufficient_Host_Memory",
	 "The runtime could not allocate host memory.",
	 "Check free -g and the container's memory limit, stop other memory-hungry processes, or "
	 "shrink host-side buffers (pinned memory, data-loader workers)."},
	{"EE1015", HCAT_VERSION, "Package_Error_Incorrect_Driver_Version",
	 "The installed NPU driver is too old for something the CANN runtime asked of it.",
	 "Compare the driver version (npu-smi info header, /usr/local/Ascend/driver/version.info) "
	 "with what the CANN release requires, and upgrade driver and firmware, or use a CANN "
	 "release made for the installed driver."},
	{"EE1023", HCAT_RESOURCE, "Resource_Error",
	 "A runtime call failed because a device resource (memory, streams, events) ran out.",
	 "Read the Reason; stop other processes on the NPU (npu-smi info), release or reuse "
	 "streams and events, and lower memory use."},
	{"EE8888", HCAT_UNRESOLVED, "",
	 "An internal error handed up from the graph engine through the runtime.",
	 "It is a wrapper: use the lines that follow it and the first ERROR line in the plog."},
	{"EE9999", HCAT_UNRESOLVED, "",
	 "The runtime reported an internal failure; the device error lines that follow say what "
	 "happened.",
	 "Look for 'The error from device' and reason=[...] near it, and for an HCCL error just "
	 "before it: those name the real fault (timeout, SDMA, AI core, memory)."},
	{"EH9999", HCAT_UNRESOLVED, "",
	 "The ACL layer passed up an internal failure from the runtime.",
	 "It is a wrapper: the runtime or HCCL error printed before it carries the cause."},
	{"EZ9999", HCAT_UNRESOLVED, "",
	 "An operator or aclnn call reported an internal failure; around collectives it usually "
	 "wraps a device error.",
	 "Read the lines that follow ('The error from device', reason=[...]) and any HCCL error "
	 "before it; they name the real fault."},
	{"E39999", HCAT_UNRESOLVED, "", "The AI CPU side reported an internal failure.",
	 "Read the AI CPU and HCCL lines around it; in AI_CPU expansion mode "
	 "(HCCL_OP_EXPANSION_MODE) "
	 "collective failures surface here."},
	{"E30003", HCAT_RESOURCE, "Not_Supported_Specification",
	 "Too many user processes already run on the device.",
	 "Let the previous job exit (wait about 10 s after killing it) and check the launcher does "
	 "not start more processes per NPU than intended."},
	{"E30005", HCAT_HARDWARE, "Device_Connection_Failure",
	 "The host lost contact with the device: missing heartbeat or a broken channel.",
	 "Check npu-smi info -t health -i N and dmesg for the device; if it stays unreachable, "
	 "reset it (npu-smi set -t reset -i N) or take the node out for service."},

	/* driver */
	{"EL0001", HCAT_HARDWARE, "Device_Absent/Abnormal",
	 "The driver cannot find the device or finds it in a bad state.",
	 "Check npu-smi info and npu-smi info -t health -i N, make sure /dev/davinciN is passed "
	 "into the container, and reset or service the device if it is unhealthy."},
	/* the operator compiler (TBE) of the CANN toolkit (hiyouga/LlamaFactory#5638: "EC0010:
	 * Failed to import Python module [ModuleNotFoundError: No module named 'tbe....'].") */
	{"EC0010", HCAT_VERSION, "",
	 "A Python module of the CANN toolkit's operator compiler could not be imported: the "
	 "toolkit is incomplete, of another version than the Python packages, or its environment "
	 "is not set.",
	 "Source the toolkit's set_env.sh in the job's shell, check that the te/tbe wheels of the "
	 "toolkit are installed in this Python (pip list | grep -i -e te -e tbe) and match the "
	 "toolkit's version; reinstall the toolkit if they differ."},
	{"EL0004", HCAT_RESOURCE, "Memory_Allocation_Failure",
	 "The driver could not allocate the memory a module asked for.",
	 "Check NPU memory use with npu-smi info, stop other processes on the NPU, and lower the "
	 "batch size or HCCL_BUFFSIZE."},
	{"EL0005", HCAT_RESOURCE, "Resource_Busy",
	 "A device resource is taken, the device is being reset, or it is not ready yet.",
	 "Stop leftover processes (npu-smi info), wait for a reset to finish, and retry."},
	{"EL0006", HCAT_RESOURCE, "Insufficient_Resources", "The device has run out of a resource.",
	 "Stop other processes on the NPU (npu-smi info) and lower the job's resource use."},
	{"EL0009", HCAT_RESOURCE, "Insufficient_Stream_Resources",
	 "The device has no streams left.",
	 "Use fewer communicators and streams per process, and stop other processes on the NPU."},
	{"EL0010", HCAT_RESOURCE, "Insufficient_Notify_Resources",
	 "The device has no notifies left; every HCCL communicator takes some.",
	 "Create fewer communicators (destroy those no longer used) and stop other processes on "
	 "the NPU."},
	{"EL0015", HCAT_RESOURCE, "Invalid_Device_Access",
	 "The device is bound to another container, or this user may not use it.",
	 "Find the container or process that owns /dev/davinciN (leftover containers are common) "
	 "and check the user's access to the device nodes."},
	{"EL0019", HCAT_RESOURCE, "Resource_Error_Insufficient_Device_Memory",
	 "The driver could not allocate the device memory asked for.",
	 "Check NPU memory use with npu-smi info, stop other processes on the NPU, and lower the "
	 "batch size or HCCL_BUFFSIZE."},
	{"EL9999", HCAT_UNRESOLVED, "", "The driver reported an internal failure.",
	 "Read the driver and runtime lines around it and the device log; check npu-smi info -t "
	 "health -i N."},

	/* torch_npu: ERR + 2-digit submodule + 3-digit code */
	{"ERR00005", HCAT_UNRESOLVED, "PTA internal error",
	 "torch_npu's core hit an internal error.",
	 "Read the exception text and the CANN error codes printed with it."},
	{"ERR00006", HCAT_RESOURCE, "PTA memory error",
	 "torch_npu's core failed to get or use memory.",
	 "Check NPU memory with npu-smi info and lower the job's memory use."},
	{"ERR00100", HCAT_UNRESOLVED, "PTA call acl api failed",
	 "A CANN (ACL) call made by torch_npu's core failed; the CANN code printed with it holds "
	 "the cause.",
	 "Act on the E-code that follows (EIxxxx, EJxxxx, EExxxx, ELxxxx); this line only says "
	 "where the failure surfaced."},
	{"ERR01100", HCAT_UNRESOLVED, "OPS call acl api failed",
	 "A CANN call made by a torch_npu operator failed (for collectives, the HCCL call inside "
	 "the operator); the CANN code printed with it holds the cause.",
	 "Act on the E-code that follows; the 'error code is N' in the exception is the HcclResult "
	 "or ACL return value."},
	{"ERR02001", HCAT_CONFIG, "DIST invalid parameter",
	 "A torch.distributed call on NPU was given an invalid argument.",
	 "Check the process-group options and arguments named in the exception (ranks, group "
	 "members, HCCL options) against what the job intends."},
	{"ERR02002", HCAT_CONFIG, "DIST invalid type",
	 "A torch.distributed call on NPU got a tensor or option of the wrong kind (device, "
	 "dtype, size, layout, option type).",
	 "Fix the call the exception names: tensors must be NPU, dense and contiguous, with "
	 "matching types and sizes, and process-group options must have the documented types."},
	{"ERR02003", HCAT_CONFIG, "DIST invalid value",
	 "A torch.distributed call on NPU got an invalid value.",
	 "Check the value named in the exception (sizes, ranks, timeouts) against its limits."},
	{"ERR02005", HCAT_UNRESOLVED, "DIST internal error",
	 "The HCCL process group failed in a way it does not classify, for example a failed "
	 "event query or a failed store lookup.",
	 "Read the text before it: a failed store get of the HCCL id means rank 0 died or is not "
	 "reachable (check MASTER_ADDR and MASTER_PORT); other cases carry a CANN code."},
	{"ERR02006", HCAT_RESOURCE, "DIST memory error",
	 "The HCCL process group failed to get memory (symmetric or window memory, buffers).",
	 "Check NPU memory with npu-smi info and lower HCCL_BUFFSIZE or the job's memory use."},
	{"ERR02007", HCAT_VERSION, "DIST feature not supported",
	 "The distributed feature asked for is not supported by this torch_npu, CANN or NPU.",
	 "Check the torch_npu, CANN and driver versions support the feature on this product, or "
	 "turn the feature off."},
	{"ERR02008", HCAT_CONFIG, "DIST resource not found",
	 "The HCCL process group could not find something it needs (a file, a reduce op, a "
	 "configuration).",
	 "Check the path or option named in the exception exists and is spelled right."},
	{"ERR02011", HCAT_RANK_STUCK, "DIST timeout error",
	 "A distributed operation timed out waiting for other ranks.",
	 "Find the rank that stopped or fell behind first and fix it; raise the process-group "
	 "timeout and HCCL_EXEC_TIMEOUT only if the ranks were merely slow."},
	{"ERR02200", HCAT_UNRESOLVED, "DIST call hccl api failed",
	 "An HCCL call made by torch_npu's distributed backend failed; the HCCL or HCCP code "
	 "printed with it holds the cause.",
	 "Act on the E-code that follows (EIxxxx, EJxxxx); the 'error code is N' in the exception "
	 "is the HcclResult (7 unavailable, 9 timeout, 11 TCP connect, ...)."},
	/* the misspelling is torch_npu's own, kept because it is what the line shows */
	{"ERR99999", HCAT_UNRESOLVED, "UNKNOWN applicaiton exception",
	 "torch_npu's exit hook saw a Python exception it has no code for.",
	 "Read the Python traceback above it; the real error is its last line or an earlier CANN "
	 "code."},
};

const struct hcode *hcode_find(const char *code, size_t len)
{
	if (!code)
		return NULL;
	for (size_t i = 0; i < NROWS(codes); i++) {
		const char *k = codes[i].code;
		size_t j;

		if (strlen(k) != len)
			continue;
		/* the table is upper case, so folding only the input is enough; bytes outside a-z
		 * (NUL, 0xff, ...) compare as themselves and never equal a code letter */
		for (j = 0; j < len; j++) {
			unsigned char c = (unsigned char)code[j];
			if (c >= 'a' && c <= 'z')
				c = (unsigned char)(c - 'a' + 'A');
			if (c != (unsigned char)k[j])
				break;
		}
		if (j == len)
			return &codes[i];
	}
	return NULL;
}

const struct hcode *hcode_at(size_t i)
{
	return i < NROWS(codes) ? &codes[i] : NULL;
}

/*
 * Sub-messages of inner and device-side errors, the text that says what an EE9999 / EI9999 /
 * EZ9999 or an ERR0x100 wrapper really was.
 *
 * Built from: hicann/runtime src/runtime/core/src/device/device_error_proc.cc and
 * device_error_core_proc.cc (the "The error from device ..." lines), src/runtime/core/src/
 * common/errcode_manage.cc (the reason=[...] texts), src/tsd/tsdclient; Ascend/pytorch
 * torch_npu/csrc/core/npu/NPUQueue.cpp and ProcessGroupHCCL.cpp (UCE ERROR, HCCS LINK ERROR,
 * ...); HCOMM's heartbeat ExceptionType texts and rank consistency checker; the HCCL user guide
 * fault pages (CANN 8.0.RC3: EJ0001-EJ0004, ret(-67), bind errors, TLS); and real logs from
 * github.com/Ascend/pytorch/issues/54 and /166, vllm-project/vllm-ascend/issues/116, /1815,
 * /3141, /3413, /16652, hiyouga/LlamaFactory/issues/3839 and /5347.
 *
 * Order matters twice: hinner_match returns the first row whose needle occurs anywhere in the
 * line, so (1) a needle must come before any needle it contains, and (2) when one line carries
 * a cause and a consequence (an EI0002 text that lists "Error cqe Occurred"), the cause must
 * win. Rows therefore go hardware, link, config/version, resource, network, op-mismatch,
 * waits (rank-stuck), and the bare wrapper last.
 */
static const struct hinner inners[] = {
	/* hardware */
	{"HBM MULTI BIT ECC ERROR", HCAT_HARDWARE, "hbm-ecc",
	 "The NPU's HBM reported an uncorrectable multi-bit ECC error.",
	 "Take the NPU out of service: check npu-smi info -t health -i N and the ECC counters "
	 "(npu-smi info -t ecc -i N), reset it, and have the board replaced if errors recur."},
	{"hbm Multi-bit ECC error", HCAT_HARDWARE, "hbm-ecc",
	 "The NPU's HBM reported an uncorrectable multi-bit ECC error.",
	 "Take the NPU out of service: check npu-smi info -t health -i N and the ECC counters "
	 "(npu-smi info -t ecc -i N), reset it, and have the board replaced if errors recur."},
	{"UCE ERROR", HCAT_HARDWARE, "memory-uce",
	 "The device hit an uncorrectable memory error (UCE) in memory a task was using.",
	 "Check npu-smi info -t health -i N and the ECC counters; restart the job on healthy NPUs "
	 "(resume from a checkpoint) and have the NPU inspected if it recurs."},
	{"suspect device mem error", HCAT_HARDWARE, "suspect-mem",
	 "The runtime suspects the device memory itself is faulty.",
	 "Check npu-smi info -t health -i N and the ECC counters, and move the job off this NPU "
	 "until it is checked."},
	{"SUSPECT MEM ERROR", HCAT_HARDWARE, "suspect-mem",
	 "The runtime suspects the device memory itself is faulty.",
	 "Check npu-smi info -t health -i N and the ECC counters, and move the job off this NPU "
	 "until it is checked."},
	{"device local mem error", HCAT_HARDWARE, "device-mem",
	 "The device reported a memory error on this NPU.",
	 "Check npu-smi info -t health -i N and the ECC counters; reset the NPU and retry, and "
	 "have it inspected if it recurs."},
	{"device mem error", HCAT_HARDWARE, "device-mem",
	 "The device reported a memory error on this NPU.",
	 "Check npu-smi info -t health -i N and the ECC counters; reset the NPU and retry, and "
	 "have it inspected if it recurs."},
	{"multi-bit ECC error", HCAT_HARDWARE, "core-ecc",
	 "A buffer inside an AI core hit a multi-bit ECC error.",
	 "Check npu-smi info -t health -i N; reset the NPU, and have it serviced if the error "
	 "comes back."},
	/* an AI core's exception is most often the operator's (an address out of range, a
	 * kernel bug), only sometimes the chip's: the line alone does not say which, as the
	 * runtime's codes for it do not (507014/507015) */
	{"fftsplus aicore error", HCAT_UNRESOLVED, "aicore-error",
	 "An AI core raised an exception while running a task (bad address, trap, ECC).",
	 "Read the errorStr of the extend-info line: an out-of-range address is usually an "
	 "operator or memory bug (try the job with the suspect operator replaced or an older "
	 "CANN); ECC or bus errors point at the NPU - check npu-smi info -t health -i N."},
	{"aicore exception", HCAT_UNRESOLVED, "aicore-error",
	 "An AI core raised an exception while running a task (bad address, trap, ECC).",
	 "Read the errorStr of the extend-info line: an out-of-range address is usually an "
	 "operator or memory bug; ECC or bus errors point at the NPU - check npu-smi info -t "
	 "health -i N."},
	{"aicore error", HCAT_UNRESOLVED, "aicore-error",
	 "An AI core raised an exception while running a task (bad address, trap, ECC).",
	 "Read the errorStr of the extend-info line: an out-of-range address is usually an "
	 "operator or memory bug; ECC or bus errors point at the NPU - check npu-smi info -t "
	 "health -i N."},
	/* an SDMA task of an FFTS+ stream (HCCL's copies between NPUs) that fails is a
	 * memory-handling fault far more often than a broken engine (see EI0012 above); the kind
	 * follows that, the fix still names the links */
	{"fftsplus sdma error", HCAT_RESOURCE, "sdma-error",
	 "A DMA engine task (for collectives, the copy between NPUs) failed on the device.",
	 "Suspect memory handling first: buffers freed or resized during the copy, another "
	 "process remapping memory on the same NPU (sleep or offload modes), or a communicator "
	 "used after destroy; then check npu-smi info -t hccs -i N -c 0 and npu-smi info -t "
	 "health -i N."},
	/* the runtime's task report "hwts sdma error" (310P above all): of the jobs seen with
	 * it, none had its cause stated by the line, and three of four were left unexplained by
	 * their threads, so the line alone names no kind */
	{"sdma error", HCAT_UNRESOLVED, "sdma-error", "A DMA engine task failed on the device.",
	 "Suspect memory handling first: buffers freed or resized during the copy, or another "
	 "process remapping memory on the same NPU; then check npu-smi info -t hccs -i N -c 0 "
	 "and npu-smi info -t health -i N."},
	{"lost heartbeat", HCAT_HARDWARE, "device-lost",
	 "The host stopped getting heartbeats from the device: it hung or dropped off the bus.",
	 "Check npu-smi info -t health -i N and dmesg; reset the NPU (npu-smi set -t reset -i N) "
	 "and take the node out of service if it does not come back."},

	/* links */
	{"HCCS LINK ERROR", HCAT_LINK_DOWN, "hccs-link",
	 "An HCCS link between NPUs of the server failed during the job.",
	 "Check npu-smi info -t hccs -i N -c 0 on every NPU (health, first error lane, retry and "
	 "error counters) and npu-smi info -t topo; reseat or service the board whose links show "
	 "errors."},
	{"UB LINK ERROR", HCAT_LINK_DOWN, "ub-link",
	 "A UB fabric link of the NPU failed during the job.",
	 "Check the NPU's fabric ports for link-down and error counters and npu-smi info -t "
	 "health -i N; service the link or NPU that shows errors."},
	{"device network link error", HCAT_LINK_DOWN, "nic-link",
	 "The device reported a network link error on its NIC.",
	 "Check hccn_tool -i N -link -g and -link_stat -g for flaps, and the optics with "
	 "hccn_tool -i N -optical -g."},
	{"HCCL OP RETRY FAILED", HCAT_LINK_DOWN, "op-retry",
	 "HCCL retried a collective after a link fault and the retry failed too.",
	 "Treat it as a lasting link fault: hccn_tool -i N -link_stat -g and -optical -g on the "
	 "NPUs involved, and the switch ports; HCCL_OP_RETRY_PARAMS only changes how long it "
	 "tries."},
	{"hccl op retry failed", HCAT_LINK_DOWN, "op-retry",
	 "HCCL retried a collective after a link fault and the retry failed too.",
	 "Treat it as a lasting link fault: hccn_tool -i N -link_stat -g and -optical -g on the "
	 "NPUs involved, and the switch ports."},
	{"message process failed ret(-67)", HCAT_LINK_DOWN, "nic-down",
	 "HCCP was told the NIC link is gone (ENOLINK) while setting up the NPU's RDMA device.",
	 "Run hccn_tool -i N -link -g for every NPU; fix the DOWN port (cable, optics with "
	 "hccn_tool -i N -optical -g, switch), or reload its configuration with hccn_tool -a -cfg "
	 "recovery."},
	{"message process failed, ret(-67)", HCAT_LINK_DOWN, "nic-down",
	 "HCCP was told the NIC link is gone (ENOLINK) while talking to the NPU's RDMA device.",
	 "Run hccn_tool -i N -link -g for every NPU; fix the DOWN port (cable, optics, switch) or "
	 "reload its configuration with hccn_tool -a -cfg recovery."},
	{"rdev init failed. ret(-67)", HCAT_LINK_DOWN, "nic-down",
	 "HCCP could not set up the NPU's RDMA device because the NIC link is down.",
	 "Run hccn_tool -i N -link -g for every NPU; fix the DOWN port (cable, optics, switch) or "
	 "reload its configuration with hccn_tool -a -cfg recovery."},
	{"The network port is down", HCAT_LINK_DOWN, "nic-down",
	 "The NPU NIC port HCCL needs is down.",
	 "Run hccn_tool -i N -link -g for every NPU and fix the DOWN port (cable, optics, switch, "
	 "hccn_tool -a -cfg recovery)."},
	{"Error cqe Occurred", HCAT_LINK_DOWN, "error-cqe",
	 "HCCL's heartbeat saw RoCE transfers to a peer run out of retransmissions.",
	 "Check the link between the NPUs it names: hccn_tool -i N -link_stat -g, -stat -g, "
	 "-optical -g, and the switch's PFC and error counters."},
	{"ROCE CQE ERROR", HCAT_LINK_DOWN, "error-cqe",
	 "RoCE transfers to a peer ran out of retransmissions (status 12 is the retry timeout).",
	 "Check the link between the NPUs it names: hccn_tool -i N -link_stat -g, -stat -g, "
	 "-optical -g, and the switch's PFC and error counters."},
	{"error cqe status", HCAT_LINK_DOWN, "error-cqe",
	 "The RoCE driver completed a work request with an error status.",
	 "Check the link to the peer: hccn_tool -i N -link_stat -g, -stat -g, -optical -g, and "
	 "MTU, PFC and DSCP settings against the switch."},
	{"cqe err status", HCAT_LINK_DOWN, "error-cqe",
	 "The RoCE driver completed a work request with an error status.",
	 "Check the link to the peer: hccn_tool -i N -link_stat -g, -stat -g, -optical -g, and "
	 "MTU, PFC and DSCP settings against the switch."},
	{"LINK DOWN", HCAT_LINK_DOWN, "link-down", "A NIC port went down.",
	 "Look at the time of the change in hccn_tool -i N -link_stat -g and check cable, optics "
	 "(hccn_tool -i N -optical -g) and the switch port."},

	/* configuration and versions */
	{"in the ranktable is inconsistent with the IP", HCAT_CONFIG, "device-ip-mismatch",
	 "The rank table's device IP differs from the IP configured on the NPU NIC.",
	 "Compare device_ip with hccn_tool -i N -ip -g on that server and fix the table (or "
	 "regenerate it with 'hcclctl ranktable gen'); check ASCEND_RT_VISIBLE_DEVICES did not "
	 "remap the devices."},
	{"device ip family[", HCAT_CONFIG, "ip-family-mixed",
	 "Ranks use different IP families (IPv4 and IPv6) for their device IPs.",
	 "Give every NPU an address of one family (hccn_tool -i N -ip -g / -ip -inet6 -g) or set "
	 "HCCL_SOCKET_FAMILY on all ranks."},
	{"is not found in the nic list", HCAT_CONFIG, "host-nic",
	 "HCCL_IF_IP names an address no local NIC has.",
	 "Set HCCL_IF_IP to an address shown by ip -br addr inside the container, or unset it and "
	 "use HCCL_SOCKET_IFNAME."},
	{"but not found in the environment", HCAT_CONFIG, "host-nic",
	 "HCCL_SOCKET_IFNAME names a NIC that does not exist here.",
	 "Set HCCL_SOCKET_IFNAME to a NIC listed by ip -br link inside the container (prefix "
	 "match, = for exact, ^ to exclude)."},
	{"is not a valid real path", HCAT_CONFIG, "ranktable-path",
	 "The rank table path does not exist or cannot be resolved.",
	 "Point RANK_TABLE_FILE at an existing, readable .json file visible inside the "
	 "container."},
	{"to json fail", HCAT_CONFIG, "ranktable-json", "The rank table is not valid JSON.",
	 "Run 'hcclctl ranktable validate FILE' to find the syntax error (comments and trailing "
	 "commas are not allowed)."},
	{"certificate is not yet valid", HCAT_CONFIG, "tls-clock",
	 "The NPU NIC's TLS certificate is not valid yet, so the host clock is behind.",
	 "Fix the clock (chrony/NTP) on the host, then restart the job."},
	{"alert unknown ca", HCAT_CONFIG, "tls-mismatch",
	 "TLS between two NPUs failed: the TLS switch or the certificates differ.",
	 "Run hccn_tool -i N -tls -g on every NPU; set one TLS state everywhere "
	 "(hccn_tool -i N -tls -s enable 0 or 1) and install the same certificates."},
	{"TLS switch is inconsistent", HCAT_CONFIG, "tls-mismatch",
	 "The TLS switch of the NPU NICs differs between ranks.",
	 "Run hccn_tool -i N -tls -g on every NPU and set one state everywhere with hccn_tool -i "
	 "N -tls -s enable 0 (or 1)."},
	{"tlsStatus are inconsistent", HCAT_CONFIG, "tls-mismatch",
	 "The TLS switch of the NPU NICs differs between ranks.",
	 "Run hccn_tool -i N -tls -g on every NPU and set one state everywhere with hccn_tool -i "
	 "N -tls -s enable 0 (or 1)."},
	{"rankList for enabled tls", HCAT_CONFIG, "tls-mismatch",
	 "The TLS switch of the NPU NICs differs between ranks.",
	 "Run hccn_tool -i N -tls -g on every NPU and set one state everywhere with hccn_tool -i "
	 "N -tls -s enable 0 (or 1)."},
	{"device id error", HCAT_CONFIG, "device-id",
	 "The runtime was asked for a device id that does not map to an NPU of this process.",
	 "Check ASCEND_RT_VISIBLE_DEVICES and the device ids the framework passes (local rank, "
	 "data-parallel rank) against npu-smi info; a process that sees only its own NPU cannot "
	 "map a peer's physical id on older CANN releases, so keep the peers visible or upgrade "
	 "CANN."},
	/* the runtime's ACL_ERROR_RT_FEATURE_NOT_SUPPORT (207000): the NPU model or the driver
	 * does not offer the call (rtSetStreamFailureMode on a 300I card) */
	{"runtime result = 207000", HCAT_VERSION, "feature-unsupported",
	 "The runtime refused a call as a feature this NPU or driver does not support.",
	 "Check that the product (npu-smi info) supports the mode the framework asks for (the "
	 "release notes' support matrix), and that driver, firmware and CANN are a matching "
	 "set; use the framework's settings for this card type."},
	{"reason=[feature not support]", HCAT_VERSION, "feature-unsupported",
	 "The runtime refused a call as a feature this NPU or driver does not support.",
	 "Check that the product (npu-smi info) supports the mode the framework asks for (the "
	 "release notes' support matrix), and that driver, firmware and CANN are a matching "
	 "set; use the framework's settings for this card type."},
	/* HCCL asks HCCP for a feature the installed driver/firmware package lacks
	 * (vllm-project/vllm-ascend#2406 plog: "this package does not support hrtRaAiQpCreate for
	 * device, please change new package") */
	{"please change new package", HCAT_VERSION, "package",
	 "The installed NPU driver and firmware package lacks a feature this CANN release uses.",
	 "Compare the driver and firmware (npu-smi info -t board -i N) with the CANN release's "
	 "compatibility table and install the driver and firmware it asks for on every node."},
	{"this package does not support", HCAT_VERSION, "package",
	 "The installed NPU driver and firmware package lacks a feature this CANN release uses.",
	 "Compare the driver and firmware (npu-smi info -t board -i N) with the CANN release's "
	 "compatibility table and install the driver and firmware it asks for on every node."},
	/* HCCL's own rank table check (vllm-project/vllm-ascend#7711: "[RanktablCheck] 'device
	 * ip' is not set correctly, must be set when multi Server or HCCL INTRA ROCE ENABLE
	 * enabled") */
	{"[RanktablCheck]", HCAT_CONFIG, "ranktable",
	 "HCCL refused the rank table: a field it needs for this job is missing or wrong.",
	 "Run hcclctl ranktable validate on the table the job uses; device_ip is needed for every "
	 "device when the job spans servers or HCCL_INTRA_ROCE_ENABLE=1 (in a container, mount "
	 "/etc/hccn.conf so the generator can read the IPs)."},
	/* the same check in later releases ("[RanktableCheck]devices have same superDeviceId[..]
	 * in superPod[..]", "[RanktableCheck]errNo[..] super_device_id[] is invalid"); the
	 * specific one first */
	{"have same superDeviceId", HCAT_CONFIG, "super-device-id",
	 "Two devices of one SuperPoD report the same superDeviceId, so HCCL cannot tell them "
	 "apart.",
	 "Compare the SDID of each NPU (npu-smi info -t spod-info -i ID -c CHIP) across the "
	 "SuperPoD; if HCCL_LOGIC_SUPERPOD_ID puts NPUs of different physical SuperPoDs in one "
	 "logical SuperPoD, give them different values, else have the hardware configuration "
	 "checked."},
	/* a logical SuperPoD (HCCL_LOGIC_SUPERPOD_ID) made of devices of more than one physical
	 * one: HCCL takes the virtual NIC between them, which does not connect ("local rank
	 * information: nicType[VNIC_TYPE], logicSuperPodId[logic_1], phySuperPodId[0]. Note: Do
	 * not configure ranks belonging to different physical superpod ID info a single logical
	 * superpod ID") */
	{"different physical superpod ID", HCAT_CONFIG, "logic-superpod",
	 "Ranks of different physical SuperPoDs were put in one logical SuperPoD, so HCCL links "
	 "them over the SuperPoD's virtual NIC, which does not reach across.",
	 "Unset HCCL_LOGIC_SUPERPOD_ID, or give it one value per physical SuperPoD (compare "
	 "phySuperPodId in every rank's plog)."},
	{"[RanktableCheck]", HCAT_CONFIG, "ranktable",
	 "HCCL refused the rank table: a field it needs for this job is missing or wrong.",
	 "Run hcclctl ranktable validate on the table the job uses and fill the field the message "
	 "names (super_device_id for a version 1.2 table on A3, device_ip across servers)."},
	/* rank-table generators (MindSpore's hccl_tools.py) run hccn_tool for the device IPs */
	{"hccn_tool: not found", HCAT_CONFIG, "no-hccn-tool",
	 "hccn_tool is not installed or not in PATH where the rank table was made, so the NPU "
	 "device IPs could not be read.",
	 "Run the generator on the host (or a container with the driver tools and /etc/hccn.conf "
	 "mounted), or give the device IPs from each server's /etc/hccn.conf: hcclctl ranktable "
	 "gen --hccn-conf-dir DIR."},
	{"hccn_tool: command not found", HCAT_CONFIG, "no-hccn-tool",
	 "hccn_tool is not installed or not in PATH where the rank table was made, so the NPU "
	 "device IPs could not be read.",
	 "Run the generator on the host (or a container with the driver tools and /etc/hccn.conf "
	 "mounted), or give the device IPs from each server's /etc/hccn.conf: hcclctl ranktable "
	 "gen --hccn-conf-dir DIR."},
	{"HCCL versions are inconsistent", HCAT_VERSION, "hccl-version",
	 "Two ranks run different HCCL (CANN) versions.",
	 "Install the same CANN release on every node and in every image."},
	{"CANN versions are inconsistent", HCAT_VERSION, "hccl-version",
	 "Two ranks run different CANN versions.",
	 "Install the same CANN release on every node and in every image."},
	{"PTA version mismatch", HCAT_VERSION, "torch-npu-version",
	 "Ranks run different torch_npu versions.",
	 "Install the same torch and torch_npu build on every node (pip show torch_npu)."},
	{"driver version capability is insufficient", HCAT_VERSION, "driver-version",
	 "The NPU driver is too old for the CANN runtime.",
	 "Upgrade the driver and firmware to the release the CANN version requires, or use a "
	 "matching CANN."},
	{"Version is not matched(message_type", HCAT_VERSION, "driver-version",
	 "The host and device software speak different message versions.",
	 "Install matching driver, firmware and CANN packages on the node."},

	/* resources */
	{"tsd client wait response fail", HCAT_RESOURCE, "npu-busy",
	 "The device refused to start its helper processes, usually because an earlier job still "
	 "holds the NPU.",
	 "Stop leftover processes (npu-smi info, hccn_tool -i N -process -g), wait about 10 s and "
	 "start again; start only one process per NPU."},
	{"Create Server failed, ret(61)", HCAT_RESOURCE, "npu-busy",
	 "HCCP could not start on the device because another HCCP instance already runs there.",
	 "Stop the previous job completely (hccn_tool -i N -process -g) and check the launcher "
	 "does not start two processes on one NPU."},
	{"NPU out of memory", HCAT_RESOURCE, "oom", "The framework could not allocate NPU memory.",
	 "Lower the batch size or model memory, leave room for HCCL_BUFFSIZE per communicator, "
	 "and check no other process uses the NPU (npu-smi info)."},
	{"Memory resources are exhausted", HCAT_RESOURCE, "oom",
	 "HCCL could not allocate device memory for a communicator.",
	 "Lower HCCL_BUFFSIZE or the number of communicators, and the model's memory use."},
	{"Failed to allocate memory", HCAT_RESOURCE, "oom",
	 "An allocation of device memory failed.",
	 "Check NPU memory use with npu-smi info and lower the job's memory use or HCCL_BUFFSIZE."},
	{"bytes of NPU memory", HCAT_RESOURCE, "oom",
	 "HCCL could not allocate NPU memory (buffers or queue pairs).",
	 "Lower HCCL_BUFFSIZE, the number of communicators or RoCE links, or the model's memory."},
	{"driver error:out of memory", HCAT_RESOURCE, "oom", "The driver ran out of device memory.",
	 "Check NPU memory use with npu-smi info and lower the job's memory use or HCCL_BUFFSIZE."},
	{"device oom", HCAT_RESOURCE, "oom", "The device ran out of memory.",
	 "Check NPU memory use with npu-smi info and lower the job's memory use or HCCL_BUFFSIZE."},
	{"out of memory", HCAT_RESOURCE, "oom", "Memory ran out.",
	 "Check NPU memory (npu-smi info) and host memory (free -g), and lower the job's use."},
	{"no stream resource", HCAT_RESOURCE, "no-stream", "The device has no streams left.",
	 "Use fewer communicators and streams, and stop other processes on the NPU."},
	{"no notify resource", HCAT_RESOURCE, "no-notify",
	 "The device has no notifies left; each communicator takes some.",
	 "Create fewer communicators and destroy unused ones."},
	{"no event resource", HCAT_RESOURCE, "no-event", "The device has no events left.",
	 "Release unused events and stop other processes on the NPU."},

	/* a port another process holds: the job's port settings collide with it (a setting to
	 * change, not a network to mend) */
	{"Please check the port status", HCAT_CONFIG, "port-bound",
	 "HCCL could not listen on its port: another process holds it.",
	 "socket type[2] is the host port (60000 up, HCCL_IF_BASE_PORT), type[0] or [1] the NPU "
	 "port (16666, HCCL_NPU_SOCKET_PORT_RANGE); free it or give each job its own range."},
	{"have been bound already", HCAT_CONFIG, "port-bound",
	 "The IP and port HCCL needs are already in use.",
	 "Find the holder (ss -ltnp), move the job with HCCL_IF_BASE_PORT or "
	 "HCCL_HOST_SOCKET_PORT_RANGE, and reserve the range with "
	 "net.ipv4.ip_local_reserved_ports."},
	{"have already been bound", HCAT_CONFIG, "port-bound",
	 "The IP and port HCCL needs are already in use.",
	 "Find the holder (ss -ltnp), move the job with HCCL_IF_BASE_PORT or "
	 "HCCL_HOST_SOCKET_PORT_RANGE, and reserve the range with "
	 "net.ipv4.ip_local_reserved_ports."},

	/* network */
	{"bind fail!", HCAT_NET, "bind-fail",
	 "HCCP could not bind a socket: error 98 is a port in use, error 99 an address not "
	 "configured here.",
	 "For 98 free or move the port (HCCL_IF_BASE_PORT, HCCL_NPU_SOCKET_PORT_RANGE); for 99 "
	 "check hccn_tool -i N -ip -g and pin the host NIC with HCCL_SOCKET_IFNAME."},
	{"topo exchange agent get socket timeout", HCAT_NET, "root-unreachable",
	 "This rank could not reach the root rank's host socket during root-info negotiation.",
	 "Check the root's host IP and port (60000 up) are reachable from here, that "
	 "HCCL_SOCKET_IFNAME picks a routable NIC, and that the root process is running."},
	{"topo exchange server get socket timeout", HCAT_NET, "root-timeout",
	 "The root rank did not hear from all ranks during root-info negotiation.",
	 "Compare the connected and needed counts: find the ranks that never called init or "
	 "cannot route to the root (firewall, wrong NIC), and raise HCCL_CONNECT_TIMEOUT if they "
	 "started late."},
	{"List of unconnected ranks", HCAT_NET, "root-timeout",
	 "Some ranks never connected to the root during root-info negotiation.",
	 "Check the listed ranks started and can reach the root's host IP and port, and that "
	 "HCCL_SOCKET_IFNAME is right on every node."},
	{"wait socket establish timeout", HCAT_NET, "link-setup-timeout",
	 "A data-plane connection to a peer NPU was not established in time.",
	 "Use LINK_ERROR_INFO to find the peer, check it reached the same collective, then ping "
	 "its device IP with hccn_tool -i N -ping -g address IP and compare TLS states."},

	/* op mismatch */
	{"CMD information", HCAT_OP_MISMATCH, "op-mismatch",
	 "The two ends of a link are running different collectives (tag, type, op or count "
	 "differ).",
	 "Make every rank issue the same collectives in the same order with the same sizes; the "
	 "local and remote values name the mismatch."},
	{"arguments for collective communication are inconsistent", HCAT_OP_MISMATCH, "op-mismatch",
	 "The two ends of a link are running different collectives (tag, type, op or count "
	 "differ).",
	 "Make every rank issue the same collectives in the same order with the same sizes; the "
	 "local and remote values name the mismatch."},

	/* waits: the cause is on another rank */
	{"SUSPECT REMOTE ERROR", HCAT_RANK_STUCK, "remote-error",
	 "The fault is suspected on the remote NPU of a transfer, not on this one.",
	 "Go to the peer rank and NPU of the failing link and check its log and npu-smi info -t "
	 "health -i N."},
	{"suspect remote error", HCAT_RANK_STUCK, "remote-error",
	 "The fault is suspected on the remote NPU of a transfer, not on this one.",
	 "Go to the peer rank and NPU of the failing link and check its log and health."},
	{"device remote mem error", HCAT_RANK_STUCK, "remote-error",
	 "A transfer hit a memory error on the remote NPU.",
	 "Go to the peer NPU: check npu-smi info -t health -i N and its ECC counters there."},
	{"Heartbeat Lost Occurred", HCAT_RANK_STUCK, "peer-exited",
	 "HCCL's heartbeat lost the rank it names: that process exited or its network dropped.",
	 "Go to the rank in Cluster Exception Location and find why its process ended (its first "
	 "error, an OOM kill in dmesg) or why its NIC went away."},
	{"Stuck Occurred", HCAT_RANK_STUCK, "peer-stuck",
	 "HCCL's heartbeat found the rank it names hung inside a collective.",
	 "Go to that rank: look for a hang before the collective (data loading, checkpoint, "
	 "deadlock) or a different collective order."},
	{"Notify Wait Error Occurred", HCAT_RANK_STUCK, "notify-timeout",
	 "The rank named by the heartbeat timed out waiting for a notify.",
	 "Follow the chain to the rank that stopped first; its own first error is the cause."},
	{"hccl fftsplus task timeout", HCAT_RANK_STUCK, "fftsplus-timeout",
	 "A collective on the device waited for a peer's notify past HCCL_EXEC_TIMEOUT: another "
	 "rank stopped, hung or never issued it.",
	 "Find the rank that did not reach this collective (the one without this timeout, or the "
	 "earliest error); idle serving ranks waiting in a broadcast also end here, so raise "
	 "HCCL_EXEC_TIMEOUT for long idle periods."},
	{"hccl fftsplus timeout", HCAT_RANK_STUCK, "fftsplus-timeout",
	 "A collective on the device waited for a peer's notify past HCCL_EXEC_TIMEOUT.",
	 "Find the rank that did not reach this collective (the one without this timeout, or the "
	 "earliest error) and fix it."},
	/* the device side of a stream that waited on an event (an HCCL or framework wait)
	 * past its limit: "event wait timeout occurred during task execution, ...,
	 * timeout=1980", "task_type=3(EVENT_WAIT)" (MindSpore's SyncStream) */
	{"event wait timeout occurred", HCAT_RANK_STUCK, "event-timeout",
	 "A device stream waited on an event past its limit; in a distributed job it holds a "
	 "collective whose peers did not arrive in time.",
	 "Find the rank that did not reach the collective (a long evaluation or checkpoint on "
	 "some ranks, a rank that exited); raise HCCL_EXEC_TIMEOUT if the pause is legitimate."},
	{"notify wait timeout occurred", HCAT_RANK_STUCK, "notify-timeout",
	 "A device task waited for a notify from a peer that never came.",
	 "Find the rank that did not reach this collective and fix it; raise HCCL_EXEC_TIMEOUT "
	 "only for legitimate long waits."},
	{"has not received the Notify record", HCAT_RANK_STUCK, "notify-timeout",
	 "A collective waited for a peer rank that never reached it.",
	 "Go to the remote rank named in the message and find why it stopped."},
	{"Remote Rank did not send the data in time", HCAT_RANK_STUCK, "peer-late",
	 "The peer accepted the connection but did not send its side in time: it is stuck or "
	 "slow.",
	 "Go to the peer rank and find why it stalled (hang, long step, different collective)."},
	{"connected p2p timeout", HCAT_RANK_STUCK, "p2p-timeout",
	 "An intra-server peer NPU did not complete the peer-to-peer handshake in time.",
	 "Check the peer process on the same server started and reached the collective; then the "
	 "HCCS links (npu-smi info -t hccs -i N -c 0)."},
	{"Stream synchronize timeout", HCAT_RANK_STUCK, "stream-timeout",
	 "A stream did not finish in time; in a distributed job it holds a waiting collective.",
	 "Find the rank that stopped first and fix it."},
	{"stream sync timeout", HCAT_RANK_STUCK, "stream-timeout",
	 "A stream did not finish in time; in a distributed job it holds a waiting collective.",
	 "Find the rank that stopped first and fix it."},
	{"reason=[task timeout]", HCAT_RANK_STUCK, "task-timeout",
	 "A device task ran past its time limit; around collectives it is one waiting on a peer.",
	 "Look for the device error line before it; find the rank that stopped first."},
	{"FORCE STOP", HCAT_RANK_STUCK, "force-stop",
	 "The job was stopped from outside (fault tolerance) because of a fault elsewhere.",
	 "Find the rank or NPU whose fault triggered the stop; this rank is a bystander."},

	/* a wrapper with nothing after it */
	{"Inner Error!", HCAT_UNRESOLVED, "inner-error",
	 "An internal-error wrapper; the lines after it carry the cause.",
	 "Read the following lines and the first ERROR line of the plog."},
};

/* The rows' needles in one automaton, built on first use: the triage asks this of every line
 * of a log, and a search per row was a fifth of its time. */
static struct acm *inner_acm;
static pthread_once_t inner_once = PTHREAD_ONCE_INIT;

static void inner_build(void)
{
	struct acm *a = acm_new(0);
	int whole = 1; /* an empty needle (found everywhere, as memmem finds it) is left to the
			* search */
	for (size_t i = 0; i < NROWS(inners); i++) {
		whole &= inners[i].needle[0] != '\0';
		acm_add(a, inners[i].needle, strlen(inners[i].needle), (int)i);
	}
	if (!whole || acm_build(a)) {
		acm_free(a);
		a = NULL;
	}
	inner_acm = a;
}

const struct hinner *hinner_match(const char *s, size_t len)
{
	if (!s)
		return NULL;
	pthread_once(&inner_once, inner_build);
	if (inner_acm) {
		int row = acm_first_id(inner_acm, s, len);
		return row >= 0 ? &inners[row] : NULL;
	}
	for (size_t i = 0; i < NROWS(inners); i++) /* no memory for the automaton */
		if (memmem(s, len, inners[i].needle, strlen(inners[i].needle)))
			return &inners[i];
	return NULL;
}

const struct hinner *hinner_at(size_t i)
{
	return i < NROWS(inners) ? &inners[i] : NULL;
}

/*
 * HcclResult, from hccl_types.h (hicann/hcomm include/hccl/hccl_types.h; 0-19 read the same in
 * every public copy, older ones stop at 19, 20-24 and 1041 came later). The kinds are what the
 * value usually means when HCCL returns it first: 7 is what a busy NPU or a bound port gives
 * HcclGetRootInfo, 9 a peer that never arrived.
 */
static const struct hresult results[] = {
	{0, "HCCL_SUCCESS", HCAT_NONE, "success"},
	{1, "HCCL_E_PARA", HCAT_CONFIG,
	 "an argument, environment variable or rank-table value is invalid"},
	{2, "HCCL_E_PTR", HCAT_UNRESOLVED, "a null pointer was passed"},
	{3, "HCCL_E_MEMORY", HCAT_RESOURCE, "memory could not be allocated or used"},
	{4, "HCCL_E_INTERNAL", HCAT_UNRESOLVED, "internal error"},
	{5, "HCCL_E_NOT_SUPPORT", HCAT_VERSION,
	 "the feature or mode is not supported by this product or release"},
	{6, "HCCL_E_NOT_FOUND", HCAT_CONFIG, "a resource (NIC, file, entry) was not found"},
	{7, "HCCL_E_UNAVAIL", HCAT_RESOURCE,
	 "a resource is unavailable (NPU busy, port already bound)"},
	{8, "HCCL_E_SYSCALL", HCAT_UNRESOLVED, "a system call failed"},
	{9, "HCCL_E_TIMEOUT", HCAT_RANK_STUCK, "a wait for another rank timed out"},
	{10, "HCCL_E_OPEN_FILE_FAILURE", HCAT_CONFIG,
	 "a file (rank table, white list) could not be opened"},
	{11, "HCCL_E_TCP_CONNECT", HCAT_NET, "a TCP connection could not be set up"},
	{12, "HCCL_E_ROCE_CONNECT", HCAT_NET, "a RoCE connection could not be set up"},
	{13, "HCCL_E_TCP_TRANSFER", HCAT_NET, "a TCP transfer failed"},
	{14, "HCCL_E_ROCE_TRANSFER", HCAT_LINK_DOWN, "a RoCE transfer failed"},
	{15, "HCCL_E_RUNTIME", HCAT_UNRESOLVED, "a runtime call failed"},
	{16, "HCCL_E_DRV", HCAT_UNRESOLVED, "a driver call failed"},
	{17, "HCCL_E_PROFILING", HCAT_UNRESOLVED, "a profiling call failed"},
	{18, "HCCL_E_CCE", HCAT_UNRESOLVED, "a CCE call failed"},
	{19, "HCCL_E_NETWORK", HCAT_NET, "a network (HCCP) call failed"},
	{20, "HCCL_E_AGAIN", HCAT_UNRESOLVED, "try again"},
	{21, "HCCL_E_REMOTE", HCAT_LINK_DOWN,
	 "an error completion (CQE) came from the remote side"},
	{22, "HCCL_E_SUSPENDING", HCAT_UNRESOLVED, "the communicator is suspended"},
	{23, "HCCL_E_OPRETRY_FAIL", HCAT_LINK_DOWN, "retrying the collective after a fault failed"},
	{24, "HCCL_E_OOM", HCAT_RESOURCE, "out of memory"},
	{1041, "HCCL_E_IN_STATUS", HCAT_UNRESOLVED, "the error is given in a status field"},
};

const struct hresult *hresult_row(const struct hresult *t, size_t n, long long v)
{
	for (size_t i = 0; i < n; i++)
		if (t[i].v == v)
			return &t[i];
	return NULL;
}

static const struct hresult *result_of(long long v)
{
	return hresult_row(results, NROWS(results), v);
}

const char *hresult_name(long long v)
{
	const struct hresult *r = result_of(v);
	return r ? r->name : NULL;
}

int hresult_cat(long long v)
{
	const struct hresult *r = result_of(v);
	return r ? r->cat : HCAT_UNRESOLVED;
}

const char *hresult_meaning(long long v)
{
	const struct hresult *r = result_of(v);
	return r ? r->meaning : NULL;
}

/*
 * HCCL_ERROR_CODE(e) in HCOMM's log.h is (SYSTEM_RESERVE_ERROR << 32) + (HCCL_MODULE_ID << 24)
 * + (sub-module << 16) + e, with SYSTEM_RESERVE_ERROR 0, HCCL_MODULE_ID 5 and the sub-modules
 * HCCL 0, HCOM 1, CLTM 2, CUSTOM_OP 3. The sub-module byte is not zero in real lines
 * ("[RanktableConfig]errNo[0x0000000005010001]" is HCOM), so it is accepted, not required.
 */
#define HERRNO_MODULE_HCCL 5
#define HERRNO_MAX_SUBMODULE 3

long long herrno_result(unsigned long long v)
{
	if ((v >> 32) != 0)
		return -1;
	if (((v >> 24) & 0xff) != HERRNO_MODULE_HCCL)
		return -1;
	if (((v >> 16) & 0xff) > HERRNO_MAX_SUBMODULE)
		return -1;
	return (long long)(v & 0xffff);
}
