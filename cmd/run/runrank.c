/* The per-rank side of `hcclctl run`: sizes from -b to -e, warmup, timed iterations, the
 * nccl-tests bandwidth columns, and the -c check against refdata's independent expectation. */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd/run/refdata.h"
#include "cmd/run/run.h"
#include "ranktable/base/clock.h"

double run_bus_factor(enum comm_coll coll, int n)
{
	switch (coll) {
	case COMM_COLL_ALLREDUCE:
		return 2.0 * (n - 1) / n;
	case COMM_COLL_ALLGATHER:
	case COMM_COLL_REDUCESCATTER:
	case COMM_COLL_ALLTOALL: /* each rank keeps 1/n of its bytes: (n-1)/n cross a link */
		return (double)(n - 1) / n;
	default: /* broadcast, sendrecv: every byte crosses the root's (or one) link */
		return 1.0;
	}
}

/* Here, not beside the table (run_out.c), which calls runprom.c, which calls this. */
const char *run_row_op(const struct run_row *r)
{
	return r->has_op ? comm_op_name(r->op) : "none";
}

/* Elements each rank contributes for a row of `bytes` (nccl-tests' size: the largest
 * buffer of the collective). */
static size_t per_rank_count(enum comm_coll coll, size_t bytes, size_t tsize, int n)
{
	switch (coll) {
	case COMM_COLL_ALLGATHER:
	case COMM_COLL_REDUCESCATTER:
	case COMM_COLL_ALLTOALL:
		return bytes / tsize / (size_t)n;
	default:
		return bytes / tsize;
	}
}

/* One call of the collective on send and recv (broadcast: recv alone). */
static int once_at(struct comm *c, const struct run_params *p, void *send, void *recv,
		   size_t count)
{
	int rank = comm_rank(c), n = comm_size(c);
	switch (p->coll) {
	case COMM_COLL_ALLREDUCE:
		if (p->compress)
			return comm_allreduce_compressed(c, send, recv, count, p->dtype, p->op,
							 p->compress);
		return comm_allreduce(c, send, recv, count, p->dtype, p->op);
	case COMM_COLL_ALLGATHER:
		return comm_allgather(c, send, recv, count, p->dtype);
	case COMM_COLL_REDUCESCATTER:
		return comm_reduce_scatter(c, send, recv, count, p->dtype, p->op);
	case COMM_COLL_BROADCAST:
		return comm_broadcast(c, recv, count, p->dtype, p->root);
	case COMM_COLL_ALLTOALL:
		return comm_alltoall(c, send, recv, count, p->dtype);
	case COMM_COLL_SEND:
	case COMM_COLL_RECV: {
		/* A ring: each rank sends to the next and receives from the previous. Even ranks
		 * send first, odd ranks receive first, so the chain never waits on itself. */
		if (n == 1) {
			memcpy(recv, send, count * comm_dtype_size(p->dtype));
			return 0;
		}
		int next = (rank + 1) % n, prev = (rank + n - 1) % n, rc;
		if (rank % 2 == 0) {
			rc = comm_send(c, send, count, p->dtype, next);
			return rc ? rc : comm_recv(c, recv, count, p->dtype, prev);
		}
		rc = comm_recv(c, recv, count, p->dtype, prev);
		return rc ? rc : comm_send(c, send, count, p->dtype, next);
	}
	case COMM_COLL_BARRIER:
		return comm_barrier(c);
	case COMM_COLL_COUNT:
		break;
	}
	return COMM_E_INVAL;
}

/* Whether the collective has an in-place call: sendrecv's ring would receive over what an
 * odd rank has yet to send (libcomm's send and recv are blocking), a barrier has no buffer,
 * and HCCL's engine copies its own buffers. */
static int has_in_place(const struct run_params *p)
{
	return !p->engine && p->coll != COMM_COLL_SEND && p->coll != COMM_COLL_RECV &&
	       p->coll != COMM_COLL_BARRIER;
}

