/* Fuzzes the reading of a file's place in a collected bundle (probes/logs/bundle.c): any bytes
 * up to the first NUL as a path, through hlog__bundle_place and hlog__bundle_node. Neither
 * reads outside the string; the worker is "" or "worker-N" (N in range), the kind in range, the
 * numbers -1 or below 10^8, and the node a prefix folder of the path or the worker. */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "probes/logs/bundle.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *path = malloc(size + 1);
	if (!path)
		return 0;
	memcpy(path, data, size);
	path[size] = '\0';
	struct hlog_place p;
	hlog__bundle_place(path, &p);
	assert(memchr(p.worker, '\0', sizeof(p.worker)));
	assert(!p.worker[0] || !strncmp(p.worker, "worker-", 7));
	assert(p.kind >= HLOG_FK_OTHER && p.kind < HLOG_NFKINDS);
	assert(p.pid >= -1 && p.pid < 100000000);
	assert(p.dev >= -1 && p.dev < 100000000);
	assert(p.rank >= -1 && p.rank < 100000000);
	char node[64];
	const char *rel = strchr(path, '/') ? strchr(path, '/') + 1 : path;
	hlog__bundle_node(path, rel, node, sizeof(node));
	assert(memchr(node, '\0', sizeof(node)));
	if (node[0] && strcmp(node, p.worker))
		assert(!strncmp(rel, node, strlen(node)) && rel[strlen(node)] == '/');
	free(path);
	return 0;
}
