/* rt_hostfile_parse: our own, Open MPI and MPICH hostfiles, and server names that must
 * never reach an ssh command line. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "ranktable/ranktable.h"

struct parsed {
	struct rt_hostfile hf;
	struct rt_diags d;
	char err[RT_ERRLEN];
	int rc;
};

static void parse(struct parsed *p, const char *text, size_t len)
{
	memset(p, 0, sizeof(*p));
	p->rc = rt_hostfile_parse(&p->hf, "hosts", text, len, &p->d, p->err, sizeof(p->err));
}

static void parse_str(struct parsed *p, const char *text)
{
	parse(p, text, strlen(text));
}

static void done(struct parsed *p)
{
	rt_hostfile_release(&p->hf);
	rt_diags_release(&p->d);
}

static void assert_diag(const struct parsed *p, size_t i, enum rt_severity sev,
			const char *code, unsigned line, unsigned col, const char *msg)
{
	assert_true(i < p->d.n);
	assert_int_equal(p->d.v[i].sev, sev);
	assert_string_equal(p->d.v[i].code, code);
	assert_int_equal(p->d.v[i].line, line);
	assert_int_equal(p->d.v[i].col, col);
	assert_string_equal(p->d.v[i].msg, msg);
}

static void test_all_dialects(void **state)
{
	struct parsed p;

	(void)state;
	parse_str(&p, "# cluster A\r\n"
		      "10.0.0.1 host_ip=172.16.0.1 slots=8\r\n"
		      "\r\n"
		      "  node3 slots=8 max_slots=16   # Open MPI\n"
		      "10.0.0.5:8\n"
		      "fe80::1\n"
		      "node_4.example-net");
	assert_int_equal(p.rc, 0);
	assert_int_equal(p.d.n, 0);
	assert_int_equal(p.hf.n, 5);
	assert_string_equal(p.hf.v[0].server_id, "10.0.0.1");
	assert_string_equal(p.hf.v[0].host_ip, "172.16.0.1");
	assert_string_equal(p.hf.v[1].server_id, "node3");
	assert_null(p.hf.v[1].host_ip);
	assert_string_equal(p.hf.v[2].server_id, "10.0.0.5");
	assert_string_equal(p.hf.v[3].server_id, "fe80::1");
	assert_string_equal(p.hf.v[4].server_id, "node_4.example-net");
	done(&p);
}

static void test_duplicate_names_first_line(void **state)
{
	struct parsed p;

	(void)state;
	parse_str(&p, "a\nb\n  a slots=2\nc\nb:4\na\n");
	assert_int_equal(p.rc, -EINVAL);
	assert_int_equal(p.d.n, 3);
	rt_diags_sort(&p.d);
	assert_diag(&p, 0, RT_SEV_ERROR, "hostfile-duplicate", 3, 3,
		    "server \"a\" is already listed on line 1");
	assert_diag(&p, 1, RT_SEV_ERROR, "hostfile-duplicate", 5, 1,
		    "server \"b\" is already listed on line 2");
	assert_diag(&p, 2, RT_SEV_ERROR, "hostfile-duplicate", 6, 1,
		    "server \"a\" is already listed on line 1");
	assert_string_equal(p.err, "hosts: 3 errors");
	assert_int_equal(p.hf.n, 0);
	assert_null(p.hf.v);
	done(&p);
}

/* A list from the command line counts entries; the slots of each line are kept for gen to
 * compare with its devices (Open MPI's slots=N, MPICH's HOST:N). */
static void test_list_entries_and_slots(void **state)
{
	struct parsed p;
	(void)state;
	memset(&p, 0, sizeof(p));
	const char *list = "x\ny\nx\n";
	p.rc = rt_hostfile_parse_list(&p.hf, "--servers", list, strlen(list), &p.d, p.err,
				      sizeof(p.err));
	assert_int_equal(p.rc, -EINVAL);
	assert_int_equal(p.d.n, 1);
	assert_diag(&p, 0, RT_SEV_ERROR, "hostfile-duplicate", 3, 1,
		    "server \"x\" is already listed as entry 1");
	done(&p);
	parse_str(&p, "a slots=4\nb:2\nc\n");
	assert_int_equal(p.rc, 0);
	assert_int_equal(p.hf.n, 3);
	assert_int_equal(p.hf.v[0].slots, 4);
	assert_int_equal(p.hf.v[1].slots, 2);
	assert_int_equal(p.hf.v[2].slots, 0);
	assert_int_equal(p.hf.v[1].line, 2);
	done(&p);
}

static void test_bad_host_ip(void **state)
{
	struct parsed p;

	(void)state;
	parse_str(&p, "n1 host_ip=10.0.0.300\nn2 host_ip=\nn3 host_ip=1.2.3.4 host_ip=1.2.3.5\n");
	assert_int_equal(p.rc, -EINVAL);
	assert_int_equal(p.d.n, 3);
	assert_diag(&p, 0, RT_SEV_ERROR, "hostfile-host-ip", 1, 12,
		    "host_ip \"10.0.0.300\" is not an IPv4 or IPv6 address");
	assert_diag(&p, 1, RT_SEV_ERROR, "hostfile-host-ip", 2, 12,
		    "host_ip \"\" is not an IPv4 or IPv6 address");
	assert_diag(&p, 2, RT_SEV_ERROR, "hostfile-syntax", 3, 20,
		    "host_ip is given twice on this line");
	done(&p);
}

