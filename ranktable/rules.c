/* Every validation rule, once: code, severity, HCCL's error code, a summary and flags. The
 * checks take severity and the "(HCCL EIxxxx)" suffix from here. HCCL codes are only given
 * where HCCL's own parser reports that code for that problem (its EI0004 for JSON, EI0014 for
 * an invalid value, EI0017 for a missing key, as the HCCL error-code reference lists them). */
#include "ranktable/check.h"

#define E RT_SEV_ERROR
#define W RT_SEV_WARNING
#define N RT_SEV_NOTE
#define CONNECT RT_RULE_CONNECT
#define ONE_SERVER RT_RULE_ONE_SERVER

const struct rt_rule rt_rules[] = {
	/* the document */
	{ "json-syntax", E, "EI0004", "the file is not valid JSON (located syntax error)", 0 },
	{ "duplicate-key", W, NULL, "an object has the same key twice with different values; parsers differ in which they keep", 0 },
	{ "duplicate-key-same", N, NULL, "an object has the same key twice with the same value (harmless)", 0 },
	{ "not-a-ranktable", E, NULL, "valid JSON, but not a rank table of any known format", 0 },
	{ "topology-file", E, NULL, "a 2.0 topology file (peer_list/edge_list) given as a rank table", 0 },
	{ "vllm-pd-table", N, NULL, "vllm-ascend's disaggregated-prefill table (prefill_device_list, decode_device_list): checked as that format", 0 },
	{ "ge-cluster-config", N, NULL, "GE's cluster_config.json (RankTable, HcclCommConfig) for offline graph compilation: the inner table checked, device IPs optional", 0 },
	{ "global-ranktable", N, NULL, "MindCluster ClusterD's global rank table (server_group_list): each group checked as a 1.x table", 0 },
	{ "legacy-format", W, NULL, "legacy group_list table without version (\"template 2\", or the first Atlas 910 tables)", 0 },
	{ "version-missing", E, "EI0017", "no version: HCCL reads it as the legacy group_list format", 0 },
	{ "version-unsupported", E, "EI0014", "version is not \"1.0\", \"1.2\" or \"2.0\"", 0 },
	{ "key-missing", E, "EI0017", "a required key is missing", 0 },
	{ "value-not-string", E, "EI0017", "1.x value written as a JSON number; HCCL calls it missing", 0 },
	{ "value-not-integer", E, NULL, "2.0 value that must be a JSON integer is not one", 0 },
	{ "value-type", E, NULL, "a value has the wrong JSON type (array, object, string...)", 0 },
	{ "unknown-key", W, NULL, "a key no HCCL version or known generator writes (typo?)", 0 },
	{ "v12-key-in-v10", W, NULL, "super-pod keys (1.2) in a version 1.0 table", 0 },
	/* status */
	{ "status-not-ready", E, NULL, "status is \"initializing\": the operator has not filled it in", 0 },
	{ "status-invalid", E, NULL, "status is not \"completed\"", 0 },
	/* servers */
	{ "server-count-missing", W, NULL, "no server_count; HCCL warns and uses the list size", 0 },
	{ "server-count-invalid", E, NULL, "server_count is not a decimal number", 0 },
	{ "server-count-zero", E, NULL, "server_count is zero", 0 },
	{ "server-count-mismatch", E, "EI0014", "server_count differs from the length of server_list", 0 },
	{ "server-list-empty", E, NULL, "server_list has no servers", 0 },
	{ "server-id-empty", E, NULL, "server_id is empty", 0 },
	{ "server-id-too-long", E, NULL, "server_id is longer than 64 characters", 0 },
	{ "server-id-duplicate", E, "EI0014", "two servers have the same server_id", 0 },
	{ "server-id-unsafe", W, NULL, "server_id has whitespace, shell metacharacters or a leading '-'; an error where hcclctl connects (run --ssh, doctor, probe net)", CONNECT },
	{ "server-id-placeholder", W, NULL, "server_id is a placeholder (\"xx.xx.xx.xx\", \"10.*.*.*\"); an error where hcclctl connects", CONNECT },
	{ "host-ip-invalid", E, NULL, "host_ip (ClusterD: server_ip) is not a literal IP address", 0 },
	{ "host-ip-partial", E, NULL, "host_ip is set on some servers but not all", 0 },
	{ "device-list-empty", E, NULL, "a server has no devices", 0 },
	{ "device-count-uneven", W, NULL, "servers have different numbers of devices", 0 },
	/* ranks */
	{ "rank-id-invalid", E, "EI0014", "rank_id is not a decimal number", 0 },
	{ "rank-id-duplicate", E, "EI0014", "two devices have the same rank_id", 0 },
	{ "rank-id-range", E, "EI0014", "rank_id is not below the number of ranks", 0 },
	{ "rank-id-gap", E, "EI0014", "rank ids are not contiguous 0..N-1 (names the missing ones)", 0 },
	{ "rank-id-interleaved", W, NULL, "a server's rank ids are not one contiguous run", 0 },
	/* devices */
	{ "device-id-invalid", E, NULL, "device_id (or device_logical_id) is not a decimal number", 0 },
	{ "device-id-range", E, NULL, "device_id is out of range (0..15 for 1.x, 0..64 for 2.0)", 0 },
	{ "device-id-duplicate", E, "EI0014", "a device_id appears twice on one server", 0 },
	{ "device-ip-missing", E, NULL, "no device_ip on a table with more than one server", 0 },
	{ "device-ip-empty", E, NULL, "device_ip \"\" on a table with more than one server", 0 },
	{ "device-ip-placeholder", E, NULL, "device_ip is a placeholder (\"10.*.*.*\", \"xx.xx.xx.xx\", \"-.-.-.-\"); a warning in a one-server table", ONE_SERVER },
	{ "device-ip-hostname", E, NULL, "device_ip is a host name; HCCL needs the NPU NIC's IP", 0 },
	{ "device-ip-invalid", E, NULL, "device_ip is not an IPv4 or IPv6 address", 0 },
	{ "device-ip-duplicate", E, "EI0014", "two devices have the same device_ip", 0 },
	{ "device-ip-count", E, NULL, "devices list different numbers of comma-separated IPs", 0 },
	{ "ip-family-mixed", E, NULL, "IPv4 and IPv6 device IPs mixed across ranks", 0 },
	{ "port-invalid", E, NULL, "device_port/host_port is not a port number 1..65535", 0 },
	{ "port-privileged", W, NULL, "device_port/host_port is below 1024", 0 },
	{ "host-port-duplicate", E, NULL, "two devices of one server have the same host_port", 0 },
	/* super pods (1.2) */
	{ "super-device-id-invalid", E, "EI0004", "super_device_id is not a decimal 32-bit number", 0 },
	{ "super-device-id-duplicate", E, "EI0014", "super_device_id used twice in one super pod", 0 },
	{ "super-pod-list-missing", N, NULL, "version 1.2 table without super_pod_list (optional: AI-server mode)", 0 },
	{ "super-pod-id-invalid", E, NULL, "super_pod_id is empty", 0 },
	{ "super-pod-id-duplicate", E, "EI0014", "two super pods have the same super_pod_id", 0 },
	{ "super-pod-server-unknown", E, NULL, "a super pod lists a server_id not in server_list", 0 },
	{ "super-pod-server-duplicate", E, NULL, "a server is listed in more than one super pod", 0 },
	{ "super-pod-server-missing", W, NULL, "a server is in no super pod of super_pod_list", 0 },
	{ "super-pod-interleaved", E, NULL, "servers of different super pods interleaved in server_list", 0 },
	/* 2.0 */
	{ "rank-count-invalid", E, NULL, "2.0 rank_count is not an integer 1..65536", 0 },
	{ "rank-count-mismatch", E, NULL, "2.0 rank_count differs from the length of rank_list", 0 },
	{ "local-id-range", E, NULL, "2.0 local_id is not 0..64", 0 },
	{ "local-id-duplicate", E, NULL, "2.0 local_id used twice in one server (level 0 instance)", 0 },
	{ "level-list-size", E, NULL, "2.0 level_list is empty or has more than 8 levels", 0 },
	{ "net-layer-invalid", E, NULL, "2.0 net_layer not 0..7, or not ascending from 0", 0 },
	{ "net-type-invalid", E, NULL, "2.0 net_type is not TOPO_FILE_DESC or CLOS", 0 },
	{ "net-type-layer0", W, NULL, "2.0 net_layer 0 is not TOPO_FILE_DESC, the type HCCL's guide gives it", 0 },
	{ "net-instance-id-invalid", E, NULL, "2.0 net_instance_id empty or longer than 1024", 0 },
	{ "rank-addr-list-size", E, NULL, "2.0 rank_addr_list has more than 24 addresses", 0 },
	{ "addr-type-invalid", E, NULL, "2.0 addr_type is not EID, IPV4 or IPV6", 0 },
	{ "addr-invalid", E, NULL, "2.0 addr does not match its addr_type (EID: 32 hex digits)", 0 },
	{ "ports-invalid", E, NULL, "2.0 ports: more than 16, or not \"D/P\" or \"d2h\"", 0 },
	{ "control-plane-misplaced", N, NULL, "2.0 control_plane inside a level; HCCL reads it from the rank", 0 },
	{ "v2-old-layout", E, NULL, "older 2.0 layout (level, id, fabric_type, rank_addrs); HCCL reads net_layer, net_instance_id, net_type, rank_addr_list", 0 },
	/* legacy group_list */
	{ "group-count-mismatch", E, NULL, "legacy group_count differs from group_list", 0 },
	{ "instance-count-mismatch", E, NULL, "legacy instance_count differs from instance_list", 0 },
	{ "device-count-mismatch", E, NULL, "legacy device_count differs from the devices listed", 0 },
	{ "pod-name-duplicate", E, NULL, "legacy pod_name used twice", 0 },
	/* vllm-ascend disaggregated prefill */
	{ "pd-list-empty", W, NULL, "prefill_device_list or decode_device_list is empty", 0 },
	{ "pd-server-id-not-ip", W, NULL, "server_id is not an IP; vllm-ascend finds a node's devices by its IP", 0 },
	{ "cluster-id-invalid", E, NULL, "cluster_id is not a decimal number", 0 },
	{ "cluster-id-duplicate", E, NULL, "two devices have the same cluster_id", 0 },
	/* MindCluster global rank table */
	{ "group-id-invalid", E, NULL, "group_id is not a decimal number", 0 },
	{ "group-id-duplicate", E, NULL, "two server groups have the same group_id", 0 },
	{ NULL, E, NULL, NULL, 0 },
};

const struct rt_rule *rt_rule_find(const char *code)
{
	for (const struct rt_rule *r = rt_rules; r->code; r++)
		if (!strcmp(r->code, code))
			return r;
	return NULL;
}

size_t rt_diags_connect(struct rt_diags *d)
{
	size_t n = 0;
	for (size_t i = 0; i < d->n; i++) {
		struct rt_diag *x = &d->v[i];
		const struct rt_rule *r = rt_rule_find(x->code);
		if (!r || !(r->flags & RT_RULE_CONNECT) || x->sev == RT_SEV_ERROR)
			continue;
		if (x->sev == RT_SEV_WARNING)
			d->nwarnings--;
		else
			d->nnotes--;
		x->sev = RT_SEV_ERROR;
		d->nerrors++;
		n++;
	}
	return n;
}
