/* Fuzzes np_msg_parse, the one parser of every line of the probe net protocol (the agents'
 * stdout, the launcher's commands, the agents' answers to each other), and np_secret_parse:
 * any bytes give 0 or -EINVAL with a located message, never a read outside the input; what
 * parses formats back to a line that parses to the same message. */
#include <assert.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "cmd/lib/netperf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct np_msg m, again;
	unsigned char key[NP_KEY_LEN];
	char err[256], line[NP_LINE_MAX], line2[NP_LINE_MAX];
	const char *s = (const char *)data;

	/* every line of the input, as the readers cut them */
	for (size_t off = 0; off <= size;) {
		const char *nl = memchr(s + off, '\n', size - off);
		size_t len = nl ? (size_t)(nl - (s + off)) : size - off;
		err[0] = '\0';
		int rc = np_msg_parse(&m, s + off, len, err, sizeof(err));
		assert(rc == 0 || rc == -EINVAL);
		if (rc) {
			assert(!strncmp(err, "column ", 7));
		} else {
			assert(m.kind >= NP_READY && m.kind <= NP_ERROR);
			int n = np_msg_format(&m, line, sizeof(line));
			assert(n > 0 && line[n - 1] == '\n');
			assert(np_msg_parse(&again, line, (size_t)n - 1, err, sizeof(err)) == 0);
			assert(again.kind == m.kind);
			int n2 = np_msg_format(&again, line2, sizeof(line2));
			assert(n2 == n && !memcmp(line, line2, (size_t)n));
		}
		if (!nl)
			break;
		off += len + 1;
	}
	int rc = np_secret_parse(key, s, size, err, sizeof(err));
	assert(rc == 0 || rc == -EINVAL);
	return 0;
}
