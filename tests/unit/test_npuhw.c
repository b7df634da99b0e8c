/* npu-smi health parsers and verdicts against the real captures in tests/data/npu-smi/hw-*
 * (sources in tests/data/npu-smi/README), with exact values, and their variants. Run from the
 * top of the tree. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "probes/npu/npuhw.h"

static char err[256];

/* A whole file, NUL-terminated; *len its size. */
static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	char *buf = malloc(1 << 16);
	assert_non_null(buf);
	*len = fread(buf, 1, (1 << 16) - 1, f);
	buf[*len] = '\0';
	fclose(f);
	return buf;
}

static void test_ecc_910a(void **state)
{
	size_t len;
	char *b = slurp("tests/data/npu-smi/hw-910a/ecc.txt", &len);
	struct npuhw_ecc e;
	char why[200];
	(void)state;
	assert_int_equal(npuhw_parse_ecc(b, len, &e, err, sizeof(err)), 0);
	assert_int_equal(e.unsupported, 0);
	assert_int_equal(e.nfields, 12); /* six DDR and six HBM keys; Chip ID is not one */
	for (int f = ECC_DDR_SBE; f <= ECC_HBM_DB_ISO; f++)
		assert_true(e.v[f] == 0);
	assert_true(e.v[ECC_HBM_SB_NEXT_ISO] == NPUHW_NA);
	assert_int_equal(npuhw_ecc_assess(&e, NULL, why, sizeof(why)), PROBE_PASS);
	assert_string_equal(why, "");
	free(b);
}

static void test_ecc_950_next_isolated(void **state)
{
	size_t len;
	char *b = slurp("tests/data/npu-smi/hw-910b1/ecc.txt", &len);
	struct npuhw_ecc e;
	(void)state;
	assert_int_equal(npuhw_parse_ecc(b, len, &e, err, sizeof(err)), 0);
	assert_int_equal(e.nfields, 8);
	assert_true(e.v[ECC_HBM_SB_ISO] == 0 && e.v[ECC_HBM_SB_NEXT_ISO] == 0);
	assert_true(e.v[ECC_DDR_SBE] == NPUHW_NA); /* no DDR lines on this board */
	/* whole keys: a Next-Isolated count is not taken for the Isolated one */
	static const char trap[] = "HBM Single Bit Next-Isolated Pages Count : 5\n";
	assert_int_equal(npuhw_parse_ecc(trap, sizeof(trap) - 1, &e, err, sizeof(err)), 0);
	assert_true(e.v[ECC_HBM_SB_ISO] == NPUHW_NA);
	assert_true(e.v[ECC_HBM_SB_NEXT_ISO] == 5);
	free(b);
}

static void test_ecc_verdicts(void **state)
{
	size_t len;
	char *b = slurp("tests/data/npu-smi/hw-ecc/ecc-3-.txt", &len);
	struct npuhw_ecc a, c;
	char why[300];
	(void)state;
	assert_int_equal(npuhw_parse_ecc(b, len, &a, err, sizeof(err)), 0);
	assert_int_equal(npuhw_ecc_assess(&a, NULL, why, sizeof(why)), PROBE_WARN);
	assert_string_equal(why, "HBM single-bit errors 12 (40 in total)");
	free(b);
	b = slurp("tests/data/npu-smi/hw-ecc/ecc-5-.txt", &len);
	assert_int_equal(npuhw_parse_ecc(b, len, &a, err, sizeof(err)), 0);
	assert_int_equal(npuhw_ecc_assess(&a, NULL, why, sizeof(why)), PROBE_FAIL);
	assert_string_equal(why,
			    "HBM multi-bit errors 1, HBM pages isolated for multi-bit errors 1");
	free(b);
	/* growth between two readings */
	b = slurp("tests/data/npu-smi/hw-ecc/ecc-2-.1.txt", &len);
	assert_int_equal(npuhw_parse_ecc(b, len, &a, err, sizeof(err)), 0);
	free(b);
	b = slurp("tests/data/npu-smi/hw-ecc/ecc-2-.2.txt", &len);
	assert_int_equal(npuhw_parse_ecc(b, len, &c, err, sizeof(err)), 0);
	free(b);
	assert_int_equal(npuhw_ecc_assess(&a, &c, why, sizeof(why)), PROBE_WARN);
	assert_string_equal(why, "HBM single-bit errors 7 (+4 during the check)");
	/* pages waiting for isolation fail too */
	static const char next[] = "\tHBM Double Bit Next-Isolated Pages Count : 2\r\n";
	assert_int_equal(npuhw_parse_ecc(next, sizeof(next) - 1, &a, err, sizeof(err)), 0);
	assert_int_equal(npuhw_ecc_assess(&a, NULL, why, sizeof(why)), PROBE_FAIL);
	assert_string_equal(why, "HBM pages to isolate at the next reset (multi-bit) 2");
}

