/* The lines of a stack dump, of a program's usage error and of a file-system table, read by
 * their form alone: a Python frame's function, the collective or wait it is in, a frame of
 * MPICH's error stack, the advice to read a program's help under the command line it
 * refused, and a file system at full use in df's table. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probes/logs/hlogint.h"
#include "probes/logs/logtext.h"

/* The function a Python traceback frame is in ("  File \"x.py\", line 9, in f": "f"), or an
 * empty span when m is no frame. */
struct pspan hlog__frame_function(struct pspan m)
{
	const char *p = hlog__find(m, ", in ");
	if (!p || !hlog__has(m, "File \""))
		return (struct pspan){NULL, 0};
	return probe__trim((struct pspan){p + 5, m.n - (size_t)(p + 5 - m.s)});
}

/* torch.distributed's collectives by their Python names */
static const char *const calls[] = {
	"broadcast_object_list", "all_gather_object", "all_gather_into_tensor",
	"reduce_scatter_tensor", "all_reduce", "all_gather", "reduce_scatter", "all_to_all",
	"broadcast", "barrier", "batch_isend_irecv", "isend", "irecv", "send", "recv",
	"gather", "scatter", "reduce"};

/* calls' entry named name, or NULL */
static const char *collective_named(struct pspan name)
{
	for (size_t i = 0; i < sizeof(calls) / sizeof(calls[0]); i++)
		if (probe__eq(name, calls[i]))
			return calls[i];
	return NULL;
}

/* The collective a Python traceback frame is in ("..., line 2615, in broadcast_object_list"),
 * so that a device-side timeout or a socket timeout can say which call it happened in. */
int hlog__frame_collective(struct pspan m, char *out, size_t len)
{
	struct pspan name = hlog__frame_function(m);
	const char *c = name.s ? collective_named(name) : NULL;
	if (c)
		snprintf(out, len, "%s", c);
	return c != NULL;
}

/* A function whose name says it waits: "wait", "_wait_impl", "barrier", "synchronize" */
static int waits_by_name(struct pspan name)
{
	return hlog__has_nocase(name, "wait") || hlog__has_nocase(name, "barrier") ||
	       hlog__has_nocase(name, "synchroni");
}

/* A py-spy dump's heading of a thread: 'Thread 39 (idle): "MainThread"', 'Thread
 * 0x7F81445A8440 (active+gil): "Thread-2"'. 1: the main thread's, 2: another's, 0: none. */
int hlog__spy_thread(struct pspan m)
{
	struct pspan t = probe__trim(m);
	if (!probe__starts(t, "Thread ") || t.n > 120)
		return 0;
	const char *state = hlog__find(t, " (");
	const char *name = hlog__find(t, "): \"");
	if (!state || !name || name < state || name + 4 > t.s + t.n - 1 || t.s[t.n - 1] != '"')
		return 0;
	for (const char *p = t.s + 7; p < state; p++)
		if (!isxdigit((unsigned char)*p) && *p != 'x')
			return 0;
	struct pspan who = {name + 4, (size_t)(t.s + t.n - 1 - (name + 4))};
	return probe__eq(who, "MainThread") ? 1 : 2;
}

/* The function of a py-spy dump's frame, "    broadcast (torch/distributed/distributed_c10d.py:
 * 1191)", "    ncclAllReduce (collectives.cc:49)", "    sched_yield (libc.so.6)"; an empty
 * span when m is none. */
struct pspan hlog__spy_function(struct pspan m)
{
	struct pspan t = probe__trim(m);
	if (t.n < 4 || t.n > 400 || t.s[t.n - 1] != ')')
		return (struct pspan){NULL, 0};
	size_t i = 0;
	while (i < t.n && (isalnum((unsigned char)t.s[i]) || strchr("_<>.:~", t.s[i])))
		i++;
	if (!i || i + 2 >= t.n || t.s[i] != ' ' || t.s[i + 1] != '(')
		return (struct pspan){NULL, 0};
	for (size_t k = i + 2; k + 1 < t.n; k++)
		if (t.s[k] == ' ' || t.s[k] == '(' || t.s[k] == ')')
			return (struct pspan){NULL, 0};
	return (struct pspan){t.s, i};
}

/* Whether a frame's function is where a blocked process waits: a collective, a wait, or a call
 * into a communication library (NCCL's, RCCL's, HCCL's own functions: "ncclGroupEndInternal") */
