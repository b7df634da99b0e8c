/* Validation: every rule against a small bad file (exact code, severity, line, column,
 * path and message), the shared fixtures, the 1.2 model field by field, a 65536-rank table,
 * the digest, reading files and odd buffers. Run from the repository root. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "ranktable/ranktable.h"

#define BAD "tests/data/ranktables/bad/"
#define GOOD "tests/data/ranktables/good/"
#define FIX "tests/data/fixtures/"
#define REAL "tests/data/ranktables/real/"
#define E RT_SEV_ERROR
#define W RT_SEV_WARNING
#define N RT_SEV_NOTE

struct want {
	enum rt_severity sev;
	const char *code;
	unsigned line, col;
	const char *path;
	const char *msg;
};

struct bad_case {
	const char *file;
	int rc;
	size_t n;
	struct want w[20];
};

/* The expected findings of every file in tests/data/ranktables/bad/, of the good file that
 * only has a note, and of every real table in tests/data/ranktables/real/, in report order
 * (sorted by line and column). */
static const struct bad_case bad_cases[] = {
	{ BAD "device_id_bad.json", 0, 3, {
		{ E, "device-id-duplicate", 10, 32, "$.server_list[0].device[1].device_id",
		  "device_id \"0\" is used twice on server \"node_0\": rank \"0\" and rank \"1\" (HCCL EI0014)" },
		{ E, "device-id-range", 11, 32, "$.server_list[0].device[2].device_id",
		  "device_id \"16\" of rank \"2\" (server \"node_0\" device 16) is out of range 0..15" },
		{ E, "device-id-invalid", 12, 32, "$.server_list[0].device[3].device_id",
		  "device_id \"npu3\" of rank \"3\" (server \"node_0\" device[3]) is not a decimal number" },
	} },
	{ BAD "device_ip_duplicate.json", 0, 1, {
		{ E, "device-ip-duplicate", 7, 79, "$.server_list[1].device[0].device_ip",
		  "device_ip \"192.168.1.8\" is used twice: server \"node_0\" device 0 and server \"node_1\" device 0 (HCCL EI0014)" },
	} },
	{ BAD "device_ip_hostname.json", 0, 2, {
		{ E, "device-ip-hostname", 6, 79, "$.server_list[0].device[0].device_ip",
		  "device_ip \"node-0-npu0\" of rank \"0\" (server \"node_0\" device 0) is a host name; HCCL needs the literal IP of the NPU's own NIC" },
		{ E, "device-ip-empty", 7, 79, "$.server_list[1].device[0].device_ip",
		  "device_ip of rank \"1\" (server \"node_1\" device 0) is empty; HCCL needs it when there is more than one server" },
	} },
	{ BAD "device_ip_lists.json", 0, 3, {
		{ E, "device-ip-count", 8, 46, "$.server_list[0].device[1].device_ip",
		  "device_ip of rank \"1\" (server \"node_0\" device 1) lists 1 address but rank \"0\" (server \"node_0\" device 0) lists 2; every device must list the same number" },
		{ E, "device-ip-duplicate", 10, 46, "$.server_list[1].device[0].device_ip",
		  "device_ip \"192.168.1.8\" is used twice: server \"node_0\" device 0 and server \"node_1\" device 0 (HCCL EI0014)" },
		{ E, "device-ip-invalid", 11, 46, "$.server_list[1].device[1].device_ip",
		  "device_ip \"192.168.2.300\" of rank \"3\" (server \"node_1\" device 1) is not an IPv4 or IPv6 address" },
	} },
	{ BAD "device_ip_missing.json", 0, 1, {
		{ E, "device-ip-missing", 6, 46, "$.server_list[0].device[0].device_ip",
		  "rank \"0\" (server \"node_0\" device 0) has no device_ip; HCCL requires it when there is more than one server" },
	} },
	{ BAD "duplicate_key.json", 0, 1, {
		{ W, "duplicate-key", 6, 110, "$.server_list[0].device[0].rank_id",
		  "duplicate key \"rank_id\" (first at line 6, column 94) with another value; parsers differ in which one they keep" },
	} },
	{ BAD "empty_object.json", 0, 1, {
		{ E, "not-a-ranktable", 1, 1, "$",
		  "no \"version\", \"server_list\", \"rank_list\" or \"group_list\": this is not a rank table" },
	} },
	{ BAD "host_ip_ports.json", 0, 4, {
		{ W, "port-privileged", 10, 80, "$.server_list[0].device[0].device_port",
		  "device_port \"80\" of rank \"0\" (server \"node_0\" device 0) is a privileged port (below 1024)" },
		{ E, "port-invalid", 11, 80, "$.server_list[0].device[1].device_port",
		  "device_port \"70000\" of rank \"1\" (server \"node_0\" device 1) is not a port number 1..65535" },
		{ E, "host-port-duplicate", 11, 102, "$.server_list[0].device[1].host_port",
		  "host_port \"16666\" is used twice on server \"node_0\": device 0 and device 1" },
		{ E, "host-ip-partial", 14, 9, "$.server_list[1].host_ip",
		  "server \"node_1\" has no host_ip but server \"node_0\" has one; HCCL needs it on all servers or none" },
	} },
	{ BAD "ip_family_mixed.json", 0, 1, {
		{ E, "ip-family-mixed", 7, 79, "$.server_list[1].device[0].device_ip",
		  "device_ip \"fd00::8\" of rank \"1\" (server \"node_1\" device 0) is IPv6 but rank \"0\" (server \"node_0\" device 0) uses IPv4; HCCL needs one address family for all ranks" },
	} },
	{ BAD "keys_missing.json", 0, 4, {
		{ E, "key-missing", 1, 1, "$",
		  "missing \"status\" (HCCL EI0017)" },
		{ E, "key-missing", 5, 9, "$.server_list[0].server_id",
		  "missing \"server_id\" in server_list[0] (HCCL EI0017)" },
		{ E, "key-missing", 5, 23, "$.server_list[0].device[0].rank_id",
		  "missing \"rank_id\" in server_list[0] device[0] (HCCL EI0017)" },
		{ E, "key-missing", 5, 23, "$.server_list[0].device[0].device_id",
		  "missing \"device_id\" in server_list[0] device[0] (HCCL EI0017)" },
	} },
	{ BAD "legacy_bad.json", 0, 6, {
		{ W, "legacy-format", 1, 1, "$",
		  "this is the legacy \"template 2\" group_list format (no version, no rank_id); HCCL still reads it, but ranks are implied by listing order" },
		{ E, "group-count-mismatch", 3, 20, "$.group_count",
		  "group_count \"2\" of the table does not match the 1 groups in group_list" },
		{ E, "instance-count-mismatch", 7, 31, "$.group_list[0].instance_count",
		  "instance_count \"3\" of group_list[0] does not match the 2 instances in instance_list" },
		{ E, "device-count-mismatch", 8, 29, "$.group_list[0].device_count",
		  "device_count \"3\" of group_list[0] does not match the 2 devices listed in the group" },
		{ E, "pod-name-duplicate", 11, 31, "$.group_list[0].instance_list[1].pod_name",
		  "pod_name \"tf-a\" is used twice: group_list[0].instance_list[0] and group_list[0].instance_list[1]" },
		{ E, "device-ip-duplicate", 11, 108, "$.group_list[0].instance_list[1].devices[0].device_ip",
		  "device_ip \"192.168.1.8\" is used twice: group_list[0].instance_list[0] device[0] and group_list[0].instance_list[1] device[0] (HCCL EI0014)" },
	} },
	{ BAD "many_problems.json", 0, 12, {
		{ E, "status-not-ready", 2, 15, "$.status",
		  "status is \"initializing\": the rank table is not ready yet" },
		{ E, "server-count-mismatch", 4, 21, "$.server_count",
		  "server_count \"3\" does not match the 2 servers in server_list (HCCL EI0014)" },
		{ E, "rank-id-gap", 5, 20, "$.server_list",
		  "rank ids must be 0..3 without gaps; missing 2-3 (HCCL EI0014)" },
		{ E, "device-ip-placeholder", 9, 50, "$.server_list[0].device[0].device_ip",
		  "device_ip \"10.*.*.*\" of rank \"0\" (server \"node_0\" device 0) is a placeholder, not an address" },
		{ E, "device-id-duplicate", 10, 32, "$.server_list[0].device[1].device_id",
		  "device_id \"0\" is used twice on server \"node_0\": rank \"0\" and rank 1 (HCCL EI0014)" },
		{ E, "value-not-string", 10, 76, "$.server_list[0].device[1].rank_id",
		  "rank_id 1 of server \"node_0\" device 0 is a number, not a string; HCCL rejects it and misleadingly reports it as missing (HCCL EI0017)" },
		{ E, "server-id-duplicate", 14, 26, "$.server_list[1].server_id",
		  "server_id \"node_0\" is used twice: server_list[0] and server_list[1] (HCCL EI0014)" },
		{ E, "device-ip-duplicate", 16, 50, "$.server_list[1].device[0].device_ip",
		  "device_ip \"192.168.1.9\" is used twice: server \"node_0\" device 0 and server \"node_0\" device 1 (HCCL EI0014)" },
		{ E, "rank-id-duplicate", 16, 76, "$.server_list[1].device[0].rank_id",
		  "rank_id \"1\" is used twice: server \"node_0\" device 0 and server \"node_0\" device 1 (HCCL EI0014)" },
		{ E, "device-ip-hostname", 17, 50, "$.server_list[1].device[1].device_ip",
		  "device_ip \"worker-2\" of rank \"5\" (server \"node_0\" device 2) is a host name; HCCL needs the literal IP of the NPU's own NIC" },
		{ E, "rank-id-range", 17, 73, "$.server_list[1].device[1].rank_id",
		  "rank_id \"5\" of server \"node_0\" device 2 is out of range: 4 ranks need ids 0..3 (HCCL EI0014)" },
		{ W, "unknown-key", 17, 78, "$.server_list[1].device[1].colour",
		  "unknown key \"colour\" in $.server_list[1].device[1]" },
	} },
	{ BAD "merge_hccl_int_rank_ids.json", 0, 4, {
		{ E, "value-not-string", 1, 127, "$.server_list[0].device[0].rank_id",
		  "rank_id 0 of server \"10.0.0.1\" device 0 is a number, not a string; HCCL rejects it and misleadingly reports it as missing (HCCL EI0017)" },
		{ E, "value-not-string", 1, 189, "$.server_list[0].device[1].rank_id",
		  "rank_id 1 of server \"10.0.0.1\" device 1 is a number, not a string; HCCL rejects it and misleadingly reports it as missing (HCCL EI0017)" },
		{ E, "value-not-string", 1, 316, "$.server_list[1].device[0].rank_id",
		  "rank_id 2 of server \"10.0.0.2\" device 0 is a number, not a string; HCCL rejects it and misleadingly reports it as missing (HCCL EI0017)" },
		{ E, "value-not-string", 1, 378, "$.server_list[1].device[1].rank_id",
		  "rank_id 3 of server \"10.0.0.2\" device 1 is a number, not a string; HCCL rejects it and misleadingly reports it as missing (HCCL EI0017)" },
	} },
	{ BAD "not_ranktable.json", 0, 1, {
		{ E, "not-a-ranktable", 1, 1, "$",
		  "the document is an array, not a rank table object" },
	} },
	{ BAD "placeholder_ips.json", 0, 4, {
		{ E, "device-ip-placeholder", 8, 48, "$.server_list[0].device[0].device_ip",
		  "device_ip \"192.1.*.6\" of rank \"0\" (server \"10.155.111.140\" device 0) is a placeholder, not an address" },
		{ E, "device-ip-placeholder", 9, 48, "$.server_list[0].device[1].device_ip",
		  "device_ip \"192.2.*.6\" of rank \"1\" (server \"10.155.111.140\" device 1) is a placeholder, not an address" },
		{ E, "device-ip-placeholder", 16, 48, "$.server_list[1].device[0].device_ip",
		  "device_ip \"xx.xx.xx.xx\" of rank \"2\" (server \"10.155.111.141\" device 0) is a placeholder, not an address" },
		{ E, "device-ip-placeholder", 17, 48, "$.server_list[1].device[1].device_ip",
		  "device_ip \"-.-.-.-\" of rank \"3\" (server \"10.155.111.141\" device 1) is a placeholder, not an address (generators write it when the NPU has no IP configured)" },
	} },
	{ BAD "rank_id_duplicate.json", 0, 2, {
		{ E, "rank-id-gap", 5, 20, "$.server_list",
		  "rank ids must be 0..3 without gaps; missing 1 (HCCL EI0014)" },
		{ E, "rank-id-duplicate", 16, 76, "$.server_list[1].device[0].rank_id",
		  "rank_id \"3\" is used twice: server \"node_0\" device 1 and server \"node_1\" device 0 (HCCL EI0014)" },
	} },
	{ BAD "rank_id_gap.json", 0, 2, {
		{ E, "rank-id-range", 11, 77, "$.server_list[0].device[2].rank_id",
		  "rank_id \"5\" of server \"node_0\" device 2 is out of range: 4 ranks need ids 0..3 (HCCL EI0014)" },
		{ E, "rank-id-invalid", 12, 77, "$.server_list[0].device[3].rank_id",
		  "rank_id \"x\" of server \"node_0\" device 3 is not a decimal number (HCCL EI0014)" },
	} },
	{ BAD "rank_id_interleaved.json", 0, 1, {
		{ W, "rank-id-interleaved", 6, 9, "$.server_list[0]",
		  "server \"node_0\" has rank ids 0-2, 7, not one contiguous run; ranks interleaved across servers slow down HCCL" },
	} },
	{ BAD "rank_id_number.json", 0, 1, {
		{ E, "value-not-string", 9, 76, "$.server_list[0].device[0].rank_id",
		  "rank_id 0 of server \"node_0\" device 0 is a number, not a string; HCCL rejects it and misleadingly reports it as missing (HCCL EI0017)" },
	} },
	{ BAD "server_count_mismatch.json", 0, 1, {
		{ E, "server-count-mismatch", 4, 21, "$.server_count",
		  "server_count \"3\" does not match the 2 servers in server_list (HCCL EI0014)" },
	} },
	{ BAD "server_count_missing.json", 0, 1, {
		{ W, "server-count-missing", 1, 1, "$.server_count",
		  "no \"server_count\"; HCCL warns and uses the 1 server in server_list" },
	} },
	{ BAD "server_count_zero.json", 0, 2, {
		{ E, "server-count-zero", 4, 21, "$.server_count",
		  "server_count is \"0\"; HCCL needs at least one server" },
		{ E, "server-list-empty", 5, 20, "$.server_list",
		  "server_list is empty" },
	} },
	{ BAD "server_id_unsafe.json", 0, 3, {
		{ W, "server-id-unsafe", 6, 24, "$.server_list[0].server_id",
		  "server_id \"1.2.3.4;touch /tmp/x\" contains ';'; hcclctl refuses to connect to it (run --ssh, doctor, probe net)" },
		{ W, "server-id-unsafe", 7, 24, "$.server_list[1].server_id",
		  "server_id \"node 1\" contains a space; hcclctl refuses to connect to it (run --ssh, doctor, probe net)" },
		{ W, "server-id-unsafe", 8, 24, "$.server_list[2].server_id",
		  "server_id \"-oProxyCommand=id\" contains '-' at the start; hcclctl refuses to connect to it (run --ssh, doctor, probe net)" },
	} },
	{ BAD "server_fields_bad.json", 0, 11, {
		{ E, "status-invalid", 2, 15, "$.status",
		  "status \"done\" is not \"completed\"" },
		{ E, "server-count-invalid", 4, 21, "$.server_count",
		  "server_count \"two\" is not a decimal number" },
		{ E, "server-id-empty", 6, 24, "$.server_list[0].server_id",
		  "server_id of server_list[0] is empty" },
		{ E, "host-ip-invalid", 6, 39, "$.server_list[0].host_ip",
		  "host_ip \"xx.xx.xx.xx\" of server_list[0] is a placeholder, not an address" },
		{ E, "server-id-too-long", 7, 24, "$.server_list[1].server_id",
		  "server_id \"a-very-long-server-name-that-goes-on-and...\" is 74 characters long; HCCL allows at most 64" },
		{ E, "host-ip-invalid", 7, 113, "$.server_list[1].host_ip",
		  "host_ip \"node-1\" of server \"a-very-long-server-name-that-goes-on-and-on-past-the-sixty-four-char-limit\" is a host name, not an IP address" },
		{ E, "device-list-empty", 7, 133, "$.server_list[1].device",
		  "server \"a-very-long-server-name-that-goes-on-and-on-past-the-sixty-four-char-limit\" has no devices" },
		{ E, "key-missing", 8, 9, "$.server_list[2].server_id",
		  "missing \"server_id\" in server_list[2] (HCCL EI0017)" },
		{ E, "host-ip-partial", 8, 9, "$.server_list[2].host_ip",
		  "server_list[2] has no host_ip but server_list[0] has one; HCCL needs it on all servers or none" },
		{ E, "value-type", 8, 21, "$.server_list[2].device",
		  "device of server_list[2] must be an array, not an object" },
		{ E, "value-type", 9, 9, "$.server_list[3]",
		  "server_list[3] must be an object, not a string" },
	} },
	{ BAD "server_id_duplicate.json", 0, 1, {
		{ E, "server-id-duplicate", 7, 24, "$.server_list[1].server_id",
		  "server_id \"node_0\" is used twice: server_list[0] and server_list[1] (HCCL EI0014)" },
	} },
	{ BAD "status_initializing.json", 0, 1, {
		{ E, "status-not-ready", 2, 14, "$.status",
		  "status is \"initializing\": the rank table is not ready yet" },
	} },
	{ BAD "superpod_bad.json", 0, 6, {
		{ E, "super-device-id-duplicate", 8, 52, "$.server_list[0].device[1].super_device_id",
		  "super_device_id \"0\" is used 3 times in super pod \"0\": server \"node_0\" device 0, server \"node_0\" device 1 and server \"node_2\" device 0 (HCCL EI0014)" },
		{ E, "super-device-id-invalid", 10, 52, "$.server_list[1].device[0].super_device_id",
		  "super_device_id \"\" of rank \"2\" (server \"node_1\" device 0) is not a decimal 32-bit number (HCCL EI0004)" },
		{ E, "super-pod-interleaved", 12, 9, "$.server_list[2]",
		  "server \"node_2\" of super pod \"0\" comes after servers of another super pod; super pods must not be interleaved in server_list" },
		{ E, "super-pod-id-duplicate", 18, 27, "$.super_pod_list[1].super_pod_id",
		  "super_pod_id \"0\" is used twice: super_pod_list[0] and super_pod_list[1] (HCCL EI0014)" },
		{ E, "super-pod-server-unknown", 18, 88, "$.super_pod_list[1].server_list[1].server_id",
		  "server_id \"node_9\" in super pod \"0\" is not in server_list" },
		{ E, "super-pod-server-duplicate", 18, 113, "$.super_pod_list[1].server_list[2].server_id",
		  "server \"node_0\" is listed in super_pod_list[0] and again in super_pod_list[1]" },
	} },
	{ GOOD "v1.2_no_super_pod_list.json", 0, 1, {
		{ N, "super-pod-list-missing", 1, 1, "$.super_pod_list",
		  "version \"1.2\" table has no super_pod_list" },
	} },
	{ BAD "superpod_missing.json", 0, 2, {
		{ W, "super-pod-server-missing", 7, 9, "$.server_list[1]",
		  "server \"node_1\" is in no super pod of super_pod_list" },
		{ E, "super-pod-id-invalid", 10, 27, "$.super_pod_list[0].super_pod_id",
		  "super_pod_id of super_pod_list[0] is empty" },
	} },
	{ BAD "syntax_missing_comma.json", -22, 1, {
		{ E, "json-syntax", 3, 5, "$",
		  "expected ',' or '}' after object member (HCCL EI0004)" },
	} },
	{ BAD "syntax_trailing_comma.json", -22, 1, {
		{ E, "json-syntax", 5, 82, "$",
		  "trailing comma (HCCL EI0004)" },
	} },
	{ BAD "uneven_devices.json", 0, 1, {
		{ W, "device-count-uneven", 9, 9, "$.server_list[1].device",
		  "server \"node_1\" has 1 device but server \"node_0\" has 2; uneven device counts per server degrade HCCL performance" },
	} },
	{ BAD "v12_keys_in_v10.json", 0, 3, {
		{ W, "v12-key-in-v10", 6, 66, "$.server_list[0].device[0].super_device_id",
		  "super_device_id of rank \"0\" (server \"node_0\" device 0) belongs to version 1.2 (super pods); this table says version \"1.0\"" },
		{ W, "unknown-key", 6, 134, "$.server_list[0].device[0].rank_idd",
		  "unknown key \"rank_idd\" in $.server_list[0].device[0]" },
		{ W, "v12-key-in-v10", 8, 5, "$.super_pod_list",
		  "super_pod_list belongs to version 1.2 (super pods); this table says version \"1.0\"" },
	} },
	{ BAD "v2_bad.json", 0, 12, {
		{ E, "value-not-integer", 3, 19, "$.rank_count",
		  "rank_count \"3\" of the table is a string; version 2.0 needs a JSON integer" },
		{ E, "rank-count-mismatch", 3, 19, "$.rank_count",
		  "rank_count 3 does not match the 2 ranks in rank_list" },
		{ E, "rank-id-gap", 4, 18, "$.rank_list",
		  "rank ids must be 0..1 without gaps; missing 1 (HCCL EI0014)" },
		{ W, "net-type-layer0", 6, 70, "$.rank_list[0].level_list[0].net_type",
		  "net_type \"CLOS\" of rank 0 level_list[0] is on net_layer 0, which HCCL's guide describes as TOPO_FILE_DESC (the server's own topology file); HCCL parses it, its own tests use it" },
		{ E, "addr-invalid", 7, 48, "$.rank_list[0].level_list[0].rank_addr_list[0].addr",
		  "addr \"172.16.0.300\" of rank 0 level_list[0] rank_addr_list[0] is not an IPv4 address" },
		{ E, "rank-id-duplicate", 8, 22, "$.rank_list[1].rank_id",
		  "rank_id 0 is used twice: rank_list[0] (\"pod0\" device 0) and rank_list[1] (\"pod0\" device 1) (HCCL EI0014)" },
		{ E, "local-id-range", 8, 37, "$.rank_list[1].local_id",
		  "local_id 65 of rank 0 is out of range 0..64" },
		{ E, "addr-invalid", 10, 47, "$.rank_list[1].level_list[0].rank_addr_list[0].addr",
		  "addr \"0000dfdf\" of rank 0 level_list[0] rank_addr_list[0] is not an EID (32 hex digits)" },
		{ E, "ports-invalid", 10, 70, "$.rank_list[1].level_list[0].rank_addr_list[0].ports[0]",
		  "port \"x\" of rank 0 level_list[0] rank_addr_list[0] is not \"<die>/<port>\" or \"d2h\"" },
		{ E, "net-layer-invalid", 11, 28, "$.rank_list[1].level_list[1].net_layer",
		  "net_layer 0 of rank 0 level_list[1] does not come after net_layer 0" },
		{ E, "net-type-invalid", 11, 69, "$.rank_list[1].level_list[1].net_type",
		  "net_type \"MESH\" of rank 0 level_list[1] is not \"CLOS\" or \"TOPO_FILE_DESC\", the types HCCL builds a network level from" },
		{ E, "addr-type-invalid", 12, 32, "$.rank_list[1].level_list[1].rank_addr_list[0].addr_type",
		  "addr_type \"IPV5\" of rank 0 level_list[1] rank_addr_list[0] is not EID, IPV4 or IPV6" },
	} },
	{ BAD "v2_layout_bad.json", 0, 8, {
		{ E, "rank-count-invalid", 4, 19, "$.rank_count",
		  "rank_count 70000 of the table is out of range 1..65536" },
		{ W, "port-privileged", 6, 71, "$.rank_list[0].device_port",
		  "device_port 80 of rank 0 is a privileged port (below 1024)" },
		{ E, "level-list-size", 6, 89, "$.rank_list[0].level_list",
		  "level_list of rank 0 has 0 levels; 1 to 8 are allowed" },
		{ E, "port-invalid", 7, 69, "$.rank_list[1].host_port",
		  "host_port 0 of rank 1 is out of range 1..65535" },
		{ E, "net-instance-id-invalid", 8, 50, "$.rank_list[1].level_list[0].net_instance_id",
		  "net_instance_id of rank 1 level_list[0] is empty" },
		{ E, "local-id-duplicate", 12, 37, "$.rank_list[3].local_id",
		  "local_id 1 is used twice: rank_list[2] (\"p\" device 1) and rank_list[3] (\"p\" device 1)" },
		{ E, "device-id-duplicate", 12, 53, "$.rank_list[3].device_id",
		  "device_id 1 is used twice: rank_list[2] (\"p\" device 1) and rank_list[3] (\"p\" device 1) (HCCL EI0014)" },
		{ E, "device-ip-duplicate", 14, 48, "$.rank_list[3].level_list[0].rank_addr_list[0].addr",
		  "level 0 addr \"1.1.1.1\" is used twice: rank_list[2] (\"p\" device 1) and rank_list[3] (\"p\" device 1) (HCCL EI0014)" },
	} },
	{ BAD "v2_too_many_addrs.json", 0, 1, {
		{ E, "rank-addr-list-size", 6, 103, "$.rank_list[0].level_list[0].rank_addr_list",
		  "rank_addr_list of rank 0 level_list[0] has 25 addresses; at most 24 are allowed" },
	} },
	{ BAD "version_missing.json", 0, 1, {
		{ E, "version-missing", 1, 1, "$.version",
		  "missing \"version\"; HCCL then reads the file as the legacy group_list format and fails (HCCL EI0017)" },
	} },
	{ BAD "version_unsupported.json", 0, 1, {
		{ E, "version-unsupported", 3, 16, "$.version",
		  "version \"1.1\" is not supported; HCCL knows \"1.0\", \"1.2\" and \"2.0\" (\"1.1\" is the undocumented heterogeneous format) (HCCL EI0014)" },
	} },
	/* the new formats and rules */
	{ BAD "v2_old_layout.json", 0, 3, {
		{ E, "key-missing", 5, 9, "$.rank_list[0].device_id",
		  "missing \"device_id\" in rank 0 (HCCL EI0017)" },
		{ E, "v2-old-layout", 6, 15, "$.rank_list[0].level_list[0]",
		  "level_list[0] of rank_list[0] is in the older 2.0 layout (level, id, fabric_type, rank_addr_type, rank_addrs, replace_list) of HCCL's early tests; HCCL now reads net_layer, net_instance_id, net_type and rank_addr_list, and a backup rank as local_id 64 with replaced_local_id (2 ranks use it)" },
		{ E, "key-missing", 7, 9, "$.rank_list[1].device_id",
		  "missing \"device_id\" in rank 1 (HCCL EI0017)" },
	} },
	{ BAD "v2_keys_bad.json", 0, 5, {
		{ E, "value-type", 4, 15, "$.detour",
		  "detour \"yes\" is not \"true\" or \"false\"" },
		{ E, "local-id-range", 7, 77, "$.rank_list[0].replaced_local_id",
		  "replaced_local_id 70 of rank 0 is out of range 0..63" },
		{ E, "addr-invalid", 8, 59, "$.rank_list[0].control_plane.addr",
		  "addr \"fd00::1\" of control_plane of rank 0 is not an IPv4 address" },
		{ E, "port-invalid", 8, 85, "$.rank_list[0].control_plane.listen_port",
		  "listen_port 0 of control_plane of rank 0 is out of range 1..65535" },
		{ E, "key-missing", 12, 9, "$.rank_list[1].replaced_local_id",
		  "missing \"replaced_local_id\" in rank 1 (HCCL EI0017)" },
	} },
	{ BAD "vllm_pd_bad.json", 0, 10, {
		{ N, "vllm-pd-table", 1, 1, "$",
		  "this is vllm-ascend's disaggregated-prefill rank table (prefill_device_list, decode_device_list), read by vllm-ascend through DISAGGREGATED_PREFILL_RANK_TABLE_PATH, not by HCCL; it is checked for what vllm-ascend needs" },
		{ E, "device-ip-duplicate", 6, 69, "$.prefill_device_list[1].device_ip",
		  "device_ip \"192.170.100.100\" is used twice: prefill_device_list[0] (server \"172.17.0.6\" device 0) and prefill_device_list[1] (server \"172.17.0.6\" device 1)" },
		{ E, "cluster-id-invalid", 6, 102, "$.prefill_device_list[1].cluster_id",
		  "cluster_id \"one\" of prefill_device_list[1] (server \"172.17.0.6\" device 1) is not a decimal number; vllm-ascend reads it with int()" },
		{ W, "pd-server-id-not-ip", 7, 24, "$.prefill_device_list[2].server_id",
		  "server_id \"prefill-node\" of prefill_device_list[2] is not an IP address; vllm-ascend finds a node's devices by comparing server_id with the node's IP, so no instance takes this one" },
		{ E, "value-not-string", 7, 53, "$.prefill_device_list[2].device_id",
		  "device_id 2 of prefill_device_list[2] is a number, not a string; vllm-ascend copies it into the rank table it gives HCCL, which rejects numbers" },
		{ E, "device-ip-placeholder", 7, 69, "$.prefill_device_list[2].device_ip",
		  "device_ip \"xx.xx.xx.xx\" of prefill_device_list[2] is a placeholder, not an address" },
		{ W, "unknown-key", 7, 103, "$.prefill_device_list[2].rank",
		  "unknown key \"rank\" in $.prefill_device_list[2]" },
		{ E, "cluster-id-duplicate", 10, 102, "$.decode_device_list[0].cluster_id",
		  "cluster_id 1 is used twice: prefill_device_list[0] (server \"172.17.0.6\" device 0) and decode_device_list[0] (server \"172.17.0.7\" device 0)" },
		{ E, "key-missing", 11, 9, "$.decode_device_list[1].cluster_id",
		  "missing \"cluster_id\" in decode_device_list[1]; vllm-ascend stops with a KeyError" },
		{ E, "device-id-duplicate", 11, 51, "$.decode_device_list[1].device_id",
		  "device 0 of server \"172.17.0.6\" is listed twice: prefill_device_list[0] and decode_device_list[1]" },
	} },
	{ BAD "vllm_pd_lists.json", 0, 3, {
		{ N, "vllm-pd-table", 1, 1, "$",
		  "this is vllm-ascend's disaggregated-prefill rank table (prefill_device_list, decode_device_list), read by vllm-ascend through DISAGGREGATED_PREFILL_RANK_TABLE_PATH, not by HCCL; it is checked for what vllm-ascend needs" },
		{ E, "key-missing", 1, 1, "$.decode_device_list",
		  "missing \"decode_device_list\"; vllm-ascend reads both lists and stops with a KeyError" },
		{ W, "pd-list-empty", 3, 28, "$.prefill_device_list",
		  "prefill_device_list is empty: no prefill (kv_producer) instance finds its devices in this table" },
	} },
	{ BAD "global_bad.json", 0, 9, {
		{ N, "global-ranktable", 1, 1, "$",
		  "this is MindCluster ClusterD's global rank table (server_group_list) for a MindIE deployment, not a table HCCL reads; each group's servers and devices are checked as the instance's hccl.json" },
		{ E, "host-ip-invalid", 12, 68, "$.server_group_list[2].server_list[0].server_ip",
		  "server_ip \"pod-7\" of server \"10.0.0.1\" is a host name, not an IP address" },
		{ E, "device-id-duplicate", 13, 40, "$.server_group_list[2].server_list[0].device[0].device_id",
		  "device 1 of server \"10.0.0.1\" is in two groups: group \"2\" (server_group_list[1]) server \"10.0.0.1\" device 1 and group \"3\" (server_group_list[2]) server \"10.0.0.1\" device 1" },
		{ E, "device-ip-duplicate", 13, 58, "$.server_group_list[2].server_list[0].device[0].device_ip",
		  "device_ip \"192.168.1.11\" is in two groups: group \"2\" (server_group_list[1]) server \"10.0.0.1\" device 1 and group \"3\" (server_group_list[2]) server \"10.0.0.1\" device 1" },
		{ E, "group-id-invalid", 14, 23, "$.server_group_list[3].group_id",
		  "group_id \"g4\" of server_group_list[3] is not a decimal number" },
		{ E, "rank-id-gap", 15, 26, "$.server_group_list[3].server_list",
		  "rank ids must be 0..0 without gaps; missing 0" },
		{ E, "device-ip-placeholder", 16, 58, "$.server_group_list[3].server_list[0].device[0].device_ip",
		  "device_ip \"xx.xx.xx.xx\" of rank \"1\" (server \"10.0.0.2\" device 0) is a placeholder, not an address" },
		{ E, "rank-id-range", 16, 110, "$.server_group_list[3].server_list[0].device[0].rank_id",
		  "rank_id \"1\" of server \"10.0.0.2\" device 0 is out of range: 1 ranks need ids 0..0" },
		{ E, "group-id-duplicate", 17, 23, "$.server_group_list[4].group_id",
		  "group_id \"3\" is used twice: server_group_list[2] and server_group_list[4]" },
	} },
	/* tests/data/ranktables/real: what each README verdict comes from */
	{ REAL "ascend_pd_tdm_pd_disagg_v1.2_2dev.json", 0, 1, {
		{ N, "vllm-pd-table", 1, 1, "$",
		  "this is vllm-ascend's disaggregated-prefill rank table (prefill_device_list, decode_device_list), read by vllm-ascend through DISAGGREGATED_PREFILL_RANK_TABLE_PATH, not by HCCL; it is checked for what vllm-ascend needs" },
	} },
	{ REAL "mindspore_st_msrun_rank_table_4p_wrong_host_ip.json", 0, 5, {
		{ W, "server-id-placeholder", 1, 71, "$.server_list[0].server_id",
		  "server_id \"10.*.*.*\" is a placeholder, not a server's address; HCCL only compares it, but hcclctl cannot connect to it" },
		{ W, "device-ip-placeholder", 1, 126, "$.server_list[0].device[0].device_ip",
		  "device_ip \"192.1.*.6\" of rank \"3\" (server \"10.*.*.*\" device 0) is a placeholder, not an address; with one server no traffic uses it, but fill it in before the table grows" },
		{ W, "device-ip-placeholder", 1, 188, "$.server_list[0].device[1].device_ip",
		  "device_ip \"192.2.*.6\" of rank \"2\" (server \"10.*.*.*\" device 1) is a placeholder, not an address; with one server no traffic uses it, but fill it in before the table grows" },
		{ W, "device-ip-placeholder", 1, 250, "$.server_list[0].device[2].device_ip",
		  "device_ip \"192.3.*.6\" of rank \"0\" (server \"10.*.*.*\" device 2) is a placeholder, not an address; with one server no traffic uses it, but fill it in before the table grows" },
		{ W, "device-ip-placeholder", 1, 312, "$.server_list[0].device[3].device_ip",
		  "device_ip \"192.4.*.6\" of rank \"1\" (server \"10.*.*.*\" device 3) is a placeholder, not an address; with one server no traffic uses it, but fill it in before the table grows" },
	} },
	{ REAL "hccl_en_doc_v1.2_a3_superpod_4srv_backup_device_ip.json", 0, 0, { { 0 } } },
	{ REAL "mindformers_gpt2_doc_v1.0_2srv_16dev_xx_server_id_dup_device_ip.json", 0, 7, {
		{ W, "server-id-placeholder", 6, 26, "$.server_list[0].server_id",
		  "server_id \"xx.xx.xx.xx\" is a placeholder, not a server's address; HCCL only compares it, but hcclctl cannot connect to it" },
		{ W, "server-id-placeholder", 36, 26, "$.server_list[1].server_id",
		  "server_id \"xx.xx.xx.xx\" is a placeholder, not a server's address; HCCL only compares it, but hcclctl cannot connect to it" },
		{ E, "server-id-duplicate", 36, 26, "$.server_list[1].server_id",
		  "server_id \"xx.xx.xx.xx\" is used twice: server_list[0] and server_list[1] (HCCL EI0014)" },
		{ E, "device-ip-duplicate", 39, 52, "$.server_list[1].device[0].device_ip",
		  "device_ip \"192.168.0.1\" is used twice: server \"xx.xx.xx.xx\" device 4 and server \"xx.xx.xx.xx\" device 0 (HCCL EI0014)" },
		{ E, "device-ip-duplicate", 42, 52, "$.server_list[1].device[1].device_ip",
		  "device_ip \"192.168.1.1\" is used twice: server \"xx.xx.xx.xx\" device 5 and server \"xx.xx.xx.xx\" device 1 (HCCL EI0014)" },
		{ E, "device-ip-duplicate", 45, 52, "$.server_list[1].device[2].device_ip",
		  "device_ip \"192.168.2.1\" is used twice: server \"xx.xx.xx.xx\" device 6 and server \"xx.xx.xx.xx\" device 2 (HCCL EI0014)" },
		{ E, "device-ip-duplicate", 48, 52, "$.server_list[1].device[3].device_ip",
		  "device_ip \"192.168.3.1\" is used twice: server \"xx.xx.xx.xx\" device 7 and server \"xx.xx.xx.xx\" device 3 (HCCL EI0014)" },
	} },
	{ REAL "mindcluster_doc_global_ranktable_a2_server_group_list_template.json", 0, 7, {
		{ N, "global-ranktable", 1, 1, "$",
		  "this is MindCluster ClusterD's global rank table (server_group_list) for a MindIE deployment, not a table HCCL reads; each group's servers and devices are checked as the instance's hccl.json" },
		{ E, "device-id-invalid", 1, 175, "$.server_group_list[0].server_list[0].device[0].device_id",
		  "device_id \"x\" of rank \"x\" (server \"xx.xx.xx.xx\" device[0]) is not a decimal number" },
		{ W, "device-ip-placeholder", 1, 193, "$.server_group_list[0].server_list[0].device[0].device_ip",
		  "device_ip \"xx.xx.xx.xx\" of rank \"x\" (server \"xx.xx.xx.xx\" device[0]) is a placeholder, not an address; with one server no traffic uses it, but fill it in before the table grows" },
		{ E, "device-id-invalid", 1, 229, "$.server_group_list[0].server_list[0].device[0].device_logical_id",
		  "device_logical_id \"x\" of rank \"x\" (server \"xx.xx.xx.xx\" device[0]) is not a decimal number" },
		{ E, "rank-id-invalid", 1, 245, "$.server_group_list[0].server_list[0].device[0].rank_id",
		  "rank_id \"x\" of server \"xx.xx.xx.xx\" device[0] is not a decimal number" },
		{ W, "server-id-placeholder", 1, 267, "$.server_group_list[0].server_list[0].server_id",
		  "server_id \"xx.xx.xx.xx\" is a placeholder, not a server's address; HCCL only compares it, but hcclctl cannot connect to it" },
		{ E, "host-ip-invalid", 1, 295, "$.server_group_list[0].server_list[0].server_ip",
		  "server_ip \"xx.xx.xx.xx\" of server \"xx.xx.xx.xx\" is a placeholder, not an address" },
	} },
	{ REAL "hcomm_st_ranktable_builder_v2.0_RankTable2p_detour_control_plane.json", 0, 4, {
		{ W, "net-type-layer0", 18, 23, "$.rank_list[0].level_list[0].net_type",
		  "net_type \"CLOS\" of rank 0 level_list[0] is on net_layer 0, which HCCL's guide describes as TOPO_FILE_DESC (the server's own topology file); HCCL parses it, its own tests use it" },
		{ N, "control-plane-misplaced", 34, 11, "$.rank_list[0].level_list[0].control_plane",
		  "control_plane is inside rank 0 level_list[0]; HCCL reads control_plane from the rank, so this one is not used" },
		{ W, "net-type-layer0", 52, 23, "$.rank_list[1].level_list[0].net_type",
		  "net_type \"CLOS\" of rank 1 level_list[0] is on net_layer 0, which HCCL's guide describes as TOPO_FILE_DESC (the server's own topology file); HCCL parses it, its own tests use it" },
		{ N, "control-plane-misplaced", 68, 11, "$.rank_list[1].level_list[0].control_plane",
		  "control_plane is inside rank 1 level_list[0]; HCCL reads control_plane from the rank, so this one is not used" },
	} },
	{ REAL "checkpoint_engine_ascend_v1.0_1srv_4dev_device_port.json", 0, 0, { { 0 } } },
	{ REAL "issue_vllm_ascend_2498_llmdatadist_link_table_from_log_v1.2.json", 0, 1, {
		{ N, "super-pod-list-missing", 1, 1, "$.super_pod_list",
		  "version \"1.2\" table has no super_pod_list" },
	} },
	{ BAD "ge_cluster_bad.json", 0, 7, {
		{ N, "ge-cluster-config", 1, 1, "$",
		  "this is GE's cluster_config.json (RankTable, HcclCommConfig) for compiling a graph offline, not a table HCCL reads at run time; its RankTable is checked as a 1.x table that needs no device_ip" },
		{ E, "version-unsupported", 4, 20, "$.RankTable.version",
		  "version \"2.0\" of RankTable is not \"1.0\" or \"1.2\"" },
		{ E, "rank-id-gap", 6, 24, "$.RankTable.server_list",
		  "rank ids must be 0..1 without gaps; missing 1" },
		{ E, "rank-id-duplicate", 8, 78, "$.RankTable.server_list[1].device[0].rank_id",
		  "rank_id \"0\" is used twice: server \"node_0\" device 0 and server \"node_1\" device 0" },
		{ E, "key-missing", 11, 23, "$.HcclCommConfig.hcclCommName",
		  "missing \"hcclCommName\" in HcclCommConfig" },
		{ W, "unknown-key", 12, 9, "$.HcclCommConfig.hcclCommNmae",
		  "unknown key \"hcclCommNmae\" in $.HcclCommConfig" },
		{ W, "unknown-key", 14, 5, "$.SubCommConfig",
		  "unknown key \"SubCommConfig\" in $" },
	} },
	{ BAD "legacy_910_bad.json", 0, 8, {
		{ W, "legacy-format", 1, 1, "$",
		  "this is the legacy group_list format of the first Atlas 910 tables (no version, a rank_id per instance); HCCL still reads it, but its guide no longer documents it and newer tools may not read it" },
		{ E, "device-count-mismatch", 8, 27, "$.group_list[0].device_num",
		  "device_num \"4\" of group_list[0] does not match the 5 devices listed in the group" },
		{ E, "server-count-mismatch", 9, 27, "$.group_list[0].server_num",
		  "server_num \"1\" of group_list[0] does not match the 2 servers its instances name (HCCL EI0014)" },
		{ E, "instance-count-mismatch", 11, 31, "$.group_list[0].instance_count",
		  "instance_count \"3\" of group_list[0] does not match the 5 instances in instance_list" },
		{ E, "rank-id-duplicate", 14, 89, "$.group_list[0].instance_list[1].rank_id",
		  "rank_id \"0\" is used twice: group_list[0].instance_list[0] and group_list[0].instance_list[1] (HCCL EI0014)" },
		{ E, "rank-id-invalid", 15, 89, "$.group_list[0].instance_list[2].rank_id",
		  "rank_id \"r2\" of group_list[0].instance_list[2] is not a decimal number (HCCL EI0014)" },
		{ E, "rank-id-range", 16, 89, "$.group_list[0].instance_list[3].rank_id",
		  "rank_id \"9\" of group_list[0].instance_list[3] is out of range: 5 instances need ids 0..4 (HCCL EI0014)" },
		{ E, "key-missing", 17, 17, "$.group_list[0].instance_list[4].rank_id",
		  "missing \"rank_id\" in group_list[0].instance_list[4] (HCCL EI0017)" },
	} },
	{ REAL "ascend_tools_aisbench_rank_table_16p_64_66_v1.0_2srv.json", 0, 0, { { 0 } } },
	{ REAL "dvt_mindspore_configs_rank_table_8p_legacy_group_list_board_id.json", 0, 1, {
		{ W, "legacy-format", 1, 1, "$",
		  "this is the legacy group_list format of the first Atlas 910 tables (no version, a rank_id per instance); HCCL still reads it, but its guide no longer documents it and newer tools may not read it" },
	} },
	{ REAL "ge_doc_cluster_config_v1.2_RankTable_wrapper_no_device_ip.json", 0, 2, {
		{ N, "ge-cluster-config", 1, 1, "$",
		  "this is GE's cluster_config.json (RankTable, HcclCommConfig) for compiling a graph offline, not a table HCCL reads at run time; its RankTable is checked as a 1.x table that needs no device_ip" },
		{ N, "super-pod-list-missing", 2, 18, "$.RankTable.super_pod_list",
		  "version \"1.2\" table has no super_pod_list" },
	} },
	{ REAL "mindcluster_doc_faultdiag_log_hccl_json_mindie_ep_v1.2_a3_16dev.json", 0, 0, { { 0 } } },
	{ REAL "mindcluster_doc_hccl_json_a2_commented_elided.json", -22, 1, {
		{ E, "json-syntax", 2, 29, "$",
		  "comments are not allowed in JSON (HCCL EI0004)" },
	} },
	{ REAL "mindocr_doc_custom_dataset_v1.0_1srv_copy_prefix_rank_2_3.json", -22, 1, {
		{ E, "json-syntax", 1, 1, "$",
		  "invalid literal 'Copy' (strings need double quotes) (HCCL EI0004)" },
	} },
	{ REAL "mindocr_doc_hccl_tools_8p_127.0.0.1_v1.0_1srv.json", 0, 0, { { 0 } } },
	{ REAL "mindspore_docs_adasum_16pcs_v1.0_2srv_same_server_id.json", 0, 3, {
		{ W, "server-id-placeholder", 6, 20, "$.server_list[0].server_id",
		  "server_id \"10.*.*.*\" is a placeholder, not a server's address; HCCL only compares it, but hcclctl cannot connect to it" },
		{ W, "server-id-placeholder", 19, 20, "$.server_list[1].server_id",
		  "server_id \"10.*.*.*\" is a placeholder, not a server's address; HCCL only compares it, but hcclctl cannot connect to it" },
		{ E, "server-id-duplicate", 19, 20, "$.server_list[1].server_id",
		  "server_id \"10.*.*.*\" is used twice: server_list[0] and server_list[1] (HCCL EI0014)" },
	} },
	{ REAL "mindspore_docs_resilience_4pcs_v1.0_1srv_placeholder_server_id.json", 0, 1, {
		{ W, "server-id-placeholder", 6, 26, "$.server_list[0].server_id",
		  "server_id \"10.*.*.*\" is a placeholder, not a server's address; HCCL only compares it, but hcclctl cannot connect to it" },
	} },
	{ REAL "mindspore_docs_startup_16pcs_v1.0_2srv_placeholders.json", 0, 19, {
		{ W, "server-id-placeholder", 6, 20, "$.server_list[0].server_id",
		  "server_id \"10.*.*.*\" is a placeholder, not a server's address; HCCL only compares it, but hcclctl cannot connect to it" },
		{ E, "device-ip-placeholder", 8, 40, "$.server_list[0].device[0].device_ip",
		  "device_ip \"192.1.*.6\" of rank \"0\" (server \"10.*.*.*\" device 0) is a placeholder, not an address" },
		{ E, "device-ip-placeholder", 9, 40, "$.server_list[0].device[1].device_ip",
		  "device_ip \"192.2.*.6\" of rank \"1\" (server \"10.*.*.*\" device 1) is a placeholder, not an address" },
		{ E, "device-ip-placeholder", 10, 40, "$.server_list[0].device[2].device_ip",
		  "device_ip \"192.3.*.6\" of rank \"2\" (server \"10.*.*.*\" device 2) is a placeholder, not an address" },
		{ E, "device-ip-placeholder", 11, 40, "$.server_list[0].device[3].device_ip",
		  "device_ip \"192.4.*.6\" of rank \"3\" (server \"10.*.*.*\" device 3) is a placeholder, not an address" },
		{ E, "device-ip-placeholder", 12, 40, "$.server_list[0].device[4].device_ip",
		  "device_ip \"192.1.*.7\" of rank \"4\" (server \"10.*.*.*\" device 4) is a placeholder, not an address" },
		{ E, "device-ip-placeholder", 13, 40, "$.server_list[0].device[5].device_ip",
		  "device_ip \"192.2.*.7\" of rank \"5\" (server \"10.*.*.*\" device 5) is a placeholder, not an address" },
		{ E, "device-ip-placeholder", 14, 40, "$.server_list[0].device[6].device_ip",
		  "device_ip \"192.3.*.7\" of rank \"6\" (server \"10.*.*.*\" device 6) is a placeholder, not an address" },
		{ E, "device-ip-placeholder", 15, 40, "$.server_list[0].device[7].device_ip",
		  "device_ip \"192.4.*.7\" of rank \"7\" (server \"10.*.*.*\" device 7) is a placeholder, not an address" },
		{ W, "server-id-placeholder", 19, 20, "$.server_list[1].server_id",
		  "server_id \"10.*.*.*\" is a placeholder, not a server's address; HCCL only compares it, but hcclctl cannot connect to it" },
		{ E, "server-id-duplicate", 19, 20, "$.server_list[1].server_id",
		  "server_id \"10.*.*.*\" is used twice: server_list[0] and server_list[1] (HCCL EI0014)" },
		{ E, "device-ip-placeholder", 21, 40, "$.server_list[1].device[0].device_ip",
		  "device_ip \"192.1.*.8\" of rank \"8\" (server \"10.*.*.*\" device 0) is a placeholder, not an address" },
		{ E, "device-ip-placeholder", 22, 40, "$.server_list[1].device[1].device_ip",
		  "device_ip \"192.2.*.8\" of rank \"9\" (server \"10.*.*.*\" device 1) is a placeholder, not an address" },
		{ E, "device-ip-placeholder", 23, 40, "$.server_list[1].device[2].device_ip",
		  "device_ip \"192.3.*.8\" of rank \"10\" (server \"10.*.*.*\" device 2) is a placeholder, not an address" },
		{ E, "device-ip-placeholder", 24, 40, "$.server_list[1].device[3].device_ip",
		  "device_ip \"192.4.*.8\" of rank \"11\" (server \"10.*.*.*\" device 3) is a placeholder, not an address" },
		{ E, "device-ip-placeholder", 25, 40, "$.server_list[1].device[4].device_ip",
		  "device_ip \"192.1.*.9\" of rank \"12\" (server \"10.*.*.*\" device 4) is a placeholder, not an address" },
		{ E, "device-ip-placeholder", 26, 40, "$.server_list[1].device[5].device_ip",
		  "device_ip \"192.2.*.9\" of rank \"13\" (server \"10.*.*.*\" device 5) is a placeholder, not an address" },
		{ E, "device-ip-placeholder", 27, 40, "$.server_list[1].device[6].device_ip",
		  "device_ip \"192.3.*.9\" of rank \"14\" (server \"10.*.*.*\" device 6) is a placeholder, not an address" },
		{ E, "device-ip-placeholder", 28, 40, "$.server_list[1].device[7].device_ip",
		  "device_ip \"192.4.*.9\" of rank \"15\" (server \"10.*.*.*\" device 7) is a placeholder, not an address" },
	} },
	{ REAL "mindspore_docs_startup_cross_cluster_16pcs_v1.0_cluster_list.json", 0, 18, {
		{ W, "server-id-placeholder", 6, 20, "$.server_list[0].server_id",
		  "server_id \"server_0_10.*.*.*\" is a placeholder, not a server's address; HCCL only compares it, but hcclctl cannot connect to it" },
		{ E, "device-ip-placeholder", 9, 41, "$.server_list[0].device[0].device_ip",
		  "device_ip \"192.1.*.6\" of rank \"0\" (server \"server_0_10.*.*.*\" device 0) is a placeholder, not an address" },
		{ E, "device-ip-placeholder", 10, 41, "$.server_list[0].device[1].device_ip",
		  "device_ip \"192.2.*.6\" of rank \"1\" (server \"server_0_10.*.*.*\" device 1) is a placeholder, not an address" },
		{ E, "device-ip-placeholder", 11, 41, "$.server_list[0].device[2].device_ip",
		  "device_ip \"192.3.*.6\" of rank \"2\" (server \"server_0_10.*.*.*\" device 2) is a placeholder, not an address" },
		{ E, "device-ip-placeholder", 12, 41, "$.server_list[0].device[3].device_ip",
		  "device_ip \"192.4.*.6\" of rank \"3\" (server \"server_0_10.*.*.*\" device 3) is a placeholder, not an address" },
		{ E, "device-ip-placeholder", 13, 41, "$.server_list[0].device[4].device_ip",
		  "device_ip \"192.1.*.7\" of rank \"4\" (server \"server_0_10.*.*.*\" device 4) is a placeholder, not an address" },
		{ E, "device-ip-placeholder", 14, 41, "$.server_list[0].device[5].device_ip",
		  "device_ip \"192.2.*.7\" of rank \"5\" (server \"server_0_10.*.*.*\" device 5) is a placeholder, not an address" },
		{ E, "device-ip-placeholder", 15, 41, "$.server_list[0].device[6].device_ip",
		  "device_ip \"192.3.*.7\" of rank \"6\" (server \"server_0_10.*.*.*\" device 6) is a placeholder, not an address" },
		{ E, "device-ip-placeholder", 16, 41, "$.server_list[0].device[7].device_ip",
		  "device_ip \"192.4.*.7\" of rank \"7\" (server \"server_0_10.*.*.*\" device 7) is a placeholder, not an address" },
		{ W, "server-id-placeholder", 21, 20, "$.server_list[1].server_id",
		  "server_id \"server_1_10.*.*.*\" is a placeholder, not a server's address; HCCL only compares it, but hcclctl cannot connect to it" },
		{ E, "device-ip-placeholder", 24, 41, "$.server_list[1].device[0].device_ip",
		  "device_ip \"192.1.*.8\" of rank \"8\" (server \"server_1_10.*.*.*\" device 0) is a placeholder, not an address" },
		{ E, "device-ip-placeholder", 25, 41, "$.server_list[1].device[1].device_ip",
		  "device_ip \"192.2.*.8\" of rank \"9\" (server \"server_1_10.*.*.*\" device 1) is a placeholder, not an address" },
		{ E, "device-ip-placeholder", 26, 41, "$.server_list[1].device[2].device_ip",
		  "device_ip \"192.3.*.8\" of rank \"10\" (server \"server_1_10.*.*.*\" device 2) is a placeholder, not an address" },
		{ E, "device-ip-placeholder", 27, 41, "$.server_list[1].device[3].device_ip",
		  "device_ip \"192.4.*.8\" of rank \"11\" (server \"server_1_10.*.*.*\" device 3) is a placeholder, not an address" },
		{ E, "device-ip-placeholder", 28, 41, "$.server_list[1].device[4].device_ip",
		  "device_ip \"192.1.*.9\" of rank \"12\" (server \"server_1_10.*.*.*\" device 4) is a placeholder, not an address" },
		{ E, "device-ip-placeholder", 29, 41, "$.server_list[1].device[5].device_ip",
		  "device_ip \"192.2.*.9\" of rank \"13\" (server \"server_1_10.*.*.*\" device 5) is a placeholder, not an address" },
		{ E, "device-ip-placeholder", 30, 41, "$.server_list[1].device[6].device_ip",
		  "device_ip \"192.3.*.9\" of rank \"14\" (server \"server_1_10.*.*.*\" device 6) is a placeholder, not an address" },
		{ E, "device-ip-placeholder", 31, 41, "$.server_list[1].device[7].device_ip",
		  "device_ip \"192.4.*.9\" of rank \"15\" (server \"server_1_10.*.*.*\" device 7) is a placeholder, not an address" },
	} },
	{ REAL "mindspore_tutorial_rank_table_2pcs_v1.0_1srv_host_nic_ip.json", 0, 3, {
		{ W, "server-id-placeholder", 6, 26, "$.server_list[0].server_id",
		  "server_id \"10.*.*.*\" is a placeholder, not a server's address; HCCL only compares it, but hcclctl cannot connect to it" },
		{ W, "device-ip-placeholder", 8, 48, "$.server_list[0].device[0].device_ip",
		  "device_ip \"192.1.*.6\" of rank \"0\" (server \"10.*.*.*\" device 0) is a placeholder, not an address; with one server no traffic uses it, but fill it in before the table grows" },
		{ W, "device-ip-placeholder", 9, 48, "$.server_list[0].device[1].device_ip",
		  "device_ip \"192.2.*.6\" of rank \"1\" (server \"10.*.*.*\" device 1) is a placeholder, not an address; with one server no traffic uses it, but fill it in before the table grows" },
	} },
	{ REAL "paddle_test_ascend_group_v1.0_1srv_4dev_status_twice.json", 0, 1, {
		{ N, "duplicate-key-same", 33, 5, "$.status",
		  "duplicate key \"status\" (first at line 2, column 5) with the same value; harmless, whichever one a parser keeps" },
	} },
};

