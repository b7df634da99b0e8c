/* hcclctl probe roce --mesh's own parts, shared between its files: the launcher
 * (probe_mesh.c), the node side (probe_mesh_node.c) and the report (probe_mesh_report.c).
 * Only those files include this header. */
#ifndef HCCLCTL_PROBE_MESH_H
#define HCCLCTL_PROBE_MESH_H

#include <stddef.h>

#include "cmd/lib/fanout.h"
#include "cmd/probe/probe.h"
#include "probes/npu/npumesh.h"
#include "ranktable/ranktable.h"

#define WHERE "probe roce"

/* The node side (--ping-list): pings, prints the document; returns the exit code. */
int pmesh_node_main(const struct probe_mesh_common *c);

/* What one node side is asked: the pings (DEV=IP,...), with lldp each device's neighbour
 * (of devices, when given), through hccn_tool (NULL: found as the command finds it). */
struct pmesh_node_req {
	const char *ping_list, *devices, *hccn_tool, *server_id;
	int lldp, hccs;
	long timeout_s;
};
/* The node side of a server on this host, run here rather than as a program of its own: its
 * answer document in *out (malloc'ed, *outlen bytes), or an exit code with why in err. */
int pmesh_node_answer(const struct pmesh_node_req *q, char **out, size_t *outlen, char *err,
		      size_t errlen);

/* ---- the launcher's state (probe_mesh.c), read by the report */

struct job {
	size_t server;
	char *cmd;   /* remote: the command line; local: NULL */
	char **argv; /* remote: the words of cmd */
	struct pmesh_node_req req; /* local: what its node side is asked */
	long timeout_ms;
	/* result */
	char *out;
	size_t outlen;
	char why[SSH_ERRLEN + 64];
	int ran; /* out holds what the side printed */
	int unreachable; /* no SSH session to its server (the situation "unreachable") */
};

struct mesh_run {
	struct npumesh m;
	struct rt_table t;
	size_t *pinged; /* endpoints with an IP, in schedule order */
	size_t np;
	size_t rounds;
	double seconds;
	long connect_timeout_s;
	const struct probe_mesh_common *c;
};

/* ---- the report (probe_mesh_report.c) */

void pmesh_print_text(const struct mesh_run *x);
/* The JSON document, with code as its exit_code. */
void pmesh_print_json(const struct mesh_run *x, int code);

#endif
