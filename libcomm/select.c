/* Algorithm choice and dispatch. The automatic choice follows the alpha-beta-gamma model of
 * Thakur, Rabenseifner and Gropp and Open MPI's measured cut-overs: a step costs a latency
 * alpha (tens of microseconds over TCP), so small messages want few steps (mesh: 1-2 steps
 * but N-1 flows; rhd: ~2 log2 N), large ones want the least data per link and long
 * neighbour-only flows (ring: 2(N-1)/N of the vector, 2(N-1) steps). Other sizes than powers
 * of two pay rhd's fold (a whole extra vector); since the ring runs ahead, powers of two go
 * to it as early. The thresholds are measured by `make bench BENCH=algos`. */
#include "libcomm/algo.h"

#define KiB ((size_t)1 << 10)

/* mesh: one step, N-1 concurrent flows; only while that is few flows and little data. At
 * N=4 rhd's two steps with one peer each beat it from 8 B to 8 KiB for allreduce, allgather
 * and reduce-scatter (1 Gbit/s links, two runs each: 80-160 vs 120-260 us allreduce,
 * 98-114 vs 148-196 us allgather, 83-109 vs 122-175 us reduce-scatter). */
#define MESH_MAX_RANKS 3
#define MESH_MAX_BYTES (32 * KiB)
/* rhd -> ring cut-over (bytes of the whole vector), measured by `make bench BENCH=algos`
 * (1 Gbit/s links): since the ring runs ahead and cuts mid-size blocks into chunks, it beats
 * rhd from 128 KiB on, powers of two included (allreduce at 128 KiB, N=4: 0.096 vs 0.029
 * GB/s busbw; N=8: 0.044 vs 0.015), while rhd wins at 64 KiB (N=4: 0.089 vs 0.054).
 * Broadcast's binomial tree was not measured there and keeps its cut-over. */
#define RHD_MAX_POW2 (64 * KiB)
#define RHD_MAX_OTHER (64 * KiB)
#define BCAST_RHD_MAX_POW2 (512 * KiB)
/* Every rank on one host: a step costs no wire latency but the wake-up of the ranks it waits
 * for, and with more ranks than cores a rank waits for the others to get a core at every
 * step, so the fewest steps win. A tiny allreduce goes in one step (mesh: the whole vector to
 * every peer, each rank reduces all N in rank order). 8-byte fp32 allreduce on this 2-core
 * machine, shared memory, median of 5 launches interleaved, load average 4 from other work:
 * N=4 rhd (4 steps) 23.0 us, one step 19.0; N=8 rhd (6 steps) 87.1, one step 80.2 (the best
 * launches: 74.5 and 41.0). Up to a server's 8 ranks: N-1 frames in and out per rank. */
#define ONE_HOST_FLAT_MAX (4 * KiB) /* mesh.c's one-step bound */
#define ONE_HOST_FLAT_RANKS 8

static int is_pow2(int n)
{
	return n > 0 && (n & (n - 1)) == 0;
}

/* bytes: count x dtype size as given to the collective (the per-rank block for allgather
 * and reduce-scatter, whose whole vector is nranks times that). */
enum comm_algo comm__select(enum comm_coll coll, size_t bytes, int nranks, enum comm_algo algo)
{
	size_t vec = bytes;

	switch (coll) {
	case COMM_COLL_ALLTOALL: /* pairwise exchange is the only one there is */
	case COMM_COLL_SEND:
	case COMM_COLL_RECV: /* point to point: direct */
		return COMM_ALGO_MESH;
	case COMM_COLL_BARRIER: /* dissemination */
		return COMM_ALGO_RHD;
	case COMM_COLL_ALLGATHER:
	case COMM_COLL_REDUCESCATTER:
		vec = bytes * (size_t)(nranks > 0 ? nranks : 1);
		break;
	default:
		break;
	}
	if (algo == COMM_ALGO_RING || algo == COMM_ALGO_RHD || algo == COMM_ALGO_MESH)
		return algo; /* the remaining collectives have all three */

