/* Every check doctor makes, once: its code, who makes it, the node's step that makes it and a
 * one-line summary. The rows are in the order of the report and of root-cause priority (the
 * first failure in this order is the most likely cause): what the others depend on comes
 * first (a node that cannot be reached, a table that does not load, an NPU that is gone), the
 * comparisons across nodes and the host's limits after. hcclctl-doctor(1)'s CHECKS and the
 * README list them in this order; tests/cli/docs-agree.t holds them to --list-checks. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmd/doctor/doctor.h"
#include "cmd/doctor/doctor_checks.h"
#include "ranktable/base/near.h"

#define L DOCTOR_LAUNCHER
#define N DOCTOR_NODE
#define B DOCTOR_BOTH

const struct doctor_check doctor_checks[] = {
	{ "node.reach", L, NULL, "the node answers over SSH and its doctor --node reports" },
	{ "ranktable.valid", L, NULL, "the rank table passes hcclctl ranktable validate" },
	{ "ranktable.same", N, doctor_ranktable_step, "the node's copy of the table has the launcher's digest" },
	{ "ranktable.node", N, doctor_ranktable_step, "a server of the table is this node, by address or host name" },
	{ "ranktable.spod", N, doctor_ranktable_step, "a 1.2 table's super_device_id of each device is npu-smi's SDID" },
	{ "npu.smi", N, doctor_hccs_step, "npu-smi is present and answers" },
	{ "npu.count", N, doctor_hw_checks, "the rank table, npu-smi and the PCIe bus agree on the NPUs" },
	{ "link.hccs", N, doctor_hccs_step, "every HCCS link up, full lanes, no growing errors" },
	{ "npu.health", N, doctor_hccs_step, "every NPU chip's health is OK" },
	{ "npu.faults", N, doctor_hw_checks, "no chip has a fault code MindCluster would act on" },
	{ "npu.ecc", N, doctor_hw_checks, "no DDR or HBM ECC errors, none growing during the check" },
	{ "npu.pcie", N, doctor_hw_checks, "each NPU's PCIe link at the width and speed it can do" },
	{ "npu.thermal", N, doctor_hw_checks, "temperature under 85 C, AI cores not throttled" },
	{ "host.kernel-log", N, doctor_kernel_log_check, "no hardware, PCIe AER or NPU driver errors in the kernel log" },
	{ "link.roce", N, doctor_roce_step, "every NPU NIC link up with net health Success" },
	{ "link.npu-mesh", L, NULL, "every device IP pings every other from its own NIC (--deep)" },
	{ "nic.ip", N, doctor_roce_step, "each device's IP on its NIC is its device_ip in the table" },
	{ "nic.tls", B, doctor_roce_step, "the same TLS switch on every NPU of the cluster" },
	{ "nic.counters", N, doctor_roce_step, "no error counter of an NPU NIC above 0" },
	{ "link.rdma", N, doctor_rdma_step, "every RDMA port active" },
	{ "link.mtu", B, doctor_rdma_step, "the same active MTU on every RDMA port of the cluster" },
	{ "net.ports", N, doctor_ports_step, "every node reaches every other on the job's ports" },
	{ "env.hccl", B, doctor_env_check, "the HCCL_* variables in range, coherent, the same on every node" },
	{ "run.allreduce", L, NULL, "a real allreduce over the rank table (--deep)" },
	{ "net.bandwidth", L, NULL, "probe net between every pair: no link under 80 % of the median (--deep)" },
	{ "npu.driver", B, doctor_versions_step, "the same NPU driver on every node" },
	{ "npu.firmware", B, doctor_versions_step, "the same NPU firmware on every node" },
	{ "cann.version", B, doctor_cann_step, "the same CANN toolkit on every node" },
	/* the node stamps its report as it leaves, always: no step of its own */
	{ "host.time", B, NULL, "the node's clock within 2 s of the launcher's" },
	{ "host.memlock", N, doctor_host_step, "locked memory unlimited (RDMA registers memory)" },
	{ "host.shm", N, doctor_host_step, "/dev/shm holds at least 1 GiB" },
	{ "host.memory", N, doctor_host_step, "at least 10 % of memory available" },
	{ "host.hugepages", N, doctor_host_step, "huge pages, for information" },
	{ "logs.cause", L, NULL, "the most likely cause in a failed job's logs (--logs)" },
};
const size_t doctor_nchecks = sizeof(doctor_checks) / sizeof(doctor_checks[0]);

