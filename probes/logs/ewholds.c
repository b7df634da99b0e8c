/* Whether a benign form of an error word holds where it matched (see ewholds.h): a retry
 * with tries left, counts at zero, a span of time given to a timeout, a negation, a level of
 * logging as a setting's value, a fallback, a field whose value says there is none, a
 * measured quantity, a step the program adjusted. Apart from ewbenign.c, whose table of forms
 * names them, so that each file keeps one job. */
#include <ctype.h>
#include <stddef.h>
#include <string.h>
#include <strings.h>

#include "probes/logs/ewholds.h"
#include "probes/logs/logtext.h"

/* Whether the retry announced at m[at..at+len) has tries left: "retrying (26/34)" has,
 * "retrying (34/34)" has not (that connect was the last); a retry without its count has. */
int hlog__ew_retries_left(struct pspan m, size_t at, size_t len)
{
	size_t i = at + len;
	while (i < m.n && ew_blank(m.s[i]))
		i++;
	if (i >= m.n || m.s[i] != '(')
		return 1;
	long long n = 0, of = 0;
	size_t d = ++i;
	while (i < m.n && m.s[i] >= '0' && m.s[i] <= '9' && i - d < 9)
		n = n * 10 + (m.s[i++] - '0');
	if (i == d || i >= m.n || m.s[i] != '/')
		return 1;
	d = ++i;
	while (i < m.n && m.s[i] >= '0' && m.s[i] <= '9' && i - d < 9)
		of = of * 10 + (m.s[i++] - '0');
	if (i == d || i >= m.n || m.s[i] != ')')
		return 1;
	return n < of;
}

/* Whether "waiting for" at m[at..at+len), in a clause of its own (after ", "), gives the time
 * the program waits before it tries again, a number and its unit: LightGBM's "[Warning]
 * Connecting to rank 1 failed, waiting for 10000 milliseconds" (then "Connected to rank 1");
 * not a wait for something else ("... failed, waiting for the master"). */
int hlog__ew_wait_before_retry(struct pspan m, size_t at, size_t len)
{
	static const char *const units[] = {"ms", "milliseconds", "millisecond", "s", "sec",
					    "seconds", "second", "secs"};
	if (at < 2 || m.s[at - 1] != ' ' || m.s[at - 2] != ',')
		return 0;
	size_t i = at + len;
	while (i < m.n && ew_blank(m.s[i]))
		i++;
	size_t d = i;
	while (i < m.n && ((m.s[i] >= '0' && m.s[i] <= '9') || m.s[i] == '.'))
		i++;
	if (i == d)
		return 0;
	while (i < m.n && ew_blank(m.s[i]))
		i++;
	size_t w = i;
	while (i < m.n && isalpha((unsigned char)m.s[i]))
		i++;
	for (size_t u = 0; u < sizeof(units) / sizeof(units[0]); u++)
		if (i - w == strlen(units[u]) && !strncasecmp(m.s + w, units[u], i - w))
			return 1;
	return 0;
}

/* Whether the connect that failed at m[at..at+len), the line's whole message, was to one
 * address of several, the next one tried after it: c10d's "[W socket.cpp:601] [c10d] The
 * client socket has failed to connect to [host]:29500 (errno: 99 - ...)", not its last word,
 * "... failed to connect to any network address of (host, 29500)". */
int hlog__ew_one_address(struct pspan m, size_t at, size_t len)
{
	size_t b = 0; /* after the line's tags only ("[c10d] ") */
	while (b < at && (ew_blank(m.s[b]) || m.s[b] == '[')) {
		if (m.s[b] == '[')
			while (b < at && m.s[b] != ']')
				b++;
		b++;
	}
	if (b < at)
		return 0;
	size_t i = at + len;
	while (i < m.n && ew_blank(m.s[i]))
		i++;
	return !(i + 4 <= m.n && !strncasecmp(m.s + i, "any ", 4));
}

/* Whether m[i..] is the label of another count: a word, blanks, then '=' or ':' and a digit
 * ("Missing = 0"). */
static int next_count(struct pspan m, size_t i)
{
	size_t w = i;
	while (i < m.n && isalpha((unsigned char)m.s[i]))
		i++;
	if (i == w)
		return 0;
	while (i < m.n && ew_blank(m.s[i]))
		i++;
	if (i >= m.n || (m.s[i] != '=' && m.s[i] != ':'))
		return 0;
	for (i++; i < m.n && ew_blank(m.s[i]); i++)
		;
	return i < m.n && isdigit((unsigned char)m.s[i]);
}

/* The length of a table's cell mark at m[i], or 0: '|', or a box-drawing vertical line as
 * terminal table libraries draw them ("│", "┃", "║": three bytes of UTF-8). */
static size_t cell_mark(struct pspan m, size_t i)
{
	static const char *const boxes[] = {"\xe2\x94\x82", "\xe2\x94\x83", "\xe2\x95\x91"};
	if (i >= m.n)
		return 0;
	if (m.s[i] == '|')
		return 1;
	for (size_t k = 0; k < sizeof(boxes) / sizeof(boxes[0]); k++)
		if (m.n - i >= 3 && !memcmp(m.s + i, boxes[k], 3))
			return 3;
	return 0;
}

/* Whether the word at m[at..at+len) labels a count that is zero: a few more words of the
 * label, then ':' or '=', or the '|' of a table's next cell, then 0 alone ("Failed requests:
 * 0", "errors=0, warnings=1", a benchmark's "|   Failed |   0( 0.0% ) |"), not a value that
 * starts with 0 ("0x1f") or a sentence that goes on ("error: 0 is not a rank"); or, in a tally
 * of counts ("ERROR 0 | FAIL 0 |"), the word, blanks and a 0 that a '|' or ',' ends ("error 0"
 * alone may be a code). */
