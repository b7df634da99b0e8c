/* Lazy links: a rank connects to a peer the first time an operation needs it. Ranks are
 * threads over loopback (comm_ranks.h). Checked: the links each algorithm leaves, counted
 * per rank against the peers its schedule names (computed here, not by the library); that
 * the full mesh (HCCLCTL_CONNECT=full) still has N-1; that the lower rank always connects
 * (a connection from a higher rank is refused and counted, and the receive goes on); that ranks
 * which all need each other at once (an all-to-all as the first operation) connect without
 * a deadlock; and that a needed peer nothing listens for is named, with the address tried,
 * on every rank.
 *
 * harness: timed (its ranks and tools run against wall-clock deadlines)
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>
#include <unistd.h>

#include "libcomm/internal.h"
#include "tests/unit/comm_ranks.h"

struct job {
	enum comm_algo algo;
	enum comm_coll coll;
	int conns; /* after the operation */
	int rc;	   /* of the operation */
	char err[COMM_ERRLEN];
	int refused;  /* connections this rank refused */
	int probe_rc; /* body_probe: the higher rank's connect to the lower one */
	char probe_why[COMM_ERRLEN];
};

static struct job *jobs_of(struct rank_arg *a)
{
	return (struct job *)a->user + a->rank;
}

static int one_op(struct rank_arg *a)
{
	struct job *j = jobs_of(a);
	int n = a->nranks;
	int32_t *in = calloc((size_t)n, 4), *out = calloc((size_t)n, 4);
	for (int i = 0; i < n; i++)
		in[i] = a->rank * 100 + i;
	comm_set_algo(a->c, j->algo);
	if (j->coll == COMM_COLL_ALLTOALL)
		j->rc = comm_alltoall(a->c, in, out, 1, COMM_INT32);
	else
		j->rc = comm_allreduce(a->c, in, out, 1, COMM_INT32, COMM_SUM);
	if (!j->rc && j->coll == COMM_COLL_ALLTOALL)
		for (int i = 0; i < n && !j->rc; i++)
			if (out[i] != i * 100 + a->rank)
				j->rc = 99;
	if (!j->rc && j->coll != COMM_COLL_ALLTOALL && out[0] != 100 * n * (n - 1) / 2)
		j->rc = 99;
	j->conns = comm_connections(a->c);
	snprintf(j->err, sizeof(j->err), "%s", comm_last_error(a->c));
	free(in);
	free(out);
	return 0;
}

static struct job *run_world(int n, int (*body)(struct rank_arg *), const struct job *proto,
			     int exec_ms)
{
	struct comm_root_info ri;
	struct comm_rendezvous *r = rdv_start(&ri, n, 5000);
	assert_non_null(r);
	struct rank_arg *a = calloc((size_t)n, sizeof(*a));
	struct job *j = calloc((size_t)n, sizeof(*j));
	ranks_setup(a, n, &ri, 5000, exec_ms);
	for (int i = 0; i < n; i++) {
		j[i] = *proto;
		a[i].body = body;
		a[i].user = j;
	}
	ranks_run(a, n);
	comm_rendezvous_stop(r);
	for (int i = 0; i < n; i++)
		if (a[i].rc)
			fail_msg("n=%d rank %d init: %s", n, i, a[i].err);
	free(a);
	return j;
}

/* The peers rank r's schedule names: ring r +- 1; rhd, for a power of two, r xor 2^k. */
static int expected(enum comm_algo algo, int r, int n)
{
	if (n == 1)
		return 0;
	if (algo == COMM_ALGO_RING)
		return n == 2 ? 1 : 2;
	int k = 0;
	for (int d = 1; d < n; d *= 2)
		k += (r ^ d) < n;
	return k;
}

static void test_counts(void **state)
{
	(void)state;
	static const struct {
		enum comm_algo algo;
		int n;
	} t[] = {{COMM_ALGO_RING, 8}, {COMM_ALGO_RING, 7}, {COMM_ALGO_RING, 2},
		 {COMM_ALGO_RHD, 8},  {COMM_ALGO_RHD, 16}, {COMM_ALGO_RHD, 1}};
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct job proto = {.algo = t[i].algo, .coll = COMM_COLL_ALLREDUCE};
		struct job *j = run_world(t[i].n, one_op, &proto, 5000);
		for (int r = 0; r < t[i].n; r++) {
			if (j[r].rc)
				fail_msg("%s n=%d rank %d: %s", comm_algo_name(t[i].algo), t[i].n,
					 r, j[r].err);
			if (j[r].conns != expected(t[i].algo, r, t[i].n))
				fail_msg("%s n=%d rank %d: %d connections, want %d",
					 comm_algo_name(t[i].algo), t[i].n, r, j[r].conns,
					 expected(t[i].algo, r, t[i].n));
		}
		free(j);
	}
}

