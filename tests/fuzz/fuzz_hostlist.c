/* Fuzzes rt_hostlist_expand: memory safety, and that what it gives is lines of names with
 * no bracket or comma left, at most RT_HOSTLIST_MAX of them. */
#include <assert.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ranktable/ranktable.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *out = NULL, err[256];
	size_t len = 0;
	if (size > 4096)
		return 0;
	int rc = rt_hostlist_expand((const char *)data, size, &out, &len, err, sizeof(err));
	assert(rc == 0 || rc == -EINVAL || rc == -ENOMEM);
	if (rc) {
		assert(!out && !len && memchr(err, '\0', sizeof(err)));
		return 0;
	}
	assert(out && len == strlen(out) && len && out[len - 1] == '\n');
	size_t lines = 0;
	for (size_t i = 0; i < len; i++) {
		lines += out[i] == '\n';
		assert(out[i] != ',' && out[i] != '[' && out[i] != ']');
		assert(out[i] != '\n' || (i && out[i - 1] != '\n')); /* no empty name */
	}
	assert(lines >= 1 && lines <= RT_HOSTLIST_MAX);
	free(out);
	return 0;
}
