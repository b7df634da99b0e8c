/* Reduce kernels and fp16/bf16 conversions against references computed here from first
 * principles (ldexp and a nearest-value search, not bit tricks), compared bit for bit. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "libcomm/algo.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define HAVE_X86 1
#endif

int comm__reduce_f16c(int enable); /* test hook in reduce.c */

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static uint32_t fbits(float f)
{
	uint32_t u;
	memcpy(&u, &f, 4);
	return u;
}

static float bitsf(uint32_t u)
{
	float f;
	memcpy(&f, &u, 4);
	return f;
}

/* ---- references ---- */

static double ref_h2d(uint16_t h)
{
	int e = (h >> 10) & 31, m = h & 1023;
	double v;

	if (e == 0)
		v = ldexp(m, -24);
	else if (e == 31)
		v = m ? NAN : INFINITY;
	else
		v = ldexp(1024 + m, e - 25);
	return (h & 0x8000) ? -v : v;
}

static double ref_b2d(uint16_t h)
{
	return (double)bitsf((uint32_t)h << 16);
}

/* Nearest of the positive finite codes 0..maxcode (ordered like their values), ties to the
 * even code; beyond max + half an ulp: Inf. Sign from x. */
static uint16_t nearest(double x, double (*val)(uint16_t), uint16_t maxcode, uint16_t inf)
{
	uint16_t sign = signbit(x) ? 0x8000 : 0;
	double ax = fabs(x);
	double top = val(maxcode) + (val(maxcode) - val((uint16_t)(maxcode - 1))) / 2;
	unsigned lo = 0, hi = maxcode;

	if (ax >= top)
		return (uint16_t)(sign | inf);
	while (lo < hi) { /* largest code with val <= ax */
		unsigned mid = (lo + hi + 1) / 2;
		if (val((uint16_t)mid) <= ax)
			lo = mid;
		else
			hi = mid - 1;
	}
	if (lo < maxcode) {
		double dl = ax - val((uint16_t)lo), dh = val((uint16_t)(lo + 1)) - ax;
		if (dh < dl || (dh == dl && (lo & 1)))
			lo++;
	} else if (ax > val(maxcode)) {
		/* between max and the overflow threshold: max */
	}
	return (uint16_t)(sign | lo);
}

static uint16_t ref_f2h(float f)
{
	if (isnan(f))
		return (uint16_t)(((fbits(f) >> 16) & 0x8000) | 0x7e00 |
				  ((fbits(f) >> 13) & 0x3ff));
	return nearest(f, ref_h2d, 0x7bff, 0x7c00);
}

static uint16_t ref_f2b(float f)
{
	if (isnan(f))
		return (uint16_t)((fbits(f) >> 16) | 0x40);
	return nearest(f, ref_b2d, 0x7f7f, 0x7f80);
}

/* ---- conversions ---- */

static void test_fp16_to_fp32_exhaustive(void **state)
{
	(void)state;
	for (uint32_t h = 0; h < 65536; h++) {
		float got = comm__fp16_to_fp32((uint16_t)h);
		double want = ref_h2d((uint16_t)h);

		if (isnan(want)) {
			uint32_t b = fbits(got);
			assert_true(isnan(got));
			assert_int_equal(b >> 31, h >> 15);
			assert_int_equal(b & 0x7fffff, 0x400000 | ((h & 0x3ff) << 13));
		} else {
			assert_int_equal(fbits(got), fbits((float)want));
		}
	}
}