int hlog__ew_counts_zero(struct pspan m, size_t at, size_t len)
{
	size_t i = at + len, lim = i + 32 < m.n ? i + 32 : m.n;
	int tally = i < m.n && ew_blank(m.s[i]);
	while (i < lim && (isalpha((unsigned char)m.s[i]) || ew_blank(m.s[i]) || m.s[i] == '_' ||
			   m.s[i] == '-')) {
		tally = tally && ew_blank(m.s[i]);
		i++;
	}
	if (tally && i < m.n && m.s[i] == '0') {
		for (i++; i < m.n && ew_blank(m.s[i]); i++)
			;
		return i < m.n && (cell_mark(m, i) || m.s[i] == ',');
	}
	size_t mark = cell_mark(m, i);
	if (i >= m.n || (m.s[i] != ':' && m.s[i] != '=' && !mark))
		return 0;
	int cell = mark > 0;
	for (i += mark ? mark : 1; i < m.n && ew_blank(m.s[i]); i++)
		;
	/* a row may put one cell of words between its label and the count: the stage of
	 * aisbench's "│ Failed Requests          │ total    │ 0                  │" */
	if (cell && i < m.n && isalpha((unsigned char)m.s[i])) {
		size_t w = i;
		while (w < m.n && w - i < 24 && (isalpha((unsigned char)m.s[w]) || ew_blank(m.s[w])))
			w++;
		size_t next = cell_mark(m, w);
		if (!next)
			return 0;
		for (i = w + next; i < m.n && ew_blank(m.s[i]); i++)
			;
	}
	if (i >= m.n || m.s[i] != '0')
		return 0;
	/* and a share at zero, written as a real: SGLang's benchmark summary "Invalid: 0.000" */
	if (i + 2 < m.n && m.s[i + 1] == '.' && m.s[i + 2] == '0')
		for (i += 2; i + 1 < m.n && m.s[i + 1] == '0'; i++)
			;
	for (i++; i < m.n && ew_blank(m.s[i]); i++)
		;
	/* one count for each of several devices, every one at zero: gpu-burn's "errors: 0 - 0 -
	 * 0 - 0   temps: 38 C - 36 C ..." (not "errors: 0 - 0 - 3") */
	if (i + 1 < m.n && m.s[i] == '-' && ew_blank(m.s[i + 1])) {
		while (i + 1 < m.n && m.s[i] == '-' && ew_blank(m.s[i + 1])) {
			for (i++; i < m.n && ew_blank(m.s[i]); i++)
				;
			if (i >= m.n || m.s[i] != '0' || (i + 1 < m.n && !ew_blank(m.s[i + 1])))
				return 0;
			for (i++; i < m.n && ew_blank(m.s[i]); i++)
				;
		}
		return i >= m.n || isalpha((unsigned char)m.s[i]);
	}
	/* a cell's count may carry its share: "0( 0.0% )"; a tally goes on with the next count,
	 * "Skipped = 0 Failed = 0 Missing = 0"; or a reader's arrow points at the row, pasted
	 * output annotated, "Failed requests:   0          <<<<<<< New line" */
	int arrow = i + 1 < m.n && m.s[i] == '<' && (m.s[i + 1] == '<' || m.s[i + 1] == '-' ||
						     m.s[i + 1] == '=');
	return i >= m.n || m.s[i] == ',' || m.s[i] == ';' || cell_mark(m, i) || m.s[i] == ')' ||
	       m.s[i] == '\r' || (cell && m.s[i] == '(') || next_count(m, i) || arrow;
}

/* Whether the word at m[at..at+len) labels a measured quantity: after ':' or '=' and at most
 * a few words of the label (each maybe with its own '='), a real number (a decimal point or
 * an exponent: "0.000341587", "-1.7e-06") that ends the line or its field (',', ';', ')',
 * '|', '%'). A count is an integer, and a failure's text goes on in words ("max error: 0.5 is
 * out of range"). */
int hlog__ew_real_value(struct pspan m, size_t at, size_t len)
{
	size_t i = at + len, lim = i + 40 < m.n ? i + 40 : m.n;
	while (i < lim && ew_blank(m.s[i]))
		i++;
	/* the label's mark, or the verb of a sentence that states the value: MPICH's cpi, "pi is
	 * approximately 3.1415926544231274, Error is 0.0000000008333343" */
	if (i + 2 < lim && !strncasecmp(m.s + i, "is", 2) && ew_blank(m.s[i + 2]))
		i++;
	else if (i >= lim || (m.s[i] != ':' && m.s[i] != '='))
		return 0;
	for (i++; i < lim && (isalpha((unsigned char)m.s[i]) || ew_blank(m.s[i]) || m.s[i] == '='); i++)
		;
	size_t d = i;
	if (i < m.n && (m.s[i] == '-' || m.s[i] == '+'))
		i++;
	int digits = 0, real = 0;
	for (; i < m.n; i++) {
		char c = m.s[i];
		if (isdigit((unsigned char)c))
			digits = 1;
		else if (c == '.' && digits && i + 1 < m.n && isdigit((unsigned char)m.s[i + 1]))
			real = 1;
		else if ((c == 'e' || c == 'E') && digits && i + 1 < m.n &&
			 (m.s[i + 1] == '-' || m.s[i + 1] == '+' || isdigit((unsigned char)m.s[i + 1])))
			real = 1, i++;
		else
			break;
	}
	while (i < m.n && ew_blank(m.s[i]))
		i++;
	return i > d && real &&
	       (i >= m.n || m.s[i] == ',' || m.s[i] == ';' || m.s[i] == ')' || m.s[i] == '|' ||
		m.s[i] == '%' || m.s[i] == '\r');
}

