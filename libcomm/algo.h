/* The boundary between the collective algorithms (ring, rhd, mesh, auto, reduce kernels) and
 * the engine (bootstrap, transport, progress, deadlines). Algorithms see a communicator only
 * through this header: its rank, size, and a step-wise full-duplex exchange with peers. */
#ifndef LIBCOMM_ALGO_H
#define LIBCOMM_ALGO_H

#include <stdbool.h>
#include <string.h>

#include "libcomm/libcomm.h"

/* One transfer of a step: send slen bytes to peer and/or receive rlen bytes from peer.
 * sbuf NULL/slen 0: receive only; rbuf NULL/rlen 0: send only. */
struct comm__xfer {
	int peer;
	const void *sbuf;
	size_t slen;
	void *rbuf;
	size_t rlen;
};

/* What the engine hands to an algorithm for one collective. */
struct comm__ctx {
	struct comm *comm; /* opaque to algorithms */
	int rank, nranks;
	void *scratch;     /* engine-owned scratch, scratch_len bytes, reused across calls */
	size_t scratch_len;
	/* Runs all transfers of one step concurrently (sends and receives in flight together)
	 * and returns when every one has completed (a send: handed to the transport): 0, or a
	 * comm_status with the message (naming the peer, this step number and bytes moved)
	 * recorded by the engine. A peer may have several sends in one call (they go out in
	 * array order, received in that order by the peer's calls) but at most one receive. */
	int (*exchange)(struct comm__ctx *ctx, int step, struct comm__xfer *x, size_t n);
	/* Asks for scratch of at least len bytes (reallocated outside the hot path). */
	int (*need_scratch)(struct comm__ctx *ctx, size_t len);
	/* Bytes of sends to one peer that the transport takes without that peer receiving (a
	 * fixed socket send buffer, conservatively): sends may run this far ahead of the
	 * receives the peer has posted without any risk of deadlock. 0: a send may complete
	 * only as fast as its peer receives, so none may run ahead. */
	size_t send_ahead;
};

/* One step of a send to `to` and a receive from `from`, merged into one transfer when they
 * are the same peer; nothing at all when both lengths are 0. (step.c) */
int comm__sendrecv(struct comm__ctx *x, int step, int to, const void *sb, size_t sl, int from,
		   void *rb, size_t rl);

/* Nothing to exchange: no data, or a world of one rank, whose result of an allreduce or a
 * reduce-scatter is its own contribution (copied to recv unless in place). 1 when done so.
 * (step.c) */
int comm__alone(const struct comm__ctx *x, const void *send, void *recv, size_t bytes);

/* The loop shape GCC's -O2 ("very cheap") vectoriser needs: a known trip count W inside,
 * the remainder scalar. STMT uses i. */
#define COMM__LOOP(W, STMT)                                                                        \
	size_t i0 = 0;                                                                             \
	for (; i0 + (W) <= n; i0 += (W))                                                           \
		for (size_t j = 0; j < (W); j++) {                                                 \
			size_t i = i0 + j;                                                         \
			STMT;                                                                      \
		}                                                                                  \
	for (size_t i = i0; i < n; i++)                                                            \
		STMT;

/* Adds a send and/or a receive with peer to x[*n], merged into the peer's entry if it has
 * one (what the symmetric algorithms want: one transfer per peer). (step.c) */
void comm__xfer_add(struct comm__xfer *x, size_t *n, int peer, const void *sb, size_t sl,
		    void *rb, size_t rl);

/* One direct step with every peer, COMM__DIRECT_BATCH offsets per exchange call, pairing
 * "send to r+o" with "receive from r-o" so partners are always in the same call; bufs says
 * what goes to `to` and where the bytes of `from` land (a length 0: nothing). (step.c) */
#define COMM__DIRECT_BATCH 16
typedef void (*comm__peer_bufs_fn)(const void *arg, int to, int from, const void **sb,
				   size_t *sl, void **rb, size_t *rl);
int comm__direct(struct comm__ctx *x, int step, comm__peer_bufs_fn bufs, const void *arg);

/* Bit casts between float and its IEEE bits, for the kernels. */
static inline uint32_t comm__f32_bits(float f)
{
	uint32_t u;
	memcpy(&u, &f, sizeof(u));
	return u;
}
static inline float comm__bits_f32(uint32_t u)
{
	float f;
	memcpy(&f, &u, sizeof(f));
	return f;
}

/* F16C and AVX with the OS saving the YMM state (CPUID), cached. (reduce.c) */
int comm__cpu_has_f16c(void);

/* ---- reduce kernels (reduce.c): dst[i] = dst[i] op src[i]. fp16/bf16 reduced in fp32,
 * rounded to nearest even. Vectorised where the compiler can; F16C detected at run time. */
void comm__reduce(enum comm_dtype t, enum comm_op op, void *dst, const void *src, size_t count);
/* dst[i] = a[i] op b[i] (out of place, so algorithms avoid a copy). */
void comm__reduce3(enum comm_dtype t, enum comm_op op, void *dst, const void *a, const void *b,
		   size_t count);
