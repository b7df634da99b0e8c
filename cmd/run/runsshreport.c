/* run --ssh's closing report: the cause (the worst ending, the monitor's verdict where it
 * has one), the other failures as consequences, what was stopped, and the JSON document.
 * A server lost with its session or its run-node is named once, with all of its ranks. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cmd/cli/cli.h"
#include "cmd/cli/situation.h"
#include "cmd/run/runssh.h"
#include "ranktable/base/plural.h"

/* "0-3, 8, 10-11" from the ascending ranks of session i */
static void rank_list(const struct ssh_run *s, size_t i, char *buf, size_t len)
{
	size_t off = 0;
	int first = -1, last = -2;
	buf[0] = '\0';
	for (size_t r = 0; r <= s->n; r++) {
		if (r < s->n && s->srv_of[r] == (int)i) {
			if ((int)r == last + 1) {
				last = (int)r;
				continue;
			}
		} else if (r < s->n) {
			continue;
		}
		if (first >= 0 && off < len)
			off += (size_t)(last > first ? snprintf(buf + off, len - off, "%s%d-%d",
								off ? ", " : "", first, last)
						     : snprintf(buf + off, len - off, "%s%d",
								off ? ", " : "", first));
		if (r < s->n)
			first = last = (int)r;
	}
}

/* "rank 2 on n3 (10.0.0.3)", or "rank 2 on 10.0.0.3" when the address is the server id */
static void rank_name(const struct fo_host *h, int rank, char *buf, size_t len)
{
	if (h->name && strcmp(h->name, h->host))
		snprintf(buf, len, "rank %d on %s (%s)", rank, h->name, h->host);
	else
		snprintf(buf, len, "rank %d on %s", rank, h->host);
}

static const char *exit_text(const struct fo_host *h, char *buf, size_t len)
{
	if (h->signal[0])
		snprintf(buf, len, "was killed by signal %s", h->signal);
	else if (h->status == FO_FAILED && h->exit_status == 127)
		snprintf(buf, len, "could not start: hcclctl not found there (exit 127); fix "
				   "--remote-hcclctl PATH, or leave it out to copy this hcclctl there");
	else if (h->status == FO_FAILED && h->exit_status == 126)
		snprintf(buf, len, "could not start: hcclctl is not executable there (exit 126)");
	else if (h->status == FO_FAILED)
		snprintf(buf, len, "exited %d", h->exit_status);
	else if (h->status == FO_TIMEOUT && !h->connected)
		snprintf(buf, len, "could not start: %s", h->error);
	else if (h->status == FO_TIMEOUT)
		snprintf(buf, len, "lost: %s", h->error);
	else if (h->status == FO_UNREACHABLE && h->connected)
		snprintf(buf, len, "lost its SSH session: %s", h->error);
	else if (h->status == FO_UNREACHABLE || h->status == FO_NOSTART)
		snprintf(buf, len, "could not start: %s", h->error);
	else
		snprintf(buf, len, "%s", fo_status_name(h->status));
	return buf;
}

/* How bad an ending is, for naming the cause: a node we could not reach or lost, then a
 * rank killed by a signal, then a rank that exited non-zero. */
static int severity(const struct fo_host *h)
{
	switch (h->status) {
	case FO_UNREACHABLE:
	case FO_TIMEOUT:
	case FO_NOSTART:
		return 3;
	case FO_FAILED:
		return h->signal[0] ? 2 : 1;
	default:
		return 0;
	}
}

/* A server we never got a session on (connect, host key, handshake, login). */
static int unreachable(const struct fo_host *h)
{
	return (h->status == FO_UNREACHABLE || h->status == FO_TIMEOUT) && !h->connected;
}

static int exit_code_of(const struct fo_host *h)
{
	if (unreachable(h))
		return situation_exit("unreachable");
	if (h->status == FO_NOSTART)
		return EXIT_UNKNOWN;
	if (h->status == FO_FAILED && !h->signal[0] &&
	    (h->exit_status == 127 || h->exit_status == 126 || h->exit_status == EXIT_USAGE ||
	     h->exit_status == EXIT_UNKNOWN))
		return EXIT_UNKNOWN;
	return EXIT_FAIL;
}

static void print_tail(const struct fo_host *h, const char *who)
{
	const char *tail = fo_stderr_tail(h, RUNSSH_TAIL_LINES);
	if (!*tail)
		return;
	fprintf(stderr, "  last stderr of %s:\n", who);
	while (*tail) {
		size_t l = strcspn(tail, "\n");
		fprintf(stderr, "    %.*s\n", (int)l, tail);
		tail += l + (tail[l] == '\n');
	}
}

