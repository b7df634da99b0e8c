/* The flight recorder: the last COMM_FLIGHT_RECORDS operations of a communicator, always
 * kept (a fixed ring, no allocation after init), and their dump as JSON (schema
 * "hcclctl-flight/1", read back by `hcclctl analyze`). The operation's thread writes a record
 * when an operation begins and ends; a dump may come from any thread (a SIGUSR1 handler's
 * helper), so the ring is guarded by a mutex, and the record in progress is completed from
 * the live state the heartbeat reads too. */
#include <errno.h>
#include <stdatomic.h>
#include <time.h>
#include <unistd.h>

#include "libcomm/internal.h"
#include "ranktable/base/io.h"

struct comm__frec {
	uint32_t seq;
	int8_t coll, dtype, op, algo; /* -1: none */
	int8_t state;                 /* 0 done, 1 running, 2 failed */
	int32_t root, step, peer;
	uint64_t count, bytes, sent, recvd;
	int64_t start_us, end_us;
};

struct comm__flight {
	pthread_mutex_t mu;
	uint64_t n; /* records written so far; the ring holds the last COMM_FLIGHT_RECORDS */
	struct comm__frec rec[COMM_FLIGHT_RECORDS];
};

static int64_t real_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

int comm__flight_init(struct comm *c)
{
	c->flight = calloc(1, sizeof(*c->flight));
	if (!c->flight)
		return -1;
	pthread_mutex_init(&c->flight->mu, NULL);
	return 0;
}

void comm__flight_release(struct comm *c)
{
	if (!c->flight)
		return;
	pthread_mutex_destroy(&c->flight->mu);
	free(c->flight);
	c->flight = NULL;
}

void comm__flight_begin(struct comm *c, const struct comm__fp *fp, size_t bytes, bool has_op,
			bool has_dtype)
{
	struct comm__flight *f = c->flight;
	pthread_mutex_lock(&f->mu);
	struct comm__frec *r = &f->rec[f->n % COMM_FLIGHT_RECORDS];
	*r = (struct comm__frec){ .seq = fp->seq, .coll = (int8_t)fp->coll,
				  .dtype = has_dtype ? (int8_t)fp->dtype : -1,
				  .op = has_op ? (int8_t)fp->op : -1, .algo = (int8_t)fp->algo,
				  .state = 1, .root = fp->root, .step = -1, .peer = -1,
				  .count = fp->count, .bytes = bytes, .start_us = real_us(),
				  .end_us = -1 };
	if (fp->coll == COMM_COLL_SEND || fp->coll == COMM_COLL_RECV)
		r->algo = -1;
	f->n++;
	pthread_mutex_unlock(&f->mu);
}

void comm__flight_end(struct comm *c, int rc)
{
	struct comm__flight *f = c->flight;
	pthread_mutex_lock(&f->mu);
	if (f->n) {
		struct comm__frec *r = &f->rec[(f->n - 1) % COMM_FLIGHT_RECORDS];
		if (r->state == 1) {
			r->state = rc ? 2 : 0;
			r->end_us = real_us();
			r->step = c->cur_step;
			r->peer = atomic_load_explicit(&c->live.peer, memory_order_relaxed);
			r->sent = c->op_sent;
			r->recvd = c->op_recvd;
		}
	}
	pthread_mutex_unlock(&f->mu);
}

static const char *name_or_empty(const char *(*fn)(int), int v)
{
	return v < 0 ? "" : fn(v);
}
static const char *dt_name(int v) { return comm_dtype_name((enum comm_dtype)v); }
static const char *op_name(int v) { return comm_op_name((enum comm_op)v); }
static const char *algo_name(int v) { return comm_algo_name((enum comm_algo)v); }

int comm_flight_dump(struct comm *c, int fd, const char *reason)
{
	if (!c || !c->flight || fd < 0 || !reason)
		return COMM_E_INVAL;
	struct comm__flight *f = c->flight;
	struct comm__frec *snap = malloc(sizeof(f->rec));
	struct buf b;
	buf_init(&b, 1 << 16, 64u << 20);
	if (!snap || b.err) {
		free(snap);
		buf_release(&b);
		return COMM_E_NOMEM;
	}
	pthread_mutex_lock(&f->mu);
	uint64_t n = f->n;
	size_t k = n < COMM_FLIGHT_RECORDS ? (size_t)n : COMM_FLIGHT_RECORDS;
	for (size_t i = 0; i < k; i++) /* oldest first */
		snap[i] = f->rec[(n - k + i) % COMM_FLIGHT_RECORDS];
	pthread_mutex_unlock(&f->mu);
	if (k && snap[k - 1].state == 1) { /* in progress: where it stands now */
		struct comm__frec *r = &snap[k - 1];
		r->step = atomic_load_explicit(&c->live.step, memory_order_relaxed);
		r->peer = atomic_load_explicit(&c->live.peer, memory_order_relaxed);
		r->sent = atomic_load_explicit(&c->live.sent, memory_order_relaxed);
		r->recvd = atomic_load_explicit(&c->live.recvd, memory_order_relaxed);
	}
	buf_printf(
		&b,
		"{\"schema\": \"hcclctl-flight/1\", \"rank\": %d, \"world_size\": %d, \"host\": ",
		c->rank, c->nranks);
	comm__buf_str(&b, c->host);
	buf_printf(&b, ", \"comm_id\": \"%016llx\", \"reason\": ", (unsigned long long)c->id);
	comm__buf_str(&b, reason);
	buf_printf(&b, ", \"error\": ");
	if (c->broken)
		comm__buf_str(&b, c->root_msg);
	else
		buf_printf(&b, "null");
	buf_printf(&b, ", \"dumped_at_us\": %lld,\n \"records\": [", (long long)real_us());
	for (size_t i = 0; i < k; i++) {
		const struct comm__frec *r = &snap[i];
		const char *st = r->state == 0 ? "done" : r->state == 1 ? "running" : "failed";
		buf_printf(
			&b,
			"%s\n  {\"seq\": %u, \"coll\": \"%s\", \"count\": %llu, \"dtype\": \"%s\", "
			"\"op\": \"%s\", \"root\": %d, \"algo\": \"%s\", \"bytes\": %llu, "
			"\"state\": \"%s\", \"step\": %d, \"peer\": %d, \"sent\": %llu, "
			"\"received\": %llu, \"start_us\": %lld, \"end_us\": ",
			i ? "," : "", r->seq, comm__op_display(r->coll),
			(unsigned long long)r->count, name_or_empty(dt_name, r->dtype),
			name_or_empty(op_name, r->op), r->root, name_or_empty(algo_name, r->algo),
			(unsigned long long)r->bytes, st, r->step < -1 ? -1 : r->step, r->peer,
			(unsigned long long)r->sent, (unsigned long long)r->recvd,
			(long long)r->start_us);
		if (r->end_us < 0)
			buf_printf(&b, "null");
		else
			buf_printf(&b, "%lld", (long long)r->end_us);
		buf_printf(&b, ", \"error\": ");
		if (r->state == 2)
			comm__buf_str(&b, c->root_msg);
		else
			buf_printf(&b, "null");
		buf_printf(&b, "}");
	}
	buf_printf(&b, "\n ]}\n");
	int rc = b.err ? COMM_E_NOMEM : fd_write_all(fd, b.p, b.len) ? COMM_E_SYS : 0;
	free(snap);
	buf_release(&b);
	return rc;
}

void comm_id_string(const struct comm *c, char out[17])
{
	snprintf(out, 17, "%016llx", c ? (unsigned long long)c->id : 0ULL);
}
