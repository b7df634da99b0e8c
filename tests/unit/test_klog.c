/* The kernel-log scan against the real kernel logs in tests/data/klog (sources in its
 * README): the kind, count, line number and line of each finding. Run from the top of the
 * tree. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "probes/logs/klog.h"

static void scan_file(const char *name, struct klog_report *r)
{
	char path[256], buf[1 << 16];
	snprintf(path, sizeof(path), "tests/data/klog/%s", name);
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	size_t n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	klog_scan(buf, n, r);
}

static unsigned total(const struct klog_report *r)
{
	unsigned n = 0;
	for (int k = 0; k < KLOG_NKINDS; k++)
		n += r->k[k].count;
	return n;
}

static void test_healthy_driver_lines(void **state)
{
	struct klog_report r;
	(void)state;
	/* Ascend's own info lines: "Release module success", "Device process exited", no error */
	scan_file("ascend-samples-16.txt", &r);
	assert_int_equal(r.lines, 8);
	assert_int_equal(total(&r), 0);
	assert_int_equal(klog_worst(&r), PROBE_PASS);
}

static void test_device_abnormal(void **state)
{
	struct klog_report r;
	(void)state;
	scan_file("atlas800i-device-abnormal.txt", &r);
	assert_int_equal(r.k[KLOG_NPU_DEVICE].count, 1);
	assert_int_equal(r.k[KLOG_NPU_DEVICE].first_line, 7);
	assert_string_equal(
		r.k[KLOG_NPU_DEVICE].line,
		"[  456.343559] [ascend] [drv_pcie] [devdrv_sync_non_trans_msg_send 1239] "
		"<kworker/u385:0:15232:15232> Device is abnormal. (dev_id=5; msg_type=3; "
		"common_type=5)");
	assert_int_equal(r.k[KLOG_NPU_DRIVER].count, 1);
	assert_int_equal(r.k[KLOG_NPU_DRIVER].first_line, 8);
	assert_int_equal(total(&r), 2); /* the call trace before them is not a finding */
	assert_int_equal(klog_worst(&r), PROBE_FAIL);
	assert_int_equal(klog_kind_status(KLOG_NPU_DRIVER), PROBE_WARN);
}

static void test_aer(void **state)
{
	struct klog_report r;
	(void)state;
	scan_file("aer-uncorrectable-journal.txt", &r);
	assert_int_equal(r.k[KLOG_AER_FATAL].count, 4);
	assert_int_equal(r.k[KLOG_AER_FATAL].first_line, 1);
	assert_string_equal(
		r.k[KLOG_AER_FATAL].line,
		"Sep 22 09:59:09 pve kernel: xhci_hcd 0000:97:00.0: AER: can't recover (no "
		"error_detected callback)");
	assert_int_equal(r.k[KLOG_AER_CORRECTED].count, 1);
	assert_int_equal(r.k[KLOG_AER_CORRECTED].first_line, 3);
	assert_int_equal(klog_worst(&r), PROBE_FAIL);
	scan_file("aer-corrected-dmesg.txt", &r);
	assert_int_equal(r.k[KLOG_AER_CORRECTED].count, 3);
	assert_int_equal(r.k[KLOG_AER_CORRECTED].first_line, 3);
	assert_int_equal(total(&r), 3);
	assert_int_equal(klog_worst(&r), PROBE_WARN);
	assert_string_equal(klog_kind_name(KLOG_AER_CORRECTED), "PCIe AER corrected errors");
}

static void test_machine_checks(void **state)
{
	struct klog_report r;
	(void)state;
	scan_file("mce-corrected-journal.txt", &r);
	assert_int_equal(r.k[KLOG_HW_CORRECTED].count, 4);
	assert_int_equal(r.k[KLOG_HW_CORRECTED].first_line, 2);
	assert_int_equal(total(&r), 4); /* "mce: CPU supports 7 MCE banks" is not one */
	scan_file("edac-ce-journal.txt", &r);
	assert_int_equal(r.k[KLOG_HW_CORRECTED].count, 2);
	assert_int_equal(total(&r), 2);
	assert_int_equal(klog_worst(&r), PROBE_WARN);
	/* the firmware's record of a multi-bit HBM error: recoverable is uncorrected */
	scan_file("npu-hbm-ecc-kbox.txt", &r);
	assert_int_equal(r.k[KLOG_HW_FATAL].count, 1);
	assert_int_equal(r.k[KLOG_HW_FATAL].first_line, 2);
	assert_int_equal(total(&r), 1);
	assert_int_equal(klog_worst(&r), PROBE_FAIL);
}

static void test_variants(void **state)
{
	struct klog_report r;
	(void)state;
	static const char v[] =
		"[  100.1] Memory failure: 0x1234: recovery action for dirty LRU page: Recovered\n"
		"[  100.2] [ascend] [ERROR] [devmm] [devmm_svm_device_fault 438] <kworker:1> Vm "
		"fault failed.\n"
		"[  100.3] [ascend] [devmm] [devmm_page_fault_fn 10] <a:1> done. (ret=0)\n"
		"[  100.4] {1}[Hardware Error]: event severity: corrected\r\n"
		"[  100.5] EDAC MC0: 1 UE memory read error on DIMM0\n";
	klog_scan(v, sizeof(v) - 1, &r);
	assert_int_equal(r.k[KLOG_MEMORY_FAILURE].count, 1);
	assert_int_equal(r.k[KLOG_NPU_DRIVER].count, 1); /* a function named *fault is not one */
	assert_int_equal(r.k[KLOG_NPU_DRIVER].first_line, 2);
	assert_int_equal(r.k[KLOG_HW_CORRECTED].count, 1);
	assert_int_equal(r.k[KLOG_HW_FATAL].count, 1);
	assert_int_equal(r.lines, 5);
	klog_scan("", 0, &r);
	assert_int_equal(r.lines, 0);
	assert_int_equal(klog_worst(&r), PROBE_PASS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_healthy_driver_lines), cmocka_unit_test(test_device_abnormal),
		cmocka_unit_test(test_aer),		     cmocka_unit_test(test_machine_checks),
		cmocka_unit_test(test_variants),
	};
	return cmocka_run_group_tests_name("klog", tests, NULL, NULL);
}
