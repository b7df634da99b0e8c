/* Setup-time I/O with deadlines, and the HMAC-SHA256 challenge every connection passes before
 * anything else is read from it:
 *   server -> client  "HCCM" u32 version, nonce_s[16]
 *   client -> server  nonce_c[16], HMAC(secret, "libcomm client" | nonce_s | nonce_c)
 *   server -> client  u8 ok, HMAC(secret, "libcomm server" | nonce_s | nonce_c)  (zeros if not ok)
 * Distinct labels stop a proof from being reflected back; fresh nonces on both sides stop a
 * replay. A wrong secret on either side fails the handshake and nothing else is read. */
#include <errno.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <poll.h>
#include <sys/random.h>
#include <sys/socket.h>

#include "libcomm/internal.h"

#define NONCE 16
#define MAC 32

static int wait_fd(int fd, short ev, int64_t deadline, int cancel_fd)
{
	for (;;) {
		struct pollfd pf[2] = { { fd, ev, 0 }, { cancel_fd, POLLIN, 0 } };
		int64_t left = deadline - mono_ms();
		if (left <= 0)
			return -ETIMEDOUT;
		int n = poll(pf, cancel_fd >= 0 ? 2 : 1, (int)(left > 1000000 ? 1000000 : left));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (cancel_fd >= 0 && pf[1].revents)
			return -ECANCELED;
		if (pf[0].revents)
			return 0;
	}
}

int comm__io_read(int fd, void *buf, size_t len, int64_t deadline, int cancel_fd)
{
	size_t got = 0;
	while (got < len) {
		ssize_t k = comm__tcp_ops.recv(fd, (char *)buf + got, len - got);
		if (k > 0) {
			got += (size_t)k;
			continue;
		}
		if (k == 0)
			return -ECONNRESET;
		if (k != -EAGAIN)
			return (int)k;
		int rc = wait_fd(fd, POLLIN, deadline, cancel_fd);
		if (rc)
			return rc;
	}
	return 0;
}

int comm__io_write(int fd, const void *buf, size_t len, int64_t deadline, int cancel_fd)
{
	size_t put = 0;
	while (put < len) {
		struct iovec iov = { (char *)buf + put, len - put };
		ssize_t k = comm__tcp_ops.send(fd, &iov, 1);
		if (k > 0) {
			put += (size_t)k;
			continue;
		}
		if (k != -EAGAIN && k != 0)
			return (int)k;
		int rc = wait_fd(fd, POLLOUT, deadline, cancel_fd);
		if (rc)
			return rc;
	}
	return 0;
}

int comm__io_send_frame(int fd, uint8_t type, uint32_t from, const void *payload, size_t len,
			int64_t deadline, int cancel_fd)
{
	struct comm__hdr h = { .type = type, .seq = 0, .step = -1, .from = from, .len = len };
	unsigned char hb[COMM__HDR_LEN];
	comm__hdr_encode(hb, &h);
	int rc = comm__io_write(fd, hb, sizeof(hb), deadline, cancel_fd);
	if (!rc && len)
		rc = comm__io_write(fd, payload, len, deadline, cancel_fd);
	return rc;
}

int comm__io_recv_frame(int fd, struct comm__hdr *h, void *buf, size_t cap, int64_t deadline,
			int cancel_fd, char *err, size_t errlen)
{
	unsigned char hb[COMM__HDR_LEN];
	int rc = comm__io_read(fd, hb, sizeof(hb), deadline, cancel_fd);
	if (rc)
		return rc;
	if (comm__hdr_decode(hb, sizeof(hb), h, err, errlen))
		return -EPROTO;
	if (h->len > cap) {
		snprintf(err, errlen, "%s frame of %llu bytes, at most %zu expected",
			 comm__frame_name(h->type), (unsigned long long)h->len, cap);
		return -EPROTO;
	}
	return comm__io_read(fd, buf, (size_t)h->len, deadline, cancel_fd);
}

static int random_bytes(unsigned char *p, size_t n)
{
	size_t got = 0;
	while (got < n) {
		ssize_t k = getrandom(p + got, n - got, 0);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		got += (size_t)k;
	}
	return 0;
}

static void mac(const unsigned char *secret, const char *label, const unsigned char *ns,
		const unsigned char *nc, unsigned char out[MAC])
{
	unsigned char msg[32 + 2 * NONCE];
	size_t ll = strlen(label);
	unsigned int olen = MAC;
	memcpy(msg, label, ll);
	memcpy(msg + ll, ns, NONCE);
	memcpy(msg + ll + NONCE, nc, NONCE);
	if (!HMAC(EVP_sha256(), secret, COMM__SECRET_LEN, msg, ll + 2 * NONCE, out, &olen))
		memset(out, 0, MAC); /* fails closed: an all-zero proof never verifies */
}

static int io_errcode(int rc)
{
	/* cancelled: the caller's cancel fd (a verdict) says why, the code tells it so */
	return rc == -ETIMEDOUT ? COMM_E_TIMEOUT : rc == -ECANCELED ? -ECANCELED : COMM_E_PEER;
}

