/* Fuzzes the HCCL log reader: any bytes, split into two files of two nodes, give 0 from
 * hlog_scan_buf and hlog_conclude, never a read outside the input, and a report whose strings
 * are terminated, whose counts add up and whose first event lies in ev. */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "probes/hccllog.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hlog_report r;
	char err[256];
	/* the first byte picks where the second file starts */
	size_t cut = size ? (size_t)data[0] * size / 256 : 0;
	hlog_report_init(&r);
	int rc = hlog_scan_buf("n1/plog/plog-1_1.log", "n1", (const char *)data, cut, &r, err,
			       sizeof(err));
	assert(rc == 0);
	rc = hlog_scan_buf("n2/plog/plog-2_1.log", "n2", (const char *)data + cut, size - cut, &r,
			   err, sizeof(err));
	assert(rc == 0);
	assert(hlog_conclude(&r) == 0);
	assert(r.nev <= HLOG_MAX_EVENTS && r.nfile + r.skipped == 2);
	for (size_t i = 0; i < r.nev; i++) {
		const struct hlog_event *e = &r.ev[i];
		assert(e->kind > HLOG_NONE && e->kind < HLOG_NKINDS);
		assert(e->fi < r.nfile && e->line >= 1);
		assert(strlen(e->text) < sizeof(e->text) && strlen(e->ip) < sizeof(e->ip) &&
		       strlen(e->peer_ip) < sizeof(e->peer_ip));
		for (const char *p = e->text; *p; p++)
			assert((unsigned char)*p >= 0x20 && *p != 0x7f);
		if (i)
			assert(r.ev[i - 1].t_us < 0 ? e->t_us < 0
						    : e->t_us < 0 || r.ev[i - 1].t_us <= e->t_us);
	}
	assert(r.kind >= HLOG_NONE && r.kind < HLOG_NKINDS);
	assert(strlen(r.cause) < sizeof(r.cause) && strlen(r.fix) < sizeof(r.fix));
	assert(r.cause[0]);
	assert(!r.first || (r.first >= r.ev && r.first < r.ev + r.nev));
	assert((r.kind == HLOG_NONE) == !r.fix[0]);
	hlog_report_release(&r);
	return 0;
}
