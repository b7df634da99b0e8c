#ifndef HCCLCTL_FAKE_MESH_H
#define HCCLCTL_FAKE_MESH_H

/* hccn_tool -i ID -KEY -g [address TO] [-inet6] for KEY ping, hccs_ping or lldp, answered from
 * the topology files FILES (colon-separated; fake_mesh.c): prints what hccn_tool would and
 * returns its exit status. */
int fake_hccn_mesh(const char *files, const char *key, const char *id, const char *to,
		   int inet6);

#endif