/* Whether the word at m[at..at+len) heads a line of its own after the name of a data set
 * ("Test Error:", "Validation Error:"): the line names the metric whose values follow, and
 * nothing failed. Only blanks before the name, only a colon and blanks after the word. */
int hlog__ew_split_heading(struct pspan m, size_t at, size_t len)
{
	static const char *const sets[] = {"test", "validation", "val", "train", "training", "eval",
					   "evaluation"};
	size_t i = at + len;
	if (i < m.n && m.s[i] == ':')
		i++;
	while (i < m.n && (ew_blank(m.s[i]) || m.s[i] == '\r'))
		i++;
	if (i < m.n || !at || !ew_blank(m.s[at - 1]))
		return 0;
	size_t e = at - 1, b = 0;
	while (b < e && ew_blank(m.s[b]))
		b++;
	for (size_t k = 0; k < sizeof(sets) / sizeof(sets[0]); k++) {
		size_t n = strlen(sets[k]);
		if (e - b == n && !strncasecmp(m.s + b, sets[k], n))
			return 1;
	}
	return 0;
}

/* Where the count of zero before the word at m.s[at] starts: "0/52 failures", "0 failures"
 * (a 0 that no other digit, '.', '-' or '/' continues: not "10 failures", "3/52"); or
 * (size_t)-1 when there is none. */
static size_t zero_count_at(struct pspan m, size_t at)
{
	size_t i = at;
	while (i && ew_blank(m.s[i - 1]))
		i--;
	if (i == at)
		return (size_t)-1;
	size_t j = i; /* past an "/N" of a ratio */
	while (j && m.s[j - 1] >= '0' && m.s[j - 1] <= '9')
		j--;
	if (j < i && j && m.s[j - 1] == '/')
		i = j - 1;
	if (!i || m.s[i - 1] != '0')
		return (size_t)-1;
	i--;
	if (i && ((m.s[i - 1] >= '0' && m.s[i - 1] <= '9') || m.s[i - 1] == '.' ||
		  m.s[i - 1] == '-' || m.s[i - 1] == '/'))
		return (size_t)-1;
	return i;
}

/* Whether the noun at m[at..at+len) counts zero, the count before it (zero_count_at). */
int hlog__ew_zero_before(struct pspan m, size_t at, size_t len)
{
	(void)len;
	return zero_count_at(m, at) != (size_t)-1;
}

/* Whether the word at m[at..at+len) labels a count of 0 in a tally of several, written count
 * first and separated by marks: kubectl's "Pods Statuses:    0 Active / 3 Succeeded / 0
 * Failed" (not "device 0 failed on command": a name's number, its sentence going on). */
int hlog__ew_zero_tally(struct pspan m, size_t at, size_t len)
{
	static const char after[] = ",/|;)", before[] = "/,|:(";
	size_t e = at + len, i = zero_count_at(m, at);
	while (e < m.n && ew_blank(m.s[e]))
		e++;
	if (i == (size_t)-1 || (e < m.n && (!m.s[e] || !strchr(after, m.s[e]))))
		return 0;
	while (i && ew_blank(m.s[i - 1]))
		i--;
	return i && m.s[i - 1] && strchr(before, m.s[i - 1]);
}

/* The end of a unit of time that starts at m.s[i] and ends its word ("ms", "seconds",
 * "hours"); 0 when none does. */
static size_t unit_end(struct pspan m, size_t i)
{
	static const char *const units[] = {
		"ms", "s", "sec", "secs", "second", "seconds", "min", "mins", "minute", "minutes",
		"h",  "hour", "hours"};
	size_t u = i;
	while (i < m.n && m.s[i] >= 'a' && m.s[i] <= 'z')
		i++;
	if (i == u || (i < m.n && hlog__word_char(m.s[i])))
		return 0;
	for (size_t k = 0; k < sizeof(units) / sizeof(units[0]); k++)
		if (strlen(units[k]) == i - u && !memcmp(m.s + u, units[k], i - u))
			return i;
	return 0;
}

/* Whether the noun at m[at..at+len) is given a span of time a few words on, in its own
 * clause: " to " and then "0:01:40", "1800s", "30 seconds", "10 min" (a number with a colon or
 * a unit). Not "timeout to 10.0.0.1" nor "timeout to connect": an address or a verb follows. */
int hlog__ew_set_to_span(struct pspan m, size_t at, size_t len)
{
	size_t end = at + len + 60 < m.n ? at + len + 60 : m.n, i = at + len;
	for (; i + 4 <= end; i++) {
		if (m.s[i] == ',' || m.s[i] == ';' || m.s[i] == '.' || m.s[i] == ':')
			return 0; /* the clause ended first */
		if (!memcmp(m.s + i, " to ", 4))
			break;
	}
	if (i + 4 > end)
		return 0;
	i += 4;
	size_t d = i, colons = 0;
	while (i < m.n && (isdigit((unsigned char)m.s[i]) ||
			   (m.s[i] == ':' && i + 1 < m.n && isdigit((unsigned char)m.s[i + 1]))))
		colons += m.s[i++] == ':';
	if (i == d || (i < m.n && m.s[i] == '.'))
		return 0;
	if (colons)
		return i >= m.n || !hlog__word_char(m.s[i]);
	while (i < m.n && ew_blank(m.s[i]))
		i++;
	return unit_end(m, i) > 0;
}

