/* hcclctl probe net's own parts, shared between its files: the wire (probe_net_wire.c:
 * sockets with deadlines, the HMAC challenge, streaming), the agent (probe_net_agent.c), the
 * launcher and command (probe_net.c) and the report (probe_net_report.c). Only those files
 * include this header. */
#ifndef HCCLCTL_PROBE_NET_H
#define HCCLCTL_PROBE_NET_H

#include <pthread.h>
#include <stddef.h>

#include "cmd/lib/fanout.h"
#include "cmd/lib/netperf.h"
#include "cmd/probe/probe.h"

#define WHERE "probe net"
#define SLOW_FRACTION 0.8
#define DEFAULT_DURATION_MS 400
#define STREAM_CHUNK (256 * 1024)

/* ---- the wire (probe_net_wire.c): every call bounded by a deadline on the mono_ms() clock */

/* Milliseconds until deadline, at least 0. */
int pnet_left_ms(long long deadline);
/* Waits until fd is ready for events or deadline passes: 0, -ETIMEDOUT or -errno. */
int pnet_wait_fd(int fd, short events, long long deadline);
int pnet_send_all(int fd, const void *buf, size_t len, long long deadline);
const char *pnet_errtext(int rc);
int pnet_send_msg(int fd, const struct np_msg *m, long long deadline);
/* Reads and parses one message; on failure err says what arrived or did not. */
int pnet_recv_msg(int fd, struct np_msg *m, long long deadline, char *err, size_t errlen);
void pnet_tune(int fd);
/* Writes the 2*n hex digits of b and a NUL into out. */
void pnet_hex_of(const unsigned char *b, size_t n, char *out);
/* The listener's side of the challenge: 0, or -EACCES (a wrong answer, refused) or another
 * error, with err set. */
int pnet_auth_server(int fd, const unsigned char *key, long long deadline, char *err,
		     size_t errlen);
/* Connects and authenticates: the socket (the caller closes it), or with err set -1 when no
 * connection could be made, -2 when the one made did not pass the challenge. */
int pnet_open_peer(const char *host, int port, const unsigned char *key, long long deadline,
		   char *err, size_t errlen);
/* Sends for ms milliseconds or bytes bytes (a zero is no limit; one of them is set), then
 * shuts the write side. Returns the bytes sent, or a negative code. */
long long pnet_stream_out(int fd, long long ms, unsigned long long bytes, long long deadline);
/* Counts what arrives until EOF: the bytes after the first read and the nanoseconds from the
 * first read to the last, so the sender's start and our wake-up are not in the rate. */
struct rx_count {
	unsigned long long total, bytes;
	long long ns;
};

int pnet_stream_in(int fd, struct rx_count *c, long long deadline);
double pnet_rate_bps(unsigned long long bytes, long long ns);
/* Reads the secret: secret_file, else one line of stdin; who names the reader in errors.
 * Prints why it failed and returns the exit code, or 0. */
int pnet_read_secret(unsigned char key[NP_KEY_LEN], const char *who, const char *secret_file);

/* ---- the agent (probe_net_agent.c): the node side, --agent. Serves until its launcher's
 * control connection ends (or, with listen_port, forever); returns the exit code. */
int pnet_agent_main(long timeout_s, long listen_port, const char *secret_file);

/* ---- the launcher's state (probe_net.c), read by the report */

enum node_state { N_WAITING = 0, N_READY, N_LIVE, N_DOWN };

struct node {
	const char *name, *addr;
	int port;
	enum node_state state;
	int fd;	     /* the control connection, -1 */
	int busy;    /* waiting for a result in this round */
	size_t peer; /* ... of the pair with this node */
	char buf[NP_LINE_MAX];
	size_t blen;
	char why[SSH_ERRLEN + 200];
	int unreachable; /* N_DOWN because it was never reached: no SSH session, or no TCP
			  * connection to its agent (the situation "unreachable") */
};

struct launch {
	struct node *nodes;
	size_t n;
	struct fo_host *hosts;
	struct fo_cancel cancel;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int fanout_done, fanout_rc;
	char fanout_err[SSH_ERRLEN];
	struct fanout f;
	struct np_matrix m;
	unsigned char key[NP_KEY_LEN];
	long long ms;
	unsigned long long bytes;
	long pings;
	long long timeout_ms;
	size_t rounds, confirm_rounds;
	int confirming;
	double seconds;
};

/* ---- the report (probe_net_report.c) */

/* The status of a node that is out of the run (N_DOWN): the situation table's for one never
 * reached, UNKNOWN for one that was but could not be measured (no hcclctl, its agent lost). */
enum probe_status pnet_down_status(const struct node *d);
void pnet_print_text(const struct launch *L, enum probe_status overall);
/* The JSON document (and the Prometheus file when asked), with code as its exit_code. */
void pnet_print_json(const struct launch *L, enum probe_status overall, int code);

#endif
