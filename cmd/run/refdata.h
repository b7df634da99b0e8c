/* Test data for `run -c 1`, as nccl-tests does it: deterministic from (seed, rank, index),
 * small integers so that float sums and products are exact in every order and every dtype,
 * and the expected result computed here, independently of libcomm's kernels. */
#ifndef HCCLCTL_REFDATA_H
#define HCCLCTL_REFDATA_H

#include <stddef.h>
#include <stdint.h>

#include "libcomm/libcomm.h"

/* The value rank holds at element i for op in dtype t, as an exact small integer. */
double ref_value(enum comm_dtype t, uint64_t seed, int rank, size_t i, enum comm_op op);
/* Writes v into element i of buf in dtype t (integers wrap as two's complement). */
void ref_store(enum comm_dtype t, void *buf, size_t i, double v);
/* Fills count elements of rank's data, element k taking index base + k. */
void ref_fill(enum comm_dtype t, enum comm_op op, uint64_t seed, int rank, void *buf,
	      size_t base, size_t count);
/* The reduction over ranks 0..nranks-1 of element index i, stored as dtype t into out[k]. */
void ref_reduced(enum comm_dtype t, enum comm_op op, uint64_t seed, int nranks, size_t i,
		 void *out, size_t k);
/* Compares count elements of got with want; returns the number that differ and the first
 * differing index (or (size_t)-1). */
size_t ref_compare(enum comm_dtype t, const void *got, const void *want, size_t count,
		   size_t *first);
/* Formats element i of buf for a message. */
void ref_format(enum comm_dtype t, const void *buf, size_t i, char *out, size_t len);

#endif