int hlog__spy_waits(struct pspan name)
{
	static const char *const libs[] = {"nccl", "rccl", "hccl", "Hccl"};
	const char *own = name.s;
	for (size_t i = name.n; i; i--)
		if (name.s[i - 1] == ':' || name.s[i - 1] == '.') {
			own = name.s + i;
			break;
		}
	struct pspan fn = {own, name.n - (size_t)(own - name.s)};
	for (size_t i = 0; i < sizeof(libs) / sizeof(libs[0]); i++)
		if (probe__starts(fn, libs[i]))
			return 1;
	return collective_named(fn) || probe__eq(fn, "destroy_process_group") ||
	       waits_by_name(fn);
}

/* A py-spy dump lists a thread's frames innermost first: a main thread whose innermost frames
 * are a collective or a wait was blocked there when it was dumped (someone dumped it because
 * it hung), though no line of it is an error ('Thread 27321 (active): "MainThread"', then
 * "    broadcast (torch/distributed/distributed_c10d.py:1555)"). */
enum { SPY_INNERMOST = 8 };

void hlog__spy_line(struct hlog_spy *sp, unsigned no, int rank, struct pspan msg,
		    struct pspan line)
{
	int head = hlog__spy_thread(msg);
	if (head) {
		sp->main = head == 1;
		sp->frames = 0;
		return;
	}
	if (!sp->main)
		return;
	struct pspan fn = hlog__spy_function(msg);
	if (!fn.s) {
		sp->main = 0;
		return;
	}
	if (sp->frames++ < SPY_INNERMOST && !sp->wait_no && hlog__spy_waits(fn)) {
		sp->wait_no = no;
		sp->wait_rank = rank;
		sp->wait_line = line;
	}
}

/* Whether the line is a call to a wait as a stack dump shows its innermost frame: the source line
 * "    ret: W = self._wait_impl()" or the frame '  File "types.py", line 117, in wait' (a
 * function whose name holds "wait", or barrier). */
int hlog__wait_call(struct pspan s)
{
	struct pspan t = probe__trim(s), name = hlog__frame_function(t);
	if (!name.s) {
		/* the last call of the line: the name before its closing group (a comment after
		 * it is no part of the code: "x.wait()  # finish lengths all2all") */
		const char *hash = hlog__find(t, " #");
		if (hash)
			t = probe__trim((struct pspan){t.s, (size_t)(hash - t.s)});
		if (!t.n || t.s[t.n - 1] != ')')
			return 0;
		size_t i = t.n - 1;
		int depth = 0;
		for (;; i--) {
			depth += t.s[i] == ')' ? 1 : t.s[i] == '(' ? -1 : 0;
			if (!depth || !i)
				break;
		}
		if (depth)
			return 0;
		size_t b = i;
		while (b && (isalnum((unsigned char)t.s[b - 1]) || t.s[b - 1] == '_'))
			b--;
		name = (struct pspan){t.s + b, i - b};
	}
	if (!name.n || name.n > 64)
		return 0;
	for (size_t k = 0; k < name.n; k++)
		if (!isalnum((unsigned char)name.s[k]) && name.s[k] != '_')
			return 0;
	return waits_by_name(name);
}

/* A frame of MPICH's error stack, under a line that ends in "error stack:": the function, its
 * line in parentheses, dots and ':' ("MPIDI_UCX_get_local_upids(31): The function is
 * currently not supported with ucx netmod"). 0: none; 1: a frame that says nothing more
 * ("MPID_Open_port(238)..........: "); 2: a frame with its message, the failure as that level
 * saw it (the deepest says why). */
int hlog__stack_frame(struct pspan m)
{
	size_t i = 0;
	while (i < m.n && i < 64 && (hlog__word_char(m.s[i]) || m.s[i] == '.'))
		i++;
	if (!i || i >= m.n || m.s[i] != '(')
		return 0;
	size_t d = ++i;
	while (i < m.n && m.s[i] >= '0' && m.s[i] <= '9')
		i++;
	if (i == d || i >= m.n || m.s[i] != ')')
		return 0;
	for (i++; i < m.n && m.s[i] == '.'; i++)
		;
	if (i >= m.n || m.s[i] != ':')
		return 0;
	for (i++; i < m.n && (m.s[i] == ' ' || m.s[i] == '\t'); i++)
		;
	return i < m.n ? 2 : 1;
}

/* A program's advice to read its help after it refused its command line: CLI11's "Run with
 * --help for more information.", GNU getopt's "Try 'cp --help' for more information.", clap's
 * "For more information, try '--help'." */
