/* The stand-ins' own test driver: calls libascendcl.so and libhccl.so directly, the way a
 * training job (and hcclctl) does, and checks what comes back. tests/cli/hccl-stub.t runs it.
 *
 *   hccl_stub_driver run -n N -c COLL -d DTYPE [-o OP] [-k COUNT] [-r ROOT] [-i ITERS]
 *                        [-t RANKTABLE [-T ODD_RANKS_TABLE]] [-s SYNC_MS] [-w WAIT_S] [-m]
 *       forks N ranks (one process each, device = rank), joins them by root info, or by
 *       HcclCommInitClusterInfo on RANKTABLE, runs COLL ITERS times on data made from
 *       (rank, index), checks every element against the value worked out here, and prints
 *       one line per rank in rank order. Exit 0 when every rank printed ok. -m: the last
 *       rank calls with one element more (ranks that disagree); -w: seconds to wait for a
 *       rank before killing it.
 *   hccl_stub_driver args      every argument check, one line per call with its code
 *   hccl_stub_driver stream    stream order, asynchrony, events and their timing
 */
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tests/stub/hccl_types.h"

#define OUTMAX 4096

static const struct {
	const char *name;
	int dt;
	size_t size;
} dtypes[] = {
	{ "int8", HCCL_DATA_TYPE_INT8, 1 },   { "int16", HCCL_DATA_TYPE_INT16, 2 },
	{ "int32", HCCL_DATA_TYPE_INT32, 4 }, { "int64", HCCL_DATA_TYPE_INT64, 8 },
	{ "fp16", HCCL_DATA_TYPE_FP16, 2 },   { "bf16", HCCL_DATA_TYPE_BFP16, 2 },
	{ "fp32", HCCL_DATA_TYPE_FP32, 4 },   { "fp64", HCCL_DATA_TYPE_FP64, 8 },
	{ "uint8", HCCL_DATA_TYPE_UINT8, 1 }, { "int128", HCCL_DATA_TYPE_INT128, 16 },
};
static const char *const ops[] = { "sum", "prod", "max", "min" };
static const char *const colls[] = { "allreduce", "allgather", "reducescatter", "broadcast",
				     "alltoall",  "sendrecv",  "barrier" };
enum { ALLREDUCE, ALLGATHER, REDUCESCATTER, BROADCAST, ALLTOALL, SENDRECV, BARRIER };

struct opts {
	int n, coll, dt, op, root, iters, sync_ms;
	size_t esz;
	uint64_t count;
	const char *table, *table_odd; /* -T: the odd ranks read this copy instead */
	int skew;                       /* -m: the last rank's count is one more */
};

/* ---- values: small integers, exact in every type, so results are exact too ---- */

static double in_reduce(int r, uint64_t i)
{
	return (double)((r + 2 * (int)(i % 1000)) % 3 + 1); /* 1..3: a product of 4 fits int8 */
}

static double in_move(int r, uint64_t i)
{
	return (double)((r * 31 + (int)(i % 1000)) % 97 + 1); /* 1..97: names rank and index */
}

static void enc(int dt, double v, void *p)
{
	switch (dt) {
	case HCCL_DATA_TYPE_INT8: *(int8_t *)p = (int8_t)v; break;
	case HCCL_DATA_TYPE_UINT8: *(uint8_t *)p = (uint8_t)v; break;
	case HCCL_DATA_TYPE_INT16: *(int16_t *)p = (int16_t)v; break;
	case HCCL_DATA_TYPE_INT32: *(int32_t *)p = (int32_t)v; break;
	case HCCL_DATA_TYPE_INT64: *(int64_t *)p = (int64_t)v; break;
	case HCCL_DATA_TYPE_FP32: *(float *)p = (float)v; break;
	case HCCL_DATA_TYPE_FP64: *(double *)p = v; break;
	case HCCL_DATA_TYPE_BFP16: {
		float f = (float)v;
		uint32_t x;

		memcpy(&x, &f, 4);
		*(uint16_t *)p = (uint16_t)(x >> 16); /* exact: the values have few bits */
		break;
	}
	case HCCL_DATA_TYPE_FP16: {
		int e;
		double m = frexp(fabs(v), &e); /* |v| = m * 2^e, m in [0.5, 1) */
		uint16_t h = v < 0 ? 0x8000 : 0;

		if (v != 0)
			h |= (uint16_t)(((e + 14) << 10) | (uint16_t)((m * 2 - 1) * 1024));
		*(uint16_t *)p = h;
		break;
	}
	default: memset(p, 0, 16); break;
	}
}

