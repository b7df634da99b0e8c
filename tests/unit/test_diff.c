/* rt_diff on hand-built tables: only ranks[] and nranks (plus version/format) are set. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "ranktable/ranktable.h"

static struct rt_rank rank(long id, const char *srv, long dev, const char *ip)
{
	return (struct rt_rank){ .rank_id = id, .server_id = srv, .device_id = dev,
				 .device_ip = ip, .super_device_id = -1, .device_port = -1 };
}

static void table(struct rt_table *t, struct rt_rank *r, size_t n)
{
	memset(t, 0, sizeof(*t));
	t->format = RT_FMT_V1_0;
	snprintf(t->version, sizeof(t->version), "1.0");
	snprintf(t->status, sizeof(t->status), "completed");
	t->ranks = r;
	t->nranks = n;
}

static void assert_change(const struct rt_changes *c, size_t i, enum rt_change_kind kind,
			  long id, const char *what)
{
	assert_true(i < c->n);
	assert_int_equal(c->v[i].kind, kind);
	assert_int_equal(c->v[i].rank_id, id);
	assert_string_equal(c->v[i].what, what);
}

static void test_identical_in_other_order(void **state)
{
	struct rt_rank ra[] = { rank(0, "node_0", 0, "192.168.1.8"),
				rank(1, "node_0", 1, "192.168.1.9") };
	struct rt_rank rb[] = { rank(1, "node_0", 1, "192.168.1.9"),
				rank(0, "node_0", 0, "192.168.1.8") };
	struct rt_table a, b;
	struct rt_changes c;
	char err[RT_ERRLEN] = "";

	(void)state;
	table(&a, ra, 2);
	table(&b, rb, 2);
	assert_int_equal(rt_diff(&a, &b, &c, err, sizeof(err)), 0);
	assert_int_equal(c.n, 0);
	rt_changes_release(&c);
}

static void test_every_kind(void **state)
{
	struct rt_rank ra[] = {
		rank(0, "node_0", 0, "192.168.1.8"), rank(1, "node_0", 1, "192.168.1.9"),
		rank(2, "node_1", 0, "192.168.2.8"), rank(3, "node_0", 1, "192.168.1.9"),
		rank(5, "node_2", 0, "192.168.3.8"),
	};
	struct rt_rank rb[] = {
		rank(4, "node_2", 1, "192.168.3.9"), rank(3, "node_1", 0, "192.168.1.10"),
		rank(2, "node_1", 0, "192.168.2.8"), rank(1, "node_0", 1, "192.168.1.9"),
		rank(0, "node_0", 0, NULL),
	};
	struct rt_table a, b;
	struct rt_changes c;
	char err[RT_ERRLEN] = "";

	(void)state;
	ra[2].host_ip = "172.16.0.1";
	rb[2].host_ip = "172.16.0.2";
	ra[2].super_pod_id = "0";
	rb[2].super_pod_id = "1";
	ra[2].super_device_id = 4;
	rb[2].super_device_id = 0;
	rb[2].device_port = 16666;
	table(&a, ra, 5);
	table(&b, rb, 5);
	b.format = RT_FMT_V1_2;
	snprintf(b.version, sizeof(b.version), "1.2");

	assert_int_equal(rt_diff(&a, &b, &c, err, sizeof(err)), 0);
	assert_int_equal(c.n, 10);
	assert_change(&c, 0, RT_CH_FIELD, -1, "version 1.0 -> 1.2");
	assert_change(&c, 1, RT_CH_IP, 0, "rank 0 device_ip 192.168.1.8 -> (none)");
	assert_change(&c, 2, RT_CH_FIELD, 2, "rank 2 host_ip 172.16.0.1 -> 172.16.0.2");
	assert_change(&c, 3, RT_CH_FIELD, 2, "rank 2 super_pod_id 0 -> 1");
	assert_change(&c, 4, RT_CH_FIELD, 2, "rank 2 super_device_id 4 -> 0");
	assert_change(&c, 5, RT_CH_FIELD, 2, "rank 2 device_port (none) -> 16666");
	assert_change(&c, 6, RT_CH_MOVED, 3, "rank 3 moved from node_0 device 1 to node_1 device 0");
	assert_change(&c, 7, RT_CH_IP, 3, "rank 3 device_ip 192.168.1.9 -> 192.168.1.10");
	assert_change(&c, 8, RT_CH_ADDED, 4, "rank 4 added on node_2 device 1");
	assert_change(&c, 9, RT_CH_REMOVED, 5, "rank 5 removed from node_2 device 0");

	assert_string_equal(c.v[0].field, "version");
	assert_string_equal(c.v[0].old_val, "1.0");
	assert_string_equal(c.v[0].new_val, "1.2");
	assert_string_equal(c.v[6].field, "location");
	assert_string_equal(c.v[6].old_val, "node_0/1");
	assert_string_equal(c.v[6].new_val, "node_1/0");
	assert_string_equal(c.v[7].field, "device_ip");
	assert_string_equal(c.v[7].old_val, "192.168.1.9");
	assert_string_equal(c.v[7].new_val, "192.168.1.10");
	assert_null(c.v[8].field);
	assert_null(c.v[8].old_val);
	assert_string_equal(c.v[8].new_val, "node_2/1");
	assert_string_equal(c.v[9].old_val, "node_2/0");
	assert_null(c.v[9].new_val);
	rt_changes_release(&c);
	assert_int_equal(c.n, 0);
	assert_null(c.v);
}

static void test_table_level(void **state)
{
	struct rt_table a, b;
	struct rt_changes c;
	char err[RT_ERRLEN] = "";

	(void)state;
	table(&a, NULL, 0);
	table(&b, NULL, 0);
	b.format = RT_FMT_LEGACY;
	b.version[0] = '\0';
	snprintf(b.status, sizeof(b.status), "initializing");
	assert_int_equal(rt_diff(&a, &b, &c, err, sizeof(err)), 0);
	assert_int_equal(c.n, 2);
	assert_change(&c, 0, RT_CH_FIELD, -1, "version 1.0 -> (none)");
	assert_change(&c, 1, RT_CH_FIELD, -1, "status completed -> initializing");
	rt_changes_release(&c);

	/* Same version text, different format: the format is named. */
	table(&b, NULL, 0);
	b.format = RT_FMT_UNKNOWN;
	assert_int_equal(rt_diff(&a, &b, &c, err, sizeof(err)), 0);
	assert_int_equal(c.n, 1);
	assert_change(&c, 0, RT_CH_FIELD, -1, "format 1.0 -> unknown");
	rt_changes_release(&c);
}

