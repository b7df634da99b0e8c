/* allreduce: a program of its own on libcomm, using nothing but libcomm.h. It starts
 * NRANKS ranks as child processes on this machine, hosts their rendezvous, and has them
 * sum COUNT int64 elements with comm_allreduce over loopback TCP. Rank r contributes
 * r * COUNT + i at element i, so every element's sum is known without libcomm:
 * COUNT * N(N-1)/2 + N * i. Each rank checks its own result against that and reports a
 * checksum (the sum of its elements) and the number of wrong elements.
 *
 * Build it against an installed libcomm:
 *   cc $(pkg-config --cflags libcomm) allreduce.c $(pkg-config --libs libcomm) -o allreduce
 * Usage: allreduce [NRANKS [COUNT]]   (default 3 ranks, 1048576 elements)
 * Exit status: 0 every rank has the right sums, 1 some element was wrong, 2 libcomm failed,
 * 64 a bad argument. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <libcomm.h>

#define MAX_RANKS 64
#define DEADLINE_MS 30000 /* a rank that never comes fails the job in 30 s, not 2 minutes */

/* What a rank sends back to the launcher; smaller than PIPE_BUF, so each write is whole. */
struct result {
	int rank;
	int status; /* 0, or the libcomm error code */
	int64_t checksum;
	uint64_t wrong;
	char msg[COMM_ERRLEN];
};

static int parse_arg(const char *s, long min, long max, long *out)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

/* One rank: join the communicator of token, sum, check every element. */
static void run_rank(int rank, int nranks, size_t count, const char *token, struct result *res)
{
	struct comm_root_info ri;
	struct comm_config cfg = {0};
	struct comm *c = NULL;
	int64_t *buf = NULL;

	res->rank = rank;
	snprintf(ri.token, sizeof(ri.token), "%s", token);
	cfg.rank = rank;
	cfg.nranks = nranks;
	cfg.listen_addr = "127.0.0.1";
	cfg.connect_timeout_ms = DEADLINE_MS;
	cfg.exec_timeout_ms = DEADLINE_MS;
	cfg.algo = COMM_ALGO_AUTO;

	res->status = comm_init(&c, &ri, &cfg, res->msg, sizeof(res->msg));
	if (res->status)
		return;
	buf = malloc(count ? count * sizeof(*buf) : 1);
	if (!buf) {
		res->status = COMM_E_NOMEM;
		snprintf(res->msg, sizeof(res->msg), "rank %d: out of memory for %zu elements",
			 rank, count);
		goto out;
	}
	for (size_t i = 0; i < count; i++)
		buf[i] = (int64_t)rank * (int64_t)count + (int64_t)i;

	res->status = comm_allreduce(c, buf, buf, count, COMM_INT64, COMM_SUM);
	if (res->status) {
		snprintf(res->msg, sizeof(res->msg), "%s", comm_last_error(c));
		goto out;
	}
	int64_t base = (int64_t)count * nranks * (nranks - 1) / 2;
	for (size_t i = 0; i < count; i++) {
		if (buf[i] != base + (int64_t)nranks * (int64_t)i) {
			if (!res->wrong)
				snprintf(res->msg, sizeof(res->msg),
					 "element %zu is %" PRId64 ", expected %" PRId64, i, buf[i],
					 base + (int64_t)nranks * (int64_t)i);
			res->wrong++;
		}
		res->checksum += buf[i];
	}
out:
	free(buf);
	comm_destroy(c);
}

/* A child process: wait for the token on tokfd, run, write the result to resfd. */
static void child(int rank, int nranks, size_t count, int tokfd, int resfd)
{
	struct result res = {0};
	char token[COMM_TOKEN_MAX] = "";
	size_t got = 0;
	ssize_t k;

	while (got < sizeof(token) - 1 &&
	       ((k = read(tokfd, token + got, sizeof(token) - 1 - got)) > 0 ||
		(k < 0 && errno == EINTR)))
		got += k > 0 ? (size_t)k : 0;
	token[got] = '\0';
	if (got == 0)
		_exit(2); /* the launcher could not start the rendezvous and said why */
	run_rank(rank, nranks, count, token, &res);
	_exit(write(resfd, &res, sizeof(res)) == (ssize_t)sizeof(res) ? 0 : 2);
}