/* Where a call reads, writes and leaves its result: out of place the two buffers; in place
 * as nccl-tests places it: allgather's input is this rank's block of recv, reducescatter's
 * output this rank's block of send, the others read and write one buffer. */
struct place {
	void *send, *recv, *result;
};
static struct place place_of(const struct run_params *p, struct run_bufs *b, int rank,
			     size_t count, int inplace)
{
	size_t cb = count * comm_dtype_size(p->dtype);
	char *r = b->recv;
	struct place pl = { b->send, b->recv, b->recv };
	if (!inplace)
		return pl;
	pl.send = r;
	if (p->coll == COMM_COLL_ALLGATHER)
		pl.send = r + (size_t)rank * cb;
	if (p->coll == COMM_COLL_REDUCESCATTER)
		pl.recv = pl.result = r + (size_t)rank * cb;
	return pl;
}

/* In place: the input prepare() wrote to send, copied to where place_of reads it. */
static void stage_in_place(const struct run_params *p, struct run_bufs *b, int rank, int n,
			   size_t count)
{
	size_t cb = count * comm_dtype_size(p->dtype);
	switch (p->coll) {
	case COMM_COLL_ALLREDUCE:
		memcpy(b->recv, b->send, cb);
		break;
	case COMM_COLL_ALLGATHER:
		memcpy((char *)b->recv + (size_t)rank * cb, b->send, cb);
		break;
	case COMM_COLL_REDUCESCATTER:
	case COMM_COLL_ALLTOALL:
		memcpy(b->recv, b->send, cb * (size_t)n);
		break;
	default: /* broadcast: prepare() wrote recv */
		break;
	}
}

/* ---- --compress: N(0,1) data, deterministic from (seed, rank, index), rounded to the
 * dtype; the exact sum of those rounded values computed here in double, independently of
 * libcomm; and the normalised RMS error of a result against it. ---- */

static uint64_t mix(uint64_t x) /* splitmix64's finaliser */
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

/* Box-Muller on a counter-based hash: elements 2k and 2k+1 share their two uniforms. */
static float gauss(uint64_t seed, int rank, size_t i)
{
	uint64_t h = mix(seed ^ mix(((uint64_t)(uint32_t)rank << 40) ^ (uint64_t)(i >> 1)));
	float u1 = (float)((h >> 40) + 1) * 0x1p-24f; /* (0, 1] */
	float u2 = (float)(mix(h) >> 40) * 0x1p-24f;
	float r = sqrtf(-2.0f * logf(u1)), a = 6.2831853f * u2;
	return r * (i & 1 ? sinf(a) : cosf(a));
}

static uint32_t fbits(float f)
{
	uint32_t u;
	memcpy(&u, &f, sizeof(u));
	return u;
}

static uint16_t to_fp16(float f) /* nearest even; |f| < 65504 here */
{
	uint32_t x = fbits(f), sign = (x >> 16) & 0x8000, r, rem;
	x &= 0x7fffffff;
	if (x >= 0x477ff000)
		return (uint16_t)(sign | 0x7c00);
	if (x < 0x38800000) /* subnormal: a multiple of 2^-24, the scaling is exact */
		return (uint16_t)(sign | (uint32_t)nearbyintf(fabsf(f) * 16777216.0f));
	r = (x - 0x38000000) >> 13;
	rem = x & 0x1fff;
	if (rem > 0x1000 || (rem == 0x1000 && (r & 1)))
		r++;
	return (uint16_t)(sign | r);
}

static double from_fp16(uint16_t h)
{
	int e = (h >> 10) & 31, m = h & 1023;
	double v = e == 31 ? INFINITY : e ? ldexp(1024 + m, e - 25) : ldexp(m, -24);
	return h & 0x8000 ? -v : v;
}

static uint16_t to_bf16(float f) /* nearest even; finite here */
{
	uint32_t x = fbits(f);
	return (uint16_t)((x + 0x7fff + ((x >> 16) & 1)) >> 16);
}

