/* The lines of a text, judged in two stages on two threads: what each line says of itself
 * alone (fill: the catalog's automaton, the prefix's fields), on a reader thread, ahead of
 * what depends on the lines before it (take), on the calling thread, in the text's order.
 * Judging a log whole spent 40 % of its time in the first stage while the second core idled. */
#ifndef HCCLCTL_PROBES_LOGS_LINEPIPE_H
#define HCCLCTL_PROBES_LOGS_LINEPIPE_H

#include <stddef.h>

#include "probes/tool/ptext.h"

/* Texts shorter than this are judged on the calling thread alone: a thread costs more than
 * it saves. */
#define LINEPIPE_MIN_BYTES (256u << 10)

/* The most threads the triage reads and judges on (a bundle's files on each). */
#define LINEPIPE_MAX_THREADS 8

/* The threads to use: want when it is set (> 0) and fewer than the CPUs online, else as many
 * as those, at most LINEPIPE_MAX_THREADS. */
int linepipe_threads(int want);

struct linepipe_ops {
	size_t slot_size; /* what fill writes for one line */
	/* the line raw (without its '\n' and a '\r' before it), ahead the text after it;
	 * fill reads nothing but these and ctx's fields that stay fixed */
	void (*fill)(void *ctx, void *slot, struct pspan raw, struct pspan ahead);
	int (*take)(void *ctx, void *slot); /* 0, or an error that ends the run */
};

/* Runs fill then take for every line of text in its order, with fill on a thread of its own
 * when threads >= 2 and the text is long enough. take's first error is returned (no line is
 * taken after it); -ENOMEM when the slots cannot be had. */
int linepipe_run(struct pspan text, const struct linepipe_ops *ops, void *ctx, int threads);

#endif
