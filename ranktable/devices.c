/* --devices lists: "0-7", "0,2,4-6", "8". hccl_tools.py reads its "[0,8)" by single
 * characters and so turns "[0,16)" into one device without a word; here every number is
 * read whole and every mistake is an error that quotes the text and the position. */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>

#include "ranktable/ranktable.h"

#define DEV_MAX 64 /* ids 0..63 */

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* Reads a decimal at s[*i]; -1 when there is none. Saturates so "99999999999" is
 * reported as out of range, not wrapped; messages quote the digits themselves. */
static long read_num(const char *s, size_t *i)
{
	long v = 0;

	if (s[*i] < '0' || s[*i] > '9')
		return -1;
	while (s[*i] >= '0' && s[*i] <= '9') {
		if (v < 100000)
			v = v * 10 + (s[*i] - '0');
		(*i)++;
	}
	return v;
}

int rt_parse_devices(const char *s, long **ids, size_t *n, char *err, size_t errlen)
{
	uint64_t seen = 0;
	size_t i = 0, k = 0;
	long *out;

	*ids = NULL;
	*n = 0;
	while (s[i] && is_blank(s[i]))
		i++;
	if (!s[i]) {
		snprintf(err, errlen, "empty device list: expected ids like 0-7 or 0,2,4-6");
		return -EINVAL;
	}
	if (s[i] == '[') {
		snprintf(err, errlen,
			 "bad device list \"%s\": hccl_tools' [first,last) form is not accepted; "
			 "write first-(last-1), e.g. 0-7",
			 s);
		return -EINVAL;
	}
	for (;;) {
		size_t at, end_at, at_len, end_len;
		long lo, hi;

		while (is_blank(s[i]))
			i++;
		at = i;
		lo = read_num(s, &i);
		if (lo < 0)
			goto junk;
		at_len = i - at;
		hi = lo;
		end_at = at;
		end_len = at_len;
		while (is_blank(s[i]))
			i++;
		if (s[i] == '-') {
			i++;
			while (is_blank(s[i]))
				i++;
			end_at = i;
			hi = read_num(s, &i);
			if (hi < 0)
				goto junk;
			end_len = i - end_at;
			while (is_blank(s[i]))
				i++;
		}
		if (lo >= DEV_MAX || hi >= DEV_MAX) {
			bool first = lo >= DEV_MAX;

			snprintf(err, errlen,
				 "bad device list \"%s\": device %.*s at position %zu is out of range "
				 "0..63",
				 s, (int)(first ? at_len : end_len), s + (first ? at : end_at),
				 (first ? at : end_at) + 1);
			return -EINVAL;
		}
		if (lo > hi) {
			snprintf(err, errlen,
				 "bad device list \"%s\": range %ld-%ld at position %zu runs backwards",
				 s, lo, hi, at + 1);
			return -EINVAL;
		}
		for (long d = lo; d <= hi; d++) {
			if (seen & (UINT64_C(1) << d)) {
				snprintf(err, errlen,
					 "bad device list \"%s\": device %ld listed twice (position %zu)",
					 s, d, at + 1);
				return -EINVAL;
			}
			seen |= UINT64_C(1) << d;
		}
		if (!s[i])
			break;
		if (s[i] != ',')
			goto junk;
		i++;
	}

	/* At most 64 bits can be set, so the "more than 64 ids" limit holds by construction. */
	out = malloc(DEV_MAX * sizeof(*out));
	if (!out) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	for (long d = 0; d < DEV_MAX; d++) {
		if (seen & (UINT64_C(1) << d))
			out[k++] = d;
	}
	*ids = out;
	*n = k;
	return 0;

junk:
	if (s[i])
		snprintf(err, errlen, "bad device list \"%s\": unexpected '%c' at position %zu", s,
			 s[i], i + 1);
	else
		snprintf(err, errlen, "bad device list \"%s\": missing device id at the end", s);
	return -EINVAL;
}