static void test_unknown_key_is_warning(void **state)
{
	struct parsed p;

	(void)state;
	parse_str(&p, "n1 rack=7 slots=8\n");
	assert_int_equal(p.rc, 0);
	assert_int_equal(p.d.n, 1);
	assert_diag(&p, 0, RT_SEV_WARNING, "hostfile-unknown-key", 1, 4,
		    "unknown key \"rack\" ignored");
	assert_int_equal(p.hf.n, 1);
	done(&p);
}

static void test_shell_metacharacters(void **state)
{
	static const char *const bad[] = {
		"n1;reboot", "n1|x", "n1&", "$(id)", "`id`", "n'1", "n\"1", "n<1", "n>1",
		"(n1)", "n\\1", "n*", "-oProxyCommand=x", "n1\x01", "n\xc3\xa9",
	};
	static const char *const msg[] = {
		"server \"n1;reboot\" contains ';'",
		"server \"n1|x\" contains '|'",
		"server \"n1&\" contains '&'",
		"server \"$(id)\" contains '$'",
		"server \"`id`\" contains '`'",
		"server \"n'1\" contains '''",
		"server \"n\\x221\" contains '\"'",
		"server \"n<1\" contains '<'",
		"server \"n>1\" contains '>'",
		"server \"(n1)\" contains '('",
		"server \"n\\x5c1\" contains '\\'",
		"server \"n*\" contains '*'",
		"server \"-oProxyCommand=x\" contains '-' at the start",
		"server \"n1\\x01\" contains byte 0x01",
		"server \"n\\xc3\\xa9\" contains byte 0xc3",
	};
	static const unsigned col[] = { 3, 3, 3, 1, 1, 2, 2, 2, 2, 1, 2, 2, 1, 3, 2 };

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct parsed p;

		parse_str(&p, bad[i]);
		assert_int_equal(p.rc, -EINVAL);
		assert_int_equal(p.d.n, 1);
		assert_diag(&p, 0, RT_SEV_ERROR, "hostfile-server", 1, col[i], msg[i]);
		done(&p);
	}
}

static void test_long_and_odd_servers(void **state)
{
	char line[128];
	struct parsed p;

	(void)state;
	memset(line, 'a', 64);
	line[64] = '\0';
	parse_str(&p, line);
	assert_int_equal(p.rc, 0);
	assert_int_equal(strlen(p.hf.v[0].server_id), 64);
	done(&p);

	memset(line, 'a', 65);
	line[65] = '\0';
	parse_str(&p, line);
	assert_int_equal(p.rc, -EINVAL);
	assert_diag(&p, 0, RT_SEV_ERROR, "hostfile-server", 1, 1,
		    "server id \"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...\" is 65 characters "
		    "long; HCCL allows 64");
	done(&p);

	parse_str(&p, "n1:x\n:8\nfe80::zz\nn2 n3\nn4 slots=0\n");
	assert_int_equal(p.rc, -EINVAL);
	assert_int_equal(p.d.n, 5);
	assert_diag(&p, 0, RT_SEV_ERROR, "hostfile-syntax", 1, 4,
		    "bad process count in \"n1:x\": expected HOST:N");
	assert_diag(&p, 1, RT_SEV_ERROR, "hostfile-syntax", 2, 1, "missing server before ':'");
	assert_diag(&p, 2, RT_SEV_ERROR, "hostfile-server", 3, 1,
		    "server \"fe80::zz\" is neither a host name nor an IP");
	assert_diag(&p, 3, RT_SEV_ERROR, "hostfile-syntax", 4, 4,
		    "unexpected \"n3\" after the server");
	assert_diag(&p, 4, RT_SEV_ERROR, "hostfile-syntax", 5, 10,
		    "slots \"0\" is not a positive number");
	done(&p);
}

static void test_empty(void **state)
{
	struct parsed p;

	(void)state;
	parse_str(&p, "# nothing\n\n   \n");
	assert_int_equal(p.rc, -EINVAL);
	assert_int_equal(p.d.n, 0);
	assert_string_equal(p.err, "hosts: no server listed");
	done(&p);
}

static void test_nul_bytes(void **state)
{
	static const char text[] = "n1\0x\nn2";
	struct parsed p;

	(void)state;
	parse(&p, text, sizeof(text) - 1);
	assert_int_equal(p.rc, -EINVAL);
	assert_int_equal(p.d.n, 1);
	assert_diag(&p, 0, RT_SEV_ERROR, "hostfile-server", 1, 3,
		    "server \"n1\\x00x\" contains byte 0x00");
	done(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_all_dialects),
		cmocka_unit_test(test_duplicate_names_first_line),
		cmocka_unit_test(test_list_entries_and_slots),
		cmocka_unit_test(test_bad_host_ip),
		cmocka_unit_test(test_unknown_key_is_warning),
		cmocka_unit_test(test_shell_metacharacters),
		cmocka_unit_test(test_long_and_odd_servers),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_nul_bytes),
	};
	return cmocka_run_group_tests_name("hostfile", tests, NULL, NULL);
}
