/* Reference data and expected results for `run -c 1`. Nothing here calls libcomm's
 * reduction or conversion code, so a bug there cannot hide behind the same bug here. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cmd/run/refdata.h"

/* Unsigned types take 0..8 instead of -4..4 (prod keeps +-1: -1 wraps to the largest value,
 * and products of wrapped values wrap alike), so max and min order them as the reference. */
static int is_unsigned(enum comm_dtype t)
{
	return t == COMM_UINT8 || t == COMM_UINT32 || t == COMM_UINT64;
}

double ref_value(enum comm_dtype t, uint64_t seed, int rank, size_t i, enum comm_op op)
{
	uint64_t h = seed * 0x9e3779b97f4a7c15ULL + (uint64_t)rank * 131 + (uint64_t)i * 31;
	h ^= h >> 29;
	if (op == COMM_PROD) {
		/* mostly +-1 and a few 2s: products stay exact in fp16 (|x| <= 2^10 for 64 ranks) */
		unsigned r = (unsigned)(h % 16);
		return r == 0 ? 2.0 : r < 4 ? -1.0 : 1.0;
	}
	/* -4..4: sums over up to 64 ranks stay within bf16's exact integers (256) */
	return (double)(int)(h % 9) - (is_unsigned(t) ? 0.0 : 4.0);
}

/* fp16 bits of an exact small integer (|v| < 2048), built from its binary form. */
static uint16_t small_int_fp16(double v)
{
	if (v == 0)
		return 0;
	uint16_t sign = v < 0 ? 0x8000 : 0;
	uint32_t m = (uint32_t)fabs(v);
	int e = 31 - __builtin_clz(m); /* m = 1.f * 2^e */
	uint32_t frac = (m - (1u << e)) << (10 - e);
	return (uint16_t)(sign | (uint32_t)(e + 15) << 10 | frac);
}

/* bf16 bits of an exact small integer: the top half of its fp32 bits, which is exact
 * because such a float has no bits set in the lower half. */
static uint16_t small_int_bf16(double v)
{
	float f = (float)v;
	uint32_t b;
	memcpy(&b, &f, sizeof(b));
	return (uint16_t)(b >> 16);
}

void ref_store(enum comm_dtype t, void *buf, size_t i, double v)
{
	int64_t iv = (int64_t)v;
	switch (t) {
	case COMM_INT8: ((uint8_t *)buf)[i] = (uint8_t)(uint64_t)iv; break;
	case COMM_INT32: ((uint32_t *)buf)[i] = (uint32_t)(uint64_t)iv; break;
	case COMM_INT64: ((int64_t *)buf)[i] = iv; break;
	case COMM_FP16: ((uint16_t *)buf)[i] = small_int_fp16(v); break;
	case COMM_BF16: ((uint16_t *)buf)[i] = small_int_bf16(v); break;
	case COMM_FP32: ((float *)buf)[i] = (float)v; break;
	case COMM_FP64: ((double *)buf)[i] = v; break;
	case COMM_INT16: ((uint16_t *)buf)[i] = (uint16_t)(uint64_t)iv; break;
	case COMM_UINT8: ((uint8_t *)buf)[i] = (uint8_t)(uint64_t)iv; break;
	case COMM_UINT32: ((uint32_t *)buf)[i] = (uint32_t)(uint64_t)iv; break;
	case COMM_UINT64: ((uint64_t *)buf)[i] = (uint64_t)iv; break;
	case COMM_DTYPE_COUNT: break;
	}
}

void ref_fill(enum comm_dtype t, enum comm_op op, uint64_t seed, int rank, void *buf,
	      size_t base, size_t count)
{
	for (size_t k = 0; k < count; k++)
		ref_store(t, buf, k, ref_value(t, seed, rank, base + k, op));
}

void ref_reduced(enum comm_dtype t, enum comm_op op, uint64_t seed, int nranks, size_t i,
		 void *out, size_t k)
{
	double acc = ref_value(t, seed, 0, i, op);
	for (int r = 1; r < nranks; r++) {
		double v = ref_value(t, seed, r, i, op);
		switch (op) {
		case COMM_SUM: acc += v; break;
		case COMM_PROD: acc *= v; break;
		case COMM_MAX: acc = v > acc ? v : acc; break;
		case COMM_MIN: acc = v < acc ? v : acc; break;
		case COMM_OP_COUNT: break;
		}
	}
	ref_store(t, out, k, acc);
}

size_t ref_compare(enum comm_dtype t, const void *got, const void *want, size_t count,
		   size_t *first)
{
	size_t sz = comm_dtype_size(t), bad = 0;
	const unsigned char *g = got, *w = want;
	*first = (size_t)-1;
	for (size_t i = 0; i < count; i++) {
		if (memcmp(g + i * sz, w + i * sz, sz)) {
			if (!bad)
				*first = i;
			bad++;
		}
	}
	return bad;
}

static double half_to_double(uint16_t h)
{
	int e = (h >> 10) & 0x1f, m = h & 0x3ff;
	double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(m + 1024, e - 25);
	return h & 0x8000 ? -v : v;
}

void ref_format(enum comm_dtype t, const void *buf, size_t i, char *out, size_t len)
{
	switch (t) {
	case COMM_INT8: snprintf(out, len, "%d", ((const int8_t *)buf)[i]); break;
	case COMM_INT32: snprintf(out, len, "%d", ((const int32_t *)buf)[i]); break;
	case COMM_INT64: snprintf(out, len, "%lld", (long long)((const int64_t *)buf)[i]); break;
	case COMM_FP16: snprintf(out, len, "%g", half_to_double(((const uint16_t *)buf)[i])); break;
	case COMM_BF16: {
		uint32_t b = (uint32_t)((const uint16_t *)buf)[i] << 16;
		float f;
		memcpy(&f, &b, sizeof(f));
		snprintf(out, len, "%g", (double)f);
		break;
	}
	case COMM_FP32: snprintf(out, len, "%g", (double)((const float *)buf)[i]); break;
	case COMM_FP64: snprintf(out, len, "%g", ((const double *)buf)[i]); break;
	case COMM_INT16: snprintf(out, len, "%d", ((const int16_t *)buf)[i]); break;
	case COMM_UINT8: snprintf(out, len, "%u", ((const uint8_t *)buf)[i]); break;
	case COMM_UINT32: snprintf(out, len, "%u", ((const uint32_t *)buf)[i]); break;
	case COMM_UINT64:
		snprintf(out, len, "%llu", (unsigned long long)((const uint64_t *)buf)[i]);
		break;
	case COMM_DTYPE_COUNT: snprintf(out, len, "?"); break;
	}
}