/* The rows rank 0 measured before the job failed: its own document (on its stdout) keeps
 * them; when it printed none (killed in a later row), the rows it streamed as it measured
 * them; an empty array when there are none (never started). */
static cJSON *measured_rows(struct ssh_run *s)
{
	const struct fo_host *h0 = &s->hosts[0];
	cJSON *d = h0->out.len ? cJSON_ParseWithLength(h0->out.p, h0->out.len) : NULL;
	cJSON *rows = cJSON_DetachItemFromObjectCaseSensitive(d, "results");
	cJSON_Delete(d);
	if (cJSON_IsArray(rows))
		return rows;
	cJSON_Delete(rows);
	if (s->rows) {
		rows = s->rows;
		s->rows = NULL;
		return rows;
	}
	return cJSON_CreateArray();
}

/* The last non-empty stderr line of h, for one-line mentions. */
static void last_line(const struct fo_host *h, char *buf, size_t len)
{
	const char *tail = fo_stderr_tail(h, 1);
	size_t l = strcspn(tail, "\n");
	snprintf(buf, len, "%.*s", (int)l, tail);
}

static cJSON *rank_json(const struct fo_host *h, int r)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddNumberToObject(o, "rank", r);
	cJSON_AddStringToObject(o, "server", h->name ? h->name : h->host);
	cJSON_AddStringToObject(o, "address", h->host);
	cJSON_AddStringToObject(o, "status", fo_status_name(h->status));
	fo_json_end(o, h);
	if (h->error[0] && h->status != FO_OK && h->status != FO_FAILED)
		cJSON_AddStringToObject(o, "error", h->error);
	else
		cJSON_AddNullToObject(o, "error");
	cJSON_AddStringToObject(o, "stderr_tail", fo_stderr_tail(h, RUNSSH_TAIL_LINES));
	return o;
}

/* A rank whose end is its server's, on a server of several ranks: the server is named
 * with all of them ("ranks 8-15 on n2 (10.77.0.2)"). */
/* The end of every document of a run over SSH: each rank's state and the exit code, then
 * out. */
static void json_finish(cJSON *doc, const struct ssh_run *s, int code)
{
	cJSON *ranks = cJSON_AddArrayToObject(doc, "ranks");
	for (size_t r = 0; r < s->n; r++)
		cJSON_AddItemToArray(ranks, rank_json(&s->hosts[r], (int)r));
	cJSON_AddNumberToObject(doc, "exit_code", code);
	out_json(doc);
}

static int server_wide(const struct ssh_run *s, int r)
{
	if (s->per_rank || !s->from_srv[r])
		return 0;
	for (size_t k = 0; k < s->n; k++)
		if ((int)k != r && s->srv_of[k] == s->srv_of[r])
			return 1;
	return 0;
}

static void who_of(const struct ssh_run *s, int r, char *buf, size_t len)
{
	const struct fo_host *h = &s->hosts[r];
	char list[512];
	if (!server_wide(s, r)) {
		rank_name(h, r, buf, len);
		return;
	}
	rank_list(s, (size_t)s->srv_of[r], list, sizeof(list));
	if (h->name && strcmp(h->name, h->host))
		snprintf(buf, len, "ranks %s on %s (%s)", list, h->name, h->host);
	else
		snprintf(buf, len, "ranks %s on %s", list, h->host);
}

static const char *what_of(const struct ssh_run *s, int r, char *buf, size_t len)
{
	const struct fo_host *h = &s->hosts[r];
	if (!s->per_rank && s->from_srv[r] && h->status == FO_FAILED && h->signal[0]) {
		snprintf(buf, len, "lost: %s parent (hcclctl run-node) was killed by signal %s",
			 server_wide(s, r) ? "their" : "its", h->signal);
		return buf;
	}
	return exit_text(h, buf, len);
}

/* Whether r is a later rank of a server already named for all its ranks. */
static int named_with_server(const struct ssh_run *s, int r, int culprit)
{
	if (!server_wide(s, r))
		return 0;
	if (culprit >= 0 && server_wide(s, culprit) && s->srv_of[culprit] == s->srv_of[r])
		return 1;
	for (int k = 0; k < r; k++)
		if (s->srv_of[k] == s->srv_of[r] && s->from_srv[k] && k != culprit)
			return 1;
	return 0;
}

/* After Ctrl-C was passed on (runssh.c): "interrupted", as --local says it, and what rank 0
 * printed; the ranks that did not stop at the row themselves are counted. With --json,
 * rank 0's document (its rows and "interrupted": true), else one that says so. 130. */
