/* Every collective x algorithm x world size x count x dtype/op, in place and out of place, on
 * the in-memory N-thread harness, against a reference computed here with plain loops and
 * compared byte for byte on every rank. Inputs make float results exact in any order (small
 * integers, powers of two), so one reference fits every algorithm. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#else
#define ASAN_POISON_MEMORY_REGION(p, n) ((void)(p), (void)(n))
#define ASAN_UNPOISON_MEMORY_REGION(p, n) ((void)(p), (void)(n))
#endif

#include "libcomm/algo.h"
#include "tests/unit/mock_exchange.h"

static const int worlds[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 16};
#define NWORLDS (sizeof(worlds) / sizeof(worlds[0]))

static const enum comm_algo algos[] = {COMM_ALGO_RING, COMM_ALGO_RHD, COMM_ALGO_MESH};

struct combo {
	enum comm_dtype t;
	enum comm_op op;
};

/* every dtype with sum; all ops on int32 and fp32 */
static const struct combo reducing[] = {
	{COMM_INT8, COMM_SUM},	{COMM_INT32, COMM_SUM},	 {COMM_INT64, COMM_SUM},
	{COMM_FP16, COMM_SUM},	{COMM_BF16, COMM_SUM},	 {COMM_FP32, COMM_SUM},
	{COMM_FP64, COMM_SUM},	{COMM_INT32, COMM_PROD}, {COMM_INT32, COMM_MAX},
	{COMM_INT32, COMM_MIN}, {COMM_FP32, COMM_PROD},	 {COMM_FP32, COMM_MAX},
	{COMM_FP32, COMM_MIN},
};
#define NREDUCING (sizeof(reducing) / sizeof(reducing[0]))

/* the other dtype/op pairs, on a smaller sweep */
static const struct combo more[] = {
	{COMM_INT8, COMM_PROD},	 {COMM_INT8, COMM_MAX}, {COMM_INT64, COMM_MIN},
	{COMM_INT64, COMM_PROD}, {COMM_FP64, COMM_MAX}, {COMM_FP64, COMM_PROD},
	{COMM_FP16, COMM_MIN},	 {COMM_FP16, COMM_MAX}, {COMM_BF16, COMM_MAX},
	{COMM_BF16, COMM_MIN},
};

static size_t esz(enum comm_dtype t)
{
	static const size_t s[] = {1, 4, 8, 2, 2, 4, 8};
	return s[t];
}

static uint64_t hash(uint64_t a, uint64_t b)
{
	uint64_t h = (a << 40 ^ b) * 0x9e3779b97f4a7c15ull;
	return h ^ (h >> 29);
}

/* ---- values and an encoder independent of libcomm ---- */

/* Exact fp16 encoding of an integer |v| <= 2048. */
static uint16_t enc_fp16(int v)
{
	uint16_t s = v < 0 ? 0x8000 : 0;
	unsigned m = (unsigned)(v < 0 ? -v : v);
	int e = 0;

	if (!m)
		return s;
	while ((m >> e) > 1)
		e++;
	return (uint16_t)(s | (unsigned)(e + 15) << 10 | ((m << (10 - e)) & 0x3ff));
}

static uint16_t enc_bf16(double v)
{
	float f = (float)v;
	uint32_t u;

	memcpy(&u, &f, 4);
	return (uint16_t)(u >> 16); /* exact for the small values used */
}

/* The value rank r contributes at element i, as a double (exact in every dtype used). */
static double val(enum comm_dtype t, enum comm_op op, int r, size_t i)
{
	uint64_t h = hash((uint64_t)r + 1, i);

	switch (t) {
	case COMM_INT8:
		return (double)(int8_t)h;
	case COMM_INT32:
		return (double)(int32_t)h;
	case COMM_INT64:
		return (double)(int64_t)(h >> 12); /* exact in a double too */
	default:
		break;
	}
	if (op == COMM_PROD) {
		static const double p[] = {1, -1, 2, -2, 0.5, -0.5, 1, 1};
		return p[h % 8];
	}
	if (op == COMM_MAX || op == COMM_MIN)
		return (double)((int)(h % 257) - 128) / 2;
	return (double)((int)(h % 17) - 8);
}

static void put(enum comm_dtype t, void *buf, size_t i, double v, int64_t iv)
{
	switch (t) {
	case COMM_INT8:
		((int8_t *)buf)[i] = (int8_t)(uint8_t)(uint64_t)iv;
		break;
	case COMM_INT32:
		((int32_t *)buf)[i] = (int32_t)(uint32_t)(uint64_t)iv;
		break;
	case COMM_INT64:
		((int64_t *)buf)[i] = iv;
		break;
	case COMM_FP16:
		/* integers, or halves (max/min data): 2v with the exponent one lower */
		((uint16_t *)buf)[i] =
			v == (int)v ? enc_fp16((int)v) : (uint16_t)(enc_fp16((int)(v * 2)) - 0x400);
		break;
	case COMM_BF16:
		((uint16_t *)buf)[i] = enc_bf16(v);
		break;
	case COMM_FP32:
		((float *)buf)[i] = (float)v;
		break;
	default:
		((double *)buf)[i] = v;
		break;
	}
}

static void put_val(enum comm_dtype t, enum comm_op op, void *buf, size_t i, int r, size_t e)
{
	double v = val(t, op, r, e);
	put(t, buf, i, v, (int64_t)v);
}

