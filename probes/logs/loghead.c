/* The head of a line before its message, none of it a prefix of its own: the level words a
 * logger writes (whole or by initial) and the labels a job's runner or a viewer puts first.
 * Read by logline.c's prefix passes (see logline.h); each label reader takes its label off *m
 * and returns 1, or leaves m and returns 0. */
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "probes/logs/logline.h"
#include "probes/logs/loghead.h"
#include "probes/logs/logtext.h"

/* LV: a row with its word's length, measured once (a strlen per row per line was 1 % of
 * judging a log) */
#define LV(w, l) {w, sizeof(w) - 1, l}
static const struct {
	const char *word;
	size_t n;
	int level;
} levels[] = {
	LV("ERROR", HLINE_ERROR),    LV("FATAL", HLINE_ERROR), LV("CRITICAL", HLINE_ERROR),
	LV("EXCEPTION", HLINE_ERROR), LV("WARNING", HLINE_WARN), LV("WARN", HLINE_WARN),
	LV("INFO", HLINE_INFO),	     LV("EVENT", HLINE_INFO),  LV("NOTICE", HLINE_INFO),
	LV("DEBUG", HLINE_DEBUG),    LV("TRACE", HLINE_DEBUG),
	/* UCX's level between WARN and INFO, a diagnostic the library goes on from: "vfs_sock.c:63
	 * UCX  DIAG  failed to create directory '/run/user/0/ucx': No such file or directory" */
	LV("DIAG", HLINE_INFO),
	/* the short forms of C libraries' own loggers: BKCL's "[4288][ERR][BKCL]", "[DBG]" */
	LV("ERR", HLINE_ERROR),	     LV("WRN", HLINE_WARN),    LV("DBG", HLINE_DEBUG),
};
#undef LV

/* A level word of exactly m.s[0..n), any case; HLINE_NONE when it is none. */
int hlog__level_word(const char *s, size_t n)
{
	for (size_t i = 0; i < sizeof(levels) / sizeof(levels[0]); i++)
		if (levels[i].n == n && !strncasecmp(s, levels[i].word, n))
			return levels[i].level;
	return HLINE_NONE;
}

/* The level a logger writes by its initial (Python's "%(levelname).1s", glog's, Ray's):
 * D, I, W, E or F; HLINE_NONE for any other byte. */
int hlog__initial_level(char c)
{
	switch (c) {
	case 'D':
		return HLINE_DEBUG;
	case 'I':
		return HLINE_INFO;
	case 'W':
		return HLINE_WARN;
	case 'E':
	case 'F':
		return HLINE_ERROR;
	default:
		return HLINE_NONE;
	}
}

/* The length of the name m opens with, a service's or a host's (letters, digits, '_', '-',
 * '.'; 64 at most), and whether it has a lower-case letter. */
static size_t name_len(struct pspan m, int *lower)
{
	size_t i = 0;
	*lower = 0;
	while (i < m.n && i < 64 && (hlog__word_char(m.s[i]) || m.s[i] == '-' || m.s[i] == '.')) {
		*lower |= m.s[i] >= 'a' && m.s[i] <= 'z';
		i++;
	}
	return i;
}

/* Docker Compose's service prefix, the service's name padded with blanks then "| ":
 * "deepseek-v3_2-exp-w8a8 |  File \"/usr/local/.../tp_worker.py\", line 253, in __init__",
 * "web-1  | Traceback (most recent call last):". The name has a lower-case letter and is no
 * level word (loguru's "ERROR    | module:fn:12 - ..." is a level, not a service). */
int hlog__compose_prefix(struct pspan *m)
{
	int lower;
	size_t i = name_len(*m, &lower);
	size_t name = i;
	while (i < m->n && m->s[i] == ' ')
		i++;
	if (!name || !lower || i == name || i + 1 >= m->n || m->s[i] != '|' || m->s[i + 1] != ' ' ||
	    hlog__level_word(m->s, name))
		return 0;
	hlog__skip(m, i + 2);
	return 1;
}

/* A cell of a log viewer's table before the message: empty, or a time stamp (digits with
 * ':' and '-' or '/' among them). */
static int viewer_cell(const char *s, size_t n, int *stamp)
{
	size_t digits = 0, colon = 0, dash = 0;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		if (isdigit((unsigned char)c))
			digits++;
		else if (c == ':')
			colon++;
		else if (c == '-' || c == '/')
			dash++;
		else if (c != ' ' && c != '.' && c != 'T' && c != ',' && c != '+')
			return 0;
	}
	if (!digits)
		return !colon && !dash;
	if (digits < 6 || !colon || !dash)
		return 0;
	*stamp = 1;
	return 1;
}

