/* Encoders and bounds-checked decoders of the frames in wire.h. Decoders trust nothing: every
 * read is checked against the remaining length, every string against its cap and alphabet,
 * every enum against its range, and trailing bytes are an error. */
#include <stdarg.h>

#include "libcomm/libcomm.h"
#include "libcomm/wire.h"

#define MAGIC0 'C'
#define MAGIC1 'M'

struct rd {
	const unsigned char *p;
	size_t n, off;
	const char *what;
	char *err;
	size_t errlen;
	int bad;
};

__attribute__((format(printf, 2, 3))) static int rd_fail(struct rd *r, const char *fmt, ...)
{
	if (r->bad)
		return -1;
	r->bad = 1;
	if (r->err && r->errlen) {
		int k = snprintf(r->err, r->errlen, "%s: offset %zu: ", r->what, r->off);
		if (k >= 0 && (size_t)k < r->errlen) {
			va_list ap;
			va_start(ap, fmt);
			vsnprintf(r->err + k, r->errlen - (size_t)k, fmt, ap);
			va_end(ap);
		}
	}
	return -1;
}

/* get_be, put_be and need are inlined: every frame's header and fingerprint go through them
 * field by field, which out of line was a tenth of an 8-byte allreduce's CPU time at 8 ranks
 * (perf, this machine). */
static inline __attribute__((always_inline)) int need(struct rd *r, size_t k, const char *field)
{
	if (r->bad)
		return -1;
	if (r->n - r->off < k)
		return rd_fail(r, "truncated: %s needs %zu bytes, %zu left", field, k, r->n - r->off);
	return 0;
}

static inline __attribute__((always_inline)) uint64_t get_be(struct rd *r, size_t k,
								const char *field)
{
	if (need(r, k, field))
		return 0;
	uint64_t v = 0;
	for (size_t i = 0; i < k; i++)
		v = v << 8 | r->p[r->off + i];
	r->off += k;
	return v;
}

/* A u16-length string of printable ASCII into out[cap]; empty allowed when allow_empty. */
static void get_str(struct rd *r, char *out, size_t cap, const char *field, int allow_empty)
{
	out[0] = '\0';
	size_t at = r->off;
	size_t len = (size_t)get_be(r, 2, field);
	if (r->bad)
		return;
	if (len >= cap) {
		r->off = at;
		rd_fail(r, "%s length %zu exceeds %zu", field, len, cap - 1);
		return;
	}
	if (!len && !allow_empty) {
		r->off = at;
		rd_fail(r, "%s is empty", field);
		return;
	}
	if (need(r, len, field))
		return;
	for (size_t i = 0; i < len; i++) {
		unsigned char ch = r->p[r->off + i];
		if (ch < 0x20 || ch > 0x7e) {
			r->off += i;
			rd_fail(r, "%s has byte 0x%02x", field, ch);
			return;
		}
	}
	memcpy(out, r->p + r->off, len);
	out[len] = '\0';
	r->off += len;
}

static int rd_done(struct rd *r)
{
	if (r->bad)
		return -1;
	if (r->off != r->n)
		return rd_fail(r, "%zu trailing bytes", r->n - r->off);
	return 0;
}

struct wr {
	unsigned char *p;
	size_t cap, off;
	int bad;
};

static inline __attribute__((always_inline)) void put_be(struct wr *w, uint64_t v, size_t k)
{
	if (w->bad || w->cap - w->off < k) {
		w->bad = 1;
		return;
	}
	for (size_t i = 0; i < k; i++)
		w->p[w->off + i] = (unsigned char)(v >> (8 * (k - 1 - i)));
	w->off += k;
}

static void put_str(struct wr *w, const char *s, size_t cap)
{
	size_t len = strlen(s);
	if (len >= cap || len > 0xffff) {
		w->bad = 1;
		return;
	}
	put_be(w, len, 2);
	if (w->bad || w->cap - w->off < len) {
		w->bad = 1;
		return;
	}
	memcpy(w->p + w->off, s, len);
	w->off += len;
}

static size_t str_size(size_t cap)
{
	return 2 + cap - 1;
}

