/* hcclctl doctor: its options, as one table (parsing, --help, the man page check and
 * completion read it) and the values the parser fills, which every step of doctor reads. */
#include <stdlib.h>
#include <string.h>

#include "cmd/doctor/doctor.h"
#include "cmd/doctor/doctor_checks.h"
#include "cmd/doctor/doctor_job.h"
#include "cmd/lib/prom.h"

struct doctor_o dopt;

const struct opt doctor_opts[] = {
	OPT_PATH("ranktable", 0, &dopt.ranktable, "FILE|URL",
		 "the job's rank table: its servers are the nodes, and it is checked on each",
		 COMPLETE_FILE),
	OPT_STR("hosts", 0, &dopt.hosts, "HOST[,HOST...]", "the nodes, without a rank table"),
	OPT_PATH("hostfile", 0, &dopt.hostfile, "FILE", "the nodes, one per line", COMPLETE_FILE),
	OPT_BOOL("local", 0, &dopt.local, "check this node only, without SSH"),
	OPT_LIST("checks", 0, &dopt.checks, "LIST",
		 "only these checks or groups (e.g. npu,link,net.ports; --list-checks names them)",
		 doctor_checks_complete),
	OPT_LIST("skip", 0, &dopt.skip, "LIST", "not these checks or groups",
		 doctor_checks_complete),
	OPT_BOOL("list-checks", 0, &dopt.list_checks,
		 "list the checks: code, group and what each checks, in the order of the report"),
	OPT_NUM("parallel", 0, &dopt.parallel, "N", "nodes at once (default 32)", 1, 4096),
	OPT_NUM("timeout", 0, &dopt.timeout, "SEC", "deadline per node (default 60)", 1, 86400),
	OPT_STR("ports", 0, &dopt.ports, "LIST",
		"TCP ports every node must reach on every other (default " DEFAULT_PORTS ")"),
	OPT_BOOL("deep", 0, &dopt.deep, "also measure the network: probe net between every pair"),
	OPT_PATH("logs", 0, &dopt.logs, "PATH",
		 "a failed job's logs: a directory (DIR/NODE/... for several nodes), one file, or - "
		 "for standard input; the most likely cause, its evidence and fix",
		 COMPLETE_FILE),
	OPT_BOOL("each", 0, &dopt.each,
		 "with --logs: --logs PATH and each PATH after the options is a job of its own, "
		 "judged alone: a report for each, one JSON document holding them all"),
	OPT_PATH("knowledge", 0, &dopt.knowledge, "FILE",
		 "with --logs: an ascend-fd knowledge base (kg-config.json) to match the lines "
		 "against instead of the built-in one; its fault names and suggestions are shown",
		 COMPLETE_FILE),
	OPT_PATH("html", 0, &dopt.html, "FILE",
		 "also write the report as one HTML page: the findings, every node against the "
		 "checks, the link heat map",
		 COMPLETE_FILE),
	OPT_PATH("env-file", 0, &dopt.env_file, "FILE",
		 "the job's environment on the nodes (KEY=VALUE lines) for env.hccl, instead of "
		 "their own",
		 COMPLETE_FILE),
	OPT_PATH("kernel-log", 0, &dopt.kernel_log, "FILE",
		 "the kernel log on the nodes, instead of dmesg or journalctl -k -b",
		 COMPLETE_FILE),
	OPT_PATH("fault-codes", 0, &dopt.fault_codes, "FILE",
		 "a MindCluster faultCode.json on the nodes, instead of the built-in table",
		 COMPLETE_FILE),
	OPT_PATH("npu-smi", 0, &dopt.npu_smi, "PATH", "npu-smi on the nodes", COMPLETE_FILE),
	OPT_PATH("hccn-tool", 0, &dopt.hccn_tool, "PATH", "hccn_tool on the nodes", COMPLETE_FILE),
	OPT_PATH("sysfs-root", 0, &dopt.sysfs, "DIR",
		 "another root for /sys (class/infiniband, bus/pci/devices)",
		 COMPLETE_DIR),
	OPT_STR("ssh-user", 0, &dopt.user, "USER", "log in as USER (default: $USER)"),
	OPT_NUM("ssh-port", 0, &dopt.port, "PORT", "SSH port (default 22)", 1, 65535),
	OPT_PATH("ssh-key", 0, &dopt.key, "FILE", "private key (default: agent, ~/.ssh/id_*)",
		 COMPLETE_FILE),
	OPT_PATH("ssh-known-hosts", 0, &dopt.known_hosts, "FILE",
		 "known host keys (default ~/.ssh/known_hosts)", COMPLETE_FILE),
	OPT_BOOL("ssh-insecure", 0, &dopt.insecure, "do not check host keys (warns)"),
	OPT_PATH("remote-hcclctl", 0, &dopt.remote, "PATH",
		 "hcclctl on the nodes (default: hcclctl in their PATH)", COMPLETE_FILE),
	OPT_BOOL("merge", 0, &dopt.merge,
		 "fold the documents of 'hcclctl --json doctor --local' from every node (the "
		 "FILE arguments, or - for standard input) into one cluster report"),
	OPT_STR("node-name", 0, &dopt.node_name, "NAME",
		"--local: this node's name in the report, and its Slurm name where "
		"SLURMD_NODENAME is not set (default: the host name)"),
	OPT_CHOICE("on-fail", 0, &dopt.on_fail, "ACTION",
		   "--local: on FAIL, drain: take this node out of Slurm (scontrol update "
		   "state=drain reason=\"hcclctl: CAUSE\")",
		   "drain none"),
	OPT_CHOICE("on-pass", 0, &dopt.on_pass, "ACTION",
		   "--local: on a pass, resume: return this node to Slurm if hcclctl drained it",
		   "resume none"),
	OPT_CHOICE("exit-codes", 0, &dopt.exit_codes, "STYLE",
		   "nagios (default: 0 OK, 1 WARN, 2 FAIL, 3 UNKNOWN) or npd: "
		   "node-problem-detector's (0 OK, 1 problem, 2 unknown) with one line of at most "
		   "80 bytes",
		   "nagios npd"),
	OPT_PROM,
	OPT_FETCH,
	/* the node side, started by the launcher */
	OPT_BOOL("node", 0, &dopt.node, "internal: run this node's checks, print them as JSON"),
	OPT_STR("digest", 0, &dopt.digest, "HEX", "internal (--node): the launcher's table digest"),
	OPT_STR("server-id", 0, &dopt.server_id, "ID", "internal (--node): this node in the table"),
	OPT_STR("host-ip", 0, &dopt.host_ip, "IP", "internal (--node): this node's host_ip"),
	OPT_STR("peers", 0, &dopt.peers, "LIST", "internal (--node): the other nodes"),
	OPT_TERM,
};

int doctor_npd_mode(void)
{
	return dopt.exit_codes && !strcmp(dopt.exit_codes, "npd");
}

int doctor_parse_ports(struct doctor_node_args *na, const char *list)
{
	na->nports = 0;
	for (const char *p = list; *p;) {
		char *end;
		long v = strtol(p, &end, 10);
		if (end == p || v < 1 || v > 65535 || (*end && *end != ',') ||
		    na->nports == DOCTOR_MAX_PORTS)
			return -1;
		na->ports[na->nports++] = (int)v;
		p = *end ? end + 1 : end;
	}
	return 0;
}
