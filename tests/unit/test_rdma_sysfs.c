/* probe rdma: the sysfs small-file formats of the kernel's infiniband sysfs.c, a tree read
 * whole, and the port verdicts. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "probes/nic/rdma_sysfs.h"

#define S(x) x, sizeof(x) - 1

static void test_state(void **state)
{
	int n;
	char name[32];
	(void)state;
	assert_int_equal(rdma_parse_state(S("4: ACTIVE\n"), &n, name, sizeof(name)), 0);
	assert_int_equal(n, 4);
	assert_string_equal(name, "ACTIVE");
	assert_int_equal(rdma_parse_state(S("7: Phy Test\n"), &n, name, sizeof(name)), 0);
	assert_string_equal(name, "Phy Test");
	assert_int_equal(rdma_parse_state(S("ACTIVE\n"), &n, name, sizeof(name)), -EINVAL);
	assert_int_equal(rdma_parse_state(S("999: X\n"), &n, name, sizeof(name)), -EINVAL);
}

static void test_rate(void **state)
{
	double g;
	int w;
	char sp[16];
	(void)state;
	assert_int_equal(rdma_parse_rate(S("400 Gb/sec (4X NDR)\n"), &g, &w, sp, sizeof(sp)), 0);
	assert_true(g == 400);
	assert_int_equal(w, 4);
	assert_string_equal(sp, "NDR");
	assert_int_equal(rdma_parse_rate(S("2.5 Gb/sec (1X SDR)\n"), &g, &w, sp, sizeof(sp)), 0);
	assert_true(g == 2.5);
	assert_int_equal(rdma_parse_rate(S("100 Gb/sec\n"), &g, &w, sp, sizeof(sp)), 0);
	assert_int_equal(w, 0);
	assert_string_equal(sp, "");
	assert_int_equal(rdma_parse_rate(S("fast\n"), &g, &w, sp, sizeof(sp)), -EINVAL);
	assert_int_equal(rdma_parse_rate(S("100 Mb/sec\n"), &g, &w, sp, sizeof(sp)), -EINVAL);
}

static void test_gid(void **state)
{
	uint8_t g[16];
	char t[64];
	(void)state;
	assert_int_equal(rdma_parse_gid(S("0000:0000:0000:0000:0000:ffff:0a0a:0a01\n"), g), 0);
	rdma_gid_text(g, t, sizeof(t));
	assert_string_equal(t, "::ffff:10.10.10.1");
	assert_int_equal(rdma_parse_gid(S("fe80:0000:0000:0000:ba59:9fff:fe1a:e3ea"), g), 0);
	rdma_gid_text(g, t, sizeof(t));
	assert_string_equal(t, "fe80::ba59:9fff:fe1a:e3ea");
	assert_int_equal(rdma_parse_gid(S("fe80::1"), g), -EINVAL);
	assert_int_equal(rdma_parse_gid(S("fe80:0000:0000:0000:ba59:9fff:fe1a:e3ea:0000"), g),
			 -EINVAL);
	assert_int_equal(rdma_parse_gid_type(S("RoCE v2\n")), RDMA_GID_ROCE_V2);
	assert_int_equal(rdma_parse_gid_type(S("IB/RoCE v1\n")), RDMA_GID_IB_ROCE_V1);
	assert_int_equal(rdma_parse_gid_type(S("")), RDMA_GID_UNKNOWN);
}

static void test_mtu(void **state)
{
	(void)state;
	assert_int_equal(rdma_roce_mtu(9000), 4096);
	assert_int_equal(rdma_roce_mtu(4200), 4096);
	assert_int_equal(rdma_roce_mtu(4183), 2048);
	assert_int_equal(rdma_roce_mtu(1500), 1024);
	assert_int_equal(rdma_roce_mtu(300), 0);
}

static void test_tree(void **state)
{
	struct rdma_host h;
	char err[256];
	(void)state;
	assert_int_equal(rdma_sysfs_read("tests/data/sysfs/roce", NULL, &h, err, sizeof(err)), 0);
	assert_int_equal(h.n, 2);
	struct rdma_port *p = &h.dev[0].ports[0], *q = &h.dev[1].ports[0];
	assert_string_equal(h.dev[0].fw_ver, "22.36.1010");
	assert_int_equal(p->state, 4);
	assert_int_equal(p->phys, 5);
	assert_string_equal(p->link_layer, "Ethernet");
	assert_int_equal(p->ngids, 4); /* the zero entries are left out */
	assert_int_equal(p->gids[3].type, RDMA_GID_ROCE_V2);
	assert_string_equal(p->gids[3].ndev, "ens1f0np0");
	assert_string_equal(p->netdev, "ens1f0np0");
	assert_string_equal(p->operstate, "up");
	assert_int_equal(p->mtu, 4096);
	assert_int_equal(p->mtu_source, RDMA_MTU_NETDEV);
	assert_int_equal(p->nips, 1);
	assert_int_equal(p->ips[0].v2_index, 3);
	assert_int_equal(p->ips[0].v1_index, 2);
	assert_int_equal(q->ips[0].v2_index, -1);
	assert_true(p->link_downed == 0);
	assert_int_equal(rdma_assess(&h), PROBE_FAIL);
	assert_int_equal(p->status, PROBE_PASS);
	assert_int_equal(q->status, PROBE_FAIL);
	assert_string_equal(q->reason, "10.1.1.1 has a RoCE v1 GID (1) but no RoCE v2 GID; "
				       "active MTU 1024, the other ports 4096");
	rdma_host_release(&h);
	assert_int_equal(rdma_sysfs_read("tests/data/sysfs/roce", "mlx5_7", &h, err, sizeof(err)),
			 -ENOENT);
	assert_string_equal(err, "no RDMA device 'mlx5_7'; there are: mlx5_0 mlx5_1");
	rdma_host_release(&h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_state), cmocka_unit_test(test_rate),
		cmocka_unit_test(test_gid),   cmocka_unit_test(test_mtu),
		cmocka_unit_test(test_tree),
	};
	return cmocka_run_group_tests_name("rdma_sysfs", tests, NULL, NULL);
}