uint64_t comm__frame_max(uint8_t type)
{
	switch (type) {
	case COMM__F_HELLO:
		return COMM__HELLO_MAX;
	case COMM__F_BOOK:
		return comm__book_size(COMM__MAX_RANKS);
	case COMM__F_REFUSE:
	case COMM__F_ABORT:
		return COMM__CTRL_MAX;
	case COMM__F_PEER:
		return COMM__PEER_LEN;
	case COMM__F_SHM:
		return COMM__SHM_LEN;
	case COMM__F_FP:
		return COMM__FP_LEN;
	case COMM__F_DATA:
		return UINT64_MAX;
	case COMM__F_HB:
		return COMM__HB_LEN;
	case COMM__F_VERDICT:
		return COMM__VERDICT_MAX;
	case COMM__F_PING:
	case COMM__F_BYE:
	case COMM__F_FPREQ:
		return 0;
	default:
		return 0;
	}
}

const char *comm__frame_name(uint8_t type)
{
	static const char *const names[] = { "?",	 "hello", "book", "refuse",
					     "peer",	 "fingerprint", "data", "abort",
					     "heartbeat", "ping",	 "verdict", "bye", "fingerprint request",
					     "shared memory" };
	return type < COMM__F_TYPE_END ? names[type] : "?";
}

void comm__hdr_encode(unsigned char out[COMM__HDR_LEN], const struct comm__hdr *h)
{
	struct wr w = { out, COMM__HDR_LEN, 0, 0 };
	put_be(&w, MAGIC0, 1);
	put_be(&w, MAGIC1, 1);
	put_be(&w, COMM_PROTOCOL_VERSION, 1);
	put_be(&w, h->type, 1);
	put_be(&w, h->seq, 4);
	put_be(&w, (uint32_t)h->step, 4);
	put_be(&w, h->from, 4);
	put_be(&w, h->len, 8);
}

int comm__hdr_decode(const unsigned char *buf, size_t n, struct comm__hdr *h, char *err,
		     size_t errlen)
{
	struct rd r = { buf, n < COMM__HDR_LEN ? n : COMM__HDR_LEN, 0, "frame header", err, errlen, 0 };
	memset(h, 0, sizeof(*h));
	unsigned m0 = (unsigned)get_be(&r, 1, "magic");
	unsigned m1 = (unsigned)get_be(&r, 1, "magic");
	if (!r.bad && (m0 != MAGIC0 || m1 != MAGIC1)) {
		r.off = 0;
		return rd_fail(&r, "bad magic 0x%02x%02x (not a libcomm peer)", m0, m1);
	}
	unsigned ver = (unsigned)get_be(&r, 1, "version");
	if (!r.bad && ver != COMM_PROTOCOL_VERSION) {
		r.off--;
		return rd_fail(&r, "protocol version %u, this library speaks %d", ver,
			       COMM_PROTOCOL_VERSION);
	}
	h->type = (uint8_t)get_be(&r, 1, "type");
	if (!r.bad && (h->type == 0 || h->type >= COMM__F_TYPE_END)) {
		r.off--;
		return rd_fail(&r, "unknown frame type %u", h->type);
	}
	h->seq = (uint32_t)get_be(&r, 4, "seq");
	h->step = (int32_t)(uint32_t)get_be(&r, 4, "step");
	h->from = (uint32_t)get_be(&r, 4, "from");
	h->len = get_be(&r, 8, "length");
	if (r.bad)
		return -1;
	if (h->from >= COMM__MAX_RANKS) {
		r.off = 12;
		return rd_fail(&r, "sender rank %u out of range", h->from);
	}
	if (h->len > comm__frame_max(h->type)) {
		r.off = 16;
		return rd_fail(&r, "%s frame length %llu exceeds %llu", comm__frame_name(h->type),
			       (unsigned long long)h->len,
			       (unsigned long long)comm__frame_max(h->type));
	}
	return 0;
}

int comm__hello_encode(const struct comm__hello *h, unsigned char *out, size_t cap, size_t *len)
{
	struct wr w = { out, cap, 0, 0 };
	put_be(&w, h->version, 4);
	put_be(&w, (uint32_t)h->rank, 4);
	put_be(&w, (uint32_t)h->nranks, 4);
	put_be(&w, h->port, 2);
	put_str(&w, h->host, sizeof(h->host));
	put_str(&w, h->addr, sizeof(h->addr));
	put_str(&w, h->digest, sizeof(h->digest));
	*len = w.off;
	return w.bad ? -1 : 0;
}

