/* Fault-code tables: the built-in one (generated from faultCode.json 22bb3d98) and the two
 * real faultCode.json versions in tests/data/faultcode, with the quirks a loader must
 * survive. Run from the top of the tree. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "probes/logs/faultcode.h"

static char err[256];

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	char *buf = malloc(1 << 20);
	assert_non_null(buf);
	*len = fread(buf, 1, (1 << 20) - 1, f);
	buf[*len] = '\0';
	fclose(f);
	return buf;
}

static void test_builtin(void **state)
{
	struct fc_table t;
	(void)state;
	fc_table_builtin(&t);
	/* 804 entries: B4060011 twice in one class, A2301001 in two */
	assert_int_equal(t.n, 802);
	assert_int_equal(t.ncount[FC_NOT_HANDLE], 132);
	assert_int_equal(t.ncount[FC_RESTART_REQUEST], 33);
	assert_int_equal(t.ncount[FC_RESTART_BUSINESS], 24);
	assert_int_equal(t.ncount[FC_FREE_RESTART_NPU], 23);
	assert_int_equal(t.ncount[FC_RESTART_NPU], 162);
	assert_int_equal(t.ncount[FC_SEPARATE_NPU], 215);
	assert_int_equal(t.ncount[FC_PRE_SEPARATE_NPU], 200);
	assert_int_equal(t.ncount[FC_SUB_HEALTH], 13);
	assert_string_equal(
		t.source,
		"the MindCluster device plugin's faultCode.json of 2026-06-29 (22bb3d98)");
	/* the health capture's three codes, and the 950 event */
	assert_int_equal(fc_lookup(&t, "A4025021"), FC_NOT_HANDLE);
	assert_int_equal(fc_lookup(&t, "8C03A000"), FC_RESTART_NPU);
	assert_int_equal(fc_lookup(&t, "8c084e00"), FC_FREE_RESTART_NPU);
	assert_int_equal(fc_lookup(&t, "0x81AF8000"), FC_RESTART_NPU);
	/* a code in two classes: the more severe */
	assert_int_equal(fc_lookup(&t, "A2301001"), FC_SEPARATE_NPU);
	assert_int_equal(fc_lookup(&t, "B4060011"), FC_RESTART_BUSINESS);
	/* 9 digits and leading zeros stay strings */
	assert_int_equal(fc_lookup(&t, "020001002"), fc_lookup(&t, "020001002"));
	assert_true(fc_lookup(&t, "020001002") >= 0);
	assert_true(fc_lookup(&t, "200001002") >= 0);
	assert_int_equal(fc_lookup(&t, "20001002"), -ENOENT);
	assert_int_equal(fc_lookup(&t, "DEADBEEF"), -ENOENT);
	assert_int_equal(fc_lookup(&t, "not-hex"), -EINVAL);
	assert_string_equal(fc_class_name(FC_PRE_SEPARATE_NPU), "PreSeparateNPU");
	fc_table_release(&t);
}

static void test_json_head(void **state)
{
	size_t len;
	char *b = slurp("tests/data/faultcode/faultCode-22bb3d98.json", &len);
	struct fc_table t, bt;
	(void)state;
	assert_int_equal(fc_table_load_json(&t, "head.json", b, len, err, sizeof(err)), 0);
	assert_int_equal(t.n, 802);
	assert_int_equal(t.duplicates, 1);
	assert_int_equal(t.conflicts, 1);
	assert_int_equal(t.invalid, 0);
	assert_string_equal(t.source, "head.json");
	/* the loaded file and the built-in table are the same table */
	fc_table_builtin(&bt);
	for (size_t i = 0; i < t.n; i++) {
		assert_string_equal(t.v[i].code, bt.v[i].code);
		assert_int_equal(t.v[i].cls, bt.v[i].cls);
	}
	fc_table_release(&t);
	free(b);
}

static void test_json_2024(void **state)
{
	size_t len;
	char *b = slurp("tests/data/faultcode/faultCode-d894bbca.json", &len);
	struct fc_table t;
	(void)state;
	assert_int_equal(fc_table_load_json(&t, "old.json", b, len, err, sizeof(err)), 0);
	assert_int_equal(t.ncount[FC_PRE_SEPARATE_NPU], 0);
	assert_int_equal(t.ncount[FC_SUB_HEALTH], 0);
	/* the class of a code depends on the version; a code it lacks is unknown */
	assert_int_equal(fc_lookup(&t, "8C084E00"), FC_RESTART_BUSINESS);
	assert_int_equal(fc_lookup(&t, "81AF8000"), -ENOENT);
	fc_table_release(&t);
	free(b);
}

static void test_json_quirks(void **state)
{
	struct fc_table t;
	(void)state;
	static const char q[] =
		"{\"RestartNPUCodes\": [\"0x80e01801\", \"80E01801\", 7, \"zz\"],"
		" \"SeparateNPUNetworkCodes\": [\"80E01801\", \"00000001\"],"
		" \"PreSeparateNPUCodes\": [\"A1\"], \"FreeRestartNPUCodes\": [\"B2\"],"
		" \"Comment\": \"x\", \"NotHandleFaultCodes\": \"not a list\"}";
	assert_int_equal(fc_table_load_json(&t, "q", q, sizeof(q) - 1, err, sizeof(err)), 0);
	assert_int_equal(t.n, 4);
	assert_int_equal(t.duplicates, 1);
	assert_int_equal(t.conflicts, 1);
	assert_int_equal(t.invalid, 2);
	assert_int_equal(fc_lookup(&t, "80e01801"), FC_SEPARATE_NPU);
	assert_int_equal(fc_lookup(&t, "00000001"), FC_SEPARATE_NPU);
	assert_int_equal(fc_lookup(&t, "1"), -ENOENT);
	/* longest class name: PreSeparateNPU is not SeparateNPU, FreeRestartNPU not RestartNPU */
	assert_int_equal(fc_lookup(&t, "A1"), FC_PRE_SEPARATE_NPU);
	assert_int_equal(fc_lookup(&t, "B2"), FC_FREE_RESTART_NPU);
	fc_table_release(&t);
	assert_int_equal(fc_table_load_json(&t, "bad.json", "[1]", 3, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "bad.json: not a JSON object");
	assert_int_equal(fc_table_load_json(&t, "e.json", "{}", 2, err, sizeof(err)), -EINVAL);
	assert_string_equal(err,
			    "e.json: no fault code under a known class key (e.g. RestartNPUCodes)");
	assert_int_equal(fc_table_load_json(&t, "x", "{", 1, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "x: not JSON");
}

static void test_normalize(void **state)
{
	char out[FC_CODE_LEN];
	(void)state;
	assert_int_equal(fc_code_normalize(" 0x81af8000 ", 12, out, sizeof(out)), 0);
	assert_string_equal(out, "81AF8000");
	assert_int_equal(fc_code_normalize("0x", 2, out, sizeof(out)), -EINVAL);
	assert_int_equal(fc_code_normalize("", 0, out, sizeof(out)), -EINVAL);
	assert_int_equal(fc_code_normalize("12345678901234567", 17, out, sizeof(out)), -EINVAL);
	assert_int_equal(fc_code_normalize("NA", 2, out, sizeof(out)), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_builtin),	   cmocka_unit_test(test_json_head),
		cmocka_unit_test(test_json_2024),   cmocka_unit_test(test_json_quirks),
		cmocka_unit_test(test_normalize),
	};
	return cmocka_run_group_tests_name("faultcode", tests, NULL, NULL);
}