static char *slurp(const char *path, size_t *len)
{
	char *buf = NULL, err[RT_ERRLEN];
	int rc = rt_read_file(path, 1 << 26, &buf, len, err, sizeof(err));
	if (rc)
		print_error("%s\n", err);
	assert_int_equal(rc, 0);
	return buf;
}

static int load_file(const char *path, struct rt_table *t, struct rt_diags *d)
{
	size_t len;
	char *buf = slurp(path, &len), err[RT_ERRLEN];
	int rc = rt_table_load(t, path, buf, len, d, err, sizeof(err));
	free(buf);
	return rc;
}

static int load_text(const char *text, struct rt_table *t, struct rt_diags *d)
{
	char err[RT_ERRLEN];
	return rt_table_load(t, "inline", text, strlen(text), d, err, sizeof(err));
}

static void dump(const struct rt_diags *d)
{
	for (size_t i = 0; i < d->n; i++)
		print_error("  %u:%u %s [%s] %s: %s\n", d->v[i].line, d->v[i].col,
			    rt_severity_name(d->v[i].sev), d->v[i].code, d->v[i].path, d->v[i].msg);
}

static void check_want(const struct rt_diag *g, const struct want *w)
{
	assert_string_equal(g->code, w->code);
	assert_int_equal(g->sev, w->sev);
	assert_string_equal(g->msg, w->msg);
	assert_string_equal(g->path, w->path);
	assert_int_equal(g->line, w->line);
	assert_int_equal(g->col, w->col);
}