static double dec(int dt, const void *p)
{
	switch (dt) {
	case HCCL_DATA_TYPE_INT8: return *(const int8_t *)p;
	case HCCL_DATA_TYPE_UINT8: return *(const uint8_t *)p;
	case HCCL_DATA_TYPE_INT16: return *(const int16_t *)p;
	case HCCL_DATA_TYPE_INT32: return *(const int32_t *)p;
	case HCCL_DATA_TYPE_INT64: return (double)*(const int64_t *)p;
	case HCCL_DATA_TYPE_FP32: return *(const float *)p;
	case HCCL_DATA_TYPE_FP64: return *(const double *)p;
	case HCCL_DATA_TYPE_BFP16: {
		uint32_t x = (uint32_t)*(const uint16_t *)p << 16;
		float f;

		memcpy(&f, &x, 4);
		return f;
	}
	case HCCL_DATA_TYPE_FP16: {
		uint16_t h = *(const uint16_t *)p;
		int e = (h >> 10) & 0x1f, m = h & 0x3ff;
		double v = e ? ldexp(1 + m / 1024.0, e - 15) : ldexp(m, -24);

		return h & 0x8000 ? -v : v;
	}
	default: return NAN;
	}
}

static double fold(int op, double a, double b)
{
	return op == 0 ? a + b : op == 1 ? a * b : op == 2 ? fmax(a, b) : fmin(a, b);
}

/* The value element i of this rank's result must have. */
static double expect(const struct opts *o, int me, uint64_t i)
{
	uint64_t k = o->count;
	double v;

	switch (o->coll) {
	case ALLREDUCE:
	case REDUCESCATTER: {
		uint64_t j = o->coll == ALLREDUCE ? i : (uint64_t)me * k + i;

		v = in_reduce(0, j);
		for (int r = 1; r < o->n; r++)
			v = fold(o->op, v, in_reduce(r, j));
		return v;
	}
	case ALLGATHER: return in_move((int)(i / k), i % k);
	case BROADCAST: return in_move(o->root, i);
	case ALLTOALL: return in_move((int)(i / k), (uint64_t)me * k + i % k);
	case SENDRECV: return in_move((me + o->n - 1) % o->n, i);
	}
	return 0;
}

/* ---- one rank ---- */

/* A whole record from a pipe (a root info is more than PIPE_BUF). 0, or -1 at EOF. */
static int read_full(int fd, void *buf, size_t len)
{
	char *p = buf;

	while (len) {
		ssize_t k = read(fd, p, len);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		p += k;
		len -= (size_t)k;
	}
	return 0;
}

