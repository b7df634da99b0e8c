/* Fuzzes the value extractors of the log triage (probes/logs/extract.c): any bytes, split into
 * lines as hlog_scan_buf splits them, each copied into a buffer of its own exact size so that a
 * read past the end of a line is caught. Beyond memory safety it checks what the signatures
 * rely on: at most HX_MAX values and the rest counted, each inside the line, in the order of
 * the line, of a known kind and role; ports 1..65535, ranks and devices 0..2^31-2; addresses
 * and names non-empty C strings without control bytes; and a second read gives the same. */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "probes/logs/extract.h"
#include "probes/logs/hccllog.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_text(const char *s, size_t len)
{
	const char *end = memchr(s, '\0', len);
	assert(end && end > s);
	for (; s < end; s++)
		assert((unsigned char)*s >= 0x20 && *s != 0x7f);
}

static void check_line(struct pspan m)
{
	struct hx_vals x, again;
	hlog__extract(m, &x);
	assert(x.n <= HX_MAX);
	assert(!x.dropped || x.n == HX_MAX);
	assert(memchr(x.group, '\0', sizeof(x.group)));
	for (size_t i = 0; i < x.n; i++) {
		const struct hx_val *v = &x.v[i];
		assert(v->what >= HX_IP && v->what <= HX_RDMA);
		assert(v->role >= HX_ANY && v->role <= HX_NIC);
		assert(v->at < m.n);
		switch (v->what) {
		case HX_IP:
		case HX_HOST:
		case HX_PCI:
		case HX_RDMA:
			check_text(v->s, sizeof(v->s));
			break;
		case HX_PORT:
			assert(v->n > 0 && v->n < 65536);
			break;
		default:
			assert(v->n >= 0 && v->n < 0x7fffffff);
		}
	}
	hlog__extract(m, &again);
	assert(again.n == x.n && again.dropped == x.dropped);
	assert(!memcmp(again.v, x.v, x.n * sizeof(x.v[0])));
	assert(!strcmp(again.group, x.group));
}

/* Each line (cut at HLOG_MAX_LINE, as the scan cuts it) in a buffer of its own size, the end
 * of the buffer at the end of the line. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *p = (const char *)data, *end = p + size;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((nl ? nl : end) - p);
		n = n < HLOG_MAX_LINE ? n : HLOG_MAX_LINE;
		char *own = malloc(n ? n : 1);
		assert(own);
		memcpy(own, p, n);
		check_line((struct pspan){own, n});
		free(own);
		p = nl ? nl + 1 : end;
	}
	return 0;
}