static void test_bad_files(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(bad_cases) / sizeof(bad_cases[0]); i++) {
		const struct bad_case *bc = &bad_cases[i];
		char path[256];
		struct rt_table t;
		struct rt_diags d = { 0 };
		snprintf(path, sizeof(path), "%s", bc->file);
		int rc = load_file(path, &t, &d);
		if (rc != bc->rc || d.n != bc->n) {
			print_error("%s: rc %d, %zu findings\n", bc->file, rc, d.n);
			dump(&d);
		}
		assert_int_equal(rc, bc->rc);
		assert_int_equal(d.n, bc->n);
		for (size_t k = 0; k < d.n; k++) {
			if (strcmp(d.v[k].msg, bc->w[k].msg) || d.v[k].line != bc->w[k].line ||
			    d.v[k].col != bc->w[k].col)
				print_error("%s finding %zu\n", bc->file, k);
			check_want(&d.v[k], &bc->w[k]);
			/* every finding's code is a listed rule with that severity (an error of a
			 * one-server rule is a warning in a one-server table) */
			const struct rt_rule *r = rt_rules;
			while (r->code && strcmp(r->code, d.v[k].code))
				r++;
			assert_non_null(r->code);
			if (r->sev != d.v[k].sev)
				assert_true((r->flags & RT_RULE_ONE_SERVER) && r->sev == E &&
					    d.v[k].sev == W);
		}
		rt_table_release(&t);
		rt_diags_release(&d);
	}
}

