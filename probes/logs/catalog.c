/* Matching the catalog's rows (catalog.h). */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probes/npu/hcclcodes.h"
#include "probes/logs/catalog.h"
#include "probes/logs/kb.h"
#include "probes/logs/logline.h"
#include "probes/logs/logtext.h"
#include "ranktable/base/acm.h"

/* The verbs events first: an event's own name says more than NCCL's "async fatal event". */
static const struct hlog_sigtab *const tabs[] = {&hlog__cat_verbs, &hlog__cat_nccl,
						  &hlog__cat_torch, &hlog__cat_host, &hlog__cat_acl,
						  &hlog__cat_npufault};
#define NTAB (sizeof(tabs) / sizeof(tabs[0]))

const struct hlog_sig *hlog__sig_at(size_t i)
{
	for (size_t t = 0; t < NTAB; i -= tabs[t]->n, t++)
		if (i < tabs[t]->n)
			return &tabs[t]->row[i];
	return NULL;
}

const struct hlog_sig *hlog__sig_find(const char *detail)
{
	const struct hlog_sig *s;
	for (size_t i = 0; detail && (s = hlog__sig_at(i)); i++)
		if (!strcmp(s->detail, detail))
			return s;
	for (long long i = 0; detail && (s = hlog__ib_status(i)); i++)
		if (!strcmp(s->detail, detail))
			return s;
	for (long long i = 0; detail && hlog__ib_event_name(i); i++)
		if ((s = hlog__ib_event(i)) && !strcmp(s->detail, detail))
			return s;
	return NULL;
}

const char *const hlog__hitword[HLOG_NHITWORD] = {[HLOG_HIT_IP_KEY] = "_ip\"",
						   [HLOG_HIT_PID_PAREN] = "(PID:",
						   [HLOG_HIT_PID_BRACKET] = "[PID:",
						   [HLOG_HIT_FILE] = "][FILE:",
						   [HLOG_HIT_TRACEBACK] =
							   "Traceback (most recent call last)",
						   [HLOG_HIT_KERNEL] = "kernel:",
						   [HLOG_HIT_REASONS] = "following reasons",
						   [HLOG_HIT_CAUSES] = "possible causes are as follows",
						   [HLOG_HIT_CAUSES_ARE] = "The possible causes are",
						   [HLOG_HIT_FRAME] = "File \"",
						   /* "version", "Version" */
						   [HLOG_HIT_VERSION] = "ersion",
						   [HLOG_HIT_PLUGIN] = "Plugin",
						   [HLOG_HIT_NETWORK] = "Using network ",
						   [HLOG_HIT_ROSTER_GLOBAL] = "GLOBAL_RANK:",
						   /* "rank ", "Rank " */
						   [HLOG_HIT_ROSTER_RANK] = "ank ",
						   [HLOG_HIT_ROSTER_PROCESS] = "rocess ",
						   /* "errno", "Errno" */
						   [HLOG_HIT_ERRNO] = "rrno",
						   [HLOG_HIT_ROSTER_BARRIER] =
							   "Waiting in store based barrier",
						   [HLOG_HIT_MYRANK] = "myrank ",
						   [HLOG_HIT_REPORTED_BY] =
							   "reported by process [",
						   [HLOG_HIT_TREES] = "Trees [",
						   [HLOG_HIT_OPCOUNT] = ": opCount ",
						   [HLOG_HIT_COL_WRONG] = "wrong",
						   [HLOG_HIT_COL_ERROR] = "error"};

/* The line automaton: every needle of the catalog's rows, of the inner errors and the hit
 * words, and the gates' words, in one automaton that folds case (the gates' words match in
 * any case); a needle matched as written is checked against the line's own bytes where the
 * automaton reports it. Needle i of the automaton is needles[i]. */
enum needle_kind { N_ROW, N_INNER, N_WORD, N_GATE };

struct needle {
	const char *s;
	size_t n;
	int exact; /* matched as written */
	int kind;  /* enum needle_kind */
	unsigned arg; /* N_ROW: bit 3 * row + k; N_INNER: row; N_WORD: word; N_GATE: gate */
};

static struct acm *line_acm;
static struct needle *needles;
static size_t nneedle;
static pthread_once_t acm_once = PTHREAD_ONCE_INIT;

/* Adds a needle; 0 when it cannot be: an empty one is found everywhere (as memmem finds
 * it), and row bits past HLOG_HITS_MAX do not exist, so both are left to the search. */
static int add_needle(struct acm *a, const char *s, size_t n, int exact, int kind, unsigned arg)
{
	if (kind == N_ROW && arg >= HLOG_HITS_MAX)
		return 0;
	if (!n)
		return kind == N_GATE; /* an empty gate word is none */
	needles[nneedle] = (struct needle){s, n, exact, kind, arg};
	acm_add(a, s, n, (int)nneedle++);
	return 1;
}

