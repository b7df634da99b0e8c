/* The library side of `probe net`: the line protocol between the launcher and its agents
 * (one parser for every message, since every line comes from the network or a remote
 * process), the shared-secret challenge, the round-robin schedule of disjoint pairs, and the
 * verdicts on a bandwidth matrix. Nothing here prints or touches a socket. */
#ifndef HCCLCTL_PROBES_NETPERF_H
#define HCCLCTL_PROBES_NETPERF_H

#include <stddef.h>

#include "probes/tool/verdict.h"

#define NP_PROTO "hcclnet1"
#define NP_LINE_MAX 1024 /* longest protocol line, newline included */
#define NP_KEY_LEN 16	 /* secret bytes */
#define NP_SECRET_HEX 32 /* the secret as hex, as it travels on stdin or sits in a file */
#define NP_NONCE_HEX 32
#define NP_MAC_HEX 64 /* HMAC-SHA256 as hex */
#define NP_HOST_MAX 256

/* Every message of the protocol, one line each ("VERB key=value ...", single spaces):
 *   hcclnet1 ready port=P           agent -> launcher, on the agent's stdout
 *   hcclnet1 hello nonce=HEX32      listener -> whoever connected: the challenge
 *   auth mac=HEX64                  the answer: HMAC-SHA256(secret, "hcclnet1 " nonce)
 *   ok | refused                    the listener's verdict on it
 *   measure host=H port=P ms=D bytes=B pings=N   launcher -> agent: measure towards H:P
 *   quit                            launcher -> agent
 *   ping n=N                        then N one-byte round trips
 *   recv                            the client streams, the listener counts, then answers
 *   rx bytes=N ns=T                 what the listener received after its first read, in T ns
 *   send ms=D bytes=B               the listener streams for D ms or B bytes, then EOF
 *   result rtt_us=X rtt_p99_us=X fwd_bps=X rev_bps=X fwd_bytes=N rev_bytes=N
 *   error TEXT                      agent -> launcher: the measurement failed, and why */
enum np_kind {
	NP_READY = 1,
	NP_HELLO,
	NP_AUTH,
	NP_OK,
	NP_REFUSED,
	NP_MEASURE,
	NP_QUIT,
	NP_PING,
	NP_RECV,
	NP_RX,
	NP_SEND,
	NP_RESULT,
	NP_ERROR,
};

/* One measured pair, as the agent that drove it saw it: fwd is agent -> peer. */
struct np_result {
	double rtt_us, rtt_p99_us; /* round trip of one byte: median and 99th percentile */
	double fwd_bps, rev_bps;   /* bits per second */
	unsigned long long fwd_bytes, rev_bytes;
};

struct np_msg {
	enum np_kind kind;
	int port;		  /* READY, MEASURE */
	char host[NP_HOST_MAX];	  /* MEASURE */
	char hex[NP_MAC_HEX + 1]; /* HELLO: the nonce; AUTH: the mac */
	long long ms;		  /* MEASURE, SEND: how long each direction streams; 0: no limit */
	unsigned long long bytes; /* MEASURE, SEND: a cap, 0: none; RX: bytes received */
	long long ns;		  /* RX */
	long pings;		  /* MEASURE, PING */
	struct np_result res;	  /* RESULT */
	char text[512];		  /* ERROR */
};

/* Parses one line (len bytes, without its newline; a trailing "\r" is refused like any
 * control byte). Returns 0, or -EINVAL with err saying at which column and what. */
int np_msg_parse(struct np_msg *m, const char *line, size_t len, char *err, size_t errlen);
/* Writes m as one line with its "\n" into buf. Returns the length, or -ENOSPC / -EINVAL. */
int np_msg_format(const struct np_msg *m, char *buf, size_t len);

/* The secret from its hex form (surrounding blanks and a newline allowed). 0 or -EINVAL. */
int np_secret_parse(unsigned char key[NP_KEY_LEN], const char *s, size_t len, char *err,
		    size_t errlen);
/* The answer to a challenge: HMAC-SHA256(key, "hcclnet1 " nonce) as 64 hex digits. 0 or
 * -EPROTO (libcrypto failed). */
int np_mac(const unsigned char key[NP_KEY_LEN], const char *nonce, char out[NP_MAC_HEX + 1]);
/* Compares two macs in constant time: 1 when equal. */
int np_mac_equal(const char *a, const char *b);

/* The round-robin tournament: every unordered pair of n nodes meets exactly once, in
 * np_rounds(n) rounds (n-1 for even n, n for odd) of disjoint pairs. */
size_t np_rounds(size_t n);
/* Fills pairs with the pairs of round r (at most n/2) and returns how many. */
size_t np_round_pairs(size_t n, size_t r, size_t (*pairs)[2]);

/* Directed links i -> j of an n-node matrix. */
struct np_link {
	int measured; /* bps and rtt hold a measurement */
	int failed;   /* the measurement failed: why is in reason */
	int tries;    /* measurements taken (a slow link is measured twice) */
	double bps, rtt_us, rtt_p99_us;
	unsigned long long bytes;
	double ratio;		  /* bps / median, after np_matrix_judge */
	enum probe_status status; /* PASS, WARN (slow), FAIL (failed), SKIP (not measured) */
	char reason[512];
};

struct np_node {
	size_t links, slow, failed; /* directed links in and out that were tried */
	enum probe_status status;
};

struct np_matrix {
	size_t n;
	struct np_link *l;    /* n * n, l[i * n + j] is i -> j; owned */
	struct np_node *node; /* n; owned */
	double median_bps, threshold_bps;
	size_t nmeasured, nslow, nfailed;
};

/* Allocates an n x n matrix of links not yet measured; 0 or -ENOMEM. Release it with
 * np_matrix_release. */
int np_matrix_init(struct np_matrix *m, size_t n);
void np_matrix_release(struct np_matrix *m);
static inline struct np_link *np_link_at(const struct np_matrix *m, size_t i, size_t j)
{
	return &m->l[i * m->n + j];
}

/* The verdicts: the median of every measured link's bandwidth; a link below frac of it is
 * slow (WARN), a failed one FAIL; a node is named (its status WARN, or FAIL when failures
 * dominate) when more than half of the links it took part in are slow or failed. */
void np_matrix_judge(struct np_matrix *m, double frac);

/* Median and 99th percentile (nearest rank) of v[0..n-1], which gets sorted. 0 when n is 0. */
double np_percentile(double *v, size_t n, double p);

#endif
