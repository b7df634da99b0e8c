/* hcclctl run --local: the launcher that forks every rank on this host. The ranks meet at a
 * rendezvous hosted by a process of its own, wait at a gate until all are forked, and leave
 * their errors, verdicts and flight recorder paths in shared memory; the launcher reaps them,
 * kills what is left after the verdict, and reports. Apart from run.c because it is a process
 * manager, not a benchmark: the rank's body is handed to it (struct run_local). */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "cmd/cli/cli.h"
#include "cmd/run/run.h"
#include "ranktable/base/clock.h"
#include "ranktable/base/plural.h"

/* What the forked ranks of --local (and the rendezvous process) share with the launcher. */
struct rank_slot {
	char err[ERR_SLOT];
	char flight[ERR_SLOT];
	struct comm_verdict v;
};
struct shared {
	char measured[RUN_MEASURED_MAX]; /* rank 0's rows before a failure (--json) */
	volatile int json_printed;
	volatile int have_verdict; /* the rendezvous's verdict is in verdict */
	struct comm_verdict verdict;
	struct rank_slot rank[];
};

/* Hosts the rendezvous in a process of its own, so the launcher stays single-threaded
 * and can fork the ranks safely (a fork while another thread holds the allocator's lock
 * leaves the child deadlocked). Writes the token to tokfd; serves until stopfd reads EOF. */
static void rendezvous_process(int n, int tmo, int tokfd, int stopfd, struct shared *sh)
{
	struct comm_root_info ri;
	struct comm_rendezvous *rdv = NULL;
	char err[COMM_ERRLEN] = "", msg[COMM_TOKEN_MAX + COMM_ERRLEN + 2];
	int ok = !comm_root_info_make(&ri, "127.0.0.1", 0, NULL, err, sizeof(err)) &&
		 !comm_rendezvous_start(&rdv, &ri, n, tmo, err, sizeof(err));
	int len = snprintf(msg, sizeof(msg), "%c%s", ok ? '+' : '-', ok ? ri.token : err);
	if (write(tokfd, msg, (size_t)len) != len)
		ok = 0;
	close(tokfd);
	/* until the launcher closes stopfd: relay the monitor's verdict as soon as it has one */
	while (ok) {
		struct pollfd pf = { stopfd, POLLIN, 0 };
		int k = poll(&pf, 1, 50);
		if (!sh->have_verdict && comm_rendezvous_verdict(rdv, &sh->verdict)) {
			__atomic_store_n(&sh->have_verdict, 1, __ATOMIC_RELEASE);
		}
		if (k > 0)
			break;
	}
	comm_rendezvous_stop(rdv);
	_exit(ok ? 0 : 3);
}

static int start_rendezvous(int n, struct comm_root_info *ri, pid_t *pid, int *stopfd,
			    struct shared *sh, const struct run_local *l)
{
	int tok[2], stop[2];
	char buf[COMM_TOKEN_MAX + COMM_ERRLEN + 2];
	int tmo = l->timeout_s ? (int)l->timeout_s * 1000 : 120000;

	if (pipe(tok) || pipe(stop))
		return fail(EXIT_UNKNOWN, l->where, NULL, "pipe: %s", strerror(errno));
	fflush(NULL);
	pid_t launcher = getpid();
	*pid = fork();
	if (*pid < 0)
		return fail(EXIT_UNKNOWN, l->where, NULL, "fork: %s", strerror(errno));
	if (*pid == 0) {
		close(tok[0]);
		close(stop[1]);
		/* it must not outlive the launcher, however that ends */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != launcher)
			_exit(3);
		prctl(PR_SET_NAME, "hcclctl-rdv");
		rendezvous_process(n, tmo, tok[1], stop[0], sh);
	}
	close(tok[1]);
	close(stop[0]);
	*stopfd = stop[1];
	ssize_t got = 0, r;
	while ((r = read(tok[0], buf + got, sizeof(buf) - 1 - (size_t)got)) > 0 ||
	       (r < 0 && errno == EINTR))
		got += r > 0 ? r : 0;
	close(tok[0]);
	buf[got > 0 ? got : 0] = 0;
	if (got < 2 || buf[0] != '+')
		return fail(EXIT_UNKNOWN, l->where, NULL, "rendezvous: %s",
			    got > 1 ? buf + 1 : "the rendezvous process failed");
	size_t tl = strlen(buf + 1);
	if (tl >= sizeof(ri->token))
		return fail(EXIT_UNKNOWN, l->where, NULL, "rendezvous: token too long");
	memcpy(ri->token, buf + 1, tl + 1);
	return 0;
}