int comm__hello_decode(const unsigned char *buf, size_t n, struct comm__hello *h, char *err,
		       size_t errlen)
{
	struct rd r = { buf, n, 0, "hello", err, errlen, 0 };
	memset(h, 0, sizeof(*h));
	h->version = (uint32_t)get_be(&r, 4, "version");
	h->rank = (int32_t)(uint32_t)get_be(&r, 4, "rank");
	if (!r.bad && (h->rank < 0 || h->rank >= COMM__MAX_RANKS)) {
		r.off -= 4;
		return rd_fail(&r, "rank %d out of range", h->rank);
	}
	h->nranks = (int32_t)(uint32_t)get_be(&r, 4, "world size");
	if (!r.bad && (h->nranks < 1 || h->nranks > COMM__MAX_RANKS)) {
		r.off -= 4;
		return rd_fail(&r, "world size %d out of range", h->nranks);
	}
	h->port = (uint16_t)get_be(&r, 2, "port");
	if (!r.bad && h->port == 0) {
		r.off -= 2;
		return rd_fail(&r, "port 0");
	}
	get_str(&r, h->host, sizeof(h->host), "host", 0);
	get_str(&r, h->addr, sizeof(h->addr), "address", 0);
	get_str(&r, h->digest, sizeof(h->digest), "digest", 1);
	return rd_done(&r);
}

size_t comm__book_size(int n)
{
	return 8 + 4 + (size_t)n * (4 + 2 + str_size(COMM__HOST_MAX) + str_size(COMM__ADDR_MAX));
}

int comm__book_encode(uint64_t id, const struct comm__book_entry *e, int n, unsigned char *out,
		      size_t cap, size_t *len)
{
	struct wr w = { out, cap, 0, 0 };
	put_be(&w, id, 8);
	put_be(&w, (uint32_t)n, 4);
	for (int i = 0; i < n; i++) {
		put_be(&w, (uint32_t)e[i].rank, 4);
		put_be(&w, e[i].port, 2);
		put_str(&w, e[i].host, sizeof(e[i].host));
		put_str(&w, e[i].addr, sizeof(e[i].addr));
	}
	*len = w.off;
	return w.bad ? -1 : 0;
}

int comm__book_decode(const unsigned char *buf, size_t n, int expect_n, uint64_t *id,
		      struct comm__book_entry *e, char *err, size_t errlen)
{
	struct rd r = { buf, n, 0, "address book", err, errlen, 0 };
	*id = get_be(&r, 8, "communicator id");
	uint32_t cnt = (uint32_t)get_be(&r, 4, "rank count");
	if (!r.bad && cnt != (uint32_t)expect_n) {
		r.off -= 4;
		return rd_fail(&r, "%u ranks, expected %d", cnt, expect_n);
	}
	for (int i = 0; i < expect_n && !r.bad; i++) {
		memset(&e[i], 0, sizeof(e[i]));
		e[i].rank = (int32_t)(uint32_t)get_be(&r, 4, "rank");
		if (!r.bad && e[i].rank != i) {
			r.off -= 4;
			return rd_fail(&r, "entry %d is for rank %d", i, e[i].rank);
		}
		e[i].port = (uint16_t)get_be(&r, 2, "port");
		if (!r.bad && e[i].port == 0) {
			r.off -= 2;
			return rd_fail(&r, "rank %d has port 0", i);
		}
		get_str(&r, e[i].host, sizeof(e[i].host), "host", 0);
		get_str(&r, e[i].addr, sizeof(e[i].addr), "address", 0);
	}
	return rd_done(&r);
}

int comm__status_encode(int status, const char *msg, unsigned char *out, size_t cap, size_t *len)
{
	struct wr w = { out, cap, 0, 0 };
	char buf[COMM__MSG_MAX];
	/* Truncate rather than refuse: a long message still carries its start. */
	size_t k = 0;
	for (; msg[k] && k < sizeof(buf) - 1; k++)
		buf[k] = (msg[k] >= 0x20 && msg[k] <= 0x7e) ? msg[k] : '?';
	buf[k] = '\0';
	put_be(&w, (uint32_t)status, 4);
	put_str(&w, buf, sizeof(buf));
	*len = w.off;
	return w.bad ? -1 : 0;
}

int comm__status_decode(const unsigned char *buf, size_t n, int *status, char *msg, size_t msglen,
			char *err, size_t errlen)
{
	struct rd r = { buf, n, 0, "status", err, errlen, 0 };
	char tmp[COMM__MSG_MAX];
	*status = (int)(uint32_t)get_be(&r, 4, "status");
	if (!r.bad && (*status >= 0 || *status < COMM_E_PROTO)) {
		r.off -= 4;
		return rd_fail(&r, "status %d is not an error code", *status);
	}
	get_str(&r, tmp, sizeof(tmp), "message", 0);
	if (rd_done(&r))
		return -1;
	if (msglen) {
		size_t k = strlen(tmp);
		if (k >= msglen)
			k = msglen - 1;
		memcpy(msg, tmp, k);
		msg[k] = '\0';
	}
	return 0;
}

