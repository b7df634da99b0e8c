/* See linepipe.h. The lines go in blocks through a ring: the reader thread fills block b
 * while the caller takes block b - 1, so each hands over once per BLOCK lines, not per line
 * (a line is about a microsecond of work; a wake-up costs several). */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include "probes/logs/linepipe.h"

#define BLOCK 64
#define NBLOCK 4

struct pipe {
	struct pspan rest; /* the lines the reader has not reached */
	char *slot;	   /* NBLOCK * BLOCK slots of size bytes */
	size_t size;
	const struct linepipe_ops *ops;
	void *ctx;
	size_t filled[NBLOCK]; /* lines in each block, under the lock */
	size_t made, taken;    /* blocks filled and taken, under the lock */
	int stop;	       /* the caller wants no more, under the lock */
	pthread_mutex_t lock;
	pthread_cond_t cv;
};

static char *slot_at(const struct pipe *p, size_t b, size_t i)
{
	return p->slot + ((b % NBLOCK) * BLOCK + i) * p->size;
}

/* Fills up to BLOCK slots of block b from the lines left: how many. */
static size_t fill_block(struct pipe *p, size_t b)
{
	size_t i = 0;
	struct pspan raw;
	while (i < BLOCK && probe__next_line(&p->rest, &raw)) {
		p->ops->fill(p->ctx, slot_at(p, b, i), raw, p->rest);
		i++;
	}
	return i;
}

static void *reader(void *arg)
{
	struct pipe *p = arg;
	for (size_t b = 0;; b++) {
		pthread_mutex_lock(&p->lock);
		while (!p->stop && b >= p->taken + NBLOCK)
			pthread_cond_wait(&p->cv, &p->lock);
		int stop = p->stop;
		pthread_mutex_unlock(&p->lock);
		size_t n = stop ? 0 : fill_block(p, b);
		pthread_mutex_lock(&p->lock);
		p->filled[b % NBLOCK] = n;
		p->made = b + 1;
		pthread_cond_broadcast(&p->cv);
		pthread_mutex_unlock(&p->lock);
		if (n < BLOCK)
			return NULL;
	}
}

/* The caller's side: takes the blocks in order until the end or an error. */
static int take_all(struct pipe *p)
{
	int rc = 0;
	for (size_t b = 0;; b++) {
		pthread_mutex_lock(&p->lock);
		while (b >= p->made)
			pthread_cond_wait(&p->cv, &p->lock);
		size_t n = p->filled[b % NBLOCK];
		pthread_mutex_unlock(&p->lock);
		for (size_t i = 0; !rc && i < n; i++)
			rc = p->ops->take(p->ctx, slot_at(p, b, i));
		pthread_mutex_lock(&p->lock);
		p->taken = b + 1;
		p->stop |= rc != 0;
		pthread_cond_broadcast(&p->cv);
		pthread_mutex_unlock(&p->lock);
		if (rc || n < BLOCK)
			return rc;
	}
}

/* One line at a time on this thread, through one slot. */
static int run_serial(struct pspan text, const struct linepipe_ops *ops, void *ctx, void *slot)
{
	struct pspan raw;
	int rc = 0;
	while (!rc && probe__next_line(&text, &raw)) {
		ops->fill(ctx, slot, raw, text);
		rc = ops->take(ctx, slot);
	}
	return rc;
}

int linepipe_threads(int want)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	n = n < 1 ? 1 : n > LINEPIPE_MAX_THREADS ? LINEPIPE_MAX_THREADS : n;
	return want > 0 && want < n ? want : (int)n;
}

int linepipe_run(struct pspan text, const struct linepipe_ops *ops, void *ctx, int threads)
{
	int two = threads >= 2 && text.n >= LINEPIPE_MIN_BYTES;
	struct pipe p = {.rest = text, .size = ops->slot_size, .ops = ops, .ctx = ctx};
	p.slot = malloc(ops->slot_size * (two ? NBLOCK * BLOCK : 1));
	if (!p.slot)
		return -ENOMEM;
	pthread_t th;
	pthread_mutex_init(&p.lock, NULL);
	pthread_cond_init(&p.cv, NULL);
	int rc;
	if (!two || pthread_create(&th, NULL, reader, &p)) {
		rc = run_serial(text, ops, ctx, p.slot);
	} else {
		rc = take_all(&p);
		pthread_join(th, NULL);
	}
	pthread_cond_destroy(&p.cv);
	pthread_mutex_destroy(&p.lock);
	free(p.slot);
	return rc;
}