static double from_bf16(uint16_t h)
{
	uint32_t x = (uint32_t)h << 16;
	float f;
	memcpy(&f, &x, sizeof(f));
	return f;
}

static void gauss_store(enum comm_dtype t, void *buf, size_t i, float v)
{
	if (t == COMM_FP16)
		((uint16_t *)buf)[i] = to_fp16(v);
	else if (t == COMM_BF16)
		((uint16_t *)buf)[i] = to_bf16(v);
	else
		((float *)buf)[i] = v;
}

static double load(enum comm_dtype t, const void *buf, size_t i)
{
	if (t == COMM_FP16)
		return from_fp16(((const uint16_t *)buf)[i]);
	if (t == COMM_BF16)
		return from_bf16(((const uint16_t *)buf)[i]);
	return ((const float *)buf)[i];
}

#define COMPRESS_SAMPLE 65536

/* Sums over this rank's result of (got - exact)^2 and exact^2, and a hash of its bytes. */
static void compress_error(const struct run_params *p, const void *got, int n, size_t count,
			   double *err2, double *ref2, uint64_t *hash)
{
	enum comm_dtype t = p->dtype;
	size_t es = comm_dtype_size(t);
	unsigned char one[4];
	double e2 = 0, r2 = 0;
	uint64_t h = 0x9e3779b97f4a7c15ULL;

	for (size_t i = 0; i < count; i++) {
		double exact = 0;
		for (int r = 0; r < n; r++) {
			gauss_store(t, one, 0, gauss(p->seed, r, i));
			exact += load(t, one, 0);
		}
		double d = load(t, got, i) - exact;
		e2 += d * d;
		r2 += exact * exact;
		uint64_t w = 0;
		memcpy(&w, (const char *)got + i * es, es);
		h = mix(h ^ w);
	}
	*err2 = e2;
	*ref2 = r2;
	*hash = h;
}

/* Fresh input; with `want`, also the expected output, computed without libcomm (at 256 MiB
 * and 8 ranks that costs more than the collective, so only the checked call pays it). In
 * place, the input then goes where the call reads it. */
static void prepare_one(const struct run_params *p, struct run_bufs *b, int rank, int n,
			size_t count, bool want);
static void prepare(const struct run_params *p, struct run_bufs *b, int rank, int n, size_t count,
		    bool want, int inplace)
{
	prepare_one(p, b, rank, n, count, want);
	if (inplace)
		stage_in_place(p, b, rank, n, count);
}

static void prepare_one(const struct run_params *p, struct run_bufs *b, int rank, int n,
			size_t count, bool want)
{
	enum comm_dtype t = p->dtype;
	if (p->coll == COMM_COLL_ALLREDUCE && p->compress) { /* the check computes the sum */
		for (size_t i = 0; i < count; i++)
			gauss_store(t, b->send, i, gauss(p->seed, rank, i));
		return;
	}
	switch (p->coll) {
	case COMM_COLL_ALLREDUCE:
		ref_fill(t, p->op, p->seed, rank, b->send, 0, count);
		for (size_t i = 0; want && i < count; i++)
			ref_reduced(t, p->op, p->seed, n, i, b->want, i);
		break;
	case COMM_COLL_ALLGATHER:
		ref_fill(t, p->op, p->seed, rank, b->send, 0, count);
		for (int r = 0; want && r < n; r++)
			for (size_t i = 0; i < count; i++)
				ref_store(t, b->want, (size_t)r * count + i,
					  ref_value(t, p->seed, r, i, p->op));
		break;
	case COMM_COLL_REDUCESCATTER:
		ref_fill(t, p->op, p->seed, rank, b->send, 0, count * (size_t)n);
		for (size_t i = 0; want && i < count; i++)
			ref_reduced(t, p->op, p->seed, n, (size_t)rank * count + i, b->want, i);
		break;
	case COMM_COLL_BROADCAST:
		if (rank == p->root)
			ref_fill(t, p->op, p->seed, rank, b->recv, 0, count);
		else
			memset(b->recv, 0, count * comm_dtype_size(t));
		if (want)
			ref_fill(t, p->op, p->seed, p->root, b->want, 0, count);
		break;
	case COMM_COLL_ALLTOALL:
		ref_fill(t, p->op, p->seed, rank, b->send, 0, count * (size_t)n);
		for (int j = 0; want && j < n; j++)
			for (size_t i = 0; i < count; i++)
				ref_store(t, b->want, (size_t)j * count + i,
					  ref_value(t, p->seed, j, (size_t)rank * count + i, p->op));
		break;
	case COMM_COLL_SEND:
	case COMM_COLL_RECV:
		ref_fill(t, p->op, p->seed, rank, b->send, 0, count);
		if (want)
			ref_fill(t, p->op, p->seed, (rank + n - 1) % n, b->want, 0, count);
		break;
	default:
		break;
	}
}

