/* rt_gen against hand-written goldens (checked with python3's json.dumps(indent=4), which
 * is what hccl_tools.py uses), rt_parse_devices and rt_write_atomic. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "ranktable/ranktable.h"

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	assert_true(n >= 0);
	rewind(f);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	*len = (size_t)n;
	return buf;
}

static void load_hccn(struct rt_hccn *h, const char *path)
{
	struct rt_diags d = { 0 };
	char err[RT_ERRLEN] = "";
	size_t len;
	char *buf = slurp(path, &len);

	assert_int_equal(rt_hccn_parse(h, path, buf, len, &d, err, sizeof(err)), 0);
	assert_int_equal(d.n, 0);
	rt_diags_release(&d);
	free(buf);
}

/* What gen writes must pass validate without a single finding. */
static void assert_loads_clean(const char *text, size_t len)
{
	struct rt_table t = { 0 };
	struct rt_diags d = { 0 };
	char err[RT_ERRLEN] = "";

	assert_int_equal(rt_table_load(&t, "gen", text, len, &d, err, sizeof(err)), 0);
	for (size_t i = 0; i < d.n; i++)
		fail_msg("%u:%u: %s [%s]", d.v[i].line, d.v[i].col, d.v[i].msg, d.v[i].code);
	rt_diags_release(&d);
	rt_table_release(&t);
}

static void assert_golden(const struct rt_gen_spec *spec, const char *golden)
{
	char err[RT_ERRLEN] = "", *out = NULL, *want;
	size_t len = 0, wlen;

	assert_int_equal(rt_gen(spec, &out, &len, err, sizeof(err)), 0);
	assert_string_equal(err, "");
	want = slurp(golden, &wlen);
	assert_int_equal(len, wlen);
	assert_string_equal(out, want);
	assert_memory_equal(out, want, wlen);
	assert_loads_clean(out, len);
	free(want);
	free(out);
}

static void test_hccl_tools_golden(void **state)
{
	static const long devs[] = { 0, 1, 2, 3 };
	struct rt_hccn h;
	struct rt_gen_server srv = { .server_id = "10.0.0.1", .hccn = &h };
	struct rt_gen_spec spec = { RT_FMT_V1_0, &srv, 1, devs, 4 };

	(void)state;
	load_hccn(&h, "tests/data/hccn/10.0.0.1.conf");
	assert_golden(&spec, "tests/data/gen/hccl_tools_1srv_4dev.json");
	rt_hccn_release(&h);
}

static void test_two_servers_golden(void **state)
{
	static const long devs[] = { 0, 1 };
	struct rt_hccn a, b;
	struct rt_gen_server srv[2] = {
		{ .server_id = "10.0.0.1", .host_ip = "172.16.0.1", .hccn = &a },
		{ .server_id = "10.0.0.2", .host_ip = "172.16.0.2", .hccn = &b },
	};
	struct rt_gen_spec spec = { RT_FMT_V1_0, srv, 2, devs, 2 };

	(void)state;
	load_hccn(&a, "tests/data/hccn/10.0.0.1-crlf.conf");
	load_hccn(&b, "tests/data/hccn/10.0.0.2.conf");
	assert_golden(&spec, "tests/data/gen/2srv_2dev_host_ip.json");
	rt_hccn_release(&a);
	rt_hccn_release(&b);
}

/* A hand-built rt_hccn: addr[id] for ids 0..n-1. */
struct fake_hccn {
	struct rt_hccn h;
	char *addr[8];
};

static void fake(struct fake_hccn *f, int net, int first, size_t n)
{
	char ip[32];

	memset(f, 0, sizeof(*f));
	for (size_t i = 0; i < n; i++) {
		snprintf(ip, sizeof(ip), "192.168.%d.%d", net, first + (int)i);
		f->addr[i] = strdup(ip);
	}
	f->h.addr = f->addr;
	f->h.naddr = n;
}

static void unfake(struct fake_hccn *f)
{
	for (size_t i = 0; i < 8; i++)
		free(f->addr[i]);
}