static void test_fp32_to_fp16(void **state)
{
	(void)state;
	/* every fp16 value round-trips; every midpoint between neighbours rounds to even and
	 * its fp32 neighbours round to the nearer side */
	for (uint32_t h = 0; h < 65536; h++) {
		if ((h & 0x7c00) == 0x7c00)
			continue;
		float v = (float)ref_h2d((uint16_t)h);
		assert_int_equal(comm__fp32_to_fp16(v), h);
		if ((h & 0x7fff) == 0x7bff)
			continue;
		float mid = (float)((ref_h2d((uint16_t)h) + ref_h2d((uint16_t)(h + 1))) / 2);
		uint16_t even = (h & 1) ? (uint16_t)(h + 1) : (uint16_t)h;
		assert_int_equal(comm__fp32_to_fp16(mid), even);
		assert_int_equal(comm__fp32_to_fp16(nextafterf(mid, 0)), h);
		assert_int_equal(
			comm__fp32_to_fp16(nextafterf(mid, (h & 0x8000) ? -INFINITY : INFINITY)),
			h + 1);
	}
	/* a wide sample of fp32: all exponents/signs, assorted low bits */
	static const uint32_t low[] = {0, 1, 0xfff, 0x1000, 0x1001, 0x1fff, 0x2000, 0x3000};
	for (uint32_t hi = 0; hi < 65536; hi++) {
		for (size_t k = 0; k < sizeof(low) / sizeof(low[0]) + 2; k++) {
			uint32_t lo = k < sizeof(low) / sizeof(low[0]) ? low[k]
								       : (uint32_t)rnd() & 0xffff;
			float f = bitsf(hi << 16 | lo);
			uint16_t got = comm__fp32_to_fp16(f), want = ref_f2h(f);
			if (got != want)
				fail_msg("fp32 %08x -> fp16 %04x, want %04x", hi << 16 | lo, got,
					 want);
		}
	}
	assert_int_equal(comm__fp32_to_fp16(65519.99f), 0x7bff);
	assert_int_equal(comm__fp32_to_fp16(65520.0f), 0x7c00);
	assert_int_equal(comm__fp32_to_fp16(-INFINITY), 0xfc00);
	assert_int_equal(comm__fp32_to_fp16(bitsf(0x33000000)), 0); /* 2^-25 tie -> 0 */
	assert_int_equal(comm__fp32_to_fp16(bitsf(0x33000001)), 1); /* just above -> 2^-24 */
	assert_int_equal(comm__fp32_to_fp16(bitsf(0xb3c00000)),
			 0x8002); /* -1.5*2^-24 tie -> even */
}

static void test_bf16(void **state)
{
	(void)state;
	for (uint32_t h = 0; h < 65536; h++)
		assert_int_equal(fbits(comm__bf16_to_fp32((uint16_t)h)), h << 16);
	static const uint32_t low[] = {0, 1, 0x7fff, 0x8000, 0x8001, 0xffff};
	for (uint32_t hi = 0; hi < 65536; hi++) {
		for (size_t k = 0; k < sizeof(low) / sizeof(low[0]) + 2; k++) {
			uint32_t lo = k < sizeof(low) / sizeof(low[0]) ? low[k]
								       : (uint32_t)rnd() & 0xffff;
			float f = bitsf(hi << 16 | lo);
			uint16_t got = comm__fp32_to_bf16(f), want = ref_f2b(f);
			if (got != want)
				fail_msg("fp32 %08x -> bf16 %04x, want %04x", hi << 16 | lo, got,
					 want);
		}
	}
	assert_int_equal(comm__fp32_to_bf16(bitsf(0x3f808000)), 0x3f80); /* tie, even stays */
	assert_int_equal(comm__fp32_to_bf16(bitsf(0x3f818000)), 0x3f82); /* tie, odd rounds up */
	assert_int_equal(comm__fp32_to_bf16(bitsf(0x7f7f8000)), 0x7f80); /* tie at max -> Inf */
	assert_int_equal(comm__fp32_to_bf16(bitsf(0x7f800001)), 0x7fc0); /* sNaN quieted */
	assert_int_equal(comm__fp32_to_bf16(bitsf(0xffc12345)), 0xffc1); /* NaN sign+payload */
	assert_int_equal(comm__fp32_to_bf16(bitsf(0x00008000)), 0x0000); /* subnormal tie */
	assert_int_equal(comm__fp32_to_bf16(bitsf(0x00018000)), 0x0002);
}

