/* Fuzzes the readers of what a node prints back: any bytes as one of run-node's lines, and
 * as a program's output in which the loader's refusal is looked for. What they return stays
 * inside the input, and the library named is a part of it. */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/lib/nodeout.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *line = (const char *)data, *p = NULL;
	int rank = -1;
	char kind = 0;
	size_t pl = 0;
	if (run_node_tag(line, size, &rank, &kind, &p, &pl)) {
		assert(rank >= 0);
		assert(kind == ' ' || kind == '+' || kind == '=');
		assert(p > line && p + pl == line + size);
	}

	char *s = malloc(size + 1), lib[64], why[128];
	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	if (deploy_loader_error(s, lib, sizeof(lib), why, sizeof(why))) {
		assert(strlen(lib) < sizeof(lib) && strlen(why) < sizeof(why));
		assert(*lib && !strchr(lib, '/'));
		/* a name cut to fit the buffer is still a prefix of what the loader said */
		assert(strstr(s, lib));
	}
	free(s);
	return 0;
}