int main(int argc, char **argv)
{
	long nranks = 3, count = 1048576;
	int tok[MAX_RANKS][2], res[2];
	pid_t pid[MAX_RANKS];
	struct result results[MAX_RANKS];
	int seen[MAX_RANKS] = {0};
	struct comm_root_info ri;
	struct comm_rendezvous *rdv = NULL;
	char err[COMM_ERRLEN] = "";
	int rc = 0;

	if (argc > 3 || (argc > 1 && parse_arg(argv[1], 1, MAX_RANKS, &nranks)) ||
	    (argc > 2 && parse_arg(argv[2], 0, 1L << 26, &count))) {
		fprintf(stderr, "usage: allreduce [NRANKS (1-%d) [COUNT (0-%ld)]]\n", MAX_RANKS,
			1L << 26);
		return 64;
	}

	/* The ranks are forked before the rendezvous starts its thread: a child forked from a
	 * threaded process may inherit a lock held by another thread, and hang on it. */
	if (pipe(res)) {
		perror("allreduce: pipe");
		return 2;
	}
	for (int r = 0; r < nranks; r++) {
		if (pipe(tok[r])) {
			perror("allreduce: pipe");
			return 2;
		}
		fflush(NULL);
		pid[r] = fork();
		if (pid[r] < 0) {
			perror("allreduce: fork");
			return 2;
		}
		if (pid[r] == 0) {
			/* only the launcher may hold a rank's token pipe open, or that rank
			 * never sees the end of its token */
			for (int q = 0; q <= r; q++)
				close(tok[q][1]);
			close(res[0]);
			child(r, (int)nranks, (size_t)count, tok[r][0], res[1]);
		}
		close(tok[r][0]);
	}
	close(res[1]);

	/* port 0: the rendezvous binds a free port and writes it into the token */
	if (comm_root_info_make(&ri, "127.0.0.1", 0, NULL, err, sizeof(err)) ||
	    comm_rendezvous_start(&rdv, &ri, (int)nranks, DEADLINE_MS, err, sizeof(err))) {
		fprintf(stderr, "allreduce: %s\n", err);
		rc = 2;
	}
	for (int r = 0; r < nranks; r++) {
		if (!rc &&
		    write(tok[r][1], ri.token, strlen(ri.token)) != (ssize_t)strlen(ri.token))
			rc = 2;
		close(tok[r][1]); /* without a token the rank ends at once */
	}

	struct result one;
	while (read(res[0], &one, sizeof(one)) == (ssize_t)sizeof(one)) {
		if (one.rank >= 0 && one.rank < nranks) {
			results[one.rank] = one;
			seen[one.rank] = 1;
		}
	}
	close(res[0]);
	for (int r = 0; r < nranks; r++) {
		int st;
		while (waitpid(pid[r], &st, 0) < 0 && errno == EINTR)
			;
	}
	comm_rendezvous_stop(rdv);
	if (rc)
		return rc;

	for (int r = 0; r < nranks; r++) {
		struct result *x = &results[r];
		if (!seen[r]) {
			fprintf(stderr, "allreduce: rank %d ended without a result\n", r);
			rc = 2;
		} else if (x->status) {
			fprintf(stderr, "allreduce: rank %d: %s: %s\n", r,
				comm_status_name(x->status), x->msg);
			rc = 2;
		} else {
			printf("rank %d: checksum %" PRId64 ", %" PRIu64 " wrong\n", r, x->checksum,
			       x->wrong);
			if (x->wrong) {
				fprintf(stderr, "allreduce: rank %d: %s\n", r, x->msg);
				rc = rc ? rc : 1;
			}
		}
	}
	if (!rc)
		printf("allreduce of %ld int64 over %ld ranks: correct\n", count, nranks);
	return rc;
}