/* Reduction over ranks of element e, in the test's own arithmetic (wrapping for integers). */
static void put_reduced(enum comm_dtype t, enum comm_op op, void *buf, size_t i, int n, size_t e)
{
	double acc = val(t, op, 0, e);
	uint64_t iacc = (uint64_t)(int64_t)acc;

	for (int r = 1; r < n; r++) {
		double v = val(t, op, r, e);
		uint64_t iv = (uint64_t)(int64_t)v;
		switch (op) {
		case COMM_SUM:
			acc += v;
			iacc += iv;
			break;
		case COMM_PROD:
			acc *= v;
			iacc *= iv;
			break;
		case COMM_MAX:
			acc = v > acc ? v : acc;
			iacc = (uint64_t)(int64_t)acc;
			break;
		default:
			acc = v < acc ? v : acc;
			iacc = (uint64_t)(int64_t)acc;
			break;
		}
	}
	put(t, buf, i, acc, (int64_t)iacc);
}

/* ---- one run ---- */

struct run;
struct rank_io {
	struct run *run;
	unsigned char *in;  /* pristine input, to check out-of-place sends are untouched */
	unsigned char *buf; /* in-place: the one buffer; else the send buffer */
	unsigned char *out; /* out of place: the recv buffer */
	size_t in_bytes, out_bytes, buf_bytes;
	const void *send;
	void *recv;
};

struct run {
	enum comm_coll coll;
	enum comm_algo algo;
	enum comm_dtype t;
	enum comm_op op;
	size_t count;
	int n, root, inplace; /* inplace: 0 no, 1 send == recv, 2 NCCL style (block r) */
	struct rank_io io[MOCK_MAX];
};

static struct mock_world world;

/* ---- buffers kept from run to run ----
 * A fresh malloc of megabytes is fresh pages: test_large's runs (up to 230 MB each) spent more
 * time in page faults and the memsets that touch them than in the collectives. Each rank's
 * buffers grow and are reused; the bytes past what a run asked for are poisoned, so under ASan
 * an access past a buffer is still reported at its first byte, as with a buffer of its own. */
struct keep {
	unsigned char *p;
	size_t cap;
};

/* rank r's in, buf and out; the reference is [MOCK_MAX][0] */
static struct keep kept[MOCK_MAX + 1][3];

/* k's buffer with at least len bytes addressable and the rest of it poisoned; k owns it */
static unsigned char *keep_get(struct keep *k, size_t len)
{
	if (len > k->cap) {
		ASAN_UNPOISON_MEMORY_REGION(k->p, k->cap);
		free(k->p);
		k->p = malloc(len);
		assert_non_null(k->p);
		k->cap = len;
	}
	ASAN_UNPOISON_MEMORY_REGION(k->p, len);
	ASAN_POISON_MEMORY_REGION(k->p + len, k->cap - len);
	return k->p;
}

static void keep_release(void)
{
	for (size_t r = 0; r < sizeof(kept) / sizeof(kept[0]); r++)
		for (int i = 0; i < 3; i++) {
			ASAN_UNPOISON_MEMORY_REGION(kept[r][i].p, kept[r][i].cap);
			free(kept[r][i].p);
			kept[r][i].p = NULL;
			kept[r][i].cap = 0;
		}
}

static int run_rank(struct comm__ctx *x, void *arg)
{
	struct rank_io *io = arg;
	struct run *ru = io->run;

	return comm__run(x, ru->coll, ru->algo, io->send, io->recv, ru->count, ru->t, ru->op,
			 ru->root);
}

static const char *describe(const struct run *ru)
{
	static char s[200];

	int k = snprintf(s, sizeof(s), "%s/%s n=%d count=%zu %s %s root=%d inplace=%d",
			 comm_coll_name(ru->coll), comm_algo_name(ru->algo), ru->n, ru->count,
			 comm_dtype_name(ru->t), comm_op_name(ru->op), ru->root, ru->inplace);
	if (world.eager && k > 0 && (size_t)k < sizeof(s))
		snprintf(s + k, sizeof(s) - (size_t)k, " eager=%zu", world.eager);
	return s;
}

