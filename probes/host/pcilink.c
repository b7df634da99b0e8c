/* PCIe links from sysfs. The speed strings are the kernel's: "2.5 GT/s PCIe" ... "64.0 GT/s
 * PCIe" since 5.x, "2.5 GT/s", "5 GT/s", "8 GT/s", "16 GT/s" before, "Unknown" when the
 * link is down. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probes/host/pcilink.h"

int pci_speed_parse(const char *s, size_t n)
{
	size_t i = 0;
	int whole = 0, tenth = 0, digits = 0;
	while (i < n && s[i] == ' ')
		i++;
	while (i < n && s[i] >= '0' && s[i] <= '9' && digits < 4) {
		whole = whole * 10 + (s[i++] - '0');
		digits++;
	}
	if (!digits)
		return -1;
	if (i < n && s[i] == '.') {
		i++;
		if (i < n && s[i] >= '0' && s[i] <= '9')
			tenth = s[i++] - '0';
		while (i < n && s[i] >= '0' && s[i] <= '9')
			i++;
	}
	while (i < n && s[i] == ' ')
		i++;
	if (n - i < 4 || memcmp(s + i, "GT/s", 4))
		return -1;
	return whole * 10 + tenth;
}

/* The first line of DIR/NAME into buf; 0, or -1 when it cannot be read. */
static int read_attr(const char *dir, const char *name, char *buf, size_t len)
{
	char path[PATH_MAX];
	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >= sizeof(path))
		return -1;
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	char *got = fgets(buf, (int)len, f);
	fclose(f);
	if (!got)
		return -1;
	buf[strcspn(buf, "\r\n")] = '\0';
	return 0;
}

static int attr_int(const char *dir, const char *name, int base)
{
	char b[64], *end;
	if (read_attr(dir, name, b, sizeof(b)))
		return -1;
	long v = strtol(b, &end, base);
	return end == b || v < 0 || v > 0xffffff ? -1 : (int)v;
}

static int attr_speed(const char *dir, const char *name)
{
	char b[64];
	return read_attr(dir, name, b, sizeof(b)) ? -1 : pci_speed_parse(b, strlen(b));
}

static int is_bdf(const char *s)
{
	unsigned d, b, dev, fn;
	char tail;
	return strlen(s) == 12 && sscanf(s, "%4x:%2x:%2x.%1x%c", &d, &b, &dev, &fn, &tail) == 4;
}

static int cmp_link(const void *a, const void *b)
{
	return strcmp(((const struct pci_link *)a)->bdf, ((const struct pci_link *)b)->bdf);
}

int pci_scan(const char *root, unsigned vendor, unsigned base_class, struct pci_link *v,
	     size_t max, char *err, size_t errlen)
{
	char dir[PATH_MAX];
	snprintf(dir, sizeof(dir), "%s/bus/pci/devices", root && *root ? root : "/sys");
	DIR *d = opendir(dir);
	if (!d) {
		int e = errno;
		snprintf(err, errlen, "cannot read %s: %s", dir, strerror(e));
		return -e;
	}
	size_t n = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		if (!is_bdf(de->d_name))
			continue;
		char dev[PATH_MAX];
		if ((size_t)snprintf(dev, sizeof(dev), "%s/%s", dir, de->d_name) >= sizeof(dev))
			continue;
		int ven = attr_int(dev, "vendor", 16), cls = attr_int(dev, "class", 16);
		if (ven != (int)vendor || cls < 0 || ((unsigned)cls >> 16) != base_class)
			continue;
		if (n < max) {
			struct pci_link *l = &v[n];
			memset(l, 0, sizeof(*l));
			snprintf(l->bdf, sizeof(l->bdf), "%.12s", de->d_name);
			l->vendor = (unsigned)ven;
			l->cls = (unsigned)cls;
			int id = attr_int(dev, "device", 16);
			l->device = id < 0 ? 0 : (unsigned)id;
			l->cur_width = attr_int(dev, "current_link_width", 10);
			l->max_width = attr_int(dev, "max_link_width", 10);
			l->cur_speed = attr_speed(dev, "current_link_speed");
			l->max_speed = attr_speed(dev, "max_link_speed");
			l->up_width = l->up_speed = -1;
			/* the port above: the parent directory of the device's real path */
			char real[PATH_MAX];
			if (realpath(dev, real)) {
				char *slash = strrchr(real, '/');
				if (slash) {
					*slash = '\0';
					const char *pname = strrchr(real, '/');
					if (pname && is_bdf(pname + 1)) {
						l->up_width = attr_int(real, "max_link_width", 10);
						l->up_speed = attr_speed(real, "max_link_speed");
					}
				}
			}
		}
		n++;
	}
	closedir(d);
	qsort(v, n < max ? n : max, sizeof(*v), cmp_link);
	return (int)n;
}

static int lower_of(int a, int b)
{
	return a < 0 ? b : b < 0 ? a : a < b ? a : b;
}

enum probe_status pci_link_assess(const struct pci_link *l, char *reason, size_t len)
{
	enum probe_status st = PROBE_PASS;
	int want_w = lower_of(l->max_width, l->up_width);
	int want_s = lower_of(l->max_speed, l->up_speed);
	if (len)
		reason[0] = '\0';
	if (l->cur_width < 0 && l->cur_speed < 0)
		return PROBE_SKIP;
	if (l->cur_width == 0) {
		probe_reason_add(reason, len, "link down");
		return PROBE_FAIL;
	}
	if (want_w > 0 && l->cur_width >= 0 && l->cur_width < want_w) {
		st = PROBE_FAIL;
		probe_reason_add(reason, len, "x%d of x%d lanes", l->cur_width, want_w);
	}
	if (want_s > 0 && l->cur_speed >= 0 && l->cur_speed < want_s) {
		st = probe_status_worst(st, PROBE_WARN);
		probe_reason_add(reason, len, "%d.%d of %d.%d GT/s", l->cur_speed / 10,
				 l->cur_speed % 10, want_s / 10, want_s % 10);
	}
	if (st == PROBE_PASS && l->up_speed > 0 && l->max_speed > l->up_speed)
		probe_reason_add(reason, len, "the slot limits it to %d.%d GT/s", l->up_speed / 10,
				 l->up_speed % 10);
	return st;
}
