/* What the files of the stand-in libhccl.so share. Nothing here is exported (the names are
 * stubhccl_*, outside the exported Hccl* pattern). */
#ifndef STUB_HCCL_INTERNAL_H
#define STUB_HCCL_INTERNAL_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "tests/stub/hccl_types.h"

#define STUB_WHYLEN 256
#define STUB_NONCE 16
#define STUB_IPLEN 64

/* The collectives, as the data frames name them. */
enum stub_coll {
	STUB_ALLREDUCE, STUB_ALLGATHER, STUB_REDUCESCATTER, STUB_BROADCAST, STUB_ALLTOALL,
	STUB_SEND, STUB_BARRIER, STUB_COLL_COUNT
};
const char *stubhccl_coll_name(int coll);

/* ---- fault knobs (hccl_fault.c), read from the environment at init ---- */
struct stub_fault {
	long init_fail_rank; /* -1: none */
	int init_code;
	long error_rank;
	int error_code, error_async;
	long hang_rank;
	int hang_before;
	long corrupt_rank, corrupt_index;
	long at; /* the 1-based collective call the error, hang or corruption hits */
};
/* Fills f from HCCL_STUB_*; HCCL_E_PARA with why filled when a knob is not a number. */
HcclResult stubhccl_fault_read(struct stub_fault *f, char *why, size_t whylen);

/* ---- a communicator ---- */
struct stub_comm {
	pthread_mutex_t lock;
	int refs;       /* the handle and each queued collective */
	uint32_t rank, nranks;
	int device;
	int *fd;        /* per peer, -1 for this rank */
	uint32_t *seq_out, *seq_in; /* per peer: frames sent and received */
	unsigned ncalls;            /* collective calls so far (HCCL_STUB_AT counts these) */
	HcclResult async_error;
	int exec_timeout_ms;
	struct stub_fault fault;
	/* the received operands of the collective in progress, kept between calls: a fresh
	 * buffer per call is fresh pages, and faulting them in cost more than the transfer */
	char *scratch;
	size_t scratch_cap;
	int scratch_busy;
};

/* Seconds from an HCCL environment variable (HCCL_CONNECT_TIMEOUT, HCCL_EXEC_TIMEOUT), in ms. */
int stubhccl_env_ms(const char *name, int default_s);

/* ---- sockets (hccl_net.c) ---- */
/* A listening TCP socket on ip:port (port 0: any); the bound port in *bound. */
HcclResult stubhccl_listen(const char *ip, int port, int *fd, int *bound, char *why,
			   size_t whylen);
/* Connects to ip:port, retrying refused connections until deadline_ms (CLOCK_MONOTONIC). */
HcclResult stubhccl_connect(const char *ip, int port, int64_t deadline_ms, int *fd, char *why,
			    size_t whylen);
/* Accepts one connection by deadline_ms. */
HcclResult stubhccl_accept(int lfd, int64_t deadline_ms, int *fd, char *why, size_t whylen);
/* Whole-buffer transfers on a blocking or non-blocking socket, by deadline_ms. */
HcclResult stubhccl_write_all(int fd, const void *buf, size_t len, int64_t deadline_ms);
HcclResult stubhccl_read_all(int fd, void *buf, size_t len, int64_t deadline_ms);
int64_t stubhccl_now_ms(void);

/* One collective's traffic: to each peer with out set, a frame (header + outlen bytes);
 * from each peer with in set, a frame whose header must match hdr, its payload into in. */
struct stub_hdr {
	uint32_t magic, seq;
	uint8_t coll, dtype, op, pad;
	uint32_t root;
	uint64_t count;
};
struct stub_xfer {
	const void *out;
	size_t outlen;
	void *in;
	size_t inlen;
	int send, recv;
};
/* Moves every frame at once (poll), so that no order of sends and receives deadlocks.
 * HCCL_E_TIMEOUT after c->exec_timeout_ms, HCCL_E_TCP_TRANSFER when a peer goes away,
 * HCCL_E_PARA when a peer's frame is for a different operation; why names the peer. */
HcclResult stubhccl_exchange(struct stub_comm *c, const struct stub_hdr *hdr,
			     struct stub_xfer *x, char *why, size_t whylen);

/* ---- root info (hccl_rootinfo.c) ---- */
void stubhccl_root_format(HcclRootInfo *ri, const char *ip, int port,
			  const unsigned char nonce[STUB_NONCE]);
/* HCCL_E_PARA with why naming the byte where ri stops being one of ours. */
HcclResult stubhccl_root_parse(const HcclRootInfo *ri, char ip[STUB_IPLEN], int *port,
			       unsigned char nonce[STUB_NONCE], char *why, size_t whylen);

/* ---- bootstrap (hccl_boot.c) ---- */
/* Joins nranks ranks into a full mesh of TCP connections. The hub (hub_fd >= 0: this
 * process listens there) gathers every rank's hello and hands out the address book; the
 * others connect to hub_ip:hub_port. Ranks agree on nonce (root info or rank table). */
HcclResult stubhccl_bootstrap(struct stub_comm *c, int hub_fd, const char *hub_ip, int hub_port,
			      const char *my_ip, const unsigned char nonce[STUB_NONCE],
			      char *why, size_t whylen);

/* ---- communicators (hccl_comm.c) ---- */
HcclResult stubhccl_comm_new(uint32_t rank, uint32_t nranks, struct stub_comm **out);
/* Takes a reference on a live communicator handle; HCCL_E_PTR when it is not one. */
HcclResult stubhccl_comm_get(HcclComm h, struct stub_comm **out);
void stubhccl_comm_put(struct stub_comm *c);
/* Makes c reachable through its handle. */
void stubhccl_comm_publish(struct stub_comm *c);
/* Forgets the handle, wakes and fails anything waiting on c's sockets, drops the handle's
 * reference. HCCL_E_PTR when h is not a live communicator. */
HcclResult stubhccl_comm_unpublish(HcclComm h);

/* ---- data types and reduction (hccl_reduce.c) ---- */
/* Bytes per element, 0 for a value outside HcclDataType. */
size_t stubhccl_dtype_size(int dtype);
const char *stubhccl_dtype_name(int dtype);
/* Whether coll takes dtype and op as HCCL does on Atlas A2: HCCL_E_PARA for values outside
 * the enums, HCCL_E_NOT_SUPPORT for combinations HCCL documents as unsupported. */
HcclResult stubhccl_check_types(int coll, int dtype, int op);
/* acc[i] = acc[i] op src[i]; fp16 and bf16 are widened to fp32 and rounded back to
 * nearest even at every step. */
void stubhccl_reduce(int dtype, int op, void *acc, const void *src, size_t count);
/* Changes element idx of buf to a different value (HCCL_STUB_CORRUPT_*). */
void stubhccl_corrupt(int dtype, void *buf, size_t idx);

#endif