#define CHECK_ACL(call)                                                                   \
	do {                                                                              \
		aclError e_ = (call);                                                     \
		if (e_ != ACL_SUCCESS) {                                                  \
			printf("rank %d: %s = %d\n", me, #call, e_);                      \
			return 1;                                                         \
		}                                                                         \
	} while (0)

static HcclResult issue(const struct opts *o, int me, void *sbuf, void *rbuf, HcclComm comm,
			aclrtStream st)
{
	uint64_t k = o->count;
	HcclResult rc;

	switch (o->coll) {
	case ALLREDUCE: return HcclAllReduce(sbuf, rbuf, k, o->dt, o->op, comm, st);
	case ALLGATHER: return HcclAllGather(sbuf, rbuf, k, o->dt, comm, st);
	case REDUCESCATTER: return HcclReduceScatter(sbuf, rbuf, k, o->dt, o->op, comm, st);
	case BROADCAST: return HcclBroadcast(rbuf, k, o->dt, (uint32_t)o->root, comm, st);
	case ALLTOALL: return HcclAlltoAll(sbuf, k, o->dt, rbuf, k, o->dt, comm, st);
	case BARRIER: return HcclBarrier(comm, st);
	case SENDRECV: {
		uint32_t to = (uint32_t)((me + 1) % o->n), from = (uint32_t)((me + o->n - 1) % o->n);

		/* Even ranks send first, odd ranks receive first: no ring of waiting senders. */
		if (me % 2 == 0 && (rc = HcclSend(sbuf, k, o->dt, to, comm, st)))
			return rc;
		if ((rc = HcclRecv(rbuf, k, o->dt, from, comm, st)))
			return rc;
		return me % 2 ? HcclSend(sbuf, k, o->dt, to, comm, st) : HCCL_SUCCESS;
	}
	}
	return HCCL_E_PARA;
}

static int rank_main(const struct opts *given, int me, int info_in, int info_out)
{
	struct opts mine = *given;
	const struct opts *o = &mine;

	mine.count += given->skew && me == given->n - 1;
	uint64_t k = o->count, n = (uint64_t)o->n;
	uint64_t sn = o->coll == REDUCESCATTER || o->coll == ALLTOALL ? n * k : k;
	uint64_t rn = o->coll == ALLGATHER || o->coll == ALLTOALL ? n * k : k;
	size_t sbytes = (size_t)sn * o->esz + 1, rbytes = (size_t)rn * o->esz + 1;
	char *host = malloc(sbytes > rbytes ? sbytes : rbytes);
	void *sbuf, *rbuf;
	HcclComm comm;
	aclrtStream st;
	aclrtEvent e0, e1;
	HcclResult rc;
	float ms;

	CHECK_ACL(aclInit(NULL));
	CHECK_ACL(aclrtSetDevice(me));
	if (o->table) {
		rc = HcclCommInitClusterInfo(me % 2 && o->table_odd ? o->table_odd : o->table,
					     (uint32_t)me, &comm);
	} else {
		HcclRootInfo ri;

		if (me == 0) {
			if ((rc = HcclGetRootInfo(&ri))) {
				printf("rank 0: HcclGetRootInfo = %d\n", rc);
				return 1;
			}
			if (write(info_out, &ri, sizeof(ri)) != (ssize_t)sizeof(ri))
				return 1;
		} else if (read_full(info_in, &ri, sizeof(ri))) {
			printf("rank %d: no root info\n", me);
			return 1;
		}
		rc = HcclCommInitRootInfo((uint32_t)o->n, &ri, (uint32_t)me, &comm);
	}
	if (rc) {
		printf("rank %d: init = %d (%s)\n", me, rc, HcclGetErrorString(rc));
		return 1;
	}
	uint32_t got_rank, got_size;

	if (HcclGetRankId(comm, &got_rank) || HcclGetRankSize(comm, &got_size) ||
	    got_rank != (uint32_t)me || got_size != (uint32_t)o->n) {
		printf("rank %d: HcclGetRankId/HcclGetRankSize disagree\n", me);
		return 1;
	}
	CHECK_ACL(aclrtCreateStream(&st));
	CHECK_ACL(aclrtMalloc(&sbuf, sbytes, ACL_MEM_MALLOC_HUGE_FIRST));
	CHECK_ACL(aclrtMalloc(&rbuf, rbytes, ACL_MEM_MALLOC_HUGE_FIRST));
	CHECK_ACL(aclrtCreateEvent(&e0));
	CHECK_ACL(aclrtCreateEvent(&e1));
	for (int it = 1; it <= o->iters; it++) {
		uint64_t wrong = 0, first = 0;
		double got1 = 0, want1 = 0;
		aclError se;

		for (uint64_t i = 0; i < sn; i++)
			enc(o->dt, o->coll == ALLREDUCE || o->coll == REDUCESCATTER ? in_reduce(me, i)
										     : in_move(me, i),
			    host + i * o->esz);
		CHECK_ACL(aclrtMemcpy(sbuf, sbytes, host, sn * o->esz, ACL_MEMCPY_HOST_TO_DEVICE));
		memset(host, 0, rn * o->esz);
		if (o->coll == BROADCAST && me == o->root)
			CHECK_ACL(aclrtMemcpy(rbuf, rbytes, sbuf, sn * o->esz,
					      ACL_MEMCPY_DEVICE_TO_DEVICE));
		else
			CHECK_ACL(aclrtMemcpy(rbuf, rbytes, host, rn * o->esz,
					      ACL_MEMCPY_HOST_TO_DEVICE));
		CHECK_ACL(aclrtRecordEvent(e0, st));
		if ((rc = issue(o, me, sbuf, rbuf, comm, st))) {
			printf("rank %d: call %d: %s = %d (%s)\n", me, it, colls[o->coll], rc,
			       HcclGetErrorString(rc));
			return 1;
		}
		CHECK_ACL(aclrtRecordEvent(e1, st));
		se = o->sync_ms < 0 ? aclrtSynchronizeStream(st)
				    : aclrtSynchronizeStreamWithTimeout(st, o->sync_ms);
		if (se) {
			HcclResult ae = HCCL_SUCCESS;

			HcclGetCommAsyncError(comm, &ae);
			printf("rank %d: call %d: stream sync = %d, async error %d (%s)\n", me, it, se,
			       ae, HcclGetErrorString(ae));
			fflush(stdout);
			_exit(1); /* a hung stream cannot be torn down; leave like a killed job */
		}
		if (aclrtEventElapsedTime(&ms, e0, e1) || !(ms >= 0)) {
			printf("rank %d: call %d: no elapsed time\n", me, it);
			return 1;
		}
		CHECK_ACL(aclrtMemcpy(host, rn * o->esz, rbuf, rn * o->esz, ACL_MEMCPY_DEVICE_TO_HOST));
		for (uint64_t i = 0; o->coll != BARRIER && i < rn; i++) {
			double g = dec(o->dt, host + i * o->esz), w = expect(o, me, i);

			if (g != w && wrong++ == 0)
				first = i, got1 = g, want1 = w;
		}
		if (wrong) {
			printf("rank %d: call %d: %llu wrong, first at %llu: got %g want %g\n", me, it,
			       (unsigned long long)wrong, (unsigned long long)first, got1, want1);
			return 1;
		}
	}
	HcclResult ae = HCCL_E_RESERVED;

	if (HcclGetCommAsyncError(comm, &ae) || ae != HCCL_SUCCESS) {
		printf("rank %d: async error %d after a clean run\n", me, ae);
		return 1;
	}
	CHECK_ACL(aclrtDestroyEvent(e0));
	CHECK_ACL(aclrtDestroyEvent(e1));
	CHECK_ACL(aclrtFree(sbuf));
	CHECK_ACL(aclrtFree(rbuf));
	if ((rc = HcclCommDestroy(comm))) {
		printf("rank %d: HcclCommDestroy = %d\n", me, rc);
		return 1;
	}
	CHECK_ACL(aclrtDestroyStream(st));
	CHECK_ACL(aclrtResetDevice(me));
	CHECK_ACL(aclFinalize());
	free(host);
	printf("rank %d: ok\n", me);
	return 0;
}

static int lookup(const char *s, const char *const *names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(s, names[i]))
			return (int)i;
	return -1;
}