/* Sets up inputs, runs, checks every rank's result against the reference. */
static void check(struct run *ru)
{
	int n = ru->n;
	size_t c = ru->count, es = esz(ru->t), cb = c * es, nb = (size_t)n * cb;
	void *args[MOCK_MAX];
	unsigned char *want = keep_get(&kept[MOCK_MAX][0], nb + 1);

	for (int r = 0; r < n; r++) {
		struct rank_io *io = &ru->io[r];
		size_t in_elems = c, out_elems = c;

		switch (ru->coll) {
		case COMM_COLL_ALLGATHER:
			out_elems = (size_t)n * c;
			break;
		case COMM_COLL_REDUCESCATTER:
			in_elems = (size_t)n * c;
			break;
		case COMM_COLL_ALLTOALL:
			in_elems = out_elems = (size_t)n * c;
			break;
		default:
			break;
		}
		io->run = ru;
		io->in_bytes = in_elems * es;
		io->out_bytes = out_elems * es;
		io->in = keep_get(&kept[r][0], io->in_bytes + 1);
		for (size_t i = 0;
		     i < in_elems && (ru->coll != COMM_COLL_BROADCAST || r == ru->root); i++)
			put_val(ru->t, ru->op, io->in, i, r,
				ru->coll == COMM_COLL_REDUCESCATTER ||
						ru->coll == COMM_COLL_ALLREDUCE
					? i
					: i * 31 + (size_t)r * 7);
		io->buf_bytes = io->in_bytes > io->out_bytes ? io->in_bytes : io->out_bytes;
		io->buf = keep_get(&kept[r][1], io->buf_bytes + 1);
		io->out = keep_get(&kept[r][2], io->out_bytes + 1);
		memset(io->buf, 0xee, io->buf_bytes + 1);
		memset(io->out, 0xee, io->out_bytes + 1);
		if (ru->coll == COMM_COLL_BROADCAST) {
			if (r == ru->root)
				memcpy(io->buf, io->in, io->in_bytes);
			io->send = io->recv = io->buf;
		} else if (ru->inplace == 0) {
			memcpy(io->buf, io->in, io->in_bytes);
			io->send = io->buf;
			io->recv = io->out;
		} else if (ru->coll == COMM_COLL_ALLGATHER) {
			size_t at = ru->inplace == 2 ? (size_t)r * cb : 0;
			memcpy(io->buf + at, io->in, io->in_bytes);
			io->send = io->buf + at;
			io->recv = io->buf;
		} else if (ru->coll == COMM_COLL_REDUCESCATTER) {
			memcpy(io->buf, io->in, io->in_bytes);
			io->send = io->buf;
			io->recv = io->buf + (ru->inplace == 2 ? (size_t)r * cb : 0);
		} else {
			memcpy(io->buf, io->in, io->in_bytes);
			io->send = io->recv = io->buf;
		}
		args[r] = io;
	}

	if (mock_run(&world, n, run_rank, args) != 0)
		fail_msg("%s: %s", describe(ru), world.msg);

	/* the reference, once (per rank only where it differs by rank) */
	if (ru->coll == COMM_COLL_ALLREDUCE || ru->coll == COMM_COLL_REDUCESCATTER) {
		size_t m = ru->coll == COMM_COLL_ALLREDUCE ? c : (size_t)n * c;
		for (size_t i = 0; i < m; i++)
			put_reduced(ru->t, ru->op, want, i, n, i);
	} else if (ru->coll == COMM_COLL_ALLGATHER) {
		for (int q = 0; q < n; q++)
			for (size_t i = 0; i < c; i++)
				put_val(ru->t, ru->op, want, (size_t)q * c + i, q,
					i * 31 + (size_t)q * 7);
	} else if (ru->coll == COMM_COLL_BROADCAST) {
		for (size_t i = 0; i < c; i++)
			put_val(ru->t, ru->op, want, i, ru->root, i * 31 + (size_t)ru->root * 7);
	}
	for (int r = 0; r < n; r++) {
		struct rank_io *io = &ru->io[r];
		const unsigned char *got = io->recv;
		const unsigned char *w = want;
		size_t len = io->out_bytes;

		if (ru->coll == COMM_COLL_REDUCESCATTER) {
			w = want + (size_t)r * cb;
		} else if (ru->coll == COMM_COLL_ALLTOALL) { /* block q from rank q's block r */
			for (int q = 0; q < n; q++)
				for (size_t i = 0; i < c; i++)
					put_val(ru->t, ru->op, want, (size_t)q * c + i, q,
						((size_t)r * c + i) * 31 + (size_t)q * 7);
		}
		if (memcmp(got, w, len) != 0)
			for (size_t i = 0; i < len; i++)
				if (got[i] != w[i])
					fail_msg("%s: rank %d byte %zu (element %zu): got %02x "
						 "want %02x",
						 describe(ru), r, i, i / es, got[i], w[i]);
		if (ru->inplace == 0 && ru->coll != COMM_COLL_BROADCAST) {
			if (memcmp(io->buf, io->in, io->in_bytes) != 0)
				fail_msg("%s: rank %d: the send buffer was modified", describe(ru),
					 r);
			if (io->out[io->out_bytes] != 0xee)
				fail_msg("%s: rank %d: wrote past recv", describe(ru), r);
		}
		if (io->buf[io->buf_bytes] != 0xee)
			fail_msg("%s: rank %d: wrote past the buffer", describe(ru), r);
	}
}

/* counts 0, 1, N-1, 7, 1000, 4099 without repeats */
static int counts_for(int n, size_t *out)
{
	size_t cand[] = {0, 1, (size_t)n - 1, 7, 1000, 4099};
	int k = 0;

	for (size_t i = 0; i < sizeof(cand) / sizeof(cand[0]); i++) {
		int dup = 0;
		for (int j = 0; j < k; j++)
			dup |= out[j] == cand[i];
		if (!dup)
			out[k++] = cand[i];
	}
	return k;
}

static long runs;

static void sweep(enum comm_coll coll, const struct combo *combos, size_t ncombos,
		  int inplace_modes, const enum comm_algo *alg, size_t nalg)
{
	static struct run ru;

	for (size_t a = 0; a < nalg; a++)
		for (size_t w = 0; w < NWORLDS; w++) {
			size_t counts[8];
			int nc = counts_for(worlds[w], counts);
			for (int ci = 0; ci < nc; ci++)
				for (size_t k = 0; k < ncombos; k++)
					for (int ip = 0; ip <= inplace_modes; ip++) {
						/* the second in-place layout does not depend on
						 * dtype or op: every third combo is enough */
						if (ip == 2 && k % 3)
							continue;
						memset(&ru, 0, sizeof(ru));
						ru.coll = coll;
						ru.algo = alg[a];
						ru.t = combos[k].t;
						ru.op = combos[k].op;
						ru.count = counts[ci];
						ru.n = worlds[w];
						ru.inplace = ip;
						check(&ru);
						runs++;
					}
		}
}

static void test_allreduce(void **state)
{
	(void)state;
	sweep(COMM_COLL_ALLREDUCE, reducing, NREDUCING, 1, algos, 3);
}

