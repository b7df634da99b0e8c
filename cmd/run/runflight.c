/* The flight recorder's files: a rank writes libcomm's record of its last collectives to
 * DIR/hcclctl-flight-<job>-r<rank>.json when it fails, and on SIGUSR1 while it runs (for a
 * job that looks stuck to an operator before any deadline). DIR is --flight-dir, else
 * $HCCLCTL_FLIGHT_DIR, else a directory of the user's own, ${TMPDIR:-/tmp}/hcclctl-<uid>,
 * mode 0700: a dump tells which collectives ran with which sizes, and in a directory anyone
 * can write to, another user could plant names there. In that default directory only the
 * dumps of the last KEEP_JOBS jobs are kept. Files go through the atomic writer
 * (ranktable/atomic.c), mode 0600, so `hcclctl analyze` never reads half a dump from a rank
 * that is still writing. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/cli/cli.h"
#include "ranktable/ranktable.h"
#include "cmd/run/run.h"

#define KEEP_JOBS 8	/* jobs whose dumps stay in the default directory (man/hcclctl-run.1) */
#define MAX_JOBS 1024	/* the jobs one pass looks at; more are removed by the next dumps */
#define PREFIX "hcclctl-flight-"

const char *run_flight_dir;

/* The default directory, made if missing; refused unless it is a real directory (not a
 * symlink), ours, and closed to everyone else. 0 or a negative errno with err. */
static int private_dir(char *dir, size_t len, char *err, size_t errlen)
{
	const char *t = getenv("TMPDIR");
	struct stat st;
	uid_t me = geteuid();
	if ((size_t)snprintf(dir, len, "%s/hcclctl-%u", t && *t == '/' ? t : "/tmp",
			     (unsigned)me) >= len) {
		snprintf(err, errlen, "$TMPDIR is too long");
		return -ENAMETOOLONG;
	}
	if (mkdir(dir, 0700) && errno != EEXIST) {
		int e = errno;
		snprintf(err, errlen, "cannot make %s: %s", dir, strerror(e));
		return -e;
	}
	/* mkdir does not follow a symlink planted at dir: lstat sees what is really there */
	if (lstat(dir, &st)) {
		int e = errno;
		snprintf(err, errlen, "cannot stat %s: %s", dir, strerror(e));
		return -e;
	}
	if (!S_ISDIR(st.st_mode) || st.st_uid != me || (st.st_mode & 077)) {
		snprintf(err, errlen,
			 "%s is not a private directory of user %u (%s, owner %u, mode %04o); "
			 "nothing was written there: remove it, or give --flight-dir DIR",
			 dir, (unsigned)me,
			 S_ISLNK(st.st_mode) ? "a symlink" : S_ISDIR(st.st_mode) ? "a directory" :
										  "not a directory",
			 (unsigned)st.st_uid, (unsigned)(st.st_mode & 07777));
		return -EPERM;
	}
	return 0;
}

struct job {
	char id[17];
	time_t newest;
};

static int newer_first(const void *a, const void *b)
{
	const struct job *x = a, *y = b;
	return x->newest < y->newest ? 1 : x->newest > y->newest ? -1 : 0;
}

/* "hcclctl-flight-<16 hex>-r<rank>.json" -> the job id; NULL for any other name. */
static const char *job_of(const char *name, char id[17])
{
	size_t pl = strlen(PREFIX), nl = strlen(name);
	if (strncmp(name, PREFIX, pl) || nl < pl + 16 + 8 || strncmp(name + pl + 16, "-r", 2) ||
	    strcmp(name + nl - 5, ".json") || strspn(name + pl, "0123456789abcdef") != 16)
		return NULL;
	memcpy(id, name + pl, 16);
	id[16] = '\0';
	return id;
}

/* Removes the dumps of all but the KEEP_JOBS jobs whose newest dump is newest. Best effort:
 * ranks of one job on one node run this at once, and a file gone already is fine. */
