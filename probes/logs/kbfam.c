/* The families of the knowledge base's entities, and what hcclctl says of each: one row per
 * family, matched on the entity's component and module (case ignored, first row wins), the
 * kind adjusted by the entity's class (a user's mistake is configuration). A family gives a
 * kind only where every fault in it is of that kind (a memory ECC is hardware); where its
 * faults range over several kinds, the kind stays unresolved and the family names the area.
 * The texts are ours; the entities' own texts are not used. */
#include <string.h>
#include <strings.h>

#include "probes/npu/hcclcodes.h"
#include "probes/logs/kb.h"

struct famrow {
	const char *comps; /* "|NPU|" : components (upper case, between bars); "" any */
	const char *mods;  /* modules the same way; "" any */
	struct kb_family f;
};

static const struct famrow rows[] = {
	{ "|NPU|", "|HBM|HBMA|HBMC|DDR|DDRA|DDRC|L2BUFF|SLLC|L3D|L3T|MN|",
	  { "npu-memory", HCAT_HARDWARE, "a memory fault on the NPU (HBM, DDR or on-chip cache)",
	    "read the NPU's health and ECC counts (npu-smi info -t health -i N; npu-smi info -t "
	    "ecc -i N); an uncorrectable error needs the NPU reset, and a repeated one its "
	    "replacement" } },
	{ "|NPU|", "|ROCE|NIC|NIC_DISP|PORT|ROH|ROH_PORT|UB|UB_PORT|HCCS|HCCS_PORT|VPC|CCU|",
	  { "npu-network", HCAT_LINK_DOWN, "a fault of the NPU's network port or its on-chip link",
	    "check the port (hccn_tool -i N -link -g, -optical -g, -stat -g) and the cable, "
	    "optics and switch port on the other end" } },
	{ "|NPU|", "|PCIE|PCIE_DISP|",
	  { "npu-pcie", HCAT_HARDWARE, "a PCIe fault between the host and the NPU",
	    "check the PCIe link (lspci -vv: speed and width, AER errors) and the kernel log; "
	    "reseat or replace the card when it repeats" } },
	{ "|NPU|", "|PROCESS|LPM|DRV|DRIVER|OS|TEEDRV|HSM|TS|TSCPU|",
	  { "npu-firmware", HCAT_HARDWARE, "a fault of the NPU's own firmware or control cores",
	    "collect the device logs (msnpureport) and the NPU's health; reset the NPU, and "
	    "upgrade the driver and firmware when the fault repeats" } },
	{ "|NPU|", "",
	  { "npu-chip", HCAT_HARDWARE, "a hardware fault inside the NPU",
	    "read the NPU's health (npu-smi info -t health -i N) and its device logs; take the "
	    "NPU out of service when the fault repeats" } },
	{ "|CANN|", "|HCCL|HCCP|MC2|QOS|URMA|\xe9\x9b\x86\xe5\x90\x88\xe9\x80\x9a\xe4\xbf\xa1|",
	  /* its faults range from a rank table's mistake to a peer's stall: the family alone does
	   * not say which, so it names the failure and leaves the kind open */
	  { "hccl", HCAT_UNRESOLVED, "a collective-communication failure (HCCL)",
	    "compare the first error of every rank by time: the rank that failed first or "
	    "never arrived is the cause; check the rank table, the device IPs and that every "
	    "NPU port is up" } },
	{ "|CANN|", "|RUNTIME|RUNTIME/DRV|TSD|AICPU|\xe4\xbb\xbb\xe5\x8a\xa1\xe8\xb0\x83\xe5\xba\xa6|",
	  { "cann-runtime", HCAT_UNRESOLVED, "a CANN runtime failure (device, stream or task)",
	    "look for a device fault or an exhausted resource on that NPU (npu-smi info; "
	    "processes still holding it); a timeout here usually echoes a stalled peer" } },
	{ "|CANN|", "|DRV|OS|",
	  { "cann-driver", HCAT_UNRESOLVED, "a failure in the NPU driver's host interface",
	    "check that the driver is loaded and matches the CANN release (npu-smi info; "
	    "dmesg), and that no other process holds the device" } },
	{ "|CANN|", "",
	  { "cann-software", HCAT_UNRESOLVED,
	    "a CANN graph, operator or tool failure (often CANN, framework and model that do not "
	    "fit)", "check that CANN, the driver and the framework are releases made for each "
	    "other, and the operator and shapes the failing step uses" } },
	/* the framework's memory manager ("Vm"): an allocation on the device that failed */
	{ "|AI FRAMEWORK|", "|VM|",
	  { "framework-memory", HCAT_RESOURCE, "the framework could not allocate device memory",
	    "read how much the step asked for against what the device had (the framework's "
	    "memory statistics, npu-smi info); lower the batch size or the shapes, or free "
	    "what another process holds on the device" } },
	{ "|AI FRAMEWORK|", "|MSRUN|DP|",
	  { "framework-cluster", HCAT_NET, "the framework's cluster set-up or distributed step "
	    "failed", "check that every node's launcher uses the same master address, port and "
	    "world size, and that the nodes reach each other" } },
	{ "|AI FRAMEWORK|", "",
	  { "framework", HCAT_UNRESOLVED, "the training framework or the training script failed",
	    "read the Python traceback above the error: the script, its data and its "
	    "configuration are the usual cause" } },
	{ "|MINDIE|VLLM|VLLM-ASCEND|PYMOTOR|", "",
	  { "inference-engine", HCAT_UNRESOLVED, "the inference engine failed",
	    "check the engine's configuration (parallel sizes against the visible NPUs, model "
	    "path and weights, ports) and its own log around the error" } },
	{ "|AI SERVER|BMC|", "",
	  { "server-hardware", HCAT_HARDWARE, "a fault of the server's own hardware",
	    "read the BMC's event log and replace the part it names" } },
	{ "|HOSTOS|", "",
	  { "host-os", HCAT_RESOURCE, "a fault of the host operating system (memory, files, "
	    "kernel)", "read the kernel log (dmesg) around the time of the failure: memory, "
	    "file-system and device errors" } },
	{ "|UB|", "",
	  { "ub-fabric", HCAT_UNRESOLVED, "a fault of the unified bus (its memory management or "
	    "DMA)", "collect the device and host driver logs of the NPUs involved and their "
	    "health (npu-smi info -t health -i N)" } },
	{ "|SWITCH|NETWORK|LCNE|", "",
	  { "network-fabric", HCAT_LINK_DOWN, "a fault in the network between the NPUs (switch, "
	    "link or fabric)", "check the switch ports and links on the path (their logs and "
	    "counters) and the NPU ports at both ends" } },
	{ "|MINDX|", "",
	  { "cluster-software", HCAT_UNRESOLVED, "a fault of the cluster scheduling software",
	    "check the scheduler's and device plugin's logs and configuration" } },
};

