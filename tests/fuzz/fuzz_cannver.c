/* Fuzzes cann_version_parse: any bytes give 0 with a version of allowed bytes, or -ENOENT or
 * -EINVAL with a message, never a read outside the input. */
#include <assert.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "probes/host/cannver.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char v[64], err[128] = "";
	int rc = cann_version_parse((const char *)data, size, v, sizeof(v), err, sizeof(err));
	assert(rc == 0 || rc == -ENOENT || rc == -EINVAL);
	if (rc) {
		assert(err[0]);
		return 0;
	}
	assert(v[0] && strlen(v) < sizeof(v));
	assert(strspn(v, "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ._-") ==
	       strlen(v));
	return 0;
}
