/* libcomm's wire format: a fixed 24-byte frame header, then a payload whose layout depends on
 * the frame type. Integers are big-endian; strings are a u16 length and printable ASCII bytes
 * (no NUL). Every decoder is bounds-checked, consumes its input exactly and says where a bad
 * input went wrong ("hello: offset 14: host length 300 exceeds 255"). */
#ifndef LIBCOMM_WIRE_H
#define LIBCOMM_WIRE_H

#include <stddef.h>
#include <stdint.h>

#define COMM__HDR_LEN 24
#define COMM__HOST_MAX 256   /* 255 chars + NUL */
#define COMM__ADDR_MAX 64    /* numeric IPv4/IPv6 address + NUL */
#define COMM__DIGEST_MAX 129 /* 128 chars + NUL */
#define COMM__MAX_RANKS 65536
#define COMM__MSG_MAX 1024   /* error/abort message text on the wire */
#define COMM__HELLO_MAX 512
#define COMM__FP_LEN 24
#define COMM__PEER_LEN 16
#define COMM__SHM_LEN 56
/* The largest control payload (FP, ABORT) a peer may send unasked. */
#define COMM__CTRL_MAX (6 + COMM__MSG_MAX)

enum comm__ftype {
	COMM__F_HELLO = 1,  /* rank -> rendezvous */
	COMM__F_BOOK = 2,   /* rendezvous -> rank: the address book */
	COMM__F_REFUSE = 3, /* rendezvous -> rank: a named bootstrap error */
	COMM__F_PEER = 4,   /* rank <-> rank after auth: communicator id and rank */
	COMM__F_FP = 5,     /* fingerprint of a collective */
	COMM__F_DATA = 6,   /* payload of one transfer */
	COMM__F_ABORT = 7,  /* a fatal error on the sender, with its message */
	/* the status channel: a rank's rendezvous connection, kept open after the book */
	COMM__F_HB = 8,      /* rank -> monitor: heartbeat with where the rank stands */
	COMM__F_PING = 9,    /* monitor -> rank: the monitor is alive (no payload) */
	COMM__F_VERDICT = 10, /* rank -> monitor: its own failure; monitor -> rank: the job's */
	COMM__F_BYE = 11,    /* either way: closing on purpose (no payload) */
	COMM__F_FPREQ = 12,  /* rank -> rank: send me your fingerprint of collective seq (none) */
	COMM__F_SHM = 13,    /* rank <-> rank after the peer hello: shared memory offer, answer */
	COMM__F_TYPE_END
};

struct comm__hdr {
	uint8_t type;
	uint32_t seq;  /* collective (or point-to-point) sequence number */
	int32_t step;  /* algorithm step, -1 outside the algorithm */
	uint32_t from; /* sender's rank */
	uint64_t len;  /* payload bytes */
};

struct comm__hello {
	uint32_t version;
	int32_t rank, nranks;
	uint16_t port;
	char host[COMM__HOST_MAX];
	char addr[COMM__ADDR_MAX];
	char digest[COMM__DIGEST_MAX];
};

struct comm__book_entry {
	int32_t rank;
	uint16_t port;
	char host[COMM__HOST_MAX];
	char addr[COMM__ADDR_MAX];
};

struct comm__peer_hello {
	uint64_t comm_id;
	int32_t rank, nranks;
};

/* The shared-memory offer of the connecting rank and the accepting rank's answer (shm.c):
 * who it is (kernel boot id, network and pid namespace inodes), the transport it was told to
 * use, and for an offer the segment (its pid and the memfd's descriptor number, the size);
 * an answer says in why whether the link is shared memory (0) or why not, with errno. */
enum comm__tmode { COMM__TP_AUTO, COMM__TP_TCP, COMM__TP_SHM, COMM__TP_MODE_END };
/* Why a link is what it is; the wording is shm.c's table. */
enum comm__tp_why {
	COMM__WHY_SHM,     /* shared memory */
	COMM__WHY_FORCED,  /* HCCLCTL_TRANSPORT=tcp on either end */
	COMM__WHY_BOOT,    /* another machine (kernel boot id) */
	COMM__WHY_NETNS,   /* another network namespace */
	COMM__WHY_PIDNS,   /* another pid namespace */
	COMM__WHY_NOID,    /* either end could not read its identity */
	COMM__WHY_SETUP,   /* the connecting rank could not make its segment (errno) */
	COMM__WHY_MAP,     /* same host, but the accepting rank could not map it (errno) */
	COMM__WHY_END
};
enum comm__shm_kind { COMM__SHM_NONE, COMM__SHM_OFFER, COMM__SHM_ANSWER, COMM__SHM_KIND_END };
struct comm__shm_hello {
	uint8_t kind, mode, why; /* enum comm__shm_kind, comm__tmode, comm__tp_why */
	int32_t err;
	unsigned char boot[16];
	uint64_t netns, pidns;
	uint32_t pid, fd;
	uint64_t size;
};

