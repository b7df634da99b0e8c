/* Fuzzes klog_scan: any bytes, never a read outside the input; every finding has a line
 * number within the lines counted and a printable quote. */
#include <assert.h>
#include <stdint.h>
#include <string.h>

#include "probes/logs/klog.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct klog_report r;
	klog_scan((const char *)data, size, &r);
	unsigned found = 0;
	for (int k = 0; k < KLOG_NKINDS; k++) {
		const struct klog_finding *f = &r.k[k];
		if (!f->count)
			continue;
		found += f->count;
		assert(f->first_line >= 1 && f->first_line <= r.lines);
		assert(strlen(f->line) < sizeof(f->line));
		for (const char *p = f->line; *p; p++)
			assert((unsigned char)*p >= 0x20 && *p != 0x7f);
	}
	assert(found <= r.lines);
	enum probe_status st = klog_worst(&r);
	assert(found ? st == PROBE_WARN || st == PROBE_FAIL : st == PROBE_PASS);
	return 0;
}
