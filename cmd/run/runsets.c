/* The -d and -o words of nccl-tests and hccl_test beside hcclctl's own, and the runs they ask
 * for: `-d all` runs every dtype in turn, `-o all` every op, `-N` the whole set N times (0:
 * until Ctrl-C), each as one sweep (runrank.c) whose rows go to one table. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cli/cli.h"
#include "cmd/run/run.h"

/* Other tools' names of libcomm's types: nccl-tests' (float, half, bfloat16, double, int),
 * hccl_test's (bfp16), and the long ones scripts use. */
static const struct {
	const char *name;
	enum comm_dtype t;
} aliases[] = {
	{ "float", COMM_FP32 },	   { "float32", COMM_FP32 }, { "half", COMM_FP16 },
	{ "float16", COMM_FP16 },  { "bfloat16", COMM_BF16 }, { "bfp16", COMM_BF16 },
	{ "double", COMM_FP64 },   { "float64", COMM_FP64 }, { "int", COMM_INT32 },
};

/* Types of nccl-tests or hccl_test that libcomm has no kernels for, and why. */
static const struct {
	const char *name, *why;
} missing[] = {
	{ "uint16", "libcomm has no uint16 (hccl_test's): use int16 or uint32" },
	{ "f8e4m3", "libcomm has no 8-bit floats (nccl-tests' f8e4m3)" },
	{ "f8e5m2", "libcomm has no 8-bit floats (nccl-tests' f8e5m2)" },
	{ "fp8e4m3", "libcomm has no 8-bit floats (hccl_test's fp8e4m3)" },
	{ "fp8e5m2", "libcomm has no 8-bit floats (hccl_test's fp8e5m2)" },
	{ "fp8e8m0", "libcomm has no 8-bit floats (hccl_test's fp8e8m0)" },
	{ "hif8", "libcomm has no 8-bit floats (hccl_test's hif8)" },
};

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

int run_dtypes_parse(const char *word, enum comm_dtype *out, char *why, size_t len)
{
	if (!strcmp(word, "all")) {
		for (int t = 0; t < COMM_DTYPE_COUNT; t++)
			out[t] = (enum comm_dtype)t;
		return COMM_DTYPE_COUNT;
	}
	int t = comm_dtype_parse(word);
	for (size_t i = 0; t < 0 && i < NELEM(aliases); i++)
		if (!strcmp(word, aliases[i].name))
			t = (int)aliases[i].t;
	if (t >= 0) {
		out[0] = (enum comm_dtype)t;
		return 1;
	}
	for (size_t i = 0; i < NELEM(missing); i++)
		if (!strcmp(word, missing[i].name)) {
			snprintf(why, len, "datatype '%s' is not supported: %s", word, missing[i].why);
			return -1;
		}
	snprintf(why, len, "unknown datatype '%s'", word);
	return -1;
}

int run_ops_parse(const char *word, enum comm_op *out, char *why, size_t len)
{
	if (!strcmp(word, "all")) { /* nccl-tests' all, less avg (below) */
		for (int o = 0; o < COMM_OP_COUNT; o++)
			out[o] = (enum comm_op)o;
		return COMM_OP_COUNT;
	}
	int o = comm_op_parse(word);
	if (o >= 0) {
		out[0] = (enum comm_op)o;
		return 1;
	}
	if (!strcmp(word, "avg"))
		snprintf(why, len, "op 'avg' is not supported: libcomm has no average; it is the sum "
				   "divided by the world size, as -o sum measures it");
	else
		snprintf(why, len, "unknown op '%s'", word);
	return -1;
}

/* One sweep of p's dtype and op; rows and the first wrong element as run_sweep's. */
static int one_sweep(struct comm *c, const struct run_params *p, run_row_fn row_fn, void *arg,
		     char *first_wrong, size_t len)
{
	struct run_row *rows = NULL;
	size_t nrows = 0;
	char wrong[512] = "";
	int rc = run_sweep(c, p, row_fn, arg, &rows, &nrows, wrong, sizeof(wrong));
	free(rows);
	if (*wrong && !*first_wrong)
		snprintf(first_wrong, len, "%s", wrong);
	return rc;
}

int run_sets(struct comm *c, const struct run_params *p, run_row_fn row_fn, void *arg,
	     char *first_wrong, size_t len)
{
	int any_wrong = 0;
	int reduces = p->coll == COMM_COLL_ALLREDUCE || p->coll == COMM_COLL_REDUCESCATTER;
	int nops = reduces ? p->nops : 1; /* the others have no op: one sweep per dtype */
	*first_wrong = 0;
	for (long cyc = 0; p->cycles == 0 || cyc < p->cycles; cyc++)
		for (int d = 0; d < p->ndtypes; d++)
			for (int o = 0; o < nops; o++) {
				struct run_params q = *p;
				q.dtype = p->dtypes[d];
				q.op = p->ops[o];
				int rc = one_sweep(c, &q, row_fn, arg, first_wrong, len);
				if (rc < 0)
					return rc;
				any_wrong |= rc == 1;
				/* Ctrl-C or a closed stdout: every rank agreed on it at the same row */
				if (run_stop_agreed())
					return any_wrong;
				if (p->coll == COMM_COLL_BARRIER) /* no dtype: once per cycle */
					d = p->ndtypes;
			}
	return any_wrong;
}

/* nccl-tests' -g and -t, hccl_test's -p: how many ranks where. hcclctl runs one rank per
 * process, so G devices of T threads in one process are G x T ranks on this host (--local);
 * under a launcher that starts the ranks itself they cannot be, and saying so beats a job of
 * the wrong size. hccl_test's -p N is the launcher's ranks per node there (not checked), and
 * --local N alone. */
int run_placement_read(struct run_placement *pl)
{
	long gt = pl->ngpus * pl->nthreads, one = pl->ngpus > 1 ? pl->ngpus : pl->nthreads;
	const char *flag = pl->ngpus > 1 ? "-g" : "-t";
	if (gt > 1 && (pl->launcher || pl->local || pl->npus))
		return fail(EXIT_USAGE, pl->where,
			    "start the ranks per node with the launcher, or give --local N alone",
			    "%s %ld: hcclctl runs one rank per process: beside --local, -p or a "
			    "launcher's ranks it cannot add any", flag, one);
	if (gt > 4096)
		return fail(EXIT_USAGE, pl->where, NULL, "-g x -t: %ld ranks, at most 4096", gt);
	if (gt > 1) {
		if (!g_opts.quiet)
			warn_msg(pl->where, "%s %ld: hcclctl runs one rank per process: %ld ranks "
				 "on this host, as --local %ld", flag, one, gt, gt);
		pl->local = gt;
	}
	if (pl->npus && pl->local)
		return fail(EXIT_USAGE, pl->where, NULL, "-p is --local: give one of them");
	if (pl->npus && !pl->launcher)
		pl->local = pl->npus;
	return 0;
}