static int run_main(int argc, char **argv)
{
	struct opts o = { .n = 2, .coll = -1, .dt = -1, .iters = 1, .sync_ms = -1, .count = 5 };
	int up[2], rin[64][2], outs[64], c, status, bad = 0, deadline_s = 60;
	pid_t pids[64];
	const char *dname = NULL;

	while ((c = getopt(argc, argv, "n:c:d:o:k:r:i:t:T:s:w:m")) != -1) {
		switch (c) {
		case 'n': o.n = atoi(optarg); break;
		case 'c': o.coll = lookup(optarg, colls, sizeof(colls) / sizeof(colls[0])); break;
		case 'd': dname = optarg; break;
		case 'o': o.op = lookup(optarg, ops, 4); break;
		case 'k': o.count = strtoull(optarg, NULL, 10); break;
		case 'r': o.root = atoi(optarg); break;
		case 'i': o.iters = atoi(optarg); break;
		case 't': o.table = optarg; break;
		case 'T': o.table_odd = optarg; break;
		case 'm': o.skew = 1; break;
		case 's': o.sync_ms = atoi(optarg); break;
		case 'w': deadline_s = atoi(optarg); break;
		default: return 64;
		}
	}
	for (size_t i = 0; dname && i < sizeof(dtypes) / sizeof(dtypes[0]); i++)
		if (!strcmp(dname, dtypes[i].name))
			o.dt = dtypes[i].dt, o.esz = dtypes[i].size;
	if (o.n < 1 || o.n > 64 || o.coll < 0 || o.dt < 0 || o.op < 0 || o.iters < 1) {
		fprintf(stderr, "usage: hccl_stub_driver run -n N -c COLL -d DTYPE [-o OP] ...\n");
		return 64;
	}
	/* up: rank 0 hands its root info to this process; rin[r]: this process to rank r. */
	if (pipe(up))
		return 1;
	fflush(stdout);
	for (int r = 0; r < o.n; r++) {
		int out[2];

		if (pipe(out) || pipe(rin[r]))
			return 1;
		if ((pids[r] = fork()) == 0) {
			dup2(out[1], STDOUT_FILENO);
			close(out[0]);
			exit(rank_main(&o, r, rin[r][0], up[1]) ? 1 : 0);
		}
		close(out[1]);
		close(rin[r][0]);
		outs[r] = out[0];
	}
	/* Rank 0 wrote the root info to pipe 0; hand a copy to every other rank. */
	if (!o.table && o.n > 1) {
		HcclRootInfo ri;

		close(up[1]);
		if (read_full(up[0], &ri, sizeof(ri)) == 0)
			for (int r = 1; r < o.n; r++)
				if (write(rin[r][1], &ri, sizeof(ri)) != (ssize_t)sizeof(ri))
					break;
	}
	for (int r = 0; r < o.n; r++) {
		char buf[OUTMAX];
		size_t len = 0;
		ssize_t k;
		struct pollfd p = { .fd = outs[r], .events = POLLIN };
		time_t end = time(NULL) + deadline_s;

		while (len < sizeof(buf) - 1 && poll(&p, 1, (int)(end - time(NULL)) * 1000) == 1 &&
		       (k = read(outs[r], buf + len, sizeof(buf) - 1 - len)) > 0)
			len += (size_t)k;
		buf[len] = 0;
		if (time(NULL) >= end) {
			kill(pids[r], SIGKILL);
			printf("%srank %d: no exit within %d s\n", buf, r, deadline_s);
		} else {
			fputs(buf, stdout);
		}
		waitpid(pids[r], &status, 0);
		bad |= !WIFEXITED(status) || WEXITSTATUS(status) != 0;
	}
	return bad;
}

