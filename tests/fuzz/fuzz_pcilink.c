/* Fuzzes pci_speed_parse (sysfs current_link_speed / max_link_speed) and the link verdict
 * built from it: never a read outside the input, a speed of -1 or 0..9999.9 GT/s. */
#include <assert.h>
#include <stdint.h>
#include <string.h>

#include "probes/host/pcilink.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int v = pci_speed_parse((const char *)data, size);
	assert(v == -1 || (v >= 0 && v <= 99999));
	struct pci_link l = { .cur_width = size > 0 ? data[0] % 33 : -1, .max_width = 16,
			      .cur_speed = v, .max_speed = 160, .up_width = -1,
			      .up_speed = size > 1 ? data[1] : -1 };
	char why[200];
	enum probe_status st = pci_link_assess(&l, why, sizeof(why));
	assert(st == PROBE_PASS || st == PROBE_SKIP || st == PROBE_WARN || st == PROBE_FAIL);
	assert(strlen(why) < sizeof(why));
	return 0;
}
