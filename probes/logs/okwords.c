/* Whether a line states that the whole run succeeded, by its words: a run, job, training or
 * test that completed, finished or passed ("Training completed.", "All tests passed"), a
 * status of success ("status": "success" in MLPerf's run_stop, "Status: SUCCESS"), or
 * something that ended successfully ("Job finished successfully"). Such a line is what a run
 * prints last when it worked; error lines in the same file are then ones the run lived
 * through (a transport it fell back from, a daemon it did without, its teardown). A line that
 * denies it ("did not finish"), makes it a condition ("wait until the job completed", "if
 * training finished") or reads as an error itself states no success. Apart from the error
 * words so that each file keeps one job. */
#include <ctype.h>
#include <stddef.h>
#include <string.h>
#include <strings.h>

#include "probes/npu/hcclcodes.h"
#include "probes/logs/catalog.h"
#include "probes/logs/hccllog.h"
#include "probes/logs/hlogint.h"
#include "probes/logs/logtext.h"

/* What ran: the run as a whole, not a step of it (an epoch, an evaluation, a task of many). */
static const char *const subjects[] = {
	"training", "train", "job", "run", "test", "tests", "benchmark", "benchmarks",
	"experiment", "program", "finetune", "finetuning", "pretraining", "script",
};

/* How it ended, when it worked. */
static const char *const outcomes[] = {
	"completed", "complete", "finished", "done", "succeeded", "passed", "successful",
};

/* Words between the two that keep the statement ("Training has completed", "Test was
 * passed", "all tests have passed"). */
static const char *const links[] = {"is", "has", "was", "have", "been", "are", "were"};

/* Words before it on the line that make it a question, a condition or a denial. */
static const char *const doubts[] = {
	"not", "never", "if", "when", "until", "unless", "whether", "wait", "waiting", "before",
	"once", "didn", "hasn", "wasn", "isn", "haven", "won", "cannot", "no",
};

/* The verbs of "... successfully". */
static const char *const ended[] = {"completed", "finished", "ended", "succeeded", "exited",
				    "ran"};

/* The verbs that may come before the run ("Finished training"), and the words that may
 * follow it there: when, how long, how. */
static const char *const first_verbs[] = {"finished", "completed"};
static const char *const tails[] = {"in", "after", "at", "successfully", "with", "on"};

/* The values of a status that say it worked. */
/* (not "completed": an Ascend rank table's "status": "completed" says the table is whole) */
static const char *const good[] = {"success", "succeeded", "successful", "passed"};

/* The only words that may stand right before the subject: a word of another kind there makes
 * it another thing's run ("The diag job is complete", "GPU Fryer Test Succeeded"). */
static const char *const owners[] = {"the", "all", "this", "your", "our", "my", "whole"};

#define NWORDS 48

struct word {
	const char *s;
	size_t n;
};

static int in(const struct word *w, const char *const *set, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strlen(set[i]) == w->n && !strncasecmp(w->s, set[i], w->n))
			return 1;
	return 0;
}

#define IN(w, set) in(w, set, sizeof(set) / sizeof(set[0]))

/* The words of m (runs of letters), at most NWORDS; their count. */
static size_t words_of(struct pspan m, struct word *w)
{
	size_t n = 0, i = 0;
	while (i < m.n && n < NWORDS) {
		while (i < m.n && !isalpha((unsigned char)m.s[i]))
			i++;
		size_t b = i;
		while (i < m.n && isalpha((unsigned char)m.s[i]))
			i++;
		if (i > b)
			w[n++] = (struct word){m.s + b, i - b};
	}
	return n;
}

/* Whether only a few marks stand between words a and b ("status": "success", status=success). */
static int close_by(const struct word *a, const struct word *b)
{
	const char *p = a->s + a->n;
	if (b->s - p > 4)
		return 0;
	for (; p < b->s; p++)
		if (!strchr(" \t\"':=", *p))
			return 0;
	return 1;
}

/* Whether b follows a with only blanks between, in one sentence. */
static int adjacent(const struct word *a, const struct word *b)
{
	for (const char *p = a->s + a->n; p < b->s; p++)
		if (*p != ' ' && *p != '\t' && *p != '-' && *p != '_')
			return 0;
	return 1;
}

/* Where the statement starts among w[0..n), or -1: the words before it are checked for doubt. */
static long statement_at(const struct word *w, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (i + 1 < n && w[i].n == 6 && !strncasecmp(w[i].s, "status", 6) && IN(&w[i + 1], good) &&
		    close_by(&w[i], &w[i + 1]))
			return (long)i;
		if (i + 1 < n && IN(&w[i], ended) && w[i + 1].n == 12 &&
		    !strncasecmp(w[i + 1].s, "successfully", 12))
			return (long)i;
		/* the verb first, the run after it and nothing of it after that but when or how
		 * long: NeMo's "************** Finished Training ***********", "Completed
		 * training in 421.6 s" (not "Finished training epoch 3") */
		if (i + 1 < n && IN(&w[i], first_verbs) && IN(&w[i + 1], subjects) &&
		    (i + 2 == n || IN(&w[i + 2], tails)))
			return (long)i;
		if (!IN(&w[i], subjects))
			continue;
		if (i && !IN(&w[i - 1], owners) && adjacent(&w[i - 1], &w[i]))
			continue;
		size_t j = i + 1;
		while (j < n && j < i + 3 && IN(&w[j], links))
			j++;
		if (j < n && IN(&w[j], outcomes))
			return (long)i;
	}
	return -1;
}

long hlog__run_ok_hits(struct pspan m, const struct hlog_hits *h)
{
	/* every line of a log passes here: the line automaton's pass refuses those with no
	 * outcome's stem (hlog__outcome_stems) */
	if (!hlog__hits_gate(h, HLOG_GATE_OUTCOME))
		return 0;
	struct word w[NWORDS];
	size_t n = words_of(m, w);
	long at = statement_at(w, n);
	if (at < 0)
		return 0;
	for (long i = 0; i < at; i++)
		if (IN(&w[i], doubts))
			return 0;
	return (long)(w[at].s - m.s) + 1;
}

int hlog__step_ended(struct pspan m)
{
	struct word w[NWORDS];
	size_t n = words_of(m, w);
	for (size_t i = 0; i < n; i++) {
		if (IN(&w[i], doubts))
			return 0;
		/* an outcome, or the time a step took: vLLM's "Initial profiling/warmup run took
		 * 56.94 s" */
		if (IN(&w[i], outcomes) || (w[i].n == 4 && !strncasecmp(w[i].s, "took", 4)))
			return 1;
	}
	return 0;
}

const struct hlog_file *hlog_run_success(const struct hlog_report *r)
{
	for (size_t i = 0; r && i < r->nfile; i++)
		if (r->file[i].ok_line)
			return &r->file[i];
	return NULL;
}

const struct hlog_file *hlog_run_survived(const struct hlog_report *r)
{
	if (!r || r->cat == HCAT_NONE)
		return NULL;
	const struct hlog_file *vouch = NULL;
	for (size_t i = 0; i < r->nfile; i++) {
		const struct hlog_file *f = &r->file[i];
		if (f->errors && !f->ok_line)
			return NULL;
		if (f->ok_line && !vouch)
			vouch = f;
	}
	/* the lines behind the cause, error lines or not, are in files whose run went on to
	 * succeed */
	for (size_t i = 0; i < r->nevidence; i++) {
		const struct hlog_file *f = hlog__file_named(r, r->evidence[i].file);
		if (!f || !f->ok_line)
			return NULL;
		if (!i)
			vouch = f;
	}
	return vouch;
}
