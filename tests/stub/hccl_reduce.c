/* libhccl stand-in: data types, which collectives take them, and the reductions. Written
 * apart from libcomm's kernels on purpose: hcclctl checks results with its own code, and a
 * stand-in sharing that code could not disagree with it. */
#include <math.h>
#include <string.h>

#include "tests/stub/hccl_internal.h"

struct dtype {
	const char *name;
	size_t size;
	int reduce; /* HcclAllReduce / HcclReduceScatter take it */
	int prod;   /* ... with HCCL_REDUCE_PROD too */
};

/* HCCL's parameter check (the open-source HCCL's HcomCheckDataType and, for Atlas A2,
 * HcomCheckReduceDataType) takes every type of the enum for a reduction and refuses only
 * prod on int16 and bf16; the documentation's narrower support table is what the device
 * computes correctly, not what the call refuses. int128 is the stand-in's choice: refused. */
static const struct dtype dtypes[HCCL_DATA_TYPE_RESERVED] = {
	[HCCL_DATA_TYPE_INT8] = { "int8", 1, 1, 1 },
	[HCCL_DATA_TYPE_INT16] = { "int16", 2, 1, 0 },
	[HCCL_DATA_TYPE_INT32] = { "int32", 4, 1, 1 },
	[HCCL_DATA_TYPE_FP16] = { "fp16", 2, 1, 1 },
	[HCCL_DATA_TYPE_FP32] = { "fp32", 4, 1, 1 },
	[HCCL_DATA_TYPE_INT64] = { "int64", 8, 1, 1 },
	[HCCL_DATA_TYPE_UINT64] = { "uint64", 8, 1, 1 },
	[HCCL_DATA_TYPE_UINT8] = { "uint8", 1, 1, 1 },
	[HCCL_DATA_TYPE_UINT16] = { "uint16", 2, 1, 1 },
	[HCCL_DATA_TYPE_UINT32] = { "uint32", 4, 1, 1 },
	[HCCL_DATA_TYPE_FP64] = { "fp64", 8, 1, 1 },
	[HCCL_DATA_TYPE_BFP16] = { "bfp16", 2, 1, 0 },
	[HCCL_DATA_TYPE_INT128] = { "int128", 16, 0, 0 },
};

static const char *const colls[STUB_COLL_COUNT] = {
	"HcclAllReduce", "HcclAllGather", "HcclReduceScatter", "HcclBroadcast", "HcclAlltoAll",
	"HcclSend/HcclRecv", "HcclBarrier",
};

const char *stubhccl_coll_name(int coll)
{
	return coll >= 0 && coll < STUB_COLL_COUNT ? colls[coll] : "?";
}

size_t stubhccl_dtype_size(int dtype)
{
	return dtype >= 0 && dtype < HCCL_DATA_TYPE_RESERVED ? dtypes[dtype].size : 0;
}

const char *stubhccl_dtype_name(int dtype)
{
	return stubhccl_dtype_size(dtype) ? dtypes[dtype].name : "?";
}

HcclResult stubhccl_check_types(int coll, int dtype, int op)
{
	int reducing = coll == STUB_ALLREDUCE || coll == STUB_REDUCESCATTER;

	if (!stubhccl_dtype_size(dtype))
		return HCCL_E_PARA;
	if (reducing && (op < 0 || op >= HCCL_REDUCE_RESERVED))
		return HCCL_E_PARA;
	if (dtype == HCCL_DATA_TYPE_INT128)
		return HCCL_E_NOT_SUPPORT;
	if (reducing && (!dtypes[dtype].reduce || (op == HCCL_REDUCE_PROD && !dtypes[dtype].prod)))
		return HCCL_E_NOT_SUPPORT;
	return HCCL_SUCCESS;
}

static float f16_to_f32(uint16_t h)
{
	uint32_t sign = (uint32_t)(h & 0x8000) << 16, e = (h >> 10) & 0x1f, m = h & 0x3ff, x;
	float f;

	if (e == 0x1f) {
		x = sign | 0x7f800000u | (m << 13);
	} else if (e == 0) {
		f = ldexpf((float)m, -24);
		return sign ? -f : f;
	} else {
		x = sign | ((e + 112) << 23) | (m << 13);
	}
	memcpy(&f, &x, 4);
	return f;
}

static uint16_t f32_to_f16(float f)
{
	uint32_t x, sign, e, m, h, rem;
	int ex;

	memcpy(&x, &f, 4);
	sign = (x >> 16) & 0x8000;
	e = (x >> 23) & 0xff;
	m = x & 0x7fffff;
	if (e == 0xff)
		return (uint16_t)(sign | 0x7c00 | (m ? 0x200 | (m >> 13) : 0));
	ex = (int)e - 112;
	if (ex >= 31)
		return (uint16_t)(sign | 0x7c00);
	if (ex <= 0) { /* a subnormal half, or zero */
		int shift = 14 - ex;
		uint32_t mid;

		if (shift > 24)
			return (uint16_t)sign;
		m |= 0x800000;
		h = m >> shift;
		rem = m & ((1u << shift) - 1);
		mid = 1u << (shift - 1);
		if (rem > mid || (rem == mid && (h & 1)))
			h++;
		return (uint16_t)(sign | h);
	}
	h = ((uint32_t)ex << 10) | (m >> 13);
	rem = m & 0x1fff;
	if (rem > 0x1000 || (rem == 0x1000 && (h & 1)))
		h++; /* a carry into the exponent rounds up to the next binade or Inf, as it should */
	return (uint16_t)(sign | h);
}

static float bf16_to_f32(uint16_t b)
{
	uint32_t x = (uint32_t)b << 16;
	float f;

	memcpy(&f, &x, 4);
	return f;
}