static void test_full(void **state)
{
	(void)state;
	setenv("HCCLCTL_CONNECT", "full", 1);
	struct job proto = {.algo = COMM_ALGO_RING, .coll = COMM_COLL_ALLREDUCE};
	struct job *j = run_world(6, one_op, &proto, 5000);
	unsetenv("HCCLCTL_CONNECT");
	for (int r = 0; r < 6; r++)
		if (j[r].rc || j[r].conns != 5)
			fail_msg("full mesh rank %d: rc %d, %d connections, want 5: %s", r, j[r].rc,
				 j[r].conns, j[r].err);
	free(j);
	/* a value that is neither: every rank's init says so */
	setenv("HCCLCTL_CONNECT", "some", 1);
	struct comm_root_info ri;
	struct comm_rendezvous *rdv = rdv_start(&ri, 1, 5000);
	struct comm *c = NULL;
	struct comm_config cfg = {.rank = 0, .nranks = 1, .host = "h0", .listen_addr = "127.0.0.1"};
	char err[COMM_ERRLEN];
	int rc = comm_init(&c, &ri, &cfg, err, sizeof(err));
	unsetenv("HCCLCTL_CONNECT");
	comm_rendezvous_stop(rdv);
	assert_int_equal(rc, COMM_E_INVAL);
	assert_string_equal(err, "init: HCCLCTL_CONNECT='some' is not one of lazy, full");
}

/* Every rank needs every other at once, in its first operation. */
static void test_all_at_once(void **state)
{
	(void)state;
	struct job proto = {.algo = COMM_ALGO_AUTO, .coll = COMM_COLL_ALLTOALL};
	struct job *j = run_world(12, one_op, &proto, 10000);
	for (int r = 0; r < 12; r++)
		if (j[r].rc || j[r].conns != 11)
			fail_msg("alltoall rank %d: rc %d, %d connections, want 11: %s", r, j[r].rc,
				 j[r].conns, j[r].err);
	free(j);
}

/* Rank 2 connects to rank 1, against the rule, while rank 1 waits in a receive from rank 0
 * (which connects to it late): rank 1 refuses (counts) it and gets its message; rank 2 is
 * told no. (Against the rule both ends can wait on each other's answer until the handshake
 * deadline, which is why the lower rank always connects.) */
static int body_probe(struct rank_arg *a)
{
	struct job *j = jobs_of(a);
	int32_t v = 42, got = 0;
	if (a->rank == 2) {
		int fd = -1;
		j->probe_rc = comm__link_connect(a->c, 1, mono_ms() + 3000, -1, &fd,
						 j->probe_why, sizeof(j->probe_why));
		if (fd >= 0 && !j->probe_rc)
			close(fd);
	} else if (a->rank == 1) {
		j->rc = comm_recv(a->c, &got, 1, COMM_INT32, 0);
		if (!j->rc && got != 42)
			j->rc = 99;
	} else {
		usleep(500 * 1000);
		j->rc = comm_send(a->c, &v, 1, COMM_INT32, 1);
	}
	j->conns = comm_connections(a->c);
	snprintf(j->err, sizeof(j->err), "%s", comm_last_error(a->c));
	j->refused = (int)a->c->refused;
	return 0;
}

static void test_lower_connects(void **state)
{
	(void)state;
	struct job proto = {.algo = COMM_ALGO_AUTO};
	struct job *j = run_world(3, body_probe, &proto, 5000);
	assert_int_equal(j[2].probe_rc, COMM_E_PEER);
	if (!strstr(j[2].probe_why, "connection to rank 1 (host h1) at 127.0.0.1:"))
		fail_msg("probe: %s", j[2].probe_why);
	static const int want_conns[3] = {1, 1, 0}, want_refused[3] = {0, 1, 0};
	for (int r = 0; r < 3; r++)
		if (j[r].rc || j[r].conns != want_conns[r] || j[r].refused != want_refused[r])
			fail_msg("rank %d: rc %d, %d connections (want %d), %d refused (want %d): "
				 "%s",
				 r, j[r].rc, j[r].conns, want_conns[r], j[r].refused,
				 want_refused[r], j[r].err);
	free(j);
}

/* Rank 2 is alive but nothing listens where it said it would (its listening socket closed,
 * as a firewall that rejects would look): the ranks that need it name it and the address. */
static int body_unreachable(struct rank_arg *a)
{
	struct job *j = jobs_of(a);
	if (a->rank == 2) {
		close(a->c->lfd);
		a->c->lfd = -1;
	} else { /* after it closed: a connection already queued on it would be reset instead */
		usleep(300 * 1000);
	}
	j->refused = a->c->peers[2].port; /* the port the others will try */
	one_op(a);
	return 0;
}

static void test_unreachable(void **state)
{
	(void)state;
	struct job proto = {.algo = COMM_ALGO_MESH, .coll = COMM_COLL_ALLREDUCE};
	struct job *j = run_world(3, body_unreachable, &proto, 4000);
	char want[128];
	snprintf(want, sizeof(want),
		 "cannot reach rank 2 (host h2) at 127.0.0.1:%d: Connection refused", j[0].refused);
	for (int r = 0; r < 3; r++) {
		if (j[r].rc != COMM_E_PEER || !strstr(j[r].err, want))
			fail_msg("rank %d: rc %d, '%s', want peer with '%s'", r, j[r].rc, j[r].err,
				 want);
	}
	/* rank 1 needs only rank 2 (rank 0 tries rank 1 first, and sees it fail): its own
	 * words, with where it was */
	snprintf(want, sizeof(want),
		 "rank 1 (host h1): allreduce #1 step 0: cannot reach rank 2 (host h2) at "
		 "127.0.0.1:%d: Connection refused",
		 j[0].refused);
	if (strcmp(j[1].err, want))
		fail_msg("rank 1: '%s', want '%s'", j[1].err, want);
	free(j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counts),	    cmocka_unit_test(test_full),
		cmocka_unit_test(test_all_at_once), cmocka_unit_test(test_lower_connects),
		cmocka_unit_test(test_unreachable),
	};
	return cmocka_run_group_tests_name("comm_links", tests, NULL, NULL);
}
