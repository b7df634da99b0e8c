/* A peer that breaks the wire protocol: garbage, malformed headers, a wrong sender, frame
 * lengths beyond the limit or different from the posted receive, and frames cut short by a
 * close. Ranks are threads over loopback (comm_ranks.h); once their communicators are up,
 * this thread writes raw bytes straight onto rank 1's data socket to rank 0, bypassing the
 * engine, then runs rank 0's next operation. It must fail at once (not at the exec deadline)
 * with the exact message naming rank 1 and what was wrong, and the job's verdict, decided
 * by the rendezvous's monitor, must carry the same message. Frames are built here byte by
 * byte from the layout in wire.h, independently of wire.c's encoders.
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
#include <errno.h>
#include <sys/socket.h>
#include <unistd.h>

#include "libcomm/internal.h"
#include "tests/unit/comm_ranks.h"

#define SENDER 1
#define RECEIVER 0
#define COUNT 4 /* int32 elements the receiver asks for: 16 bytes */
#define EXEC_MS 10000
#define PROMPT_MS 1000 /* "at once": far below the exec deadline */
#define VERDICT_MS 3000

/* ---- raw frames ---- */

struct raw {
	unsigned char b[512];
	size_t n;
};

static void be(struct raw *w, uint64_t v, int k)
{
	for (int i = k - 1; i >= 0; i--)
		w->b[w->n++] = (unsigned char)(v >> (8 * i));
}

static void bytes(struct raw *w, const void *p, size_t n)
{
	memcpy(w->b + w->n, p, n);
	w->n += n;
}

/* magic "CM", version, type, seq, step, from, length */
static void hdr_full(struct raw *w, unsigned ver, unsigned type, uint32_t seq, int32_t step,
		     uint32_t from, uint64_t len)
{
	bytes(w, "CM", 2);
	be(w, ver, 1);
	be(w, type, 1);
	be(w, seq, 4);
	be(w, (uint32_t)step, 4);
	be(w, from, 4);
	be(w, len, 8);
}

static void hdr(struct raw *w, unsigned type, uint32_t seq, int32_t step, uint32_t from,
		uint64_t len)
{
	hdr_full(w, COMM_PROTOCOL_VERSION, type, seq, step, from, len);
}

/* A fingerprint payload: seq, coll, dtype, op, algo, count, root, padding. */
static void fp(struct raw *w, uint32_t seq, unsigned coll, unsigned dtype, uint64_t count,
	       int32_t root)
{
	be(w, seq, 4);
	be(w, coll, 1);
	be(w, dtype, 1);
	be(w, 0, 1); /* op */
	be(w, 0, 1); /* algo: auto, as send/recv carry it */
	be(w, count, 8);
	be(w, (uint32_t)root, 4);
	be(w, 0, 4);
}

/* What rank 1 would send for its comm_send(COUNT int32 to rank 0), #1: the fingerprint
 * frame that matches rank 0's comm_recv. */
static void send_fp(struct raw *w)
{
	hdr(w, COMM__F_FP, 1, -1, SENDER, COMM__FP_LEN);
	fp(w, 1, COMM_COLL_SEND, COMM_INT32, COUNT, RECEIVER);
}

static void build_garbage(struct raw *w)
{
	static const char get[] = "GET / HTTP/1.1\r\nHost: h0\r\n\r\n";
	bytes(w, get, sizeof(get) - 1);
}

static void build_version(struct raw *w)
{
	hdr_full(w, 9, COMM__F_FP, 1, -1, SENDER, COMM__FP_LEN);
}

static void build_type(struct raw *w)
{
	hdr(w, 200, 1, -1, SENDER, 0);
}

static void build_wrong_from(struct raw *w)
{
	hdr(w, COMM__F_FP, 1, -1, 2, COMM__FP_LEN);
	fp(w, 1, COMM_COLL_ALLREDUCE, COMM_INT32, COUNT, -1);
}

static void build_from_range(struct raw *w)
{
	hdr(w, COMM__F_FP, 1, -1, 70000, COMM__FP_LEN);
}

static void build_huge_fp(struct raw *w)
{
	hdr(w, COMM__F_FP, 1, -1, SENDER, (uint64_t)1 << 40);
}

static void build_huge_abort(struct raw *w)
{
	hdr(w, COMM__F_ABORT, 1, -1, SENDER, UINT64_MAX);
}

static void build_hello(struct raw *w)
{
	hdr(w, COMM__F_HELLO, 1, -1, SENDER, 40);
}

static void build_bad_fp(struct raw *w)
{
	hdr(w, COMM__F_FP, 1, -1, SENDER, COMM__FP_LEN);
	fp(w, 1, 99, COMM_INT32, COUNT, -1);
}

static void build_data_early(struct raw *w)
{
	hdr(w, COMM__F_DATA, 1, 0, SENDER, COUNT * 4);
}

static void build_data_short(struct raw *w)
{
	send_fp(w);
	hdr(w, COMM__F_DATA, 1, 0, SENDER, COUNT * 4 - 4);
}

