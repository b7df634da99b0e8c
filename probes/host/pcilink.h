/* The PCIe links of the accelerators, from sysfs (what lspci itself reads, and readable
 * without root, unlike lspci -vv's LnkCap): /sys/bus/pci/devices/DBDF/{vendor, device, class,
 * current_link_speed, current_link_width, max_link_speed, max_link_width}, and the upstream
 * port's max_link_* (a board in a slot that cannot do its speed is the slot's limit, not a
 * fault). */
#ifndef HCCLCTL_PROBES_PCILINK_H
#define HCCLCTL_PROBES_PCILINK_H

#include <stddef.h>

#include "probes/tool/verdict.h"

#define PCI_VENDOR_HUAWEI 0x19e5
#define PCI_CLASS_ACCEL 0x12 /* base class "processing accelerators" */
#define PCILINK_MAX 128

struct pci_link {
	char bdf[16];			/* "0000:61:00.0" */
	unsigned vendor, device, cls;	/* cls: the 24-bit class code */
	int cur_width, max_width;	/* lanes; -1 when not readable */
	int cur_speed, max_speed;	/* GT/s times 10 (160 = 16.0 GT/s); -1 */
	int up_width, up_speed;		/* the upstream port's max; -1 when none */
};

/* A link speed as sysfs prints it: "16.0 GT/s PCIe", "8 GT/s", "2.5 GT/s PCIe". GT/s times
 * 10, or -1 ("Unknown", anything else). */
int pci_speed_parse(const char *s, size_t n);

/* The devices of one vendor and base class under ROOT/bus/pci/devices (root NULL: /sys),
 * sorted by address, up to max. Returns how many (may exceed max), or -errno when the
 * directory cannot be read (err says which). */
int pci_scan(const char *root, unsigned vendor, unsigned base_class, struct pci_link *v,
	     size_t max, char *err, size_t errlen);

/* A link against its capability: fewer lanes than the board and the port above it can
 * both do FAIL (a lane lost: reseat the board); a lower speed WARN (a link trained down, or
 * power saving while idle). reason names what differs. */
enum probe_status pci_link_assess(const struct pci_link *l, char *reason, size_t len);

#endif