/* Every rule is exercised by some bad file (or, for topology-file, by a fixture). */
static void test_rules_covered(void **state)
{
	(void)state;
	for (const struct rt_rule *r = rt_rules; r->code; r++) {
		int seen = !strcmp(r->code, "topology-file");
		for (size_t i = 0; !seen && i < sizeof(bad_cases) / sizeof(bad_cases[0]); i++)
			for (size_t k = 0; k < bad_cases[i].n; k++)
				seen |= !strcmp(bad_cases[i].w[k].code, r->code);
		if (!seen)
			print_error("rule %s has no test\n", r->code);
		assert_true(seen);
		/* kebab-case, a summary, and unique */
		for (const char *p = r->code; *p; p++)
			assert_true((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '-');
		assert_non_null(r->summary);
		for (const struct rt_rule *q = r + 1; q->code; q++)
			assert_string_not_equal(q->code, r->code);
	}
}

struct fixture {
	const char *file;
	enum rt_format fmt;
	size_t nranks, nservers, nwarn;
	const char *warn; /* the one expected warning code, if any */
};

static const struct fixture fixtures[] = {
	{ "hccl_doc_legacy_group_list_template2_no_version.json", RT_FMT_LEGACY, 2, 2, 1,
	  "legacy-format" },
	{ "hccl_doc_v1.0_300iduo_2srv_2dev.json", RT_FMT_V1_0, 4, 2, 0, NULL },
	{ "hccl_doc_v1.0_a2_2srv_2dev_device_port.json", RT_FMT_V1_0, 4, 2, 0, NULL },
	{ "hccl_doc_v1.0_a3_aiserver_mode_host_ip_port.json", RT_FMT_V1_0, 4, 2, 0, NULL },
	{ "hccl_doc_v1.0_atlas910_2srv_2dev.json", RT_FMT_V1_0, 4, 2, 0, NULL },
	{ "hccl_doc_v1.2_a3_superpod_2pods_4srv_4dev.json", RT_FMT_V1_2, 16, 4, 0, NULL },
	{ "hccl_doc_v2.0_a5_eid_2rank.json", RT_FMT_V2_0, 2, 1, 0, NULL },
	{ "hccl_doc_v2.0_a5_ipv4_4rank.json", RT_FMT_V2_0, 4, 2, 0, NULL },
};

static void test_fixtures(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(fixtures) / sizeof(fixtures[0]); i++) {
		const struct fixture *f = &fixtures[i];
		char path[256];
		struct rt_table t;
		struct rt_diags d = { 0 };
		snprintf(path, sizeof(path), FIX "%s", f->file);
		assert_int_equal(load_file(path, &t, &d), 0);
		if (d.n != f->nwarn) {
			print_error("%s\n", f->file);
			dump(&d);
		}
		assert_int_equal(d.nerrors, 0);
		assert_int_equal(d.nwarnings, f->nwarn);
		if (f->warn)
			assert_string_equal(d.v[0].code, f->warn);
		assert_int_equal(t.format, f->fmt);
		assert_int_equal(t.nranks, f->nranks);
		assert_int_equal(t.nservers, f->nservers);
		assert_string_equal(t.status, "completed");
		rt_table_release(&t);
		rt_diags_release(&d);
	}
	/* The topology file is recognised, and is one located error. */
	struct rt_table t;
	struct rt_diags d = { 0 };
	assert_int_equal(load_file(FIX "hccl_doc_topofile_v2.0_a5_2npu.json", &t, &d), 0);
	assert_int_equal(t.format, RT_FMT_TOPO);
	assert_int_equal(d.n, 1);
	check_want(&d.v[0], &(struct want){ E, "topology-file", 1, 1, "$",
					    "this is a version 2.0 topology file (peer_list, "
					    "edge_list), not a rank table" });
	assert_string_equal(d.v[0].hint,
			    "HCCL reads the topology file itself from /usr/local/Ascend/driver/"
			    "topo/; pass the rank table (the file with rank_list) instead");
	assert_string_equal(t.version, "2.0");
	rt_table_release(&t);
	rt_diags_release(&d);
}

