/* Lines: one cache line per message, for the smallest collectives between the ranks of one
 * host (flat.c). A shared-memory link's segment (shm.c) holds, per direction, two lines
 * (collectives alternate between them by their sequence number's parity) and the reader's
 * count of what it has consumed. A line is written whole, then published by one exchange of
 * its word, which holds the collective's sequence number and a bit that says the reader
 * sleeps on the word (futex); so a message costs the reader one cache line and no system
 * call while both sides are awake, against the ring's header, payload, head and tail. */
#ifndef LIBCOMM_SHMLINE_H
#define LIBCOMM_SHMLINE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "libcomm/shmring.h"
#include "libcomm/wire.h"

#define COMM__LINE_DATA 32 /* payload bytes of a line: an 8-element fp32 vector */

struct comm__line {
	_Alignas(COMM__LINE) _Atomic uint32_t word; /* seq << 1 | sleeping */
	uint32_t ack; /* the writer had consumed the reader's lines up to this sequence */
	unsigned char fp[COMM__FP_LEN]; /* the writer's fingerprint of the collective, encoded */
	unsigned char data[COMM__LINE_DATA];
};
_Static_assert(sizeof(struct comm__line) == COMM__LINE, "a line is one cache line");

/* One direction: its two lines and, on a line of its own, what the reader consumed. */
struct comm__lines {
	struct comm__line line[2];
	_Alignas(COMM__LINE) _Atomic uint32_t consumed;
};

/* Writes line seq&1 with the fingerprint fp, len bytes of data and ack, and publishes it;
 * true when the reader sleeps on the word and must be woken (comm__line_wake). The caller
 * made sure the reader consumed what the line held before (comm__line_free). */
bool comm__line_put(struct comm__lines *l, uint32_t seq, uint32_t ack,
		    const unsigned char fp[COMM__FP_LEN], const void *data, size_t len);
/* Whether a line may be written again: the reader consumed prev, the collective it held
 * (0: none yet), by what it said last in its own line (*acked, updated) or by its count.
 * Not seq-2: collectives that went another way may lie between. */
bool comm__line_free(struct comm__lines *l, uint32_t prev, uint32_t *acked);
/* The line of seq if it is published, else NULL; after reading it, comm__line_done. */
const struct comm__line *comm__line_get(struct comm__lines *l, uint32_t seq);
void comm__line_done(struct comm__lines *l, uint32_t seq);
/* Before sleeping on the line of seq: raises its sleeping bit unless seq came meanwhile (then
 * false); *word: the value to sleep on (futex_waitv). */
bool comm__line_arm(struct comm__lines *l, uint32_t seq, _Atomic uint32_t **addr, uint32_t *word);
void comm__line_wake(struct comm__lines *l, uint32_t seq);

#endif