static void test_reduce_scatter(void **state)
{
	(void)state;
	sweep(COMM_COLL_REDUCESCATTER, reducing, NREDUCING, 2, algos, 3);
}

static void test_more_ops(void **state)
{
	static struct run ru;
	static const int ns[] = {3, 4, 7};

	(void)state;
	for (size_t a = 0; a < 3; a++)
		for (size_t i = 0; i < 3; i++)
			for (size_t k = 0; k < sizeof(more) / sizeof(more[0]); k++)
				for (int coll = 0; coll < 2; coll++) {
					memset(&ru, 0, sizeof(ru));
					ru.coll = coll ? COMM_COLL_REDUCESCATTER
						       : COMM_COLL_ALLREDUCE;
					ru.algo = algos[a];
					ru.t = more[k].t;
					ru.op = more[k].op;
					ru.count = 1001;
					ru.n = ns[i];
					check(&ru);
					runs++;
				}
}

static const struct combo copying[] = {
	{COMM_INT8, COMM_SUM}, {COMM_FP16, COMM_SUM}, {COMM_FP64, COMM_SUM}};

static void test_allgather(void **state)
{
	(void)state;
	sweep(COMM_COLL_ALLGATHER, copying, 3, 2, algos, 3);
}

static void test_alltoall(void **state)
{
	static const enum comm_algo any[] = {COMM_ALGO_MESH, COMM_ALGO_RING, COMM_ALGO_AUTO};
	(void)state;
	sweep(COMM_COLL_ALLTOALL, copying, 3, 1, any, 3);
}

static void test_broadcast(void **state)
{
	static struct run ru;

	(void)state;
	for (size_t a = 0; a < 3; a++)
		for (size_t w = 0; w < NWORLDS; w++) {
			int n = worlds[w], roots[] = {0, n / 2, n - 1};
			size_t counts[8];
			int nc = counts_for(n, counts);
			for (int ci = 0; ci < nc; ci++)
				for (int k = 0; k < 3; k++)
					for (int ri = 0; ri < 3; ri++) {
						if (ri && roots[ri] == roots[ri - 1])
							continue;
						memset(&ru, 0, sizeof(ru));
						ru.coll = COMM_COLL_BROADCAST;
						ru.algo = algos[a];
						ru.t = copying[k].t;
						ru.count = counts[ci];
						ru.n = n;
						ru.root = roots[ri];
						check(&ru);
						runs++;
					}
		}
}

/* Large enough that ring reduce-scatter steps and the broadcast chain split into several
 * sub-chunks with uneven blocks; auto included. */
static void test_large(void **state)
{
	static struct run ru;
	static const int ns[] = {2, 3, 5, 8};
	static const enum comm_coll colls[] = {COMM_COLL_ALLREDUCE, COMM_COLL_REDUCESCATTER,
					       COMM_COLL_BROADCAST, COMM_COLL_ALLGATHER};
	static const enum comm_algo alg[] = {COMM_ALGO_RING, COMM_ALGO_RHD, COMM_ALGO_MESH,
					     COMM_ALGO_AUTO};

	(void)state;
	for (size_t c = 0; c < 4; c++)
		for (size_t i = 0; i < 4; i++)
			for (size_t a = 0; a < 4; a++) {
				int n = ns[i];
				memset(&ru, 0, sizeof(ru));
				ru.coll = colls[c];
				ru.algo = alg[a];
				ru.t = COMM_FP32;
				ru.op = COMM_SUM;
				ru.n = n;
				ru.root = n - 1;
				ru.inplace = a & 1;
				/* ring allreduce blocks of 2.3x the 512 KiB chunk, odd lengths */
				ru.count = colls[c] == COMM_COLL_ALLREDUCE ? (size_t)n * 300000 + 3
					   : colls[c] == COMM_COLL_BROADCAST ? 400001
									     : 300001;
				check(&ru);
				runs++;
			}
}

/* Worlds past mesh's batch of 16 peers per exchange call, and past 16 for everyone. */
static void test_big_world(void **state)
{
	static struct run ru;
	static const int ns[] = {17, 20, 32};
	static const enum comm_coll colls[] = {COMM_COLL_ALLREDUCE, COMM_COLL_REDUCESCATTER,
					       COMM_COLL_ALLGATHER, COMM_COLL_BROADCAST,
					       COMM_COLL_ALLTOALL};

	(void)state;
	for (size_t i = 0; i < 3; i++)
		for (size_t c = 0; c < 5; c++)
			for (size_t a = 0; a < 3; a++)
				for (int ip = 0; ip < 2; ip++) {
					memset(&ru, 0, sizeof(ru));
					ru.coll = colls[c];
					ru.algo = algos[a];
					ru.t = COMM_INT32;
					ru.op = COMM_SUM;
					ru.count = 37;
					ru.n = ns[i];
					ru.root = ns[i] - 2;
					ru.inplace = ip;
					check(&ru);
					runs++;
				}
}

/* ---- bit-identical results with inexact float data ---- */

static int same_rank(struct comm__ctx *x, void *arg)
{
	struct rank_io *io = arg;
	struct run *ru = io->run;

	return comm__run(x, ru->coll, ru->algo, io->send, io->recv, ru->count, ru->t, ru->op, 0);
}

/* Allreduces random floats (every order of summation gives different bits) and fails unless
 * all ranks agree exactly. */
