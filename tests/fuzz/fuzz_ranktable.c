/* Fuzzes the rank-table loader: the position scanner, cJSON, format detection and every
 * rule. Besides memory errors it checks the invariants callers rely on: findings carry a
 * listed rule code and a message, -EINVAL means exactly one json-syntax finding, and the
 * model's ranges stay inside the rank array. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "ranktable/ranktable.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int listed(const char *code)
{
	for (const struct rt_rule *r = rt_rules; r->code; r++)
		if (!strcmp(r->code, code))
			return 1;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rt_table t;
	struct rt_diags d = { 0 };
	char err[RT_ERRLEN], digest[17];
	int rc = rt_table_load(&t, "fuzz", (const char *)data, size, &d, err, sizeof(err));

	if (rc == -EINVAL && (d.n != 1 || strcmp(d.v[0].code, "json-syntax")))
		abort();
	for (size_t i = 0; i < d.n; i++)
		if (!listed(d.v[i].code) || !d.v[i].msg || !d.v[i].path)
			abort();
	for (size_t s = 0; s < t.nservers; s++)
		if (t.servers[s].first_rank + t.servers[s].nranks > t.nranks)
			abort();
	rt_table_digest(&t, digest);
	rt_table_release(&t);
	rt_diags_release(&d);
	return 0;
}
