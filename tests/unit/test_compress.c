/* The compressed allreduce: the int8 block quantiser on its own (error bound per element,
 * zero blocks, a block with one huge value, Inf/NaN, tails, fp16 and bf16), then the
 * collective over loopback for world sizes 1, 2, 3, 5 and 8: the same bytes on every rank,
 * normalised RMS error within 1 % on N(0,1) data, and a fingerprint mismatch naming the
 * compression when ranks disagree on it. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "libcomm/algo.h"
#include "tests/unit/comm_ranks.h"

#define BLK COMM_COMPRESS_BLOCK

/* ---- data ---- */

static uint64_t mix(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

/* N(0,1), deterministic from (seed, rank, i) */
static float gauss(uint64_t seed, int rank, size_t i)
{
	uint64_t h = mix(seed ^ mix(((uint64_t)(uint32_t)rank << 40) ^ (uint64_t)i));
	double u1 = (double)((h >> 11) + 1) * 0x1p-53, u2 = (double)(mix(h) >> 11) * 0x1p-53;
	return (float)(sqrt(-2 * log(u1)) * cos(6.283185307179586 * u2));
}

static float scale_of(const void *packed, size_t k)
{
	float s;
	memcpy(&s, (const char *)packed + k * sizeof(float), sizeof(s));
	return s;
}

static float bf16_f(uint16_t h)
{
	uint32_t u = (uint32_t)h << 16;
	float f;
	memcpy(&f, &u, sizeof(f));
	return f;
}

static float load(enum comm_dtype t, const void *buf, size_t i)
{
	if (t == COMM_FP16)
		return comm__fp16_to_fp32(((const uint16_t *)buf)[i]);
	if (t == COMM_BF16)
		return bf16_f(((const uint16_t *)buf)[i]);
	return ((const float *)buf)[i];
}

static void store(enum comm_dtype t, void *buf, size_t i, float v)
{
	if (t == COMM_FP16)
		((uint16_t *)buf)[i] = comm__fp32_to_fp16(v);
	else if (t == COMM_BF16)
		((uint16_t *)buf)[i] = comm__fp32_to_bf16(v);
	else
		((float *)buf)[i] = v;
}

/* ---- the quantiser ---- */

/* Packs x (count elements of t), unpacks to t and checks every element against the bound:
 * half a scale step, plus the output dtype's own rounding. */
static void round_trip(enum comm_dtype t, const void *x, size_t count)
{
	size_t es = comm_dtype_size(t), nb = (count + BLK - 1) / BLK;
	assert_int_equal(comm__q8_size(count), nb * 4 + count);
	unsigned char *q = malloc(comm__q8_size(count) + 1);
	char *y = malloc(count * es + 1);
	comm__q8_pack(t, x, count, q);
	comm__q8_unpack(q, count, t, y);
	const int8_t *v = (const int8_t *)(q + nb * 4);
	double rel = t == COMM_FP16 ? 0x1p-11 : t == COMM_BF16 ? 0x1p-8 : 0;
	for (size_t i = 0; i < count; i++) {
		float s = scale_of(q, i / BLK), in = load(t, x, i), out = load(t, y, i);
		double bound =
			s / 2 * (1 + 1e-6) + fabs(in) * rel + (t == COMM_FP16 ? 0x1p-24 : 1e-30);
		if (!(fabs((double)out - in) <= bound))
			fail_msg("%s count %zu element %zu: in %.9g out %.9g (q %d, scale %.9g): "
				 "error %.3g over %.3g",
				 comm_dtype_name(t), count, i, in, out, v[i], s,
				 fabs((double)out - in), bound);
		assert_true(v[i] >= -127 && v[i] <= 127);
	}
	/* the scale is the block's largest magnitude / 127 */
	for (size_t k = 0; k < nb; k++) {
		float m = 0;
		for (size_t i = k * BLK; i < count && i < (k + 1) * BLK; i++)
			m = fabsf(load(t, x, i)) > m ? fabsf(load(t, x, i)) : m;
		assert_true(scale_of(q, k) == m / 127.0f);
	}
	free(q);
	free(y);
}

static void test_round_trip(void **state)
{
	(void)state;
	static const size_t counts[] = {0, 1, 2, 31, 255, 256, 257, 511, 1000, 4096 + 13};
	static const enum comm_dtype ts[] = {COMM_FP32, COMM_FP16, COMM_BF16};
	for (size_t c = 0; c < sizeof(counts) / sizeof(counts[0]); c++)
		for (size_t k = 0; k < 3; k++) {
			size_t n = counts[c];
			char *x = malloc(n * 4 + 4);
			for (size_t i = 0; i < n; i++) /* N(0,1), scaled up and down by block */
				store(ts[k], x, i,
				      gauss(7, (int)k, i) * (i / BLK % 2 ? 1000.0f : 0.01f));
			round_trip(ts[k], x, n);
			free(x);
		}
}

static void test_zero_and_huge(void **state)
{
	(void)state;
	size_t n = 3 * BLK + 5;
	float *x = calloc(n, sizeof(float)), *y = malloc(n * sizeof(float));
	unsigned char *q = malloc(comm__q8_size(n));
	/* block 0: zeros (and a -0); block 1: one huge value among small ones; block 2 and the
	 * tail: ordinary values */
	x[3] = -0.0f;
	for (size_t i = BLK; i < n; i++)
		x[i] = gauss(3, 0, i);
	x[BLK + 17] = 3e37f;
	round_trip(COMM_FP32, x, n);
	comm__q8_pack(COMM_FP32, x, n, q);
	comm__q8_unpack(q, n, COMM_FP32, y);
	assert_true(scale_of(q, 0) == 0.0f);
	for (size_t i = 0; i < BLK; i++)
		assert_true(y[i] == 0.0f);
	assert_true(fabsf(y[BLK + 17] - 3e37f) <= 3e37f * 1e-6f);
	for (size_t i = BLK; i < 2 * BLK; i++) /* the small ones round to 0 */
		if (i != BLK + 17)
			assert_true(y[i] == 0.0f);
	for (size_t i = 2 * BLK; i < n; i++) /* the huge value does not spill into the next block */
		assert_true(fabsf(y[i] - x[i]) <= scale_of(q, 2) / 2 * (1 + 1e-6f));
	/* a single element is exact to an ulp or two; count 0 writes nothing */
	float one = -1.2345678f, back = 0;
	unsigned char q1[8];
	comm__q8_pack(COMM_FP32, &one, 1, q1);
	comm__q8_unpack(q1, 1, COMM_FP32, &back);
	assert_true(fabsf(back - one) <= 2e-7f);
	unsigned char guard = 0xa5;
	comm__q8_pack(COMM_FP32, x, 0, &guard);
	comm__q8_unpack(&guard, 0, COMM_FP32, y);
	assert_int_equal(guard, 0xa5);
	/* Inf or NaN: its block dequantises to NaN, the others are untouched */
	x[BLK + 17] = INFINITY;
	x[2 * BLK + 1] = NAN;
	comm__q8_pack(COMM_FP32, x, n, q);
	comm__q8_unpack(q, n, COMM_FP32, y);
	for (size_t i = 0; i < BLK; i++)
		assert_true(y[i] == 0.0f);
	for (size_t i = BLK; i < 3 * BLK; i++)
		assert_true(isnan(y[i]));
	for (size_t i = 3 * BLK; i < n; i++)
		assert_true(fabsf(y[i] - x[i]) <= scale_of(q, 3) / 2 * (1 + 1e-6f));
	free(x);
	free(y);
	free(q);
}

static void test_accumulate(void **state)
{
	(void)state;
	size_t n = 2 * BLK + 3;
	float *x = malloc(n * 4), *acc = malloc(n * 4), *y = malloc(n * 4);
	unsigned char *q = malloc(comm__q8_size(n));
	for (size_t i = 0; i < n; i++) {
		x[i] = gauss(5, 1, i);
		acc[i] = (float)i;
	}
	comm__q8_pack(COMM_FP32, x, n, q);
	comm__q8_unpack(q, n, COMM_FP32, y);
	comm__q8_accumulate(acc, q, n);
	for (size_t i = 0; i < n; i++)
		assert_true(acc[i] == (float)i + y[i]);
	free(x);
	free(acc);
	free(y);
	free(q);
}

static void test_names(void **state)
{
	(void)state;
	assert_string_equal(comm_compress_name(COMM_COMPRESS_INT8), "int8");
	assert_string_equal(comm_compress_name(COMM_COMPRESS_NONE), "none");
	assert_int_equal(comm_compress_parse("int8"), COMM_COMPRESS_INT8);
	assert_int_equal(comm_compress_parse("none"), COMM_COMPRESS_NONE);
	assert_int_equal(comm_compress_parse("fp8"), -1);
}

/* ---- the collective ---- */

struct job {
	enum comm_dtype t;
	size_t count;
	int inplace, ring, nonblocking;
	uint64_t seed;
	void **out; /* per rank: its result, checked by the main thread */
	int *rc;
	char (*msg)[COMM_ERRLEN];
	int mismatch; /* rank 1 calls the uncompressed allreduce */
};

static int body(struct rank_arg *a)
{
	struct job *j = a->user;
	size_t es = comm_dtype_size(j->t), n = j->count ? j->count : 1;
	char *in = malloc(n * es), *out = j->inplace ? in : malloc(n * es);
	for (size_t i = 0; i < j->count; i++)
		store(j->t, in, i, gauss(j->seed, a->rank, i));
	if (j->ring)
		comm_set_algo(a->c, COMM_ALGO_RING);
	int rc;
	if (j->mismatch && a->rank == 1) {
		rc = comm_allreduce(a->c, in, out, j->count, j->t, COMM_SUM);
	} else if (j->nonblocking) {
		struct comm_req *r = NULL;
		rc = comm_iallreduce_compressed(a->c, in, out, j->count, j->t, COMM_SUM,
						COMM_COMPRESS_INT8, &r);
		if (!rc)
			rc = comm_wait(r);
	} else {
		rc = comm_allreduce_compressed(a->c, in, out, j->count, j->t, COMM_SUM,
					       COMM_COMPRESS_INT8);
	}
	j->rc[a->rank] = rc;
	snprintf(j->msg[a->rank], COMM_ERRLEN, "%s", rc ? comm_last_error(a->c) : "");
	if (rc == 0 && !j->mismatch && j->count &&
	    comm_last_algo(a->c) != (j->ring ? COMM_ALGO_RING : COMM_ALGO_MESH))
		j->rc[a->rank] = -100;
	if (!j->inplace)
		free(in);
	j->out[a->rank] = out;
	return 0;
}

static struct job *job_run(int nranks, enum comm_dtype t, size_t count, int inplace, int ring,
			   int nonblocking, int mismatch)
{
	struct comm_root_info ri;
	struct comm_rendezvous *r = rdv_start(&ri, nranks, 5000);
	assert_non_null(r);
	struct rank_arg *a = calloc((size_t)nranks, sizeof(*a));
	struct job *j = calloc(1, sizeof(*j));
	*j = (struct job){.t = t,
			  .count = count,
			  .inplace = inplace,
			  .ring = ring,
			  .nonblocking = nonblocking,
			  .mismatch = mismatch,
			  .seed = 1000 + count + (uint64_t)nranks};
	j->out = calloc((size_t)nranks, sizeof(*j->out));
	j->rc = calloc((size_t)nranks, sizeof(*j->rc));
	j->msg = calloc((size_t)nranks, sizeof(*j->msg));
	ranks_setup(a, nranks, &ri, 5000, 20000);
	for (int i = 0; i < nranks; i++) {
		a[i].body = body;
		a[i].user = j;
	}
	ranks_run(a, nranks);
	comm_rendezvous_stop(r);
	for (int i = 0; i < nranks; i++)
		if (a[i].rc)
			fail_msg("n=%d rank %d init: %s", nranks, i, a[i].err);
	free(a);
	return j;
}

static void job_free(struct job *j, int nranks)
{
	for (int i = 0; i < nranks; i++)
		free(j->out[i]);
	free(j->out);
	free(j->rc);
	free(j->msg);
	free(j);
}

/* Every rank succeeded with the same bytes; returns the nrmse against the exact sum. */
static double check_job(struct job *j, int nranks)
{
	size_t es = comm_dtype_size(j->t);
	double e2 = 0, r2 = 0;
	for (int i = 0; i < nranks; i++)
		if (j->rc[i])
			fail_msg("n=%d %s count %zu rank %d: rc %d: %s", nranks,
				 comm_dtype_name(j->t), j->count, i, j->rc[i], j->msg[i]);
	for (int i = 1; i < nranks; i++)
		if (memcmp(j->out[0], j->out[i], j->count * es))
			fail_msg("n=%d %s count %zu: rank %d's result differs from rank 0's",
				 nranks, comm_dtype_name(j->t), j->count, i);
	unsigned char one[4];
	for (size_t i = 0; i < j->count; i++) {
		double exact = 0;
		for (int r = 0; r < nranks; r++) {
			store(j->t, one, 0, gauss(j->seed, r, i));
			exact += load(j->t, one, 0);
		}
		double d = load(j->t, j->out[0], i) - exact;
		e2 += d * d;
		r2 += exact * exact;
	}
	return r2 > 0 ? sqrt(e2 / r2) : sqrt(e2);
}

static void test_worlds(void **state)
{
	(void)state;
	static const int worlds[] = {1, 2, 3, 5, 8};
	for (size_t w = 0; w < sizeof(worlds) / sizeof(worlds[0]); w++) {
		int n = worlds[w];
		/* large enough that the error is the method's, not the draw's; odd tail */
		struct job *j = job_run(n, COMM_FP32, 64 * 1024 + 77, 0, 0, 0, 0);
		double e = check_job(j, n);
		if (getenv("COMM_TEST_VERBOSE"))
			fprintf(stderr, "# n=%d fp32 nrmse %.4f %%\n", n, 100 * e);
		if (!(e <= 0.01))
			fail_msg("n=%d: nrmse %.4f %% above 1 %%", n, 100 * e);
		if (n == 1 && e != 0) /* one rank: a copy */
			fail_msg("n=1: nrmse %g, want 0", e);
		job_free(j, n);
		/* small and odd counts, fewer blocks than ranks, in place */
		static const size_t small[] = {0, 1, 3, 300, 2 * BLK + 1};
		for (size_t k = 0; k < sizeof(small) / sizeof(small[0]); k++) {
			j = job_run(n, COMM_FP32, small[k], (int)(k % 2), 0, 0, 0);
			e = check_job(j, n);
			if (!(e <= 0.02)) /* few samples: the bound is looser */
				fail_msg("n=%d count %zu: nrmse %.4f %%", n, small[k], 100 * e);
			job_free(j, n);
		}
	}
}

static void test_dtypes_and_ring(void **state)
{
	(void)state;
	static const enum comm_dtype ts[] = {COMM_FP16, COMM_BF16, COMM_FP32};
	for (size_t k = 0; k < 3; k++)
		for (int ring = 0; ring < 2; ring++) {
			struct job *j = job_run(5, ts[k], 40000 + 11, ring, ring, ring, 0);
			double e = check_job(j, 5);
			if (getenv("COMM_TEST_VERBOSE"))
				fprintf(stderr, "# n=5 %s%s nrmse %.4f %%\n",
					comm_dtype_name(ts[k]),
					ring ? " ring, in place, non-blocking" : "", 100 * e);
			if (!(e <= 0.01))
				fail_msg("n=5 %s ring %d: nrmse %.4f %%", comm_dtype_name(ts[k]),
					 ring, 100 * e);
			job_free(j, 5);
		}
}

static void test_mismatch(void **state)
{
	(void)state;
	struct job *j = job_run(3, COMM_FP32, 1000, 0, 0, 0, 1);
	for (int i = 0; i < 3; i++) {
		if (j->rc[i] != COMM_E_MISMATCH ||
		    !strstr(j->msg[i],
			    "rank 0 has compression int8 but rank 1 has compression none"))
			fail_msg("rank %d: rc %d, '%s'", i, j->rc[i], j->msg[i]);
	}
	job_free(j, 3);
}

static int body_inval(struct rank_arg *a)
{
	int32_t x[4] = {0};
	float f[4] = {0};
	int rc = comm_allreduce_compressed(a->c, x, x, 4, COMM_INT32, COMM_SUM, COMM_COMPRESS_INT8);
	if (rc != COMM_E_INVAL ||
	    !strstr(comm_last_error(a->c), "takes fp32, fp16 or bf16, not int32"))
		return 1;
	rc = comm_allreduce_compressed(a->c, f, f, 4, COMM_FP32, COMM_MAX, COMM_COMPRESS_INT8);
	if (rc != COMM_E_INVAL || !strstr(comm_last_error(a->c), "takes the sum, not max"))
		return 2;
	rc = comm_allreduce_compressed(a->c, f, f, 4, COMM_FP32, COMM_SUM, (enum comm_compress)7);
	if (rc != COMM_E_INVAL)
		return 3;
	/* usage errors leave the communicator working; NONE is the plain allreduce */
	f[0] = 1;
	rc = comm_allreduce_compressed(a->c, f, f, 4, COMM_FP32, COMM_SUM, COMM_COMPRESS_NONE);
	return rc || f[0] != (float)a->nranks ? 4 : 0;
}

static void test_inval(void **state)
{
	(void)state;
	struct comm_root_info ri;
	struct comm_rendezvous *r = rdv_start(&ri, 2, 5000);
	assert_non_null(r);
	struct rank_arg a[2];
	ranks_setup(a, 2, &ri, 5000, 5000);
	for (int i = 0; i < 2; i++)
		a[i].body = body_inval;
	ranks_run(a, 2);
	comm_rendezvous_stop(r);
	for (int i = 0; i < 2; i++) {
		assert_int_equal(a[i].rc, 0);
		if (a[i].body_rc)
			fail_msg("rank %d: step %d failed", i, a[i].body_rc);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),	      cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_zero_and_huge), cmocka_unit_test(test_accumulate),
		cmocka_unit_test(test_worlds),	      cmocka_unit_test(test_dtypes_and_ring),
		cmocka_unit_test(test_mismatch),      cmocka_unit_test(test_inval),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
