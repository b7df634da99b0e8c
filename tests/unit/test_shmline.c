/* The lines of a shared-memory link (libcomm/shmline.c), in one process: a line is seen by its
 * collective's sequence number only, with the writer's fingerprint, data and ack; a line is
 * free again only once the reader consumed what it held, told by the reader's own line (ack)
 * or its count, however many collectives went another way between; the sleeping bit is raised
 * only while the line is not there, and the write that publishes the line reports it (so
 * the writer wakes the sleeper). And the fingerprint's flags travel and unknown ones are
 * refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "libcomm/internal.h"

static void test_put_get(void **state)
{
	(void)state;
	static struct comm__lines l; /* zero: nothing written */
	unsigned char fp[COMM__FP_LEN];
	memset(fp, 0xab, sizeof(fp));
	float v[2] = {1.5f, -2.0f};
	assert_null(comm__line_get(&l, 7));
	assert_false(comm__line_put(&l, 7, 5, fp, v, sizeof(v))); /* nobody sleeps */
	const struct comm__line *ln = comm__line_get(&l, 7);
	assert_non_null(ln);
	assert_ptr_equal(ln, &l.line[1]);
	assert_int_equal(ln->ack, 5);
	assert_memory_equal(ln->fp, fp, COMM__FP_LEN);
	assert_memory_equal(ln->data, v, sizeof(v));
	assert_null(comm__line_get(&l, 8)); /* the other line */
	assert_null(comm__line_get(&l, 9)); /* the same line, a later collective */
	comm__line_done(&l, 7);
	assert_int_equal(atomic_load(&l.consumed), 7);
}

static void test_reuse(void **state)
{
	(void)state;
	static struct comm__lines l;
	uint32_t acked = 10;
	assert_true(comm__line_free(&l, 0, &acked)); /* a line never written */
	assert_true(comm__line_free(&l, 10, &acked));
	/* the line held 11: not consumed by the ack nor by the count (0) */
	assert_false(comm__line_free(&l, 11, &acked));
	assert_int_equal(acked, 10);
	/* the reader's count says 40, after collectives that went another way */
	atomic_store(&l.consumed, 40);
	assert_true(comm__line_free(&l, 11, &acked));
	assert_int_equal(acked, 40);
	assert_false(comm__line_free(&l, 41, &acked));
	/* the counters wrap */
	acked = UINT32_MAX - 1;
	atomic_store(&l.consumed, UINT32_MAX - 1);
	assert_false(comm__line_free(&l, UINT32_MAX, &acked));
	atomic_store(&l.consumed, 3);
	assert_true(comm__line_free(&l, UINT32_MAX, &acked));
	assert_int_equal(acked, 3);
}

static void test_sleep_bit(void **state)
{
	(void)state;
	static struct comm__lines l;
	unsigned char fp[COMM__FP_LEN] = {0};
	int x = 42;
	_Atomic uint32_t *addr = NULL;
	uint32_t word = 0;
	assert_false(comm__line_put(&l, 4, 0, fp, &x, sizeof(x)));
	/* the reader of 6 arms the line of 6 (holding 4): the bit goes up, on 4's word */
	assert_true(comm__line_arm(&l, 6, &addr, &word));
	assert_ptr_equal(addr, &l.line[0].word);
	assert_int_equal(word, (4u << 1) | 1u);
	assert_int_equal(atomic_load(&l.line[0].word), word);
	/* armed twice: the same value to sleep on */
	assert_true(comm__line_arm(&l, 6, &addr, &word));
	assert_int_equal(word, (4u << 1) | 1u);
	/* the writer of 6 finds the sleeper, and the bit is down with 6 published */
	assert_true(comm__line_put(&l, 6, 0, fp, &x, sizeof(x)));
	assert_int_equal(atomic_load(&l.line[0].word), 6u << 1);
	/* a line already there is not slept on */
	assert_false(comm__line_arm(&l, 6, &addr, &word));
	assert_non_null(comm__line_get(&l, 6));
	comm__line_wake(&l, 6); /* nobody waits: harmless */
}

static void test_fp_flags(void **state)
{
	(void)state;
	struct comm__fp f = {.seq = 9,
			     .coll = COMM_COLL_ALLREDUCE,
			     .dtype = COMM_FP32,
			     .op = COMM_SUM,
			     .algo = COMM_ALGO_MESH,
			     .count = 2,
			     .root = -1,
			     .flags = COMM__FP_LINES},
			g;
	unsigned char b[COMM__FP_LEN];
	char why[COMM_ERRLEN];
	comm__fp_encode(&f, b);
	assert_int_equal(comm__fp_decode(b, sizeof(b), &g, why, sizeof(why)), 0);
	assert_int_equal(g.flags, COMM__FP_LINES);
	assert_true(comm__fp_same(&f, &g));
	g.flags = 0; /* what a rank can do is not compared */
	assert_true(comm__fp_same(&f, &g));
	b[20] = 0x80; /* a flag this build does not know */
	assert_int_not_equal(comm__fp_decode(b, sizeof(b), &g, why, sizeof(why)), 0);
	assert_non_null(strstr(why, "unknown flags 0x80"));
	b[20] = COMM__FP_LINES;
	b[23] = 1; /* the padding after them */
	assert_int_not_equal(comm__fp_decode(b, sizeof(b), &g, why, sizeof(why)), 0);
	assert_non_null(strstr(why, "nonzero padding"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_put_get),
		cmocka_unit_test(test_reuse),
		cmocka_unit_test(test_sleep_bit),
		cmocka_unit_test(test_fp_flags),
	};
	return cmocka_run_group_tests_name("shmline", tests, NULL, NULL);
}
