/* The knowledge base's insides, shared by its table loader (kbload.c) and matcher (kb.c). */
#ifndef HCCLCTL_PROBES_LOGS_KBINT_H
#define HCCLCTL_PROBES_LOGS_KBINT_H

#include <regex.h>

#include "probes/logs/kb.h"
#include "probes/logs/rxfixed.h"

#define KB_RXALL 16 /* expressions with no literal part, tried on every line */

struct acm;

struct kb {
	const char *source;
	const char *const *needle;
	const struct kb_group *group;
	const struct kb_entity *ent;
	const struct kb_edge *edge;
	size_t nneedle, ngroup, nent, nedge;
	/* the index (kb__index) */
	int *gent;	      /* group -> entity */
	int *efirst, *edst;   /* edges by source: edst[efirst[e] .. efirst[e+1]) */
	regex_t *rx;
	unsigned char *rxok;
	int rxall[KB_RXALL];
	size_t nrxall;
	/* rxall[i]'s expression as a run of classes, when it is one (rxfix_ok[i]) */
	struct rx_fixed rxfix[KB_RXALL];
	unsigned char rxfix_ok[KB_RXALL];
	struct acm *acm; /* anchors: id g a group, ngroup + e entity e's expression's literal */
	unsigned char *where; /* per entity: KB_IN_* of the logs it is found in */
	size_t *spec;	      /* per entity: kb_specificity */
	/* the automaton built at build time for these tables (acm_open_image), or NULL */
	const unsigned char *image;
	size_t image_len;
	/* what a loaded file owns */
	void *own;
};

int kb__index(struct kb *kb, char *err, size_t errlen);
/* The built-in base's automaton, built here (for the build's image of it: acmgen). */
const struct acm *kb__builtin_acm(void);
void kb__unindex(struct kb *kb);

#endif
