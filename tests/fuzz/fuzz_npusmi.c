/* Fuzzes the npu-smi parsers (info -l, info -m, info -t hccs, info -t topo) and the HCCS
 * verdicts: any bytes give 0 or -EINVAL, never a read outside the input, and what parses
 * stays within its bounds. */
#include <assert.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "probes/npu/npusmi.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data;
	char err[256];
	struct npusmi_chips *c = malloc(sizeof(*c));
	struct npusmi_topo *t = malloc(sizeof(*t));
	struct hccs_chip *h = calloc(2, sizeof(*h));
	struct npusmi_topo_miss miss[8];
	if (!c || !t || !h)
		goto out;

	char v[64];
	static const char *const keys[] = { "Firmware Version", "Software Version", "SDID" };
	for (size_t k = 0; k < 3; k++) {
		int fr = npusmi_field(s, size, keys[k], v, sizeof(v));
		assert(fr == 0 || fr == -ENOENT || fr == -EINVAL);
		if (fr == 0)
			assert(strlen(v) > 0 && strlen(v) < sizeof(v));
	}
	int rc = npusmi_parse_list(s, size, c, err, sizeof(err));
	assert(rc == 0 || rc == -EINVAL);
	assert(c->n <= NPUSMI_MAX_CHIPS);
	if (rc == 0)
		assert(c->nnpus > 0);
	rc = npusmi_parse_mapping(s, size, c, err, sizeof(err));
	assert(rc == 0 || rc == -EINVAL);
	for (size_t i = 0; i < c->n; i++)
		assert((c->v[i].logic_id >= 0 || c->v[i].phy_id >= 0) && c->v[i].logic_id >= -1 &&
		       strlen(c->v[i].name) < sizeof(c->v[i].name));

	rc = npusmi_parse_hccs(s, size, &h[0].first, err, sizeof(err));
	assert(rc == 0 || rc == -EINVAL);
	for (int f = 0; f < HCCS_NFIELDS; f++)
		assert(h[0].first.n[f] <= NPUSMI_MAX_LINKS);
	/* the same text as the second read of one chip and the only read of another */
	h[0].second = h[0].first;
	h[0].have_second = 1;
	h[1].first = h[0].first;
	h[1].failed = rc != 0;
	enum probe_status st = hccs_assess(h, 2, 1.0);
	assert(st >= PROBE_PASS && st <= PROBE_FAIL);
	for (int i = 0; i < 2; i++)
		for (size_t k = 0; k < h[i].nlinks; k++)
			assert(h[i].link[k].state &&
			       strlen(h[i].link[k].reason) < sizeof(h[i].link[k].reason));

	rc = npusmi_parse_topo(s, size, t, err, sizeof(err));
	assert(rc == 0 || rc == -EINVAL);
	if (rc == 0) {
		size_t group;
		assert(t->n >= 1 && t->n <= NPUSMI_TOPO_MAX);
		size_t n = npusmi_topo_check(t, miss, 8, &group);
		assert(n <= t->n * t->n);
		for (size_t i = 0; i < n && i < 8; i++)
			assert(miss[i].a < miss[i].b && miss[i].b < t->n);
		assert(!group || t->n % group == 0);
	}
out:
	free(c);
	free(t);
	free(h);
	return 0;
}
