/* The npu-smi and hccn_tool parsers against the real captures of tests/data/npu-smi/real and
 * tests/data/hccn_tool/real (their READMEs name the sources): the values each capture shows,
 * read back field by field. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "probes/nic/hccn.h"
#include "probes/npu/npuhw.h"
#include "probes/npu/npusmi.h"

#define SMI "tests/data/npu-smi/real/"
#define HCCN "tests/data/hccn_tool/real/"

static char err[256];

/* A whole file, NUL-terminated, with its size in *len; with crlf, every "\n" made "\r\n". */
static char *load(const char *path, size_t *len, int crlf)
{
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	char *raw = malloc(1 << 16), *out = malloc(1 << 17);
	assert_non_null(raw);
	assert_non_null(out);
	size_t n = fread(raw, 1, (1 << 16) - 1, f), o = 0;
	fclose(f);
	for (size_t i = 0; i < n; i++) {
		if (crlf && raw[i] == '\n')
			out[o++] = '\r';
		out[o++] = raw[i];
	}
	out[o] = '\0';
	free(raw);
	*len = o;
	return out;
}

static struct npuhw_table *table(const char *file, int crlf)
{
	size_t len;
	char path[256];
	snprintf(path, sizeof(path), SMI "%s", file);
	char *b = load(path, &len, crlf);
	struct npuhw_table *t = malloc(sizeof(*t));
	assert_non_null(t);
	assert_int_equal(npuhw_parse_table(b, len, t, err, sizeof(err)), 0);
	free(b);
	return t;
}

static void row_is(const struct npuhw_chip_row *r, int npu, int chip, int phy, int dev,
		   const char *name, const char *health, const char *bus)
{
	assert_int_equal(r->npu, npu);
	assert_int_equal(r->chip, chip);
	assert_int_equal(r->phy_id, phy);
	assert_int_equal(r->dev_id, dev);
	assert_string_equal(r->name, name);
	assert_string_equal(r->health, health);
	assert_string_equal(r->bus, bus);
}

/* A3 (Atlas 800T A3, 910_93): two dies per NPU, "Chip Phy-ID" rows whose first cell holds
 * two ids; npu-smi 25.x at 96 columns, 26.x padded wider; CRLF read the same. */
static void test_table_a3(void **state)
{
	(void)state;
	for (int crlf = 0; crlf < 2; crlf++) {
		struct npuhw_table *t = table("info_a3_16chip_25.3.rc1_vllm-ascend.txt", crlf);
		assert_int_equal(t->n, 16);
		assert_int_equal(t->nobus, 0);
		assert_int_equal(t->elided, 0);
		row_is(&t->v[0], 0, 0, 0, -1, "Ascend910", "OK", "0000:9d:00.0");
		row_is(&t->v[1], 0, 1, 1, -1, "Ascend910", "OK", "0000:9f:00.0");
		row_is(&t->v[10], 5, 0, 10, -1, "Ascend910", "OK", "0000:89:00.0");
		row_is(&t->v[15], 7, 1, 15, -1, "Ascend910", "OK", "0000:83:00.0");
		free(t);
	}
	struct npuhw_table *t = table("info_a3_25.2.0_nputop.txt", 0);
	assert_int_equal(t->n, 4);
	row_is(&t->v[3], 1, 1, 3, -1, "Ascend910", "OK", "0000:39:00.0");
	free(t);
	t = table("info_a3_26.0.rc2_wide_vllm-ascend-12980.txt", 0);
	assert_int_equal(t->n, 2);
	row_is(&t->v[0], 0, 0, 0, -1, "Ascend910", "OK", "0000:9d:00.0");
	row_is(&t->v[1], 0, 1, 1, -1, "Ascend910", "OK", "0000:9f:00.0");
	free(t);
}

/* 310B (Atlas 200I A2, an SoC: Bus-Id NA) and 310P3 (a PCIe card numbered 32896): the
 * "Chip Device" header, whose rows carry the device id after the chip id. */
