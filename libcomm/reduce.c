/* Reduce kernels: dst = a op b for every dtype and op. The collective algorithms spend their
 * compute here, so the loops are kept simple enough for the vectoriser at -O2 (blocked inner
 * loops of a known trip count, restrict pointers) and fp16 uses F16C when the CPU has it.
 *
 * Semantics every path (scalar, vectorised, F16C) agrees on bit for bit:
 * - integer sum and prod wrap modulo 2^bits (computed in unsigned arithmetic, no UB);
 * - fp16 and bf16 are widened to fp32, combined there, and rounded back to nearest even;
 * - max and min propagate NaN: the result is NaN when either operand is, and the first operand
 *   wins ties (+0/-0), so callers that need identical bits on every rank pass operands in a
 *   fixed order (comm__reduce3 keeps the order it is given, even when dst aliases b). */
#include <stdint.h>
#include <string.h>

#include "libcomm/algo.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define HAVE_X86 1
#include <cpuid.h>
#endif

/* Elements per inner block: a multiple of every vector width up to AVX-512, and a known trip
 * count, which GCC's -O2 ("very cheap") vectoriser needs before it will vectorise at all. */
#define BLK 32


/* ---- conversions (scalar reference; the vector paths must agree with these) ---- */

float comm__fp16_to_fp32(uint16_t h)
{
	uint32_t sign = (uint32_t)(h & 0x8000) << 16;
	uint32_t exp = (h >> 10) & 0x1f;
	uint32_t mant = h & 0x3ff;

	if (exp == 0x1f) /* Inf, or NaN made quiet with its payload kept, as vcvtph2ps does */
		return comm__bits_f32(sign | 0x7f800000 | (mant ? 0x400000 | (mant << 13) : 0));
	if (exp == 0) {
		if (mant == 0)
			return comm__bits_f32(sign);
		/* subnormal: mant * 2^-24 is exact in fp32 */
		float v = (float)mant * (1.0f / 16777216.0f);
		return sign ? -v : v;
	}
	return comm__bits_f32(sign | ((exp + 112) << 23) | (mant << 13));
}

uint16_t comm__fp32_to_fp16(float f)
{
	uint32_t x = comm__f32_bits(f);
	uint16_t sign = (uint16_t)((x >> 16) & 0x8000);
	uint32_t r, rem, half;

	x &= 0x7fffffff;
	if (x > 0x7f800000) /* NaN: quiet, keep the top of the payload (vcvtps2ph does) */
		return (uint16_t)(sign | 0x7e00 | ((x >> 13) & 0x3ff));
	if (x >= 0x477ff000) /* >= 65520, halfway to 2^16 (ties go to even = Inf) */
		return (uint16_t)(sign | 0x7c00);
	if (x < 0x38800000) {	     /* below 2^-14: subnormal or zero */
		if (x <= 0x33000000) /* <= 2^-25, half the smallest subnormal: rounds to 0 */
			return sign;
		uint32_t e = x >> 23, m = (x & 0x7fffff) | 0x800000;
		uint32_t shift = 126 - e; /* 14..24 */
		r = m >> shift;
		rem = m & ((1u << shift) - 1);
		half = 1u << (shift - 1);
		if (rem > half || (rem == half && (r & 1)))
			r++; /* may carry into the smallest normal, which is the right encoding */
		return (uint16_t)(sign | r);
	}
	r = (x - 0x38000000) >> 13; /* rebias 127 -> 15 */
	rem = x & 0x1fff;
	if (rem > 0x1000 || (rem == 0x1000 && (r & 1)))
		r++; /* a carry into the exponent is still correct (65504 case is above) */
	return (uint16_t)(sign | r);
}

float comm__bf16_to_fp32(uint16_t h)
{
	return comm__bits_f32((uint32_t)h << 16);
}

/* Branch-free so it vectorises: NaNs keep sign and payload top and are made quiet; everything
 * else rounds to nearest even, overflowing to Inf as it should. */
static inline uint16_t f32_to_bf16(uint32_t x)
{
	uint32_t rne = (x + 0x7fff + ((x >> 16) & 1)) >> 16;
	uint32_t nan = (x >> 16) | 0x40;
	return (uint16_t)((x & 0x7fffffff) > 0x7f800000 ? nan : rne);
}

uint16_t comm__fp32_to_bf16(float f)
{
	return f32_to_bf16(comm__f32_bits(f));
}