static void prune(const char *dir)
{
	DIR *d = opendir(dir);
	struct job *jobs = calloc(MAX_JOBS, sizeof(*jobs));
	size_t n = 0;
	struct dirent *e;
	char id[17];
	struct stat st;
	if (!d || !jobs)
		goto out;
	while ((e = readdir(d))) {
		if (!job_of(e->d_name, id) || fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW))
			continue;
		size_t i = 0;
		while (i < n && strcmp(jobs[i].id, id))
			i++;
		if (i == n && n == MAX_JOBS)
			continue;
		if (i == n)
			snprintf(jobs[n++].id, sizeof(jobs->id), "%s", id);
		if (st.st_mtime > jobs[i].newest)
			jobs[i].newest = st.st_mtime;
	}
	if (n <= KEEP_JOBS)
		goto out;
	qsort(jobs, n, sizeof(*jobs), newer_first);
	rewinddir(d);
	while ((e = readdir(d))) {
		if (!job_of(e->d_name, id))
			continue;
		for (size_t i = KEEP_JOBS; i < n; i++)
			if (!strcmp(jobs[i].id, id)) {
				unlinkat(dirfd(d), e->d_name, 0);
				break;
			}
	}
out:
	free(jobs);
	if (d)
		closedir(d);
}

int run_flight_write(struct comm *c, const char *reason, char *path, size_t len, char *err,
		     size_t errlen)
{
	const char *e = getenv("HCCLCTL_FLIGHT_DIR");
	const char *given = run_flight_dir ? run_flight_dir : e && *e ? e : NULL;
	char dir[4096], id[17];
	struct rt_atomic a;
	int rc;
	*path = '\0';
	if (given)
		snprintf(dir, sizeof(dir), "%s", given);
	else if ((rc = private_dir(dir, sizeof(dir), err, errlen)))
		return rc;
	comm_id_string(c, id);
	int k = snprintf(path, len, "%s/" PREFIX "%s-r%d.json", dir, id, comm_rank(c));
	if (k < 0 || (size_t)k >= len) {
		snprintf(err, errlen, "%s: path too long", dir);
		return -ENAMETOOLONG;
	}
	if ((rc = rt_atomic_open(&a, path, err, errlen)))
		return rc;
	if (comm_flight_dump(c, a.fd, reason)) {
		snprintf(err, errlen, "cannot write %s: %s", path, comm_last_error(c));
		rt_atomic_abort(&a);
		return -EIO;
	}
	if ((rc = rt_atomic_commit(&a, 0600, err, errlen)))
		return rc;
	if (!given)
		prune(dir);
	return 0;
}

/* SIGUSR1: the handler only wakes a thread, which writes the dump. */
static int sig_pipe[2] = { -1, -1 };
static pthread_t sig_thread;
static struct comm *sig_comm;

static void on_usr1(int sig)
{
	(void)sig;
	int e = errno;
	char b = 1;
	if (write(sig_pipe[1], &b, 1) < 0) {
		/* a full pipe already holds a request */
	}
	errno = e;
}

static void *dumper(void *arg)
{
	(void)arg;
	char b;
	for (;;) {
		ssize_t k = read(sig_pipe[0], &b, 1);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0 || b == 0)
			break;
		char path[4096], err[4400];
		int rc = run_flight_write(sig_comm, "signal", path, sizeof(path), err, sizeof(err));
		if (rc)
			fprintf(stderr, "hcclctl: flight recorder: %s\n", err);
		else
			fprintf(stderr, "hcclctl: flight recorder: rank %d wrote %s (SIGUSR1)\n",
				comm_rank(sig_comm), path);
	}
	return NULL;
}

void run_flight_arm(struct comm *c)
{
	if (sig_comm || pipe2(sig_pipe, O_CLOEXEC))
		return;
	sig_comm = c;
	if (pthread_create(&sig_thread, NULL, dumper, NULL)) {
		close(sig_pipe[0]);
		close(sig_pipe[1]);
		sig_pipe[0] = sig_pipe[1] = -1;
		sig_comm = NULL;
		return;
	}
	struct sigaction sa = { .sa_handler = on_usr1, .sa_flags = SA_RESTART };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
}

void run_flight_disarm(void)
{
	if (!sig_comm)
		return;
	signal(SIGUSR1, SIG_IGN);
	char b = 0;
	if (write(sig_pipe[1], &b, 1) == 1)
		pthread_join(sig_thread, NULL);
	close(sig_pipe[0]);
	close(sig_pipe[1]);
	sig_pipe[0] = sig_pipe[1] = -1;
	sig_comm = NULL;
}