#ifdef HAVE_X86
__attribute__((target("f16c,avx"))) static void hw_h2f(const uint16_t *h, float *f)
{
	_mm256_storeu_ps(f, _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(const void *)h)));
}

__attribute__((target("f16c,avx"))) static void hw_f2h(const float *f, uint16_t *h)
{
	_mm_storeu_si128((__m128i *)(void *)h,
			 _mm256_cvtps_ph(_mm256_loadu_ps(f), _MM_FROUND_TO_NEAREST_INT));
}
#endif

/* The scalar conversions agree with the F16C instructions on every fp16 value and on a
 * wide fp32 sample, so the two kernel paths cannot drift. */
static void test_f16c_agrees(void **state)
{
	(void)state;
#ifdef HAVE_X86
	__builtin_cpu_init();
	if (!__builtin_cpu_supports("f16c") || !__builtin_cpu_supports("avx")) {
		print_message("  no F16C on this CPU: scalar path only\n");
		skip();
	}
	print_message("  F16C present: comparing hardware and scalar conversions\n");
	for (uint32_t h = 0; h < 65536; h += 8) {
		uint16_t in[8];
		float out[8];
		for (int j = 0; j < 8; j++)
			in[j] = (uint16_t)(h + (uint32_t)j);
		hw_h2f(in, out);
		for (int j = 0; j < 8; j++)
			assert_int_equal(fbits(out[j]), fbits(comm__fp16_to_fp32(in[j])));
	}
	for (uint32_t hi = 0; hi < 65536; hi++) {
		float in[8];
		uint16_t out[8];
		for (int j = 0; j < 8; j++)
			in[j] = bitsf(hi << 16 |
				      (j < 4 ? (uint32_t)j * 0x1000 : (uint32_t)rnd() & 0xffff));
		hw_f2h(in, out);
		for (int j = 0; j < 8; j++)
			if (out[j] != comm__fp32_to_fp16(in[j]))
				fail_msg("F16C %08x -> %04x, scalar %04x", fbits(in[j]), out[j],
					 comm__fp32_to_fp16(in[j]));
	}
#else
	skip();
#endif
}

/* ---- kernels ---- */

#define N 1037 /* not a multiple of any block or vector width: tails are exercised */

static double ref_op(enum comm_op op, double a, double b)
{
	switch (op) {
	case COMM_SUM:
		return a + b;
	case COMM_PROD:
		return a * b;
	case COMM_MAX:
		return (a > b || isnan(a)) ? a : b;
	default:
		return (a < b || isnan(a)) ? a : b;
	}
}

static float ref_opf(enum comm_op op, float a, float b)
{
	switch (op) {
	case COMM_SUM:
		return a + b;
	case COMM_PROD:
		return a * b;
	case COMM_MAX:
		return (a > b || isnan(a)) ? a : b;
	default:
		return (a < b || isnan(a)) ? a : b;
	}
}

/* Unsigned max and min compare as unsigned; sum and prod wrap as the signed ones do. */
static uint64_t ref_uint(enum comm_op op, uint64_t a, uint64_t b, int bits)
{
	uint64_t mask = bits == 64 ? ~0ull : (1ull << bits) - 1, r;
	switch (op) {
	case COMM_SUM:
		r = a + b;
		break;
	case COMM_PROD:
		r = a * b;
		break;
	case COMM_MAX:
		return a > b ? a : b;
	default:
		return a < b ? a : b;
	}
	return r & mask;
}

static int64_t ref_int(enum comm_op op, int64_t a, int64_t b, int bits)
{
	uint64_t ua = (uint64_t)a, ub = (uint64_t)b, r;

	switch (op) {
	case COMM_SUM:
		r = ua + ub;
		break;
	case COMM_PROD:
		r = ua * ub;
		break;
	case COMM_MAX:
		return a > b ? a : b;
	default:
		return a < b ? a : b;
	}
	if (bits == 64)
		return (int64_t)r;
	r &= (1ull << bits) - 1; /* wrap, then sign-extend */
	return (int64_t)(r ^ (1ull << (bits - 1))) - (int64_t)(1ull << (bits - 1));
}