int hlog__help_advice(struct pspan msg)
{
	static const char *const leads[] = {"Try ", "Run ", "See ", "For more information"};
	struct pspan m = probe__trim(msg);
	if (m.n > 80)
		return 0;
	/* every line of a log passes here: its first word rules most out before any search */
	for (size_t i = 0; i < sizeof(leads) / sizeof(leads[0]); i++)
		if (probe__starts(m, leads[i]))
			return hlog__has_nocase(m, "--help") && hlog__has_nocase(m, "more information");
	return 0;
}

/* df's heading, of blocks or of inodes: "Filesystem      Size  Used Avail Use% Mounted on",
 * "Filesystem      Inodes IUsed IFree IUse% Mounted on". */
int hlog__fs_table_heading(struct pspan msg)
{
	struct pspan m = probe__trim(msg);
	return probe__starts(m, "Filesystem") && m.n >= 15 &&
	       !memcmp(m.s + m.n - 15, "Use% Mounted on", 15);
}

/* A line of df's table below its heading: 0 when it is none (the table ended), 1 a row, 2 a
 * row whose file system is full. The use and the mount point are the last two fields, counted
 * from the end because a long device name wraps onto a line of its own ("/dev/mapper/vg-root"
 * over "  50G  50G  0 100% /"), which also belongs to the table. A read-only image is always
 * at full use and full of nothing it needs: a snap's squashfs, "/dev/loop3  64M  64M  0 100%
 * /snap/core20/2318". */
int hlog__fs_table_row(struct pspan msg)
{
	struct pspan rest = msg, w, first = {NULL, 0}, use = {NULL, 0}, mount = {NULL, 0};
	size_t n = 0;
	while (probe__next_word(&rest, &w, NULL)) {
		if (!n++)
			first = w;
		use = mount;
		mount = w;
	}
	if (n == 1)
		return 1;
	if (n < 2 || mount.s[0] != '/' || use.s[use.n - 1] != '%')
		return 0;
	for (size_t i = 0; i + 1 < use.n; i++)
		if (!isdigit((unsigned char)use.s[i]))
			return 0;
	if (!probe__eq(use, "100%"))
		return 1;
	if (probe__starts(first, "/dev/loop") || probe__starts(mount, "/snap/"))
		return 1;
	return 2;
}

/* A heading is a line of column names set apart by runs of blanks, as a program aligns its
 * table ("#       size  count  type ... busbw  #wrong"), not prose that uses the word: at least
 * four names, none a number, three or more gaps of two blanks or more. A lone "#" before them
 * marks the line as a comment of the program's, not a column. */
int hlog__wrong_heading(struct pspan msg, struct hlog_wrong_cols *t)
{
	struct pspan rest = msg, w, m = probe__trim(msg);
	unsigned n = 0, gaps = 0;
	unsigned long mask = 0;
	const char *end = NULL;
	t->n = 0;
	if (m.n < 16) /* the scan asks only of lines the automaton saw a column's name in */
		return 0;
	while (probe__next_word(&rest, &w, NULL)) {
		if (end && w.s - end >= 2)
			gaps++;
		end = w.s + w.n;
		if (!n && !mask && probe__eq(w, "#") && w.s == probe__trim(msg).s)
			continue;
		if (isdigit((unsigned char)w.s[0]) || w.s[0] == '-' || n >= 8 * sizeof(mask))
			return 0;
		struct pspan name = w;
		if (name.s[0] == '#') {
			name.s++;
			name.n--;
		}
		if (probe__eq(name, "wrong") || probe__eq(name, "error") || probe__eq(name, "errors"))
			mask |= 1UL << n;
		n++;
	}
	if (n < 4 || gaps < 3 || !mask)
		return 0;
	t->n = n;
	t->mask = mask;
	return 1;
}

/* A row has a number first and as many fields as the heading has columns; what a column of
 * wrong values holds is a count ("0", "404221") or the largest error seen ("5e-07"): one or
 * more is wrong data, less is rounding. "N/A" (not checked) is nothing. */
int hlog__wrong_row(struct pspan msg, const struct hlog_wrong_cols *t)
{
	struct pspan rest = msg, w, m = probe__trim(msg);
	if (!m.n || m.s[0] == '#')
		return 1;
	if (!isdigit((unsigned char)m.s[0]))
		return 0;
	unsigned i = 0;
	int wrong = 0;
	while (probe__next_word(&rest, &w, NULL)) {
		if (i >= t->n)
			return 0;
		if ((t->mask >> i++ & 1) && isdigit((unsigned char)w.s[0]) && w.n < 32) {
			char cell[32];
			memcpy(cell, w.s, w.n);
			cell[w.n] = 0;
			wrong |= strtod(cell, NULL) >= 1.0;
		}
	}
	return i != t->n ? 0 : wrong ? 2 : 1;
}