static void identical_run(enum comm_algo algo, enum comm_dtype t, int n, size_t count)
{
	static struct run ru;
	void *args[MOCK_MAX];
	size_t es = esz(t);

	memset(&ru, 0, sizeof(ru));
	ru.coll = COMM_COLL_ALLREDUCE;
	ru.algo = algo;
	ru.t = t;
	ru.op = COMM_SUM;
	ru.count = count;
	ru.n = n;
	for (int r = 0; r < n; r++) {
		struct rank_io *io = &ru.io[r];
		io->run = &ru;
		io->in = malloc(count * es);
		io->out = malloc(count * es);
		for (size_t i = 0; i < count; i++) {
			double v = (double)(hash((uint64_t)r, i) % 1000003) / 997.0;
			float f = (float)v;
			uint32_t u;
			memcpy(&u, &f, 4);
			if (t == COMM_FP32)
				((float *)io->in)[i] = f;
			else if (t == COMM_FP64)
				((double *)io->in)[i] = v;
			else if (t == COMM_BF16)
				((uint16_t *)io->in)[i] = (uint16_t)(u >> 16);
			else
				((uint16_t *)io->in)[i] = comm__fp32_to_fp16(f / 64);
		}
		io->send = io->in;
		io->recv = io->out;
		args[r] = io;
	}
	if (mock_run(&world, n, same_rank, args) != 0)
		fail_msg("%s: %s", describe(&ru), world.msg);
	for (int r = 1; r < n; r++)
		if (memcmp(ru.io[r].out, ru.io[0].out, count * es) != 0)
			fail_msg("%s: rank %d differs from rank 0", describe(&ru), r);
	for (int r = 0; r < n; r++) {
		free(ru.io[r].in);
		free(ru.io[r].out);
	}
	runs++;
}

/* All ranks must agree exactly, for each algorithm. */
static void test_identical_bits(void **state)
{
	static const enum comm_dtype ts[] = {COMM_FP32, COMM_FP16, COMM_BF16, COMM_FP64};

	(void)state;
	for (size_t a = 0; a < 3; a++)
		for (size_t ti = 0; ti < 4; ti++)
			for (int n = 2; n <= 9; n++)
				identical_run(algos[a], ts[ti], n, 1000 + (size_t)n);
}

/* ---- the ring with sends running ahead: an eager send buffer per pair ---- */

static const int eager_worlds[] = {2, 3, 4, 5, 8};
#define NEAGER_WORLDS (sizeof(eager_worlds) / sizeof(eager_worlds[0]))

/* Block lengths in 4-byte elements, for 1, 2, 3 and 6 of the ring's 512 KiB chunks: 64 KiB
 * (a single chunk), 800 KiB, 1.2 MiB, 3 MiB, and 200 KiB, a mid size that the ring may cut
 * in a few small chunks to run ahead at all; odd, so the chunks are uneven. */
static const size_t eager_blocks[] = {16385, 51201, 204801, 314573, 786431};
#define NEAGER_BLOCKS (sizeof(eager_blocks) / sizeof(eager_blocks[0]))

/* 1 MiB + a little: two full chunks ahead fit, with some slack */
#define EAGER_SMALL (((size_t)1 << 20) + ((size_t)8 << 10))
#define EAGER_BIG ((size_t)4 << 20)

/* The run's cost grows as N^2 x block (inputs and reference on every rank): the 3 MiB blocks
 * only in small worlds keep the whole ring-eager set to a few seconds. */
static int eager_affordable(int n, size_t block)
{
	return (size_t)n * (size_t)n * block <= (size_t)16 * 314573;
}

/* One ring run of coll over blocks of `block` elements with an eager buffer. With room for
 * two of the ring's chunks and blocks of more than one, sends must have run ahead (several
 * to the right neighbour in one call): else these tests would pass a ring that never
 * pipelines. */
static void eager_check(enum comm_coll coll, int inplace, int n, size_t block, enum comm_dtype t,
			size_t eager)
{
	static struct run ru;

	memset(&ru, 0, sizeof(ru));
	ru.coll = coll;
	ru.algo = COMM_ALGO_RING;
	ru.t = t;
	ru.op = COMM_SUM;
	ru.n = n;
	ru.inplace = inplace;
	/* allreduce: N near-equal blocks, the last one element short */
	ru.count = coll == COMM_COLL_ALLREDUCE ? (size_t)n * block - 1 : block;
	world.eager = eager;
	check(&ru);
	runs++;
	if (eager >= EAGER_SMALL && block * 4 > ((size_t)512 << 10) && world.max_sends < 2)
		fail_msg("%s: sends never ran ahead (at most %d to a peer per call)", describe(&ru),
			 world.max_sends);
}

/* Every world and block size; fp32 and int32 take turns by world, the two eager buffers by
 * world and block, so every dtype meets every buffer. */
static void eager_sweep(enum comm_coll coll, int inplace)
{
	for (size_t w = 0; w < NEAGER_WORLDS; w++)
		for (size_t b = 0; b < NEAGER_BLOCKS; b++)
			if (eager_affordable(eager_worlds[w], eager_blocks[b]))
				eager_check(coll, inplace, eager_worlds[w], eager_blocks[b],
					    w % 2 ? COMM_INT32 : COMM_FP32,
					    (w + b) % 2 ? EAGER_BIG : EAGER_SMALL);
}

static void test_ring_eager_allreduce(void **state)
{
	(void)state;
	eager_sweep(COMM_COLL_ALLREDUCE, 0);
	eager_sweep(COMM_COLL_ALLREDUCE, 1);
}

static void test_ring_eager_reduce_scatter(void **state)
{
	(void)state;
	eager_sweep(COMM_COLL_REDUCESCATTER, 0);
	eager_sweep(COMM_COLL_REDUCESCATTER, 1);
}