/* Whether a span of time follows the word at m[at..at+len) at once ("timeout 90000ms(",
 * "timeout 30 s,") and the clause does not say the span ran out ("exceeded", "expired",
 * "reached"): the value of a setting, not a wait that ended. */
int hlog__ew_span_after(struct pspan m, size_t at, size_t len)
{
	static const char *const ran_out[] = {"exceeded", "expired", "reached", "elapsed",
					      "passed"};
	size_t i = at + len;
	while (i < m.n && ew_blank(m.s[i]))
		i++;
	size_t d = i;
	while (i < m.n && isdigit((unsigned char)m.s[i]))
		i++;
	if (i == d || i == at + len)
		return 0;
	if (i < m.n && ew_blank(m.s[i]))
		i++;
	size_t e = unit_end(m, i);
	if (!e)
		return 0;
	struct pspan clause = {m.s + e, m.n - e < 40 ? m.n - e : 40};
	for (size_t k = 0; k < sizeof(ran_out) / sizeof(ran_out[0]); k++)
		if (hlog__has_nocase(clause, ran_out[k]))
			return 0;
	return 1;
}

/* Whether the word at m[at..at+len) is a setting's name given its value, with blanks around
 * the '=' ("Waiting for the cluster, timeout = inf"): "timeout == 0" compares, and a wait that
 * ran out says so without an '=' after the word. */
int hlog__ew_assigned(struct pspan m, size_t at, size_t len)
{
	size_t i = at + len;
	while (i < m.n && ew_blank(m.s[i]))
		i++;
	if (i >= m.n || m.s[i] != '=' || (i + 1 < m.n && m.s[i + 1] == '='))
		return 0;
	for (i++; i < m.n && ew_blank(m.s[i]); i++)
		;
	return i < m.n;
}

/* Whether the "0 " at m[at..) opens the line and counts a noun, in the line's one sentence
 * ("0 tests skipped because of illegal input values."): its words say what none of them did.
 * Not "0 is not a valid rank" (no noun), "10 tests failed", nor "0 tests failed; rank 3
 * crashed" (a second sentence). */
int hlog__ew_zero_subject(struct pspan m, size_t at, size_t len)
{
	for (size_t i = 0; i < at; i++)
		if (!ew_blank(m.s[i]))
			return 0;
	size_t w = at + len;
	while (w < m.n && m.s[w] >= 'a' && m.s[w] <= 'z')
		w++;
	if (w == at + len || w >= m.n || !ew_blank(m.s[w]))
		return 0;
	for (size_t i = w; i + 1 < m.n; i++)
		if ((m.s[i] == '.' || m.s[i] == ';' || m.s[i] == ':') && ew_blank(m.s[i + 1]))
			return 0; /* a sentence ends before the line does */
	return 1;
}

/* Whether the word at m[at..at+len) is the value a level of logging is set to: "level" (as
 * a word or the end of a name, LOG_LEVEL) shortly before it, and between them only a verb of
 * setting ("changed to be", "set to", "is") or '=' / ':'. Not "log level error: cannot open
 * file" (the clause goes on after the word) nor "level 3 error" (a number between). */
int hlog__ew_level_value(struct pspan m, size_t at, size_t len)
{
	static const char *const verbs[] = {"to", "be", "changed", "set", "is", "was", "now"};
	size_t lo = at > 32 ? at - 32 : 0, k = at;
	while (k >= lo + 5 && strncasecmp(m.s + k - 5, "level", 5))
		k--;
	if (k < lo + 5)
		return 0;
	for (size_t i = k; i < at;) {
		if (strchr(" \t=:\"'", m.s[i])) {
			i++;
			continue;
		}
		size_t w = i;
		while (w < at && isalpha((unsigned char)m.s[w]))
			w++;
		size_t v = 0;
		while (v < sizeof(verbs) / sizeof(verbs[0]) &&
		       (strlen(verbs[v]) != w - i || strncasecmp(m.s + i, verbs[v], w - i)))
			v++;
		if (w == i || v == sizeof(verbs) / sizeof(verbs[0]))
			return 0;
		i = w;
	}
	/* the value of an assignment is one whatever follows it: "env UCX_LOG_LEVEL=ERROR
	 * UCX_TLS=^gdr_copy mpirun ..." */
	if (m.s[at - 1] == '=')
		return 1;
	size_t e = at + len;
	while (e < m.n && ew_blank(m.s[e]))
		e++;
	return e >= m.n || !isalpha((unsigned char)m.s[e]);
}

/* Whether the word at m[at..at+len) opens a field's name whose value, after ':' or '=', is
 * none: "NA", "N/A", "None", "null", "-", "0", "No" or "False", the line's last word ("Error
 * Code : NA", nvidia-smi -q's "Remapping Failure Occurred : No"; not "Error Code : 0x81 (NA)"
 * nor "Error : none of the ports came up" nor "Error : No such device"). */
int hlog__ew_none_value(struct pspan m, size_t at, size_t len)
{
	static const char *const nones[] = {"NA", "N/A", "None", "none", "null", "-",	  "0",
					    "No", "no",	  "NO",	  "False", "false"};
	size_t i = at + len;
	while (i < m.n && i < at + 40 && (hlog__word_char(m.s[i]) || ew_blank(m.s[i])))
		i++;
	if (i >= m.n || (m.s[i] != ':' && m.s[i] != '='))
		return 0;
	for (i++; i < m.n && ew_blank(m.s[i]); i++)
		;
	size_t e = m.n;
	while (e > i && ew_blank(m.s[e - 1]))
		e--;
	for (size_t k = 0; k < sizeof(nones) / sizeof(nones[0]); k++)
		if (e - i == strlen(nones[k]) && !memcmp(m.s + i, nones[k], e - i))
			return 1;
	return 0;
}