/* Fingerprint of one operation; every rank must agree (checked as they arrive, agree.c). */
struct comm__fp {
	uint32_t seq;
	uint8_t coll, dtype, op, algo;
	uint64_t count;
	int32_t root; /* broadcast root, or the peer of send/recv; -1 otherwise */
	uint8_t flags; /* COMM__FP_*: what the rank can do, not compared */
};
/* Every link of the rank is up and over shared memory: the collectives small enough for a
 * line may go by lines (flat.c), once every rank said so in one collective. */
#define COMM__FP_LINES 0x01u
#define COMM__FP_FLAGS 0x01u /* the flags this build knows */

/* A heartbeat: what the rank is doing, for the monitor's verdicts. */
#define COMM__HB_LEN 56
enum comm__hb_state { COMM__HB_IDLE, COMM__HB_BUSY, COMM__HB_BROKEN };
struct comm__hb {
	uint8_t state;      /* enum comm__hb_state */
	uint8_t coll;       /* the operation in progress (BUSY), else the last one */
	uint32_t seq;       /* its sequence number */
	uint32_t done_seq;  /* the last collective completed */
	int32_t step;       /* algorithm step, -1: fingerprint exchange */
	int32_t peer;       /* the peer waited on, -1 when none */
	uint64_t sent, recvd; /* bytes moved in the operation */
	uint32_t op_ms;     /* time in the operation */
	uint32_t stall_ms;  /* time since a byte last moved */
	int32_t bad_peer;   /* a peer whose host does not acknowledge our data, -1 if none */
	uint32_t bad_ack_ms; /* how long it has not */
	uint32_t bad_unacked; /* segments unacknowledged */
	uint8_t bad_retrans; /* retransmissions of the oldest */
};
#define COMM__VERDICT_MAX (64 + 2 + COMM__HOST_MAX + 2 + COMM__MSG_MAX)

/* The largest payload a frame of this type may carry (DATA: unbounded here, checked against
 * the posted receive). */
uint64_t comm__frame_max(uint8_t type);
const char *comm__frame_name(uint8_t type);

void comm__hdr_encode(unsigned char out[COMM__HDR_LEN], const struct comm__hdr *h);
/* Needs exactly COMM__HDR_LEN bytes in buf (n says how many there are). */
int comm__hdr_decode(const unsigned char *buf, size_t n, struct comm__hdr *h, char *err,
		     size_t errlen);

/* Encoders write into out[cap] and set *len; -1 if it does not fit or a field is invalid. */
int comm__hello_encode(const struct comm__hello *h, unsigned char *out, size_t cap, size_t *len);
int comm__hello_decode(const unsigned char *buf, size_t n, struct comm__hello *h, char *err,
		       size_t errlen);
/* Book: comm id, then n entries for ranks 0..n-1 in order. */
size_t comm__book_size(int n);
int comm__book_encode(uint64_t id, const struct comm__book_entry *e, int n, unsigned char *out,
		      size_t cap, size_t *len);
/* Decodes into e[expect_n]; the book must hold exactly expect_n ranks 0..expect_n-1. */
int comm__book_decode(const unsigned char *buf, size_t n, int expect_n, uint64_t *id,
		      struct comm__book_entry *e, char *err, size_t errlen);
/* REFUSE and ABORT: a status code and a message. */
int comm__status_encode(int status, const char *msg, unsigned char *out, size_t cap, size_t *len);
int comm__status_decode(const unsigned char *buf, size_t n, int *status, char *msg, size_t msglen,
			char *err, size_t errlen);
void comm__peer_encode(const struct comm__peer_hello *p, unsigned char out[COMM__PEER_LEN]);
int comm__peer_decode(const unsigned char *buf, size_t n, struct comm__peer_hello *p, char *err,
		      size_t errlen);
void comm__shm_encode(const struct comm__shm_hello *s, unsigned char out[COMM__SHM_LEN]);
int comm__shm_decode(const unsigned char *buf, size_t n, struct comm__shm_hello *s, char *err,
		     size_t errlen);
void comm__hb_encode(const struct comm__hb *h, unsigned char out[COMM__HB_LEN]);
int comm__hb_decode(const unsigned char *buf, size_t n, struct comm__hb *h, char *err,
		    size_t errlen);
struct comm_verdict;
int comm__verdict_encode(const struct comm_verdict *v, unsigned char *out, size_t cap,
			 size_t *len);
int comm__verdict_decode(const unsigned char *buf, size_t n, struct comm_verdict *v, char *err,
			 size_t errlen);
void comm__fp_encode(const struct comm__fp *f, unsigned char out[COMM__FP_LEN]);
int comm__fp_decode(const unsigned char *buf, size_t n, struct comm__fp *f, char *err,
		    size_t errlen);

#endif
