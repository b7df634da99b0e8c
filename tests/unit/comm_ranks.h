/* Test harness for libcomm: N ranks as threads of this process over 127.0.0.1, each with its
 * own communicator, meeting at a rendezvous hosted here. Included by the libcomm unit tests. */
#ifndef TESTS_COMM_RANKS_H
#define TESTS_COMM_RANKS_H

#include <pthread.h>
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

#endif
