/* rt_hccn_parse: /etc/hccn.conf as hccn_tool writes it, and what goes wrong in it. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "ranktable/ranktable.h"

struct parsed {
	struct rt_hccn h;
	struct rt_diags d;
	char err[RT_ERRLEN];
	int rc;
};

static void parse(struct parsed *p, const char *text, size_t len)
{
	memset(p, 0, sizeof(*p));
	p->rc = rt_hccn_parse(&p->h, "hccn.conf", text, len, &p->d, p->err, sizeof(p->err));
}

static void done(struct parsed *p)
{
	rt_hccn_release(&p->h);
	rt_diags_release(&p->d);
}

static void assert_diag(const struct parsed *p, size_t i, const char *code, unsigned line,
			unsigned col, const char *msg)
{
	assert_true(i < p->d.n);
	assert_int_equal(p->d.v[i].sev, RT_SEV_ERROR);
	assert_string_equal(p->d.v[i].code, code);
	assert_int_equal(p->d.v[i].line, line);
	assert_int_equal(p->d.v[i].col, col);
	assert_string_equal(p->d.v[i].msg, msg);
}

static void test_typical_file(void **state)
{
	static const char text[] = "# written by hccn_tool\n"
				   "address_0=192.168.100.101\n"
				   "netmask_0=255.255.255.0\n"
				   "netdetect_0=192.168.100.1\n"
				   "gateway_0=192.168.100.1\n"
				   "\n"
				   "address_1=192.168.100.102\n"
				   "mtu_1=9000\n"
				   "tls_enable_1=0\n"
				   "bond_address_1=10.0.0.1\n"
				   "address_7=fe80::1";
	struct parsed p;

	(void)state;
	parse(&p, text, sizeof(text) - 1);
	assert_int_equal(p.rc, 0);
	assert_int_equal(p.d.n, 0);
	assert_int_equal(p.h.naddr, 8);
	assert_string_equal(p.h.addr[0], "192.168.100.101");
	assert_string_equal(p.h.addr[1], "192.168.100.102");
	assert_null(p.h.addr[2]);
	assert_null(p.h.addr[6]);
	assert_string_equal(p.h.addr[7], "fe80::1");
	done(&p);
}

static void test_crlf_spaces_tabs(void **state)
{
	static const char text[] = "\r\n  address_3 = 10.1.1.3 \r\n\taddress_12\t=\t10.1.1.12\r\n";
	struct parsed p;

	(void)state;
	parse(&p, text, sizeof(text) - 1);
	assert_int_equal(p.rc, 0);
	assert_int_equal(p.d.n, 0);
	assert_int_equal(p.h.naddr, 13);
	assert_string_equal(p.h.addr[3], "10.1.1.3");
	assert_string_equal(p.h.addr[12], "10.1.1.12");
	done(&p);
}

static void test_line_without_equals(void **state)
{
	static const char text[] = "address_0=10.0.0.1\n  address_1 10.0.0.2\n";
	struct parsed p;

	(void)state;
	parse(&p, text, sizeof(text) - 1);
	assert_int_equal(p.rc, -EINVAL);
	assert_int_equal(p.d.n, 1);
	assert_diag(&p, 0, "hccn-syntax", 2, 3, "expected key=value, found \"address_1 10.0.0.2\"");
	assert_string_equal(p.err, "hccn.conf: 1 bad line");
	assert_null(p.h.addr);
	done(&p);
}

static void test_bad_device_ids(void **state)
{
	static const char text[] = "address_64=10.0.0.1\n"
				   "address_=10.0.0.2\n"
				   "address_x=10.0.0.3\n"
				   "address_07=10.0.0.4\n"
				   "address_-1=10.0.0.5\n"
				   "address_63=10.0.0.6\n";
	struct parsed p;

	(void)state;
	parse(&p, text, sizeof(text) - 1);
	assert_int_equal(p.rc, -EINVAL);
	assert_int_equal(p.d.n, 5);
	assert_diag(&p, 0, "hccn-device-id", 1, 9,
		    "bad device id in \"address_64\": expected a decimal 0..63");
	assert_diag(&p, 1, "hccn-device-id", 2, 9,
		    "bad device id in \"address_\": expected a decimal 0..63");
	assert_diag(&p, 2, "hccn-device-id", 3, 9,
		    "bad device id in \"address_x\": expected a decimal 0..63");
	assert_diag(&p, 3, "hccn-device-id", 4, 9,
		    "bad device id in \"address_07\": expected a decimal 0..63");
	assert_diag(&p, 4, "hccn-device-id", 5, 9,
		    "bad device id in \"address_-1\": expected a decimal 0..63");
	assert_string_equal(p.err, "hccn.conf: 5 bad lines");
	done(&p);
}

static void test_duplicate_names_both_lines(void **state)
{
	static const char text[] = "address_2=10.0.0.1\nnetmask_2=255.0.0.0\n address_2=10.0.0.9\n";
	struct parsed p;

	(void)state;
	parse(&p, text, sizeof(text) - 1);
	assert_int_equal(p.rc, -EINVAL);
	assert_int_equal(p.d.n, 1);
	assert_diag(&p, 0, "hccn-duplicate", 3, 2, "address_2 is set twice: line 1 and line 3");
	assert_string_equal(p.d.v[0].path, "");
	assert_string_equal(p.d.v[0].hint, "keep one address_N line per device");
	done(&p);
}

static void test_bad_addresses(void **state)
{
	static const char text[] = "address_0=192.168.1.256\n"
				   "address_1=192.168.1\n"
				   "address_2=\n"
				   "address_3=10.0.0.1 # nic 3\n"
				   "address_4=\"10.0.0.4\"\n"
				   "address_5=010.0.0.5\n";
	struct parsed p;

	(void)state;
	parse(&p, text, sizeof(text) - 1);
	assert_int_equal(p.rc, -EINVAL);
	assert_int_equal(p.d.n, 6);
	assert_diag(&p, 0, "hccn-address", 1, 11,
		    "address_0 value \"192.168.1.256\" is not an IPv4 or IPv6 address");
	assert_diag(&p, 1, "hccn-address", 2, 11,
		    "address_1 value \"192.168.1\" is not an IPv4 or IPv6 address");
	assert_diag(&p, 2, "hccn-address", 3, 11, "address_2 has no value");
	assert_diag(&p, 3, "hccn-address", 4, 11,
		    "address_3 value \"10.0.0.1 # nic 3\" is not an IPv4 or IPv6 address");
	assert_diag(&p, 4, "hccn-address", 5, 11,
		    "address_4 value \"\\x2210.0.0.4\\x22\" is not an IPv4 or IPv6 address");
	assert_diag(&p, 5, "hccn-address", 6, 11,
		    "address_5 value \"010.0.0.5\" is not an IPv4 or IPv6 address");
	assert_string_equal(p.d.v[0].hint,
			    "set it with: hccn_tool -i N -ip -s address IP netmask MASK");
	done(&p);
}

static void test_no_address(void **state)
{
	static const char text[] = "# empty\nnetmask_0=255.255.255.0\n";
	struct parsed p;

	(void)state;
	parse(&p, text, sizeof(text) - 1);
	assert_int_equal(p.rc, -EINVAL);
	assert_int_equal(p.d.n, 0);
	assert_string_equal(p.err, "hccn.conf: no address_N= line (set it with: hccn_tool -i N "
				   "-ip -s address IP netmask MASK)");
	done(&p);

	parse(&p, "", 0);
	assert_int_equal(p.rc, -EINVAL);
	done(&p);
}

/* NUL bytes, no trailing newline and a long line: the parser stays inside len. */
static void test_hostile_bytes(void **state)
{
	static const char text[] = "address_0=10.0.0.1\0junk\naddress_1=10.0\0.0.2";
	char *big;
	struct parsed p;
	size_t n = 1 << 20;

	(void)state;
	parse(&p, text, sizeof(text) - 1);
	assert_int_equal(p.rc, -EINVAL);
	assert_int_equal(p.d.n, 2);
	assert_diag(&p, 0, "hccn-address", 1, 11,
		    "address_0 value \"10.0.0.1\\x00junk\" is not an IPv4 or IPv6 address");
	assert_diag(&p, 1, "hccn-address", 2, 11,
		    "address_1 value \"10.0\\x00.0.2\" is not an IPv4 or IPv6 address");
	done(&p);

	big = malloc(n);
	assert_non_null(big);
	memcpy(big, "address_0=", 10);
	memset(big + 10, '1', n - 10);
	parse(&p, big, n);
	assert_int_equal(p.rc, -EINVAL);
	assert_int_equal(p.d.n, 1);
	assert_diag(&p, 0, "hccn-address", 1, 11,
		    "address_0 value \"1111111111111111111111111111111111111111...\" is not an "
		    "IPv4 or IPv6 address");
	done(&p);
	free(big);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_typical_file),
		cmocka_unit_test(test_crlf_spaces_tabs),
		cmocka_unit_test(test_line_without_equals),
		cmocka_unit_test(test_bad_device_ids),
		cmocka_unit_test(test_duplicate_names_both_lines),
		cmocka_unit_test(test_bad_addresses),
		cmocka_unit_test(test_no_address),
		cmocka_unit_test(test_hostile_bytes),
	};
	return cmocka_run_group_tests_name("hccn", tests, NULL, NULL);
}