static void test_ring_eager_allgather(void **state)
{
	(void)state;
	eager_sweep(COMM_COLL_ALLGATHER, 0);
	eager_sweep(COMM_COLL_ALLGATHER, 2);
}

/* fp32 with inexact data: the pipeline must keep one reduction order for every element. */
static void test_ring_eager_identical_bits(void **state)
{
	(void)state;
	for (size_t w = 0; w < NEAGER_WORLDS; w++)
		for (size_t b = 0; b < NEAGER_BLOCKS; b++) {
			int n = eager_worlds[w];
			if (!eager_affordable(n, eager_blocks[b]))
				continue;
			world.eager = b % 2 ? EAGER_BIG : EAGER_SMALL;
			identical_run(COMM_ALGO_RING, COMM_FP32, n,
				      (size_t)n * eager_blocks[b] - 1);
		}
}

/* Buffers too small for the ring's usual depth: 64 KiB (less than any chunk: depth 0) and one
 * byte short of a full 512 KiB chunk, on blocks cut in ~67 KiB and in 400 KiB chunks. The
 * ring must choose a depth whose sends fit, else each rank's send waits for a receive that
 * its right neighbour posts only after its own sends complete, all around the ring, and the
 * mock times out (a deadlock). */
static void test_ring_eager_small(void **state)
{
	static const size_t eagers[] = {(size_t)64 << 10, ((size_t)512 << 10) - 1};
	static const enum comm_coll colls[] = {COMM_COLL_ALLREDUCE, COMM_COLL_REDUCESCATTER,
					       COMM_COLL_ALLGATHER};

	(void)state;
	for (size_t c = 0; c < 3; c++)
		for (size_t w = 0; w < NEAGER_WORLDS; w++)
			for (size_t b = 1; b < 3; b++)
				if (eager_affordable(eager_worlds[w], eager_blocks[b]))
					eager_check(colls[c], (int)(w % 2), eager_worlds[w],
						    eager_blocks[b],
						    (w + b) % 2 ? COMM_INT32 : COMM_FP32,
						    eagers[(c + w + b) % 2]);
}

/* ---- barrier: nobody leaves before everyone has arrived ---- */

static int arrived;

static int barrier_rank(struct comm__ctx *x, void *arg)
{
	(void)arg;
	usleep((useconds_t)(((x->rank * 7) % 5) * 300));
	__atomic_add_fetch(&arrived, 1, __ATOMIC_SEQ_CST);
	int rc = comm__run(x, COMM_COLL_BARRIER, COMM_ALGO_AUTO, NULL, NULL, 0, COMM_INT8, COMM_SUM,
			   0);
	if (!rc && __atomic_load_n(&arrived, __ATOMIC_SEQ_CST) < x->nranks)
		return -100; /* left early */
	return rc;
}

static void test_barrier(void **state)
{
	(void)state;
	for (size_t w = 0; w < NWORLDS; w++)
		for (int rep = 0; rep < 3; rep++) {
			arrived = 0;
			if (mock_run(&world, worlds[w], barrier_rank, NULL) != 0)
				fail_msg("barrier n=%d: %s", worlds[w], world.msg);
		}
}

/* ---- selection ---- */