/* ---- element operations ---- */

#define OP_SUM(a, b) ((a) + (b))
#define OP_PROD(a, b) ((a) * (b))
#define OP_IMAX(a, b) ((a) > (b) ? (a) : (b))
#define OP_IMIN(a, b) ((a) < (b) ? (a) : (b))
/* NaN-propagating; the first operand wins ties so the result is fixed by operand order. */
#define OP_FMAX(a, b) (((a) > (b) || (a) != (a)) ? (a) : (b))
#define OP_FMIN(a, b) (((a) < (b) || (a) != (a)) ? (a) : (b))

/* Three loops per (type, op): distinct buffers, dst == a, and dst == b. Each is restrict so
 * the vectoriser needs no overlap checks; the dispatcher picks one by comparing pointers. */
#define LOOP(STMT) COMM__LOOP(BLK, STMT)

/* restrict only reaches the vectoriser through parameters (not locals), and may be lost by
 * inlining, so the typed loops take restrict parameters and stay out of line. On x86 each is
 * also built for AVX2 and picked at load time (ifunc): twice the lanes for the compute-bound
 * ones (bf16 rounding, 64-bit integers, max/min), same results. */
#if defined(HAVE_X86) && !defined(__clang__)
#define KERNEL __attribute__((noinline, target_clones("avx2", "default")))
#elif defined(HAVE_X86)
/* clang refuses target_clones with noinline; its builds (fuzzing) take the default path. */
#define KERNEL __attribute__((target_clones("avx2", "default")))
#else
#define KERNEL __attribute__((noinline))
#endif
#define GEN(NAME, T, OP)                                                                           \
	KERNEL static void NAME##_3t(T *restrict d, const T *restrict a, const T *restrict b,      \
				     size_t n){                                                    \
		LOOP(d[i] = (T)OP(a[i], b[i]))} KERNEL static void NAME##_2t(T *restrict d,        \
									     const T *restrict s,  \
									     size_t n){            \
		LOOP(d[i] = (T)OP(d[i], s[i]))} KERNEL static void NAME##_2rt(T *restrict d,       \
									      const T *restrict s, \
									      size_t n)            \
	{                                                                                          \
		LOOP(d[i] = (T)OP(s[i], d[i]))                                                     \
	}                                                                                          \
	static void NAME##_3(void *d, const void *a, const void *b, size_t n)                      \
	{                                                                                          \
		NAME##_3t(d, a, b, n);                                                             \
	}                                                                                          \
	static void NAME##_2(void *d, const void *s, size_t n)                                     \
	{                                                                                          \
		NAME##_2t(d, s, n);                                                                \
	}                                                                                          \
	static void NAME##_2r(void *d, const void *s, size_t n)                                    \
	{                                                                                          \
		NAME##_2rt(d, s, n);                                                               \
	}

/* Wrapping integer arithmetic in unsigned types: identical bits to two's complement. */
GEN(i8_sum, uint8_t, OP_SUM)
GEN(i8_prod, uint8_t, OP_PROD)
GEN(i8_max, int8_t, OP_IMAX)
GEN(i8_min, int8_t, OP_IMIN)
GEN(i32_sum, uint32_t, OP_SUM)
GEN(i32_prod, uint32_t, OP_PROD)
GEN(i32_max, int32_t, OP_IMAX)
GEN(i32_min, int32_t, OP_IMIN)
GEN(i64_sum, uint64_t, OP_SUM)
GEN(i64_prod, uint64_t, OP_PROD)
GEN(i64_max, int64_t, OP_IMAX)
GEN(i64_min, int64_t, OP_IMIN)
/* int16, and the unsigned types: sum and prod are the same bits as their signed twins'; max
 * and min compare in their own type. */
GEN(i16_sum, uint16_t, OP_SUM)
GEN(i16_prod, uint16_t, OP_PROD)
GEN(i16_max, int16_t, OP_IMAX)
GEN(i16_min, int16_t, OP_IMIN)
GEN(u8_max, uint8_t, OP_IMAX)
GEN(u8_min, uint8_t, OP_IMIN)
GEN(u32_max, uint32_t, OP_IMAX)
GEN(u32_min, uint32_t, OP_IMIN)
GEN(u64_max, uint64_t, OP_IMAX)
GEN(u64_min, uint64_t, OP_IMIN)
GEN(f32_sum, float, OP_SUM)
GEN(f32_prod, float, OP_PROD)
GEN(f32_max, float, OP_FMAX)
GEN(f32_min, float, OP_FMIN)
GEN(f64_sum, double, OP_SUM)
GEN(f64_prod, double, OP_PROD)
GEN(f64_max, double, OP_FMAX)
GEN(f64_min, double, OP_FMIN)