static void fill(enum comm_dtype t, void *buf, size_t n)
{
	static const float special[] = {0.0f,	-0.0f,	  INFINITY, -INFINITY, NAN,
					1e-30f, 65504.0f, 6e-8f,    -3.5f,     1.0f};
	for (size_t i = 0; i < n; i++) {
		uint64_t r = rnd();
		float f = (r & 15) < 2 ? special[(r >> 8) % 10]
				       : (float)((int64_t)(r >> 20) % 20001) / 64.0f;
		switch (t) {
		case COMM_INT8:
			((int8_t *)buf)[i] = (int8_t)r;
			break;
		case COMM_INT32:
			((int32_t *)buf)[i] = (int32_t)(uint32_t)r;
			break;
		case COMM_INT64:
			((int64_t *)buf)[i] = (int64_t)r;
			break;
		case COMM_INT16:
			((int16_t *)buf)[i] = (int16_t)(uint16_t)r;
			break;
		case COMM_UINT8:
			((uint8_t *)buf)[i] = (uint8_t)r;
			break;
		case COMM_UINT32:
			((uint32_t *)buf)[i] = (uint32_t)r;
			break;
		case COMM_UINT64:
			((uint64_t *)buf)[i] = r;
			break;
		case COMM_FP16:
			((uint16_t *)buf)[i] = (r & 3) ? ref_f2h(f) : (uint16_t)(r >> 32);
			break;
		case COMM_BF16:
			((uint16_t *)buf)[i] = (r & 3) ? ref_f2b(f) : (uint16_t)(r >> 32);
			break;
		case COMM_FP32:
			((float *)buf)[i] = f;
			break;
		default:
			((double *)buf)[i] = (r & 1) ? (double)f : (double)(int64_t)(r >> 11) / 3.0;
			break;
		}
	}
}

static void reference(enum comm_dtype t, enum comm_op op, void *d, const void *a, const void *b,
		      size_t n)
{
	for (size_t i = 0; i < n; i++) {
		switch (t) {
		case COMM_INT8:
			((int8_t *)d)[i] = (int8_t)ref_int(op, ((const int8_t *)a)[i],
							   ((const int8_t *)b)[i], 8);
			break;
		case COMM_INT32:
			((int32_t *)d)[i] = (int32_t)ref_int(op, ((const int32_t *)a)[i],
							     ((const int32_t *)b)[i], 32);
			break;
		case COMM_INT64:
			((int64_t *)d)[i] =
				ref_int(op, ((const int64_t *)a)[i], ((const int64_t *)b)[i], 64);
			break;
		case COMM_INT16:
			((int16_t *)d)[i] = (int16_t)ref_int(op, ((const int16_t *)a)[i],
							     ((const int16_t *)b)[i], 16);
			break;
		case COMM_UINT8:
			((uint8_t *)d)[i] = (uint8_t)ref_uint(op, ((const uint8_t *)a)[i],
							      ((const uint8_t *)b)[i], 8);
			break;
		case COMM_UINT32:
			((uint32_t *)d)[i] = (uint32_t)ref_uint(op, ((const uint32_t *)a)[i],
								((const uint32_t *)b)[i], 32);
			break;
		case COMM_UINT64:
			((uint64_t *)d)[i] =
				ref_uint(op, ((const uint64_t *)a)[i], ((const uint64_t *)b)[i], 64);
			break;
		case COMM_FP16: {
			float x = (float)ref_h2d(((const uint16_t *)a)[i]);
			float y = (float)ref_h2d(((const uint16_t *)b)[i]);
			((uint16_t *)d)[i] = ref_f2h(ref_opf(op, x, y));
			break;
		}
		case COMM_BF16: {
			float x = (float)ref_b2d(((const uint16_t *)a)[i]);
			float y = (float)ref_b2d(((const uint16_t *)b)[i]);
			((uint16_t *)d)[i] = ref_f2b(ref_opf(op, x, y));
			break;
		}
		case COMM_FP32:
			((float *)d)[i] = ref_opf(op, ((const float *)a)[i], ((const float *)b)[i]);
			break;
		default:
			((double *)d)[i] =
				ref_op(op, ((const double *)a)[i], ((const double *)b)[i]);
			break;
		}
	}
}

