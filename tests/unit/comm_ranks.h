/* Test harness for libcomm: N ranks as threads of this process over 127.0.0.1, each with its
 * own communicator, meeting at a rendezvous hosted here. Included by the libcomm unit tests. */
#ifndef TESTS_COMM_RANKS_H
#define TESTS_COMM_RANKS_H

#include <dirent.h>
#include <pthread.h>
#include <time.h>
#include <stdint.h>
#include <string.h>

#include "libcomm/libcomm.h"

struct rank_arg {
	int rank, nranks;
	struct comm_root_info ri;
	struct comm_config cfg;
	char host[32];
	int rc;      /* comm_init */
	int body_rc; /* what body returned */
	char err[COMM_ERRLEN];
	struct comm *c;
	int (*body)(struct rank_arg *a);
	void *user;
	int keep; /* do not destroy after body */
};

static void *rank_main(void *p)
{
	struct rank_arg *a = p;
	a->rc = comm_init(&a->c, &a->ri, &a->cfg, a->err, sizeof(a->err));
	if (!a->rc && a->body)
		a->body_rc = a->body(a);
	if (a->c && !a->keep) {
		comm_destroy(a->c);
		a->c = NULL;
	}
	return NULL;
}

/* Fills a[n] with defaults for rank i of n on token ri; timeouts in ms. */
static void ranks_setup(struct rank_arg *a, int n, const struct comm_root_info *ri, int conn_ms,
			int exec_ms)
{
	for (int i = 0; i < n; i++) {
		memset(&a[i], 0, sizeof(a[i]));
		a[i].rank = i;
		a[i].nranks = n;
		a[i].ri = *ri;
		snprintf(a[i].host, sizeof(a[i].host), "h%d", i);
		a[i].cfg.rank = i;
		a[i].cfg.nranks = n;
		a[i].cfg.host = a[i].host;
		a[i].cfg.listen_addr = "127.0.0.1";
		a[i].cfg.connect_timeout_ms = conn_ms;
		a[i].cfg.exec_timeout_ms = exec_ms;
	}
}

static void ranks_run(struct rank_arg *a, int n)
{
	pthread_t *th = calloc((size_t)n, sizeof(*th));
	for (int i = 0; i < n; i++)
		pthread_create(&th[i], NULL, rank_main, &a[i]);
	for (int i = 0; i < n; i++)
		pthread_join(th[i], NULL);
	free(th);
}

/* A rendezvous on 127.0.0.1, ephemeral port; token into *ri. */
static struct comm_rendezvous *rdv_start(struct comm_root_info *ri, int n, int timeout_ms)
{
	char err[COMM_ERRLEN];
	struct comm_rendezvous *r = NULL;
	if (comm_root_info_make(ri, "127.0.0.1", 0, NULL, err, sizeof(err)) ||
	    comm_rendezvous_start(&r, ri, n, timeout_ms, err, sizeof(err))) {
		fprintf(stderr, "rendezvous: %s\n", err);
		return NULL;
	}
	return r;
}

/* Entries of a /proc directory (".", ".." included: only differences are compared). */
static inline int count_dir(const char *path)
{
	DIR *d = opendir(path);
	int n = 0;
	while (d && readdir(d))
		n++;
	if (d)
		closedir(d);
	return n;
}

static inline int open_fds(void)
{
	return count_dir("/proc/self/fd");
}

/* The threads of this process, once they have settled at want (want < 0: now).
 * pthread_join returns when the kernel clears the thread's id, which is before the
 * exiting task leaves /proc/self/task, so a joined thread can be listed for a
 * moment: wait up to 2 s. A thread never joined stays listed and fails the test. */
static inline int settled_threads(int want)
{
	int n = count_dir("/proc/self/task");
	for (int i = 0; want >= 0 && i < 200 && n != want; i++) {
		struct timespec ts = { 0, 10 * 1000 * 1000 };
		nanosleep(&ts, NULL);
		n = count_dir("/proc/self/task");
	}
	return n;
}

#endif