static int report_interrupt(struct ssh_run *s)
{
	const struct run_ssh_args *a = s->a;
	const struct fo_host *h0 = &s->hosts[0];
	size_t late = 0;
	for (size_t r = 0; r < s->n; r++) {
		const struct fo_host *h = &s->hosts[r];
		if (h->status != FO_OK && (h->signal[0] || h->exit_status != EXIT_INTERRUPT))
			late++;
	}
	if (late)
		fail(EXIT_INTERRUPT, a->where, NULL, "interrupted: %zu rank%s did not stop within "
		     "%d s and %s killed", late, plural_s(late),
		     RUN_INTERRUPT_GRACE_MS / 1000, late == 1 ? "was" : "were");
	else
		fail(EXIT_INTERRUPT, a->where, NULL, "interrupted");
	if (!g_opts.json)
		return EXIT_INTERRUPT;
	if (h0->out.len && h0->exit_status == EXIT_INTERRUPT && !h0->signal[0]) {
		fwrite(h0->out.p, 1, h0->out.len, stdout);
		out_json_set_printed();
		return EXIT_INTERRUPT;
	}
	cJSON *doc = cJSON_CreateObject();
	cJSON *e = cJSON_AddObjectToObject(doc, "error");
	cJSON_AddStringToObject(e, "where", a->where);
	cJSON_AddStringToObject(e, "message", "interrupted");
	cJSON_AddBoolToObject(doc, "interrupted", 1);
	cJSON_AddItemToObject(doc, "results", measured_rows(s));
	json_finish(doc, s, EXIT_INTERRUPT);
	return EXIT_INTERRUPT;
}

/* The rank that failed worst, the first to end among equals (-1: none); and how many ranks
 * were stopped and how many ended well. */
static int find_culprit(const struct ssh_run *s, size_t *nstopped, size_t *nok)
{
	int culprit = -1;
	*nstopped = *nok = 0;
	for (size_t r = 0; r < s->n; r++) {
		const struct fo_host *h = &s->hosts[r];
		if (h->status == FO_CANCELED)
			(*nstopped)++;
		if (h->status == FO_OK)
			(*nok)++;
		int sev = severity(h);
		if (!sev)
			continue;
		if (culprit < 0 || sev > severity(&s->hosts[culprit]) ||
		    (sev == severity(&s->hosts[culprit]) && s->end_seq[r] < s->end_seq[culprit]))
			culprit = (int)r;
	}
	return culprit;
}

static int report_signal(struct ssh_run *s)
{
	int sig = fo_signal_caught();
	fail(128 + sig, s->a->where, NULL, "interrupted by %s: stopped every rank", strsignal(sig));
	if (g_opts.json) {
		cJSON *doc = cJSON_CreateObject();
		cJSON_AddItemToObject(doc, "results", measured_rows(s));
		json_finish(doc, s, 128 + sig);
	}
	return 128 + sig;
}

/* Every rank ended well: rank 0's own document is the run's. */
static int report_ok(const struct ssh_run *s, double seconds)
{
	if (g_opts.json) {
		const struct fo_host *h0 = &s->hosts[0];
		if (h0->out.len) {
			fwrite(h0->out.p, 1, h0->out.len, stdout);
			out_json_set_printed();
		}
	}
	if (g_opts.verbose)
		fprintf(stderr, "hcclctl: %s: %zu ranks over SSH ended well (%.2f s)\n", s->a->where,
			s->n, seconds);
	return EXIT_OK;
}

/* The ranks that failed besides the culprit, and those stopped, up to 8 by number. */
static void report_others(struct ssh_run *s, int culprit, size_t nstopped)
{
	char who[600], what[SSH_ERRLEN + 200], line[2048];
	for (size_t r = 0; r < s->n; r++) {
		const struct fo_host *h = &s->hosts[r];
		if ((int)r == culprit || !severity(h) || named_with_server(s, (int)r, culprit))
			continue;
		who_of(s, (int)r, who, sizeof(who));
		last_line(h, line, sizeof(line));
		fprintf(stderr, "hcclctl: %s: %s also %s%s%s\n", s->a->where, who,
			what_of(s, (int)r, what, sizeof(what)), *line ? ": " : "", line);
	}
	if (!nstopped)
		return;
	char list[1024] = "";
	size_t off = 0, shown = 0;
	for (size_t r = 0; r < s->n && off < sizeof(list); r++) {
		if (s->hosts[r].status != FO_CANCELED)
			continue;
		if (shown++ == 8) {
			snprintf(list + off, sizeof(list) - off, ", ...");
			break;
		}
		off += (size_t)snprintf(list + off, sizeof(list) - off, "%s%zu", shown > 1 ? ", " : "",
					r);
	}
	fprintf(stderr, "hcclctl: %s: stopped the other %zu rank%s (%s) and their processes\n",
		s->a->where, nstopped, plural_s(nstopped), list);
}

