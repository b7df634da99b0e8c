/* `hcclctl run`: the per-rank benchmark sweep (runrank.c) and its launchers (run.c). */
#ifndef HCCLCTL_RUN_H
#define HCCLCTL_RUN_H

#include <stddef.h>
#include <stdint.h>

#include "libcomm/libcomm.h"

/* One row of results, as rank 0 reports it. */
struct run_row {
	size_t bytes, count;
	double time_us, algbw, busbw;
	long long wrong; /* -1: not checked */
	enum comm_algo algo;
};

struct run_params {
	enum comm_coll coll;
	unsigned long long min_bytes, max_bytes;
	unsigned long factor;
	enum comm_dtype dtype;
	enum comm_op op;
	long iters, warmup;
	int check, root;
	enum comm_algo algo;
	uint64_t seed;
	int json;
	const char *launch; /* "local", "master", "torchrun", ... for the header */
};

/* Called by rank 0 after each size, so rows print as they complete. */
typedef void (*run_row_fn)(const struct run_params *p, int nranks, const struct run_row *row,
			   void *arg);

/* Runs the sweep on c. Wrong elements are counted across ranks; the first one of this rank
 * is described in first_wrong. Returns 0, a comm_status, or 1 when results were wrong. */
int run_sweep(struct comm *c, const struct run_params *p, run_row_fn row_fn, void *arg,
	      struct run_row **rows, size_t *nrows, char *first_wrong, size_t len);

/* The nccl-tests bus bandwidth factor of coll for n ranks. */
double run_bus_factor(enum comm_coll coll, int n);

#endif
