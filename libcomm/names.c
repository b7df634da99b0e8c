/* Names of libcomm's enums and their parsers: one table per enum, so a name and its value
 * cannot drift between the two directions. */
#include "libcomm/libcomm.h"

static const char *const status_names[] = {
	"ok", "inval", "nomem", "sys", "timeout", "peer", "mismatch", "auth", "bootstrap", "proto",
};
static const char *const dtype_names[COMM_DTYPE_COUNT] = {
	"int8", "int32", "int64", "fp16", "bf16", "fp32", "fp64", "int16", "uint8", "uint32", "uint64",
};
static const size_t dtype_sizes[COMM_DTYPE_COUNT] = { 1, 4, 8, 2, 2, 4, 8, 2, 1, 4, 8 };
static const char *const op_names[COMM_OP_COUNT] = { "sum", "prod", "max", "min" };
static const char *const algo_names[COMM_ALGO_COUNT] = { "auto", "ring", "rhd", "mesh" };
static const char *const coll_names[COMM_COLL_COUNT] = {
	"allreduce", "allgather", "reducescatter", "broadcast", "alltoall", "send", "recv", "barrier",
};

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

const char *comm_status_name(int status)
{
	if (status > 0 || (size_t)-status >= NELEM(status_names))
		return "unknown";
	return status_names[-status];
}

size_t comm_dtype_size(enum comm_dtype t)
{
	return (unsigned)t < COMM_DTYPE_COUNT ? dtype_sizes[t] : 0;
}

const char *comm_dtype_name(enum comm_dtype t)
{
	return (unsigned)t < COMM_DTYPE_COUNT ? dtype_names[t] : "?";
}

const char *comm_op_name(enum comm_op op)
{
	return (unsigned)op < COMM_OP_COUNT ? op_names[op] : "?";
}

const char *comm_algo_name(enum comm_algo a)
{
	return (unsigned)a < COMM_ALGO_COUNT ? algo_names[a] : "?";
}

const char *comm_coll_name(enum comm_coll c)
{
	return (unsigned)c < COMM_COLL_COUNT ? coll_names[c] : "?";
}

static int lookup(const char *const *names, size_t n, const char *s)
{
	if (!s)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (strcmp(names[i], s) == 0)
			return (int)i;
	return -1;
}

int comm_dtype_parse(const char *s)
{
	return lookup(dtype_names, NELEM(dtype_names), s);
}

int comm_op_parse(const char *s)
{
	return lookup(op_names, NELEM(op_names), s);
}

int comm_algo_parse(const char *s)
{
	return lookup(algo_names, NELEM(algo_names), s);
}

int comm_coll_parse(const char *s)
{
	return lookup(coll_names, NELEM(coll_names), s);
}
