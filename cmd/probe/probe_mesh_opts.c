/* The options of probe roce --mesh and --ping-list (probe.h), in a file of their own: probe
 * roce's option table fills them, and the launcher, the node side and the report read them,
 * so they must sit below all of those for no two of them to call each other in a circle. */
#include "cmd/probe/probe.h"

struct probe_mesh_opts probe_mesh_opts;
