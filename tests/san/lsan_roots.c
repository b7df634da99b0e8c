/* Linked into the sanitizer builds only (SAN=1), never into a release binary.
 *
 * LeakSanitizer takes every loaded module's writable segments as roots, the sanitizer
 * runtimes' own included: libasan's and libubsan's bss are ~5.6 MB and ~6.1 MB of their
 * internal state (stack depot, allocator tables), which holds no pointer into the user heap.
 * Scanning them word by word at every exit made a plain `build/asan/hcclctl --version` 67 ms
 * instead of 58, and `make check` starts thousands of ASan processes.
 *
 * Here the global scan is off (use_globals=0) and every writable segment of every other
 * module (this program, libc, libcrypto, ...) is a root region instead: those loaded at
 * start before main, those dlopen'ed later at exit, just before the leak check (atexit runs
 * handlers in reverse, and the runtime registered its check before any constructor of
 * ours). LSan scans root regions as it scanned globals, so every pointer it followed before
 * it still follows; only the runtimes' own memory is left out, and fewer roots could only
 * report more leaks, never fewer. tests/unit/test_san_roots.c holds it to that. */
#include <dlfcn.h>
#include <link.h>
#include <stdint.h>
#include <stdlib.h>

void __lsan_register_root_region(const void *p, size_t size);
/* UBSan's runtime, when it is a library of its own (gcc's); weak: absent in an ASan-only build */
void __ubsan_handle_add_overflow(void *data, void *lhs, void *rhs) __attribute__((weak));

const char *__lsan_default_options(void);
const char *__lsan_default_options(void)
{
	return "use_globals=0";
}

/* the load base of the module holding addr, 0 if none */
static uintptr_t module_of(const void *addr)
{
	Dl_info di;

	return addr && dladdr(addr, &di) ? (uintptr_t)di.dli_fbase : 0;
}

static uintptr_t runtime[2];

/* Segments registered so far: a module loaded after start is registered at exit only once.
 * Past the table's end a segment is registered again rather than missed. */
#define MAX_ROOTS 256
static struct {
	uintptr_t at;
	size_t len;
} roots[MAX_ROOTS];
static int nroots;

static int known(uintptr_t at, size_t len)
{
	for (int i = 0; i < nroots; i++)
		if (roots[i].at == at && roots[i].len == len)
			return 1;
	return 0;
}

static int add_roots(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void)size;
	(void)arg;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *p = &info->dlpi_phdr[i];
		if (p->p_type != PT_LOAD || !(p->p_flags & PF_W) || !p->p_memsz)
			continue;
		uintptr_t at = info->dlpi_addr + p->p_vaddr;
		uintptr_t m = module_of((const void *)at);
		if (m && (m == runtime[0] || m == runtime[1]))
			continue;
		if (known(at, p->p_memsz))
			continue;
		__lsan_register_root_region((const void *)at, p->p_memsz);
		if (nroots < MAX_ROOTS) {
			roots[nroots].at = at;
			roots[nroots].len = p->p_memsz;
			nroots++;
		}
	}
	return 0;
}

static void roots_at_exit(void)
{
	dl_iterate_phdr(add_roots, NULL);
}

/* The runtimes' modules; a runtime linked into the program itself (clang's default) is not
 * left out, or the program's own globals would be. */
__attribute__((constructor)) static void lsan_roots(void)
{
	const void *entry[] = {(const void *)__lsan_register_root_region,
			       (const void *)__ubsan_handle_add_overflow};
	uintptr_t self = module_of((const void *)lsan_roots);

	for (int i = 0; i < 2; i++) {
		uintptr_t m = module_of(entry[i]);
		runtime[i] = m == self ? 0 : m;
	}
	dl_iterate_phdr(add_roots, NULL);
	atexit(roots_at_exit);
}
