/* Fuzzes the node side's answer of the NPU mesh as the launcher reads it (it comes from
 * another host): any bytes give 0, -EINVAL or -ENOMEM, every link stays within its bounds,
 * and the verdicts run on whatever was taken. */
#include <assert.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "probes/npu/npumesh.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct npumesh m;
	char err[256];
	if (npumesh_init(&m, 2, 4))
		return 0;
	for (size_t i = 0; i < 4; i++) {
		m.ep[i].server = i / 2;
		m.ep[i].device = (long)(i % 2);
		snprintf(m.ep[i].ip, sizeof(m.ep[i].ip), "10.0.%zu.%zu", i % 2, i / 2 + 1);
	}
	snprintf(m.srv[0].id, sizeof(m.srv[0].id), "s0");
	snprintf(m.srv[1].id, sizeof(m.srv[1].id), "s1");
	if (npumesh_index(&m)) {
		npumesh_release(&m);
		return 0;
	}
	int rc = npumesh_reply_parse(&m, 0, 0, (const char *)data, size, err, sizeof(err));
	assert(rc == 0 || rc == -EINVAL || rc == -ENOMEM);
	for (size_t i = 0; i < m.n * m.n; i++) {
		const struct nm_link *l = &m.l[i];
		assert(i % 5 || l->state == NM_UNTRIED); /* never a device to itself */
		if (l->state == NM_MEASURED)
			assert(l->received >= 0 && l->received <= l->sent && l->loss_pct <= 100);
		assert(strlen(l->reason) < sizeof(l->reason));
	}
	for (size_t i = 0; i < m.n; i++)
		assert(strlen(m.ep[i].sw) < sizeof(m.ep[i].sw));
	rc = npumesh_judge(&m);
	assert(rc == 0 || rc == -ENOMEM);
	for (size_t k = 0; k < m.nf; k++) {
		char fix[400];
		npumesh_fix(&m, &m.f[k], fix, sizeof(fix));
		assert(strlen(fix) < sizeof(fix));
	}
	npumesh_release(&m);
	return 0;
}