/* mesh.c: out = c_0 op c_1 op ... op c_{N-1} in rank order (the same chain on every rank, so
 * identical bits), c_j in slot j of slots (slot_bytes apart), rank r's own at mine. */
void comm__reduce_in_order(int n, int r, void *out, const void *mine, const void *slots,
			   size_t slot_bytes, size_t elems, enum comm_dtype t, enum comm_op op);
float comm__fp16_to_fp32(uint16_t h);
uint16_t comm__fp32_to_fp16(float f);
float comm__bf16_to_fp32(uint16_t h);
uint16_t comm__fp32_to_bf16(float f);

/* ---- algorithms: each in its own file, no allocation on the hot path beyond
 * need_scratch. Counts are elements; send == recv means in place. All ranks call with the
 * same arguments (the engine has checked the fingerprint before calling). ---- */
int comm__allreduce_ring(struct comm__ctx *x, const void *send, void *recv, size_t count,
			 enum comm_dtype t, enum comm_op op);
/* rhd's allreduce trades whole vectors up to this size (recursive doubling, log2 N steps),
 * and halves then doubles them above it (Rabenseifner, 2 log2 N steps, less data). */
#define COMM__RD_WHOLE_MAX ((size_t)16 << 10)
int comm__allreduce_rhd(struct comm__ctx *x, const void *send, void *recv, size_t count,
			enum comm_dtype t, enum comm_op op);
int comm__allreduce_mesh(struct comm__ctx *x, const void *send, void *recv, size_t count,
			 enum comm_dtype t, enum comm_op op);
int comm__allgather_ring(struct comm__ctx *x, const void *send, void *recv, size_t count,
			 enum comm_dtype t);
int comm__allgather_rhd(struct comm__ctx *x, const void *send, void *recv, size_t count,
			enum comm_dtype t);
int comm__allgather_mesh(struct comm__ctx *x, const void *send, void *recv, size_t count,
			 enum comm_dtype t);
int comm__reduce_scatter_ring(struct comm__ctx *x, const void *send, void *recv, size_t count,
			      enum comm_dtype t, enum comm_op op);
int comm__reduce_scatter_rhd(struct comm__ctx *x, const void *send, void *recv, size_t count,
			     enum comm_dtype t, enum comm_op op);
int comm__reduce_scatter_mesh(struct comm__ctx *x, const void *send, void *recv, size_t count,
			      enum comm_dtype t, enum comm_op op);
int comm__broadcast_ring(struct comm__ctx *x, void *buf, size_t count, enum comm_dtype t,
			 int root); /* pipelined chain */
int comm__broadcast_rhd(struct comm__ctx *x, void *buf, size_t count, enum comm_dtype t,
			int root); /* binomial tree */
int comm__broadcast_mesh(struct comm__ctx *x, void *buf, size_t count, enum comm_dtype t,
			 int root);
int comm__alltoall_mesh(struct comm__ctx *x, const void *send, void *recv, size_t count,
			enum comm_dtype t); /* pairwise exchange, nranks-1 steps */
int comm__barrier_rhd(struct comm__ctx *x); /* dissemination */

/* ---- int8 block quantisation (compress.c). A packed run of count elements is
 * ceil(count / COMM_COMPRESS_BLOCK) fp32 scales (native byte order, any alignment), then
 * count int8 values; block k of the run is scale k and values k*BLOCK... Each value is
 * round(x * 127 / maxabs) (ties away from zero), so |x - q * scale| <= scale / 2. A block
 * with an Inf or NaN gets a NaN scale (all its values dequantise to NaN). ---- */
size_t comm__q8_size(size_t count);
/* src: count elements of t (fp32, fp16 or bf16). */
void comm__q8_pack(enum comm_dtype t, const void *src, size_t count, void *packed);
/* dst: count elements of t, rounded to nearest even from the fp32 value q * scale. */
void comm__q8_unpack(const void *packed, size_t count, enum comm_dtype t, void *dst);
/* acc[i] += q[i] * scale, in fp32. */
void comm__q8_accumulate(float *acc, const void *packed, size_t count);
/* The compressed allreduce (sum of fp32/fp16/bf16; see comm_allreduce_compressed): direct
 * reduce-scatter of quantised contributions, then the owners' quantised sums to every rank,
 * directly (ring 0) or around the ring (ring 1). */
int comm__allreduce_q8(struct comm__ctx *x, const void *send, void *recv, size_t count,
		       enum comm_dtype t, int ring);

/* Auto selection by collective, bytes and world size; the fixed choice when algo != AUTO
 * (an algorithm a collective lacks falls back to the nearest one that exists). */
enum comm_algo comm__select(enum comm_coll coll, size_t bytes, int nranks, enum comm_algo algo);
/* The same, knowing whether every rank of the communicator is on one host (the same on every
 * rank: it comes from the address book all of them hold). */
enum comm_algo comm__select_here(enum comm_coll coll, size_t bytes, int nranks,
				 enum comm_algo algo, bool one_host);
/* Runs coll with the selected algorithm. */
int comm__run(struct comm__ctx *x, enum comm_coll coll, enum comm_algo algo, const void *send,
	      void *recv, size_t count, enum comm_dtype t, enum comm_op op, int root);

#endif