static uint16_t f32_to_bf16(float f)
{
	uint32_t x;

	memcpy(&x, &f, 4);
	if ((x & 0x7fffffffu) > 0x7f800000u)
		return (uint16_t)((x >> 16) | 0x40);
	return (uint16_t)((x + 0x7fffu + ((x >> 16) & 1)) >> 16);
}

static double op_f(int op, double a, double b)
{
	if (op == HCCL_REDUCE_SUM)
		return a + b;
	if (op == HCCL_REDUCE_PROD)
		return a * b;
	if (isnan(a) || isnan(b))
		return isnan(a) ? a : b;
	return op == HCCL_REDUCE_MAX ? (b > a ? b : a) : (b < a ? b : a);
}

/* The common case on its own, in float, so that it vectorises (the tests move megabytes of
 * fp32 sums through here; -O2's cost model leaves the loop scalar): the same bits as op_f's
 * double sum rounded to float, since double carries more than 2 * 24 + 2 bits and rounding
 * a sum twice is then innocuous. */
__attribute__((optimize("O3"))) static void f32_sum(float *restrict d, const float *restrict s,
						     size_t n)
{
	for (size_t i = 0; i < n; i++)
		d[i] = d[i] + s[i];
}

/* Integers: sum and prod wrap modulo 2^bits (done unsigned, so without undefined overflow). */
#define INT_LOOP(T, U)                                                                  \
	do {                                                                            \
		T *d = acc;                                                             \
		const T *s = src;                                                       \
		for (size_t i = 0; i < n; i++) {                                        \
			if (op == HCCL_REDUCE_SUM)                                      \
				d[i] = (T)(U)((U)d[i] + (U)s[i]);                       \
			else if (op == HCCL_REDUCE_PROD)                                \
				d[i] = (T)(U)((U)d[i] * (U)s[i]);                       \
			else if (op == HCCL_REDUCE_MAX)                                 \
				d[i] = s[i] > d[i] ? s[i] : d[i];                       \
			else                                                            \
				d[i] = s[i] < d[i] ? s[i] : d[i];                       \
		}                                                                       \
	} while (0)

void stubhccl_reduce(int dtype, int op, void *acc, const void *src, size_t n)
{
	switch (dtype) {
	case HCCL_DATA_TYPE_INT8: INT_LOOP(int8_t, uint32_t); break;
	case HCCL_DATA_TYPE_INT16: INT_LOOP(int16_t, uint32_t); break;
	case HCCL_DATA_TYPE_INT32: INT_LOOP(int32_t, uint32_t); break;
	case HCCL_DATA_TYPE_INT64: INT_LOOP(int64_t, uint64_t); break;
	case HCCL_DATA_TYPE_UINT8: INT_LOOP(uint8_t, uint32_t); break;
	case HCCL_DATA_TYPE_UINT16: INT_LOOP(uint16_t, uint32_t); break;
	case HCCL_DATA_TYPE_UINT32: INT_LOOP(uint32_t, uint32_t); break;
	case HCCL_DATA_TYPE_UINT64: INT_LOOP(uint64_t, uint64_t); break;
	case HCCL_DATA_TYPE_FP64: {
		double *d = acc;
		const double *s = src;

		for (size_t i = 0; i < n; i++)
			d[i] = op_f(op, d[i], s[i]);
		break;
	}
	case HCCL_DATA_TYPE_FP32: {
		float *d = acc;
		const float *s = src;

		if (op == HCCL_REDUCE_SUM)
			f32_sum(d, s, n);
		else
			for (size_t i = 0; i < n; i++)
				d[i] = (float)op_f(op, d[i], s[i]);
		break;
	}
	case HCCL_DATA_TYPE_FP16:
	case HCCL_DATA_TYPE_BFP16: {
		int half = dtype == HCCL_DATA_TYPE_FP16;
		float (*widen)(uint16_t) = half ? f16_to_f32 : bf16_to_f32;
		uint16_t (*narrow)(float) = half ? f32_to_f16 : f32_to_bf16;
		uint16_t *d = acc;
		const uint16_t *s = src;

		for (size_t i = 0; i < n; i++)
			d[i] = narrow((float)op_f(op, widen(d[i]), widen(s[i])));
		break;
	}
	default:
		break; /* stubhccl_check_types let no other type through */
	}
}

/* A finite v becomes v + 1 + |v|: different, and far enough to pass no tolerance. */
static double away(double v)
{
	return v + 1 + fabs(v);
}

void stubhccl_corrupt(int dtype, void *buf, size_t idx)
{
	char *p = (char *)buf + idx * stubhccl_dtype_size(dtype);
	uint16_t h;
	float f;
	double d;

	switch (dtype) {
	case HCCL_DATA_TYPE_FP32:
		memcpy(&f, p, 4);
		f = (float)away(f);
		memcpy(p, &f, 4);
		break;
	case HCCL_DATA_TYPE_FP64:
		memcpy(&d, p, 8);
		d = away(d);
		memcpy(p, &d, 8);
		break;
	case HCCL_DATA_TYPE_FP16:
	case HCCL_DATA_TYPE_BFP16:
		memcpy(&h, p, 2);
		f = dtype == HCCL_DATA_TYPE_FP16 ? f16_to_f32(h) : bf16_to_f32(h);
		f = (float)away(f);
		h = dtype == HCCL_DATA_TYPE_FP16 ? f32_to_f16(f) : f32_to_bf16(f);
		memcpy(p, &h, 2);
		break;
	default: /* integers: the lowest byte is the least significant (x86, arm64 LE) */
		p[0] = (char)(p[0] + 1);
		break;
	}
}
