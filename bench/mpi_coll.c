/* Open MPI's side of the collective bench: MPI_Allreduce, MPI_Allgather and
 * MPI_Reduce_scatter_block on fp32 sum, measured the way `hcclctl run` measures ours
 * (nccl-tests conventions): the size is the collective's largest buffer, a barrier, then the
 * mean over the timed iterations of the slowest rank, algbw = size / time and busbw =
 * algbw x 2(n-1)/n for allreduce, (n-1)/n for the others. One clean call per size is checked
 * first (integers in fp32 are exact). Sizes that round to the buffers of the previous one
 * are skipped, as hcclctl skips them.
 *
 *   mpirun ... mpi_coll COLL SIZE[,SIZE...] WARMUP ITERS
 *
 * With HCCLCTL_BENCH_PIN=1 in the environment, rank r runs on CPU r mod (CPUs), as bench_pin
 * pins ours (bench/lib.sh).
 *
 * Rank 0 prints one JSON object per size on stdout; exit 2 when a result is wrong. */
#define _GNU_SOURCE
#include <mpi.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum coll { ALLREDUCE, ALLGATHER, REDUCESCATTER };

static int run_once(enum coll c, float *send, float *recv, size_t pc, int n)
{
	switch (c) {
	case ALLREDUCE:
		return MPI_Allreduce(send, recv, (int)pc, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
	case ALLGATHER:
		return MPI_Allgather(send, (int)pc, MPI_FLOAT, recv, (int)pc, MPI_FLOAT,
				     MPI_COMM_WORLD);
	case REDUCESCATTER:
		return MPI_Reduce_scatter_block(send, recv, (int)pc, MPI_FLOAT, MPI_SUM,
						MPI_COMM_WORLD);
	}
	(void)n;
	return MPI_ERR_ARG;
}

/* Elements this rank sends (allreduce, allgather) or receives (reducescatter): pc. */
static size_t per_rank(enum coll c, size_t bytes, int n)
{
	return c == ALLREDUCE ? bytes / sizeof(float) : bytes / sizeof(float) / (size_t)n;
}

static void fill(enum coll c, float *send, size_t pc, int rank, int n)
{
	size_t len = c == REDUCESCATTER ? pc * (size_t)n : pc;
	for (size_t i = 0; i < len; i++)
		send[i] = (float)((rank + 1) * (int)(i % 7 + 1));
}

static long long check(enum coll c, const float *recv, size_t pc, int rank, int n)
{
	long long wrong = 0;
	float sum_ranks = (float)(n * (n + 1) / 2);
	if (c == ALLGATHER) {
		for (int r = 0; r < n; r++)
			for (size_t i = 0; i < pc; i++)
				wrong += recv[(size_t)r * pc + i] !=
					 (float)((r + 1) * (int)(i % 7 + 1));
	} else {
		size_t off = c == REDUCESCATTER ? (size_t)rank * pc : 0;
		for (size_t i = 0; i < pc; i++)
			wrong += recv[i] != sum_ranks * (float)((off + i) % 7 + 1);
	}
	return wrong;
}

int main(int argc, char **argv)
{
	int rank, n, rc = 0;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &n);
	const char *pin = getenv("HCCLCTL_BENCH_PIN");
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	if (pin && !strcmp(pin, "1") && ncpu > 0) {
		cpu_set_t set;
		CPU_ZERO(&set);
		CPU_SET(rank % ncpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set))
			perror("mpi_coll: sched_setaffinity");
	}
	if (argc != 5) {
		if (!rank)
			fprintf(stderr, "usage: mpi_coll allreduce|allgather|reducescatter "
					"SIZE[,SIZE...] WARMUP ITERS\n");
		MPI_Finalize();
		return 64;
	}
	enum coll c = !strcmp(argv[1], "allgather")	  ? ALLGATHER
		      : !strcmp(argv[1], "reducescatter") ? REDUCESCATTER
							  : ALLREDUCE;
	long warmup = atol(argv[3]), iters = atol(argv[4]);
	if (iters < 1)
		iters = 1;
	size_t maxb = 0;
	for (const char *s = argv[2]; *s;) {
		char *end;
		size_t b = strtoull(s, &end, 10);
		maxb = b > maxb ? b : maxb;
		s = *end ? end + 1 : end;
	}
	size_t maxpc = per_rank(c, maxb, n) + 1;
	float *send = calloc(maxpc * (size_t)n, sizeof(float));
	float *recv = calloc(maxpc * (size_t)n, sizeof(float));
	if (!send || !recv) {
		fprintf(stderr, "mpi_coll: rank %d: cannot allocate 2 x %zu bytes\n", rank,
			maxpc * (size_t)n * sizeof(float));
		MPI_Abort(MPI_COMM_WORLD, 3);
	}
	size_t last = (size_t)-1;
	for (const char *s = argv[2]; *s;) {
		char *end;
		size_t bytes = strtoull(s, &end, 10);
		s = *end ? end + 1 : end;
		size_t pc = per_rank(c, bytes, n);
		size_t row = c == ALLREDUCE ? pc * sizeof(float) : pc * sizeof(float) * (size_t)n;
		if (row == last)
			continue;
		last = row;
		fill(c, send, pc, rank, n);
		run_once(c, send, recv, pc, n);
		long long wrong = check(c, recv, pc, rank, n), all_wrong = 0;
		MPI_Reduce(&wrong, &all_wrong, 1, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
		for (long w = 0; w < warmup; w++)
			run_once(c, send, recv, pc, n);
		MPI_Barrier(MPI_COMM_WORLD);
		double t0 = MPI_Wtime();
		for (long i = 0; i < iters; i++)
			run_once(c, send, recv, pc, n);
		double per = (MPI_Wtime() - t0) / (double)iters, tmax = 0;
		MPI_Reduce(&per, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
		if (rank == 0) {
			double algbw = tmax > 0 ? (double)row / tmax / 1e9 : 0;
			double f = c == ALLREDUCE ? 2.0 * (n - 1) / n : (double)(n - 1) / n;
			printf("{\"collective\": \"%s\", \"world_size\": %d, \"size_bytes\": %zu, "
			       "\"count\": %zu, \"time_us\": %.3f, \"algbw_GBps\": %.9g, "
			       "\"busbw_GBps\": %.9g, \"wrong\": %lld}\n",
			       argv[1], n, row, c == ALLREDUCE ? pc : pc * (size_t)n, tmax * 1e6,
			       algbw, algbw * f, all_wrong);
			fflush(stdout);
			if (all_wrong)
				rc = 2;
		}
	}
	free(send);
	free(recv);
	MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
	MPI_Finalize();
	return rc;
}
