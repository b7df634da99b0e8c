/* Compressed allreduce: block-quantised int8 with one fp32 max-abs scale per block of
 * COMM_COMPRESS_BLOCK elements, so a quarter of fp32's bytes (plus 1.6 % of scales) cross the
 * network, for the sum of fp32, fp16 and bf16.
 *
 * Error does not compound: every contribution is quantised exactly once and every sum once.
 * The vector is cut at block boundaries into N runs of blocks, run j owned by rank j.
 *  1. reduce-scatter, direct: each rank quantises its input's runs for the other ranks and
 *     sends run j to rank j; rank j sums the N contributions to its run in fp32, in rank
 *     order, its own taken exactly (not quantised);
 *  2. allgather: each owner quantises its sum once and sends those bytes to every rank,
 *     directly (one step) or around the ring (N-1 steps, one flow per link);
 *  3. every rank, the owner included, dequantises the same bytes: identical results.
 * Per rank that moves 2(N-1)/N of the packed vector each way, against 2(N-1)/N of the fp32
 * vector for the uncompressed ring.
 *
 * Kernels: blocked loops over fixed-size blocks that GCC's -O2 vectoriser takes, built for
 * AVX2 too and picked at load time (target_clones), as reduce.c does; F16C for fp16 where
 * the CPU has it. The block's largest magnitude is found on the float bits as integers (for
 * non-negative floats the orders agree), which vectorises where a float max with NaN
 * semantics would not, and tells Inf and NaN apart from finite values in the same pass. */
#include <math.h>
#include <string.h>

#include "libcomm/algo.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <immintrin.h>
#define HAVE_X86 1
#endif

#define B COMM_COMPRESS_BLOCK
#define ALIGN 64

#if defined(HAVE_X86) && !defined(__clang__)
#define KERNEL __attribute__((noinline, target_clones("avx2", "default")))
#elif defined(HAVE_X86)
#define KERNEL __attribute__((target_clones("avx2", "default")))
#else
#define KERNEL __attribute__((noinline))
#endif

static const char *const compress_names[COMM_COMPRESS_COUNT] = {"none", "int8"};

const char *comm_compress_name(enum comm_compress z)
{
	return (unsigned)z < COMM_COMPRESS_COUNT ? compress_names[z] : "?";
}

int comm_compress_parse(const char *s)
{
	for (int i = 0; s && i < COMM_COMPRESS_COUNT; i++)
		if (!strcmp(s, compress_names[i]))
			return i;
	return -1;
}



#ifdef HAVE_X86
__attribute__((target("f16c,avx"))) static void h2f_f16c(float *d, const uint16_t *s, size_t n)
{
	size_t i = 0;
	for (; i + 8 <= n; i += 8)
		_mm256_storeu_ps(d + i, _mm256_cvtph_ps(_mm_loadu_si128(
						(const __m128i *)(const void *)(s + i))));
	for (; i < n; i++)
		d[i] = comm__fp16_to_fp32(s[i]);
}

