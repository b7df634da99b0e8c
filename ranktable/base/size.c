/* Sizes as people write them on a command line or in a variable. */
#include <errno.h>
#include <stdlib.h>

#include "ranktable/base/size.h"

int parse_size(const char *s, unsigned long long *out)
{
	char *end;
	/* strtoull would skip blanks and wrap a minus sign around */
	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	unsigned long long n = strtoull(s, &end, 10);
	if (errno || end == s)
		return -EINVAL;
	unsigned shift = 0;
	switch (*end) {
	case 'K': case 'k': shift = 10; end++; break;
	case 'M': case 'm': shift = 20; end++; break;
	case 'G': case 'g': shift = 30; end++; break;
	default: break;
	}
	if (*end || (shift && n > (~0ULL >> shift)))
		return -EINVAL;
	*out = n << shift;
	return 0;
}