static void test_table_310(void **state)
{
	(void)state;
	struct npuhw_table *t = table("info_310b4_alarm_bus-na_nputop.txt", 0);
	assert_int_equal(t->n, 1);
	assert_int_equal(t->nobus, 1);
	row_is(&t->v[0], 0, 0, -1, 0, "310B4", "Alarm", "");
	assert_int_equal(t->v[0].bus_masked, 0);
	free(t);
	t = table("info_310b4_bus-na_blog.txt", 0);
	assert_int_equal(t->n, 1);
	row_is(&t->v[0], 0, 0, -1, 0, "310B4", "OK", "");
	free(t);
	t = table("info_310p3_card-32896_nputop.txt", 0);
	assert_int_equal(t->n, 1);
	assert_int_equal(t->nobus, 0);
	row_is(&t->v[0], 32896, 0, -1, 0, "310P3", "OK", "0000:00:00.0");
	free(t);
}

/* 910B: a process row under the table, a blank after every line's last bar, and bus ids
 * the poster masked as "0000:xx:00.0" (kept as rows, with no bus). */
static void test_table_910b(void **state)
{
	(void)state;
	struct npuhw_table *t = table("info_910b2c_trailing-blank_nputop.txt", 0);
	assert_int_equal(t->n, 2);
	row_is(&t->v[0], 0, 0, -1, -1, "910B2C", "OK", "0000:5a:00.0");
	row_is(&t->v[1], 1, 0, -1, -1, "910B2C", "OK", "0000:19:00.0");
	free(t);
	t = table("info_910b4-1_bus-masked_hami-webui-47.txt", 0);
	assert_int_equal(t->n, 2);
	assert_int_equal(t->nobus, 2);
	row_is(&t->v[1], 1, 0, -1, -1, "910B4-1", "OK", "");
	assert_int_equal(t->v[1].bus_masked, 1);
	free(t);
}

/* Rows that are not chip rows are not taken for them, and the error names where the NPU
 * rows start. */
