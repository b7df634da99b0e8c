/* cmd/lib/nodeout.c: readers of what a node's programs print back over SSH. No dependencies,
 * so that the fuzz targets link it alone. */
#ifndef HCCLCTL_NODEOUT_H
#define HCCLCTL_NODEOUT_H

#include <stddef.h>

/* run-node's tagged lines (see cmd/run/runnode.c): 1 with rank, kind (' ' a line, '+' part of
 * one, '=' the rank's end) and the payload (a pointer into line), or 0 for a line without
 * a tag. */
#define RUN_NODE_TAG '\037'
int run_node_tag(const char *line, size_t len, int *rank, char *kind, const char **payload,
		 size_t *plen);

/* In a program's output, the dynamic loader's "error while loading shared libraries: LIB:
 * REASON": 1 with LIB's file name in lib and, in why, REASON or (for a library it found
 * but could not load) "PATH: REASON"; else 0. */
int deploy_loader_error(const char *out, char *lib, size_t liblen, char *why, size_t whylen);

#endif
