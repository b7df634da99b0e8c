/* Fuzz target for libcomm's wire decoders: the frame header, hello, address book, status
 * (refuse/abort), peer hello, shared-memory offer and answer, fingerprint, heartbeat and verdict payloads, and the root-info
 * token. The first
 * byte picks the decoder; 0xff runs a stream of frames (header, then the payload its type
 * says, as the engine would). Decoders must stay in bounds and reject with a located message;
 * what they accept must encode back to the same bytes. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "libcomm/internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void must(int cond)
{
	if (!cond)
		abort();
}

static void payload(uint8_t type, const uint8_t *p, size_t n)
{
	char err[COMM_ERRLEN];
	unsigned char *out = NULL;
	size_t len = 0;
	err[0] = '\0';
	switch (type) {
	case COMM__F_HELLO: {
		struct comm__hello h;
		unsigned char b[COMM__HELLO_MAX];
		if (comm__hello_decode(p, n, &h, err, sizeof(err)) == 0) {
			must(comm__hello_encode(&h, b, sizeof(b), &len) == 0);
			must(len == n && memcmp(b, p, n) == 0);
		} else {
			must(strncmp(err, "hello: offset ", 14) == 0);
		}
		break;
	}
	case COMM__F_BOOK: {
		/* the expected size comes from the bytes themselves, bounded */
		int want = n >= 12 ? (int)(((uint32_t)p[8] << 24 | (uint32_t)p[9] << 16 |
					   (uint32_t)p[10] << 8 | p[11]) % 64) : 1;
		struct comm__book_entry *e = calloc((size_t)want + 1, sizeof(*e));
		uint64_t id;
		if (comm__book_decode(p, n, want, &id, e, err, sizeof(err)) == 0) {
			out = malloc(comm__book_size(want));
			must(comm__book_encode(id, e, want, out, comm__book_size(want), &len) == 0);
			must(len == n && memcmp(out, p, n) == 0);
		} else {
			must(strncmp(err, "address book: offset ", 21) == 0);
		}
		free(e);
		free(out);
		break;
	}
	case COMM__F_REFUSE:
	case COMM__F_ABORT: {
		int st;
		char msg[COMM__MSG_MAX];
		if (comm__status_decode(p, n, &st, msg, sizeof(msg), err, sizeof(err)) == 0) {
			must(st < 0 && strlen(msg) < sizeof(msg));
			must(strlen(msg) + 6 == n);
		}
		break;
	}
	case COMM__F_PEER: {
		struct comm__peer_hello ph;
		unsigned char b[COMM__PEER_LEN];
		if (comm__peer_decode(p, n, &ph, err, sizeof(err)) == 0) {
			comm__peer_encode(&ph, b);
			must(n == COMM__PEER_LEN && memcmp(b, p, n) == 0);
		}
		break;
	}
	case COMM__F_SHM: {
		struct comm__shm_hello sh;
		unsigned char b[COMM__SHM_LEN];
		if (comm__shm_decode(p, n, &sh, err, sizeof(err)) == 0) {
			must(sh.kind < COMM__SHM_KIND_END && sh.mode < COMM__TP_MODE_END &&
			     sh.why < COMM__WHY_END);
			comm__shm_encode(&sh, b);
			must(n == COMM__SHM_LEN && memcmp(b, p, n) == 0);
		} else {
			must(strncmp(err, "shared memory: offset ", 22) == 0);
		}
		break;
	}
	case COMM__F_FP: {
		struct comm__fp f;
		unsigned char b[COMM__FP_LEN];
		if (comm__fp_decode(p, n, &f, err, sizeof(err)) == 0) {
			comm__fp_encode(&f, b);
			must(n == COMM__FP_LEN && memcmp(b, p, n) == 0);
		} else {
			must(strncmp(err, "fingerprint: offset ", 20) == 0);
		}
		break;
	}
	case COMM__F_HB: {
		struct comm__hb h;
		unsigned char b[COMM__HB_LEN];
		if (comm__hb_decode(p, n, &h, err, sizeof(err)) == 0) {
			comm__hb_encode(&h, b);
			must(n == COMM__HB_LEN && memcmp(b, p, n) == 0);
		} else {
			must(strncmp(err, "heartbeat: offset ", 18) == 0);
		}
		break;
	}
	case COMM__F_VERDICT: {
		struct comm_verdict v;
		unsigned char b[COMM__VERDICT_MAX];
		if (comm__verdict_decode(p, n, &v, err, sizeof(err)) == 0) {
			must(v.kind > COMM_VERDICT_NONE && v.kind < COMM_VERDICT_KIND_COUNT);
			must(strlen(v.msg) < sizeof(v.msg) && strlen(v.host) < sizeof(v.host));
			must(comm__verdict_encode(&v, b, sizeof(b), &len) == 0);
			/* messages longer than the struct's are truncated on the way in */
			if (strlen(v.msg) < sizeof(v.msg) - 1)
				must(len == n && memcmp(b, p, n) == 0);
		} else {
			must(strncmp(err, "verdict: offset ", 16) == 0);
		}
		break;
	}
	default:
		break;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	uint8_t sel = data[0];
	const uint8_t *p = data + 1;
	size_t n = size - 1;
	char err[COMM_ERRLEN];
	if (sel == 0) { /* token */
		char tok[COMM_TOKEN_MAX + 8];
		size_t k = n < sizeof(tok) - 1 ? n : sizeof(tok) - 1;
		memcpy(tok, p, k);
		tok[k] = '\0';
		struct comm__token t;
		if (comm__token_parse(tok, &t, err, sizeof(err)) == 0) {
			struct comm_root_info ri;
			must(comm_root_info_make(&ri, t.host, t.port, t.secret, err, sizeof(err)) == 0);
			struct comm__token t2;
			must(comm__token_parse(ri.token, &t2, err, sizeof(err)) == 0);
			must(memcmp(&t, &t2, sizeof(t)) == 0);
		}
		return 0;
	}
	if (sel == 0xff) { /* a stream of frames */
		size_t off = 0;
		while (n - off >= COMM__HDR_LEN) {
			struct comm__hdr h;
			if (comm__hdr_decode(p + off, COMM__HDR_LEN, &h, err, sizeof(err))) {
				must(strncmp(err, "frame header: offset ", 21) == 0);
				return 0;
			}
			unsigned char b[COMM__HDR_LEN];
			comm__hdr_encode(b, &h);
			must(memcmp(b, p + off, COMM__HDR_LEN) == 0);
			off += COMM__HDR_LEN;
			if (h.len > n - off)
				return 0; /* truncated payload: the engine would wait for more */
			payload(h.type, p + off, (size_t)h.len);
			off += (size_t)h.len;
		}
		struct comm__hdr h;
		if (n - off) /* a truncated header is rejected, never read past */
			must(comm__hdr_decode(p + off, n - off, &h, err, sizeof(err)) != 0);
		return 0;
	}
	payload(sel, p, n);
	return 0;
}