static void test_v12_golden(void **state)
{
	static const long devs[] = { 0, 1 };
	struct fake_hccn h[3];
	struct rt_gen_server srv[3] = {
		{ "node_0", "172.16.0.100", "0", &h[0].h, NULL },
		{ "node_1", "172.16.0.101", "0", &h[1].h, NULL },
		{ "node_2", "172.16.0.102", "1", &h[2].h, NULL },
	};
	struct rt_gen_spec spec = { RT_FMT_V1_2, srv, 3, devs, 2 };

	(void)state;
	/* 192.168.N.6 and .7, as in the HCCL doc's 1.2 example */
	fake(&h[0], 1, 6, 2);
	fake(&h[1], 2, 6, 2);
	fake(&h[2], 3, 6, 2);
	assert_golden(&spec, "tests/data/gen/v1.2_3srv_2pods_2dev.json");
	for (int i = 0; i < 3; i++)
		unfake(&h[i]);
}

static void expect_refusal(const struct rt_gen_spec *spec, const char *msg)
{
	char err[RT_ERRLEN] = "", *out = (char *)"untouched";
	size_t len = 7;

	assert_int_equal(rt_gen(spec, &out, &len, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, msg);
	assert_null(out);
	assert_int_equal(len, 0);
}

/* IPv4 and IPv6 device IPs mixed: the input is at fault, and the lines are named. */
static void test_mixed_family(void **state)
{
	static const long devs[] = { 0, 1 };
	char err[RT_ERRLEN] = "", *out = NULL;
	size_t len = 0;
	struct rt_hccn a, b;
	struct rt_diags d = { 0 };
	const char *ta = "address_0=192.168.1.10\nnetmask_0=255.255.255.0\naddress_1=192.168.1.11\n";
	const char *tb = "# v6\naddress_0=fd00::20\naddress_1=fd00::21\n";
	struct rt_gen_server srv[2] = {
		{ .server_id = "10.0.0.1", .hccn = &a, .hccn_path = "hccn/10.0.0.1" },
		{ .server_id = "10.0.0.2", .hccn = &b, .hccn_path = "hccn/10.0.0.2" },
	};
	struct rt_gen_spec spec = { RT_FMT_V1_0, srv, 2, devs, 2 };

	(void)state;
	assert_int_equal(rt_hccn_parse(&a, "a", ta, strlen(ta), &d, err, sizeof(err)), 0);
	assert_int_equal(rt_hccn_parse(&b, "b", tb, strlen(tb), &d, err, sizeof(err)), 0);
	assert_int_equal(a.line[1], 3);
	assert_int_equal(b.line[0], 2);
	assert_int_equal(rt_gen(&spec, &out, &len, err, sizeof(err)), -EINVAL);
	assert_null(out);
	assert_string_equal(err, "hccn/10.0.0.2:2: address_0=fd00::20 (server \"10.0.0.2\" device 0) "
				 "is IPv6, but hccn/10.0.0.1:1: address_0=192.168.1.10 (server "
				 "\"10.0.0.1\" device 0) is IPv4; HCCL needs one address family for "
				 "every device: configure all NPUs with IPv4 or all with IPv6 "
				 "(hccn_tool -i N -ip -s ...)");
	rt_hccn_release(&a);
	rt_hccn_release(&b);
	rt_diags_release(&d);
}

static void test_refusals(void **state)
{
	static const long devs[] = { 4, 5, 6 };
	static const long bad_order[] = { 1, 1 };
	static const long too_big[] = { 16 };
	struct rt_hccn h3, h1;
	struct rt_gen_server srv[3] = {
		{ .server_id = "10.0.0.2", .hccn = &h3 },
		{ .server_id = "10.0.0.3", .hccn = &h3 },
		{ .server_id = "10.0.0.2" },
	};
	struct rt_gen_spec spec = { RT_FMT_V1_0, srv, 1, devs, 3 };

	(void)state;
	load_hccn(&h3, "tests/data/hccn/10.0.0.3-missing-5.conf");
	load_hccn(&h1, "tests/data/hccn/10.0.0.1.conf");
	expect_refusal(&spec, "no device IP for server \"10.0.0.2\" device 5: /etc/hccn.conf has "
			      "no address_5 (set it with: hccn_tool -i 5 -ip -s address IP "
			      "netmask MASK)");

	/* A device beyond naddr is missing too, not an out-of-bounds read. */
	srv[0].hccn = &h1;
	expect_refusal(&spec, "no device IP for server \"10.0.0.2\" device 4: /etc/hccn.conf has "
			      "no address_4 (set it with: hccn_tool -i 4 -ip -s address IP "
			      "netmask MASK)");

	srv[0].hccn = NULL;
	expect_refusal(&spec, "no device IP for server \"10.0.0.2\" device 4: no hccn.conf was "
			      "given for this server");

	/* The same hccn.conf for two servers. */
	static const long d67[] = { 6, 7 };
	srv[0].hccn = &h3;
	spec.devices = d67;
	spec.ndevices = 2;
	spec.nservers = 2;
	expect_refusal(&spec, "device IP 192.168.3.6 is used twice: server \"10.0.0.2\" device 6 "
			      "and server \"10.0.0.3\" device 6 (was the same hccn.conf given for "
			      "both?)");

	srv[1].hccn = &h1;
	srv[2].hccn = &h1;
	spec.nservers = 3;
	expect_refusal(&spec, "server \"10.0.0.2\" is listed twice (servers 1 and 3)");

	spec.nservers = 1;
	spec.devices = bad_order;
	expect_refusal(&spec, "device ids must be ascending and unique (1 after 1)");
	spec.devices = too_big;
	spec.ndevices = 1;
	expect_refusal(&spec, "device 16 is out of range 0..15: a version 1.x table holds at most "
			      "16 NPUs per server");
	spec.ndevices = 0;
	expect_refusal(&spec, "no devices given");

	spec.format = RT_FMT_V2_0;
	expect_refusal(&spec, "can only generate 1.0 and 1.2 tables");

	long all[16];
	struct rt_gen_server *many = calloc(4097, sizeof(*many));
	assert_non_null(many);
	for (int i = 0; i < 16; i++)
		all[i] = i;
	spec = (struct rt_gen_spec){ RT_FMT_V1_0, many, 4097, all, 16 };
	expect_refusal(&spec, "4097 servers x 16 devices is more than 65536 ranks");
	free(many);

	rt_hccn_release(&h3);
	rt_hccn_release(&h1);
}

static void test_v12_refusals(void **state)
{
	static const long devs[] = { 0 };
	struct fake_hccn h[3];
	struct rt_gen_server srv[3] = {
		{ "a", NULL, "p0", &h[0].h, NULL },
		{ "b", NULL, "p1", &h[1].h, NULL },
		{ "c", NULL, "p0", &h[2].h, NULL },
	};
	struct rt_gen_spec spec = { RT_FMT_V1_2, srv, 3, devs, 1 };

	(void)state;
	fake(&h[0], 0, 1, 1);
	fake(&h[1], 1, 1, 1);
	fake(&h[2], 2, 1, 1);
	expect_refusal(&spec, "super pod \"p0\" is split: server \"c\" is not next to the pod's "
			      "other servers; list a pod's servers together");
	srv[1].super_pod_id = NULL;
	expect_refusal(&spec, "server \"b\" has no super pod id; a 1.2 table needs one per server");
	srv[1].super_pod_id = "p0";
	srv[1].host_ip = "not-an-ip";
	expect_refusal(&spec, "server \"b\": host_ip \"not-an-ip\" is not an IP address");
	srv[1].host_ip = "10.1.1.1";
	expect_refusal(&spec, "server \"a\" has no host_ip but server \"b\" has one; give "
			      "host_ip for every server or none");
	srv[0].host_ip = "10.1.1.0";
	expect_refusal(&spec, "server \"c\" has no host_ip but server \"a\" has one; give "
			      "host_ip for every server or none");
	for (int i = 0; i < 3; i++)
		unfake(&h[i]);
}

static void test_escaping_and_determinism(void **state)
{
	static const long devs[] = { 0 };
	struct fake_hccn h;
	struct rt_gen_server srv = { .server_id = "a\"b\\c\n\x01", .hccn = &h.h };
	struct rt_gen_spec spec = { RT_FMT_V1_0, &srv, 1, devs, 1 };
	char err[RT_ERRLEN] = "", *o1, *o2;
	size_t l1, l2;

	(void)state;
	fake(&h, 9, 9, 1);
	assert_int_equal(rt_gen(&spec, &o1, &l1, err, sizeof(err)), 0);
	assert_int_equal(rt_gen(&spec, &o2, &l2, err, sizeof(err)), 0);
	assert_non_null(strstr(o1, "            \"server_id\": \"a\\\"b\\\\c\\n\\u0001\",\n"));
	assert_int_equal(l1, l2);
	assert_memory_equal(o1, o2, l1);
	assert_int_equal(o1[l1 - 1], '\n');
	assert_int_equal(o1[l1 - 2], '}');
	free(o1);
	free(o2);
	unfake(&h);
}

/* 64 servers x 16 devices: rank ids run on across servers. */
static void test_many_servers(void **state)
{
	long devs[16];
	struct rt_gen_server srv[64];
	struct fake_hccn h[64];
	char names[64][24];
	struct rt_gen_spec spec = { RT_FMT_V1_0, srv, 64, devs, 16 };
	char err[RT_ERRLEN] = "", *out;
	size_t len;

	(void)state;
	for (int d = 0; d < 16; d++)
		devs[d] = d;
	for (int s = 0; s < 64; s++) {
		snprintf(names[s], sizeof(names[s]), "node_%d", s);
		memset(&h[s], 0, sizeof(h[s]));
		srv[s] = (struct rt_gen_server){ .server_id = names[s], .hccn = &h[s].h };
	}
	/* fake() holds 8 addresses; these servers need 16. */
	char *addr[64][16];
	for (int s = 0; s < 64; s++) {
		for (int d = 0; d < 16; d++) {
			char ip[32];
			snprintf(ip, sizeof(ip), "10.%d.0.%d", s, d);
			addr[s][d] = strdup(ip);
		}
		h[s].h.addr = addr[s];
		h[s].h.naddr = 16;
	}
	assert_int_equal(rt_gen(&spec, &out, &len, err, sizeof(err)), 0);
	assert_non_null(strstr(out, "\"server_count\": \"64\",\n"));
	assert_loads_clean(out, len);
	assert_non_null(strstr(out, "\"device_id\": \"15\",\n                    \"device_ip\": "
				    "\"10.63.0.15\",\n                    \"rank_id\": \"1023\"\n"));
	free(out);
	for (int s = 0; s < 64; s++)
		for (int d = 0; d < 16; d++)
			free(addr[s][d]);
}

static void expect_devices(const char *s, const long *want, size_t nwant)
{
	char err[RT_ERRLEN] = "";
	long *ids;
	size_t n;

	assert_int_equal(rt_parse_devices(s, &ids, &n, err, sizeof(err)), 0);
	assert_int_equal(n, nwant);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(ids[i], want[i]);
	free(ids);
}

static void expect_bad_devices(const char *s, const char *msg)
{
	char err[RT_ERRLEN] = "";
	long *ids = (long *)1;
	size_t n = 9;

	assert_int_equal(rt_parse_devices(s, &ids, &n, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, msg);
	assert_null(ids);
	assert_int_equal(n, 0);
}

static void test_parse_devices(void **state)
{
	static const long r07[] = { 0, 1, 2, 3, 4, 5, 6, 7 };
	static const long mix[] = { 0, 2, 4, 5, 6 };
	static const long r015[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 };
	static const long eight[] = { 8 };
	static const long unsorted[] = { 3, 10, 11, 12, 63 };
	long all[64];

	(void)state;
	expect_devices("0-7", r07, 8);
	expect_devices("0,2,4-6", mix, 5);
	expect_devices("0-15", r015, 16);
	expect_devices("8", eight, 1);
	expect_devices(" 63, 10-12 ,3", unsorted, 5);
	for (int i = 0; i < 64; i++)
		all[i] = i;
	expect_devices("0-63", all, 64);

	expect_bad_devices("", "empty device list: expected ids like 0-7 or 0,2,4-6");
	expect_bad_devices("  ", "empty device list: expected ids like 0-7 or 0,2,4-6");
	expect_bad_devices("7-0", "bad device list \"7-0\": range 7-0 at position 1 runs backwards");
	expect_bad_devices("0,64", "bad device list \"0,64\": device 64 at position 3 is out of "
				   "range 0..63");
	expect_bad_devices("1-100", "bad device list \"1-100\": device 100 at position 3 is out "
				    "of range 0..63");
	expect_bad_devices("99999999999999999999", "bad device list \"99999999999999999999\": "
						   "device 99999999999999999999 at position 1 is "
						   "out of range 0..63");
	expect_bad_devices("0-3x", "bad device list \"0-3x\": unexpected 'x' at position 4");
	expect_bad_devices("0,,1", "bad device list \"0,,1\": unexpected ',' at position 3");
	expect_bad_devices("0,", "bad device list \"0,\": missing device id at the end");
	expect_bad_devices("-1", "bad device list \"-1\": unexpected '-' at position 1");
	expect_bad_devices("0-3,3", "bad device list \"0-3,3\": device 3 listed twice (position 5)");
	expect_bad_devices("0-7,4-5", "bad device list \"0-7,4-5\": device 4 listed twice "
				      "(position 5)");
	expect_bad_devices("[0,16)", "bad device list \"[0,16)\": hccl_tools' [first,last) form "
				     "is not accepted; write first-(last-1), e.g. 0-7");
}

static void test_write_atomic(void **state)
{
	char dir[] = "/tmp/hcclctl-atomic-XXXXXX", path[256], missing[256], err[RT_ERRLEN];
	struct stat st;
	size_t len;
	char *got;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/rank_table.json", dir);

	assert_int_equal(rt_write_atomic(path, "first\n", 6, err, sizeof(err)), 0);
	got = slurp(path, &len);
	assert_string_equal(got, "first\n");
	free(got);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0644);

	/* Replaced whole, shorter than before: no tail of the old content survives. */
	assert_int_equal(rt_write_atomic(path, "2", 1, err, sizeof(err)), 0);
	got = slurp(path, &len);
	assert_int_equal(len, 1);
	assert_string_equal(got, "2");
	free(got);

	/* A missing directory fails clearly and creates nothing. */
	snprintf(missing, sizeof(missing), "%s/nope/rank_table.json", dir);
	assert_int_equal(rt_write_atomic(missing, "x", 1, err, sizeof(err)), -ENOENT);
	char want[512];
	snprintf(want, sizeof(want),
		 "cannot create a temporary file in '%s/nope': No such file or directory", dir);
	assert_string_equal(err, want);
	assert_int_not_equal(stat(missing, &st), 0);

	/* The target is a directory: rename fails, the temp file is removed. */
	snprintf(missing, sizeof(missing), "%s/sub", dir);
	assert_int_equal(mkdir(missing, 0755), 0);
	snprintf(missing, sizeof(missing), "%s/sub/x", dir);
	assert_int_equal(mkdir(missing, 0755), 0); /* non-empty, so rename cannot replace it */
	snprintf(missing, sizeof(missing), "%s/sub", dir);
	assert_true(rt_write_atomic(missing, "x", 1, err, sizeof(err)) < 0);
	snprintf(want, sizeof(want), "'%s/sub' is a directory, not a file", dir);
	assert_string_equal(err, want);

	/* Nothing but our file and sub/ is left: no temp files. */
	char cmd[512];
	snprintf(cmd, sizeof(cmd), "test \"$(ls -A %s | tr '\\n' ' ')\" = 'rank_table.json sub '",
		 dir);
	assert_int_equal(system(cmd), 0);

	assert_int_equal(rt_write_atomic("", "x", 1, err, sizeof(err)), -EISDIR);
	assert_string_equal(err, "cannot write '': no file name");

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hccl_tools_golden),
		cmocka_unit_test(test_two_servers_golden),
		cmocka_unit_test(test_v12_golden),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_mixed_family),
		cmocka_unit_test(test_v12_refusals),
		cmocka_unit_test(test_escaping_and_determinism),
		cmocka_unit_test(test_many_servers),
		cmocka_unit_test(test_parse_devices),
		cmocka_unit_test(test_write_atomic),
	};
	return cmocka_run_group_tests_name("gen", tests, NULL, NULL);
}