/* The gates whose words are a list of their own (gatewords.c), in the order the build's image
 * adds them; the error words' gate comes from errwords.c's rows. */
static const struct {
	const char *const *words;
	unsigned gate;
} gate_lists[] = {
	{hlog__recog_words, HLOG_GATE_RECOG},
	{hlog__devkey_words, HLOG_GATE_DEVKEY},
	{hlog__outcome_stems, HLOG_GATE_OUTCOME},
	{hlog__context_words, HLOG_GATE_CONTEXT},
	{hlog__watchdog_words, HLOG_GATE_WATCHDOG | HLOG_GATE_RECOG},
	{hlog__pipe_words, HLOG_GATE_PIPE},
};

/* The needles' count, over-estimated: what to allocate. */
static size_t count_needles(void)
{
	size_t n = HLOG_NHITWORD, i = 0;
	struct pspan w;
	while (hlog__sig_at(i))
		i++;
	n += 3 * i;
	for (i = 0; hinner_at(i); i++)
		n++;
	for (size_t g = 0; g < sizeof(gate_lists) / sizeof(gate_lists[0]); g++)
		for (i = 0; gate_lists[g].words[i]; i++)
			n++;
	for (i = 0; hlog__error_gate_word(i, &w); i++)
		n++;
	return n;
}

/* Every needle into a (and needles[]), in the order the build's image was made with; 0, or
 * what acm_build returned (-ESTALE: the image is not of these needles). */
static int add_all(struct acm *a)
{
	const struct hlog_sig *sig;
	const struct hinner *in;
	struct pspan w;
	int whole = 1;
	nneedle = 0;
	for (size_t i = 0; whole && (sig = hlog__sig_at(i)); i++)
		for (size_t k = 0; k < 3 && sig->needle[k]; k++)
			whole &= add_needle(a, sig->needle[k], strlen(sig->needle[k]), 1, N_ROW,
					    (unsigned)(3 * i + k));
	for (size_t i = 0; whole && (in = hinner_at(i)); i++)
		whole &= add_needle(a, in->needle, strlen(in->needle), 1, N_INNER, (unsigned)i);
	for (size_t k = 0; whole && k < HLOG_NHITWORD; k++)
		whole &= add_needle(a, hlog__hitword[k], strlen(hlog__hitword[k]), 1, N_WORD,
				    (unsigned)k);
	for (size_t g = 0; g < sizeof(gate_lists) / sizeof(gate_lists[0]); g++)
		for (const char *const *p = gate_lists[g].words; whole && *p; p++)
			whole &= add_needle(a, *p, strlen(*p), 0, N_GATE, gate_lists[g].gate);
	for (size_t i = 0; whole && hlog__error_gate_word(i, &w); i++)
		whole &= add_needle(a, w.s, w.n, 0, N_GATE, HLOG_GATE_ERRWORD);
	return whole ? acm_build(a) : -ENOMEM;
}

/* The line automaton as the build made it (build/gen/acm_line.bin, linked into hcclctl);
 * absent (NULL) in the programs linked without it, which build it at start. */
extern const unsigned char hlog_line_acm_image[] __attribute__((weak));
extern const unsigned char hlog_line_acm_image_end[] __attribute__((weak));

static void build_acm(void)
{
	struct acm *a = NULL;
	if (!(needles = malloc(count_needles() * sizeof(*needles))))
		return;
	if (hlog_line_acm_image && hlog_line_acm_image_end)
		a = acm_open_image(hlog_line_acm_image,
				   (size_t)(hlog_line_acm_image_end - hlog_line_acm_image));
	if (a && add_all(a)) {
		acm_free(a);
		a = NULL;
	}
	if (!a && (a = acm_new(ACM_NOCASE)) && add_all(a)) {
		acm_free(a);
		a = NULL;
	}
	line_acm = a;
}

const struct acm *hlog__line_acm(void)
{
	pthread_once(&acm_once, build_acm);
	return line_acm;
}

static int note(void *ctx, int id, size_t end)
{
	struct hlog_hits *h = ctx;
	const struct needle *nd = &needles[id];
	if (nd->exact && memcmp(h->s + end - nd->n, nd->s, nd->n))
		return 0;
	switch (nd->kind) {
	case N_ROW:
		h->row[nd->arg / 8] |= (unsigned char)(1u << (nd->arg % 8));
		h->nrow++;
		break;
	case N_INNER:
		if (h->inner < 0 || (int)nd->arg < h->inner)
			h->inner = (int)nd->arg;
		break;
	case N_WORD:
		h->words |= 1u << nd->arg;
		break;
	default:
		h->gate |= nd->arg;
	}
	return 0;
}

void hlog__line_hits(struct pspan m, struct hlog_hits *h)
{
	hlog__line_hits_kb(m, h, NULL, NULL);
}

