/* Fuzzes rx_fixed_compile and rx_fixed_search against regexec: the input's first line is an
 * expression, the rest lines to search. An expression the table takes must compile with
 * regcomp, and find a match on exactly the lines regexec finds one on (read as the knowledge
 * base reads a line: to its first NUL, its first 4095 bytes); nothing is read out of bounds. */
#include <assert.h>
#include <regex.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "probes/logs/rxfixed.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define LINE_MAX_ 4095

static int by_regexec(const regex_t *rx, const char *s, size_t n)
{
	static char buf[LINE_MAX_ + 1];
	size_t k = n < LINE_MAX_ ? n : LINE_MAX_;
	memcpy(buf, s, k);
	buf[k] = '\0';
	return !regexec(rx, buf, 0, NULL, 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data;
	const char *nl = memchr(s, '\n', size);
	size_t rn = nl ? (size_t)(nl - s) : size;
	if (rn > 256 || memchr(s, '\0', rn))
		return 0;
	char re[257];
	memcpy(re, s, rn);
	re[rn] = '\0';
	struct rx_fixed f;
	if (rx_fixed_compile(re, &f))
		return 0;
	assert(f.n >= 1 && f.n <= RX_FIXED_MAX);
	regex_t rx;
	assert(!regcomp(&rx, re, REG_EXTENDED | REG_NOSUB));
	size_t at = nl ? rn + 1 : size;
	while (at < size) {
		const char *e = memchr(s + at, '\n', size - at);
		size_t len = e ? (size_t)(e - (s + at)) : size - at;
		assert(rx_fixed_search(&f, s + at, len, LINE_MAX_) == by_regexec(&rx, s + at, len));
		at += len + 1;
	}
	regfree(&rx);
	return 0;
}
