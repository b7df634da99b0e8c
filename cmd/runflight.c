/* The flight recorder's files: a rank writes libcomm's record of its last collectives to
 * DIR/hcclctl-flight-<job>-r<rank>.json when it fails, and on SIGUSR1 while it runs (for a
 * job that looks stuck to an operator before any deadline). DIR is --flight-dir, else
 * $HCCLCTL_FLIGHT_DIR, else /tmp. Files are written whole (temp name, then rename), so
 * `hcclctl analyze` never reads half a dump from a rank that is still writing. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "run.h"

const char *run_flight_dir;

static const char *dir(void)
{
	const char *e = getenv("HCCLCTL_FLIGHT_DIR");
	return run_flight_dir ? run_flight_dir : e && *e ? e : "/tmp";
}

int run_flight_write(struct comm *c, const char *reason, char *path, size_t len)
{
	char id[17], tmp[4200];
	comm_id_string(c, id);
	int k = snprintf(path, len, "%s/hcclctl-flight-%s-r%d.json", dir(), id, comm_rank(c));
	if (k < 0 || (size_t)k >= len)
		return -ENAMETOOLONG;
	snprintf(tmp, sizeof(tmp), "%s.%d.tmp", path, (int)getpid());
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	int rc = comm_flight_dump(c, fd, reason);
	if (fsync(fd) && !rc)
		rc = COMM_E_SYS;
	close(fd);
	if (rc || rename(tmp, path)) {
		int e = rc ? -EIO : -errno;
		unlink(tmp);
		return e;
	}
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
		char path[4096];
		int rc = run_flight_write(sig_comm, "signal", path, sizeof(path));
		if (rc)
			fprintf(stderr, "hcclctl: flight recorder: cannot write %s: %s\n", path,
				strerror(rc < 0 ? -rc : EIO));
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