static void test_select(void **state)
{
	(void)state;
	/* fixed choices are honoured where they exist, alltoall is always pairwise */
	for (int a = COMM_ALGO_RING; a < COMM_ALGO_COUNT; a++) {
		assert_int_equal(comm__select(COMM_COLL_ALLREDUCE, 8, 8, (enum comm_algo)a), a);
		assert_int_equal(comm__select(COMM_COLL_BROADCAST, 1 << 30, 3, (enum comm_algo)a),
				 a);
		assert_int_equal(comm__select(COMM_COLL_ALLTOALL, 8, 8, (enum comm_algo)a),
				 COMM_ALGO_MESH);
		assert_int_equal(comm__select(COMM_COLL_BARRIER, 0, 8, (enum comm_algo)a),
				 COMM_ALGO_RHD);
	}
	/* auto: latency-bound small sizes, bandwidth-bound large ones */
	assert_int_equal(comm__select(COMM_COLL_ALLREDUCE, 8, 3, COMM_ALGO_AUTO), COMM_ALGO_MESH);
	assert_int_equal(comm__select(COMM_COLL_ALLREDUCE, 8, 4, COMM_ALGO_AUTO), COMM_ALGO_RHD);
	assert_int_equal(comm__select(COMM_COLL_ALLGATHER, 8, 4, COMM_ALGO_AUTO), COMM_ALGO_RHD);
	assert_int_equal(comm__select(COMM_COLL_ALLREDUCE, 8, 8, COMM_ALGO_AUTO), COMM_ALGO_RHD);
	assert_int_equal(comm__select(COMM_COLL_ALLREDUCE, 8, 7, COMM_ALGO_AUTO), COMM_ALGO_RHD);
	assert_int_equal(comm__select(COMM_COLL_ALLREDUCE, 64 << 20, 4, COMM_ALGO_AUTO),
			 COMM_ALGO_RING);
	assert_int_equal(comm__select(COMM_COLL_ALLREDUCE, 64 << 20, 7, COMM_ALGO_AUTO),
			 COMM_ALGO_RING);
	assert_int_equal(comm__select(COMM_COLL_ALLGATHER, 1 << 20, 8, COMM_ALGO_AUTO),
			 COMM_ALGO_RING);
	assert_int_equal(comm__select(COMM_COLL_ALLGATHER, 64 << 20, 2, COMM_ALGO_AUTO),
			 COMM_ALGO_MESH);
	assert_int_equal(comm__select(COMM_COLL_REDUCESCATTER, 64 << 20, 2, COMM_ALGO_AUTO),
			 COMM_ALGO_RING);
	assert_int_equal(comm__select(COMM_COLL_BROADCAST, 64 << 20, 16, COMM_ALGO_AUTO),
			 COMM_ALGO_RING);
	assert_int_equal(comm__select(COMM_COLL_ALLREDUCE, 8, 32, COMM_ALGO_AUTO), COMM_ALGO_RHD);
	/* every rank on one host: a tiny allreduce in one step up to 8 ranks; the rest, and
	 * any fixed choice, as across hosts */
	for (int n = 2; n <= 8; n++) {
		assert_int_equal(comm__select_here(COMM_COLL_ALLREDUCE, 8, n, COMM_ALGO_AUTO, true),
				 COMM_ALGO_MESH);
		assert_int_equal(
			comm__select_here(COMM_COLL_ALLREDUCE, 4 << 10, n, COMM_ALGO_AUTO, true),
			COMM_ALGO_MESH);
	}
	assert_int_equal(comm__select_here(COMM_COLL_ALLREDUCE, 8, 9, COMM_ALGO_AUTO, true),
			 COMM_ALGO_RHD);
	assert_int_equal(comm__select_here(COMM_COLL_ALLREDUCE, (4 << 10) + 4, 8, COMM_ALGO_AUTO,
					   true),
			 COMM_ALGO_RHD);
	assert_int_equal(comm__select_here(COMM_COLL_ALLREDUCE, 8, 8, COMM_ALGO_AUTO, false),
			 COMM_ALGO_RHD);
	assert_int_equal(comm__select_here(COMM_COLL_ALLREDUCE, 8, 8, COMM_ALGO_RING, true),
			 COMM_ALGO_RING);
	assert_int_equal(comm__select_here(COMM_COLL_ALLREDUCE, 8, 8, COMM_ALGO_RHD, true),
			 COMM_ALGO_RHD);
	assert_int_equal(comm__select_here(COMM_COLL_ALLGATHER, 8, 8, COMM_ALGO_AUTO, true),
			 COMM_ALGO_RHD);
	assert_int_equal(comm__select_here(COMM_COLL_BROADCAST, 8, 8, COMM_ALGO_AUTO, true),
			 COMM_ALGO_RHD);
	/* never mesh for big worlds, whatever the size */
	for (size_t b = 1; b < ((size_t)1 << 34); b <<= 1)
		for (int n = 4; n <= 64; n++)
			assert_int_not_equal(
				comm__select(COMM_COLL_ALLREDUCE, b, n, COMM_ALGO_AUTO),
				COMM_ALGO_MESH);
}

static int inval_rank(struct comm__ctx *x, void *arg)
{
	int buf = 0;

	(void)arg;
	if (comm__run(x, COMM_COLL_BROADCAST, COMM_ALGO_AUTO, &buf, &buf, 1, COMM_INT32, COMM_SUM,
		      x->nranks) != COMM_E_INVAL)
		return -1;
	if (comm__run(x, COMM_COLL_SEND, COMM_ALGO_AUTO, &buf, &buf, 1, COMM_INT32, COMM_SUM, 0) !=
	    COMM_E_INVAL)
		return -2;
	if (comm__run(x, COMM_COLL_ALLREDUCE, COMM_ALGO_AUTO, &buf, &buf, 1, COMM_INT32,
		      (enum comm_op)COMM_OP_COUNT, 0) != COMM_E_INVAL)
		return -3;
	if (comm__run(x, COMM_COLL_ALLREDUCE, COMM_ALGO_AUTO, NULL, &buf, 1, COMM_INT32, COMM_SUM,
		      0) != COMM_E_INVAL)
		return -4;
	return 0;
}

static void test_run_refuses(void **state)
{
	(void)state;
	if (mock_run(&world, 3, inval_rank, NULL) != 0)
		fail_msg("%s", world.msg);
}

/* ---- the harness itself catches broken algorithms ---- */

static int bad_len(struct comm__ctx *x, void *arg)
{
	char b[16] = {0};
	struct comm__xfer xf = {.peer = 1 - x->rank,
				.sbuf = b,
				.slen = 4 + (size_t)x->rank,
				.rbuf = b + 8,
				.rlen = 4};
	(void)arg;
	return x->exchange(x, 0, &xf, 1);
}

static int bad_overlap(struct comm__ctx *x, void *arg)
{
	char b[8] = {0};
	struct comm__xfer xf = {
		.peer = 1 - x->rank, .sbuf = b, .slen = 4, .rbuf = b + 2, .rlen = 4};
	(void)arg;
	return x->exchange(x, 0, &xf, 1);
}

static int bad_two_recvs(struct comm__ctx *x, void *arg)
{
	char b[16] = {0};
	struct comm__xfer xf[2] = {
		{.peer = 1 - x->rank, .sbuf = b, .slen = 4, .rbuf = b + 4, .rlen = 4},
		{.peer = 1 - x->rank, .rbuf = b + 8, .rlen = 4}};
	(void)arg;
	return x->exchange(x, 0, xf, 2);
}

static int bad_fifo(struct comm__ctx *x, void *arg)
{
	static const char b[4];
	struct comm__xfer xf[MOCK_FIFO + 1];
	(void)arg;
	if (x->rank == 1)
		return 0;
	for (int i = 0; i <= MOCK_FIFO; i++)
		xf[i] = (struct comm__xfer){.peer = 1, .sbuf = b, .slen = sizeof(b)};
	return x->exchange(x, 0, xf, MOCK_FIFO + 1);
}