static size_t out_count(const struct run_params *p, size_t count, int n)
{
	switch (p->coll) {
	case COMM_COLL_ALLGATHER:
	case COMM_COLL_ALLTOALL:
		return count * (size_t)n;
	case COMM_COLL_BARRIER:
		return 0;
	default:
		return count;
	}
}

/* HCCLCTL_FAULT_CORRUPT=R flips one bit of rank R's result before the check, so the tests
 * can prove that a wrong element is counted, located and fails the run. */
static void corrupt_for_test(int rank, void *buf, size_t bytes)
{
	const char *v = getenv("HCCLCTL_FAULT_CORRUPT");
	if (v && *v && atoi(v) == rank && bytes > 0)
		((unsigned char *)buf)[bytes - 1] ^= 0x01;
}

/* Says once, on this rank, that the job's monitor is gone: the job goes on, but a stuck
 * rank is no longer named within the heartbeat budget, only at the deadline. */
static void monitor_watch(struct comm *c, const struct run_params *p)
{
	static int warned;
	if (warned || !comm_monitor_lost(c, NULL))
		return;
	warned = 1;
	char w[64];
	snprintf(w, sizeof(w), "run %s",
		 p->coll == COMM_COLL_SEND ? "sendrecv" : comm_coll_name(p->coll));
	warn_msg(w, "rank %d: the job's monitor is gone (its connection closed without a "
		 "goodbye): hang detection is off, a stuck rank is found only at the deadline "
		 "(--timeout)", comm_rank(c));
}


/* --compress's check: not exact, so the error against the exact sum, over all ranks, and
 * the same bytes on every rank. Small rows take several draws of data, so the error is
 * measured on at least COMPRESS_SAMPLE elements (or 32 draws), not on the luck of one small
 * draw. Counted once, by rank 0, as the whole row: the error is the row's. */