int comm__auth_client(int fd, const unsigned char *secret, int64_t deadline, int cancel_fd,
		      const void *after, size_t afterlen, char *err, size_t errlen)
{
	unsigned char greet[4 + 4 + NONCE], resp[NONCE + MAC + 128], fin[1 + MAC], want[MAC];
	if (afterlen > sizeof(resp) - NONCE - MAC)
		return comm__errf(err, errlen, COMM_E_INVAL, "authentication: %zu bytes to follow",
				  afterlen);
	int rc = comm__io_read(fd, greet, sizeof(greet), deadline, cancel_fd);
	if (rc)
		return comm__errf(err, errlen, io_errcode(rc), "no greeting: %s",
				  rc == -ECONNRESET ? "connection closed" : strerror(-rc));
	if (memcmp(greet, "HCCM", 4) != 0)
		return comm__errf(err, errlen, COMM_E_PROTO, "not a libcomm endpoint (bad greeting)");
	uint32_t ver = (uint32_t)greet[4] << 24 | (uint32_t)greet[5] << 16 |
		       (uint32_t)greet[6] << 8 | greet[7];
	if (ver != COMM_PROTOCOL_VERSION)
		return comm__errf(err, errlen, COMM_E_BOOTSTRAP,
				  "protocol version mismatch: the other end speaks %u, this rank %d",
				  ver, COMM_PROTOCOL_VERSION);
	if (random_bytes(resp, NONCE))
		return comm__errf(err, errlen, COMM_E_SYS, "getrandom: %s", strerror(errno));
	mac(secret, "libcomm client", greet + 8, resp, resp + NONCE);
	if (afterlen)
		memcpy(resp + NONCE + MAC, after, afterlen);
	rc = comm__io_write(fd, resp, NONCE + MAC + afterlen, deadline, cancel_fd);
	if (!rc)
		rc = comm__io_read(fd, fin, sizeof(fin), deadline, cancel_fd);
	if (rc)
		return comm__errf(err, errlen, io_errcode(rc), "authentication: %s",
				  rc == -ECONNRESET ? "connection closed" : strerror(-rc));
	if (fin[0] != 1)
		return comm__errf(err, errlen, COMM_E_AUTH,
				  "refused: our proof of the secret did not verify (wrong secret?)");
	mac(secret, "libcomm server", greet + 8, resp, want);
	if (CRYPTO_memcmp(want, fin + 1, MAC) != 0)
		return comm__errf(err, errlen, COMM_E_AUTH,
				  "the other end does not know the secret (not our job?)");
	return 0;
}

int comm__auth_greet(int fd, unsigned char greet[COMM__GREET_LEN], int64_t deadline,
		     int cancel_fd)
{
	static const unsigned char head[8] = { 'H', 'C', 'C', 'M', 0, 0, 0, COMM_PROTOCOL_VERSION };
	memcpy(greet, head, sizeof(head));
	if (random_bytes(greet + 8, NONCE))
		return -EIO;
	return comm__io_write(fd, greet, COMM__GREET_LEN, deadline, cancel_fd);
}

int comm__auth_verify(const unsigned char *secret, const unsigned char *greet,
		      const unsigned char resp[COMM__RESP_LEN], unsigned char fin[COMM__FIN_LEN],
		      char *why, size_t whylen)
{
	unsigned char want[MAC];
	memset(fin, 0, COMM__FIN_LEN);
	mac(secret, "libcomm client", greet + 8, resp, want);
	if (CRYPTO_memcmp(want, resp + NONCE, MAC) != 0) {
		snprintf(why, whylen, "wrong secret (HMAC does not verify)");
		return -2; /* the caller records the refusal, then answers with comm__auth_refuse */
	}
	fin[0] = 1;
	mac(secret, "libcomm server", greet + 8, resp, fin + 1);
	return 0;
}

int comm__auth_check(int fd, const unsigned char *secret, const unsigned char *greet,
		     int64_t deadline, int cancel_fd, unsigned char *fin_out, char *why,
		     size_t whylen)
{
	unsigned char resp[COMM__RESP_LEN], fin[COMM__FIN_LEN];
	int rc = comm__io_read(fd, resp, sizeof(resp), deadline, cancel_fd);
	if (rc) {
		snprintf(why, whylen, "no answer to the challenge: %s",
			 rc == -ECONNRESET ? "connection closed" : strerror(-rc));
		return -1;
	}
	rc = comm__auth_verify(secret, greet, resp, fin, why, whylen);
	if (rc)
		return rc;
	if (fin_out) { /* the caller sends it, with what goes behind it */
		memcpy(fin_out, fin, sizeof(fin));
		return 0;
	}
	rc = comm__io_write(fd, fin, sizeof(fin), deadline, cancel_fd);
	if (rc) {
		snprintf(why, whylen, "closed during authentication: %s", strerror(-rc));
		return -1;
	}
	return 0;
}

int comm__auth_server(int fd, const unsigned char *secret, int64_t deadline, int cancel_fd,
		      char *why, size_t whylen)
{
	unsigned char greet[COMM__GREET_LEN];
	int rc = comm__auth_greet(fd, greet, deadline, cancel_fd);
	if (rc) {
		snprintf(why, whylen, "no answer to the challenge: %s",
			 rc == -EIO ? "getrandom failed" : strerror(-rc));
		return -1;
	}
	return comm__auth_check(fd, secret, greet, deadline, cancel_fd, NULL, why, whylen);
}

void comm__auth_refuse(int fd, int64_t deadline, int cancel_fd)
{
	unsigned char fin[1 + MAC] = { 0 };
	(void)comm__io_write(fd, fin, sizeof(fin), deadline, cancel_fd);
}