int doctor_check_index(const char *code)
{
	for (size_t i = 0; code && i < doctor_nchecks; i++)
		if (!strcmp(doctor_checks[i].code, code))
			return (int)i;
	return -1;
}

size_t doctor_check_group_len(const char *code)
{
	return strcspn(code, ".");
}

const char *doctor_side_name(enum doctor_side s)
{
	return s == DOCTOR_LAUNCHER ? "launcher" : s == DOCTOR_NODE ? "node" : "both";
}

/* Whether row i is the first of its group. */
static int group_first(size_t i)
{
	size_t gl = doctor_check_group_len(doctor_checks[i].code);
	for (size_t k = 0; k < i; k++)
		if (doctor_check_group_len(doctor_checks[k].code) == gl &&
		    !strncmp(doctor_checks[k].code, doctor_checks[i].code, gl))
			return 0;
	return 1;
}

static int is_group(const char *s, size_t n)
{
	for (size_t i = 0; i < doctor_nchecks; i++)
		if (doctor_check_group_len(doctor_checks[i].code) == n &&
		    !strncmp(doctor_checks[i].code, s, n))
			return 1;
	return 0;
}

static int is_check(const char *s, size_t n)
{
	for (size_t i = 0; i < doctor_nchecks; i++)
		if (strlen(doctor_checks[i].code) == n && !strncmp(doctor_checks[i].code, s, n))
			return 1;
	return 0;
}

#define NAME_MAX_NEAR NEAR_MAX

/* The check or group within 2 edits of s[0..n), the first of the closest; NULL if none. */
static const char *nearest(const char *s, size_t n, char *buf, size_t len)
{
	size_t best = 3;
	const char *found = NULL;
	if (n > NAME_MAX_NEAR)
		return NULL;
	for (size_t i = 0; i < doctor_nchecks; i++) {
		const char *code = doctor_checks[i].code;
		size_t gl = doctor_check_group_len(code);
		char group[NAME_MAX_NEAR + 1];
		snprintf(group, sizeof(group), "%.*s", (int)gl, code);
		size_t dg = group_first(i) ? near_distance(s, n, group) : 99;
		size_t dc = near_distance(s, n, code);
		if (dg < best) {
			best = dg;
			snprintf(buf, len, "%s", group);
			found = buf;
		}
		if (dc < best) {
			best = dc;
			snprintf(buf, len, "%s", code);
			found = buf;
		}
	}
	return found;
}

int doctor_filter_valid(const char *opt, const char *list, char *err, size_t errlen)
{
	if (!list || !*list) /* none given: every check */
		return 0;
	for (const char *p = list;; p++) {
		size_t n = strcspn(p, ",");
		if (!is_check(p, n) && !is_group(p, n)) {
			char near[NAME_MAX_NEAR + 1];
			const char *nm = nearest(p, n, near, sizeof(near));
			size_t at = (size_t)snprintf(err, errlen,
						     "%s: no check or group '%.*s'; %s%s%sthe checks "
						     "are:",
						     opt, (int)(n > 64 ? 64 : n), p,
						     nm ? "did you mean '" : "", nm ? nm : "",
						     nm ? "'? " : "");
			for (size_t i = 0; i < doctor_nchecks && at < errlen; i++)
				at += (size_t)snprintf(err + at, errlen - at, "%s %s",
						       i ? "," : "", doctor_checks[i].code);
			for (size_t i = 0, g = 0; i < doctor_nchecks && at < errlen; i++)
				if (group_first(i))
					at += (size_t)snprintf(err + at, errlen - at, "%s%.*s",
							       g++ ? ", " : "; the groups: ",
							       (int)doctor_check_group_len(
								       doctor_checks[i].code),
							       doctor_checks[i].code);
			return -EINVAL;
		}
		p += n;
		if (!*p)
			return 0;
	}
}

