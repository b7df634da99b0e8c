/* The lines no rule explains, kept for the report (hlogkeep.h). */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "probes/logs/catalog.h"
#include "probes/logs/hlogkeep.h"
#include "probes/logs/logline.h"
#include "probes/logs/logtext.h"
#include "probes/logs/wordfam.h"

void hlog__set_unk(struct hlog_unk *u, const char *name, const char *node, unsigned no,
		    int rank, struct pspan line)
{
	snprintf(u->file, sizeof(u->file), "%s", name);
	snprintf(u->node, sizeof(u->node), "%s", node ? node : "");
	u->line = no;
	u->rank = rank;
	probe__copy(u->text, sizeof(u->text), line);
	u->below_ip[0] = '\0';
	u->below_port = -1;
	u->below_rank = -1;
	u->dev = -1;
}

/* Line no of file name, of family fam at level, becomes the report's line whose words explain
 * its errors when its family explains more than the one so far; dev: the device its context
 * names (hlog_unk), -1. */
void hlog__offer_word(struct hlog_report *r, const char *name, const char *node, unsigned no,
		       int rank, struct pspan line, int fam, int level, int dev)
{
	if (!hlog__word_better(fam, level, r))
		return;
	hlog__set_unk(&r->word_unk, name, node, no, rank, line);
	r->word_unk.dev = dev;
	r->word_row = fam;
	r->word_level = level;
}

/* An error no rule explains, kept and offered for its words. A kernel's line that waited
 * (a device's ring or its firmware's heartbeat that timed out, a task blocked) tells of the
 * device or the node, not of a rank waiting for another: no family of waiting for it. */
void hlog__keep_unk(struct hlog_report *r, const char *name, const char *node, unsigned no,
		     int rank, int level, struct pspan line, int kernel, int dev)
{
	int fam = hlog__word_family(line);
	if (kernel && fam >= 0 && hlog__word_family_cat(fam) == HCAT_RANK_STUCK)
		fam = -1;
	if (r->nunk < HLOG_MAX_UNK) {
		hlog__set_unk(&r->unk[r->nunk], name, node, no, rank, line);
		r->unk[r->nunk].dev = dev;
	}
	hlog__offer_word(r, name, node, no, rank, line, fam, level, dev);
	r->nunk++;
}

/* A line whose words read as no error that the lines around it show to be one: counted as an
 * error no rule explains. */
void hlog__promote(struct hlog_report *r, const char *name, const char *node,
		    const struct unk_line *t)
{
	if (!r->errors)
		hlog__set_unk(&r->first_error, name, node, t->no, t->rank, t->line);
	r->errors++;
	r->file[r->nfile - 1].errors++;
	hlog__keep_unk(r, name, node, t->no, t->rank, HLINE_NONE, t->line, 0, -1);
}

/* A retry announced is no failure while the log goes on ("Call to connect returned
 * Connection refused, retrying", then the connection's later lines), nor is a failure a
 * process logs at an informational level (a probe for something optional, a try it will
 * repeat). But a log whose last line is one of them stopped there: the retried call never
 * came back, and what failed is the error (a pod whose output ends in refused connects, each
 * "retrying"; "LoadServer gpu9 Failed at 3 times ... DNS resolution failed" at glog's I). So
 * did a log whose last line says, in the hang family's words, that it waits: what it waited
 * for never came (TensorFlow's "CreateSession still waiting for response from worker: ...
 * task:17" at I). */
/* A launcher's last word, ending the job's processes ("launch_utils.py:327] terminate all
 * the procs"): a retry right above it was the job's last try. */
static bool ends_job(struct pspan msg)
{
	static const char *const words[] = {"terminate all", "terminating all", "killing all",
					    "kill all"};
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (hlog__find_nocase(msg, words[i]))
			return true;
	return false;
}

void hlog__ended_on_failure(struct hlog_report *r, const char *name, const char *node,
			     const struct unk_line *t, const struct unk_line *above)
{
	int len;
	if (t->no && !t->error && above->no && !above->error && ends_job(t->msg) &&
	    hlog__retry_left(above->line)) {
		hlog__promote(r, name, node, above);
		return;
	}
	if (!t->no || t->error)
		return;
	int fam = hlog__word_family(t->line);
	int waits = hlog__word_family_says(fam) & WF_SAYS_WAITS;
	/* a wait said in words that only a log's last line makes a failure ("Waiting for
	 * placement group to be scheduled"): the family is the line's only when nothing in its
	 * file failed before it (an error there is what the wait is about) */
	int end = fam < 0 && !r->file[r->nfile - 1].errors ? hlog__word_family_end(t->line) : -1;
	if (end >= 0 && (hlog__word_family_says(end) & WF_SAYS_WAITS)) {
		hlog__promote(r, name, node, t);
		hlog__offer_word(r, name, node, t->no, t->rank, t->line, end, HLINE_NONE, -1);
	} else if (hlog__retry_left(t->line) ||
		   (t->info && hlog__error_word(t->msg, &len, NULL) >= 0) || waits) {
		hlog__promote(r, name, node, t);
	}
}

/* A native stack trace printed under a message says the message was fatal, whatever its
 * words: dmlc's LOG(FATAL) prints "src/kvstore/kvstore.cc:37: compile with
 * USE_DIST_KVSTORE=1 to use dist_sync", then "Stack trace returned 10 entries:" and its
 * "[bt] (0) ..." frames; Rust's panic "stack backtrace:". (Python's traceback comes before
 * its error, which its own words carry.) */
void hlog__trace_below(struct hlog_report *r, const char *name, const char *node,
			const struct unk_line *prev, struct pspan line)
{
	static const char *const heads[] = {"Stack trace returned", "Stack trace:",
					    "stack backtrace:"};
	if (!prev->no || prev->error)
		return;
	for (size_t i = 0; i < sizeof(heads) / sizeof(heads[0]); i++)
		if (line.n >= strlen(heads[i]) && !strncmp(line.s, heads[i], strlen(heads[i]))) {
			hlog__promote(r, name, node, prev);
			return;
		}
}

/* A line above a program's advice to read its help is the command line it refused, whatever
 * its words: CLI11's "--preset-gemm-kernel: 1 not in {0,80}" over "Run with --help for more
 * information.", GNU getopt's "cp: missing destination file operand after '...'" over "Try
 * 'cp --help' for more information.". Its family is the command line's, unless its words
 * name another. */
void hlog__usage_below(struct hlog_report *r, const char *name, const char *node,
			const struct unk_line *prev, struct pspan msg)
{
	if (!prev->no || !hlog__help_advice(msg))
		return;
	if (!prev->error)
		hlog__promote(r, name, node, prev);
	if (hlog__word_family(prev->line) < 0)
		hlog__offer_word(r, name, node, prev->no, prev->rank, prev->line,
			   hlog__word_family_named("arguments"), HLINE_NONE, -1);
}
