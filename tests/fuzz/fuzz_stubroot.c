/* Fuzzes the test stand-in libhccl.so's root-info parser (tests/stub/hccl_rootinfo.c, built
 * in here: the stand-ins are not part of libhcclctl.a). Input bytes fill HcclRootInfo from
 * the start, the rest zero. What it accepts must format back to the same bytes; what it
 * refuses it must say where. */
#include <assert.h>
#include <stdint.h>
#include <string.h>

#include "tests/stub/hccl_rootinfo.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static HcclRootInfo ri, again;
	char ip[STUB_IPLEN], why[STUB_WHYLEN] = "";
	unsigned char nonce[STUB_NONCE];
	int port = 0;

	memset(&ri, 0, sizeof(ri));
	memcpy(ri.internal, data, size < sizeof(ri.internal) ? size : sizeof(ri.internal));
	if (stubhccl_root_parse(&ri, ip, &port, nonce, why, sizeof(why)) == HCCL_SUCCESS) {
		assert(port >= 1 && port <= 65535 && strlen(ip) < STUB_IPLEN);
		stubhccl_root_format(&again, ip, port, nonce);
		assert(memcmp(&ri, &again, sizeof(ri)) == 0);
	} else {
		assert(strncmp(why, "root info: ", 11) == 0);
	}
	return 0;
}