void doctor_checks_print(void)
{
	if (!g_opts.json) {
		for (size_t i = 0; i < doctor_nchecks; i++) {
			const struct doctor_check *c = &doctor_checks[i];
			printf("%-16s %-10.*s %s\n", c->code, (int)doctor_check_group_len(c->code),
			       c->code, c->summary);
		}
		return;
	}
	cJSON *doc = cJSON_CreateObject();
	cJSON_AddStringToObject(doc, "schema", "hcclctl-doctor-checks/1");
	cJSON *arr = cJSON_AddArrayToObject(doc, "checks");
	for (size_t i = 0; i < doctor_nchecks; i++) {
		const struct doctor_check *c = &doctor_checks[i];
		char group[64];
		snprintf(group, sizeof(group), "%.*s", (int)doctor_check_group_len(c->code), c->code);
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "code", c->code);
		cJSON_AddStringToObject(o, "group", group);
		cJSON_AddStringToObject(o, "side", doctor_side_name(c->side));
		cJSON_AddStringToObject(o, "summary", c->summary);
		cJSON_AddItemToArray(arr, o);
	}
	cJSON_AddNumberToObject(doc, "exit_code", EXIT_OK);
	out_json(doc);
}

void doctor_checks_complete(void)
{
	for (size_t i = 0; i < doctor_nchecks; i++)
		if (group_first(i))
			printf("%.*s\n", (int)doctor_check_group_len(doctor_checks[i].code),
			       doctor_checks[i].code);
	for (size_t i = 0; i < doctor_nchecks; i++)
		puts(doctor_checks[i].code);
}

/* The order the node runs its steps in: the port check last, as it waits for the slowest
 * peer to reach it (every node runs its other steps first, so that they arrive together). A
 * step of a row that is not here runs after these, in the table's order. */
static doctor_node_step *const run_order[] = {
	doctor_ranktable_step, doctor_hccs_step, doctor_roce_step,	 doctor_rdma_step,
	doctor_versions_step,  doctor_cann_step, doctor_host_step,	 doctor_hw_checks,
	doctor_kernel_log_check, doctor_env_check, doctor_ports_step,
};
#define NORDER (sizeof(run_order) / sizeof(run_order[0]))

/* Whether a row with step is wanted. */
static int step_wanted(doctor_node_step *step, const struct doctor_filter *f)
{
	for (size_t i = 0; i < doctor_nchecks; i++)
		if (doctor_checks[i].node == step && doctor_wanted(f, doctor_checks[i].code))
			return 1;
	return 0;
}

static int in_order(doctor_node_step *step)
{
	for (size_t k = 0; k < NORDER; k++)
		if (run_order[k] == step)
			return 1;
	return 0;
}

/* Whether row i's step is an earlier row's. */
static int step_seen(size_t i)
{
	for (size_t k = 0; k < i; k++)
		if (doctor_checks[k].node == doctor_checks[i].node)
			return 1;
	return 0;
}

cJSON *doctor_node_run(const struct doctor_node_args *a)
{
	cJSON *doc = cJSON_CreateObject();
	cJSON_AddStringToObject(doc, "schema", "hcclctl-doctor-node/1");
	char hn[256] = "?";
	gethostname(hn, sizeof(hn) - 1);
	cJSON_AddStringToObject(doc, "hostname", hn);
	cJSON *checks = cJSON_AddArrayToObject(doc, "checks");
	cJSON *facts = cJSON_AddObjectToObject(doc, "facts");
	for (size_t k = 0; k < NORDER; k++)
		if (step_wanted(run_order[k], a->filter))
			run_order[k](a, checks, facts);
	for (size_t i = 0; i < doctor_nchecks; i++) {
		doctor_node_step *step = doctor_checks[i].node;
		if (step && !in_order(step) && !step_seen(i) && step_wanted(step, a->filter))
			step(a, checks, facts);
	}
	/* last, just before the report leaves: the launcher compares it with when it arrived */
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	cJSON_AddNumberToObject(facts, "time_us", (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3);
	return doc;
}