/* bf16: widening is a shift and narrowing is branch-free, so plain C vectorises. */
#define BF(x) comm__bits_f32((uint32_t)(x) << 16)
#define BF_SUM(a, b) f32_to_bf16(comm__f32_bits(OP_SUM(BF(a), BF(b))))
#define BF_PROD(a, b) f32_to_bf16(comm__f32_bits(OP_PROD(BF(a), BF(b))))
#define BF_MAX(a, b) f32_to_bf16(comm__f32_bits(OP_FMAX(BF(a), BF(b))))
#define BF_MIN(a, b) f32_to_bf16(comm__f32_bits(OP_FMIN(BF(a), BF(b))))
GEN(bf_sum, uint16_t, BF_SUM)
GEN(bf_prod, uint16_t, BF_PROD)
GEN(bf_max, uint16_t, BF_MAX)
GEN(bf_min, uint16_t, BF_MIN)

/* fp16, portable: the scalar conversions around an fp32 operation. */
#define H(x) comm__fp16_to_fp32(x)
#define HF_SUM(a, b) comm__fp32_to_fp16(OP_SUM(H(a), H(b)))
#define HF_PROD(a, b) comm__fp32_to_fp16(OP_PROD(H(a), H(b)))
#define HF_MAX(a, b) comm__fp32_to_fp16(OP_FMAX(H(a), H(b)))
#define HF_MIN(a, b) comm__fp32_to_fp16(OP_FMIN(H(a), H(b)))
GEN(hf_sum, uint16_t, HF_SUM)
GEN(hf_prod, uint16_t, HF_PROD)
GEN(hf_max, uint16_t, HF_MAX)
GEN(hf_min, uint16_t, HF_MIN)

typedef void (*k3_fn)(void *, const void *, const void *, size_t);
typedef void (*k2_fn)(void *, const void *, size_t);

#define ROW(P)                                                                                     \
	{                                                                                          \
		P##_sum_3, P##_prod_3, P##_max_3, P##_min_3                                        \
	}
#define UROW(S, U) { S##_sum_3, S##_prod_3, U##_max_3, U##_min_3 }
static const k3_fn k3_tab[COMM_DTYPE_COUNT][COMM_OP_COUNT] = {
	[COMM_INT8] = ROW(i8),	[COMM_INT32] = ROW(i32), [COMM_INT64] = ROW(i64),
	[COMM_FP16] = ROW(hf),	[COMM_BF16] = ROW(bf),	 [COMM_FP32] = ROW(f32),
	[COMM_FP64] = ROW(f64), [COMM_INT16] = ROW(i16), [COMM_UINT8] = UROW(i8, u8),
	[COMM_UINT32] = UROW(i32, u32), [COMM_UINT64] = UROW(i64, u64),
};
#undef ROW
#undef UROW
#define ROW(P)                                                                                     \
	{                                                                                          \
		P##_sum_2, P##_prod_2, P##_max_2, P##_min_2                                        \
	}
#define UROW(S, U) { S##_sum_2, S##_prod_2, U##_max_2, U##_min_2 }
static const k2_fn k2_tab[COMM_DTYPE_COUNT][COMM_OP_COUNT] = {
	[COMM_INT8] = ROW(i8),	[COMM_INT32] = ROW(i32), [COMM_INT64] = ROW(i64),
	[COMM_FP16] = ROW(hf),	[COMM_BF16] = ROW(bf),	 [COMM_FP32] = ROW(f32),
	[COMM_FP64] = ROW(f64), [COMM_INT16] = ROW(i16), [COMM_UINT8] = UROW(i8, u8),
	[COMM_UINT32] = UROW(i32, u32), [COMM_UINT64] = UROW(i64, u64),
};
#undef ROW
#undef UROW
#define ROW(P)                                                                                     \
	{                                                                                          \
		P##_sum_2r, P##_prod_2r, P##_max_2r, P##_min_2r                                    \
	}
