/* Every validation rule, once: code, severity, HCCL's error code and a summary. The checks
 * take severity and the "(HCCL EIxxxx)" suffix from here. HCCL codes are only given where
 * shared/reference/ascend.md §1.2-§1.8 shows HCCL reporting that code for that problem. */
#include "ranktable/check.h"

#define E RT_SEV_ERROR
#define W RT_SEV_WARNING

const struct rt_rule rt_rules[] = {
	/* the document */
	{ "json-syntax", E, "EI0004", "the file is not valid JSON (located syntax error)" },
	{ "duplicate-key", W, NULL, "an object has the same key twice; one value is ignored" },
	{ "not-a-ranktable", E, NULL, "valid JSON, but not a rank table of any known format" },
	{ "topology-file", E, NULL, "a 2.0 topology file (peer_list/edge_list) given as a rank table" },
	{ "legacy-format", W, NULL, "legacy \"template 2\" group_list table without version" },
	{ "version-missing", E, "EI0017", "no version: HCCL reads it as the legacy group_list format" },
	{ "version-unsupported", E, "EI0014", "version is not \"1.0\", \"1.2\" or \"2.0\"" },
	{ "key-missing", E, "EI0017", "a required key is missing" },
	{ "value-not-string", E, "EI0017", "1.x value written as a JSON number; HCCL calls it missing" },
	{ "value-not-integer", E, NULL, "2.0 value that must be a JSON integer is not one" },
	{ "value-type", E, NULL, "a value has the wrong JSON type (array, object, string...)" },
	{ "unknown-key", W, NULL, "a key no HCCL version or known generator writes (typo?)" },
	{ "v12-key-in-v10", W, NULL, "super-pod keys (1.2) in a version 1.0 table" },
	/* status */
	{ "status-not-ready", E, NULL, "status is \"initializing\": the operator has not filled it in" },
	{ "status-invalid", E, NULL, "status is not \"completed\"" },
	/* servers */
	{ "server-count-missing", W, NULL, "no server_count; HCCL warns and uses the list size" },
	{ "server-count-invalid", E, NULL, "server_count is not a decimal number" },
	{ "server-count-zero", E, NULL, "server_count is zero" },
	{ "server-count-mismatch", E, "EI0014", "server_count differs from the length of server_list" },
	{ "server-list-empty", E, NULL, "server_list has no servers" },
	{ "server-id-empty", E, NULL, "server_id is empty" },
	{ "server-id-too-long", E, NULL, "server_id is longer than 64 characters" },
	{ "server-id-duplicate", E, "EI0014", "two servers have the same server_id" },
	{ "server-id-unsafe", E, NULL, "server_id has whitespace, shell metacharacters or a leading '-'" },
	{ "host-ip-invalid", E, NULL, "host_ip is not a literal IP address" },
	{ "host-ip-partial", E, NULL, "host_ip is set on some servers but not all" },
	{ "device-list-empty", E, NULL, "a server has no devices" },
	{ "device-count-uneven", W, NULL, "servers have different numbers of devices" },
	/* ranks */
	{ "rank-id-invalid", E, "EI0014", "rank_id is not a decimal number" },
	{ "rank-id-duplicate", E, "EI0014", "two devices have the same rank_id" },
	{ "rank-id-range", E, "EI0014", "rank_id is not below the number of ranks" },
	{ "rank-id-gap", E, "EI0014", "rank ids are not contiguous 0..N-1 (names the missing ones)" },
	{ "rank-id-interleaved", W, NULL, "a server's rank ids are not one contiguous run" },
	/* devices */
	{ "device-id-invalid", E, NULL, "device_id is not a decimal number" },
	{ "device-id-range", E, NULL, "device_id is out of range (0..15 for 1.x, 0..64 for 2.0)" },
	{ "device-id-duplicate", E, "EI0014", "a device_id appears twice on one server" },
	{ "device-ip-missing", E, NULL, "no device_ip on a table with more than one server" },
	{ "device-ip-empty", E, NULL, "device_ip \"\" on a table with more than one server" },
	{ "device-ip-placeholder", E, NULL, "device_ip is a placeholder (\"10.*.*.*\", \"xx.xx.xx.xx\", \"-.-.-.-\")" },
	{ "device-ip-hostname", E, NULL, "device_ip is a host name; HCCL needs the NPU NIC's IP" },
	{ "device-ip-invalid", E, NULL, "device_ip is not an IPv4 or IPv6 address" },
	{ "device-ip-duplicate", E, "EI0014", "two devices have the same device_ip" },
	{ "device-ip-count", E, NULL, "devices list different numbers of comma-separated IPs" },
	{ "ip-family-mixed", E, NULL, "IPv4 and IPv6 device IPs mixed across ranks" },
	{ "port-invalid", E, NULL, "device_port/host_port is not a port number 1..65535" },
	{ "port-privileged", W, NULL, "device_port/host_port is below 1024" },
	{ "host-port-duplicate", E, NULL, "two devices of one server have the same host_port" },
	/* super pods (1.2) */
	{ "super-device-id-invalid", E, "EI0004", "super_device_id is not a decimal 32-bit number" },
	{ "super-device-id-duplicate", E, "EI0014", "super_device_id used twice in one super pod" },
	{ "super-pod-list-missing", W, NULL, "version 1.2 table without super_pod_list" },
	{ "super-pod-id-invalid", E, NULL, "super_pod_id is empty" },
	{ "super-pod-id-duplicate", E, "EI0014", "two super pods have the same super_pod_id" },
	{ "super-pod-server-unknown", E, NULL, "a super pod lists a server_id not in server_list" },
	{ "super-pod-server-duplicate", E, NULL, "a server is listed in more than one super pod" },
	{ "super-pod-server-missing", W, NULL, "a server is in no super pod of super_pod_list" },
	{ "super-pod-interleaved", E, NULL, "servers of different super pods interleaved in server_list" },
	/* 2.0 */
	{ "rank-count-invalid", E, NULL, "2.0 rank_count is not an integer 1..65536" },
	{ "rank-count-mismatch", E, NULL, "2.0 rank_count differs from the length of rank_list" },
	{ "local-id-range", E, NULL, "2.0 local_id is not 0..64" },
	{ "local-id-duplicate", E, NULL, "2.0 local_id used twice in one server (level 0 instance)" },
	{ "level-list-size", E, NULL, "2.0 level_list is empty or has more than 8 levels" },
	{ "net-layer-invalid", E, NULL, "2.0 net_layer not 0..7, or not ascending from 0" },
	{ "net-type-invalid", E, NULL, "2.0 net_type not TOPO_FILE_DESC (layer 0) or CLOS" },
	{ "net-instance-id-invalid", E, NULL, "2.0 net_instance_id empty or longer than 1024" },
	{ "rank-addr-list-size", E, NULL, "2.0 rank_addr_list has more than 24 addresses" },
	{ "addr-type-invalid", E, NULL, "2.0 addr_type is not EID, IPV4 or IPV6" },
	{ "addr-invalid", E, NULL, "2.0 addr does not match its addr_type (EID: 32 hex digits)" },
	{ "ports-invalid", E, NULL, "2.0 ports: more than 16, or not \"D/P\" or \"d2h\"" },
	/* legacy group_list */
	{ "group-count-mismatch", E, NULL, "legacy group_count differs from group_list" },
	{ "instance-count-mismatch", E, NULL, "legacy instance_count differs from instance_list" },
	{ "device-count-mismatch", E, NULL, "legacy device_count differs from the devices listed" },
	{ "pod-name-duplicate", E, NULL, "legacy pod_name used twice" },
	{ NULL, E, NULL, NULL },
};

const struct rt_rule *rt__rule(const char *code)
{
	for (const struct rt_rule *r = rt_rules; r->code; r++)
		if (!strcmp(r->code, code))
			return r;
	return NULL;
}
