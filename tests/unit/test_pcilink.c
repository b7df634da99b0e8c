/* PCIe links from sysfs: the speed strings of old and new kernels, the scan of the fake trees
 * in tests/data/sysfs/npu-* and the verdicts. Run from the top of the tree. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "probes/host/pcilink.h"

static char err[256];

static void test_speed(void **state)
{
	(void)state;
	assert_int_equal(pci_speed_parse("16.0 GT/s PCIe", 14), 160);
	assert_int_equal(pci_speed_parse("2.5 GT/s PCIe", 13), 25);
	assert_int_equal(pci_speed_parse("8 GT/s", 6), 80);
	assert_int_equal(pci_speed_parse("32.0 GT/s PCIe", 14), 320);
	assert_int_equal(pci_speed_parse("Unknown", 7), -1);
	assert_int_equal(pci_speed_parse("16.0", 4), -1);
	assert_int_equal(pci_speed_parse("", 0), -1);
}

static void test_scan(void **state)
{
	struct pci_link l[PCILINK_MAX];
	char why[200];
	(void)state;
	int n = pci_scan("tests/data/sysfs/npu-910a", PCI_VENDOR_HUAWEI, PCI_CLASS_ACCEL, l,
			 PCILINK_MAX, err, sizeof(err));
	assert_int_equal(n, 8); /* the Huawei NIC (class 0x0200) is not an accelerator */
	assert_string_equal(l[0].bdf, "0000:3d:00.0");
	assert_string_equal(l[3].bdf, "0000:61:00.0");
	assert_int_equal(l[3].device, 0xd801);
	assert_int_equal(l[3].cls, 0x120000);
	assert_int_equal(l[3].cur_width, 16);
	assert_int_equal(l[3].max_speed, 160);
	assert_int_equal(l[3].up_speed, -1);
	assert_int_equal(pci_link_assess(&l[3], why, sizeof(why)), PROBE_PASS);
	assert_string_equal(why, "");
	n = pci_scan("tests/data/sysfs/npu-910a-lost", PCI_VENDOR_HUAWEI, PCI_CLASS_ACCEL, l,
		     PCILINK_MAX, err, sizeof(err));
	assert_int_equal(n, 7);
	assert_string_equal(l[3].bdf, "0000:b1:00.0");
	/* only as many as there is room for, but the count of all */
	assert_int_equal(pci_scan("tests/data/sysfs/npu-910a", PCI_VENDOR_HUAWEI, PCI_CLASS_ACCEL,
				  l, 2, err, sizeof(err)),
			 8);
	assert_int_equal(pci_scan("tests/data/sysfs/none", PCI_VENDOR_HUAWEI, PCI_CLASS_ACCEL, l,
				  PCILINK_MAX, err, sizeof(err)),
			 -ENOENT);
	assert_string_equal(err,
			    "cannot read tests/data/sysfs/none/bus/pci/devices: No such file or "
			    "directory");
}

static void test_degraded(void **state)
{
	struct pci_link l[PCILINK_MAX];
	char why[200];
	(void)state;
	int n = pci_scan("tests/data/sysfs/npu-910a-degraded", PCI_VENDOR_HUAWEI, PCI_CLASS_ACCEL,
			 l, PCILINK_MAX, err, sizeof(err));
	assert_int_equal(n, 8);
	assert_string_equal(l[4].bdf, "0000:b1:00.0");
	assert_int_equal(pci_link_assess(&l[4], why, sizeof(why)), PROBE_FAIL);
	assert_string_equal(why, "x8 of x16 lanes");
	assert_string_equal(l[6].bdf, "0000:da:00.0");
	assert_int_equal(pci_link_assess(&l[6], why, sizeof(why)), PROBE_WARN);
	assert_string_equal(why, "8.0 of 16.0 GT/s");
	/* the slot above can do 8.0 GT/s only: not the board's fault */
	n = pci_scan("tests/data/sysfs/npu-gen3-slot", PCI_VENDOR_HUAWEI, PCI_CLASS_ACCEL, l,
		     PCILINK_MAX, err, sizeof(err));
	assert_int_equal(n, 1);
	assert_int_equal(l[0].up_speed, 80);
	assert_int_equal(l[0].up_width, 16);
	assert_int_equal(pci_link_assess(&l[0], why, sizeof(why)), PROBE_PASS);
	assert_string_equal(why, "the slot limits it to 8.0 GT/s");
	/* a link that is down, and one without link attributes */
	struct pci_link d = { .cur_width = 0, .max_width = 16, .cur_speed = -1, .max_speed = 160,
			      .up_width = -1, .up_speed = -1 };
	assert_int_equal(pci_link_assess(&d, why, sizeof(why)), PROBE_FAIL);
	assert_string_equal(why, "link down");
	d.cur_width = -1;
	assert_int_equal(pci_link_assess(&d, why, sizeof(why)), PROBE_SKIP);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_speed),
		cmocka_unit_test(test_scan),
		cmocka_unit_test(test_degraded),
	};
	return cmocka_run_group_tests_name("pcilink", tests, NULL, NULL);
}
