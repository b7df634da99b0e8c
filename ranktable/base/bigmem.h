/* Memory for big arrays, asked for huge pages. A page fault costs microseconds on a virtual
 * machine: filling the 65 536 ranks of a table (their model, the checks' per-rank state and
 * the file's bytes, some 25 MB) faulted 6 000 times in 4 KiB pages, a fifth of validating
 * it. Part of the base every layer may use. */
#ifndef HCCLCTL_BASE_BIGMEM_H
#define HCCLCTL_BASE_BIGMEM_H

#include <stddef.h>

/* As malloc and calloc (free() releases it, realloc may grow it); n * size of 2 MiB or more
 * is 2 MiB-aligned and its whole 2 MiB pages advised MADV_HUGEPAGE, a hint the kernel may
 * ignore (the tail stays in 4 KiB pages: nothing is rounded up). From 2 MiB, not 4: the
 * checks' per-device arrays of 65 536 ranks are 2.1 MB, and faulted 1000 times below it. */
void *big_malloc(size_t n);
void *big_calloc(size_t n, size_t size);
/* Faults in the whole pages of [p, p + n) for writing in one call (MADV_POPULATE_WRITE), for an
 * array that is about to be filled: a page at a time, doctor --logs' automata (3 MB of rows)
 * took half the page faults of a start. An old kernel refuses the advice, and the pages come on
 * touch as before. */
void big_populate(void *p, size_t n);

#endif
