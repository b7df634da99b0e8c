/* Fuzzes the hccn_tool -lldp parser: any bytes give 0 or -EINVAL, every field a C string of
 * its buffer, and nothing read outside the input. */
#include <assert.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "probes/nic/hccn.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hccn_lldp l;
	char err[256];
	int rc = hccn_parse_lldp((const char *)data, size, &l, err, sizeof(err));
	assert(rc == 0 || rc == -EINVAL);
	if (rc)
		return 0;
	assert(strlen(l.chassis) < sizeof(l.chassis) && strlen(l.port) < sizeof(l.port));
	assert(strlen(l.system_desc) < sizeof(l.system_desc));
	assert(strlen(l.mgmt) < sizeof(l.mgmt) && strlen(l.system_name) < sizeof(l.system_name));
	const char *sw = hccn_lldp_switch(&l);
	assert(sw && strlen(sw) < sizeof(l.system_name));
	return 0;
}