/* A rank's whole verdict into its shared slot; the launcher reads a slot only once its kind
 * is set, so the kind goes last. */
static void publish_verdict(struct comm_verdict *slot, const struct comm_verdict *v)
{
	int kind = v->kind;
	*slot = *v;
	slot->kind = COMM_VERDICT_NONE;
	__atomic_store_n(&slot->kind, kind, __ATOMIC_RELEASE);
}

/* The launcher's verdict: the monitor's, else the first a rank reached. */
static const struct comm_verdict *job_verdict(const struct shared *sh, int n)
{
	if (__atomic_load_n(&sh->have_verdict, __ATOMIC_ACQUIRE))
		return &sh->verdict;
	for (int r = 0; r < n; r++)
		if (__atomic_load_n(&sh->rank[r].v.kind, __ATOMIC_ACQUIRE) != COMM_VERDICT_NONE)
			return &sh->rank[r].v;
	return NULL;
}

/* Forks the n ranks; each waits at the gate (its read end) until the launcher closes the
 * write end. 0, or the exit code with every rank forked so far killed and reaped. */
static int fork_ranks(const struct run_params *p, int n, const struct run_local *l,
		      const struct comm_root_info *ri, struct shared *sh, pid_t *pids,
		      const int gate[2], const struct run_bind *bind)
{
	pid_t launcher = getpid();
	int rc;
	fflush(NULL);
	for (int r = 0; r < n; r++) {
		pids[r] = fork();
		if (pids[r] < 0) {
			rc = fail(EXIT_UNKNOWN, l->where, NULL, "fork: %s", strerror(errno));
			for (int k = 0; k < r; k++)
				kill(pids[k], SIGKILL);
			for (int k = 0; k < r; k++)
				waitpid(pids[k], NULL, 0);
			return rc;
		}
		if (pids[r] == 0) {
			/* a rank must not outlive its launcher (killed, or stopped with TERM) */
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			if (getppid() != launcher)
				_exit(EXIT_FAIL);
			char name[24]; /* "hcclctl-r3" in ps and /proc/PID/comm, for operators */
			snprintf(name, sizeof(name), "hcclctl-r%d", r);
			prctl(PR_SET_NAME, name);
			(void)run_bind_rank(bind, r);
			close(gate[1]);
			char g;
			while (read(gate[0], &g, 1) < 0 && errno == EINTR)
				;
			close(gate[0]);
			*l->flight_slot = sh->rank[r].flight;
			if (r == 0)
				*l->measured_slot = sh->measured;
			/* The launcher polls the slot while this rank runs: the verdict is
			 * filled in steps (its kind, then its message, then the context), so
			 * it is built here and published whole, its kind stored last. */
			struct comm_verdict v = { .kind = COMM_VERDICT_NONE };
			int code = l->rank_main(ri, r, n, p, sh->rank[r].err, ERR_SLOT, &v);
			publish_verdict(&sh->rank[r].v, &v);
			if (r == 0 && p->json && out_json_printed())
				sh->json_printed = 1;
			fflush(NULL);
			_exit(code);
		}
	}
	return 0;
}

/* Once the job has a verdict the ranks end by themselves within a moment; one that does
 * not (stopped, stuck) is killed after this long, so the launcher never waits on it. */
#define VERDICT_GRACE_MS 3000
/* The culprit alone left is given this long from the verdict: a stopped or stuck one never
 * ends, but one that failed by itself is still writing its own line (on a loaded machine it
 * was killed mid-report, its line lost). */
#define CULPRIT_GRACE_MS 1000
/* After Ctrl-C the ranks end at the next row (runstop.c); one in a longer row, or stuck, is
 * killed after RUN_INTERRUPT_GRACE_MS (run.h), and at once on a second Ctrl-C. */