/* Whether a key names a state rather than a setting: its value is what happened. */
static int state_key(struct pspan k)
{
	static const char *const states[] = {"status", "state", "result", "outcome", "error",
					     "reason", "phase", "health"};
	for (size_t i = 0; i < sizeof(states) / sizeof(states[0]); i++) {
		size_t n = strlen(states[i]);
		/* "status", "run_status", "jobState" */
		if (k.n >= n && !strncasecmp(k.s + k.n - n, states[i], n))
			return 1;
	}
	return 0;
}

/* Whether the word at m[at..at+len) is a setting's value, the whole of it, as a dump of
 * settings prints one: quoted after a quoted key and ':' or '=' ("'truncation': 'error'" in a
 * Python dict, "\"on_error\": \"abort\"" in JSON), or alone at the line's end after a key
 * and "->" (a Scala Map's "handle_invalid -> error"). What a program does when it meets bad
 * input, set, not a failure. */
int hlog__ew_quoted_value(struct pspan m, size_t at, size_t len)
{
	size_t e = at + len;
	int quoted = at && (m.s[at - 1] == '\'' || m.s[at - 1] == '"');
	if (quoted && (e >= m.n || m.s[e] != m.s[at - 1]))
		return 0;
	size_t i = at - (size_t)quoted;
	while (i && ew_blank(m.s[i - 1]))
		i--;
	if (quoted) {
		if (!i || (m.s[i - 1] != ':' && m.s[i - 1] != '='))
			return 0;
		i--;
		while (i && ew_blank(m.s[i - 1]))
			i--;
		/* the key, quoted too, and no state's ("'status': 'error'" says one failed) */
		if (i < 3 || (m.s[i - 1] != '\'' && m.s[i - 1] != '"') || !hlog__word_char(m.s[i - 2]))
			return 0;
		size_t k = i - 1;
		while (k && hlog__word_char(m.s[k - 1]))
			k--;
		return !state_key((struct pspan){m.s + k, i - 1 - k});
	}
	size_t t = e;
	while (t < m.n && ew_blank(m.s[t]))
		t++;
	if (t < m.n || i < 4 || memcmp(m.s + i - 2, "->", 2) || !ew_blank(m.s[i - 3]) ||
	    !hlog__word_char(m.s[i - 4]))
		return 0;
	size_t k = i - 3;
	while (k && hlog__word_char(m.s[k - 1]))
		k--;
	return !state_key((struct pspan){m.s + k, i - 3 - k});
}

/* Whether "instead" at m[at..at+len) ends a clause that opens with a fallback ("so releasing
 * instead", "try to read ... instead", flux-shell's "Could not change dir to /opt/x: No such
 * file or directory. Going to /tmp instead"), not "instead of" (a wrong value: "Returned \"Error\"
 * (-1) instead of \"Success\"") nor advice to do otherwise ("use IPv4 address instead"). */
int hlog__ew_fallback_clause(struct pspan m, size_t at, size_t len)
{
	static const char *const opens[] = {"so ",	   "try ",	    "trying ",
					    "using ",	   "will use ",	    "falling back",
					    "fall back",   "going to ",	    "switching to "};
	size_t e = at + len;
	while (e < m.n && ew_blank(m.s[e]))
		e++;
	if (e + 2 <= m.n && !strncasecmp(m.s + e, "of", 2))
		return 0;
	size_t c = at;
	while (c && m.s[c - 1] != ',' && m.s[c - 1] != ';' && m.s[c - 1] != '.')
		c--;
	while (c < at && ew_blank(m.s[c]))
		c++;
	for (size_t k = 0; k < sizeof(opens) / sizeof(opens[0]); k++)
		if (c > 0 && !strncasecmp(m.s + c, opens[k], strlen(opens[k])))
			return 1;
	return 0;
}

int hlog__ew_fallback_taken(struct pspan m, size_t at, size_t len)
{
	size_t c = at;
	while (c && ew_blank(m.s[c - 1]))
		c--;
	if (c && !memchr(".,;:", m.s[c - 1], 4))
		return 0;
	size_t e = at + len;
	while (e < m.n && (ew_blank(m.s[e]) || m.s[e] == '\'' || m.s[e] == '"'))
		e++;
	return !(e + 3 <= m.n && !strncasecmp(m.s + e, "cpu", 3) &&
		 (e + 3 == m.n || !hlog__word_char(m.s[e + 3])));
}

/* Whether ", setting" (or ". Setting") at m[at..at+len) goes on with a name and its new value,
 * "to" between them or '=' inside quotes: "setting nnodes to 1", "Setting `use_cache=False`"
 * (not advice, "setting the -shm-size option when starting"). */
int hlog__ew_adjusted(struct pspan m, size_t at, size_t len)
{
	size_t i = at + len;
	if (i >= m.n || !ew_blank(m.s[i]))
		return 0;
	while (i < m.n && ew_blank(m.s[i]))
		i++;
	int quoted = i < m.n && (m.s[i] == '`' || m.s[i] == '\'' || m.s[i] == '"');
	i += (size_t)quoted;
	size_t w = i;
	while (i < m.n && (hlog__word_char(m.s[i]) || m.s[i] == '.' || m.s[i] == '-'))
		i++;
	if (i == w)
		return 0;
	if (quoted)
		return i + 1 < m.n && m.s[i] == '=' && !ew_blank(m.s[i + 1]);
	while (i < m.n && ew_blank(m.s[i]))
		i++;
	if (i + 3 > m.n || strncasecmp(m.s + i, "to", 2) || !ew_blank(m.s[i + 2]))
		return 0;
	for (i += 3; i < m.n && ew_blank(m.s[i]); i++)
		;
	return i < m.n;
}