__attribute__((target("f16c,avx"))) static void f2h_f16c(uint16_t *d, const float *s, size_t n)
{
	size_t i = 0;
	for (; i + 8 <= n; i += 8)
		_mm_storeu_si128((__m128i *)(void *)(d + i),
				 _mm256_cvtps_ph(_mm256_loadu_ps(s + i),
						 _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
	for (; i < n; i++)
		d[i] = comm__fp32_to_fp16(s[i]);
}
#endif

/* Elements per inner loop: a known trip count, which GCC's -O2 ("very cheap") vectoriser
 * needs before it vectorises at all (reduce.c's BLK); the rest of a block goes scalar. */
#define VL 32
#define LOOP(STMT) COMM__LOOP(VL, STMT)

/* ---- widening and narrowing one block (at most B elements) ---- */

KERNEL static void bf2f(float *restrict d, const uint16_t *restrict s, size_t n)
{
	LOOP(d[i] = comm__bits_f32((uint32_t)s[i] << 16))
}

static inline uint16_t f32_to_bf16(uint32_t x)
{
	uint32_t rne = (x + 0x7fff + ((x >> 16) & 1)) >> 16;
	return (uint16_t)((x & 0x7fffffff) > 0x7f800000 ? (x >> 16) | 0x40 : rne);
}

/* Round to nearest even, NaN kept quiet: the same as reduce.c's. */
KERNEL static void f2bf(uint16_t *restrict d, const float *restrict s, size_t n)
{
	LOOP(d[i] = f32_to_bf16(comm__f32_bits(s[i])))
}

static void widen(enum comm_dtype t, float *d, const void *s, size_t n)
{
	if (t == COMM_FP32) {
		memcpy(d, s, n * sizeof(float));
	} else if (t == COMM_BF16) {
		bf2f(d, s, n);
	} else {
#ifdef HAVE_X86
		if (comm__cpu_has_f16c()) {
			h2f_f16c(d, s, n);
			return;
		}
#endif
		const uint16_t *h = s;
		for (size_t i = 0; i < n; i++)
			d[i] = comm__fp16_to_fp32(h[i]);
	}
}

static void narrow(enum comm_dtype t, void *d, const float *s, size_t n)
{
	if (t == COMM_FP32) {
		memcpy(d, s, n * sizeof(float));
	} else if (t == COMM_BF16) {
		f2bf(d, s, n);
	} else {
#ifdef HAVE_X86
		if (comm__cpu_has_f16c()) {
			f2h_f16c(d, s, n);
			return;
		}
#endif
		uint16_t *h = d;
		for (size_t i = 0; i < n; i++)
			h[i] = comm__fp32_to_fp16(s[i]);
	}
}

/* ---- the kernels on one block ---- */

/* The largest |x| as float bits: above 0x7f7fffff means an Inf or a NaN is in the block. */
KERNEL static uint32_t maxabs_bits(const float *restrict x, size_t n)
{
	uint32_t m = 0;
	size_t i0 = 0;
	for (; i0 + VL <= n; i0 += VL) {
		uint32_t mb[VL];
		for (size_t j = 0; j < VL; j++)
			mb[j] = comm__f32_bits(x[i0 + j]) & 0x7fffffff;
		for (size_t j = 0; j < VL; j++)
			m = mb[j] > m ? mb[j] : m;
	}
	for (size_t i = i0; i < n; i++) {
		uint32_t a = comm__f32_bits(x[i]) & 0x7fffffff;
		m = a > m ? a : m;
	}
	return m;
}

/* q = round(x * inv), ties away from zero. Finite blocks only: |x * inv| <= 127 (+ an ulp),
 * so no clamp is needed; copysignf keeps the loop free of branches. */
static inline int8_t q8(float x, float inv)
{
	float v = x * inv;
	return (int8_t)(int)(v + copysignf(0.5f, v));
}

KERNEL static void quant(int8_t *restrict q, const float *restrict x, float inv,
			 size_t n){LOOP(q[i] = q8(x[i], inv))}

KERNEL static void dequant(float *restrict d, const int8_t *restrict q, float scale,
			   size_t n){LOOP(d[i] = (float)q[i] * scale)}

KERNEL static void dequant_add(float *restrict d, const int8_t *restrict q, float scale,
			       size_t n){LOOP(d[i] += (float)q[i] * scale)}

KERNEL static void add_f32(float *restrict d, const float *restrict s, size_t n)
{
	LOOP(d[i] += s[i])
}

static size_t nblocks(size_t count)
{
	return (count + B - 1) / B;
}

size_t comm__q8_size(size_t count)
{
	return nblocks(count) * sizeof(float) + count;
}

void comm__q8_pack(enum comm_dtype t, const void *src, size_t count, void *packed)
{
	size_t es = comm_dtype_size(t), nb = nblocks(count);
	unsigned char *sc = packed;
	int8_t *q = (int8_t *)(sc + nb * sizeof(float));
	float tmp[B];

	for (size_t k = 0; k < nb; k++) {
		size_t o = k * B, n = count - o < B ? count - o : B;
		const float *x = tmp;
		if (t == COMM_FP32)
			x = (const float *)((const char *)src + o * es);
		else
			widen(t, tmp, (const char *)src + o * es, n);
		uint32_t m = maxabs_bits(x, n);
		float scale, inv;
		if (m > 0x7f7fffff) { /* Inf or NaN: the block is NaN */
			scale = comm__bits_f32(0x7fc00000);
			inv = 0.0f;
		} else {
			float mx = comm__bits_f32(m);
			scale = mx / 127.0f;
			inv = mx > 0.0f ? 127.0f / mx : 0.0f;
		}
		memcpy(sc + k * sizeof(float), &scale, sizeof(float));
		if (inv > 0.0f)
			quant(q + o, x, inv, n);
		else /* zero, or not finite */
			memset(q + o, 0, n);
	}
}

static float scale_at(const void *packed, size_t k)
{
	float s;
	memcpy(&s, (const unsigned char *)packed + k * sizeof(float), sizeof(s));
	return s;
}

void comm__q8_unpack(const void *packed, size_t count, enum comm_dtype t, void *dst)
{
	size_t es = comm_dtype_size(t), nb = nblocks(count);
	const int8_t *q = (const int8_t *)((const unsigned char *)packed + nb * sizeof(float));
	float tmp[B];

	for (size_t k = 0; k < nb; k++) {
		size_t o = k * B, n = count - o < B ? count - o : B;
		if (t == COMM_FP32) {
			dequant((float *)(void *)((char *)dst + o * es), q + o, scale_at(packed, k),
				n);
		} else {
			dequant(tmp, q + o, scale_at(packed, k), n);
			narrow(t, (char *)dst + o * es, tmp, n);
		}
	}
}

void comm__q8_accumulate(float *acc, const void *packed, size_t count)
{
	size_t nb = nblocks(count);
	const int8_t *q = (const int8_t *)((const unsigned char *)packed + nb * sizeof(float));

	for (size_t k = 0; k < nb; k++) {
		size_t o = k * B, n = count - o < B ? count - o : B;
		dequant_add(acc + o, q + o, scale_at(packed, k), n);
	}
}

/* acc += src (count elements of t), widened to fp32 a block at a time */
static void accumulate_exact(float *acc, enum comm_dtype t, const void *src, size_t count)
{
	size_t es = comm_dtype_size(t);
	float tmp[B];

	if (t == COMM_FP32) {
		add_f32(acc, src, count);
		return;
	}
	for (size_t o = 0; o < count; o += B) {
		size_t n = count - o < B ? count - o : B;
		widen(t, tmp, (const char *)src + o * es, n);
		add_f32(acc + o, tmp, n);
	}
}

/* ---- the algorithm ---- */

static int mod(int a, int n)
{
	return ((a % n) + n) % n;
}

/* Rank j's run: elements [off, off + len) = blocks [b0, b0 + nb) of the vector, and where
 * its packed form sits in the packed vector (runs before it are whole blocks). */
struct run {
	size_t off, len, poff, plen;
};

static struct run run_of(size_t count, int n, int j)
{
	size_t nb = nblocks(count), q = nb / (size_t)n, r = nb % (size_t)n, jj = (size_t)j;
	size_t b0 = jj * q + (jj < r ? jj : r), bn = q + (jj < r);
	struct run u = {.off = b0 * B, .poff = b0 * (B + sizeof(float))};

	if (bn) /* the last run with blocks ends at count */
		u.len = (b0 + bn) * B > count ? count - u.off : bn * B;
	u.plen = bn * sizeof(float) + u.len;
	return u;
}

static size_t up(size_t v)
{
	return (v + ALIGN - 1) / ALIGN * ALIGN;
}


/* One direct step, BATCH offsets per exchange call, pairing "send to r+o" with "receive
 * from r-o" so partners are always in the same call. The plan says what goes to a peer
 * (plan_send) and where a peer's bytes land (plan_recv) in either phase. */
struct direct_plan {
	size_t count;
	unsigned char *q, *slots;
	size_t slot;
	int phase; /* 0: contributions, 1: sums */
	int r, n;  /* this rank and the world size, set by direct() */
};

static void plan_send(const struct direct_plan *p, int r, int n, int to, const void **b, size_t *l)
{
	struct run u = run_of(p->count, n, p->phase ? r : to);
	*b = p->q + u.poff;
	*l = u.plen;
}

static void plan_recv(const struct direct_plan *p, int r, int n, int from, void **b, size_t *l)
{
	if (p->phase == 0) {
		*b = p->slots + (size_t)(from < r ? from : from - 1) * p->slot;
		*l = run_of(p->count, n, r).plen;
	} else {
		struct run u = run_of(p->count, n, from);
		*b = p->q + u.poff;
		*l = u.plen;
	}
}

static void plan_bufs(const void *arg, int to, int from, const void **sb, size_t *sl, void **rb,
		      size_t *rl)
{
	const struct direct_plan *p = arg;
	plan_send(p, p->r, p->n, to, sb, sl);
	plan_recv(p, p->r, p->n, from, rb, rl);
}

static int direct(struct comm__ctx *x, int step, struct direct_plan *p)
{
	p->r = x->rank;
	p->n = x->nranks;
	return comm__direct(x, step, plan_bufs, p);
}

/* The owners' packed sums around the ring: at step s send run r-s, receive run r-s-1. */
static int ring_gather(struct comm__ctx *x, size_t count, unsigned char *q)
{
	int n = x->nranks, r = x->rank;

	for (int s = 0; s < n - 1; s++) {
		struct run a = run_of(count, n, mod(r - s, n)),
			   b = run_of(count, n, mod(r - s - 1, n));
		int rc = comm__sendrecv(x, 1 + s, mod(r + 1, n), q + a.poff, a.plen, mod(r - 1, n),
					q + b.poff, b.plen);
		if (rc)
			return rc;
	}
	return 0;
}

int comm__allreduce_q8(struct comm__ctx *x, const void *send, void *recv, size_t count,
		       enum comm_dtype t, int ring)
{
	int n = x->nranks, r = x->rank, rc;
	size_t es = comm_dtype_size(t);

	if (t != COMM_FP32 && t != COMM_FP16 && t != COMM_BF16)
		return COMM_E_INVAL;
	if (comm__alone(x, send, recv, count * es))
		return 0;
	struct run me = run_of(count, n, r);
	size_t qlen = up(comm__q8_size(count)), slot = up(me.plen);
	if ((rc = x->need_scratch(x, qlen + slot * (size_t)(n - 1) + up(me.len * sizeof(float)))))
		return rc;
	struct direct_plan p = {.count = count, .q = x->scratch, .slot = slot};
	p.slots = p.q + qlen;
	float *acc = (float *)(void *)(p.slots + slot * (size_t)(n - 1));

	/* 1. every other rank's run of our input, quantised once, to its owner */
	for (int j = 0; j < n; j++) {
		struct run u = run_of(count, n, j);
		if (j != r && u.len)
			comm__q8_pack(t, (const char *)send + u.off * es, u.len, p.q + u.poff);
	}
	if ((rc = direct(x, 0, &p)))
		return rc;
	/* the N contributions to our run, summed in fp32 in rank order, ours exact */
	if (me.len) {
		memset(acc, 0, me.len * sizeof(float));
		for (int j = 0; j < n; j++) {
			if (j == r)
				accumulate_exact(acc, t, (const char *)send + me.off * es, me.len);
			else
				comm__q8_accumulate(
					acc, p.slots + (size_t)(j < r ? j : j - 1) * slot, me.len);
		}
		comm__q8_pack(COMM_FP32, acc, me.len, p.q + me.poff);
	}
	/* 2. the quantised sums to every rank */
	p.phase = 1;
	rc = ring ? ring_gather(x, count, p.q) : direct(x, 1, &p);
	if (rc)
		return rc;
	/* 3. the same bytes dequantised on every rank (recv is written only now: in place is
	 * safe) */
	for (int j = 0; j < n; j++) {
		struct run u = run_of(count, n, j);
		if (u.len)
			comm__q8_unpack(p.q + u.poff, u.len, t, (char *)recv + u.off * es);
	}
	return 0;
}
