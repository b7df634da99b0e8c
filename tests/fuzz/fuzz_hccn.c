/* Fuzzes rt_hccn_parse: any bytes must give 0 or -EINVAL, never a read outside the input,
 * and a success must hold only sane addresses. */
#include <assert.h>
#include <errno.h>
#include <stdint.h>

#include "ranktable/ranktable.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rt_hccn h;
	struct rt_diags d = { 0 };
	char err[RT_ERRLEN];
	int rc = rt_hccn_parse(&h, "fuzz", (const char *)data, size, &d, err, sizeof(err));

	assert(rc == 0 || rc == -EINVAL || rc == -ENOMEM);
	if (rc == 0) {
		assert(h.naddr >= 1 && h.naddr <= 64);
		assert(h.addr[h.naddr - 1] != NULL);
		for (size_t i = 0; i < h.naddr; i++)
			assert(!h.addr[i] || (h.addr[i][0] && strlen(h.addr[i]) < 46));
		assert(d.nerrors == 0);
	}
	for (size_t i = 0; i < d.n; i++)
		assert(d.v[i].line >= 1 && d.v[i].col >= 1 && d.v[i].msg);
	rt_hccn_release(&h);
	rt_diags_release(&d);
	return 0;
}