int hlog__ew_value_taken(struct pspan m, size_t at, size_t len)
{
	size_t i = at + len;
	for (int words = 0; words < 5; words++) {
		if (i >= m.n || !ew_blank(m.s[i]))
			return 0;
		while (i < m.n && ew_blank(m.s[i]))
			i++;
		size_t w = i;
		while (i < m.n && (hlog__word_char(m.s[i]) || m.s[i] == '\'' || m.s[i] == '-'))
			i++;
		if (i == w)
			return 0;
		size_t wl = i - w;
		if ((wl == 5 && !strncasecmp(m.s + w, "value", 5)) ||
		    (wl == 6 && !strncasecmp(m.s + w, "values", 6))) {
			while (i < m.n && ew_blank(m.s[i]))
				i++;
			return i == m.n || m.s[i] == '.' || m.s[i] == ';';
		}
	}
	return 0;
}

/* Whether the word at m[at..at+len) is negated right before it: "will not be killed", "won't
 * be killed", "will never be killed". */
int hlog__ew_negated(struct pspan m, size_t at, size_t len)
{
	(void)len;
	static const char *const nots[] = {"not be ", "n't be ", "never be "};
	for (size_t k = 0; k < sizeof(nots) / sizeof(nots[0]); k++) {
		size_t n = strlen(nots[k]);
		if (at >= n && !strncasecmp(m.s + at - n, nots[k], n))
			return 1;
	}
	return 0;
}

/* Whether the phrase at m[at..at+len) ("right now") puts a refusal before it in its sentence
 * at this moment only: Ray's "The actor or task with ID ... cannot be scheduled right now. It
 * requires {CPU: 4.000000} for placement, however the cluster currently cannot provide the
 * requested resources." (the program waits for it to change; a log that ends there never saw
 * it change, which the word families read) */
int hlog__ew_for_now(struct pspan m, size_t at, size_t len)
{
	(void)len;
	static const char *const refusals[] = {"cannot ", "can't ", "unable to ", "not "};
	size_t from = 0;
	for (size_t i = 0; i + 1 < at; i++)
		if (m.s[i] == '.' && m.s[i + 1] == ' ')
			from = i + 2;
	struct pspan sentence = {m.s + from, at - from};
	for (size_t k = 0; k < sizeof(refusals) / sizeof(refusals[0]); k++)
		if (hlog__has_nocase(sentence, refusals[k]))
			return 1;
	return 0;
}

/* Where one of words (case folded) ends right at m.s[at], the index it starts at; or
 * (size_t)-1. */
static size_t word_before(struct pspan m, size_t at, const char *const *words, size_t n)
{
	for (size_t k = 0; k < n; k++) {
		size_t l = strlen(words[k]);
		if (at >= l && !strncasecmp(m.s + at - l, words[k], l))
			return at - l;
	}
	return (size_t)-1;
}

/* Whether the word at m[at..at+len) is foretold, not reported: a modal and a verb of
 * consequence right before it, an article between or not ("Please note that this is not
 * tested in NeMo and could result in errors.", "may lead to a failure"), or to be seen
 * ("Depending on the model, you may observe exceptions, performance degradation, or nothing
 * at all."). A warning about what may come says nothing failed. */
int hlog__ew_foretold(struct pspan m, size_t at, size_t len)
{
	(void)len;
	static const char *const art[] = {"a ", "an "};
	static const char *const verb[] = {"result in ", "lead to ", "cause ",	  "observe ",
					   "see ",	 "encounter ", "experience "};
	static const char *const modal[] = {"could ", "may ", "might ", "can "};
	/* the words that name the failure may come between ("you may encounter an out-of-memory
	 * (OOM) error"): up to three, in the same clause */
	for (int words = 0; words <= 3; words++) {
		size_t a = word_before(m, at, art, 2), p = a != (size_t)-1 ? a : at;
		if ((p = word_before(m, p, verb, 7)) != (size_t)-1 &&
		    (p = word_before(m, p, modal, 4)) != (size_t)-1)
			return p == 0 || !isalpha((unsigned char)m.s[p - 1]);
		while (at && m.s[at - 1] == ' ')
			at--;
		size_t w = at;
		while (at && m.s[at - 1] != ' ' && !strchr(".,;:!?", m.s[at - 1]))
			at--;
		if (at == w || (at && m.s[at - 1] != ' '))
			return 0;
	}
	return 0;
}

/* Whether the line is a heading, the word at m[at..at+len) one of its names: a table's, of
 * words of letters only, at least four, set apart by runs of two or more blanks (NCCL RAS's
 * "Group     Comms     Nodes     Ranks     Ranks     Ranks    Status  Errors"), or a
 * section's: the plural word alone on its line (the same report's "Errors" over "======",
 * the section that lists them, which is empty when there are none), or a few words that end
 * with it or with the word for its tally (nvidia-smi -q's "ECC Errors" over its counters,
 * dcgmi's "| NVLINK Error Counts |" in its box). What a heading names is what the lines under
 * it count, each judged on its own. */
static const char *const tally_words[] = {"count", "counts", "counter", "counters", "summary",
					  "statistics"};

/* words that make a few words a statement ("Too Many Errors", "Fatal Errors"), not a title */
static const char *const claim_words[] = {"too", "many", "multiple", "several", "some", "more",
					  "fatal", "critical"};