/* How the ranks ended early, if they did: the RUN_STOP_* reasons, when Ctrl-C came
 * (mono_ms, -1: not yet) and how many ranks had to be killed after it. */
struct local_stop {
	int why;
	long long at;
	int killed;
};

/* Kills every rank still running, marked as killed by us (not a cause); returns how many. */
static int kill_ranks(int n, pid_t *pids)
{
	int k = 0;
	for (int r = 0; r < n; r++)
		if (pids[r] > 0) {
			kill(pids[r], SIGKILL);
			pids[r] = -pids[r];
			k++;
		}
	return k;
}

/* Ctrl-C reached the launcher: passed on to the ranks once (kill -INT of the launcher alone
 * reaches no rank; a terminal's reaches them too, and twice is harmless), then the grace. */
static void interrupt_ranks(int n, pid_t *pids, struct local_stop *st)
{
	long long now = mono_ms();
	st->why |= RUN_STOP_INTERRUPT;
	if (st->at < 0) {
		st->at = now;
		for (int r = 0; r < n; r++)
			if (pids[r] > 0)
				kill(pids[r], SIGINT);
	}
	if (now - st->at > RUN_INTERRUPT_GRACE_MS || run_stop_interrupts() > 1)
		st->killed += kill_ranks(n, pids);
}

/* Reaps the ranks; prints the verdict as soon as there is one (*printed) and kills whoever
 * is left after the grace. Returns the worst exit code of the ranks; ranks that ended early
 * together (Ctrl-C, rank 0's stdout closed) leave the reason in st instead. */
static int wait_ranks(struct shared *sh, int n, pid_t *pids, pid_t *rdv_pid, int *printed,
		      struct local_stop *st)
{
	/* Wait for every rank. A rank killed by a signal is named; the survivors hear the
	 * verdict from the monitor and end; whoever is left after the grace is killed. */
	int left = n, worst = EXIT_OK;
	long long verdict_at = -1;
	while (left > 0) {
		int status;
		pid_t pid = waitpid(-1, &status, WNOHANG);
		if (pid < 0 && errno == EINTR)
			continue;
		if (pid < 0)
			break;
		if (pid == 0) {
			long long now = mono_ms();
			if (run_stop_asked() & RUN_STOP_INTERRUPT) {
				interrupt_ranks(n, pids, st);
				usleep(10000);
				continue;
			}
			const struct comm_verdict *v = job_verdict(sh, n);
			if (v && !*printed) { /* at once, not when the last rank is gone */
				run_verdict_print(v);
				*printed = 1;
				verdict_at = now;
			}
			/* the culprit alone is left (stopped, stuck or still reporting) after its
			 * short grace, or the grace of all is over */
			int culprit_only = v && v->rank >= 0 && v->rank < n && left == 1 &&
					   pids[v->rank] > 0;
			if (verdict_at >= 0 &&
			    now - verdict_at > (culprit_only ? CULPRIT_GRACE_MS : VERDICT_GRACE_MS))
				kill_ranks(n, pids);
			usleep(10000);
			continue;
		}
		int r = 0;
		while (r < n && pids[r] != pid && pids[r] != -pid)
			r++;
		if (r == n) {
			if (pid == *rdv_pid)
				*rdv_pid = -1;
			continue;
		}
		left--;
		int ours = pids[r] < 0;
		pids[r] = 0;
		int code = WIFEXITED(status) ? WEXITSTATUS(status) : EXIT_FAIL;
		if (WIFSIGNALED(status) && !sh->rank[r].err[0])
			snprintf(sh->rank[r].err, ERR_SLOT, "rank %d (pid %d) was killed by %s%d (%s)",
				 r, pid, ours ? "the launcher after the verdict, signal " : "signal ",
				 WTERMSIG(status), strsignal(WTERMSIG(status)));
		if (code == EXIT_INTERRUPT || (code == EXIT_PIPE && r == 0)) {
			st->why |= code == EXIT_PIPE ? RUN_STOP_OUTPUT : RUN_STOP_INTERRUPT;
			continue;
		}
		if (code == EXIT_FAIL || (code == EXIT_UNKNOWN && worst != EXIT_FAIL) ||
		    (code > worst && worst == EXIT_OK))
			worst = code;
	}
	return worst;
}

