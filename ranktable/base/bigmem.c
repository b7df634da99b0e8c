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

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23 /* Linux 5.14 */
#endif

void big_populate(void *p, size_t n)
{
	uintptr_t b = ((uintptr_t)p + 4095) & ~(uintptr_t)4095;
	uintptr_t e = ((uintptr_t)p + n) & ~(uintptr_t)4095;
	if (p && e > b)
		(void)madvise((void *)b, e - b, MADV_POPULATE_WRITE);
}
