/* Lines between two ranks of one host (shmline.h). The sleeping bit shares the word with the
 * sequence number, so the writer's exchange that publishes a line also tells it whether the
 * reader sleeps (a locked instruction: no lost wake-up between the reader's compare-and-swap
 * that raises the bit and the writer's exchange that lowers it), and the reader's futex
 * waits on the very word that changes. */
#include <linux/futex.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "libcomm/shmline.h"

#define SLEEPING 1u

bool comm__line_put(struct comm__lines *l, uint32_t seq, uint32_t ack,
		    const unsigned char fp[COMM__FP_LEN], const void *data, size_t len)
{
	struct comm__line *ln = &l->line[seq & 1];
	ln->ack = ack;
	memcpy(ln->fp, fp, COMM__FP_LEN);
	memcpy(ln->data, data, len);
	uint32_t old = atomic_exchange_explicit(&ln->word, seq << 1, memory_order_acq_rel);
	return (old & SLEEPING) != 0;
}

/* Sequence numbers compare by their distance: they wrap. */
static bool reached(uint32_t have, uint32_t want)
{
	return (int32_t)(have - want) >= 0;
}

bool comm__line_free(struct comm__lines *l, uint32_t prev, uint32_t *acked)
{
	if (!prev || reached(*acked, prev))
		return true;
	uint32_t c = atomic_load_explicit(&l->consumed, memory_order_acquire);
	if (reached(c, *acked))
		*acked = c;
	return reached(*acked, prev);
}

const struct comm__line *comm__line_get(struct comm__lines *l, uint32_t seq)
{
	const struct comm__line *ln = &l->line[seq & 1];
	uint32_t w = atomic_load_explicit(&ln->word, memory_order_acquire);
	return (w >> 1) == (seq & 0x7fffffffu) ? ln : NULL;
}

void comm__line_done(struct comm__lines *l, uint32_t seq)
{
	atomic_store_explicit(&l->consumed, seq, memory_order_release);
}

bool comm__line_arm(struct comm__lines *l, uint32_t seq, _Atomic uint32_t **addr, uint32_t *word)
{
	struct comm__line *ln = &l->line[seq & 1];
	uint32_t w = atomic_load_explicit(&ln->word, memory_order_acquire);
	while ((w >> 1) != (seq & 0x7fffffffu)) {
		if ((w & SLEEPING) || atomic_compare_exchange_weak_explicit(
					      &ln->word, &w, w | SLEEPING, memory_order_acq_rel,
					      memory_order_acquire)) {
			*addr = &ln->word;
			*word = w | SLEEPING;
			return true;
		}
	}
	return false;
}

void comm__line_wake(struct comm__lines *l, uint32_t seq)
{
	/* a wake nobody waits for any more (the sleeper timed out) is harmless */
	(void)syscall(SYS_futex, (uint32_t *)&l->line[seq & 1].word, FUTEX_WAKE, 1, NULL, NULL, 0);
}
