/* Fuzzes the small sysfs file parsers of probe rdma (state, phys_state, rate, gids/N,
 * gid_attrs/types/N, counters): any bytes give 0 or -EINVAL, never a read outside the
 * input, and what parses is in range. */
#include <assert.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "probes/nic/rdma_sysfs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data;
	char name[32], speed[16], text[64];
	int num, width, rc;
	double gbps;
	uint8_t gid[16];
	unsigned long long v;

	rc = rdma_parse_state(s, size, &num, name, sizeof(name));
	assert(rc == 0 || rc == -EINVAL);
	assert(rc || (num >= 0 && num <= 255 && strlen(name) < sizeof(name)));
	rc = rdma_parse_rate(s, size, &gbps, &width, speed, sizeof(speed));
	assert(rc == 0 || rc == -EINVAL);
	assert(rc || (gbps >= 0 && width >= 0 && width <= 64 && strlen(speed) < sizeof(speed)));
	rc = rdma_parse_gid(s, size, gid);
	assert(rc == 0 || rc == -EINVAL);
	if (rc == 0) {
		rdma_gid_text(gid, text, sizeof(text));
		assert(text[0]);
	}
	enum rdma_gid_type t = rdma_parse_gid_type(s, size);
	assert(t == RDMA_GID_UNKNOWN || t == RDMA_GID_IB_ROCE_V1 || t == RDMA_GID_ROCE_V2);
	rc = rdma_parse_counter(s, size, &v);
	assert(rc == 0 || rc == -EINVAL);
	if (size >= 4) {
		int mtu;
		memcpy(&mtu, data, sizeof(mtu));
		int m = rdma_roce_mtu(mtu);
		assert(m == 0 || m == 256 || m == 512 || m == 1024 || m == 2048 || m == 4096);
	}
	return 0;
}
