/* The rendezvous's monitor of a running job (monitor.c): the status channels of all ranks,
 * their heartbeats, and the one verdict on the first fault. Driven by the rendezvous thread. */
#ifndef LIBCOMM_MONITOR_H
#define LIBCOMM_MONITOR_H

#include <poll.h>
#include <stdint.h>

struct comm__mon;
struct comm_verdict;

/* NULL when out of memory. Caller frees with comm__mon_free, which says goodbye to the
 * ranks still connected and closes their connections. */
struct comm__mon *comm__mon_new(int nranks);
void comm__mon_free(struct comm__mon *m);
/* Hands rank's status connection (fd) to the monitor, which owns it from then on. */
void comm__mon_add(struct comm__mon *m, int rank, int fd, const char *host);
/* Fills pf[0..nranks-1] (fd -1 for closed ranks); returns nranks. */
int comm__mon_pollfds(struct comm__mon *m, struct pollfd *pf);
/* After poll: reads what arrived, pings, and decides the verdict once. */
void comm__mon_step(struct comm__mon *m, const struct pollfd *pf, int64_t now);
int comm__mon_verdict(const struct comm__mon *m, struct comm_verdict *v);
int comm__mon_tick_ms(const struct comm__mon *m);

#endif