static int check_compress(struct comm *c, const struct run_params *p, struct run_bufs *b,
			  size_t count, int inplace, struct run_row *row, long long *wrong,
			  char *first_wrong, size_t len)
{
	int rank = comm_rank(c), n = comm_size(c), rc;
	size_t draws = count ? (COMPRESS_SAMPLE + count - 1) / count : 1;
	double sums[2] = { 0, 0 };
	uint64_t h = 0;
	draws = draws > 32 ? 32 : draws;
	for (size_t k = 0; k < draws; k++) {
		struct run_params q = *p;
		double e2, r2;
		uint64_t hk;
		q.seed = p->seed + k * 0x9e3779b97f4a7c15ULL;
		prepare(&q, b, rank, n, count, false, inplace);
		struct place pl = place_of(&q, b, rank, count, inplace);
		if ((rc = once_at(c, &q, pl.send, pl.recv, count)))
			return rc;
		if (k == 0)
			corrupt_for_test(rank, pl.result, count * comm_dtype_size(p->dtype));
		compress_error(&q, pl.result, n, count, &e2, &r2, &hk);
		sums[0] += e2;
		sums[1] += r2;
		h = mix(h ^ hk);
	}
	int64_t hmax = (int64_t)h, hmin = (int64_t)h;
	rc = comm_allreduce(c, sums, sums, 2, COMM_FP64, COMM_SUM);
	if (!rc)
		rc = comm_allreduce(c, &hmax, &hmax, 1, COMM_INT64, COMM_MAX);
	if (!rc)
		rc = comm_allreduce(c, &hmin, &hmin, 1, COMM_INT64, COMM_MIN);
	if (rc)
		return rc;
	double e = sums[1] > 0 ? sqrt(sums[0] / sums[1]) : sqrt(sums[0]);
	if (row->nrmse < 0 || e > row->nrmse || e != e)
		row->nrmse = e;
	int bad = !(e <= RUN_NRMSE_LIMIT), differ = hmax != hmin;
	*wrong = (bad || differ) && rank == 0 ? (long long)count : 0;
	const char *where = inplace ? " in place" : "";
	if (differ && rank == 0 && !*first_wrong)
		snprintf(first_wrong, len,
			 "rank %d: %s compression: the ranks' results differ at size %zu%s", rank,
			 comm_compress_name(p->compress), row->bytes, where);
	else if (bad && rank == 0 && !*first_wrong)
		snprintf(first_wrong, len,
			 "rank %d: %s compression: normalised RMS error %.4f %% above the limit of "
			 "%g %% at size %zu%s",
			 rank, comm_compress_name(p->compress), 100 * e, 100 * RUN_NRMSE_LIMIT,
			 row->bytes, where);
	return 0;
}

/* The exact check: one clean call on fresh input, compared element by element with the
 * expectation computed without libcomm. */
static int check_exact(struct comm *c, const struct run_params *p, struct run_bufs *b,
		       size_t count, int inplace, struct run_row *row, long long *wrong,
		       char *first_wrong, size_t len)
{
	int rank = comm_rank(c), n = comm_size(c), rc;
	struct run_engine *eng = p->engine;
	size_t tsize = comm_dtype_size(p->dtype), oc = out_count(p, count, n), first;
	prepare(p, b, rank, n, count, true, inplace);
	struct place pl = place_of(p, b, rank, count, inplace);
	rc = eng ? eng->run(eng, c, p, b, count, 1, RUN_IN | RUN_OUT, NULL) :
		   once_at(c, p, pl.send, pl.recv, count);
	if (rc)
		return rc;
	corrupt_for_test(rank, pl.result, oc * tsize);
	*wrong = (long long)ref_compare(p->dtype, pl.result, b->want, oc, &first);
	if (*wrong && !*first_wrong) {
		char e[64], g[64];
		ref_format(p->dtype, b->want, first, e, sizeof(e));
		ref_format(p->dtype, pl.result, first, g, sizeof(g));
		snprintf(first_wrong, len,
			 "rank %d: %lld wrong of %zu at size %zu%s: first at element %zu: "
			 "expected %s, got %s",
			 rank, *wrong, oc, row->bytes, inplace ? " in place" : "", first, e, g);
	}
	return 0;
}

/* One placement of a row: the checked call (*wrong: its wrong elements here, -1 when not
 * checked), then the timed ones (*us: this rank's mean in microseconds). */
static int measure(struct comm *c, const struct run_params *p, struct run_bufs *b,
		   size_t count, int inplace, struct run_row *row, long long *wrong, double *us,
		   char *first_wrong, size_t len)
{
	int rc = 0;
	struct run_engine *eng = p->engine;
	*wrong = -1;
	if (p->check && p->compress)
		rc = check_compress(c, p, b, count, inplace, row, wrong, first_wrong, len);
	else if (p->check)
		rc = check_exact(c, p, b, count, inplace, row, wrong, first_wrong, len);
	else if (inplace) /* the out-of-place calls left recv as their output */
		prepare(p, b, comm_rank(c), comm_size(c), count, false, inplace);
	if (!rc)
		rc = comm_barrier(c);
	if (rc)
		return rc;
	struct place pl = place_of(p, b, comm_rank(c), count, inplace);
	double t0 = mono_s() * 1e6;
	/* without warmup or check the device has no data yet */
	if (eng)
		return eng->run(eng, c, p, b, count, p->iters, p->warmup || p->check ? 0 : RUN_IN,
				us);
	for (long it = 0; it < p->iters && !rc; it++) {
		rc = once_at(c, p, pl.send, pl.recv, count);
		monitor_watch(c, p);
	}
	*us = (mono_s() * 1e6 - t0) / (double)(p->iters > 0 ? p->iters : 1);
	return rc;
}

