/* Fuzzes henv_parse and henv_check: any bytes give 0 or -EINVAL, never a read outside the
 * input; what parses holds HCCL_* keys only, and the findings are sorted worst first. */
#include <assert.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "probes/host/hcclenv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct henv e;
	struct henv_finding f[8];
	char err[256];
	int rc = henv_parse((const char *)data, size, &e, err, sizeof(err));
	assert(rc == 0 || rc == -EINVAL);
	if (rc)
		return 0;
	assert(e.n <= HENV_MAX);
	for (size_t i = 0; i < e.n; i++) {
		assert(!strncmp(e.v[i].key, "HCCL_", 5) && e.v[i].line >= 1);
		assert(henv_get(&e, e.v[i].key) == e.v[i].val);
	}
	size_t n = henv_check(&e, f, 8);
	assert(n <= 8);
	for (size_t i = 0; i < n; i++) {
		assert(f[i].msg[0] && strlen(f[i].msg) < sizeof(f[i].msg));
		assert(!i || f[i - 1].st >= f[i].st);
	}
	return 0;
}