	if (nranks <= 2) /* one peer: ring, rhd and mesh move the same data in the same steps;
			  * mesh has the fewest exchange calls. An allgather has nothing to reduce
			  * between chunks, so its one whole transfer stays ahead at every size
			  * (1 Gbit/s: 0.1095-0.1117 vs the ring's 0.1078-0.1113 GB/s, 512K-32M) */
		return vec <= RHD_MAX_POW2 || coll == COMM_COLL_ALLGATHER ? COMM_ALGO_MESH
									    : COMM_ALGO_RING;
	if (nranks <= MESH_MAX_RANKS && vec <= MESH_MAX_BYTES)
		return COMM_ALGO_MESH;
	if (coll == COMM_COLL_BROADCAST) /* binomial tree until the pipelined chain pays */
		return bytes <= (is_pow2(nranks) ? BCAST_RHD_MAX_POW2 : RHD_MAX_OTHER)
			       ? COMM_ALGO_RHD
			       : COMM_ALGO_RING;
	return vec <= (is_pow2(nranks) ? RHD_MAX_POW2 : RHD_MAX_OTHER) ? COMM_ALGO_RHD
								       : COMM_ALGO_RING;
}

enum comm_algo comm__select_here(enum comm_coll coll, size_t bytes, int nranks,
				 enum comm_algo algo, bool one_host)
{
	if (one_host && algo == COMM_ALGO_AUTO && coll == COMM_COLL_ALLREDUCE &&
	    bytes <= ONE_HOST_FLAT_MAX && nranks <= ONE_HOST_FLAT_RANKS)
		return COMM_ALGO_MESH;
	return comm__select(coll, bytes, nranks, algo);
}

/* Broadcast works on recv (the engine passes the user's buffer there; send is ignored). Send
 * and recv are the engine's (point to point, no algorithm), so they are refused here. */
int comm__run(struct comm__ctx *x, enum comm_coll coll, enum comm_algo algo, const void *send,
	      void *recv, size_t count, enum comm_dtype t, enum comm_op op, int root)
{
	enum comm_algo a;

	if (!x || x->nranks < 1 || x->rank < 0 || x->rank >= x->nranks ||
	    (unsigned)t >= COMM_DTYPE_COUNT || (unsigned)algo >= COMM_ALGO_COUNT)
		return COMM_E_INVAL;
	if ((coll == COMM_COLL_ALLREDUCE || coll == COMM_COLL_REDUCESCATTER) &&
	    (unsigned)op >= COMM_OP_COUNT)
		return COMM_E_INVAL;
	if (count && coll != COMM_COLL_BARRIER && (!recv || (coll != COMM_COLL_BROADCAST && !send)))
		return COMM_E_INVAL;
	a = comm__select(coll, count * comm_dtype_size(t), x->nranks, algo);

	switch (coll) {
	case COMM_COLL_ALLREDUCE:
		if (a == COMM_ALGO_RING)
			return comm__allreduce_ring(x, send, recv, count, t, op);
		if (a == COMM_ALGO_MESH)
			return comm__allreduce_mesh(x, send, recv, count, t, op);
		return comm__allreduce_rhd(x, send, recv, count, t, op);
	case COMM_COLL_ALLGATHER:
		if (a == COMM_ALGO_RING)
			return comm__allgather_ring(x, send, recv, count, t);
		if (a == COMM_ALGO_MESH)
			return comm__allgather_mesh(x, send, recv, count, t);
		return comm__allgather_rhd(x, send, recv, count, t);
	case COMM_COLL_REDUCESCATTER:
		if (a == COMM_ALGO_RING)
			return comm__reduce_scatter_ring(x, send, recv, count, t, op);
		if (a == COMM_ALGO_MESH)
			return comm__reduce_scatter_mesh(x, send, recv, count, t, op);
		return comm__reduce_scatter_rhd(x, send, recv, count, t, op);
	case COMM_COLL_BROADCAST:
		if (root < 0 || root >= x->nranks)
			return COMM_E_INVAL;
		if (a == COMM_ALGO_RING)
			return comm__broadcast_ring(x, recv, count, t, root);
		if (a == COMM_ALGO_MESH)
			return comm__broadcast_mesh(x, recv, count, t, root);
		return comm__broadcast_rhd(x, recv, count, t, root);
	case COMM_COLL_ALLTOALL:
		return comm__alltoall_mesh(x, send, recv, count, t);
	case COMM_COLL_BARRIER:
		return comm__barrier_rhd(x);
	default:
		return COMM_E_INVAL;
	}
}