/* ---- the argument checks, in one process with a world of one ---- */

#define SHOW(call) printf("%s = %d\n", #call, (int)(call))

static int args_main(void)
{
	HcclRootInfo ri, junk;
	HcclComm comm = NULL;
	aclrtStream st;
	void *d, *d2, *base;
	size_t size;
	char host[64];
	uint32_t v;
	HcclResult ae;
	int32_t dev;

	/* runtime */
	SHOW(aclFinalize());
	SHOW(aclInit(NULL));
	SHOW(aclInit(NULL));
	SHOW(aclrtGetDevice(&dev));
	SHOW(aclrtCreateStream(&st));
	SHOW(aclrtMalloc(&d, 64, ACL_MEM_MALLOC_HUGE_FIRST));
	SHOW(aclrtSetDevice(8));
	SHOW(aclrtSetDevice(-1));
	SHOW(aclrtSetDevice(0));
	SHOW(aclrtMalloc(&d, 0, ACL_MEM_MALLOC_HUGE_FIRST));
	SHOW(aclrtMalloc(NULL, 64, ACL_MEM_MALLOC_HUGE_FIRST));
	SHOW(aclrtMalloc(&d, 64, (aclrtMemMallocPolicy)9));
	SHOW(aclrtMalloc(&d, 64, ACL_MEM_MALLOC_HUGE_FIRST));
	SHOW(aclrtMalloc(&d2, 64, ACL_MEM_MALLOC_NORMAL_ONLY));
	SHOW(aclrtMemcpy(d, 64, host, 64, ACL_MEMCPY_DEVICE_TO_HOST));
	SHOW(aclrtMemcpy(host, 64, d, 64, ACL_MEMCPY_HOST_TO_DEVICE));
	SHOW(aclrtMemcpy(d, 64, host, 65, ACL_MEMCPY_HOST_TO_DEVICE));
	SHOW(aclrtMemcpy(d, 128, host, 65, ACL_MEMCPY_HOST_TO_DEVICE));
	SHOW(aclrtMemcpy(d, 64, host, 64, (aclrtMemcpyKind)7));
	SHOW(aclrtMemcpy(d, 64, host, 64, ACL_MEMCPY_HOST_TO_DEVICE));
	SHOW(aclrtMemcpy(d2, 64, d, 64, ACL_MEMCPY_DEVICE_TO_DEVICE));
	SHOW(aclrtMemcpy(host, 64, d2, 64, ACL_MEMCPY_DEFAULT));
	SHOW(aclrtMemset(d, 64, 0, 65));
	SHOW(aclrtMemset(d, 64, 0, 64));
	SHOW(aclrtMemGetAddressRange((char *)d + 10, &base, &size));
	printf("range base ok %d size %zu\n", base == d, size);
	SHOW(aclrtMemGetAddressRange(host, &base, &size));
	SHOW(aclrtFree((char *)d2 + 1));
	SHOW(aclrtFree(d2));
	SHOW(aclrtFree(d2));
	SHOW(aclrtCreateStream(NULL));
	SHOW(aclrtCreateStream(&st));
	SHOW(aclrtSynchronizeStreamWithTimeout(st, -2));
	SHOW(aclrtSynchronizeStreamWithTimeout(st, 0));
	SHOW(aclrtSynchronizeStream(NULL));
	SHOW(aclStubTaskFail(ACL_ERROR_RT_AICPU_EXCEPTION));
	printf("recent error: %s\n", aclGetRecentErrMsg());
	printf("recent error again: %s\n", aclGetRecentErrMsg() ? "set" : "(none)");
	/* HCCL, before a communicator */
	SHOW(HcclGetRootInfo(NULL));
	SHOW(HcclCommInitRootInfo(1, NULL, 0, &comm));
	memset(&junk, 'x', sizeof(junk));
	SHOW(HcclCommInitRootInfo(1, &junk, 0, &comm));
	SHOW(HcclGetRootInfo(&ri));
	SHOW(HcclCommInitRootInfo(1, &ri, 1, &comm));
	SHOW(HcclCommInitRootInfo(0, &ri, 0, &comm));
	SHOW(HcclCommInitRootInfo(1, &ri, 0, NULL));
	SHOW(HcclCommInitClusterInfo(NULL, 0, &comm));
	SHOW(HcclCommInitClusterInfo("/nonexistent/rank_table.json", 0, &comm));
	SHOW(HcclCommInitRootInfo(1, &ri, 0, &comm));
	SHOW(HcclGetRankSize(comm, &v));
	printf("rank size %u\n", v);
	SHOW(HcclGetRankId(comm, NULL));
	SHOW(HcclGetRankSize(NULL, &v));
	SHOW(HcclGetRankSize((HcclComm)host, &v));
	/* collectives: every argument HCCL checks */
	SHOW(HcclAllReduce(d, d, 4, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, NULL));
	SHOW(HcclAllReduce(d, d, 4, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, NULL, st));
	SHOW(HcclAllReduce(NULL, d, 4, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, st));
	SHOW(HcclAllReduce(host, d, 4, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, st));
	SHOW(HcclAllReduce(d, d, 17, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, st));
	SHOW(HcclAllReduce(d, d, 4, (HcclDataType)99, HCCL_REDUCE_SUM, comm, st));
	SHOW(HcclAllReduce(d, d, 4, (HcclDataType)-1, HCCL_REDUCE_SUM, comm, st));
	SHOW(HcclAllReduce(d, d, 4, HCCL_DATA_TYPE_FP32, (HcclReduceOp)4, comm, st));
	SHOW(HcclAllReduce(d, d, 4, HCCL_DATA_TYPE_FP64, HCCL_REDUCE_SUM, comm, st));
	SHOW(HcclAllReduce(d, d, 4, HCCL_DATA_TYPE_UINT32, HCCL_REDUCE_SUM, comm, st));
	SHOW(HcclAllReduce(d, d, 4, HCCL_DATA_TYPE_BFP16, HCCL_REDUCE_PROD, comm, st));
	SHOW(HcclAllReduce(d, d, 4, HCCL_DATA_TYPE_INT16, HCCL_REDUCE_PROD, comm, st));
	SHOW(HcclAllReduce(d, d, 4, HCCL_DATA_TYPE_INT128, HCCL_REDUCE_MAX, comm, st));
	SHOW(HcclAllReduce(d, d, 0, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, st));
	SHOW(HcclAllReduce(d, d, 16, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, st));
	SHOW(HcclReduceScatter(d, d, 8, HCCL_DATA_TYPE_FP64, HCCL_REDUCE_MIN, comm, st));
	SHOW(HcclAllGather(d, d, 8, HCCL_DATA_TYPE_FP64, comm, st));
	SHOW(HcclAllGather(d, d, 9, HCCL_DATA_TYPE_FP64, comm, st));
	SHOW(HcclAllGather(d, d, 4, HCCL_DATA_TYPE_INT128, comm, st));
	SHOW(HcclBroadcast(d, 8, HCCL_DATA_TYPE_FP64, 1, comm, st));
	SHOW(HcclBroadcast(d, 8, HCCL_DATA_TYPE_FP64, 0, comm, st));
	SHOW(HcclAlltoAll(d, 4, HCCL_DATA_TYPE_INT32, d, 4, HCCL_DATA_TYPE_INT32, comm, st));
	SHOW(HcclAlltoAll(d, 4, HCCL_DATA_TYPE_INT32, (char *)d + 16, 4, HCCL_DATA_TYPE_INT64,
			  comm, st));
	SHOW(HcclAlltoAll(d, 4, HCCL_DATA_TYPE_INT32, (char *)d + 16, 4, HCCL_DATA_TYPE_INT32,
			  comm, st));
	SHOW(HcclSend(d, 4, HCCL_DATA_TYPE_INT32, 0, comm, st));
	SHOW(HcclRecv(d, 4, HCCL_DATA_TYPE_INT32, 1, comm, st));
	SHOW(HcclBarrier(comm, st));
	SHOW(HcclBarrier(NULL, st));
	SHOW(aclrtSynchronizeStream(st));
	SHOW(HcclGetCommAsyncError(comm, &ae));
	printf("async error %d\n", ae);
	for (int c = -1; c <= HCCL_E_RESERVED; c += 1)
		if (c == -1 || c == 0 || c == 7 || c == 9 || c == 22 || c == HCCL_E_RESERVED)
			printf("HcclGetErrorString(%d) = %s\n", c, HcclGetErrorString((HcclResult)c));
	SHOW(HcclCommDestroy(comm));
	SHOW(HcclCommDestroy(comm));
	SHOW(aclrtDestroyStream(st));
	SHOW(aclrtDestroyStream(st));
	SHOW(aclrtFree(d));
	SHOW(aclFinalize());
	SHOW(aclFinalize());
	return 0;
}

