/* See bigmem.h. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "ranktable/base/bigmem.h"

#define HUGE_PAGE ((size_t)2 << 20)

void *big_malloc(size_t n)
{
	void *b;
	if (n < HUGE_PAGE)
		return malloc(n);
	if (posix_memalign(&b, HUGE_PAGE, n))
		return NULL;
	madvise(b, n & ~(HUGE_PAGE - 1), MADV_HUGEPAGE);
	return b;
}

void *big_calloc(size_t n, size_t size)
{
	if (size && n > SIZE_MAX / size)
		return NULL;
	if (n * size < HUGE_PAGE)
		return calloc(n, size);
	void *b = big_malloc(n * size);
	if (b)
		memset(b, 0, n * size);
	return b;
}
