/* The flight-recorder merge's pieces as they see each other (internal to probes/flight):
 * flight_merge.c holds the job's state and calls flight_p2p.c and flight_verdict.c, which
 * call only flight_words.c. */
#ifndef HCCLCTL_PROBES_FLIGHT_INT_H
#define HCCLCTL_PROBES_FLIGHT_INT_H

#include <stddef.h>
#include <stdint.h>

#include "probes/flight/flight.h"
#include "ranktable/base/buf.h"

#define SB_MAX 16384 /* a message longer than this ends in "..." */

/* A message: text past SB_MAX ends in "..." rather than failing it; running out of memory
 * loses it (sb_take gives NULL). */
struct sbuf {
	struct buf b;
	int cut;
};
#define SBUF_INIT                                                                                  \
	{                                                                                          \
		BUF_INIT(SB_MAX - 1), 0                                                            \
	}

/* The fingerprint fields (field_text's f). */
enum { F_COLL, F_COUNT, F_DTYPE, F_OP, F_ROOT, F_ALGO, F_N };

/* A collective record of a rank, and a send or recv, as the merge indexes them. */
struct ent {
	int64_t seq, rank;
	const struct flight_record *r;
};

struct pent {
	int64_t from, to, seq;
	int recv; /* 0: the sender's record, 1: the receiver's */
	const struct flight_record *r;
};

struct state {
	struct flight_analysis *a;
	const struct flight_dump **by_rank; /* world_size entries, NULL: no dump */
	int64_t *last;			    /* per rank: newest collective seq, -1 when none */
	struct ent *ent;		    /* every collective record, by (seq, rank) */
	size_t nent;
	struct pent *p2p; /* every send and recv, by (from, to, seq, kind) */
	size_t np2p;
};

/* flight_words.c */
__attribute__((format(printf, 2, 3))) void flight__sb_add(struct sbuf *b, const char *fmt, ...);
/* The message (the caller frees it), or NULL when it was lost to memory. */
char *flight__sb_take(struct sbuf *b);
int flight__ranks_add(struct flight_ranks *r, int64_t v);
void flight__ranks_release(struct flight_ranks *r);
void flight__sb_who(struct sbuf *b, const struct flight_ranks *r);
void flight__sb_ahead(struct sbuf *b, const struct flight_ranks *ahead, int waiting);
void flight__sb_label(struct sbuf *b, const struct flight_record *r);
void flight__sb_coll_seq(struct sbuf *b, int coll, int64_t seq);
void flight__sb_open(struct sbuf *b, const struct flight_record *r);
void flight__sb_host(struct sbuf *b, const struct state *st, int64_t rank);
void flight__field_text(const struct flight_record *r, int f, char *buf, size_t len);
int64_t flight__rec_size(const struct flight_record *r);
const struct flight_record *flight__find_seq(const struct state *st, int64_t seq, int64_t rank);

/* flight_p2p.c */
int flight__cmp_pent(const void *x, const void *y);
int flight__p2p(struct state *st, int only_mismatch);

/* flight_verdict.c: each writes the verdict into st->a; 0, or -ENOMEM. */
int flight__dead_rank(struct state *st);
int flight__stall(struct state *st);
int flight__progress_verdict(struct state *st);
int flight__ok_verdict(struct state *st);

#endif
