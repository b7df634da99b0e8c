/* hccn_tool -ping, -hccs_ping and -lldp: public captures and documented examples, verbatim
 * (tests/data/hccn_tool/README names them), and hccs_ping's layout from hccn_tool's source. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "probes/nic/hccn.h"

static char err[256];
#define S(x) x, sizeof(x) - 1

static void test_ping_capture(void **state)
{
	/* arthurchiao's 910B1 capture: the first packet's set-up cost, then 34-40 us */
	static const char c[] = "device 3 PING 29.1.137.205\n"
				"recv seq=0,time=1.418000ms\n"
				"recv seq=1,time=0.034000ms\n"
				"recv seq=2,time=0.040000ms\n"
				"3 packets transmitted, 3 received, 0.00% packet loss\n";
	struct hccn_ping p;
	(void)state;
	assert_int_equal(hccn_parse_ping(S(c), &p, err, sizeof(err)), 0);
	assert_int_equal(p.device, 3);
	assert_string_equal(p.target, "29.1.137.205");
	assert_int_equal(p.sent, 3);
	assert_int_equal(p.received, 3);
	assert_true(p.loss_pct == 0.0);
	assert_int_equal(p.nrtt, 3);
	assert_true(p.rtt_ms[0] == 1.418 && p.rtt_ms[1] == 0.034 && p.rtt_ms[2] == 0.040);
	assert_int_equal(p.nlost, 0);
	assert_false(p.hccs);
	/* the median does not see the first packet */
	assert_true(hccn_ping_rtt_ms(&p) == 0.040);
}

static void test_ping_doc_examples(void **state)
{
	/* MindIE LLM's multi-node doc: the success example has a typo, "time-" */
	static const char ok[] = "device 0 PING 10.10.100.10\n"
				 "recv seq=0,time=0.067000ms\n"
				 "recv seq=1,time-0.049000ms\n"
				 "recv seq=2,time=0.047000ms\n"
				 "3 packets transmitted, 3 received, 0.00% packet loss\n";
	/* ... and its loss example: "seq=O" (a letter), and no "device N PING" line */
	static const char loss[] = "recv time out seq=O\n"
				   "recv seq=1,time=0.097000ms\n"
				   "recv seq=2,time=0.066000ms\n"
				   "3 packets transmitted, 2 received, 33.33% packet loss\n";
	struct hccn_ping p;
	(void)state;
	assert_int_equal(hccn_parse_ping(S(ok), &p, err, sizeof(err)), 0);
	assert_int_equal(p.device, 0);
	assert_string_equal(p.target, "10.10.100.10");
	assert_int_equal(p.nrtt, 3);
	assert_true(p.rtt_ms[1] == 0.049);
	assert_true(hccn_ping_rtt_ms(&p) == 0.049);
	assert_int_equal(hccn_parse_ping(S(loss), &p, err, sizeof(err)), 0);
	assert_int_equal(p.device, -1);
	assert_string_equal(p.target, "");
	assert_int_equal(p.sent, 3);
	assert_int_equal(p.received, 2);
	assert_true(p.loss_pct == 33.33);
	assert_int_equal(p.nlost, 1);
	assert_int_equal(p.nrtt, 2);
	assert_true(hccn_ping_rtt_ms(&p) == (0.097 + 0.066) / 2);
}