static void build_data_huge(struct raw *w)
{
	send_fp(w);
	hdr(w, COMM__F_DATA, 1, 0, SENDER, (uint64_t)1 << 62);
}

static void build_cut_header(struct raw *w)
{
	hdr(w, COMM__F_FP, 1, -1, SENDER, COMM__FP_LEN);
	w->n = 10;
}

static void build_cut_fp(struct raw *w)
{
	hdr(w, COMM__F_FP, 1, -1, SENDER, COMM__FP_LEN);
	fp(w, 1, COMM_COLL_ALLREDUCE, COMM_INT32, COUNT, -1);
	w->n -= 14;
}

static void build_cut_data(struct raw *w)
{
	send_fp(w);
	hdr(w, COMM__F_DATA, 1, 0, SENDER, COUNT * 4);
	static const unsigned char half[COUNT * 2] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	bytes(w, half, sizeof(half));
}

/* ---- the cases ---- */

enum rop { ALLREDUCE, RECV };

struct wcase {
	const char *name;
	int nranks;
	void (*build)(struct raw *w);
	bool close; /* rank 1 half-closes its socket to rank 0 after the bytes */
	enum rop op;
	int code;
	const char *msg; /* comm_last_error on rank 0, exactly */
};

#define AR "rank 0 (host h0): allreduce #1: "
#define RV "rank 0 (host h0): recv #1 from rank 1: "

static const struct wcase cases[] = {
	{ "garbage", 2, build_garbage, false, ALLREDUCE, COMM_E_PROTO,
	  AR "bad frame from rank 1 (host h1): frame header: offset 0: bad magic 0x4745 (not a "
	     "libcomm peer)" },
	{ "version", 2, build_version, false, ALLREDUCE, COMM_E_PROTO,
	  AR "bad frame from rank 1 (host h1): frame header: offset 2: protocol version 9, this "
	     "library speaks 3" },
	{ "frame type", 2, build_type, false, ALLREDUCE, COMM_E_PROTO,
	  AR "bad frame from rank 1 (host h1): frame header: offset 3: unknown frame type 200" },
	{ "wrong from", 3, build_wrong_from, false, ALLREDUCE, COMM_E_PROTO,
	  AR "frame from rank 1 (host h1) says it is from rank 2" },
	{ "from out of range", 2, build_from_range, false, ALLREDUCE, COMM_E_PROTO,
	  AR "bad frame from rank 1 (host h1): frame header: offset 12: sender rank 70000 out of "
	     "range" },
	{ "huge fingerprint", 2, build_huge_fp, false, ALLREDUCE, COMM_E_PROTO,
	  AR "bad frame from rank 1 (host h1): frame header: offset 16: fingerprint frame length "
	     "1099511627776 exceeds 24" },
	{ "huge abort", 3, build_huge_abort, false, ALLREDUCE, COMM_E_PROTO,
	  AR "bad frame from rank 1 (host h1): frame header: offset 16: abort frame length "
	     "18446744073709551615 exceeds 1030" },
	{ "hello on a data socket", 2, build_hello, false, ALLREDUCE, COMM_E_PROTO,
	  AR "unexpected hello frame from rank 1 (host h1)" },
	{ "bad fingerprint", 2, build_bad_fp, false, ALLREDUCE, COMM_E_PROTO,
	  AR "bad frame from rank 1 (host h1): fingerprint: offset 4: collective 99 out of range" },
	{ "data before fingerprint", 2, build_data_early, false, ALLREDUCE, COMM_E_PROTO,
	  AR "rank 1 (host h1) sent data for #1 step 0 while this rank waits for its fingerprint "
	     "(ranks out of step)" },
	{ "data length", 2, build_data_short, false, RECV, COMM_E_PROTO,
	  RV "rank 1 (host h1) sent 12 bytes for #1 step 0 but 16 bytes for #1 were expected "
	     "(algorithms disagree)" },
	{ "huge data length", 2, build_data_huge, false, RECV, COMM_E_PROTO,
	  RV "rank 1 (host h1) sent 4611686018427387904 bytes for #1 step 0 but 16 bytes for #1 "
	     "were expected (algorithms disagree)" },
	{ "closed inside a header", 2, build_cut_header, true, ALLREDUCE, COMM_E_PEER,
	  AR "rank 1 (host h1) closed the connection inside a frame header" },
	{ "closed inside a fingerprint", 3, build_cut_fp, true, ALLREDUCE, COMM_E_PEER,
	  AR "rank 1 (host h1) closed the connection inside a fingerprint frame" },
	{ "closed inside data", 2, build_cut_data, true, RECV, COMM_E_PEER,
	  RV "connection to rank 1 (host h1) lost: it exited or closed the communicator; received "
	     "8 of 16 bytes" },
};

static void write_all(int fd, const unsigned char *p, size_t n)
{
	while (n) {
		ssize_t k = send(fd, p, n, MSG_NOSIGNAL);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) /* a fresh socket's buffer takes a few hundred bytes */
			fail_msg("send on rank 1's socket: %s", strerror(errno));
		p += k;
		n -= (size_t)k;
	}
}