static void test_table_rejects(void **state)
{
	static const char only_npu[] = "| NPU   Name | Health |\n| Chip | Bus-Id |\n+===+\n"
					"| 0     910B1 | OK |\n| 0 | 0000:zz:00.0 |\n";
	struct npuhw_table *t = malloc(sizeof(*t));
	(void)state;
	assert_non_null(t);
	assert_int_equal(npuhw_parse_table(only_npu, sizeof(only_npu) - 1, t, err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, "npu-smi info: no chip row (chip id, then a bus id or NA) under "
				 "the NPU rows from line 4");
	free(t);
}

/* info -m of the 310P3 card: a five-digit NPU id and the Mcu row left out. */
static void test_mapping_310p(void **state)
{
	size_t len;
	char *b = load(SMI "m_310p3_card-32896_nputop.txt", &len, 0);
	struct npusmi_chips *c = malloc(sizeof(*c));
	(void)state;
	assert_non_null(c);
	assert_int_equal(npusmi_parse_mapping(b, len, c, err, sizeof(err)), 0);
	assert_int_equal(c->n, 1);
	assert_int_equal(c->v[0].npu, 32896);
	assert_int_equal(c->v[0].chip, 0);
	assert_int_equal(c->v[0].logic_id, 0);
	assert_string_equal(c->v[0].name, "Ascend 310P3");
	free(c);
	free(b);
}

/* -tls -g of the hccn_tool reference (subject lines, "tls expiration status", a CRL block)
 * and the one-line "| grep switch" forms of two deployment docs. */
static void test_tls(void **state)
{
	size_t len;
	struct hccn_tls t;
	(void)state;
	char *b = load(HCCN "tls_crl-near-expiry_hccn-tool-doc.txt", &len, 0);
	assert_int_equal(hccn_parse_tls(b, len, &t, err, sizeof(err)), 0);
	assert_int_equal(t.enabled, 0);
	assert_int_equal(t.preconfigured, 0);
	assert_int_equal(t.alarm_days, 60);
	assert_int_equal(t.ncerts, 3);		/* pub, ca1, ca2: the CRL is not one */
	assert_int_equal(t.expiry_status, 0); /* the CRL's 1 is not a certificate's */
	assert_string_equal(t.first_expiry_text, "Wed Jun 18 03:10:27 2053 GMT");
	free(b);
	b = load(HCCN "tls_grep-switch_8dev_deepseek-v3-doc.txt", &len, 0);
	assert_int_equal(hccn_parse_tls(b, len, &t, err, sizeof(err)), 0);
	assert_int_equal(t.enabled, 0);
	assert_int_equal(t.preconfigured, 1);
	assert_int_equal(t.ncerts, 0);
	assert_int_equal(t.expiry_status, -1);
	free(b);
	b = load(HCCN "tls_grep-switch_2dev_hccl-doc.txt", &len, 0);
	assert_int_equal(hccn_parse_tls(b, len, &t, err, sizeof(err)), 0);
	assert_int_equal(t.enabled, 0); /* the first device's line: -i N prints one device */
	free(b);
}

/* -netdetect -g as "netdetect address:", and -ip -g plain and masked. */
static void test_netdetect_ip(void **state)
{
	size_t len;
	char a[48] = "";
	struct hccn_ip ip;
	(void)state;
	char *b = load(HCCN "netdetect_address_deepseek-v3-doc.txt", &len, 0);
	assert_int_equal(hccn_parse_netdetect(b, len, a, sizeof(a), err, sizeof(err)), 0);
	assert_string_equal(a, "11.12.165.1");
	free(b);
	b = load(HCCN "ip_910b1_arthurchiao.txt", &len, 1);
	assert_int_equal(hccn_parse_ip(b, len, &ip, err, sizeof(err)), 0);
	assert_string_equal(ip.addr, "29.1.112.213");
	assert_string_equal(ip.mask, "255.255.0.0");
	free(b);
	b = load(HCCN "ip_masked_mindcluster-doc.txt", &len, 0);
	assert_int_equal(hccn_parse_ip(b, len, &ip, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "ipaddr \"10.xx.xx.10\" is not an IP address (masked or cut?)");
	assert_string_equal(ip.addr, "");
	free(b);
	assert_int_equal(hccn_parse_netdetect("netdetect address: 11.12.xx.1\n", 30, a, sizeof(a),
					      err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(
		err, "netdetect address \"11.12.xx.1\" is not an IP address (masked or cut?)");
}

/* -optical -g of a 910A's four-lane QSFP: every lane read, the weakest kept, with the
 * module's own thresholds. */
static void test_optical_lanes(void **state)
{
	size_t len;
	struct hccn_optical o;
	(void)state;
	char *b = load(HCCN "optical_910a_4lane_mindcluster-kgparse.txt", &len, 0);
	assert_int_equal(hccn_parse_optical(b, len, &o, err, sizeof(err)), 0);
	assert_int_equal(o.present, 0);
	assert_int_equal(o.nrx, 4);
	assert_int_equal(o.ntx, 4);
	assert_int_equal(o.rx_lane, 1);
	assert_true(o.rx_mw > 0.00539 && o.rx_mw < 0.00541);
	assert_int_equal(o.tx_lane, 0);
	assert_true(o.tx_mw > 4.4034 && o.tx_mw < 4.4036);
	assert_true(o.rx_low_mw > 0.1444 && o.rx_low_mw < 0.1446);
	assert_true(o.rx_high_mw > 3.5480 && o.rx_high_mw < 3.5482);
	assert_true(o.tx_low_mw > 0.2817 && o.tx_low_mw < 0.2819);
	assert_true(o.tx_high_mw > 3.5480 && o.tx_high_mw < 3.5482);
	assert_int_equal(o.rx_los, 255);
	assert_int_equal(o.rx_lol, 255);
	assert_int_equal(o.tx_los, 0);
	free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_a3),      cmocka_unit_test(test_table_310),
		cmocka_unit_test(test_table_910b),    cmocka_unit_test(test_table_rejects),
		cmocka_unit_test(test_mapping_310p),  cmocka_unit_test(test_tls),
		cmocka_unit_test(test_netdetect_ip),  cmocka_unit_test(test_optical_lanes),
	};
	return cmocka_run_group_tests_name("real_tools", tests, NULL, NULL);
}