static int word_in(const char *const *list, size_t nl, const char *s, size_t n)
{
	for (size_t k = 0; k < nl; k++)
		if (strlen(list[k]) == n && !strncasecmp(s, list[k], n))
			return 1;
	return 0;
}

int hlog__ew_column_heading(struct pspan m, size_t at, size_t len)
{
	size_t i = 0, e = m.n, words = 0, gaps = 0, after = 0, tally = 0, claim = 0;
	while (e && (ew_blank(m.s[e - 1]) || m.s[e - 1] == '\r'))
		e--;
	while (i < e && ew_blank(m.s[i]))
		i++;
	int box = i < e && m.s[i] == '|';
	if (box) { /* a box's row: its borders are the table's, not the heading's */
		for (i++; i < e && ew_blank(m.s[i]); i++)
			;
		if (e > i && m.s[e - 1] == '|')
			e--;
		while (e > i && ew_blank(m.s[e - 1]))
			e--;
	}
	while (i < e) {
		size_t w = i;
		while (i < e && isalpha((unsigned char)m.s[i]))
			i++;
		if (i == w)
			return 0; /* a digit, a mark: a row or a sentence, not a heading */
		words++;
		if (w > at) {
			after++;
			tally += word_in(tally_words, sizeof(tally_words) / sizeof(tally_words[0]),
					 m.s + w, i - w);
		}
		claim |= word_in(claim_words, sizeof(claim_words) / sizeof(claim_words[0]), m.s + w,
				 i - w);
		size_t b = i;
		while (i < e && (ew_blank(m.s[i]) || m.s[i] == '\r'))
			i++;
		gaps += i < e && i - b >= 2;
	}
	int plural = len > 1 && (m.s[at + len - 1] == 's' || m.s[at + len - 1] == 'S');
	return (words >= 4 && gaps + 1 >= words && !box) || (words == 1 && plural) ||
	       (words <= 4 && !claim && ((!after && plural) || (after && tally == after)));
}

/* Whether the line is mkdir's answer for a directory that is there already ("mkdir: cannot
 * create directory 'logs': File exists"): a job script's mkdir without -p run again, the
 * directory it wants in place. */
int hlog__ew_dir_exists(struct pspan m, size_t at, size_t len)
{
	(void)at;
	(void)len;
	size_t n = m.n;
	while (n && (ew_blank(m.s[n - 1]) || m.s[n - 1] == '\r'))
		n--;
	return hlog__has(m, "mkdir") && n >= 11 && !memcmp(m.s + n - 11, "File exists", 11);
}

/* Whether the sentence around m[at..at+len) gives a setting's state as its reason ("since X is
 * enabled", "because Y is disabled"): a feature left unused by a choice the user made, said
 * and gone on from. vLLM's "To see benefits of async output processing, enable CUDA graph.
 * Since, enforce-eager is enabled, async output processor cannot be used" (not a reason that
 * is itself a failure: "since the store is unreachable, ... cannot be used"). */
int hlog__ew_setting_chosen(struct pspan m, size_t at, size_t len)
{
	static const char *const why[] = {"since", "because"};
	static const char *const state[] = {" is enabled", " is disabled", " are enabled",
					    " are disabled", " is set", " is not set"};
	size_t b = at;
	while (b && !((m.s[b - 1] == '.' || m.s[b - 1] == '!' || m.s[b - 1] == '?') &&
		      b < m.n && ew_blank(m.s[b])))
		b--;
	size_t e = hlog__ew_sentence_end(m, at + len);
	for (size_t i = b; i < e; i++) {
		if (i && hlog__word_char(m.s[i - 1]))
			continue;
		for (size_t w = 0; w < sizeof(why) / sizeof(why[0]); w++) {
			size_t k = strlen(why[w]);
			if (e - i <= k || strncasecmp(m.s + i, why[w], k) || hlog__word_char(m.s[i + k]))
				continue;
			/* the reason's clause: after the word (and a comma right after it, "Since,
			 * X is enabled"), up to the next ',' or ';' or the error words */
			size_t c0 = i + k;
			while (c0 < e && (ew_blank(m.s[c0]) || m.s[c0] == ','))
				c0++;
			size_t c = c0;
			while (c < e && m.s[c] != ',' && m.s[c] != ';' && c != at)
				c++;
			struct pspan cl = {m.s + c0 - 1, c - c0 + 1}; /* its blank before: " is" */
			for (size_t t = 0; t < sizeof(state) / sizeof(state[0]); t++) {
				const char *f = hlog__find(cl, state[t]);
				size_t after = f ? (size_t)(f - m.s) + strlen(state[t]) : 0;
				if (f && (after == m.n || !hlog__word_char(m.s[after])))
					return 1;
			}
		}
	}
	return 0;
}

/* Whether "Warning:" at m[at..] closes a class's name written in CamelCase: an upper-case
 * letter, then lower-case letters and more words of the same kind ("UserWarning",
 * "PendingDeprecationWarning"), the name starting a word. */
int hlog__ew_warning_class(struct pspan m, size_t at, size_t len)
{
	(void)len;
	size_t b = at;
	while (b && isalpha((unsigned char)m.s[b - 1]))
		b--;
	if (at - b < 3 || (b && hlog__word_char(m.s[b - 1])) || !isupper((unsigned char)m.s[b]))
		return 0;
	for (size_t i = b + 1; i < at; i++)
		if (isupper((unsigned char)m.s[i]) && isupper((unsigned char)m.s[i - 1]))
			return 0; /* not a name in capitals ("NCCLWarning") */
	return islower((unsigned char)m.s[at - 1]);
}