static void test_good_files(void **state)
{
	(void)state;
	static const char *const files[] = { "mindcluster_a3_v1.2_16dev.json",
					     "tensorflow_v1.0_empty_device_ip_8dev.json",
					     "v1.0_ipv6_bom_crlf.json" };
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char path[256];
		struct rt_table t;
		struct rt_diags d = { 0 };
		snprintf(path, sizeof(path), GOOD "%s", files[i]);
		assert_int_equal(load_file(path, &t, &d), 0);
		if (d.n)
			dump(&d);
		assert_int_equal(d.n, 0);
		rt_table_release(&t);
		rt_diags_release(&d);
	}
}

/* Where hcclctl connects, server_id findings about its own SSH are errors; nothing else. */
static void test_connect(void **state)
{
	(void)state;
	struct rt_table t;
	struct rt_diags d = { 0 };
	assert_int_equal(load_file(BAD "server_id_unsafe.json", &t, &d), 0);
	assert_int_equal(d.nerrors, 0);
	assert_int_equal(d.nwarnings, 3);
	assert_int_equal(rt_diags_connect(&d), 3);
	assert_int_equal(d.nerrors, 3);
	assert_int_equal(d.nwarnings, 0);
	for (size_t i = 0; i < d.n; i++)
		assert_int_equal(d.v[i].sev, E);
	assert_int_equal(rt_diags_connect(&d), 0);
	rt_table_release(&t);
	rt_diags_release(&d);

	/* a placeholder server_id is raised, placeholder device IPs are not */
	assert_int_equal(load_file(REAL "mindspore_st_msrun_rank_table_4p_wrong_host_ip.json", &t,
				   &d),
			 0);
	assert_int_equal(d.nwarnings, 5);
	assert_int_equal(rt_diags_connect(&d), 1);
	assert_int_equal(d.nerrors, 1);
	assert_string_equal(d.v[0].code, "server-id-placeholder");
	assert_int_equal(d.v[0].sev, E);
	assert_int_equal(d.nwarnings, 4);
	rt_table_release(&t);
	rt_diags_release(&d);

	const struct rt_rule *r = rt_rule_find("server-id-unsafe");
	assert_non_null(r);
	assert_int_equal(r->sev, W);
	assert_true(r->flags & RT_RULE_CONNECT);
	assert_null(rt_rule_find("no-such-rule"));
}

