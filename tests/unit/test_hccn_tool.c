/* hccn_tool output parsers: its documented outputs and public captures, newer and older
 * builds. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "probes/nic/hccn.h"

static char err[256];
#define S(x) x, sizeof(x) - 1

static void test_link_health(void **state)
{
	int up = -1;
	char h[32];
	(void)state;
	assert_int_equal(hccn_parse_link(S("link status: UP\n"), &up, err, sizeof(err)), 0);
	assert_int_equal(up, 1);
	assert_int_equal(hccn_parse_link(S("link status:DOWN"), &up, err, sizeof(err)), 0);
	assert_int_equal(up, 0);
	assert_int_equal(hccn_parse_link(S("link status: FLAKY\n"), &up, err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, "link status \"FLAKY\" is neither UP nor DOWN");
	assert_int_equal(hccn_parse_link(S("The device is not exist!\n"), &up, err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, "the device does not exist");
	assert_int_equal(hccn_parse_net_health(S("net health status: Receive timeout\n"), h,
					       sizeof(h), err, sizeof(err)),
			 0);
	assert_string_equal(h, "Receive timeout");
	assert_int_equal(
		hccn_parse_net_health(S("net health status: \n"), h, sizeof(h), err, sizeof(err)),
		-EINVAL);
}

static void test_ip(void **state)
{
	struct hccn_ip ip;
	(void)state;
	assert_int_equal(hccn_parse_ip(S("ipaddr:10.86.1.80\nnetmask:255.255.255.0\n"), &ip, err,
				       sizeof(err)),
			 0);
	assert_string_equal(ip.addr, "10.86.1.80");
	assert_string_equal(ip.mask, "255.255.255.0");
	assert_int_equal(
		hccn_parse_ip(S("ipaddr:10.0.0.1 netmask:255.255.0.0"), &ip, err, sizeof(err)), 0);
	assert_string_equal(ip.mask, "255.255.0.0");
	assert_int_equal(hccn_parse_ip(S("ipaddr: fe80::1\n"), &ip, err, sizeof(err)), 0);
	assert_string_equal(ip.addr, "fe80::1");
	assert_string_equal(ip.mask, "");
	assert_int_equal(hccn_parse_ip(S("Get ipconf failed, because no ip was preset there!\n"),
				       &ip, err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, "no IP configured");
	assert_int_equal(hccn_parse_ip(S("ipaddr:-.-.-.-\n"), &ip, err, sizeof(err)), -EINVAL);
}

static void test_netdetect_gateway(void **state)
{
	char a[48];
	(void)state;
	assert_int_equal(hccn_parse_netdetect(S("netdetect addr: 192.168.100.1\n"), a, sizeof(a),
					      err, sizeof(err)),
			 0);
	assert_string_equal(a, "192.168.100.1");
	assert_int_equal(hccn_parse_gateway(S("default gateway:10.0.0.1, ifname:eth0\n"), a,
					    sizeof(a), err, sizeof(err)),
			 0);
	assert_string_equal(a, "10.0.0.1");
	assert_int_equal(
		hccn_parse_gateway(S("Get gateway failed, because no gateway was preset there!\n"),
				   a, sizeof(a), err, sizeof(err)),
		-EINVAL);
	assert_string_equal(err, "no gateway configured");
}

static void test_tls(void **state)
{
	static const char newer[] =
		"dev_id:1, tls switch[1](0:disable, 1:enable), tls preconfigured[1](0:non-preset, "
		"1:preset), tls alarm time threshold[60]days\n"
		"dev_id:1, [pub cert] info:\n         "
		"issuer[/C=CN/ST=GD/O=HUAWEI/OU=2012/CN=2_1thCA]\n"
		"         start_time[Wed Feb 19 03:19:21 2020 GMT]\n         end_time[Sat Feb 16 "
		"03:19:21 2030 GMT]\n"
		"dev_id:1, [ca1 cert] info:\n         end_time[Sat Feb 16 03:19:07 2030 GMT]\n";
	static const char older[] =
		"dev_id:0, tls switch[0](0:disable, 1:enable), tls alarm time threshold[60]days\n";
	struct hccn_tls t;
	(void)state;
	assert_int_equal(hccn_parse_tls(S(newer), &t, err, sizeof(err)), 0);
	assert_int_equal(t.enabled, 1);
	assert_int_equal(t.preconfigured, 1);
	assert_int_equal(t.alarm_days, 60);
	assert_int_equal(t.ncerts, 2);
	assert_string_equal(t.first_expiry_text, "Sat Feb 16 03:19:07 2030 GMT");
	assert_true(t.first_expiry == (time_t)1897442347);
	assert_int_equal(hccn_parse_tls(S(older), &t, err, sizeof(err)), 0);
	assert_int_equal(t.enabled, 0);
	assert_int_equal(t.preconfigured, -1);
	assert_int_equal(hccn_parse_tls(S("dev_id:0, tls switch[7]\n"), &t, err, sizeof(err)),
			 -EINVAL);
}

static void test_optical(void **state)
{
	struct hccn_optical o;
	(void)state;
	assert_int_equal(hccn_parse_optical(
				 S("optical info:\npresent              : not present\n...\nRx "
				   "Power             : 1.0189 mW\nRx Los Flag          : 0xff\n"),
				 &o, err, sizeof(err)),
			 0);
	assert_int_equal(o.present, 0);
	assert_true(o.rx_mw > 1.0188 && o.rx_mw < 1.0190);
	assert_int_equal(o.rx_los, 255);
	assert_int_equal(o.tx_los, -1);
	assert_int_equal(
		hccn_parse_optical(S("optical info:\npresent : present\n"), &o, err, sizeof(err)),
		0);
	assert_int_equal(o.present, 1);
	assert_int_equal(
		hccn_parse_optical(S("Optical module is not present.\n"), &o, err, sizeof(err)), 0);
	assert_int_equal(o.present, 0);
	assert_int_equal(hccn_parse_optical(S("The command is not supported on this product.\n"),
					    &o, err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, "not supported on this product");
}

static void test_link_stat(void **state)
{
	static const char newer[] = "[devid 0]current time        : Tue Oct 28 21:46:46 2025\n"
				    "[devid 0]link up count       : 2\n"
				    "[devid 0]link down count     : 1\n"
				    "[devid 0]link change records :\n"
				    "[devid 0]    Sun Oct  5 10:13:51 2025    LINK UP\n"
				    "[devid 0]    Sun Oct  5 10:13:50 2025    LINK DOWN\n"
				    "[devid 0]    Sun Oct  5 10:13:35 2025    LINK UP\n";
	static const char older[] = "[device 3]current time        : Wed Jun  7 10:08:28 2023\n"
				    "[device 3]link up count       : 2\n"
				    "[device 3]link change records : NA\n";
	struct hccn_link_stat s;
	(void)state;
	assert_int_equal(hccn_parse_link_stat(S(newer), &s, err, sizeof(err)), 0);
	assert_int_equal(s.up_count, 2);
	assert_int_equal(s.down_count, 1);
	assert_int_equal(s.nrecords, 3);
	assert_int_equal(s.ndown_records, 1);
	assert_false(s.rec[1].up);
	assert_string_equal(s.rec[1].text, "Sun Oct  5 10:13:50 2025");
	assert_true(s.now - s.rec[1].when == 23 * 86400 + 11 * 3600 + 32 * 60 + 56);
	assert_int_equal(hccn_parse_link_stat(S(older), &s, err, sizeof(err)), 0);
	assert_int_equal(s.up_count, 2);
	assert_int_equal(s.down_count, -1);
	assert_int_equal(s.nrecords, 0);
	assert_int_equal(hccn_parse_link_stat(S("hccn_tool is busy, please try again.\n"), &s, err,
					      sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, "hccn_tool is busy");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_link_health),	  cmocka_unit_test(test_ip),
		cmocka_unit_test(test_netdetect_gateway), cmocka_unit_test(test_tls),
		cmocka_unit_test(test_optical),		  cmocka_unit_test(test_link_stat),
	};
	return cmocka_run_group_tests_name("hccn_tool", tests, NULL, NULL);
}
