/* Fuzzes the hccn_tool output parsers (link, net_health, ip, netdetect, gateway, tls, optical,
 * link_stat): any bytes give 0 or -EINVAL, never a read outside the input. */
#include <assert.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "probes/nic/hccn.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data;
	char err[256], buf[48];
	int up, rc;
	struct hccn_ip ip;
	struct hccn_tls tls;
	struct hccn_optical o;
	static struct hccn_link_stat st;
	time_t t;

	rc = hccn_parse_link(s, size, &up, err, sizeof(err));
	assert(rc == 0 || rc == -EINVAL);
	assert(rc || up == 0 || up == 1);
	rc = hccn_parse_net_health(s, size, buf, sizeof(buf), err, sizeof(err));
	assert(rc == 0 || rc == -EINVAL);
	assert(rc || (buf[0] && strlen(buf) < sizeof(buf)));
	rc = hccn_parse_ip(s, size, &ip, err, sizeof(err));
	assert(rc == 0 || rc == -EINVAL);
	assert(rc || (ip.addr[0] && strlen(ip.addr) < sizeof(ip.addr)));
	rc = hccn_parse_netdetect(s, size, buf, sizeof(buf), err, sizeof(err));
	assert(rc == 0 || rc == -EINVAL);
	rc = hccn_parse_gateway(s, size, buf, sizeof(buf), err, sizeof(err));
	assert(rc == 0 || rc == -EINVAL);
	rc = hccn_parse_tls(s, size, &tls, err, sizeof(err));
	assert(rc == 0 || rc == -EINVAL);
	assert(rc || tls.enabled == 0 || tls.enabled == 1);
	assert(rc || (tls.expiry_status >= -1 && tls.ncerts >= 0));
	rc = hccn_parse_optical(s, size, &o, err, sizeof(err));
	assert(rc == 0 || rc == -EINVAL);
	if (rc == 0) {
		assert((o.nrx == 0) == (o.rx_mw < 0) && (o.ntx == 0) == (o.tx_mw < 0));
		assert(o.rx_lane >= -1 && o.rx_lane < 64 && o.tx_lane >= -1 && o.tx_lane < 64);
	}
	rc = hccn_parse_link_stat(s, size, &st, err, sizeof(err));
	assert(rc == 0 || rc == -EINVAL);
	assert(st.nrecords <= HCCN_MAX_RECORDS);
	rc = hccn_parse_time(s, size, &t);
	assert(rc == 0 || rc == -EINVAL);
	(void)hccn_known_error(s, size);
	return 0;
}
