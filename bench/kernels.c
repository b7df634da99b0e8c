/* The reduce kernels against memcpy on this machine: dst[i] += src[i] (comm__reduce) and
 * dst[i] = a[i] + b[i] (comm__reduce3, what the ring uses) per dtype, on buffers of
 * BYTES (default 64 MiB), best of RUNS (default 7). GB/s is buffer bytes per second, the
 * same measure for memcpy, so "fraction of memcpy" is how much slower than a plain copy the
 * reduction of a received chunk is.
 *
 *   kernels [BYTES [RUNS]]
 *
 * Prints a table on stderr and one JSON document on stdout. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "libcomm/algo.h"

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Values that stay normal and exact enough under repeated sums in every dtype. */
static void fill(enum comm_dtype t, void *buf, size_t count, unsigned salt)
{
	for (size_t i = 0; i < count; i++) {
		float v = 1.0f + (float)((i * 7 + salt) % 64) / 64.0f;
		switch (t) {
		case COMM_FP32:
			((float *)buf)[i] = v;
			break;
		case COMM_FP16:
			((uint16_t *)buf)[i] = comm__fp32_to_fp16(v);
			break;
		case COMM_BF16:
			((uint16_t *)buf)[i] = comm__fp32_to_bf16(v);
			break;
		default:
			((int32_t *)buf)[i] = (int32_t)((i * 7 + salt) % 1000);
			break;
		}
	}
}

static volatile unsigned char sink;

int main(int argc, char **argv)
{
	size_t bytes = argc > 1 ? strtoull(argv[1], NULL, 0) : (size_t)64 << 20;
	int runs = argc > 2 ? atoi(argv[2]) : 7;
	static const struct {
		const char *name;
		enum comm_dtype t;
		size_t size;
	} types[] = {
		{"fp32", COMM_FP32, 4},
		{"bf16", COMM_BF16, 2},
		{"fp16", COMM_FP16, 2},
		{"int32", COMM_INT32, 4},
	};
	int rc = 3;
	if (runs < 1)
		runs = 1;
	unsigned char *a = malloc(bytes), *b = malloc(bytes), *d = malloc(bytes);
	unsigned char *d0 = malloc(bytes);
	if (!a || !b || !d || !d0) {
		fprintf(stderr, "kernels: cannot allocate 4 x %zu bytes\n", bytes);
		goto out;
	}
	memset(a, 1, bytes);
	memset(b, 2, bytes);
	memset(d, 3, bytes);

	double best = 1e30;
	for (int r = 0; r < runs; r++) {
		double t0 = now_s();
		memcpy(d, a, bytes);
		double dt = now_s() - t0;
		best = dt < best ? dt : best;
		sink = d[bytes / 2];
	}
	double memcpy_gbps = (double)bytes / best / 1e9;
	fprintf(stderr, "%-6s %-12s %-12s %-10s %-10s\n", "dtype", "reduce GB/s", "reduce3 GB/s",
		"of memcpy", "3 of memcpy");
	fprintf(stderr, "%-6s %-12.2f %-12s %-10s %-10s\n", "memcpy", memcpy_gbps, "-", "1.00",
		"-");
	printf("{\"benchmark\": \"reduce-kernels\", \"buffer_bytes\": %zu, \"runs\": %d, "
	       "\"op\": \"sum\", \"memcpy_GBps\": %.4f, \"kernels\": [",
	       bytes, runs, memcpy_gbps);
	for (size_t k = 0; k < sizeof(types) / sizeof(types[0]); k++) {
		size_t count = bytes / types[k].size;
		fill(types[k].t, a, count, 1);
		fill(types[k].t, b, count, 5);
		fill(types[k].t, d0, count, 3);
		double best1 = 1e30, best3 = 1e30;
		for (int r = 0; r < runs; r++) {
			memcpy(d, d0, bytes); /* every run sums the same values */
			double t0 = now_s();
			comm__reduce(types[k].t, COMM_SUM, d, a, count);
			double dt = now_s() - t0;
			best1 = dt < best1 ? dt : best1;
			t0 = now_s();
			comm__reduce3(types[k].t, COMM_SUM, d, a, b, count);
			dt = now_s() - t0;
			best3 = dt < best3 ? dt : best3;
			sink = d[bytes / 2];
		}
		double g1 = (double)bytes / best1 / 1e9, g3 = (double)bytes / best3 / 1e9;
		fprintf(stderr, "%-6s %-12.2f %-12.2f %-10.2f %-10.2f\n", types[k].name, g1, g3,
			g1 / memcpy_gbps, g3 / memcpy_gbps);
		printf("%s{\"dtype\": \"%s\", \"reduce_GBps\": %.4f, \"reduce3_GBps\": %.4f, "
		       "\"reduce_of_memcpy\": %.4f, \"reduce3_of_memcpy\": %.4f}",
		       k ? ", " : "", types[k].name, g1, g3, g1 / memcpy_gbps, g3 / memcpy_gbps);
	}
	printf("]}\n");
	rc = 0;
out:
	free(a);
	free(b);
	free(d);
	free(d0);
	return rc;
}