/* The tables other programs read: named, modelled, checked without HCCL codes. */
/* The first Atlas 910 group_list format: one server of eight one-device instances, ranks
 * numbered by each instance's rank_id; GE's cluster_config: the inner table, no device IPs. */
static void test_model_legacy_ge(void **state)
{
	(void)state;
	struct rt_table t;
	struct rt_diags d = { 0 };
	assert_int_equal(load_file(REAL "dvt_mindspore_configs_rank_table_8p_legacy_group_list_board_id.json",
				   &t, &d),
			 0);
	assert_int_equal(t.format, RT_FMT_LEGACY);
	assert_int_equal(t.nservers, 1);
	assert_int_equal(t.nranks, 8);
	assert_string_equal(t.servers[0].server_id, "10.155.170.62");
	assert_int_equal(t.servers[0].nranks, 8);
	for (size_t i = 0; i < 8; i++) {
		assert_int_equal(t.ranks[i].rank_id, (long)i);
		assert_int_equal(t.ranks[i].device_id, (long)i);
	}
	assert_string_equal(t.ranks[4].device_ip, "192.112.100.120");
	rt_table_release(&t);
	rt_diags_release(&d);

	/* rank ids out of listing order are kept as written */
	assert_int_equal(load_text("{\"group_count\":\"1\",\"status\":\"completed\",\"group_list\":[{"
				   "\"device_num\":\"2\",\"server_num\":\"1\",\"instance_count\":\"2\","
				   "\"instance_list\":[{\"devices\":[{\"device_id\":\"1\"}],\"rank_id\":\"1\","
				   "\"server_id\":\"h\"},{\"devices\":[{\"device_id\":\"0\"}],"
				   "\"rank_id\":\"0\",\"server_id\":\"h\"}]}]}",
				   &t, &d),
			 0);
	assert_int_equal(d.nerrors, 0);
	assert_int_equal(t.nservers, 1);
	assert_int_equal(t.ranks[0].rank_id, 1);
	assert_int_equal(t.ranks[1].rank_id, 0);
	rt_table_release(&t);
	rt_diags_release(&d);

	assert_int_equal(load_file(REAL "ge_doc_cluster_config_v1.2_RankTable_wrapper_no_device_ip.json",
				   &t, &d),
			 0);
	assert_int_equal(t.format, RT_FMT_GE_CLUSTER);
	assert_string_equal(rt_format_name(t.format), "ge-cluster-config");
	assert_string_equal(t.version, "1.2");
	assert_int_equal(d.nerrors + d.nwarnings, 0);
	assert_int_equal(t.nservers, 2);
	assert_int_equal(t.nranks, 2);
	assert_string_equal(t.servers[1].server_id, "node_1");
	assert_int_equal(t.ranks[1].rank_id, 1);
	assert_null(t.ranks[1].device_ip);
	rt_table_release(&t);
	rt_diags_release(&d);

	/* without the wrapper the same two servers need device IPs */
	assert_int_equal(load_text("{\"status\":\"completed\",\"version\":\"1.2\",\"server_count\":\"2\","
				   "\"server_list\":[{\"server_id\":\"node_0\",\"device\":[{\"device_id\":\"0\","
				   "\"rank_id\":\"0\"}]},{\"server_id\":\"node_1\",\"device\":[{"
				   "\"device_id\":\"0\",\"rank_id\":\"1\"}]}]}",
				   &t, &d),
			 0);
	assert_int_equal(d.nerrors, 2);
	assert_string_equal(d.v[d.n - 1].code, "device-ip-missing");
	rt_table_release(&t);
	rt_diags_release(&d);
}