void comm__peer_encode(const struct comm__peer_hello *p, unsigned char out[COMM__PEER_LEN])
{
	struct wr w = { out, COMM__PEER_LEN, 0, 0 };
	put_be(&w, p->comm_id, 8);
	put_be(&w, (uint32_t)p->rank, 4);
	put_be(&w, (uint32_t)p->nranks, 4);
}

int comm__peer_decode(const unsigned char *buf, size_t n, struct comm__peer_hello *p, char *err,
		      size_t errlen)
{
	struct rd r = { buf, n, 0, "peer hello", err, errlen, 0 };
	p->comm_id = get_be(&r, 8, "communicator id");
	p->rank = (int32_t)(uint32_t)get_be(&r, 4, "rank");
	p->nranks = (int32_t)(uint32_t)get_be(&r, 4, "world size");
	if (!r.bad && (p->nranks < 1 || p->nranks > COMM__MAX_RANKS || p->rank < 0 ||
		       p->rank >= p->nranks)) {
		r.off -= 8;
		return rd_fail(&r, "rank %d of %d out of range", p->rank, p->nranks);
	}
	return rd_done(&r);
}

void comm__shm_encode(const struct comm__shm_hello *s, unsigned char out[COMM__SHM_LEN])
{
	struct wr w = { out, COMM__SHM_LEN, 0, 0 };
	put_be(&w, s->kind, 1);
	put_be(&w, s->mode, 1);
	put_be(&w, s->why, 1);
	put_be(&w, 0, 1);
	put_be(&w, (uint32_t)s->err, 4);
	for (int i = 0; i < 16; i++)
		put_be(&w, s->boot[i], 1);
	put_be(&w, s->netns, 8);
	put_be(&w, s->pidns, 8);
	put_be(&w, s->pid, 4);
	put_be(&w, s->fd, 4);
	put_be(&w, s->size, 8);
}

int comm__shm_decode(const unsigned char *buf, size_t n, struct comm__shm_hello *s, char *err,
		     size_t errlen)
{
	struct rd r = { buf, n, 0, "shared memory", err, errlen, 0 };
	memset(s, 0, sizeof(*s));
	s->kind = (uint8_t)get_be(&r, 1, "kind");
	if (!r.bad && s->kind >= COMM__SHM_KIND_END) {
		r.off -= 1;
		return rd_fail(&r, "unknown kind %u", s->kind);
	}
	s->mode = (uint8_t)get_be(&r, 1, "transport");
	if (!r.bad && s->mode >= COMM__TP_MODE_END) {
		r.off -= 1;
		return rd_fail(&r, "unknown transport %u", s->mode);
	}
	s->why = (uint8_t)get_be(&r, 1, "reason");
	if (!r.bad && s->why >= COMM__WHY_END) {
		r.off -= 1;
		return rd_fail(&r, "unknown reason %u", s->why);
	}
	if (!r.bad && get_be(&r, 1, "padding") != 0) {
		r.off -= 1;
		return rd_fail(&r, "padding is not zero");
	}
	s->err = (int32_t)(uint32_t)get_be(&r, 4, "errno");
	for (int i = 0; i < 16; i++)
		s->boot[i] = (unsigned char)get_be(&r, 1, "boot id");
	s->netns = get_be(&r, 8, "network namespace");
	s->pidns = get_be(&r, 8, "pid namespace");
	s->pid = (uint32_t)get_be(&r, 4, "pid");
	s->fd = (uint32_t)get_be(&r, 4, "descriptor");
	s->size = get_be(&r, 8, "size");
	return rd_done(&r);
}

void comm__fp_encode(const struct comm__fp *f, unsigned char out[COMM__FP_LEN])
{
	struct wr w = { out, COMM__FP_LEN, 0, 0 };
	put_be(&w, f->seq, 4);
	put_be(&w, f->coll, 1);
	put_be(&w, f->dtype, 1);
	put_be(&w, f->op, 1);
	put_be(&w, f->algo, 1);
	put_be(&w, f->count, 8);
	put_be(&w, (uint32_t)f->root, 4);
	put_be(&w, f->flags, 1);
	put_be(&w, 0, 3);
}

