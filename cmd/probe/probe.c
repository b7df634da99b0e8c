/* hcclctl probe hccs|rdma|roce|net: the group table. */
#include "cmd/probe/probe.h"

const struct cmd probe_commands[] = {
	{.name = "hccs",
	 .summary = "HCCS link status of each NPU and chip, from npu-smi",
	 .run = probe_hccs_run,
	 .opts = probe_hccs_opts,
	 .max_args = 0},
	{.name = "rdma",
	 .summary = "RDMA ports: state, rate, MTU, RoCE v2 GIDs (libibverbs and sysfs)",
	 .run = probe_rdma_run,
	 .opts = probe_rdma_opts,
	 .max_args = 0},
	{.name = "roce",
	 .summary = "Ascend NPU NICs through hccn_tool: link, health, IP, TLS, optics",
	 .run = probe_roce_run,
	 .opts = probe_roce_opts,
	 .max_args = 0},
	{.name = "net",
	 .summary = "TCP latency and bandwidth between every pair of nodes, slow links named",
	 .run = probe_net_run,
	 .opts = probe_net_opts,
	 .max_args = 0},
	{0},
};
