/* probes/flight/flight.c and flight_merge.c: located errors in flight-recorder dumps, dumps cut short,
 * unsafe strings, the sequence rules, rank lists, and the analysis of small jobs. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "probes/flight/flight.h"

#define HDR(rank, ws)                                                                              \
	"{\"schema\": \"hcclctl-flight/1\", \"rank\": " #rank ", \"world_size\": " #ws             \
	", \"host\": \"node" #rank "\", \"comm_id\": \"c1\", \"reason\": \"timeout\", "            \
	"\"error\": null, \"dumped_at_us\": 1,\n\"records\": ["
#define REC(seq, coll, count, dtype, root, state, peer)                                            \
	"{\"seq\": " #seq ", \"coll\": \"" coll "\", \"count\": " #count ", \"dtype\": \"" dtype   \
	"\", \"op\": \"\", \"root\": " #root ", \"algo\": \"\", \"bytes\": 0, \"state\": \"" state \
	"\", \"step\": 0, \"peer\": " #peer ", \"sent\": 0, \"received\": 0, \"start_us\": 0, "    \
	"\"end_us\": null, \"error\": null}"

static int parse(struct flight_dump *d, const char *text, char *err)
{
	err[0] = 0;
	return flight_dump_parse(d, "f.json", text, strlen(text), err, FLIGHT_ERRLEN);
}

static void expect_error(const char *text, const char *msg)
{
	struct flight_dump d;
	char err[FLIGHT_ERRLEN];
	int rc = parse(&d, text, err);
	if (rc != -EINVAL || strcmp(err, msg))
		print_error("input: %s\ngot %d '%s'\n", text, rc, err);
	assert_int_equal(rc, -EINVAL);
	assert_string_equal(err, msg);
	flight_dump_release(&d);
}

static void test_valid(void **state)
{
	struct flight_dump d;
	char err[FLIGHT_ERRLEN];
	(void)state;
	assert_int_equal(parse(&d,
			       "\xEF\xBB\xBF" HDR(1, 2)
				       REC(7, "allreduce", 4, "fp16", -1, "running",
					   0) "," REC(3, "send", 4, "int8", 0, "done", -1) "]}",
			       err),
			 0);
	assert_int_equal(d.rank, 1);
	assert_int_equal(d.world_size, 2);
	assert_string_equal(d.host, "node1");
	assert_int_equal(d.nrec, 2);
	assert_int_equal(d.rec[0].seq, 7);
	assert_int_equal(d.rec[0].dtype, FLIGHT_FP16);
	assert_int_equal(d.rec[0].end_us, -1);
	assert_int_equal(d.rec[0].line, 2);
	assert_int_equal(d.rec[0].col, 13);
	assert_int_equal(d.rec[1].coll, FLIGHT_SEND);
	assert_int_equal(flight_dtype_size(d.rec[0].dtype), 2);
	flight_dump_release(&d);
}

static void test_errors(void **state)
{
	(void)state;
	expect_error("[]", "f.json:1:1: $: expected an object, found an array: not a "
			   "flight-recorder dump");
	expect_error("{}", "f.json:1:1: $: missing \"schema\": not a flight-recorder dump");
	expect_error(HDR(2, 2) "]}", "f.json:1:40: rank: 2 is out of range [0, 1]");
	expect_error(HDR(0, 2) "1]}",
		     "f.json:2:13: records[0]: expected an object, found a number");
	expect_error(HDR(0, 2) REC(1.5, "allreduce", 1, "fp32", -1, "done", -1) "]}",
		     "f.json:2:21: records[0].seq: expected an integer, found 1.5");
	expect_error(HDR(0, 2) REC(1, "allgather", 1, "fp8", -1, "done", -1) "]}",
		     "f.json:2:66: records[0].dtype: unknown value \"fp8\" (expected \"\", "
		     "\"int8\", \"int32\", \"int64\", \"fp16\", \"bf16\", \"fp32\", \"fp64\")");
	expect_error(
		HDR(0, 2) REC(1, "recv", 1, "fp32", 0, "done", -1) "]}",
		"f.json:2:87: records[0].root: recv to itself (root is the peer rank of send and "
		"recv)");
	expect_error(HDR(0, 2) REC(1, "allreduce", 1, "fp32", -1, "done", 2) "]}",
		     "f.json:2:156: records[0].peer: 2 is out of range [-1, 1]");
	/* send/recv sequences grow per peer and direction */
	expect_error(HDR(0, 3) REC(2, "send", 1, "fp32", 1, "done", -1) "," REC(
			     1, "send", 1, "fp32", 2, "done", -1) "," REC(1, "send", 1, "fp32", 1,
									  "done", -1) "]}",
		     "f.json:2:447: records[2].seq: send #1 to rank 1 after #2 in records[0]: "
		     "sequence numbers must grow");
	expect_error("{\"schema\": \"hcclctl-flight/1\", \"world_size\": 1, \"rank\": 0, "
		     "\"host\": \"a\\u001b[31m\"}",
		     "f.json:1:68: host: control character 0x1b");
}

