/* tests/san/prefault.c, in the sanitizer builds: before main, the pages of every large bss
 * (the sanitizer runtime's stack depot above all) are already mapped, so LeakSanitizer's
 * exit scan does not fault them in one at a time. Checked with mincore, not with a clock.
 * A build without it (no sanitizer: the plain `make tests`) has nothing to check. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22
#endif

#include "tests/san/sanitized.h"

struct tally {
	size_t pages, mapped, largest;
};

static int count_bss(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct tally *t = arg;
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	(void)size;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *p = &info->dlpi_phdr[i];
		if (p->p_type != PT_LOAD || p->p_memsz <= p->p_filesz + 1024 * 1024)
			continue;
		uintptr_t at = info->dlpi_addr + p->p_vaddr;
		uintptr_t b = (at + p->p_filesz + page - 1) & ~(page - 1);
		uintptr_t e = (at + p->p_memsz) & ~(page - 1);
		size_t n = (e - b) / page;
		unsigned char *vec = malloc(n);
		assert_non_null(vec);
		assert_int_equal(mincore((void *)b, e - b, vec), 0);
		for (size_t k = 0; k < n; k++)
			t->mapped += vec[k] & 1;
		t->pages += n;
		if (n > t->largest)
			t->largest = n;
		free(vec);
	}
	return 0;
}

static void test_bss_mapped(void **state)
{
	struct tally t = { 0, 0, 0 };
	(void)state;
#ifndef SANITIZED
	/* make check runs the unit tier from the sanitizer build only; a plain build of this
	 * test has no constructor to check */
	print_message("# not a sanitizer build: no prefault constructor is linked here\n");
	skip();
#endif
	dl_iterate_phdr(count_bss, &t);
	/* the runtime's stack depot alone is ~11 MB; without the constructor most of it is
	 * untouched at this point */
	assert_true(t.largest * (size_t)sysconf(_SC_PAGESIZE) >= 4 * 1024 * 1024);
	if (madvise(NULL, 0, MADV_POPULATE_READ) && errno == EINVAL) {
		print_message("# kernel without MADV_POPULATE_READ (Linux < 5.14): nothing to check\n");
		skip();
	}
	if (t.mapped != t.pages)
		fail_msg("%zu of %zu bss pages mapped before the exit scan", t.mapped, t.pages);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bss_mapped),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