/* ---- streams and events ---- */

static void nap(void *ms)
{
	struct timespec ts = { 0, (long)(intptr_t)ms * 1000000L };

	nanosleep(&ts, NULL);
}

static int order[8], norder;
static void note(void *k)
{
	order[norder++] = (int)(intptr_t)k;
}

static void fail_task(void *unused)
{
	(void)unused;
	aclStubTaskFail(ACL_ERROR_RT_AICPU_EXCEPTION);
}

static int stream_main(void)
{
	aclrtStream st;
	aclrtEvent a, b, never;
	aclrtEventRecordedStatus s;
	int32_t maj = 0, min = 0, pat = 0;
	uint32_t count = 0;
	float ms = -1;

	SHOW(aclrtGetVersion(&maj, &min, &pat));
	printf("version %d.%d.%d\n", maj, min, pat);
	SHOW(aclrtGetDeviceCount(&count));
	printf("devices %u\n", count);
	SHOW(aclInit(NULL));
	SHOW(aclrtSetDevice(3));
	SHOW(aclrtCreateStream(&st));
	SHOW(aclrtCreateEvent(&a));
	SHOW(aclrtCreateEvent(&b));
	SHOW(aclrtCreateEvent(&never));
	SHOW(aclrtEventElapsedTime(&ms, a, b));
	SHOW(aclrtRecordEvent(a, st));
	SHOW(aclrtLaunchCallback(nap, (void *)(intptr_t)300, ACL_CALLBACK_BLOCK, st));
	SHOW(aclrtRecordEvent(b, st));
	/* The host got here before the stream did: the work is asynchronous. */
	SHOW(aclrtQueryEventStatus(b, &s));
	printf("end event before sync: %s\n", s == ACL_EVENT_RECORDED_STATUS_COMPLETE ? "complete"
											 : "not ready");
	SHOW(aclrtEventElapsedTime(&ms, a, b));
	SHOW(aclrtSynchronizeStreamWithTimeout(st, 50));
	SHOW(aclrtSynchronizeEvent(b));
	SHOW(aclrtQueryEventStatus(b, &s));
	printf("end event after sync: %s\n", s == ACL_EVENT_RECORDED_STATUS_COMPLETE ? "complete"
											: "not ready");
	SHOW(aclrtEventElapsedTime(&ms, a, b));
	printf("elapsed 300 ms nap: %s\n", ms >= 299.0f && ms < 1500.0f ? "in [299, 1500)" : "OUT");
	SHOW(aclrtEventElapsedTime(&ms, b, a));
	SHOW(aclrtEventElapsedTime(&ms, a, never));
	for (int k = 1; k <= 5; k++)
		aclrtLaunchCallback(note, (void *)(intptr_t)k, ACL_CALLBACK_BLOCK, st);
	SHOW(aclrtSynchronizeStream(st));
	printf("order %d %d %d %d %d (%d tasks)\n", order[0], order[1], order[2], order[3], order[4],
	       norder);
	/* A failed task poisons the stream: later work is skipped, syncs report the code. */
	SHOW(aclrtLaunchCallback(fail_task, NULL, ACL_CALLBACK_BLOCK, st));
	SHOW(aclrtLaunchCallback(note, (void *)(intptr_t)6, ACL_CALLBACK_BLOCK, st));
	SHOW(aclrtRecordEvent(a, st));
	SHOW(aclrtSynchronizeStream(st));
	SHOW(aclrtSynchronizeStream(st));
	SHOW(aclrtSynchronizeEvent(a));
	printf("tasks after the failure ran: %d\n", norder - 5);
	SHOW(aclrtLaunchCallback(NULL, NULL, ACL_CALLBACK_BLOCK, st));
	SHOW(aclrtLaunchCallback(note, NULL, (aclrtCallbackBlockType)5, st));
	SHOW(aclrtDestroyEvent(a));
	SHOW(aclrtDestroyEvent(a));
	SHOW(aclrtDestroyEvent(b));
	SHOW(aclrtDestroyEvent(never));
	SHOW(aclrtDestroyStream(st));
	SHOW(aclrtResetDevice(3));
	SHOW(aclFinalize());
	return 0;
}