/* Ranks without an id cannot be matched and are skipped; repeated ids pair in file order. */
static void test_bad_ids(void **state)
{
	struct rt_rank ra[] = { rank(-1, "x", 0, NULL), rank(1, "a", 0, NULL),
				rank(1, "b", 0, NULL) };
	struct rt_rank rb[] = { rank(1, "a", 0, NULL), rank(-1, "y", 0, NULL) };
	struct rt_table a, b;
	struct rt_changes c;
	char err[RT_ERRLEN] = "";

	(void)state;
	table(&a, ra, 3);
	table(&b, rb, 2);
	assert_int_equal(rt_diff(&a, &b, &c, err, sizeof(err)), 0);
	assert_int_equal(c.n, 1);
	assert_change(&c, 0, RT_CH_REMOVED, 1, "rank 1 removed from b device 0");
	rt_changes_release(&c);
}

/* 65536 ranks with every 1000th moved: quick, and sorted by rank id. */
static void test_large(void **state)
{
	enum { N = 65536 };
	struct rt_rank *ra = calloc(N, sizeof(*ra)), *rb = calloc(N, sizeof(*rb));
	struct rt_table a, b;
	struct rt_changes c;
	char err[RT_ERRLEN] = "";

	(void)state;
	assert_non_null(ra);
	assert_non_null(rb);
	for (long i = 0; i < N; i++) {
		ra[i] = rank(i, "s", i % 16, NULL);
		rb[N - 1 - i] = rank(i, "s", (i % 1000 == 0) ? 63 : i % 16, NULL);
	}
	table(&a, ra, N);
	table(&b, rb, N);
	assert_int_equal(rt_diff(&a, &b, &c, err, sizeof(err)), 0);
	assert_int_equal(c.n, 66);
	for (size_t k = 0; k < c.n; k++) {
		assert_int_equal(c.v[k].kind, RT_CH_MOVED);
		assert_int_equal(c.v[k].rank_id, (long)k * 1000);
	}
	assert_change(&c, 65, RT_CH_MOVED, 65000, "rank 65000 moved from s device 8 to s device 63");
	rt_changes_release(&c);
	free(ra);
	free(rb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_identical_in_other_order),
		cmocka_unit_test(test_every_kind),
		cmocka_unit_test(test_table_level),
		cmocka_unit_test(test_bad_ids),
		cmocka_unit_test(test_large),
	};
	return cmocka_run_group_tests_name("diff", tests, NULL, NULL);
}