int comm__fp_decode(const unsigned char *buf, size_t n, struct comm__fp *f, char *err,
		    size_t errlen)
{
	struct rd r = { buf, n, 0, "fingerprint", err, errlen, 0 };
	memset(f, 0, sizeof(*f));
	f->seq = (uint32_t)get_be(&r, 4, "seq");
	f->coll = (uint8_t)get_be(&r, 1, "collective");
	if (!r.bad && f->coll >= COMM_COLL_COUNT + 1) { /* +1: the engine's internal split */
		r.off--;
		return rd_fail(&r, "collective %u out of range", f->coll);
	}
	f->dtype = (uint8_t)get_be(&r, 1, "dtype");
	if (!r.bad && f->dtype >= COMM_DTYPE_COUNT) {
		r.off--;
		return rd_fail(&r, "dtype %u out of range", f->dtype);
	}
	f->op = (uint8_t)get_be(&r, 1, "op");
	if (!r.bad && f->op >= COMM_OP_COUNT) {
		r.off--;
		return rd_fail(&r, "op %u out of range", f->op);
	}
	f->algo = (uint8_t)get_be(&r, 1, "algo");
	if (!r.bad && f->algo >= COMM_ALGO_COUNT) {
		r.off--;
		return rd_fail(&r, "algo %u out of range", f->algo);
	}
	f->count = get_be(&r, 8, "count");
	f->root = (int32_t)(uint32_t)get_be(&r, 4, "root");
	if (!r.bad && (f->root < -1 || f->root >= COMM__MAX_RANKS)) {
		r.off -= 4;
		return rd_fail(&r, "root %d out of range", f->root);
	}
	f->flags = (uint8_t)get_be(&r, 1, "flags");
	if (!r.bad && (f->flags & ~COMM__FP_FLAGS)) {
		r.off--;
		return rd_fail(&r, "unknown flags 0x%02x", f->flags);
	}
	uint32_t pad = (uint32_t)get_be(&r, 3, "padding");
	if (!r.bad && pad) {
		r.off -= 3;
		return rd_fail(&r, "nonzero padding");
	}
	return rd_done(&r);
}

void comm__hb_encode(const struct comm__hb *h, unsigned char out[COMM__HB_LEN])
{
	struct wr w = { out, COMM__HB_LEN, 0, 0 };
	put_be(&w, h->state, 1);
	put_be(&w, h->coll, 1);
	put_be(&w, h->seq, 4);
	put_be(&w, h->done_seq, 4);
	put_be(&w, (uint32_t)h->step, 4);
	put_be(&w, (uint32_t)h->peer, 4);
	put_be(&w, h->sent, 8);
	put_be(&w, h->recvd, 8);
	put_be(&w, h->op_ms, 4);
	put_be(&w, h->stall_ms, 4);
	put_be(&w, (uint32_t)h->bad_peer, 4);
	put_be(&w, h->bad_ack_ms, 4);
	put_be(&w, h->bad_unacked, 4);
	put_be(&w, h->bad_retrans, 1);
	put_be(&w, 0, 1);
}

static int32_t get_rank(struct rd *r, const char *field)
{
	int32_t v = (int32_t)(uint32_t)get_be(r, 4, field);
	if (!r->bad && (v < -1 || v >= COMM__MAX_RANKS)) {
		r->off -= 4;
		rd_fail(r, "%s %d out of range", field, v);
	}
	return v;
}