static void test_model_foreign(void **state)
{
	(void)state;
	struct rt_table t;
	struct rt_diags d = { 0 };
	assert_int_equal(load_file(REAL "ascend_pd_tdm_pd_disagg_v1.2_2dev.json", &t, &d), 0);
	assert_int_equal(t.format, RT_FMT_VLLM_PD);
	assert_string_equal(rt_format_name(t.format), "vllm-ascend-pd");
	assert_string_equal(t.version, "1.2");
	assert_int_equal(d.n, 1);
	assert_int_equal(d.nnotes, 1);
	assert_int_equal(t.nservers, 1);
	assert_int_equal(t.nranks, 2);
	assert_string_equal(t.servers[0].server_id, "172.17.0.3");
	for (size_t i = 0; i < 2; i++) {
		assert_int_equal(t.ranks[i].rank_id, -1);
		assert_int_equal(t.ranks[i].device_id, (long)i);
		assert_string_equal(t.ranks[i].server_id, "172.17.0.3");
	}
	assert_string_equal(t.ranks[1].device_ip, "10.0.0.2");
	rt_table_release(&t);
	rt_diags_release(&d);

	/* devices of one server in both lists are grouped: 3 servers, in order of first use */
	assert_int_equal(load_file(BAD "vllm_pd_bad.json", &t, &d), 0);
	assert_int_equal(t.nservers, 3);
	assert_string_equal(t.servers[0].server_id, "172.17.0.6");
	assert_int_equal(t.servers[0].nranks, 3);
	assert_string_equal(t.servers[1].server_id, "prefill-node");
	assert_string_equal(t.servers[2].server_id, "172.17.0.7");
	assert_int_equal(t.servers[2].first_rank, 4);
	for (size_t i = 0; i < d.n; i++)
		assert_null(strstr(d.v[i].msg, "HCCL EI"));
	rt_table_release(&t);
	rt_diags_release(&d);

	/* ClusterD: every group's servers and ranks, in file order */
	assert_int_equal(load_file(BAD "global_bad.json", &t, &d), 0);
	assert_int_equal(t.format, RT_FMT_GLOBAL);
	assert_string_equal(rt_format_name(t.format), "mindcluster-global");
	assert_int_equal(t.nservers, 5);
	assert_int_equal(t.nranks, 5);
	assert_int_equal(t.servers[0].nranks, 0);
	assert_int_equal(t.servers[1].first_rank, 0);
	assert_int_equal(t.servers[1].nranks, 2);
	assert_int_equal(t.servers[2].first_rank, 2);
	assert_string_equal(t.ranks[4].device_ip, "192.168.3.10");
	for (size_t i = 0; i < d.n; i++)
		assert_null(strstr(d.v[i].msg, "HCCL EI"));
	rt_table_release(&t);
	rt_diags_release(&d);
}

static void test_model_v12(void **state)
{
	(void)state;
	struct rt_table t;
	struct rt_diags d = { 0 };
	assert_int_equal(load_file(FIX "hccl_doc_v1.2_a3_superpod_2pods_4srv_4dev.json", &t, &d),
			 0);
	assert_int_equal(d.n, 0);
	assert_int_equal(t.format, RT_FMT_V1_2);
	assert_string_equal(rt_format_name(t.format), "1.2");
	assert_string_equal(t.version, "1.2");
	assert_string_equal(t.status, "completed");
	assert_int_equal(t.nservers, 4);
	static const char *const ids[] = { "node_0", "node_1", "node_2", "node_3" };
	static const char *const pods[] = { "0", "0", "1", "1" };
	static const long sdid[] = { 0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7 };
	static const long port[] = { 16666, 16666, 16668, 16669 };
	char ip[32], host[32];
	for (size_t s = 0; s < 4; s++) {
		assert_string_equal(t.servers[s].server_id, ids[s]);
		snprintf(host, sizeof(host), "172.16.0.10%zu", s);
		assert_string_equal(t.servers[s].host_ip, host);
		assert_int_equal(t.servers[s].first_rank, 4 * s);
		assert_int_equal(t.servers[s].nranks, 4);
	}
	assert_int_equal(t.nranks, 16);
	for (size_t i = 0; i < 16; i++) {
		const struct rt_rank *r = &t.ranks[i];
		assert_int_equal(r->rank_id, (long)i);
		assert_string_equal(r->server_id, ids[i / 4]);
		snprintf(host, sizeof(host), "172.16.0.10%zu", i / 4);
		assert_string_equal(r->host_ip, host);
		assert_int_equal(r->device_id, (long)(i % 4));
		snprintf(ip, sizeof(ip), "192.168.%zu.%zu", i / 4 + 1, i % 4 + 6);
		assert_string_equal(r->device_ip, ip);
		assert_string_equal(r->super_pod_id, pods[i / 4]);
		assert_int_equal(r->super_device_id, sdid[i]);
		assert_int_equal(r->device_port, port[i % 4]);
		/* each device object starts on its own line, 4 spaces + 4 + 4 + 4 deep */
		assert_int_equal(r->col, 17);
	}
	assert_int_equal(t.ranks[0].line, 10);
	assert_int_equal(t.ranks[1].line, 20);
	rt_table_release(&t);
	rt_diags_release(&d);
}

static void test_model_v2(void **state)
{
	(void)state;
	struct rt_table t;
	struct rt_diags d = { 0 };
	assert_int_equal(load_file(FIX "hccl_doc_v2.0_a5_ipv4_4rank.json", &t, &d), 0);
	assert_int_equal(d.n, 0);
	assert_int_equal(t.nservers, 2);
	assert_string_equal(t.servers[0].server_id, "az0-rack0-pod0");
	assert_string_equal(t.servers[1].server_id, "az0-rack0-pod1");
	assert_int_equal(t.servers[1].first_rank, 2);
	assert_int_equal(t.ranks[3].rank_id, 3);
	assert_int_equal(t.ranks[3].device_id, 1);
	assert_string_equal(t.ranks[3].device_ip, "172.16.1.28");
	assert_string_equal(t.ranks[3].server_id, "az0-rack0-pod1");
	assert_int_equal(t.ranks[3].device_port, 16669);
	assert_null(t.ranks[3].host_ip);
	rt_table_release(&t);
	rt_diags_release(&d);

	/* ranks of one server that are not adjacent in the file are grouped, in file order */
	const char *text =
		"{\"version\":\"2.0\",\"rank_count\":3,\"rank_list\":["
		"{\"rank_id\":0,\"local_id\":0,\"device_id\":0,\"level_list\":[{\"net_layer\":0,"
		"\"net_instance_id\":\"a\",\"net_type\":\"TOPO_FILE_DESC\",\"rank_addr_list\":[]}]},"
		"{\"rank_id\":1,\"local_id\":0,\"device_id\":0,\"level_list\":[{\"net_layer\":0,"
		"\"net_instance_id\":\"b\",\"net_type\":\"TOPO_FILE_DESC\",\"rank_addr_list\":[]}]},"
		"{\"rank_id\":2,\"local_id\":1,\"device_id\":1,\"level_list\":[{\"net_layer\":0,"
		"\"net_instance_id\":\"a\",\"net_type\":\"TOPO_FILE_DESC\",\"rank_addr_list\":[]}]}]}";
	assert_int_equal(load_text(text, &t, &d), 0);
	assert_int_equal(d.n, 0);
	assert_int_equal(t.nservers, 2);
	assert_int_equal(t.servers[0].nranks, 2);
	assert_int_equal(t.ranks[0].rank_id, 0);
	assert_int_equal(t.ranks[1].rank_id, 2);
	assert_int_equal(t.ranks[2].rank_id, 1);
	rt_table_release(&t);
	rt_diags_release(&d);
}

/* All problems are reported, in line order. */
static void test_many_in_order(void **state)
{
	(void)state;
	struct rt_table t;
	struct rt_diags d = { 0 };
	assert_int_equal(load_file(BAD "many_problems.json", &t, &d), 0);
	assert_int_equal(d.n, 12);
	assert_int_equal(d.nerrors, 11);
	assert_int_equal(d.nwarnings, 1);
	for (size_t i = 1; i < d.n; i++)
		assert_true(d.v[i - 1].line < d.v[i].line ||
			    (d.v[i - 1].line == d.v[i].line && d.v[i - 1].col <= d.v[i].col));
	rt_table_release(&t);
	rt_diags_release(&d);
}