#define UROW(S, U) { S##_sum_2r, S##_prod_2r, U##_max_2r, U##_min_2r }
static const k2_fn k2r_tab[COMM_DTYPE_COUNT][COMM_OP_COUNT] = {
	[COMM_INT8] = ROW(i8),	[COMM_INT32] = ROW(i32), [COMM_INT64] = ROW(i64),
	[COMM_FP16] = ROW(hf),	[COMM_BF16] = ROW(bf),	 [COMM_FP32] = ROW(f32),
	[COMM_FP64] = ROW(f64), [COMM_INT16] = ROW(i16), [COMM_UINT8] = UROW(i8, u8),
	[COMM_UINT32] = UROW(i32, u32), [COMM_UINT64] = UROW(i64, u64),
};
#undef ROW
#undef UROW

/* The elements after the last full vector of a SIMD kernel, by the portable loops. */
#ifdef HAVE_X86
static void portable_tail(enum comm_dtype t, enum comm_op op, uint16_t *d, const uint16_t *a,
			  const uint16_t *b, size_t m)
{
	if (d == a)
		k2_tab[t][op](d, b, m);
	else if (d == b)
		k2r_tab[t][op](d, a, m);
	else
		k3_tab[t][op](d, a, b, m);
}
#endif

/* ---- fp16 with F16C: 8 halves widened per instruction, the op in AVX, narrowed with
 * round-to-nearest-even. Loads of a block precede its store, so dst may equal a or b. ---- */
#ifdef HAVE_X86
__attribute__((target("f16c,avx"))) static void
hf_f16c(enum comm_op op, uint16_t *d, const uint16_t *a, const uint16_t *b, size_t n)
{
	size_t i = 0;

	for (; i + 8 <= n; i += 8) {
		__m256 x = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(const void *)(a + i)));
		__m256 y = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(const void *)(b + i)));
		__m256 z, pick;

		switch (op) {
		case COMM_SUM:
			z = _mm256_add_ps(x, y);
			break;
		case COMM_PROD:
			z = _mm256_mul_ps(x, y);
			break;
		case COMM_MAX: /* x wins when x > y or x is NaN: same as OP_FMAX */
			pick = _mm256_or_ps(_mm256_cmp_ps(x, y, _CMP_GT_OQ),
					    _mm256_cmp_ps(x, x, _CMP_UNORD_Q));
			z = _mm256_blendv_ps(y, x, pick);
			break;
		default:
			pick = _mm256_or_ps(_mm256_cmp_ps(x, y, _CMP_LT_OQ),
					    _mm256_cmp_ps(x, x, _CMP_UNORD_Q));
			z = _mm256_blendv_ps(y, x, pick);
			break;
		}
		_mm_storeu_si128((__m128i *)(void *)(d + i),
				 _mm256_cvtps_ph(z, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
	}
	if (i < n)
		portable_tail(COMM_FP16, op, d + i, a + i, b + i, n - i);
}
#endif

/* ---- bf16 with AVX2: 16 values per iteration. Interleaving zeros below each value widens
 * it (bf16 is the top half of an fp32) and packing back undoes the interleave lane by lane,
 * so no cross-lane shuffle is needed; rounding is f32_to_bf16's, in integer lanes. The
 * compiler's own vectorisation of the portable loop reached 0.45-0.51 of memcpy. ---- */
#ifdef HAVE_X86
__attribute__((target("avx2"))) static inline __m256i bf_narrow(__m256 z)
{
	const __m256i x = _mm256_castps_si256(z);
	const __m256i hi = _mm256_srli_epi32(x, 16);
	__m256i rne = _mm256_add_epi32(x, _mm256_set1_epi32(0x7fff));
	rne = _mm256_srli_epi32(_mm256_add_epi32(rne, _mm256_and_si256(hi, _mm256_set1_epi32(1))),
				16);
	const __m256i nan = _mm256_or_si256(hi, _mm256_set1_epi32(0x40));
	const __m256i isnan = _mm256_cmpgt_epi32(
		_mm256_and_si256(x, _mm256_set1_epi32(0x7fffffff)), _mm256_set1_epi32(0x7f800000));
	return _mm256_blendv_epi8(rne, nan, isnan);
}