static void test_truncated(void **state)
{
	const char *full = HDR(0, 2) REC(1, "allreduce", 1, "fp32", -1, "done", -1) "]}";
	char err[FLIGHT_ERRLEN];
	(void)state;
	/* every cut is reported as truncated, wherever it falls */
	for (size_t len = 1; len < strlen(full); len++) {
		struct flight_dump d;
		int rc = flight_dump_parse(&d, "f.json", full, len, err, sizeof(err));
		assert_int_equal(rc, -EINVAL);
		if (!strstr(err, ": truncated: ") && !strstr(err, ": empty: "))
			print_error("cut at %zu: %s\n", len, err);
		assert_true(strstr(err, ": truncated: ") != NULL);
		flight_dump_release(&d);
	}
	expect_error("", "f.json: empty: no dump was written (was the rank killed before it "
			 "dumped?)");
	expect_error("{\"a\": tru", "f.json:1:7: truncated: invalid literal 'tru' (strings need "
				    "double quotes) (was the rank killed while it was dumping?)");
	expect_error("{\"a\": 1} x", "f.json:1:10: not JSON: extra data after the JSON document");
}

static void test_error_sanitized(void **state)
{
	struct flight_dump d;
	char err[FLIGHT_ERRLEN];
	(void)state;
	assert_int_equal(
		parse(&d,
		      "{\"schema\": \"hcclctl-flight/1\", \"world_size\": 1, \"rank\": 0, "
		      "\"host\": \"h\", \"comm_id\": \"c\", \"reason\": \"signal\", "
		      "\"error\": \"a\\nb\\u0007c\", \"dumped_at_us\": 0, \"records\": []}",
		      err),
		0);
	assert_string_equal(d.error, "a?b?c");
	assert_int_equal(d.nrec, 0);
	flight_dump_release(&d);
}

static void test_ranks_text(void **state)
{
	int64_t v[] = {0, 1, 2, 3, 5, 7, 8, 9, 11, 12, 13, 14, 15};
	struct flight_ranks r = {v, sizeof(v) / sizeof(v[0]), 0};
	char buf[64], small[8];
	(void)state;
	assert_string_equal(flight_ranks_text(&r, buf, sizeof(buf)), "0-3,5,7,8,9,11-15");
	assert_string_equal(flight_ranks_text(&r, small, sizeof(small)), "0-3,...");
	r.n = 0;
	assert_string_equal(flight_ranks_text(&r, buf, sizeof(buf)), "");
}

/* Three ranks, three different counts at seq 5: the majority value first, every value named. */
static void test_three_values(void **state)
{
	struct flight_dump d[3];
	const struct flight_dump *p[3];
	struct flight_analysis a;
	char err[FLIGHT_ERRLEN];
	const char *text[3] = {
		HDR(0, 3) REC(5, "broadcast", 8, "int64", 0, "failed", -1) "]}",
		HDR(1, 3) REC(5, "broadcast", 4, "int64", 0, "failed", -1) "]}",
		HDR(2, 3) REC(5, "broadcast", 2, "int64", 1, "failed", -1) "]}",
	};
	(void)state;
	for (int i = 0; i < 3; i++) {
		assert_int_equal(parse(&d[i], text[i], err), 0);
		p[i] = &d[i];
	}
	assert_int_equal(flight_analyze(&a, p, 3, err, sizeof(err)), 0);
	assert_int_equal(a.kind, FLIGHT_MISMATCH);
	assert_int_equal(a.div.kind, FLIGHT_DIV_FINGERPRINT);
	assert_int_equal(a.div.nfield, 2);
	assert_string_equal(a.div.message,
			    "broadcast #5: called with different arguments: count: rank 0 has 8 "
			    "(64 bytes), rank 1 has 4 (32 bytes), rank 2 has 2 (16 bytes); root: "
			    "ranks 0,1 have 0, rank 2 has 1");
	assert_int_equal(a.culprit, 2);
	assert_string_equal(a.culprit_host, "node2");
	flight_analysis_release(&a);
	for (int i = 0; i < 3; i++)
		flight_dump_release(&d[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_valid),	   cmocka_unit_test(test_errors),
		cmocka_unit_test(test_truncated),  cmocka_unit_test(test_error_sanitized),
		cmocka_unit_test(test_ranks_text), cmocka_unit_test(test_three_values),
	};
	return cmocka_run_group_tests_name("flight", tests, NULL, NULL);
}
