/* hcclctl probe: facts about one node's links (HCCS, RDMA ports, NPU NICs). Each leaf lives in
 * its own file (probe_hccs.c, probe_rdma.c, probe_roce.c, probe_net.c) and exports its runner and options;
 * cmd/probe/probe.c holds the group table. */
#ifndef HCCLCTL_PROBE_H
#define HCCLCTL_PROBE_H

#include "cmd/cli/cli.h"
#include "probes/tool/tool.h"
#include "probes/tool/verdict.h"

extern const struct opt probe_hccs_opts[];
int probe_hccs_run(int argc, char **argv);
extern const struct opt probe_rdma_opts[];
int probe_rdma_run(int argc, char **argv);
extern const struct opt probe_roce_opts[];
int probe_roce_run(int argc, char **argv);
extern const struct opt probe_net_opts[];
int probe_net_run(int argc, char **argv);

extern const struct cmd probe_commands[];

/* probe roce --mesh and its node side --ping-list (cmd/probe/probe_mesh.c). Their own options,
 * which sit in probe roce's option table: */
struct probe_mesh_opts {
	int mesh, lldp, hccs, insecure;
	const char *ping_list, *user, *key, *known_hosts, *remote;
	long port, parallel;
};
extern struct probe_mesh_opts probe_mesh_opts;
/* ... and what probe roce's other options say. */
struct probe_mesh_common {
	const char *hccn_tool, *ranktable, *server_id, *devices;
	long timeout_s;
};
int probe_mesh_run(const struct probe_mesh_common *c);
/* Shared by the probes (cmd/probe/probe_tool.c). */

/* Runs a vendor tool with a deadline of timeout_s. Returns 0 when it ran (whatever its exit
 * status; r is filled), or prints why it could not ("missing", "hung") as
 * "hcclctl: WHERE: ..." with a hint naming option and env, and returns EXIT_UNKNOWN. */
int probe_run_tool(const char *where, const char *opt, const char *env, const char *path,
		   char *const argv[], long timeout_s, struct probe_tool_result *r);
/* The first non-empty line of s (trimmed, at most len-1 bytes), or "" */
const char *probe_first_line(const char *s, char *buf, size_t len);
/* A colour for a status on fd ("" when colour is off), and the reset code. */
const char *probe_status_color(int fd, enum probe_status s);
/* The reset after a colour col (from probe_status_color): "" where there was none (SKIP, no
 * terminal), so no lone reset is printed. */
const char *probe_color_end(const char *col);
/* The status a probe gives a situation of the one table (cmd/cli/situation.c) that it meets,
 * "unreachable" ...: the one its exit code stands for, so a probe says what doctor, exec and
 * run say of it. */
enum probe_status probe_situation_status(const char *kind);

#endif