__attribute__((target("avx2"))) static inline __m256 bf_op(enum comm_op op, __m256 x, __m256 y)
{
	__m256 pick;

	switch (op) {
	case COMM_SUM:
		return _mm256_add_ps(x, y);
	case COMM_PROD:
		return _mm256_mul_ps(x, y);
	case COMM_MAX: /* x wins when x > y or x is NaN: same as OP_FMAX */
		pick = _mm256_or_ps(_mm256_cmp_ps(x, y, _CMP_GT_OQ), _mm256_cmp_ps(x, x, _CMP_UNORD_Q));
		return _mm256_blendv_ps(y, x, pick);
	default:
		pick = _mm256_or_ps(_mm256_cmp_ps(x, y, _CMP_LT_OQ), _mm256_cmp_ps(x, x, _CMP_UNORD_Q));
		return _mm256_blendv_ps(y, x, pick);
	}
}

__attribute__((target("avx2"))) static void
bf_avx2(enum comm_op op, uint16_t *d, const uint16_t *a, const uint16_t *b, size_t n)
{
	const __m256i zero = _mm256_setzero_si256();
	size_t i = 0;

	for (; i + 16 <= n; i += 16) {
		__m256i va = _mm256_loadu_si256((const __m256i *)(const void *)(a + i));
		__m256i vb = _mm256_loadu_si256((const __m256i *)(const void *)(b + i));
		__m256 lo = bf_op(op, _mm256_castsi256_ps(_mm256_unpacklo_epi16(zero, va)),
				  _mm256_castsi256_ps(_mm256_unpacklo_epi16(zero, vb)));
		__m256 hi = bf_op(op, _mm256_castsi256_ps(_mm256_unpackhi_epi16(zero, va)),
				  _mm256_castsi256_ps(_mm256_unpackhi_epi16(zero, vb)));
		_mm256_storeu_si256((__m256i *)(void *)(d + i),
				    _mm256_packus_epi32(bf_narrow(lo), bf_narrow(hi)));
	}
	if (i < n)
		portable_tail(COMM_BF16, op, d + i, a + i, b + i, n - i);
}
#endif

/* 1: the portable paths (no F16C for fp16, no AVX2 for bf16). Tests flip it to compare. */
static int simd_off;

/* F16C and AVX with the OS saving the YMM state, read from CPUID directly: clang 14's
 * __builtin_cpu_supports does not know "f16c". Cached after the first call. */
int comm__cpu_has_f16c(void)
{
#ifdef HAVE_X86
	static int cached = -1;
	int v = __atomic_load_n(&cached, __ATOMIC_RELAXED);
	if (v >= 0)
		return v;
	unsigned a, b, c, d;
	v = 0;
	if (__get_cpuid(1, &a, &b, &c, &d) && (c & bit_F16C) && (c & bit_AVX) &&
	    (c & bit_OSXSAVE)) {
		unsigned lo, hi;
		__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
		v = (lo & 6) == 6;
	}
	__atomic_store_n(&cached, v, __ATOMIC_RELAXED);
	return v;
#else
	return 0;
#endif
}

int comm__reduce_f16c(int enable);
/* Test hook: enable 0 forces the portable fp16 and bf16 paths; returns whether F16C is now
 * used for fp16. */
int comm__reduce_f16c(int enable)
{
	__atomic_store_n(&simd_off, !enable, __ATOMIC_RELAXED);
	return enable && comm__cpu_has_f16c();
}

static int use_f16c(void)
{
	return !__atomic_load_n(&simd_off, __ATOMIC_RELAXED) && comm__cpu_has_f16c();
}

#ifdef HAVE_X86
static int use_avx2(void)
{
	return !__atomic_load_n(&simd_off, __ATOMIC_RELAXED) && __builtin_cpu_supports("avx2");
}
#endif

void comm__reduce3(enum comm_dtype t, enum comm_op op, void *dst, const void *a, const void *b,
		   size_t count)
{
	if (count == 0 || (unsigned)t >= COMM_DTYPE_COUNT || (unsigned)op >= COMM_OP_COUNT)
		return;
#ifdef HAVE_X86
	if (t == COMM_FP16 && use_f16c()) {
		hf_f16c(op, dst, a, b, count);
		return;
	}
	if (t == COMM_BF16 && use_avx2()) {
		bf_avx2(op, dst, a, b, count);
		return;
	}
#endif
	if (dst == a)
		k2_tab[t][op](dst, b, count);
	else if (dst == b)
		k2r_tab[t][op](dst, a, count);
	else
		k3_tab[t][op](dst, a, b, count);
}

void comm__reduce(enum comm_dtype t, enum comm_op op, void *dst, const void *src, size_t count)
{
	comm__reduce3(t, op, dst, dst, src, count);
}