/* The cells a log viewer's export puts before each message, a time stamp among empty ones:
 * "  |   |   | 2021-11-17 12:30:37 | File \"/usr/local/lib/...\", line 68, in getter". A
 * results table's row ("|  8  |  2 | float |") has no time stamp cell and is left whole. */
int hlog__viewer_cells(struct pspan *m)
{
	size_t i = 0, end = 0;
	int stamp = 0;
	for (;;) {
		const char *bar = memchr(m->s + i, '|', m->n - i);
		if (!bar || !viewer_cell(m->s + i, (size_t)(bar - m->s) - i, &stamp))
			break;
		i = end = (size_t)(bar - m->s) + 1;
	}
	if (!stamp || end >= m->n || m->s[end] != ' ')
		return 0;
	hlog__skip(m, end + 1);
	return 1;
}

/* A host's label before a Python traceback, as pdsh and launchers built on it (DeepSpeed's
 * multi-node runner) tag each line with the host that wrote it: "node2: Traceback (most
 * recent call last):", "node2:   File \"run_clm.py\", line 659, in <module>". Taken only
 * before a traceback's heading or frame, whose own marks say what the line is: a label
 * followed by anything else may be a message's own ("error: ..."). */
int hlog__host_label(struct pspan *m)
{
	int lower;
	size_t i = name_len(*m, &lower);
	if (!i || i + 1 >= m->n || m->s[i] != ':' || m->s[i + 1] != ' ' ||
	    hlog__level_word(m->s, i))
		return 0; /* a level ("ERROR: Traceback ...") is the line's own, for its parser */
	struct pspan t = {m->s + i + 2, m->n - i - 2};
	struct pspan r = probe__trim(t);
	if (!probe__starts(r, "Traceback (most recent call last)") && !probe__starts(r, "File \""))
		return 0;
	*m = t;
	return 1;
}

/* torch elastic's label of a worker's relayed output, its role and local rank ("[default2]:"
 * with --tee or --local-ranks-filter): its length, 0 for none. The local rank is not the
 * rank, which a "[rank2]:" after it states. */
static size_t role_len(struct pspan m)
{
	if (m.n < 5 || m.s[0] != '[')
		return 0;
	size_t a = 1;
	while (a < m.n && a < 33 && ((m.s[a] >= 'a' && m.s[a] <= 'z') || m.s[a] == '_'))
		a++;
	size_t d = a;
	while (d < m.n && d < a + 5 && isdigit((unsigned char)m.s[d]))
		d++;
	return a == 1 || d == a || d + 1 >= m.n || m.s[d] != ']' || m.s[d + 1] != ':' ? 0 : d + 2;
}

int hlog__role_label(struct pspan *m)
{
	size_t k = role_len(*m);
	if (k)
		hlog__skip(m, k);
	return k != 0;
}

/* A job runner's task label that opens a line before a role label ("finetune/0
 * [default2]:[rank2]: ..."): the task's name, '/', its index, a blank. Most lines have no '/'
 * near their start, and the name is not scanned for them. */
int hlog__task_label(struct pspan *m)
{
	const char *sl = memchr(m->s, '/', m->n < 72 ? m->n : 72);
	int lower;
	if (!sl || sl == m->s || name_len(*m, &lower) != (size_t)(sl - m->s))
		return 0;
	size_t i = (size_t)(sl - m->s), d = i + 1;
	while (d < m->n && d < i + 7 && isdigit((unsigned char)m->s[d]))
		d++;
	if (d == i + 1 || d >= m->n || m->s[d] != ' ' ||
	    !role_len((struct pspan){m->s + d + 1, m->n - d - 1}))
		return 0;
	hlog__skip(m, d + 1);
	return 1;
}

/* pytest's mark on the lines of a failure's report, a capital E and its indentation ("E
 * File \"python/ray/_raylet.pyx\", line 501, in ray._raylet.execute_task", "E
 * RuntimeError: ..."): the text after it is the program's, traceback frames among it. The
 * indentation stays, for what it says of the text. */
int hlog__pytest_mark(struct pspan *m)
{
	if (m->n < 5 || m->s[0] != 'E' || m->s[1] != ' ' || m->s[2] != ' ' || m->s[3] != ' ')
		return 0;
	hlog__skip(m, 1);
	return 1;
}
