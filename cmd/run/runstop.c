/* Ending a sweep early, together. A rank that is interrupted (SIGINT, Ctrl-C) or whose stdout
 * was closed (`run ... | head`) cannot just leave: its peers would see a dead rank, name it
 * the culprit and write flight dumps. So it only asks; the reason rides on the allreduce
 * every row ends with (runrank.c), every rank learns it at the same row and all end the
 * sweep there, closing the communicator as after a full run. The cost is one row: the one
 * being measured when the reason came. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cmd/run/run.h"

static volatile sig_atomic_t asked, interrupts;
static int agreed;

static void on_interrupt(int sig)
{
	(void)sig;
	asked |= RUN_STOP_INTERRUPT;
	if (interrupts < 100)
		interrupts++;
}

void run_stop_arm(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_interrupt;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	sigaction(SIGINT, &sa, NULL);
}

int run_stop_asked(void)
{
	return asked;
}

int run_stop_interrupts(void)
{
	return interrupts;
}

void run_stop_agree(int why)
{
	agreed |= why;
}

int run_stop_agreed(void)
{
	return agreed;
}

/* A closed stdout is an EPIPE from this flush, not this rank's death: SIGPIPE is held back
 * only around it (and a pending one taken), not ignored for the whole process, whose
 * libraries (HCCL's own sockets and pipes) may rely on the default */
int run_stop_flush(void)
{
	sigset_t pipe, old;
	sigemptyset(&pipe);
	sigaddset(&pipe, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &pipe, &old);
	int rc = fflush(stdout), e = errno;
	if (rc && e == EPIPE) {
		const struct timespec now = { 0, 0 };
		sigset_t pending;
		sigpending(&pending);
		if (sigismember(&pending, SIGPIPE) && !sigismember(&old, SIGPIPE))
			sigtimedwait(&pipe, NULL, &now);
		asked |= RUN_STOP_OUTPUT;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return rc ? -1 : 0;
}

int run_stop_exit(int code)
{
	/* also a reader that closed the pipe before the end of the --json document */
	run_stop_flush();
	if (asked & RUN_STOP_OUTPUT)
		return EXIT_PIPE;
	if (agreed & RUN_STOP_INTERRUPT)
		return EXIT_INTERRUPT;
	return code;
}