/* Whether the form at m[at..] opens a sentence that follows another on the line (". " before
 * it): Slurm's "... with the number of requested nodes 16. Ignoring --ntasks-per-node." */
/* Whether the call at m[at..) opens the line, alone or as "warnings.warn(": the source line
 * Python's warnings module prints under a warning ("      warn(\"Couldn't find ffmpeg or
 * avconv - defaulting to ffmpeg, but may not work\", RuntimeWarning)"), code that warns. */
int hlog__ew_warn_call(struct pspan m, size_t at, size_t len)
{
	(void)len;
	static const char mod[] = "warnings.";
	size_t b = at >= sizeof(mod) - 1 && !memcmp(m.s + at - (sizeof(mod) - 1), mod, sizeof(mod) - 1)
			   ? at - (sizeof(mod) - 1)
			   : at;
	for (size_t i = 0; i < b; i++)
		if (!ew_blank(m.s[i]))
			return 0;
	return 1;
}

int hlog__ew_sentence_start(struct pspan m, size_t at, size_t len)
{
	(void)len;
	return at >= 2 && m.s[at - 1] == ' ' && m.s[at - 2] == '.';
}

/* Whether the word at m[at..at+len) heads a label: one more word right after it, then the
 * label's colon ("Evicted Pages: 3720495"), the word an adjective of the label's noun. */
int hlog__ew_label_head(struct pspan m, size_t at, size_t len)
{
	size_t i = at + len;
	if (i >= m.n || m.s[i] != ' ')
		return 0;
	size_t w = ++i;
	while (i < m.n && isalpha((unsigned char)m.s[i]))
		i++;
	return i > w && i < m.n && m.s[i] == ':';
}

/* Where the sentence that goes on at m.s[from] ends: its '.', '!' or '?' with a blank or the
 * line's end after it ("0.9", "get_accelerator().empty_cache()" go on), else the line's end. */
size_t hlog__ew_sentence_end(struct pspan m, size_t from)
{
	for (size_t i = from; i < m.n; i++)
		if ((m.s[i] == '.' || m.s[i] == '!' || m.s[i] == '?') &&
		    (i + 1 == m.n || ew_blank(m.s[i + 1]) || m.s[i + 1] == '\r'))
			return i;
	return m.n;
}

/* Whether the sentence opened by a condition at m[at..at+len) ("If ") is advice: the condition
 * starts a sentence (the line's, or one after '.', '!', '?', ':' or a bracket's end) and the
 * sentence asks the reader to do something (check, try, consider, set, you can ...). Ray's
 * banner "If connection to the dashboard fails, check your firewall settings and network
 * configuration."; DeepSpeed's "... If you are unable to make the cache flushes go away
 * consider adding get_accelerator().empty_cache() calls ...". A condition says what might
 * fail, not what did; the words before it in the line are not the condition's. */
int hlog__ew_advice_if(struct pspan m, size_t at, size_t len)
{
	static const char *const asks[] = {
	    "check ",	"try ",	   "make sure ", "ensure ",	"verify ",   "see ",
	    "please ",	"set ",	   "use ",	 "run ",	"consider ", "increase ",
	    "contact ", "refer ",  "read ",	 "restart ",	"rerun ",    "you can ",
	    "you may ", "you should ", "you might ", "you need to ", "you will need to "};
	size_t b = at;
	while (b && ew_blank(m.s[b - 1]))
		b--;
	if (b && (!m.s[b - 1] || !strchr(".!?:]", m.s[b - 1])))
		return 0;
	size_t e = hlog__ew_sentence_end(m, at + len);
	for (size_t c = at + len; c < e; c++) {
		if (!ew_blank(m.s[c - 1]) && m.s[c - 1] != ',')
			continue; /* a word's start only */
		for (size_t k = 0; k < sizeof(asks) / sizeof(asks[0]); k++)
			if (e - c >= strlen(asks[k]) && !strncasecmp(m.s + c, asks[k], strlen(asks[k])))
				return 1;
	}
	return 0;
}

/* Whether what failed at m[at..at+len) is working out a statistic of the run: the sentence
 * names a figure and its calculation. NeMo's "[NeMo E 2025-06-23 18:03:16 nemo_logging:417]
 * Failed to calculate TFLOPs per sec per GPU." and the reason it prints under it, "'Failed to
 * extract valid model name from or missing FLOPs calculations for qwen3_30b'" (its
 * performance callback, which then prints "TFLOPs per sec per GPU=-1.00" while the steps go
 * on). A figure the run reports about itself, not one it needs; a figure missed without a
 * calculation ("Failed to reach the expected throughput") is a check that failed. */
int hlog__ew_statistic(struct pspan m, size_t at, size_t len)
{
	/* ("per sec" covers "per second") */
	static const char *const stats[] = {"flops", "mfu", "throughput", "per sec", "tokens/s",
					    "samples/s"};
	static const char *const calc[] = {"calculat", "comput", "estimat"};
	size_t e = hlog__ew_sentence_end(m, at + len);
	struct pspan rest = {m.s + at + len, e - (at + len)};
	int stat = 0, how = 0;
	for (size_t k = 0; k < sizeof(stats) / sizeof(stats[0]) && !stat; k++)
		stat = hlog__find_nocase(rest, stats[k]) != NULL;
	for (size_t k = 0; k < sizeof(calc) / sizeof(calc[0]) && !how; k++)
		how = hlog__find_nocase(rest, calc[k]) != NULL;
	return stat && how;
}
