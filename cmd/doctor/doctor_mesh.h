/* doctor's link.npu-mesh (doctor_mesh.c): `probe roce --mesh` over the job's rank table, its
 * findings turned into doctor results on the nodes they name. */
#ifndef HCCLCTL_DOCTOR_MESH_H
#define HCCLCTL_DOCTOR_MESH_H

#include <stddef.h>

struct doctor_mesh_args {
	const char *ranktable;	  /* as doctor was given it */
	const char *hccn_tool;	  /* --hccn-tool, or NULL */
	const char *const *extra; /* more words for the probe (the --ssh-* options), NULL-ended */
	const char *const *nodes; /* doctor's nodes: the servers' server_id, in table order */
	size_t nnodes;
	int local; /* doctor --local: one node, this host */
};

struct doctor_mesh_result {
	int node;   /* index into nodes, -1: the cluster */
	int status; /* DOCTOR_PASS ... DOCTOR_FAIL */
	char *msg, *fix;
};

/* Runs the mesh and gives its results (*out is the caller's: doctor_mesh_free). Returns how
 * many; at least one (a SKIP saying why, when it could not run). */
size_t doctor_mesh_run(const struct doctor_mesh_args *a, struct doctor_mesh_result **out);
void doctor_mesh_free(struct doctor_mesh_result *r, size_t n);

#endif
