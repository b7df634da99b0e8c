/* Fuzzes kb_load_json and kb_match: any bytes give 0, -EINVAL or -ENOMEM; a base that loads
 * matches every line of the input itself (keywords, expressions and windows built from the
 * same bytes) without reading out of bounds, and each hit is an entity of the base. The
 * built-in base matches the same lines. */
#include <assert.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "probes/logs/kb.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void match_lines(const struct kb *kb, const char *s, size_t n)
{
	struct kb_scan st = { 0 };
	int hits[32];
	size_t at = 0;
	while (at <= n) {
		const char *nl = memchr(s + at, '\n', n - at);
		size_t len = nl ? (size_t)(nl - (s + at)) : n - at;
		int k = kb_match(kb, &st, s + at, len, at & 1 ? KB_IN_SYS : KB_IN_APP, hits, 32);
		assert(k >= 0 && k <= 32);
		for (int i = 0; i < k; i++)
			assert(hits[i] >= 0 && (size_t)hits[i] < kb_count(kb));
		at += len + 1;
	}
	kb_scan_release(&st);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kb *kb = NULL;
	const struct kb *bi = NULL;
	char err[512];
	int rc = kb_load_json("fuzz", (const char *)data, size, &kb, err, sizeof(err));
	assert(rc == 0 || rc == -EINVAL || rc == -ENOMEM);
	assert(rc == 0 ? kb != NULL : kb == NULL);
	if (kb) {
		match_lines(kb, (const char *)data, size);
		for (size_t i = 0; i < kb_count(kb) && i < 64; i++)
			(void)kb_causes(kb, (int)i, (int)((i + 1) % kb_count(kb)));
		kb_free(kb);
	}
	if (!kb_builtin(&bi, err, sizeof(err)))
		match_lines(bi, (const char *)data, size);
	return 0;
}