static void run_case(const struct wcase *t)
{
	struct rank_arg a[3];
	int n = t->nranks;
	if (n < 2 || n > 3)
		fail_msg("%s: world size %d", t->name, n);
	struct comm_root_info ri;
	struct comm_rendezvous *rdv = rdv_start(&ri, n, 5000);
	assert_non_null(rdv);
	ranks_setup(a, n, &ri, 5000, EXEC_MS);
	for (int i = 0; i < n; i++)
		a[i].keep = 1; /* communicators up, then back to this thread */
	ranks_run(a, n);
	for (int i = 0; i < n; i++)
		if (a[i].rc)
			fail_msg("%s: rank %d init: %s", t->name, i, a[i].err);

	struct raw w = { .n = 0 };
	t->build(&w);
	int fd = a[SENDER].c->peers[RECEIVER].fd;
	write_all(fd, w.b, w.n);
	if (t->close)
		assert_int_equal(shutdown(fd, SHUT_WR), 0);

	struct comm *c = a[RECEIVER].c;
	int32_t buf[COUNT] = { 0 };
	int64_t t0 = mono_ms();
	int rc = t->op == RECV ? comm_recv(c, buf, COUNT, COMM_INT32, SENDER)
			       : comm_allreduce(c, buf, buf, COUNT, COMM_INT32, COMM_SUM);
	int64_t took = mono_ms() - t0;
	const char *e = comm_last_error(c);
	if (getenv("COMM_TEST_VERBOSE"))
		fprintf(stderr, "# %s: %s after %lld ms: %s\n", t->name, comm_status_name(rc),
			(long long)took, e);
	if (rc != t->code)
		fail_msg("%s: %s (want %s): %s", t->name, comm_status_name(rc),
			 comm_status_name(t->code), e);
	if (strcmp(e, t->msg))
		fail_msg("%s:\n got: %s\nwant: %s", t->name, e, t->msg);
	if (took >= PROMPT_MS)
		fail_msg("%s: failed after %lld ms, not at once", t->name, (long long)took);

	/* the job's verdict, from the monitor: the receiver's report, naming the sender */
	struct comm_verdict v, rv;
	memset(&v, 0, sizeof(v));
	assert_int_equal(comm_verdict(c, &v, VERDICT_MS), 1);
	if (getenv("COMM_TEST_VERBOSE"))
		fprintf(stderr, "#   verdict %s rank %d: %s\n", comm_verdict_kind_name(v.kind),
			v.rank, v.msg);
	if (strcmp(v.msg, t->msg))
		fail_msg("%s: verdict:\n got: %s\nwant: %s", t->name, v.msg, t->msg);
	assert_int_not_equal(v.kind, COMM_VERDICT_NONE);
	if (v.rank >= 0 && v.rank != SENDER) /* never blames another rank */
		fail_msg("%s: verdict blames rank %d: %s", t->name, v.rank, v.msg);
	/* the monitor decides after its settle time; on a busy machine a moment later */
	int have = 0;
	for (int k = 0; k < 300 && !(have = comm_rendezvous_verdict(rdv, &rv)); k++)
		usleep(10000);
	assert_int_equal(have, 1);
	assert_string_equal(rv.msg, v.msg);
	assert_int_equal(rv.kind, v.kind);

	/* the healthy ranks first: rank 0's linger then sees their close at once */
	for (int i = n - 1; i >= 0; i--)
		comm_destroy(a[i].c);
	comm_rendezvous_stop(rdv);
}


static int fds0, tasks0;

static void test_case(void **state)
{
	run_case(*state);
}

/* All cases together leave no descriptor and no thread behind. */
static void test_no_leaks(void **state)
{
	(void)state;
	assert_int_equal(open_fds(), fds0);
	assert_int_equal(settled_threads(tasks0), tasks0);
}

#define NCASES (sizeof(cases) / sizeof(cases[0]))

int main(void)
{
	/* the bytes go onto rank 1's link to rank 0 before any operation: links made in init
	 * (the frames are read by the same engine code whichever way the link was made) */
	setenv("HCCLCTL_CONNECT", "full", 1);
	/* ... onto its socket: the ranks are threads of one process, whose links would be
	 * shared memory, where the socket carries only doorbells */
	setenv("HCCLCTL_TRANSPORT", "tcp", 1);
	struct CMUnitTest tests[NCASES + 1];
	for (size_t i = 0; i < NCASES; i++)
		tests[i] = (struct CMUnitTest){ cases[i].name, test_case, NULL, NULL,
						(void *)&cases[i] };
	tests[NCASES] = (struct CMUnitTest){ "no leaks", test_no_leaks, NULL, NULL, NULL };
	fds0 = open_fds();
	tasks0 = settled_threads(-1);
	return cmocka_run_group_tests_name("fault_wire", tests, NULL, NULL);
}