/* NaN results are compared by "is NaN" where the payload is the hardware's business (fp32
 * and fp64 arithmetic on two NaNs); everything else exactly. */
static void compare(enum comm_dtype t, enum comm_op op, const void *got, const void *want, size_t n,
		    const char *what)
{
	size_t esz = comm_dtype_size(t);

	for (size_t i = 0; i < n; i++) {
		const unsigned char *g = (const unsigned char *)got + i * esz;
		const unsigned char *w = (const unsigned char *)want + i * esz;
		if (memcmp(g, w, esz) == 0)
			continue;
		if (t == COMM_FP32) {
			float x, y;
			memcpy(&x, g, 4);
			memcpy(&y, w, 4);
			if (isnan(x) && isnan(y))
				continue;
		}
		if (t == COMM_FP64) {
			double x, y;
			memcpy(&x, g, 8);
			memcpy(&y, w, 8);
			if (isnan(x) && isnan(y))
				continue;
		}
		if ((t == COMM_FP16 || t == COMM_BF16)) {
			uint16_t x, y;
			memcpy(&x, g, 2);
			memcpy(&y, w, 2);
			uint16_t em = t == COMM_FP16 ? 0x7c00 : 0x7f80;
			if ((x & em) == em && (x & ~em & 0x7fff) && (y & em) == em &&
			    (y & ~em & 0x7fff))
				continue;
		}
		fail_msg("%s %s %s: element %zu differs", comm_dtype_name(t), comm_op_name(op),
			 what, i);
	}
}

static void run_kernels(void)
{
	static unsigned char a[N * 8], b[N * 8], d[N * 8], w[N * 8];

	for (int t = 0; t < COMM_DTYPE_COUNT; t++) {
		size_t bytes = N * comm_dtype_size((enum comm_dtype)t);
		for (int op = 0; op < COMM_OP_COUNT; op++) {
			for (int rep = 0; rep < 4; rep++) {
				fill((enum comm_dtype)t, a, N);
				fill((enum comm_dtype)t, b, N);
				reference((enum comm_dtype)t, (enum comm_op)op, w, a, b, N);
				memset(d, 0xa5, sizeof(d));
				comm__reduce3((enum comm_dtype)t, (enum comm_op)op, d, a, b, N);
				compare((enum comm_dtype)t, (enum comm_op)op, d, w, N, "reduce3");
				memcpy(d, a, bytes); /* dst == a */
				comm__reduce((enum comm_dtype)t, (enum comm_op)op, d, b, N);
				compare((enum comm_dtype)t, (enum comm_op)op, d, w, N, "reduce");
				memcpy(d, b, bytes); /* dst == b keeps operand order */
				comm__reduce3((enum comm_dtype)t, (enum comm_op)op, d, a, d, N);
				compare((enum comm_dtype)t, (enum comm_op)op, d, w, N,
					"reduce3 dst==b");
				/* short counts: every tail length */
				for (size_t n = 0; n < 40; n++) {
					memset(d, 0xa5, sizeof(d));
					comm__reduce3((enum comm_dtype)t, (enum comm_op)op, d, a, b,
						      n);
					compare((enum comm_dtype)t, (enum comm_op)op, d, w, n,
						"short");
					assert_int_equal(d[n * comm_dtype_size((enum comm_dtype)t)],
							 0xa5);
				}
			}
		}
	}
}

static void test_kernels_default(void **state)
{
	(void)state;
	print_message("  fp16 path: %s\n", comm__reduce_f16c(1) ? "F16C" : "portable");
	run_kernels();
}

