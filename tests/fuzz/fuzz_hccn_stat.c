/* Fuzzes hccn_parse_stat and the counter table: any bytes give 0 or -EINVAL with a message,
 * never a read outside the input; a success holds only named counters, each once, and the
 * findings point at non-zero counters of WARN rows. */
#include <assert.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "probes/nic/hccn_stat.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct hccn_stat s;
	char err[256] = "";
	size_t idx[HCCN_STAT_MAX];
	enum probe_status worst;
	int rc = hccn_parse_stat((const char *)data, size, &s, err, sizeof(err));

	assert(rc == 0 || rc == -EINVAL);
	if (rc) {
		assert(err[0]);
		return 0;
	}
	assert(s.n >= 1 && s.n <= HCCN_STAT_MAX);
	for (size_t i = 0; i < s.n; i++) {
		size_t l = strlen(s.c[i].name);
		assert(l >= 1 && l < HCCN_STAT_NAME);
		assert(s.c[i].line >= 1);
		for (size_t j = 0; j < i; j++)
			assert(strcmp(s.c[i].name, s.c[j].name));
	}
	size_t n = hccn_stat_findings(&s, idx, HCCN_STAT_MAX, &worst);
	assert(n <= s.n);
	assert((n == 0) == (worst == PROBE_PASS));
	for (size_t i = 0; i < n; i++) {
		const struct hccn_stat_rule *r = hccn_stat_rule_for(s.c[idx[i]].name);
		assert(idx[i] < s.n && s.c[idx[i]].value && r && r->status == PROBE_WARN);
	}
	return 0;
}