/* The rows rank 0 left in the shared page as it measured them (run.c), as the document's
 * "results": its own document is not there when it failed or was killed. */
static void add_measured(cJSON *doc, const struct shared *sh)
{
	cJSON *rows = sh->measured[0] ? cJSON_Parse(sh->measured) : NULL;
	cJSON_AddItemToObject(doc, "results", rows ? rows : cJSON_CreateArray());
}

/* The report of ranks that ended early together: nothing when rank 0's stdout was closed
 * (the reader has all it wanted, as `seq | head` says nothing), "interrupted" after Ctrl-C;
 * no verdict, no flight recorder: no rank failed. Returns the job's exit code. */
static int report_stop(const struct run_params *p, const struct run_local *l,
		       const struct shared *sh, const struct local_stop *st)
{
	if (sh->json_printed)
		out_json_set_printed();
	if (!(st->why & RUN_STOP_INTERRUPT))
		return EXIT_PIPE;
	if (st->killed)
		fail(EXIT_INTERRUPT, l->where, NULL, "interrupted: %d rank%s did not stop within %d s "
		     "and %s killed", st->killed, plural_s(st->killed),
		     RUN_INTERRUPT_GRACE_MS / 1000, st->killed == 1 ? "was" : "were");
	else
		fail(EXIT_INTERRUPT, l->where, NULL, "interrupted");
	if (p->json && !sh->json_printed) {
		cJSON *doc = cJSON_CreateObject();
		cJSON *e = cJSON_AddObjectToObject(doc, "error");
		cJSON_AddStringToObject(e, "where", l->where);
		cJSON_AddStringToObject(e, "message", "interrupted");
		cJSON_AddBoolToObject(doc, "interrupted", 1);
		add_measured(doc, sh); /* rank 0 was killed before its own document */
		cJSON_AddNumberToObject(doc, "exit_code", EXIT_INTERRUPT);
		out_json(doc);
	}
	return EXIT_INTERRUPT;
}

/* One line per failing rank, the flight recorder's files, then the verdict they all come
 * down to (and with --json the error document). Returns the job's exit code. */
static int report_ranks(const struct run_params *p, int n, const struct run_local *l,
			const struct shared *sh, int worst, int printed)
{
	const struct comm_verdict *v = job_verdict(sh, n);
	/* One line per failing rank, then the verdict they all come down to. */
	const char *first = NULL;
	for (int r = 0; r < n; r++) {
		if (!sh->rank[r].err[0])
			continue;
		if (!first)
			first = sh->rank[r].err;
		fprintf(stderr, "hcclctl: %s: %s\n", l->where, sh->rank[r].err);
	}
	int ndump = 0;
	const char *dump = NULL;
	for (int r = 0; r < n; r++)
		if (sh->rank[r].flight[0] && ++ndump == 1)
			dump = sh->rank[r].flight;
	if (dump && !g_opts.quiet) {
		const char *tail = strrchr(dump, '-'); /* ...-r<rank>.json */
		fprintf(stderr, "hcclctl: %s: flight recorder: %d rank%s wrote %.*s-r*.json; "
				"compare them with: hcclctl analyze %.*s-r*.json\n",
			l->where, ndump, plural_s(ndump), (int)(tail - dump), dump,
			(int)(tail - dump), dump);
	}
	if (v) {
		run_prom_write(p->coll == COMM_COLL_SEND ? "sendrecv" : comm_coll_name(p->coll), v->kind,
			       run_verdict_exit(v));
		if (!printed)
			run_verdict_print(v);
		worst = run_verdict_exit(v) > worst || worst == EXIT_OK ? run_verdict_exit(v) : worst;
		if (worst == EXIT_OK)
			worst = EXIT_FAIL;
	}
	if (sh->json_printed)
		out_json_set_printed();
	if (p->json && !sh->json_printed) {
		cJSON *doc = cJSON_CreateObject();
		cJSON *e = cJSON_AddObjectToObject(doc, "error");
		cJSON_AddStringToObject(e, "where", l->where);
		cJSON_AddStringToObject(e, "message", v ? v->msg : first ? first : "a rank failed");
		if (v)
			cJSON_AddItemToObject(doc, "verdict", run_verdict_json(v));
		add_measured(doc, sh); /* what was measured before the failure */
		cJSON *ranks = cJSON_AddArrayToObject(doc, "ranks");
		for (int r = 0; r < n; r++) {
			cJSON *x = cJSON_CreateObject();
			cJSON_AddNumberToObject(x, "rank", r);
			cJSON_AddStringToObject(x, "error", sh->rank[r].err);
			if (sh->rank[r].v.kind != COMM_VERDICT_NONE)
				cJSON_AddItemToObject(x, "verdict", run_verdict_json(&sh->rank[r].v));
			cJSON_AddItemToArray(ranks, x);
		}
		cJSON_AddNumberToObject(doc, "exit_code", worst);
		out_json(doc);
	}
	return worst;
}