/* The logical devices this process sees and the physical id of each. */
static int devices_main(void)
{
	uint32_t n = 0;
	int32_t p = -1;

	SHOW(aclrtGetDeviceCount(&n));
	printf("count %u\n", n);
	for (uint32_t i = 0; i < n; i++) {
		aclError rc = aclrtGetPhyDevIdByLogicDevId((int32_t)i, &p);
		if (rc)
			printf("logical %u: aclrtGetPhyDevIdByLogicDevId = %d\n", i, rc);
		else
			printf("logical %u: physical %d\n", i, (int)p);
	}
	SHOW(aclrtGetPhyDevIdByLogicDevId((int32_t)n, &p));
	SHOW(aclrtGetPhyDevIdByLogicDevId(0, NULL));
	SHOW(aclrtSetDevice((int32_t)n));
	return 0;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc >= 2 && !strcmp(argv[1], "run"))
		return run_main(argc - 1, argv + 1);
	if (argc == 2 && !strcmp(argv[1], "args"))
		return args_main();
	if (argc == 2 && !strcmp(argv[1], "stream"))
		return stream_main();
	if (argc == 2 && !strcmp(argv[1], "devices"))
		return devices_main();
	fprintf(stderr, "usage: hccl_stub_driver run ...|args|stream|devices\n");
	return 64;
}