static void test_ecc_errors(void **state)
{
	struct npuhw_ecc e;
	(void)state;
	static const char un[] = "This device does not support querying ecc.\n";
	assert_int_equal(npuhw_parse_ecc(un, sizeof(un) - 1, &e, err, sizeof(err)), 0);
	assert_int_equal(e.unsupported, 1);
	static const char bad[] = "NPU ID : 0\nHBM Double Bit Error Count : x1\n";
	assert_int_equal(npuhw_parse_ecc(bad, sizeof(bad) - 1, &e, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "line 2: 'HBM Double Bit Error Count' is \"x1\", not a number");
	static const char none[] = "Invalid card id.\nError parameter of -i\n";
	assert_int_equal(npuhw_parse_ecc(none, sizeof(none) - 1, &e, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "no ECC counter in the output");
	static const char na[] = "HBM Single Bit Error Count : NA\n";
	assert_int_equal(npuhw_parse_ecc(na, sizeof(na) - 1, &e, err, sizeof(err)), 0);
	assert_true(e.v[ECC_HBM_SBE] == NPUHW_NA);
}

static void test_common(void **state)
{
	size_t len;
	char *b = slurp("tests/data/npu-smi/hw-910b1/common.txt", &len);
	struct npuhw_common c;
	char why[200];
	(void)state;
	/* 910B1, idle: 1800 MHz rated, 800 MHz now, 46 C, 93.4 W; the mcu's 38 C is not the chip's
	 */
	assert_int_equal(npuhw_parse_common(b, len, &c, err, sizeof(err)), 0);
	assert_int_equal(c.usage, 0);
	assert_int_equal(c.freq, 1800);
	assert_int_equal(c.cur_freq, 800);
	assert_int_equal(c.aicores, 24);
	assert_int_equal(c.temp, 46);
	assert_int_equal(c.hbm_usage, 4);
	assert_true(c.power > 93.39 && c.power < 93.41);
	assert_int_equal(npuhw_thermal_assess(&c, why, sizeof(why)), PROBE_PASS);
	free(b);
	/* 910 (no blank line, no mcu block): at its rated clock */
	b = slurp("tests/data/npu-smi/hw-910a/common.txt", &len);
	assert_int_equal(npuhw_parse_common(b, len, &c, err, sizeof(err)), 0);
	assert_int_equal(c.freq, 900);
	assert_int_equal(c.cur_freq, 900);
	assert_int_equal(c.aicores, 30);
	assert_int_equal(c.temp, 41);
	assert_true(c.power > 71.69 && c.power < 71.71);
	assert_int_equal(npuhw_thermal_assess(&c, why, sizeof(why)), PROBE_PASS);
	free(b);
	b = slurp("tests/data/npu-smi/hw-hot/common-4-.txt", &len);
	assert_int_equal(npuhw_parse_common(b, len, &c, err, sizeof(err)), 0);
	assert_int_equal(npuhw_thermal_assess(&c, why, sizeof(why)), PROBE_WARN);
	assert_string_equal(why, "88 C (85 C or more), AI cores at 600 of 900 MHz while 97 % busy: "
				 "throttled");
	free(b);
	b = slurp("tests/data/npu-smi/hw-hot/common-6-.txt", &len);
	assert_int_equal(npuhw_parse_common(b, len, &c, err, sizeof(err)), 0);
	assert_int_equal(npuhw_thermal_assess(&c, why, sizeof(why)), PROBE_FAIL);
	assert_string_equal(why, "101 C (the limit is 100 C)");
	free(b);
	static const char none[] =
		"Usage: npu-smi info <watch|proc|-h|-m|-l|-t type> [Options...]\n";
	assert_int_equal(npuhw_parse_common(none, sizeof(none) - 1, &c, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "no temperature, power or AI core field in the output");
}

static void test_health(void **state)
{
	size_t len;
	char *b = slurp("tests/data/npu-smi/hw-alarm/health-0-0.txt", &len);
	struct npuhw_health h;
	(void)state;
	assert_int_equal(npuhw_parse_health(b, len, &h, err, sizeof(err)), 0);
	assert_string_equal(h.status, "Alarm");
	assert_int_equal(h.ncodes, 3);
	assert_string_equal(h.codes[0], "A4025021");
	assert_string_equal(h.codes[1], "8C03A000");
	assert_string_equal(h.codes[2], "8C084E00");
	assert_string_equal(h.info, "ascend_monitor adda heart beat lost error");
	free(b);
	b = slurp("tests/data/npu-smi/hw-910a/health.txt", &len);
	assert_int_equal(npuhw_parse_health(b, len, &h, err, sizeof(err)), 0);
	assert_string_equal(h.status, "OK");
	assert_int_equal(h.ncodes, 0);
	assert_string_equal(h.info, "");
	free(b);
	/* the card-level form: "Health", with an NPU ID line */
	b = slurp("tests/data/npu-smi/hw-910b1/health.txt", &len);
	assert_int_equal(npuhw_parse_health(b, len, &h, err, sizeof(err)), 0);
	assert_string_equal(h.status, "OK");
	assert_int_equal(h.ncodes, 0);
	free(b);
	/* commas, 0x, lower case, a repeated code, a continuation line of codes */
	static const char v[] =
		"Health Status : Warning\nError Code : 0x80e01801,0x80E01801 81af8000\n"
		"  : 80CB8006\nError Information : x\n  : not codes here\n";
	assert_int_equal(npuhw_parse_health(v, sizeof(v) - 1, &h, err, sizeof(err)), 0);
	assert_int_equal(h.ncodes, 3);
	assert_string_equal(h.codes[0], "80E01801");
	assert_string_equal(h.codes[1], "81AF8000");
	assert_string_equal(h.codes[2], "80CB8006");
	assert_int_equal(npuhw_parse_health("Invalid card id.\n", 17, &h, err, sizeof(err)),
			 -EINVAL);
}

static void test_events(void **state)
{
	size_t len;
	char *b = slurp("tests/data/npu-smi/hw-950/current-fault-event-0-.txt", &len);
	struct npuhw_events e;
	(void)state;
	assert_int_equal(npuhw_parse_events(b, len, &e, err, sizeof(err)), 0);
	assert_int_equal(e.count, 1);
	assert_int_equal(e.n, 1);
	assert_string_equal(e.v[0].code, "81AF8000");
	assert_int_equal(e.v[0].severity, 2);
	free(b);
	static const char two[] =
		"Fault Event Count : 2\n"
		"Fault Event Information : event id=0x80E01801, severity=1, node id=0\n"
		"Fault Event Information : event id=0x8c03a000, severity=3\n";
	assert_int_equal(npuhw_parse_events(two, sizeof(two) - 1, &e, err, sizeof(err)), 0);
	assert_int_equal(e.n, 2);
	assert_string_equal(e.v[1].code, "8C03A000");
	assert_int_equal(e.v[1].severity, 3);
	static const char zero[] = "Fault Event Count : 0\n";
	assert_int_equal(npuhw_parse_events(zero, sizeof(zero) - 1, &e, err, sizeof(err)), 0);
	assert_int_equal(e.count, 0);
	assert_int_equal(e.n, 0);
	static const char un[] = "This device does not support querying current-fault-event.\n";
	assert_int_equal(npuhw_parse_events(un, sizeof(un) - 1, &e, err, sizeof(err)), 0);
	assert_int_equal(e.unsupported, 1);
	assert_int_equal(npuhw_parse_events("x\n", 2, &e, err, sizeof(err)), -EINVAL);
}

static void test_table(void **state)
{
	size_t len;
	char *b = slurp("tests/data/npu-smi/hw-910b1/info.txt", &len);
	struct npuhw_table *t = malloc(sizeof(*t));
	(void)state;
	/* the author left out NPUs 2-6: three rows, no claim of eight */
	assert_int_equal(npuhw_parse_table(b, len, t, err, sizeof(err)), 0);
	assert_int_equal(t->n, 3);
	assert_int_equal(t->elided, 1);
	assert_int_equal(t->v[0].npu, 0);
	assert_int_equal(t->v[0].chip, 0);
	assert_string_equal(t->v[0].name, "910B1");
	assert_string_equal(t->v[0].health, "OK");
	assert_string_equal(t->v[0].bus, "0000:c1:00.0");
	assert_string_equal(t->v[1].bus, "0000:01:00.0");
	assert_int_equal(t->v[2].npu, 7);
	assert_string_equal(t->v[2].bus, "0000:42:00.0");
	free(b);
	/* the masked row is a column narrower: cells split on '|'; its masked name is "" */
	b = slurp("tests/data/npu-smi/hw-910a-table/info.txt", &len);
	assert_int_equal(npuhw_parse_table(b, len, t, err, sizeof(err)), 0);
	assert_int_equal(t->n, 1);
	assert_int_equal(t->v[0].npu, 7);
	assert_string_equal(t->v[0].name, "");
	assert_string_equal(t->v[0].bus, "0000:3d:00.0");
	free(b);
	assert_int_equal(npuhw_parse_table("| 0 | x |\n", 10, t, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "npu-smi info: no NPU Name / Health table");
	free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ecc_910a),   cmocka_unit_test(test_ecc_950_next_isolated),
		cmocka_unit_test(test_ecc_verdicts), cmocka_unit_test(test_ecc_errors),
		cmocka_unit_test(test_common),	   cmocka_unit_test(test_health),
		cmocka_unit_test(test_events),	   cmocka_unit_test(test_table),
	};
	return cmocka_run_group_tests_name("npuhw", tests, NULL, NULL);
}