/* A row's times across ranks as -a asks (nccl-tests' 0 rank 0, 1 mean, 2 min, 3 max). */
static int time_across(struct comm *c, const struct run_params *p, double t[2])
{
	int n = comm_size(c), rc;
	if (p->average == 0 && comm_rank(c) != 0)
		t[0] = t[1] = 0;
	enum comm_op op = p->average == 2 ? COMM_MIN : p->average == 3 ? COMM_MAX : COMM_SUM;
	rc = comm_allreduce(c, t, t, 2, COMM_FP64, op);
	if (!rc && p->average == 1)
		for (int i = 0; i < 2; i++)
			t[i] /= n;
	return rc;
}

/* One row: warmup, out of place, in place (where the collective has it), and the numbers
 * every rank agrees on: the time -a picks, the wrong elements of all, whether to stop. */
static int measure_row(struct comm *c, const struct run_params *p, struct run_bufs *b,
		       size_t count, struct run_row *row, char *first_wrong, size_t len)
{
	int rank = comm_rank(c), n = comm_size(c), rc = 0;
	struct run_engine *eng = p->engine;
	long long wrong[2] = { -1, -1 };
	double t[2] = { 0, 0 };
	int ip = has_in_place(p);

	prepare(p, b, rank, n, count, false, 0);
	monitor_watch(c, p);
	if (eng && p->warmup)
		rc = eng->run(eng, c, p, b, count, p->warmup, RUN_IN, NULL);
	for (long w = 0; !eng && w < p->warmup && !rc; w++)
		rc = once_at(c, p, b->send, b->recv, count);
	for (int k = 0; k < 1 + ip && !rc; k++)
		rc = measure(c, p, b, count, k, row, &wrong[k], &t[k], first_wrong, len);
	if (rc)
		return rc;
	/* HCCL picks its algorithm inside: "auto" is all hcclctl knows of it */
	row->algo = eng ? COMM_ALGO_AUTO : comm_last_algo(c);
	rc = time_across(c, p, t);
	/* the wrong elements, and how many ranks were asked to stop and why (runstop.c) */
	int asked = run_stop_asked();
	int64_t sum[4] = { wrong[0] < 0 ? 0 : wrong[0], wrong[1] < 0 ? 0 : wrong[1],
			   !!(asked & RUN_STOP_INTERRUPT), !!(asked & RUN_STOP_OUTPUT) };
	if (!rc)
		rc = comm_allreduce(c, sum, sum, 4, COMM_INT64, COMM_SUM);
	if (rc)
		return rc;
	run_stop_agree((sum[2] ? RUN_STOP_INTERRUPT : 0) | (sum[3] ? RUN_STOP_OUTPUT : 0));
	double f = run_bus_factor(p->coll, n);
	row->time_us = t[0];
	row->wrong = p->check ? (long long)sum[0] : -1;
	row->algbw = t[0] > 0 ? (double)row->bytes / (t[0] * 1e3) : 0;
	row->busbw = row->algbw * f;
	row->ip_time_us = ip ? t[1] : -1;
	row->ip_wrong = p->check && ip ? (long long)sum[1] : -1;
	row->ip_algbw = ip && t[1] > 0 ? (double)row->bytes / (t[1] * 1e3) : 0;
	row->ip_busbw = row->ip_algbw * f;
	return 0;
}