int comm__hb_decode(const unsigned char *buf, size_t n, struct comm__hb *h, char *err,
		    size_t errlen)
{
	struct rd r = { buf, n, 0, "heartbeat", err, errlen, 0 };
	memset(h, 0, sizeof(*h));
	h->state = (uint8_t)get_be(&r, 1, "state");
	if (!r.bad && h->state > COMM__HB_BROKEN) {
		r.off--;
		return rd_fail(&r, "state %u out of range", h->state);
	}
	h->coll = (uint8_t)get_be(&r, 1, "collective");
	if (!r.bad && h->coll > COMM_COLL_COUNT) {
		r.off--;
		return rd_fail(&r, "collective %u out of range", h->coll);
	}
	h->seq = (uint32_t)get_be(&r, 4, "seq");
	h->done_seq = (uint32_t)get_be(&r, 4, "done seq");
	h->step = (int32_t)(uint32_t)get_be(&r, 4, "step");
	if (!r.bad && h->step < -1) {
		r.off -= 4;
		return rd_fail(&r, "step %d out of range", h->step);
	}
	h->peer = get_rank(&r, "peer");
	h->sent = get_be(&r, 8, "sent");
	h->recvd = get_be(&r, 8, "received");
	h->op_ms = (uint32_t)get_be(&r, 4, "op time");
	h->stall_ms = (uint32_t)get_be(&r, 4, "stall time");
	h->bad_peer = get_rank(&r, "unacknowledged peer");
	h->bad_ack_ms = (uint32_t)get_be(&r, 4, "ack age");
	h->bad_unacked = (uint32_t)get_be(&r, 4, "unacked");
	h->bad_retrans = (uint8_t)get_be(&r, 1, "retransmits");
	if (get_be(&r, 1, "padding") && !r.bad) {
		r.off--;
		return rd_fail(&r, "nonzero padding");
	}
	return rd_done(&r);
}

int comm__verdict_encode(const struct comm_verdict *v, unsigned char *out, size_t cap,
			 size_t *len)
{
	struct wr w = { out, cap, 0, 0 };
	char msg[COMM__MSG_MAX];
	size_t k = 0;
	for (; v->msg[k] && k < sizeof(msg) - 1; k++) /* truncated, never refused */
		msg[k] = (v->msg[k] >= 0x20 && v->msg[k] <= 0x7e) ? v->msg[k] : '?';
	msg[k] = '\0';
	put_be(&w, (uint32_t)v->kind, 1);
	put_be(&w, (uint32_t)v->rank, 4);
	put_be(&w, (uint32_t)v->link_from, 4);
	put_be(&w, (uint32_t)v->link_to, 4);
	put_be(&w, (uint32_t)(v->coll < 0 ? 0xff : v->coll), 1);
	put_be(&w, v->seq, 4);
	put_be(&w, (uint32_t)v->step, 4);
	put_be(&w, (uint32_t)v->waiter, 4);
	put_be(&w, (uint32_t)v->peer, 4);
	put_be(&w, v->bytes, 8);
	put_be(&w, v->after_ms, 4);
	put_str(&w, v->host, COMM__HOST_MAX);
	put_str(&w, msg, sizeof(msg));
	*len = w.off;
	return w.bad ? -1 : 0;
}

int comm__verdict_decode(const unsigned char *buf, size_t n, struct comm_verdict *v, char *err,
			 size_t errlen)
{
	struct rd r = { buf, n, 0, "verdict", err, errlen, 0 };
	char msg[COMM__MSG_MAX];
	memset(v, 0, sizeof(*v));
	v->kind = (int)get_be(&r, 1, "kind");
	if (!r.bad && (v->kind == COMM_VERDICT_NONE || v->kind >= COMM_VERDICT_KIND_COUNT)) {
		r.off--;
		return rd_fail(&r, "kind %d out of range", v->kind);
	}
	v->rank = get_rank(&r, "rank");
	v->link_from = get_rank(&r, "link source");
	v->link_to = get_rank(&r, "link target");
	unsigned coll = (unsigned)get_be(&r, 1, "collective");
	if (!r.bad && coll != 0xff && coll > COMM_COLL_COUNT) {
		r.off--;
		return rd_fail(&r, "collective %u out of range", coll);
	}
	v->coll = coll == 0xff ? -1 : (int)coll;
	v->seq = (uint32_t)get_be(&r, 4, "seq");
	v->step = (int32_t)(uint32_t)get_be(&r, 4, "step");
	if (!r.bad && v->step < -1) {
		r.off -= 4;
		return rd_fail(&r, "step %d out of range", v->step);
	}
	v->waiter = get_rank(&r, "waiter");
	v->peer = get_rank(&r, "peer");
	v->bytes = get_be(&r, 8, "bytes");
	v->after_ms = (uint32_t)get_be(&r, 4, "age");
	get_str(&r, v->host, sizeof(v->host) < COMM__HOST_MAX ? sizeof(v->host) : COMM__HOST_MAX,
		"host", 1);
	get_str(&r, msg, sizeof(msg), "message", 0);
	if (rd_done(&r))
		return -1;
	size_t k = strlen(msg);
	if (k >= sizeof(v->msg))
		k = sizeof(v->msg) - 1;
	memcpy(v->msg, msg, k);
	v->msg[k] = '\0';
	return 0;
}
