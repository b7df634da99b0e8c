#include <string.h>

#include "ranktable/base/near.h"

size_t near_distance(const char *a, size_t n, const char *b)
{
	size_t m = strlen(b), row[NEAR_MAX + 1];
	if (n > NEAR_MAX || m > NEAR_MAX)
		return (size_t)-1;
	for (size_t k = 0; k <= m; k++)
		row[k] = k;
	for (size_t i = 1; i <= n; i++) {
		size_t diag = row[0];
		row[0] = i;
		for (size_t k = 1; k <= m; k++) {
			size_t up = row[k];
			size_t best = diag + (a[i - 1] != b[k - 1]);
			if (up + 1 < best)
				best = up + 1;
			if (row[k - 1] + 1 < best)
				best = row[k - 1] + 1;
			row[k] = best;
			diag = up;
		}
	}
	return row[m];
}

const char *near_name(const char *s, size_t n, const char *const *names, size_t count,
		      size_t most)
{
	const char *found = NULL;
	size_t best = most + 1;
	for (size_t i = 0; i < count; i++) {
		size_t d = near_distance(s, n, names[i]);
		if (d == 0)
			return NULL;
		if (d < best) {
			best = d;
			found = names[i];
		}
	}
	return found;
}