/* The row of `bytes` before it is measured: what it moves, of what, where. */
static void row_start(const struct run_params *p, int n, size_t count, struct run_row *row)
{
	size_t tsize = comm_dtype_size(p->dtype);
	memset(row, 0, sizeof(*row));
	row->nrmse = -1;
	row->count = out_count(p, count, n);
	row->bytes = p->coll == COMM_COLL_BARRIER ? 0 :
		     (p->coll == COMM_COLL_ALLREDUCE || p->coll == COMM_COLL_BROADCAST ||
		      p->coll == COMM_COLL_SEND) ? count * tsize :
						    count * tsize * (size_t)n;
	row->dtype = p->dtype;
	row->op = p->op;
	row->has_op = p->coll == COMM_COLL_ALLREDUCE || p->coll == COMM_COLL_REDUCESCATTER;
	row->root = p->coll == COMM_COLL_BROADCAST ? p->root : -1;
}

/* The size after bytes: -i's step added, else -f's factor; max_bytes once past it. */
static unsigned long long next_size(const struct run_params *p, unsigned long long bytes)
{
	unsigned long long nx = p->step ? bytes + p->step : bytes * p->factor;
	return nx > p->max_bytes || nx <= bytes ? p->max_bytes : nx;
}

int run_sweep(struct comm *c, const struct run_params *p, run_row_fn row_fn, void *arg,
	      struct run_row **rows_out, size_t *nrows_out, char *first_wrong, size_t len)
{
	int rank = comm_rank(c), n = comm_size(c), rc = 0;
	size_t tsize = comm_dtype_size(p->dtype);
	size_t maxcount = per_rank_count(p->coll, p->max_bytes, tsize, n);
	size_t bufn = maxcount * (size_t)n + 1; /* big enough for every collective's buffers */
	struct run_bufs b = { 0 };
	struct run_engine *eng = p->engine;
	struct run_row *rows = NULL;
	size_t nrows = 0, cap = 0;
	int any_wrong = 0;

	*first_wrong = 0;
	b.send = calloc(bufn, tsize);
	b.recv = calloc(bufn, tsize);
	b.want = calloc(bufn, tsize);
	if (!b.send || !b.recv || !b.want) {
		rc = COMM_E_NOMEM;
		snprintf(first_wrong, len, "cannot allocate 3 x %zu bytes of buffers", bufn * tsize);
		goto out;
	}
	if (eng && (rc = eng->reserve(eng, bufn * tsize)))
		goto out;
	for (unsigned long long bytes = p->min_bytes;; bytes = next_size(p, bytes)) {
		if (p->coll == COMM_COLL_BARRIER)
			bytes = 0;
		size_t count = per_rank_count(p->coll, (size_t)bytes, tsize, n);
		/* Sizes that round to the same buffers as the previous row add nothing. */
		if (nrows && out_count(p, count, n) == rows[nrows - 1].count &&
		    p->coll != COMM_COLL_BARRIER) {
			if (bytes >= p->max_bytes)
				break;
			continue;
		}
		if (nrows == cap) {
			cap = cap ? cap * 2 : 32;
			struct run_row *nr = realloc(rows, cap * sizeof(*rows));
			if (!nr) {
				rc = COMM_E_NOMEM;
				goto out;
			}
			rows = nr;
		}
		struct run_row *row = &rows[nrows++];
		row_start(p, n, count, row);
		if ((rc = measure_row(c, p, &b, count, row, first_wrong, len)))
			goto out;
		if (row->wrong > 0 || row->ip_wrong > 0)
			any_wrong = 1;
		if (rank == 0 && row_fn && !(run_stop_agreed() & RUN_STOP_OUTPUT))
			row_fn(p, n, row, arg);
		if (p->coll == COMM_COLL_BARRIER || bytes >= p->max_bytes || run_stop_agreed())
			break;
	}
out:
	free(b.send);
	free(b.recv);
	free(b.want);
	if (rc && rows) {
		free(rows);
		rows = NULL;
		nrows = 0;
	}
	*rows_out = rows;
	*nrows_out = nrows;
	if (rc)
		return rc;
	return any_wrong ? 1 : 0;
}