static void test_kernels_portable(void **state)
{
	(void)state;
	comm__reduce_f16c(0);
	run_kernels();
	comm__reduce_f16c(1);
}

/* Every fp16 or bf16 value against a random partner, SIMD (F16C, AVX2) and portable paths,
 * all ops; and lengths that are not a multiple of the vector, in place on either operand. */
static void kernel_exhaustive(enum comm_dtype t, const char *simd)
{
	static uint16_t a[65536], b[65536], d1[65536], d2[65536], w[65536];

	for (uint32_t i = 0; i < 65536; i++) {
		a[i] = (uint16_t)i;
		b[i] = (uint16_t)rnd();
	}
	for (int op = 0; op < COMM_OP_COUNT; op++) {
		reference(t, (enum comm_op)op, w, a, b, 65536);
		comm__reduce_f16c(1);
		comm__reduce3(t, (enum comm_op)op, d1, a, b, 65536);
		comm__reduce_f16c(0);
		comm__reduce3(t, (enum comm_op)op, d2, a, b, 65536);
		comm__reduce_f16c(1);
		compare(t, (enum comm_op)op, d1, w, 65536, "default path");
		compare(t, (enum comm_op)op, d2, w, 65536, "portable path");
		/* NaN + NaN keeps one operand's payload, which one is the compiler's choice of
		 * operand order, so NaNs are only required to be NaN */
		compare(t, (enum comm_op)op, d1, d2, 65536, simd);
		for (size_t n = 1; n <= 40; n += 13) {
			memcpy(d1, a + 1000, n * 2);
			comm__reduce(t, (enum comm_op)op, d1, b + 1000, n);
			compare(t, (enum comm_op)op, d1, w + 1000, n, "in place on a");
			memcpy(d2, b + 2000, n * 2);
			comm__reduce3(t, (enum comm_op)op, d2, a + 2000, d2, n);
			compare(t, (enum comm_op)op, d2, w + 2000, n, "in place on b");
		}
	}
}

static void test_fp16_kernel_exhaustive(void **state)
{
	(void)state;
	kernel_exhaustive(COMM_FP16, "F16C vs portable");
}

static void test_bf16_kernel_exhaustive(void **state)
{
	(void)state;
	kernel_exhaustive(COMM_BF16, "AVX2 vs portable");
}

static void test_int_wrap(void **state)
{
	int8_t a8[3] = {127, -128, 16}, b8[3] = {1, -1, 16};
	int32_t a32[2] = {INT32_MAX, 65536}, b32[2] = {1, 65536};
	int64_t a64[1] = {INT64_MIN}, b64[1] = {-1};

	(void)state;
	comm__reduce(COMM_INT8, COMM_SUM, a8, b8, 2);
	assert_int_equal(a8[0], -128);
	assert_int_equal(a8[1], 127);
	comm__reduce(COMM_INT8, COMM_PROD, a8 + 2, b8 + 2, 1);
	assert_int_equal(a8[2], 0);
	comm__reduce(COMM_INT32, COMM_SUM, a32, b32, 1);
	assert_int_equal(a32[0], INT32_MIN);
	comm__reduce(COMM_INT32, COMM_PROD, a32 + 1, b32 + 1, 1);
	assert_int_equal(a32[1], 0);
	comm__reduce(COMM_INT64, COMM_PROD, a64, b64, 1);
	assert_true(a64[0] == INT64_MIN);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fp16_to_fp32_exhaustive),
		cmocka_unit_test(test_fp32_to_fp16),
		cmocka_unit_test(test_bf16),
		cmocka_unit_test(test_f16c_agrees),
		cmocka_unit_test(test_kernels_default),
		cmocka_unit_test(test_kernels_portable),
		cmocka_unit_test(test_fp16_kernel_exhaustive),
		cmocka_unit_test(test_bf16_kernel_exhaustive),
		cmocka_unit_test(test_int_wrap),
	};
	return cmocka_run_group_tests_name("reduce", tests, NULL, NULL);
}