void hlog__line_hits_kb(struct pspan m, struct hlog_hits *h, const struct kb *kb,
			struct kb_found *found)
{
	pthread_once(&acm_once, build_acm);
	h->s = m.s;
	h->n = m.n;
	h->inner = -1;
	h->all = !line_acm;
	h->words = h->gate = h->nrow = 0;
	memset(h->row, 0, sizeof(h->row));
	if (kb)
		kb_found_init(found, kb);
	if (!m.s)
		return;
	if (line_acm)
		acm_scan2(line_acm, note, h, kb ? kb_automaton(kb) : NULL, kb_take, found, m.s,
			  m.n);
	else if (kb)
		acm_scan(kb_automaton(kb), m.s, m.n, kb_take, found);
}

int hlog__hits_may(const struct hlog_hits *h, int w)
{
	return !h || h->all || (h->words >> w & 1);
}

int hlog__hits_gate(const struct hlog_hits *h, unsigned g)
{
	return !h || h->all || (h->gate & g);
}

int hlog__hits_any(const struct hlog_hits *h)
{
	return !h || h->all || h->nrow || h->inner >= 0 || (h->words >> HLOG_HIT_IP_KEY & 1) ||
	       (h->words >> HLOG_HIT_ERRNO & 1) ||
	       (h->gate & (HLOG_GATE_RECOG | HLOG_GATE_PIPE));
}

const struct hinner *hlog__hits_inner(const struct hlog_hits *h)
{
	if (h->all)
		return hinner_match(h->s, h->n);
	return h->inner >= 0 ? hinner_at((size_t)h->inner) : NULL;
}

/* errrow: the detail of the errno row the line's errno number names, or NULL */
static int matches(struct pspan m, size_t i, const struct hlog_sig *s,
		   const struct hlog_hits *h, const char *errrow)
{
	if (errrow && !strcmp(s->detail, errrow))
		return 1;
	for (size_t k = 0; k < 3 && s->needle[k]; k++)
		if (h && !h->all ? !(h->row[(3 * i + k) / 8] >> ((3 * i + k) % 8) & 1)
				 : !hlog__has(m, s->needle[k]))
			return 0;
	return s->needle[0] != NULL;
}

/* The values of the line as the event's own and its peer's. */
static void fill(const struct hx_vals *x, struct hlog_event *e)
{
	const struct hx_val *v;
	if (!e->ip[0] && (v = hlog__xfind(x, HX_IP, HX_THIS)))
		snprintf(e->ip, sizeof(e->ip), "%s", v->s);
	if (!e->peer_ip[0] && ((v = hlog__xfind(x, HX_IP, HX_OTHER)) ||
			       (v = hlog__xfind(x, HX_HOST, HX_OTHER))))
		snprintf(e->peer_ip, sizeof(e->peer_ip), "%s", v->s);
	if (e->peer_port < 0 && (v = hlog__xfind_peer(x, HX_PORT)) && v->n >= 0 && v->n <= 65535)
		e->peer_port = (int)v->n;
	if (e->rank < 0 && (v = hlog__xfind(x, HX_RANK, HX_THIS)))
		e->rank = (int)v->n;
	if (e->peer_rank < 0 && (v = hlog__xfind(x, HX_RANK, HX_OTHER)))
		e->peer_rank = (int)v->n;
	if (e->dev == -1 && (v = hlog__xfind(x, HX_DEV, HX_THIS)))
		e->dev = (int)v->n;
	if (e->peer_dev < 0 && (v = hlog__xfind(x, HX_DEV, HX_OTHER)))
		e->peer_dev = (int)v->n;
	if (!e->group[0] && hlog__xgroup(x)[0])
		snprintf(e->group, sizeof(e->group), "%s", hlog__xgroup(x));
}

const struct hlog_sig *hlog__sig_match(struct pspan m, const struct hx_vals *x,
				       struct hlog_event *e, const struct hlog_hits *h)
{
	const struct hlog_sig *s;
	int errnum = hlog__hits_may(h, HLOG_HIT_ERRNO) ? hlog__errno_of(m) : -1;
	const char *errrow = NULL;
	for (size_t i = 0; errnum > 0 && i < hlog__n_errno_rows; i++)
		if (hlog__errno_rows[i].errnum == errnum)
			errrow = hlog__errno_rows[i].detail;
	/* every row needs its needles or its errno, and the automaton found neither */
	if (h && !h->all && !h->nrow && !errrow)
		return NULL;
	for (size_t i = 0; (s = hlog__sig_at(i)); i++) {
		if (!matches(m, i, s, h, errrow))
			continue;
		e->kind = HLOG_INNER;
		e->cat = s->cat;
		snprintf(e->detail, sizeof(e->detail), "%s", s->detail);
		if (s->refine && !s->refine(m, x, e)) {
			e->kind = HLOG_NONE;
			e->cat = HCAT_NONE;
			e->detail[0] = '\0';
			continue;
		}
		if (s->result)
			e->result = s->result;
		fill(x, e);
		return s;
	}
	return NULL;
}
