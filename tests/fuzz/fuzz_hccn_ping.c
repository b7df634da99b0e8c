/* Fuzzes the hccn_tool -ping / -hccs_ping parser: any bytes give 0 or -EINVAL, the counts
 * agree with each other, and nothing is read outside the input. */
#include <assert.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "probes/nic/hccn.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hccn_ping p;
	char err[256];
	int rc = hccn_parse_ping((const char *)data, size, &p, err, sizeof(err));
	assert(rc == 0 || rc == -EINVAL);
	if (rc)
		return 0;
	assert(p.nrtt <= HCCN_PING_MAX);
	assert(strlen(p.target) < sizeof(p.target));
	assert(p.received <= p.sent);
	assert(p.loss_pct <= 100);
	double m = hccn_ping_rtt_ms(&p);
	assert(p.nrtt ? m >= 0 : m == -1);
	return 0;
}