/* The verdict when the monitor gave none: the one the ranks reached among themselves (--engine
 * hccl), in the culprit's stderr, else the launcher's own from how the culprit ended. */
static void settle_verdict(struct ssh_run *s, int culprit)
{
	char who[600], what[SSH_ERRLEN + 200];
	if (s->have_verdict || culprit < 0)
		return;
	const char *tail = fo_stderr_tail(&s->hosts[culprit], RUNSSH_TAIL_LINES);
	if (!run_verdict_parse(tail, strlen(tail), &s->verdict)) {
		s->have_verdict = 2;
		if (s->verdict.rank >= 0 && (size_t)s->verdict.rank < s->n)
			snprintf(s->verdict.host, sizeof(s->verdict.host), "%s",
				 s->hosts[s->verdict.rank].name ? s->hosts[s->verdict.rank].name :
				 s->hosts[s->verdict.rank].host);
		return;
	}
	const struct fo_host *h = &s->hosts[culprit];
	struct comm_verdict *v = &s->verdict;
	run_verdict_from_status(v, 0, "");
	/* never reached: a node situation, not a link between ranks; lost after it was
	 * reached: its host stopped carrying packets */
	v->kind = h->signal[0] ? COMM_VERDICT_DEAD_RANK
		  : unreachable(h) ? RUN_VERDICT_UNREACHABLE
		  : (h->status == FO_UNREACHABLE || h->status == FO_TIMEOUT)
			  ? COMM_VERDICT_LINK_DOWN
		  : (h->status == FO_NOSTART || h->exit_status == 127 || h->exit_status == 126 ||
		     h->exit_status == EXIT_USAGE)
			  ? COMM_VERDICT_CONFIG
			  : COMM_VERDICT_ERROR;
	v->rank = culprit;
	snprintf(v->host, sizeof(v->host), "%s", h->name ? h->name : h->host);
	who_of(s, culprit, who, sizeof(who));
	snprintf(v->msg, sizeof(v->msg), "%.200s %.290s", who,
		 what_of(s, culprit, what, sizeof(what)));
	s->have_verdict = 2;
}

static void report_json(struct ssh_run *s, int culprit, int code)
{
	char who[600], what[SSH_ERRLEN + 200], line[2048];
	cJSON *doc = cJSON_CreateObject();
	cJSON *e = cJSON_AddObjectToObject(doc, "error");
	cJSON_AddStringToObject(e, "where", s->a->where);
	if (culprit >= 0) {
		who_of(s, culprit, who, sizeof(who));
		snprintf(line, sizeof(line), "%s %s", who, what_of(s, culprit, what, sizeof(what)));
		cJSON_AddStringToObject(e, "message", line);
		cJSON_AddNumberToObject(e, "rank", culprit);
	} else {
		cJSON_AddStringToObject(e, "message", "stopped");
	}
	if (s->have_verdict)
		cJSON_AddItemToObject(doc, "verdict", run_verdict_json(&s->verdict));
	cJSON_AddItemToObject(doc, "results", measured_rows(s));
	json_finish(doc, s, code);
}

int runssh_report(struct ssh_run *s, double seconds)
{
	const struct run_ssh_args *a = s->a;
	size_t nstopped, nok;
	int culprit = find_culprit(s, &nstopped, &nok);
	if (fo_signal_caught())
		return report_signal(s);
	if (fo_cancel_fired(&s->interrupt) && nok < s->n)
		return report_interrupt(s);
	if (culprit < 0 && nok == s->n)
		return report_ok(s, seconds);

	char who[600], what[SSH_ERRLEN + 200];
	int code = EXIT_FAIL;
	if (!s->have_verdict && comm_rendezvous_verdict(s->rdv, &s->verdict))
		s->have_verdict = 2; /* decided as the ranks ended: not printed yet */
	if (s->have_verdict && s->verdict.rank >= 0 && (size_t)s->verdict.rank < s->n &&
	    severity(&s->hosts[s->verdict.rank]))
		culprit = s->verdict.rank; /* the monitor knows better than exit order */
	if (culprit >= 0) {
		const struct fo_host *h = &s->hosts[culprit];
		who_of(s, culprit, who, sizeof(who));
		code = exit_code_of(h);
		fail(code, a->where, NULL, "%s %s", who, what_of(s, culprit, what, sizeof(what)));
		print_tail(h, who);
	} else {
		fail(code, a->where, NULL, "the run was stopped before every rank ended");
	}
	report_others(s, culprit, nstopped);
	settle_verdict(s, culprit);
	if (s->have_verdict == 2)
		run_verdict_print(&s->verdict);
	if (s->have_verdict == 1)
		code = run_verdict_exit(&s->verdict);
	if (g_opts.json)
		report_json(s, culprit, code);
	return code;
}