static const struct kb_family other = {
	"other", HCAT_UNRESOLVED, "a fault the knowledge base knows",
	"read the lines around it; the first error by time across every rank is the place to "
	"start"
};

static const struct kb_family user_family = {
	"user-config", HCAT_CONFIG, "a mistake in the job's own configuration",
	"check the configuration the error names (paths, environment variables, parameters)"
};

static int in_list(const char *list, const char *v)
{
	if (!*list)
		return 1;
	size_t n = strlen(v);
	for (const char *p = list; (p = strchr(p, '|')) && p[1]; p++)
		if (!strncasecmp(p + 1, v, n) && p[1 + n] == '|')
			return 1;
	return 0;
}

const struct kb_family *kb_family_of(const struct kb_entity *e)
{
	const char *cls = e->cls ? e->cls : "";
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		if (!in_list(rows[i].comps, e->comp ? e->comp : "") ||
		    !in_list(rows[i].mods, e->mod ? e->mod : ""))
			continue;
		/* a fault that is only the user's: configuration, whatever its component; but
		 * memory that ran out did so whoever asked for too much */
		if (!strcasecmp(cls, "User") && rows[i].f.cat != HCAT_CONFIG &&
		    rows[i].f.cat != HCAT_RESOURCE)
			return &user_family;
		return &rows[i].f;
	}
	return !strcasecmp(cls, "User") ? &user_family : &other;
}
