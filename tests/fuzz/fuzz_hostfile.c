/* Fuzzes rt_hostfile_parse. Beyond memory safety it checks the promise that matters:
 * an accepted server id holds no byte a shell or ssh could act on. */
#include <assert.h>
#include <errno.h>
#include <stdint.h>

#include "ranktable/ranktable.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int safe_char(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '.' || c == '-' || c == '_' || c == ':';
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rt_hostfile hf;
	struct rt_diags d = { 0 };
	char err[RT_ERRLEN];
	int rc = rt_hostfile_parse(&hf, "fuzz", (const char *)data, size, &d, err, sizeof(err));

	assert(rc == 0 || rc == -EINVAL || rc == -ENOMEM);
	if (rc == 0) {
		assert(hf.n >= 1 && d.nerrors == 0);
		for (size_t i = 0; i < hf.n; i++) {
			const char *s = hf.v[i].server_id;
			size_t n = strlen(s);

			assert(n >= 1 && n <= 64 && s[0] != '-');
			for (size_t k = 0; k < n; k++)
				assert(safe_char((unsigned char)s[k]));
			for (size_t k = 0; k < i; k++)
				assert(strcmp(s, hf.v[k].server_id) != 0);
		}
	} else {
		assert(hf.n == 0 && hf.v == NULL);
	}
	rt_hostfile_release(&hf);
	rt_diags_release(&d);
	return 0;
}