/* Rank 0 sends four words in one call at step 0; rank 1 receives them one per call, at steps
 * 0, 1, 1, 1 (a send posted ahead carries the step of the call that posted it). With eager 8
 * two are copied at once, the others as the receives drain the buffer; with eager 0 all
 * wait for their receive. Either way they arrive in order. */
static int sends_in_order(struct comm__ctx *x, void *arg)
{
	uint32_t v[4] = {11, 22, 33, 44};
	struct comm__xfer xf[4];
	(void)arg;
	if (x->rank == 0) {
		for (int i = 0; i < 4; i++)
			xf[i] = (struct comm__xfer){.peer = 1, .sbuf = &v[i], .slen = 4};
		int rc = x->exchange(x, 0, xf, 4);
		memset(v, 0, sizeof(v)); /* complete: the transport has the bytes */
		return rc;
	}
	for (int i = 0; i < 4; i++) {
		uint32_t got = 0;
		xf[0] = (struct comm__xfer){.peer = 0, .rbuf = &got, .rlen = 4};
		if (x->exchange(x, i > 0, xf, 1) != 0)
			return -1;
		if (got != (uint32_t)(11 * (i + 1)))
			return -10 - i;
	}
	return 0;
}

/* Both ranks send before they receive: a deadlock under rendezvous, fine once the send
 * buffer holds the message. Each scribbles over what it sent before its peer receives it,
 * which the copy makes harmless. */
static int send_first(struct comm__ctx *x, void *arg)
{
	uint64_t mine = 0x1111111111111111ull * (uint64_t)(x->rank + 1), got = 0;
	struct comm__xfer s = {.peer = 1 - x->rank, .sbuf = &mine, .slen = 8};
	struct comm__xfer r = {.peer = 1 - x->rank, .rbuf = &got, .rlen = 8};
	(void)arg;
	if (x->exchange(x, 0, &s, 1) != 0)
		return -1;
	mine = 0;
	usleep(2000); /* let the peer scribble too */
	if (x->exchange(x, 1, &r, 1) != 0)
		return -2;
	return got == 0x1111111111111111ull * (uint64_t)(2 - x->rank) ? 0 : -3;
}

static int bad_leftover(struct comm__ctx *x, void *arg)
{
	static char b[4];
	struct comm__xfer xf = {.peer = 1, .sbuf = b, .slen = 4};
	(void)arg;
	if (x->rank == 0) { /* nobody receives: the sender must time out or be reported */
		x->exchange(x, 0, &xf, 1);
	}
	return 0;
}

static void test_harness_catches(void **state)
{
	(void)state;
	assert_int_equal(mock_run(&world, 2, bad_len, NULL), -1);
	assert_non_null(strstr(world.msg, "bytes"));
	assert_int_equal(mock_run(&world, 2, bad_overlap, NULL), -1);
	assert_non_null(strstr(world.msg, "overlaps"));
	assert_int_equal(mock_run(&world, 2, bad_two_recvs, NULL), -1);
	assert_non_null(strstr(world.msg, "two receives from peer"));
	assert_int_equal(mock_run(&world, 2, bad_fifo, NULL), -1);
	assert_non_null(strstr(world.msg, "sends queued"));
	if (mock_run(&world, 2, sends_in_order, NULL) != 0)
		fail_msg("rendezvous: %s", world.msg);
	world.eager = 8;
	if (mock_run(&world, 2, sends_in_order, NULL) != 0)
		fail_msg("eager 8: %s", world.msg);
	if (mock_run(&world, 2, send_first, NULL) != 0)
		fail_msg("eager 8, send first: %s", world.msg);
	/* copied, so the sender does not wait: reported at the end (and the copy freed) */
	assert_int_equal(mock_run(&world, 2, bad_leftover, NULL), -1);
	assert_non_null(strstr(world.msg, "from 0 to 1 never matched"));
	assert_int_equal(mock_run(&world, 2, bad_len, NULL), -1);
	assert_non_null(strstr(world.msg, "bytes"));
	world.eager = 0; /* (send_first under rendezvous would wait MOCK_TIMEOUT_S: not run) */
}

/* Leaves the world strict for the next test, whether or not this one failed. */
static int eager_off(void **state)
{
	(void)state;
	world.eager = 0;
	return 0;
}

static int report(void **state)
{
	(void)state;
	mock_shutdown(&world);
	keep_release();
	print_message("  %ld collective runs checked\n", runs);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_harness_catches, eager_off),
		cmocka_unit_test(test_select),
		cmocka_unit_test(test_run_refuses),
		cmocka_unit_test(test_allreduce),
		cmocka_unit_test(test_reduce_scatter),
		cmocka_unit_test(test_more_ops),
		cmocka_unit_test(test_allgather),
		cmocka_unit_test(test_broadcast),
		cmocka_unit_test(test_alltoall),
		cmocka_unit_test(test_barrier),
		cmocka_unit_test(test_large),
		cmocka_unit_test(test_big_world),
		cmocka_unit_test(test_identical_bits),
		cmocka_unit_test_teardown(test_ring_eager_allreduce, eager_off),
		cmocka_unit_test_teardown(test_ring_eager_reduce_scatter, eager_off),
		cmocka_unit_test_teardown(test_ring_eager_allgather, eager_off),
		cmocka_unit_test_teardown(test_ring_eager_identical_bits, eager_off),
		cmocka_unit_test_teardown(test_ring_eager_small, eager_off),
	};
	return cmocka_run_group_tests_name("algo", tests, NULL, report);
}