int run_local_launch(const struct run_params *p, int n, const struct run_local *l)
{
	struct comm_root_info ri;
	size_t shsize = sizeof(struct shared) + (size_t)n * sizeof(struct rank_slot);
	struct shared *sh = mmap(NULL, shsize, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
				 -1, 0);
	pid_t *pids = calloc((size_t)n, sizeof(*pids)), rdv_pid = -1;
	int worst = EXIT_OK, rc, stopfd = -1, gate[2] = { -1, -1 };

	if (sh == MAP_FAILED || !pids) {
		free(pids);
		return fail(EXIT_UNKNOWN, l->where, NULL, "cannot allocate %d ranks", n);
	}
	struct run_bind bind;
	char berr[128];
	if (run_bind_plan(&bind, n, berr, sizeof(berr))) {
		munmap(sh, shsize);
		free(pids);
		return fail(EXIT_USAGE, l->where, "unset it, or set core or none", "%s", berr);
	}
	memset(sh, 0, shsize);
	/* the rendezvous holds a socket per rank, a rank of the full mesh one per peer: the
	 * soft limit on files (often 1024) up to the hard one, which the ranks inherit */
	struct rlimit nofile;
	if (!getrlimit(RLIMIT_NOFILE, &nofile) && nofile.rlim_cur < nofile.rlim_max) {
		nofile.rlim_cur = nofile.rlim_max;
		(void)setrlimit(RLIMIT_NOFILE, &nofile);
	}
	run_stop_arm(); /* the ranks inherit it: Ctrl-C before they run still stops them */
	rc = start_rendezvous(n, &ri, &rdv_pid, &stopfd, sh, l);
	if (rc)
		goto out;
	/* The ranks wait at a gate until all are forked: a rank that runs while the launcher
	 * still forks takes the CPU from it, and with hundreds of ranks on a few cores the
	 * launcher got 1/N of a core (1024 ranks on 2 cores: 3.3 s of forking, 0.2 s gated). */
	if (pipe2(gate, O_CLOEXEC)) {
		rc = fail(EXIT_UNKNOWN, l->where, NULL, "pipe: %s", strerror(errno));
		goto out;
	}
	if ((rc = fork_ranks(p, n, l, &ri, sh, pids, gate, &bind)))
		goto out;
	close(gate[1]); /* every rank is forked: they start */
	gate[1] = -1;
	int printed = 0;
	struct local_stop st = { .at = -1 };
	worst = wait_ranks(sh, n, pids, &rdv_pid, &printed, &st);
	if (st.why) {
		rc = report_stop(p, l, sh, &st);
		goto out;
	}
	if (stopfd >= 0) { /* a last look: the monitor may have decided as the ranks ended */
		for (int i = 0; i < 50 && !job_verdict(sh, n) && worst != EXIT_OK; i++)
			usleep(10000);
	}
	worst = report_ranks(p, n, l, sh, worst, printed);
	rc = worst;
out:
	for (int i = 0; i < 2; i++)
		if (gate[i] >= 0)
			close(gate[i]);
	if (stopfd >= 0)
		close(stopfd); /* the rendezvous process sees EOF and exits */
	if (rdv_pid > 0)
		waitpid(rdv_pid, NULL, 0);
	munmap(sh, shsize);
	free(pids);
	return rc;
}