static void test_syntax(void **state)
{
	(void)state;
	struct rt_table t;
	struct rt_diags d = { 0 };
	char err[RT_ERRLEN];
	const char *text = "{\n  \"version\": \"1.0\",\n  \"server_list\": [\n  }\n}";
	assert_int_equal(rt_table_load(&t, "x.json", text, strlen(text), &d, err, sizeof(err)),
			 -EINVAL);
	assert_int_equal(d.n, 1);
	check_want(&d.v[0], &(struct want){ E, "json-syntax", 4, 3, "$",
					    "expected a value, found '}' (HCCL EI0004)" });
	assert_string_equal(err, "x.json:4:3: not JSON: expected a value, found '}'");
	assert_int_equal(t.format, RT_FMT_UNKNOWN);
	rt_table_release(&t);
	rt_diags_release(&d);
}

/* The buffer is not NUL-terminated and may hold NULs: only len bytes are read. */
static void test_buffer_bounds(void **state)
{
	(void)state;
	const char *good = "{\"version\":\"1.0\",\"status\":\"completed\",\"server_count\":\"1\","
			   "\"server_list\":[{\"server_id\":\"s\",\"device\":[{\"device_id\":\"0\","
			   "\"rank_id\":\"0\"}]}]}";
	size_t len = strlen(good);
	char *exact = malloc(len);
	memcpy(exact, good, len);
	struct rt_table t;
	struct rt_diags d = { 0 };
	char err[RT_ERRLEN];
	assert_int_equal(rt_table_load(&t, "x", exact, len, &d, err, sizeof(err)), 0);
	assert_int_equal(d.n, 0);
	assert_int_equal(t.nranks, 1);
	rt_table_release(&t);
	/* cut short: one byte less */
	assert_int_equal(rt_table_load(&t, "x", exact, len - 1, &d, err, sizeof(err)), -EINVAL);
	assert_string_equal(d.v[0].msg, "unexpected end of input (HCCL EI0004)");
	rt_table_release(&t);
	rt_diags_release(&d);
	free(exact);

	const char nul[] = "{\"a\":1}\0{}";
	assert_int_equal(rt_table_load(&t, "x", nul, sizeof(nul) - 1, &d, err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(d.v[0].msg, "extra data after the JSON document (HCCL EI0004)");
	assert_int_equal(d.v[0].col, 8);
	rt_table_release(&t);
	rt_diags_release(&d);
}

static void test_version_number(void **state)
{
	(void)state;
	struct rt_table t;
	struct rt_diags d = { 0 };
	const char *text = "{\"version\":1.0,\"status\":\"completed\",\"server_count\":\"1\","
			   "\"server_list\":[{\"server_id\":\"s\",\"device\":[{\"device_id\":\"0\","
			   "\"rank_id\":\"0\"}]}]}";
	assert_int_equal(load_text(text, &t, &d), 0);
	assert_int_equal(d.n, 1);
	check_want(&d.v[0],
		   &(struct want){ E, "value-not-string", 1, 12, "$.version",
				   "version 1.0 is a number, not a string; HCCL rejects it and "
				   "misleadingly reports it as missing (HCCL EI0017)" });
	assert_int_equal(t.format, RT_FMT_V1_0);
	rt_table_release(&t);
	rt_diags_release(&d);
}

/* 4096 servers x 16 devices: no findings (and, measured separately, well under 1 s). */
static void test_scale(void **state)
{
	(void)state;
	size_t cap = 8 << 20, n = 0;
	char *b = malloc(cap);
	assert_non_null(b);
	n += (size_t)snprintf(b + n, cap - n,
			      "{\"status\":\"completed\",\"version\":\"1.0\",\"server_count\":"
			      "\"4096\",\"server_list\":[");
	for (int s = 0; s < 4096; s++) {
		n += (size_t)snprintf(b + n, cap - n,
				      "%s{\"server_id\":\"10.%d.%d.1\",\"host_ip\":\"10.%d.%d.1\","
				      "\"device\":[",
				      s ? "," : "", s / 256, s % 256, s / 256, s % 256);
		for (int dv = 0; dv < 16; dv++)
			n += (size_t)snprintf(b + n, cap - n,
					      "%s{\"device_id\":\"%d\",\"device_ip\":\"11.%d.%d.%d\","
					      "\"rank_id\":\"%d\"}",
					      dv ? "," : "", dv, s / 256, s % 256, dv, s * 16 + dv);
		n += (size_t)snprintf(b + n, cap - n, "]}");
	}
	n += (size_t)snprintf(b + n, cap - n, "]}");
	assert_true(n < cap);
	struct rt_table t;
	struct rt_diags d = { 0 };
	char err[RT_ERRLEN];
	assert_int_equal(rt_table_load(&t, "big", b, n, &d, err, sizeof(err)), 0);
	assert_int_equal(d.n, 0);
	assert_int_equal(t.nranks, 65536);
	assert_int_equal(t.nservers, 4096);
	assert_int_equal(t.ranks[65535].rank_id, 65535);
	assert_string_equal(t.ranks[65535].device_ip, "11.15.255.15");
	rt_table_release(&t);
	rt_diags_release(&d);
	free(b);
}

static void test_digest(void **state)
{
	(void)state;
	const char *a = "{\"version\":\"1.0\",\"status\":\"completed\",\"server_count\":\"1\","
			"\"server_list\":[{\"server_id\":\"s\",\"device\":["
			"{\"device_id\":\"0\",\"device_ip\":\"1.1.1.1\",\"rank_id\":\"0\"},"
			"{\"device_id\":\"1\",\"device_ip\":\"1.1.1.2\",\"rank_id\":\"1\"}]}]}";
	/* same table: other key order, whitespace, device order */
	const char *b = "{ \"status\": \"completed\", \"server_count\": \"1\", \"version\": \"1.0\",\n"
			"  \"server_list\": [ { \"device\": [\n"
			"    { \"rank_id\": \"1\", \"device_ip\": \"1.1.1.2\", \"device_id\": \"1\" },\n"
			"    { \"rank_id\": \"0\", \"device_id\": \"0\", \"device_ip\": \"1.1.1.1\" } ],\n"
			"    \"server_id\": \"s\" } ] }";
	const char *c = "{\"version\":\"1.0\",\"status\":\"completed\",\"server_count\":\"1\","
			"\"server_list\":[{\"server_id\":\"s\",\"device\":["
			"{\"device_id\":\"0\",\"device_ip\":\"1.1.1.1\",\"rank_id\":\"0\"},"
			"{\"device_id\":\"1\",\"device_ip\":\"1.1.1.3\",\"rank_id\":\"1\"}]}]}";
	char da[17], db[17], dc[17];
	struct rt_table t;
	struct rt_diags d = { 0 };
	assert_int_equal(load_text(a, &t, &d), 0);
	rt_table_digest(&t, da);
	rt_table_release(&t);
	assert_int_equal(load_text(b, &t, &d), 0);
	rt_table_digest(&t, db);
	rt_table_release(&t);
	assert_int_equal(load_text(c, &t, &d), 0);
	rt_table_digest(&t, dc);
	rt_table_release(&t);
	assert_int_equal(d.n, 0);
	assert_int_equal(strlen(da), 16);
	assert_string_equal(da, db);
	assert_string_not_equal(da, dc);
	rt_diags_release(&d);
}

static void test_read_file(void **state)
{
	(void)state;
	char *buf, err[RT_ERRLEN];
	size_t len;
	assert_int_equal(rt_read_file("tests/data/ranktables/nope.json", 100, &buf, &len, err,
				      sizeof(err)),
			 -ENOENT);
	assert_string_equal(err, "cannot open 'tests/data/ranktables/nope.json': No such file or "
				 "directory");
	assert_int_equal(rt_read_file("tests/data", 100, &buf, &len, err, sizeof(err)), -EISDIR);
	assert_string_equal(err, "cannot read 'tests/data': is a directory");
	assert_int_equal(rt_read_file(BAD "many_problems.json", 100, &buf, &len, err, sizeof(err)),
			 -EFBIG);
	assert_string_equal(err, "'" BAD "many_problems.json' is larger than the 100-byte limit");
	assert_int_equal(rt_read_file(BAD "empty_object.json", 100, &buf, &len, err, sizeof(err)),
			 0);
	assert_int_equal(len, 3);
	assert_memory_equal(buf, "{}\n", 3);
	free(buf);
	if (geteuid() != 0) {
		char tmp[] = "/tmp/rtXXXXXX";
		int fd = mkstemp(tmp);
		assert_true(fd >= 0);
		close(fd);
		chmod(tmp, 0);
		assert_int_equal(rt_read_file(tmp, 100, &buf, &len, err, sizeof(err)), -EACCES);
		unlink(tmp);
	}
}

static void test_diags(void **state)
{
	(void)state;
	struct rt_diags d = { 0 };
	assert_int_equal(rt_diags_add(&d, W, "b", 3, 1, NULL, NULL, "third %d", 3), 0);
	assert_int_equal(rt_diags_add(&d, E, "a", 0, 0, "$.x", "h", "unknown place"), 0);
	assert_int_equal(rt_diags_add(&d, E, "c", 1, 5, "$", NULL, "first"), 0);
	assert_int_equal(rt_diags_add(&d, E, "d", 1, 5, "$", NULL, "second, same place"), 0);
	rt_diags_sort(&d);
	assert_string_equal(d.v[0].msg, "first");
	assert_string_equal(d.v[1].msg, "second, same place");
	assert_string_equal(d.v[2].msg, "third 3");
	assert_string_equal(d.v[2].path, "$");
	assert_string_equal(d.v[3].msg, "unknown place");
	assert_string_equal(d.v[3].hint, "h");
	assert_int_equal(d.nerrors, 3);
	assert_int_equal(d.nwarnings, 1);
	assert_int_equal(rt_diags_add(&d, N, "e", 2, 1, NULL, NULL, "a note"), 0);
	assert_int_equal(d.nnotes, 1);
	assert_int_equal(d.nwarnings, 1);
	assert_string_equal(rt_severity_name(N), "note");
	assert_string_equal(rt_severity_name(W), "warning");
	assert_string_equal(rt_severity_name(E), "error");
	rt_diags_release(&d);
	assert_string_equal(rt_format_name(RT_FMT_LEGACY), "legacy");
	assert_string_equal(rt_format_name(RT_FMT_TOPO), "topology");
	assert_string_equal(rt_format_name((enum rt_format)99), "unknown");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad_files),    cmocka_unit_test(test_rules_covered),
		cmocka_unit_test(test_fixtures),     cmocka_unit_test(test_good_files),
		cmocka_unit_test(test_model_v12),    cmocka_unit_test(test_model_v2),
		cmocka_unit_test(test_many_in_order), cmocka_unit_test(test_syntax),
		cmocka_unit_test(test_buffer_bounds), cmocka_unit_test(test_version_number),
		cmocka_unit_test(test_scale),        cmocka_unit_test(test_digest),
		cmocka_unit_test(test_read_file),    cmocka_unit_test(test_diags),
		cmocka_unit_test(test_connect),      cmocka_unit_test(test_model_foreign),
		cmocka_unit_test(test_model_legacy_ge),
	};
	return cmocka_run_group_tests_name("validate", tests, NULL, NULL);
}
