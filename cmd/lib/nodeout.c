/* Readers of what a node's programs print back over SSH: run-node's tagged lines
 * (runnode.c writes them) and the dynamic loader's refusal. A node may print anything, so
 * both only ever look inside the bytes they are given (tests/fuzz/fuzz_nodeout.c). */
#include <stdio.h>
#include <string.h>

#include "cmd/lib/nodeout.h"

int run_node_tag(const char *line, size_t len, int *rank, char *kind, const char **payload,
		 size_t *plen)
{
	size_t i = 1;
	long r = 0;
	if (len < 3 || line[0] != RUN_NODE_TAG)
		return 0;
	while (i < len && line[i] >= '0' && line[i] <= '9' && r < 100000000)
		r = r * 10 + (line[i++] - '0');
	if (i == 1 || i == len || (line[i] != ' ' && line[i] != '+' && line[i] != '='))
		return 0;
	*rank = (int)r;
	*kind = line[i];
	*payload = line + i + 1;
	*plen = len - i - 1;
	return 1;
}

int deploy_loader_error(const char *out, char *lib, size_t liblen, char *why, size_t whylen)
{
	static const char key[] = "error while loading shared libraries: ";
	const char *p = out ? strstr(out, key) : NULL;
	if (!p)
		return 0;
	p += sizeof(key) - 1;
	/* LIB ends at the ": " before the reason; a path may hold ':' but not ": " here */
	const char *e = strstr(p, ": ");
	const char *nl = p + strcspn(p, "\n");
	if (!e || e > nl || e == p)
		return 0;
	const char *base = p;
	for (const char *q = p; q < e; q++)
		if (*q == '/')
			base = q + 1;
	if (base == e)
		return 0;
	snprintf(lib, liblen, "%.*s", (int)(e - base), base);
	/* a library found but unloadable (LD_LIBRARY_PATH, a broken file) says where */
	if (base != p)
		snprintf(why, whylen, "%.*s", (int)(nl - p), p);
	else
		snprintf(why, whylen, "%.*s", (int)(nl - e - 2), e + 2);
	return 1;
}
