/* npu-smi parsers and HCCS verdicts: the layouts of npu-smi info -l, -m, -t hccs and -t topo
 * (as the driver source prints them and public captures show) and their variants. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "probes/npu/npusmi.h"

static char err[256];

static void test_list(void **state)
{
	static const char a3[] = "\tTotal Count                    : 2\n\n"
				 "\tNPU ID                         : 0\n"
				 "\tChip Count                     : 2\n\n"
				 "\tNPU ID                         : 1\n"
				 "\tProduct Name                   : IT21HMDC_Bin5\n"
				 "\tSerial Number                  : 1025C9048791\n"
				 "\tChip Count                     : 2\n";
	static const char no_count[] = "NPU ID:3\nNPU ID : 4\r\n";
	struct npusmi_chips c;
	(void)state;
	assert_int_equal(npusmi_parse_list(a3, sizeof(a3) - 1, &c, err, sizeof(err)), 0);
	assert_int_equal(c.nnpus, 2);
	assert_int_equal(c.n, 4);
	assert_int_equal(c.v[3].npu, 1);
	assert_int_equal(c.v[3].chip, 1);
	/* no Chip Count line: one chip; no space around the colon */
	assert_int_equal(npusmi_parse_list(no_count, sizeof(no_count) - 1, &c, err, sizeof(err)),
			 0);
	assert_int_equal(c.n, 2);
	assert_int_equal(c.v[0].npu, 3);
	assert_int_equal(c.v[1].npu, 4);
	assert_int_equal(npusmi_parse_list("Total Count : 0\n", 16, &c, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "no \"NPU ID\" line in the output of info -l");
	assert_int_equal(npusmi_parse_list("NPU ID : x\n", 11, &c, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "line 1: NPU ID is not a number");
}

static void test_mapping(void **state)
{
	static const char a2[] = "\tNPU ID                         Chip ID                        "
				 "Chip Logic ID                  Chip Name\n"
				 "\t0                              0                              "
				 "0                              Ascend 910B4\n"
				 "\t0                              1                              "
				 "-                              Mcu\n"
				 "\t1                              0                              "
				 "1                              Ascend 910B4\n";
	static const char a3[] =
		"\tNPU ID   Chip ID  Chip Logic ID  Chip Phy-ID  Chip Name\n"
		"\t0 0 0 0 Ascend910\n\t0 1 1 1 Ascend910\n\t0 2 - - Mcu\n\t1 0 2 4 Ascend910\n";
	struct npusmi_chips c;
	(void)state;
	assert_int_equal(npusmi_parse_mapping(a2, sizeof(a2) - 1, &c, err, sizeof(err)), 0);
	assert_int_equal(c.n, 2); /* the MCU is left out */
	assert_int_equal(c.v[1].logic_id, 1);
	assert_int_equal(c.v[1].phy_id, -1);
	assert_string_equal(c.v[1].name, "Ascend 910B4");
	assert_int_equal(npusmi_parse_mapping(a3, sizeof(a3) - 1, &c, err, sizeof(err)), 0);
	assert_int_equal(c.n, 3);
	assert_int_equal(c.nnpus, 2);
	assert_int_equal(c.v[2].phy_id, 4);
	assert_string_equal(c.v[2].name, "Ascend910");
	/* Columns are placed by the header, not by a fixed order: a header with a Slot ID and no
	 * logic id (constructed; the shape other tools' tests give newer builds, no capture of
	 * it is public) keeps the slot out of the chip id, and the Mcu row goes by its name. */
	static const char slot[] = "NPU ID  Slot ID  Chip ID  Chip Phy-ID  Chip Name\n"
				   "5       22       0        5            Ascend950PR\n"
				   "5       22       1        -            Mcu\n";
	assert_int_equal(npusmi_parse_mapping(slot, sizeof(slot) - 1, &c, err, sizeof(err)), 0);
	assert_int_equal(c.n, 1);
	assert_int_equal(c.v[0].npu, 5);
	assert_int_equal(c.v[0].chip, 0);
	assert_int_equal(c.v[0].logic_id, -1);
	assert_int_equal(c.v[0].phy_id, 5);
	assert_string_equal(c.v[0].name, "Ascend950PR");
	/* a row a column short is no row */
	static const char short_row[] = "NPU ID  Chip ID  Chip Logic ID  Chip Name\n3  0\n";
	assert_int_equal(
		npusmi_parse_mapping(short_row, sizeof(short_row) - 1, &c, err, sizeof(err)),
		-EINVAL);
	assert_string_equal(err, "no chip rows in the output of info -m");
	/* no logic and no physical id: nothing to address the chip by */
	static const char no_id[] = "NPU ID  Chip ID  Chip Name\n0  0  Ascend910\n";
	assert_int_equal(npusmi_parse_mapping(no_id, sizeof(no_id) - 1, &c, err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, "the info -m header has no NPU ID, Chip ID, and Chip Logic ID or "
				 "Chip Phy-ID columns");
}

/* The source's printf formats: "\t%-30s : " and "[" "%-20u "... "]". */
static const char hccs_src[] = "\thccs health status             : OK\n"
			       "\thccs lane mode                 : [4                    4         "
			       "           2                    ]\n"
			       "\thccs link lane list            : [1111                 1111      "
			       "           1100                 ]\n"
			       "\thccs link speed                : [224                  224       "
			       "           112                  ]\n"
			       "\thccs tx packets                : [1993002168           "
			       "1434439505           1588783520           ]\n"
			       "\thccs retry count               : [0                    0         "
			       "           0                    ]\n"
			       "\thccs error count               : [0                    0         "
			       "           18446744073709551615 ]\n"
			       "\thccs first error lane          : NA\n";

static void test_hccs_source_format(void **state)
{
	struct npusmi_hccs h;
	(void)state;
	assert_int_equal(npusmi_parse_hccs(hccs_src, sizeof(hccs_src) - 1, &h, err, sizeof(err)),
			 0);
	assert_false(h.unsupported);
	assert_string_equal(h.health, "OK");
	assert_string_equal(h.first_error_lane, "NA");
	assert_int_equal(h.n[HCCS_LANE_MODE], 3);
	assert_int_equal(h.val[HCCS_LANE_MODE][2], 2);
	assert_string_equal(h.lane_list[2], "1100");
	assert_int_equal(h.val[HCCS_SPEED][0], 224);
	assert_true(h.val[HCCS_ERROR][2] == 18446744073709551615ULL);
	assert_int_equal(h.n[HCCS_RX_BYTES], 0);
}

static void test_hccs_variants(void **state)
{
	/* the compressed real capture: bracket glued to the last value */
	static const char compressed[] =
		"\thccs health status             : OK\n"
		"\thccs retry count               : [0            0            0]\n";
	/* commas, no spaces around ':', CRLF, a key in capitals, a missing ']', NA values */
	static const char odd[] = "hccs health status:NOK\r\n"
				  "HCCS lane mode :[4,4, 4]\r\n"
				  "hccs  link  speed   :   [224 NA 224\r\n"
				  "hccs something new : [1 2 3]\r\n";
	/* -lane N form: one value "[%-20u]" */
	static const char lane[] = "\thccs lane mode                 : [4                   ]\n";
	struct npusmi_hccs h;
	(void)state;
	assert_int_equal(
		npusmi_parse_hccs(compressed, sizeof(compressed) - 1, &h, err, sizeof(err)), 0);
	assert_int_equal(h.n[HCCS_RETRY], 3);
	assert_int_equal(h.val[HCCS_RETRY][2], 0);
	assert_int_equal(npusmi_parse_hccs(odd, sizeof(odd) - 1, &h, err, sizeof(err)), 0);
	assert_string_equal(h.health, "NOK");
	assert_int_equal(h.n[HCCS_LANE_MODE], 3);
	assert_int_equal(h.n[HCCS_SPEED], 3);
	assert_true(h.val[HCCS_SPEED][1] == NPUSMI_NA);
	assert_int_equal(npusmi_parse_hccs(lane, sizeof(lane) - 1, &h, err, sizeof(err)), 0);
	assert_int_equal(h.n[HCCS_LANE_MODE], 1);
	assert_int_equal(h.val[HCCS_LANE_MODE][0], 4);
}

static void test_hccs_unsupported_and_errors(void **state)
{
	static const char uns[] = "This device does not support querying hccs.\n";
	static const char bad[] = "\thccs health status : OK\n\thccs lane mode : [4 x 4]\n";
	static const char badlane[] = "\thccs link lane list : [1121]\n";
	static const char big[] = "\thccs retry count : [18446744073709551616]\n";
	struct npusmi_hccs h;
	(void)state;
	assert_int_equal(npusmi_parse_hccs(uns, sizeof(uns) - 1, &h, err, sizeof(err)), 0);
	assert_true(h.unsupported);
	assert_int_equal(npusmi_parse_hccs(bad, sizeof(bad) - 1, &h, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "line 2: 'hccs lane mode' value \"x\" is not a number");
	assert_int_equal(npusmi_parse_hccs(badlane, sizeof(badlane) - 1, &h, err, sizeof(err)),
			 -EINVAL);
	assert_int_equal(npusmi_parse_hccs(big, sizeof(big) - 1, &h, err, sizeof(err)), -EINVAL);
	assert_int_equal(npusmi_parse_hccs("Error: busy\n", 12, &h, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "no hccs field in the output");
}

static void test_topo(void **state)
{
	static const char a3[] = "\t   Phy-ID0 Phy-ID1 Phy-ID2 NIC0 CPU Affinity\n"
				 "Phy-ID0 X SIO HCCS_SW PIX 0-39\n"
				 "Phy-ID1 SIO X HCCS_SW PIX 0-39\n"
				 "Phy-ID2 HCCS_SW SYS X PIX 40-79\n"
				 "NIC0 PIX PIX PIX X\n"
				 "\nLegend:\n  X = Self\n  NPU0 = not a row\n";
	struct npusmi_topo *t = malloc(sizeof(*t));
	struct npusmi_topo_miss m[4];
	size_t g;
	(void)state;
	assert_int_equal(npusmi_parse_topo(a3, sizeof(a3) - 1, t, err, sizeof(err)), 0);
	assert_int_equal(t->n, 3);
	assert_string_equal(t->label[2], "Phy-ID2");
	assert_string_equal(t->link[0][1], "SIO");
	assert_string_equal(t->link[2][1], "SYS");
	/* one asymmetric pair: HCCS_SW one way, SYS the other */
	assert_int_equal(npusmi_topo_check(t, m, 4, &g), 1);
	assert_int_equal(g, 3);
	assert_int_equal(m[0].a, 1);
	assert_int_equal(m[0].b, 2);
	assert_string_equal(m[0].type, "HCCS_SW");
	assert_string_equal(m[0].reverse, "SYS");
	assert_int_equal(npusmi_parse_topo("Legend:\n", 8, t, err, sizeof(err)), -EINVAL);
	assert_int_equal(t->unsupported, 0);
	/* a board without the query: no matrix, and no failure either */
	static const char nosup[] = "This device does not support querying topo.\n";
	assert_int_equal(npusmi_parse_topo(nosup, sizeof(nosup) - 1, t, err, sizeof(err)), 0);
	assert_int_equal(t->unsupported, 1);
	assert_int_equal(t->n, 0);
	free(t);
}

/* 910A: two groups of four; an isolated card and a group short of one are completed. */
static void test_topo_groups(void **state)
{
	struct npusmi_topo *t = calloc(1, sizeof(*t));
	struct npusmi_topo_miss m[16];
	size_t g;
	(void)state;
	t->n = 8;
	for (size_t i = 0; i < 8; i++) {
		snprintf(t->label[i], sizeof(t->label[i]), "NPU%zu", i);
		for (size_t j = 0; j < 8; j++)
			snprintf(t->link[i][j], sizeof(t->link[i][j]), "%s",
				 i == j		  ? "X"
				 : i / 4 == j / 4 ? "HCCS"
						  : "SYS");
	}
	assert_int_equal(npusmi_topo_check(t, m, 16, &g), 0);
	assert_int_equal(g, 4);
	for (size_t j = 4; j < 7; j++) /* NPU7 loses its group */
		snprintf(t->link[7][j], 12, "SYS"), snprintf(t->link[j][7], 12, "SYS");
	assert_int_equal(npusmi_topo_check(t, m, 16, &g), 3);
	assert_int_equal(g, 4);
	assert_int_equal(m[0].a, 4);
	assert_int_equal(m[0].b, 7);
	/* no HCCS at all: nothing expected */
	for (size_t i = 0; i < 8; i++)
		for (size_t j = 0; j < 8; j++)
			if (i != j)
				snprintf(t->link[i][j], 12, "PIX");
	assert_int_equal(npusmi_topo_check(t, m, 16, &g), 0);
	assert_int_equal(g, 0);
	free(t);
}

static void test_assess(void **state)
{
	struct hccs_chip *c = calloc(3, sizeof(*c));
	(void)state;
	assert_int_equal(
		npusmi_parse_hccs(hccs_src, sizeof(hccs_src) - 1, &c[0].first, err, sizeof(err)),
		0);
	c[1].first = c[0].first;
	c[1].second = c[0].first;
	c[1].have_second = 1;
	c[1].second.val[HCCS_RETRY][0] = 2;
	c[1].second.val[HCCS_LANE_MODE][1] = 0; /* down on this chip only */
	c[2].first.unsupported = 1;
	assert_int_equal(hccs_assess(c, 3, 2.0), PROBE_FAIL);
	assert_int_equal(c[0].status, PROBE_PASS);
	assert_string_equal(c[0].link[0].state, "up");
	assert_string_equal(c[0].link[2].state, "degraded");
	assert_string_equal(c[0].link[2].reason, "lane mode 2, others 4; lane list 1100: 2 of 4 "
						 "lanes active; speed 112, others 224");
	assert_string_equal(c[1].link[0].state, "errors");
	assert_string_equal(c[1].link[0].reason, "retry count +2 in 2 s");
	assert_int_equal(c[1].link[0].status, PROBE_WARN);
	assert_string_equal(c[1].link[1].state, "down");
	assert_int_equal(c[2].status, PROBE_SKIP);
	/* down everywhere: unused */
	c[0].first.val[HCCS_LANE_MODE][1] = 0;
	assert_int_equal(hccs_assess(c, 2, 2.0), PROBE_WARN);
	assert_string_equal(c[0].link[1].state, "unused");
	assert_int_equal(c[0].link[1].status, PROBE_SKIP);
	/* no health line: UNKNOWN */
	c[0].first.health[0] = '\0';
	hccs_assess(c, 1, 1.0);
	assert_int_equal(c[0].status, PROBE_UNKNOWN);
	assert_string_equal(c[0].reason, "no hccs health status in the output");
	free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_list),
		cmocka_unit_test(test_mapping),
		cmocka_unit_test(test_hccs_source_format),
		cmocka_unit_test(test_hccs_variants),
		cmocka_unit_test(test_hccs_unsupported_and_errors),
		cmocka_unit_test(test_topo),
		cmocka_unit_test(test_topo_groups),
		cmocka_unit_test(test_assess),
	};
	return cmocka_run_group_tests_name("npusmi", tests, NULL, NULL);
}