static void test_ping_without_summary(void **state)
{
	/* the summary cut off: counted from the packet lines */
	static const char cut[] = "device 4 PING 11.12.165.80\n"
				  "recv seq=0,time=0.142000ms\n"
				  "recv time out seq=1\n"
				  "...\n";
	struct hccn_ping p;
	(void)state;
	assert_int_equal(hccn_parse_ping(S(cut), &p, err, sizeof(err)), 0);
	assert_int_equal(p.sent, 2);
	assert_int_equal(p.received, 1);
	assert_true(p.loss_pct == 50.0);
	assert_int_equal(hccn_parse_ping(S("device 0 PING6 fe80::1\n"
					   "Destination Host Unreachable\n"),
					 &p, err, sizeof(err)),
			 0);
	assert_string_equal(p.target, "fe80::1");
	assert_true(p.unreachable && p.loss_pct == 100.0 && p.received == -1);
	assert_int_equal(hccn_parse_ping(S("The device is not exist!\n"), &p, err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, "the device does not exist");
	assert_int_equal(hccn_parse_ping(S("The command is not supported on this product.\n"), &p,
					 err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, "not supported on this product");
	assert_int_equal(hccn_parse_ping(S(""), &p, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "no ping result in the output");
	/* a summary that contradicts itself is not one */
	assert_int_equal(
		hccn_parse_ping(S("3 packets transmitted, 5 received, 0.00% packet loss\n"), &p,
				err, sizeof(err)),
		-EINVAL);
}

static void test_hccs_ping(void **state)
{
	/* the layout of hccn_tool's source (tool_ping_printf); no public capture */
	static const char h[] = "device 2 PING 192.168.2.9\n"
				"This pkt ping success!\n"
				"recv seq 0, time = 13.250us, L1 plane check result = 0x0\n"
				"This pkt send fail!\n"
				"recv seq 1, time = 0.000us, L1 plane check result = 0x0\n"
				"This pkt ping success!\n"
				"recv seq 2, time = 11.500us, L1 plane check result = 0x0\n"
				"3 packets transmitted, 2 received, 33.33% packets loss\n"
				"max time 13.250us\n"
				"min time 11.500us\n"
				"average time 12.375us\n"
				"TP95 time 13.250us\n";
	struct hccn_ping p;
	(void)state;
	assert_int_equal(hccn_parse_ping(S(h), &p, err, sizeof(err)), 0);
	assert_true(p.hccs);
	assert_int_equal(p.device, 2);
	assert_int_equal(p.sent, 3);
	assert_int_equal(p.received, 2);
	assert_true(p.loss_pct == 33.33);
	assert_int_equal(p.nrtt, 2); /* the failed packet's time is not a round trip */
	assert_true(p.rtt_ms[0] == 0.01325 && p.rtt_ms[1] == 0.0115);
	assert_int_equal(p.nlost, 1);
}

static void test_lldp_capture(void **state)
{
	/* arthurchiao's 910B1 capture: MAC and IPv4 masked by the author, TLVs elided with
	 * "...", a System Description over several lines with blank ones */
	static const char c[] = "Chassis ID TLV\n"
				"        MAC: ...\n"
				"Port ID TLV\n"
				"        Ifname: 400GE1/1/20:2\n"
				"System Description TLV\n"
				"        Versatile Routing Platform Software\n"
				"VRP (R) software, Version 8.211 (DX511 V200R021C10SPC600)\n"
				"\n"
				"Huarong DX511\n"
				"\n"
				"System Capabilities TLV\n"
				"        Enabled capabilities: Bridge, Router\n"
				"Management Address TLV\n"
				"        IPv4: 26.xx.xx.xx\n"
				"...\n"
				"Maximum Frame Size TLV\n"
				"        9216\n"
				"End of LLDPDU TLV\n";
	struct hccn_lldp l;
	(void)state;
	assert_int_equal(hccn_parse_lldp(S(c), &l, err, sizeof(err)), 0);
	assert_string_equal(l.chassis_kind, "MAC");
	assert_string_equal(l.chassis, "...");
	assert_true(l.chassis_masked);
	assert_string_equal(l.port_kind, "Ifname");
	assert_string_equal(l.port, "400GE1/1/20:2");
	assert_string_equal(l.system_desc, "Versatile Routing Platform Software VRP (R) software, "
					   "Version 8.211 (DX511 V200R021C10SPC600) Huarong DX511");
	assert_string_equal(l.mgmt_kind, "IPv4");
	assert_string_equal(l.mgmt, "26.xx.xx.xx");
	assert_true(l.mgmt_masked);
	assert_int_equal(l.max_frame, 9216);
	assert_int_equal(l.ttl, -1);
	assert_string_equal(l.system_name, "");
	/* nothing tells this switch from another */
	assert_string_equal(hccn_lldp_switch(&l), "");
}

static void test_lldp_switch(void **state)
{
	static const char t[] = "Chassis ID TLV\n"
				"\tMAC: 0c:00:00:00:00:a0\n"
				"Port ID TLV\n"
				"\tIfname: 400GE1/1/5:1\n"
				"Time to Live TLV\n"
				"\t121\n"
				"System Name TLV\n"
				"\tleaf-a\n"
				"End of LLDPDU TLV\n";
	struct hccn_lldp l;
	(void)state;
	assert_int_equal(hccn_parse_lldp(S(t), &l, err, sizeof(err)), 0);
	assert_string_equal(hccn_lldp_switch(&l), "0c:00:00:00:00:a0");
	assert_int_equal(l.ttl, 121);
	assert_string_equal(l.system_name, "leaf-a");
	l.chassis_masked = 1;
	assert_string_equal(hccn_lldp_switch(&l), "leaf-a");
	/* what "| grep Ifname" leaves of it (a DeepSeek-V3 deployment doc) is not an answer */
	assert_int_equal(hccn_parse_lldp(S("\tIfname: 400GE1/1/5:1\n\tIfname: 400GE1/1/5:2\n"), &l,
					 err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, "no LLDP neighbour in the output");
	assert_int_equal(hccn_parse_lldp(S(""), &l, err, sizeof(err)), -EINVAL);
	assert_int_equal(
		hccn_parse_lldp(S("hccn_tool is busy, please try again.\n"), &l, err, sizeof(err)),
		-EINVAL);
	assert_string_equal(err, "hccn_tool is busy");
}

static void test_gateway_doc(void **state)
{
	/* -gateway -g as the DeepSeek-V3 deployment doc shows it */
	char gw[48];
	(void)state;
	assert_int_equal(hccn_parse_gateway(S("default gateway:11.12.165.1, Iface:eth0\n"), gw,
					    sizeof(gw), err, sizeof(err)),
			 0);
	assert_string_equal(gw, "11.12.165.1");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ping_capture),
		cmocka_unit_test(test_ping_doc_examples),
		cmocka_unit_test(test_ping_without_summary),
		cmocka_unit_test(test_hccs_ping),
		cmocka_unit_test(test_lldp_capture),
		cmocka_unit_test(test_lldp_switch),
		cmocka_unit_test(test_gateway_doc),
	};
	return cmocka_run_group_tests_name("hccn_tool ping and lldp", tests, NULL, NULL);
}
