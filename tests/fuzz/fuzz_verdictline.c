/* Fuzzes run_verdict_parse (a rank's stderr relayed over SSH): any bytes give -ENOENT, or 0
 * with a known kind, a message that fits, and a rank of -1 or more; never a read outside the
 * input. The parser is compiled in, so this target needs libcomm only. */
#include <assert.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "cmd/run/verdictline.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct comm_verdict v;
	int rc = run_verdict_parse((const char *)data, size, &v);
	assert(rc == 0 || rc == -ENOENT);
	if (rc)
		return 0;
	assert(v.kind > COMM_VERDICT_NONE && v.kind <= RUN_VERDICT_UNREACHABLE);
	assert(strlen(v.msg) < sizeof(v.msg) && v.rank >= -1);
	return 0;
}
