/* Screen and plog line prefixes: see logline.h. Each prefix form is recognised by its shape
 * alone (brackets, the position of "pid=", a level word before a date), never by the tool's
 * name, so that a launcher we have not seen that uses one of the common shapes still reads. */
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "probes/logs/catalog.h"
#include "probes/logs/logline.h"
#include "probes/logs/loghead.h"
#include "probes/logs/logtext.h"

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int is_alnum(char c)
{
	return is_digit(c) || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}

static size_t spaces(struct pspan m)
{
	size_t i = 0;
	while (i < m.n && (m.s[i] == ' ' || m.s[i] == '\t'))
		i++;
	return i;
}

/* Digits at m.s[i..]: their count, the value in *v (up to 9 digits). */
static size_t num(struct pspan m, size_t i, long *v)
{
	size_t b = i;
	long x = 0;
	while (i < m.n && i - b < 9 && is_digit(m.s[i]))
		x = x * 10 + (m.s[i++] - '0');
	*v = x;
	return i - b;
}

int hlog__code_token(struct pspan m, int *len)
{
	for (size_t i = 0; i + 6 <= m.n; i++) {
		/* to the next 'E' at once: every line is read here, most have few (a byte at a
		 * time was 5 % of judging a log) */
		const char *e = memchr(m.s + i, 'E', m.n - 5 - i);
		if (!e)
			break;
		i = (size_t)(e - m.s);
		if (i && is_alnum(m.s[i - 1]))
			continue;
		size_t k = 0;
		if (i + 8 <= m.n && !memcmp(m.s + i, "ERR", 3)) {
			k = 3;
			while (k < 8 && is_digit(m.s[i + k]))
				k++;
			if (k != 8)
				k = 0;
		}
		if (!k && ((m.s[i + 1] >= 'A' && m.s[i + 1] <= 'Z') ||
			   (m.s[i + 1] >= '1' && m.s[i + 1] <= '9'))) {
			k = 2;
			while (k < 6 && is_digit(m.s[i + k]))
				k++;
			if (k != 6)
				k = 0;
		}
		if (k && (i + k == m.n || !is_alnum(m.s[i + k]))) {
			*len = (int)k;
			return (int)i;
		}
	}
	*len = 0;
	return -1;
}

/* "YYYY-MM-DD hh:mm:ss" (or 'T' between), optionally ",mmm" / ".mmm[uuu]": its length. */
static size_t iso_time(struct pspan m, int64_t *t)
{
	static const char shape[] = "dddd-dd-dd?dd:dd:dd";
	size_t n = sizeof(shape) - 1;
	if (m.n < n)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (shape[i] == 'd' ? !is_digit(m.s[i])
				    : shape[i] == '?' ? m.s[i] != ' ' && m.s[i] != 'T'
						      : m.s[i] != shape[i])
			return 0;
	int y = (m.s[0] - '0') * 1000 + (m.s[1] - '0') * 100 + (m.s[2] - '0') * 10 + m.s[3] - '0';
	int mo = (m.s[5] - '0') * 10 + m.s[6] - '0', d = (m.s[8] - '0') * 10 + m.s[9] - '0';
	int h = (m.s[11] - '0') * 10 + m.s[12] - '0', mi = (m.s[14] - '0') * 10 + m.s[15] - '0';
	int se = (m.s[17] - '0') * 10 + m.s[18] - '0';
	if (y < 1970 || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || se > 60)
		return 0;
	long frac = 0;
	size_t k = n, fd = 0;
	if (k < m.n && (m.s[k] == ',' || m.s[k] == '.') && k + 1 < m.n && is_digit(m.s[k + 1])) {
		fd = num(m, k + 1, &frac);
		k += 1 + fd;
	}
	while (fd < 6) {
		frac *= 10;
		fd++;
	}
	while (fd-- > 6)
		frac /= 10;
	*t = ((hlog__days(y, mo, d) * 86400 + h * 3600 + mi * 60 + se) * 1000000) + frac;
	return k;
}

/* C's ctime() form, which mpirun --timestamp-output puts before its own prefix: "Wed Jun 26
 * 22:35:41 2019[1,273]<stderr>:..." (the day may be padded with a space: "Jun  6"). */
static int ctime_prefix(struct pspan *m, struct hlog_line *l)
{
	static const char months[] = "JanFebMarAprMayJunJulAugSepOctNovDec";
	if (m->n < 24 || m->s[3] != ' ' || m->s[7] != ' ' || !(m->s[0] >= 'A' && m->s[0] <= 'Z') ||
	    !(m->s[4] >= 'A' && m->s[4] <= 'Z'))
		return 0;
	int mo = 0;
	while (mo < 12 && memcmp(months + 3 * mo, m->s + 4, 3))
		mo++;
	size_t i = 8 + (m->s[8] == ' ');
	long d, h, mi, se, y;
	size_t k = num(*m, i, &d);
	if (mo == 12 || !k || k > 2 || i + k >= m->n || m->s[i + k] != ' ')
		return 0;
	i += k + 1;
	if (m->n - i < 13 || num(*m, i, &h) != 2 || m->s[i + 2] != ':' ||
	    num(*m, i + 3, &mi) != 2 || m->s[i + 5] != ':' || num(*m, i + 6, &se) != 2 ||
	    m->s[i + 8] != ' ' || num(*m, i + 9, &y) != 4)
		return 0;
	if (d < 1 || d > 31 || h > 23 || mi > 59 || se > 60 || y < 1970)
		return 0;
	l->t_us = ((hlog__days((int)y, mo + 1, (int)d) * 86400 + h * 3600 + mi * 60 + se) *
		   1000000);
	hlog__skip(m, i + 13);
	return 1;
}

/* "[rank3]:" "[Rank 3]:" (torch's per-rank prefix), Open MPI's "[1,3]<stderr>:" and
 * horovodrun's "[3]<stderr>:". */
static int rank_prefix(struct pspan *m, struct hlog_line *l)
{
	if (m->n < 4 || m->s[0] != '[')
		return 0;
	struct pspan t = {m->s + 1, m->n - 1};
	long v;
	size_t k;
	if (t.n > 4 && !strncasecmp(t.s, "rank", 4)) {
		size_t i = 4 + (t.n > 4 && t.s[4] == ' ');
		k = num(t, i, &v);
		if (!k || i + k >= t.n || t.s[i + k] != ']')
			return 0;
		size_t end = 1 + i + k + 1;
		if (end < m->n && m->s[end] == ':')
			end++;
		l->rank = (int)v;
		hlog__skip(m, end);
		return 1;
	}
	size_t a = num(t, 0, &v);
	/* horovodrun's "[13]<stderr>:": the rank alone, no job id */
	if (a && a + 10 <= t.n && t.s[a] == ']' &&
	    (probe__starts((struct pspan){t.s + a + 1, t.n - a - 1}, "<stderr>:") ||
	     probe__starts((struct pspan){t.s + a + 1, t.n - a - 1}, "<stdout>:"))) {
		l->rank = (int)v;
		hlog__skip(m, 1 + a + 1 + 9);
		return 1;
	}
	if (!a || a >= t.n || t.s[a] != ',')
		return 0;
	k = num(t, a + 1, &v);
	if (!k || a + 1 + k >= t.n || t.s[a + 1 + k] != ']')
		return 0;
	struct pspan rest = {t.s + a + 2 + k, t.n - a - 2 - k};
	size_t end = 1 + a + 2 + k;
	if (probe__starts(rest, "<stderr>:") || probe__starts(rest, "<stdout>:"))
		end += 9;
	else if (!probe__starts(rest, ":"))
		return 0;
	else
		end++;
	l->rank = (int)v;
	hlog__skip(m, end);
	return 1;
}

/* Slurm's "srun -l" label, the task's rank before each line it relays ("0: <0-7,64-71> is
 * invalid", " 12: ..."). Not the index of ip(8)'s interface list, "2: eth0: <BROADCAST,...>
 * mtu 1500 ... state DOWN", whose name and flags follow. */
static int srun_label(struct pspan *m, struct hlog_line *l)
{
	long v;
	size_t k = num(*m, 0, &v);
	if (!k || k > 5 || k + 1 >= m->n || m->s[k] != ':' || m->s[k + 1] != ' ')
		return 0;
	size_t w = k + 2;
	while (w < m->n && (hlog__word_char(m->s[w]) || m->s[w] == '.' || m->s[w] == '-' ||
			    m->s[w] == '@'))
		w++;
	if (w > k + 2 && w + 2 < m->n && m->s[w] == ':' && m->s[w + 1] == ' ' && m->s[w + 2] == '<')
		return 0;
	hlog__skip(m, k + 2);
	/* the step's daemon writes through a task's stream: "0: slurmstepd: error: Detected 1
	 * oom_kill event in StepId=..." is of the step, whichever task relays it */
	if (probe__starts(*m, "slurmstepd"))
		return 1;
	l->rank = (int)v;
	l->rank_label = 1;
	return 1;
}

/* grep's "debug/plog/plog-3003627_20260205184335411.log:14:" (grep -rn) or "run/plog/x.log:"
 * (grep -r) before a line a user searched for: a path without spaces (a '/' in it, or a name
 * ending in ".log", ".txt" or ".out", which a time stamp or host name does not have: grep
 * over NCCL's per-rank files, "LOG1.0.txt:learnfair062:32615:32615 [0] NCCL INFO ...") and an
 * optional line number. */
static int grep_prefix(struct pspan *m, struct hlog_line *l)
{
	(void)l;
	size_t lim = m->n < 512 ? m->n : 512, i = 0;
	int slash = 0;
	while (i < lim && m->s[i] != ':' && m->s[i] != ' ' && m->s[i] != '\t' && m->s[i] != '[' &&
	       m->s[i] != '(') {
		slash |= m->s[i] == '/';
		i++;
	}
	if (!i || i >= lim || m->s[i] != ':')
		return 0;
	if (!slash && !(i > 4 && (!memcmp(m->s + i - 4, ".log", 4) ||
				  !memcmp(m->s + i - 4, ".txt", 4) ||
				  !memcmp(m->s + i - 4, ".out", 4))))
		return 0;
	size_t k = i + 1, d = k;
	while (d < m->n && is_digit(m->s[d]))
		d++;
	if (d > k && (d >= m->n || m->s[d] != ':'))
		return 0; /* "file.cc:64 ...": a source place, not grep's line number */
	if (d > k)
		k = d + 1;
	if (k >= m->n || m->s[k] == '/')
		return 0; /* "http://" and the like, or nothing after it */
	hlog__skip(m, k);
	return 1;
}

/* "(VllmWorker TP3 pid=2322) " "(EngineCore_DP0 pid=106187) " "(RayWorker pid=5, ip=...) ":
 * a parenthesised process name whose inside carries "pid=". */
static int proc_prefix(struct pspan *m, struct hlog_line *l)
{
	if (!m->n || m->s[0] != '(')
		return 0;
	size_t lim = m->n < 160 ? m->n : 160;
	const char *close = memchr(m->s, ')', lim);
	if (!close)
		return 0;
	struct pspan in = {m->s + 1, (size_t)(close - m->s) - 1};
	struct pspan p = hlog__after(in, "pid=");
	long long v;
	if (!p.s || !hlog__num_at(p, &v))
		return 0;
	/* the wrapper's pid is the launcher's worker; a pid the message itself gives (torch_npu's
	 * "(PID:n, ...)", CANN's "[PID: n]") is the process that logged, and wins */
	if (v > 0 && v < 0x7fffffff)
		l->wrap_pid = (int)v;
	hlog__skip(m, (size_t)(close - m->s) + 1);
	return 1;
}

/* vLLM's "ERROR 09-04 10:11:12 [file.py:123] " (level, month-day, time, place). */
static int vllm_prefix(struct pspan *m, struct hlog_line *l)
{
	size_t w = 0;
	while (w < m->n && w < 10 && m->s[w] >= 'A' && m->s[w] <= 'Z')
		w++;
	int lv = w ? hlog__level_word(m->s, w) : HLINE_NONE;
	if (!lv || w + 15 > m->n || m->s[w] != ' ')
		return 0;
	static const char shape[] = "dd-dd dd:dd:dd";
	const char *s = m->s + w + 1;
	for (size_t i = 0; i < sizeof(shape) - 1; i++)
		if (shape[i] == 'd' ? !is_digit(s[i]) : s[i] != shape[i])
			return 0;
	size_t end = w + 1 + sizeof(shape) - 1;
	/* optional ".mmm" and " [file:line]" */
	while (end < m->n && (is_digit(m->s[end]) || m->s[end] == '.' || m->s[end] == ','))
		end++;
	struct pspan rest = {m->s + end, m->n - end};
	size_t sp = spaces(rest);
	/* "[file.py:123]", or older releases' "file.py:123]" */
	const char *close = memchr(rest.s + sp, ']', rest.n - sp < 120 ? rest.n - sp : 120);
	if (sp < rest.n && close) {
		struct pspan place = {rest.s + sp, (size_t)(close - rest.s) - sp};
		if (place.s[0] == '[' ||
		    (memchr(place.s, ':', place.n) && !memchr(place.s, ' ', place.n)))
			end += (size_t)(close - rest.s) + 1;
	}
	l->level = lv;
	hlog__skip(m, end);
	return 1;
}

/* The level's initial and the process and thread after the time inside the bracket, as Ray's
 * C++ core writes them: "[2025-03-09 13:44:58,420 E 11099 11160] core_worker.h:1564: ...".
 * t is the bracket's inside, the time k long; takes the whole bracket off m. */
static int ray_fields(struct pspan t, size_t k, struct pspan *m, struct hlog_line *l)
{
	if (k + 3 >= t.n || t.s[k] != ' ' || !hlog__initial_level(t.s[k + 1]) || t.s[k + 2] != ' ')
		return 0;
	size_t i = k + 3;
	while (i < t.n && i < k + 40 && (is_digit(t.s[i]) || t.s[i] == ' '))
		i++;
	if (i == k + 3 || i >= t.n || t.s[i] != ']')
		return 0;
	l->level = hlog__initial_level(t.s[k + 1]);
	hlog__skip(m, i + 2);
	return 1;
}

/* Python logging: "2024-10-21 10:42:00,218 - name - ERROR - file.py:489 - msg",
 * "[2024-05-21 11:58:06,441] name: [WARNING] msg", "2024-05-21 11:58:06 ERROR msg". */
static int pylog_prefix(struct pspan *m, struct hlog_line *l)
{
	int br = m->n && m->s[0] == '[';
	struct pspan t = {m->s + br, m->n - (size_t)br};
	int64_t when;
	size_t k = iso_time(t, &when);
	if (k && br && ray_fields(t, k, m, l)) {
		l->t_us = when;
		return 1;
	}
	if (!k || (br && (k >= t.n || t.s[k] != ']')))
		return 0;
	size_t end = (size_t)br + k + (size_t)br;
	l->t_us = when;
	struct pspan rest = {m->s + end, m->n - end};
	size_t lim = rest.n < 120 ? rest.n : 120;
	/* the level: " - LEVEL - ", "[LEVEL]" or a bare level word first */
	for (size_t i = 0; i + 2 < lim; i++) {
		size_t a = 0, b = 0, after = 0;
		if (rest.s[i] == '-' && i + 1 < lim && rest.s[i + 1] == ' ') {
			a = i + 2;
			for (b = a; b < lim && rest.s[b] >= 'A' && rest.s[b] <= 'Z'; b++)
				;
			if (b + 2 < rest.n && rest.s[b] == ' ' && rest.s[b + 1] == '-' &&
			    rest.s[b + 2] == ' ')
				after = b + 3;
		} else if (rest.s[i] == '[') {
			/* MindIE writes "[error]" in lower case */
			a = i + 1;
			for (b = a; b < lim && ((rest.s[b] >= 'A' && rest.s[b] <= 'Z') ||
						(rest.s[b] >= 'a' && rest.s[b] <= 'z'));
			     b++)
				;
			if (b < rest.n && rest.s[b] == ']')
				after = b + 1;
		}
		int lv = after && b > a ? hlog__level_word(rest.s + a, b - a) : HLINE_NONE;
		if (lv) {
			l->level = lv;
			struct pspan r2 = {rest.s + after, rest.n - after};
			/* "file.py:489 - " after the level */
			const char *dash = hlog__find(r2, " - ");
			if (dash && dash - r2.s < 60 && memchr(r2.s, ':', (size_t)(dash - r2.s)) &&
			    !memchr(r2.s, ' ', (size_t)(dash - r2.s)))
				after += (size_t)(dash - r2.s) + 3;
			end += after;
			hlog__skip(m, end);
			return 1;
		}
		if (i == 0) {
			size_t sp = spaces(rest);
			size_t w = sp;
			while (w < lim && rest.s[w] >= 'A' && rest.s[w] <= 'Z')
				w++;
			lv = w > sp ? hlog__level_word(rest.s + sp, w - sp) : HLINE_NONE;
			if (lv && (w == rest.n || rest.s[w] == ' ' || rest.s[w] == ':')) {
				l->level = lv;
				hlog__skip(m, end + w + (w < rest.n));
				return 1;
			}
		}
	}
	hlog__skip(m, end);
	return 1;
}

/* A bracketed level first: plog "[ERROR] HCCL(...)", torch_npu "[ERROR] 2024-05-21-11:57:54
 * (PID:927000, Device:3, RankID:3) ERR02200 ...", torch's "[W file.cpp:51]" / "[E ...]". */
static int level_prefix(struct pspan *m, struct hlog_line *l)
{
	if (m->n < 3 || m->s[0] != '[')
		return 0;
	size_t b = 1;
	while (b < m->n && b < 12 && m->s[b] >= 'A' && m->s[b] <= 'Z')
		b++;
	/* the level by its initial, as Python's logging writes "[%(levelname).1s]": "[2025-09-11
	 * 14:09:46,956945][I][distributed/utils:298:set_pg_timeouts] ..." */
	if (b == 2 && m->n > 3 && m->s[2] == ']' && hlog__initial_level(m->s[1])) {
		l->level = hlog__initial_level(m->s[1]);
		hlog__skip(m, 3);
		return 1;
	}
	if (b < m->n && m->s[b] == ']') {
		int lv = hlog__level_word(m->s + 1, b - 1);
		if (!lv)
			return 0;
		l->level = lv;
		hlog__skip(m, b + 1);
		return 1;
	}
	/* torch's glog form: "[E324 13:00:25.428029551 file.cpp:574]", the level and MMDD */
	size_t d = 2;
	while (b == 2 && d < m->n && d < 6 && m->s[d] >= '0' && m->s[d] <= '9')
		d++;
	if (b == 2 && d < m->n && m->s[d] == ' ' && (d == 2 || d >= 5) && strchr("WEIF", m->s[1])) {
		const char *close = memchr(m->s, ']', m->n < 120 ? m->n : 120);
		if (!close)
			return 0;
		l->level = hlog__initial_level(m->s[1]);
		l->yearless = d >= 5;
		hlog__skip(m, (size_t)(close - m->s) + 1);
		return 1;
	}
	return 0;
}

/* The level word among a run of bracketed fields that opens a line, where no prefix rule knows
 * the fields before it: BKCL's "[23:35:17][host.tjdm][4288][ERR][BKCL][init.cpp:1485] ...". The
 * fields stay in the message. */
static int bracket_run_level(struct pspan m)
{
	size_t i = 0;
	for (int g = 0; g < 8 && i < m.n && m.s[i] == '['; g++) {
		const char *close = memchr(m.s + i, ']', m.n - i < 80 ? m.n - i : 80);
		if (!close)
			break;
		size_t a = i + 1, n = (size_t)(close - m.s) - a;
		int lv = n >= 3 && n <= 8 ? hlog__level_word(m.s + a, n) : HLINE_NONE;
		/* in upper case only: "[Info]" may be a module's name */
		for (size_t k = 0; lv && k < n; k++)
			if (m.s[a + k] < 'A' || m.s[a + k] > 'Z')
				lv = HLINE_NONE;
		if (lv)
			return lv;
		i = (size_t)(close - m.s) + 1;
	}
	return HLINE_NONE;
}

/* glog's own form, without brackets (xLLM, C++ serving engines): "F20251111 12:28:58.504206
 * 214989 collective_service.cpp:37] ", a level letter, the date (YYYYMMDD or MMDD), the time,
 * the thread and the place. */
static int glog_prefix(struct pspan *m, struct hlog_line *l)
{
	if (m->n < 12 || !m->s[0] || !strchr("IWEF", m->s[0]))
		return 0;
	size_t d = 1;
	while (d < m->n && d < 10 && m->s[d] >= '0' && m->s[d] <= '9')
		d++;
	if ((d != 5 && d != 9) || m->s[d] != ' ' || d + 3 >= m->n || m->s[d + 3] != ':')
		return 0;
	const char *close = memchr(m->s, ']', m->n < 120 ? m->n : 120);
	if (!close || close[-1] < '0' || close[-1] > '9')
		return 0;
	l->level = hlog__initial_level(m->s[0]);
	l->yearless = 1;
	hlog__skip(m, (size_t)(close - m->s) + 1);
	return 1;
}

/* A command the shell echoes before it runs it (set -x: "+ python3 -m verl.trainer.main_ppo
 * ... data.truncation=error", "++ hostname"): its words are the command's arguments, a
 * message of no one. */
static int shell_trace(struct pspan m)
{
	size_t i = 0;
	while (i < m.n && i < 8 && m.s[i] == '+')
		i++;
	return i && i + 1 < m.n && m.s[i] == ' ' && m.s[i + 1] != ' ' && m.s[i + 1] != '+';
}

/* The kernel log: dmesg "[ 1234.567890] ", dmesg -T "[Tue Dec  1 09:40:15 2026] ", and
 * syslog / journal "Dec  1 09:40:15 host kernel: ". */
static int kernel_prefix(struct pspan *m, struct hlog_line *l, int kernel_word)
{
	if (m->n > 3 && m->s[0] == '[') {
		const char *close = memchr(m->s, ']', m->n < 40 ? m->n : 40);
		if (!close)
			return 0;
		struct pspan in = {m->s + 1, (size_t)(close - m->s) - 1};
		in = probe__trim(in);
		int stamp = in.n > 2;
		int dot = 0;
		for (size_t i = 0; i < in.n && stamp; i++) {
			dot += in.s[i] == '.';
			stamp = is_digit(in.s[i]) || in.s[i] == '.';
		}
		int human = in.n >= 20 && in.s[3] == ' ' && memchr(in.s, ':', in.n);
		if (!((stamp && dot == 1) || (human && in.s[0] >= 'A' && in.s[0] <= 'Z')))
			return 0;
		l->kernel = 1;
		hlog__skip(m, (size_t)(close - m->s) + 1);
		return 1;
	}
	const char *k = kernel_word && m->n > 16 ? hlog__find((struct pspan){m->s, m->n < 80 ? m->n : 80},
					       " kernel: ")
				  : NULL;
	if (k && m->n > 15 && m->s[3] == ' ' && m->s[0] >= 'A' && m->s[0] <= 'Z' &&
	    memchr(m->s, ':', (size_t)(k - m->s))) {
		l->kernel = 1;
		hlog__skip(m, (size_t)(k - m->s) + 9);
		return 1;
	}
	return 0;
}

/* "[PID: 159] " (CANN's screen form puts it after the code, too). */
static int pid_prefix(struct pspan *m, struct hlog_line *l)
{
	if (!probe__starts(*m, "[PID:"))
		return 0;
	long long v;
	struct pspan a = {m->s + 5, m->n - 5};
	const char *close = memchr(m->s, ']', m->n < 24 ? m->n : 24);
	if (!close || !hlog__num_at(a, &v))
		return 0;
	if (v > 0 && v < 0x7fffffff)
		l->pid = (int)v;
	hlog__skip(m, (size_t)(close - m->s) + 1);
	return 1;
}

/* What the rest of the line says about time, pid, device and rank. */
static void inline_facts(struct pspan m, struct hlog_line *l, const struct hlog_hits *h)
{
	int paren = hlog__hits_may(h, HLOG_HIT_PID_PAREN);
	size_t n = m.n < 200 ? m.n : 200;
	struct pspan head = {m.s, n};
	long long v;
	/* a stamp ("dddd-dd-dd-dd:dd:dd.ddd.ddd") starts at a run of digits 4 bytes before a
	 * '-': only those places are tried, found by memchr (trying every run of digits of
	 * every line was a twentieth of judging a log) */
	for (const char *d = n > 4 ? memchr(m.s + 4, '-', n - 4) : NULL; d && l->t_us < 0;
	     d = memchr(d + 1, '-', (size_t)(m.s + n - d - 1))) {
		size_t i = (size_t)(d - m.s) - 4;
		if (i + 27 > n)
			break;
		if (!is_digit(m.s[i]) || (i && is_digit(m.s[i - 1])))
			continue;
		int64_t t = hlog__stamp_at(m.s + i, n - i);
		if (t >= 0) {
			l->t_us = t;
			head.n = i; /* the pid comes before the time */
		}
	}
	/* torch_npu's "[ERROR] 2024-05-21-11:57:54 (PID:..." has the stamp without its fraction */
	if (l->t_us < 0 && m.n >= 19) {
		char buf[28];
		memcpy(buf, m.s, 19);
		memcpy(buf + 19, ".000.000", 8);
		buf[27] = '\0';
		int64_t t = (m.n == 19 || m.s[19] == ' ') ? hlog__stamp_at(buf, 27) : -1;
		if (t >= 0)
			l->t_us = t;
	}
	struct pspan a;
	if (l->pid < 0 &&
	    ((hlog__hits_may(h, HLOG_HIT_PID_BRACKET) && (a = hlog__after(head, "[PID:")).s) ||
	     (paren && (a = hlog__after(m, "(PID:")).s)) &&
	    hlog__num_at(a, &v) && v > 0 && v < 0x7fffffff)
		l->pid = (int)v;
	/* MODULE(pid,proc): the first '(' after a letter, followed by digits and ',' */
	for (const char *p = head.n > 1 ? memchr(m.s + 1, '(', head.n - 1) : NULL; p && l->pid < 0;
	     p = memchr(p + 1, '(', (size_t)(m.s + head.n - p - 1))) {
		size_t i = (size_t)(p - m.s);
		char c = m.s[i - 1];
		if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z')))
			continue;
		long x;
		size_t k = num(m, i + 1, &x);
		if (k && i + 1 + k < n && m.s[i + 1 + k] == ',')
			l->pid = (int)x;
	}
	/* torch_npu: "(PID:927000, Device:3, RankID:3)" */
	a = paren ? hlog__after(m, "(PID:") : (struct pspan){NULL, 0};
	if (a.s) {
		const char *close = memchr(a.s, ')', a.n < 80 ? a.n : 80);
		struct pspan in = {a.s, close ? (size_t)(close - a.s) : 0};
		int d;
		if (hlog__int_after(in, "Device:", &d))
			l->dev = d;
		if (l->rank < 0 && hlog__int_after(in, "RankID:", &d))
			l->rank = d;
	}
	/* Slurm's srun names the task, its rank, after the host: "srun: error: gpu20-15: task 0:
	 * Out Of Memory" ("tasks 0-3:" names several, so no one rank) */
	if (l->rank < 0 && probe__starts(m, "srun: error: ") && (a = hlog__after(head, ": task ")).s) {
		long t;
		size_t k = num(a, 0, &t);
		if (k && k < a.n && a.s[k] == ':')
			l->rank = (int)t;
	}
}

/* The code of NCCL's return trace at m[i..], "misc/socket.cc:47 -> 3" or "group.cc:70 -> 3
 * [Async thread]" (NCCLCHECK's INFO line as an error goes up the calls): the ncclResult_t,
 * 1 to 7, else 0. */
static int nccl_return(struct pspan m, size_t i)
{
	size_t w = i;
	while (w < m.n && m.s[w] != ' ' && m.s[w] != ':')
		w++;
	if (w == i || w + 1 >= m.n || m.s[w] != ':')
		return 0;
	size_t d = ++w;
	while (w < m.n && m.s[w] >= '0' && m.s[w] <= '9')
		w++;
	if (w == d || m.n - w < 5 || memcmp(m.s + w, " -> ", 4))
		return 0;
	w += 4;
	int code = m.s[w] >= '1' && m.s[w] <= '7' ? m.s[w] - '0' : 0;
	if (!code || (w + 1 < m.n && m.s[w + 1] != ' '))
		return 0;
	return code;
}

/* NCCL's (and RCCL's) debug prefix, "host:pid:tid [cudaDev] " ("ng30903:3063028:3066152 [3]
 * include/alloc.h:178 NCCL WARN ..."): the writer's pid, the local index of its GPU and its
 * host (left in the message, l->host points at it). Its level word comes after the source
 * location, "NCCL WARN", or "WARN" alone in releases before 2.4 ("seyun:17283:17549 [3]
 * include/socket.h:371 WARN Connection closed by remote peer"): WARN is NCCL's level for what
 * failed. */
static void nccl_level(struct pspan m, size_t i, struct hlog_line *l)
{
	size_t w = i;
	while (w < m.n && m.s[w] != ' ')
		w++;
	if (memchr(m.s + i, ':', w - i) && w < m.n) /* the source location "file.cc:178" */
		i = w + 1;
	if (m.n - i >= 5 && !memcmp(m.s + i, "NCCL ", 5))
		i += 5;
	if (m.n - i >= 5 && !memcmp(m.s + i, "WARN ", 5))
		l->nccl_warn = (int)i;
	l->nccl_info = m.n - i >= 5 && !memcmp(m.s + i, "INFO ", 5);
	if (l->nccl_info)
		l->nccl_trace = nccl_return(m, i + 5);
}

static void nccl_prefix(struct pspan m, struct hlog_line *l)
{
	size_t i = 0;
	while (i < m.n && i < 64 && (is_alnum(m.s[i]) || m.s[i] == '-' || m.s[i] == '.' || m.s[i] == '_'))
		i++;
	long pid, tid, dev;
	size_t k;
	if (!i || i >= m.n || m.s[i] != ':' || !(k = num(m, i + 1, &pid)))
		return;
	size_t hn = i;
	i += 1 + k;
	if (i >= m.n || m.s[i] != ':' || !(k = num(m, i + 1, &tid)))
		return;
	i += 1 + k;
	if (i + 2 >= m.n || m.s[i] != ' ' || m.s[i + 1] != '[' || !(k = num(m, i + 2, &dev)) ||
	    i + 2 + k >= m.n || m.s[i + 2 + k] != ']' || dev > 4096)
		return;
	if (l->pid < 0 && pid <= 0x7fffffff)
		l->pid = (int)pid;
	if (l->dev < 0)
		l->dev = (int)dev;
	l->host = (struct pspan){m.s, hn};
	i += 2 + k + 1;
	if (i < m.n && m.s[i] == ' ')
		nccl_level(m, i + 1, l);
}

/* An exception line of Python: "RuntimeError: ...", "torch.distributed.DistBackendError: ...",
 * "KeyboardInterrupt". */
static int exception_line(struct pspan m)
{
	size_t i = 0;
	while (i < m.n && i < 80 && (is_alnum(m.s[i]) || m.s[i] == '.'))
		i++;
	if (!i || (i < m.n && m.s[i] != ':'))
		return 0;
	return hlog__class_tail(m.s, i, 1);
}

/* An upper-case informational level word ("INFO", "DEBUG", "TRACE", "NOTICE") among the
 * words of m before offset at: the writer's own level, for prefixes this file does not take
 * off ("host:pid:tid [0] NCCL INFO ...", "INFO:root:..."). */
static int info_word_before(struct pspan m, size_t at)
{
	for (size_t i = 0; i < at && i < 120; i++) {
		if (i && is_alnum(m.s[i - 1]))
			continue;
		size_t w = i;
		while (w < at && m.s[w] >= 'A' && m.s[w] <= 'Z')
			w++;
		int lv = w > i && (w == m.n || !is_alnum(m.s[w])) ? hlog__level_word(m.s + i, w - i)
								   : HLINE_NONE;
		if (lv == HLINE_INFO || lv == HLINE_DEBUG)
			return 1;
	}
	return 0;
}

/* Whether a word of m.s[0..at) is a level below error ("WARNING: Traceback ..."). */
static int mild_level_before(struct pspan m, size_t at)
{
	for (size_t i = 0; i < at;) {
		size_t w = i;
		while (w < at && ((m.s[w] >= 'A' && m.s[w] <= 'Z') || (m.s[w] >= 'a' && m.s[w] <= 'z')))
			w++;
		int lv = w > i ? hlog__level_word(m.s + i, w - i) : HLINE_NONE;
		if (lv != HLINE_NONE && lv != HLINE_ERROR)
			return 1;
		i = w > i ? w : i + 1;
	}
	return 0;
}

/* Whether m starts with the first byte of one of the starts that mark a line
 * ("TraceBack", "Solution:", "Possible Cause:", "File \"", "^^^", "Traceback (most recent
 * call last)"): most lines do not, and skip the comparisons. */
/* A frame of a native stack as a debugger prints it: gdb's "#3  0x00007fd2e7127003 in
 * ncclIbAsyncThreadMain (args=0x559abaf04850) at transport/net_ib.cc:70", a frame without an
 * address ("#2  std::this_thread::yield () at /usr/include/c++/5/thread:270", "... from
 * LIB"), lldb's "frame #10: 0x00007ff58df57708 libcudart.so.11.0`cudaEventSynchronize + 344";
 * not a comment of a program's that starts with '#' ("#1 step (of 3) done"). */
static int native_frame(struct pspan m)
{
	struct pspan rest = m, w;
	int lldb = m.n && m.s[0] == 'f' && probe__starts(m, "frame #");
	if (!lldb && (!m.n || m.s[0] != '#')) /* every line passes here */
		return 0;
	if (lldb)
		rest.s += 6, rest.n -= 6;
	unsigned long long n;
	if (!probe__next_word(&rest, &w, ":") || w.n < 2 || w.s[0] != '#' ||
	    probe__u64((struct pspan){w.s + 1, w.n - 1}, &n) || n > 9999)
		return 0;
	if (lldb && rest.n && rest.s[0] == ':')
		rest.s++, rest.n--;
	if (!probe__next_word(&rest, &w, NULL))
		return 0;
	if (probe__starts(w, "0x")) {
		for (size_t i = 2; i < w.n; i++)
			if (!isxdigit((unsigned char)w.s[i]))
				return 0;
		if (w.n < 3 || !probe__next_word(&rest, &w, NULL))
			return 0;
		return lldb ? memchr(w.s, '`', w.n) != NULL : probe__eq(w, "in");
	}
	return !lldb && probe__starts(rest, " (") &&
	       (hlog__has(rest, ") at ") || hlog__has(rest, ") from "));
}

/* A Python frame as pybind11 prints it under "At:" when a Python exception crosses C++
 * (error_already_set's text): "/usr/local/Ascend/atb-models/atb_llm/models/__init__.py(8):
 * <module>", "<frozen importlib._bootstrap>(241): _call_with_frames_removed". */
static int pybind_frame(struct pspan m)
{
	if (!m.n || (m.s[0] != '/' && m.s[0] != '<'))
		return 0;
	const char *c = hlog__find(m, "): ");
	if (!c)
		return 0;
	size_t e = (size_t)(c - m.s), d = e;
	while (d && isdigit((unsigned char)m.s[d - 1]))
		d--;
	if (d == e || d < 2 || m.s[d - 1] != '(')
		return 0;
	struct pspan file = {m.s, d - 1};
	return (file.n > 3 && !memcmp(file.s + file.n - 3, ".py", 3)) ||
	       (m.s[0] == '<' && file.s[file.n - 1] == '>');
}

static int marked_start(struct pspan m)
{
	return m.n && memchr("TSPF^", m.s[0], 5);
}

void hlog__line_parse(struct pspan raw, struct hlog_line *l)
{
	hlog__line_parse_hits(raw, l, NULL);
}

void hlog__line_parse_hits(struct pspan raw, struct hlog_line *l, const struct hlog_hits *h)
{
	int words = hlog__hits_gate(h, HLOG_GATE_ERRWORD);
	int kernel_word = hlog__hits_may(h, HLOG_HIT_KERNEL);
	memset(l, 0, sizeof(*l));
	l->t_us = -1;
	l->pid = l->rank = l->dev = l->wrap_pid = -1;
	l->code_at = l->nccl_warn = -1;
	struct pspan m = raw;
	/* a log pasted into Markdown notes keeps its quote marks ("> 0: slurmstepd: error: ...",
	 * "> srun: error: nid008576: task 2: Out Of Memory"): they are the page's, not the log's */
	for (size_t sp = spaces(m); sp + 1 < m.n && m.s[sp] == '>' && m.s[sp + 1] == ' ';
	     sp = spaces(m))
		hlog__skip(&m, sp + 2);
	/* the prefixes come in any order and nest ("[rank1]: (Worker pid=3) ERROR ..."); each
	 * pass takes one, and a line has few */
	for (int pass = 0; pass < 8; pass++) {
		size_t sp = spaces(m);
		struct pspan t = {m.s + sp, m.n - sp};
		if ((!pass && (grep_prefix(&t, l) || hlog__compose_prefix(&t) || hlog__viewer_cells(&t) ||
			       srun_label(&t, l) || hlog__host_label(&t) || hlog__task_label(&t) ||
			       hlog__pytest_mark(&t))) ||
		    rank_prefix(&t, l) || hlog__role_label(&t) ||
		    proc_prefix(&t, l) ||
		    ctime_prefix(&t, l) ||
		    vllm_prefix(&t, l) ||
		    pylog_prefix(&t, l) || kernel_prefix(&t, l, kernel_word) || pid_prefix(&t, l)) {
			m = t;
			continue;
		}
		/* a level bracket leaves the rest (HCCL(pid,...):stamp) for inline_facts */
		if (level_prefix(&t, l) || glog_prefix(&t, l))
			m = t;
		else if (l->level == HLINE_NONE && shell_trace(t))
			l->level = HLINE_DEBUG; /* (a level its writer gave the line stays) */
		else if (l->level == HLINE_NONE)
			l->level = bracket_run_level(t);
		break;
	}
	/* indentation after the prefixes (one space is only the separator): CANN's TraceBack
	 * lines, Python's File lines */
	l->cont = m.n && (m.s[0] == '\t' || (m.n > 1 && m.s[0] == ' ' && m.s[1] == ' '));
	m = probe__trim(m);
	l->msg = m;
	inline_facts(m, l, h);
	nccl_prefix(m, l);
	if (l->pid < 0)
		l->pid = l->wrap_pid;
	int marked = marked_start(m);
	if ((marked && (probe__starts(m, "TraceBack") || probe__starts(m, "Solution:") ||
			probe__starts(m, "Possible Cause:") || probe__starts(m, "Possible cause:") ||
			probe__starts(m, "File \"") || probe__starts(m, "^^^"))) ||
	    (hlog__hits_may(h, HLOG_HIT_FILE) && hlog__has(m, "][FILE:")))
		l->cont = 1;
	int len;
	l->code_at = hlog__code_token(m, &len);
	l->code_len = len;
	if (l->level == HLINE_ERROR) {
		l->error = 1;
	} else if (!words) {
		l->error = l->code_at >= 0 && l->level == HLINE_NONE;
	} else if (l->level == HLINE_NONE || l->level == HLINE_WARN) {
		/* the words decide, unless the line names itself informational first ("NCCL
		 * INFO Failed to open libibverbs.so": a probe of what is there, not a failure) */
		int wl, at = hlog__error_word(m, &wl, NULL);
		/* a call's errno, not 0, says it failed in any words: Open MPI's shared memory
		 * "Read -1, expected 10024, errno = 1"; but not after a word that calls the line
		 * informational, a probe the program goes on from ("NCCL INFO Call to
		 * mlx5dv_get_data_direct_sysfs_path failed with error No such device errno 19") */
		const char *en = hlog__hits_may(h, HLOG_HIT_ERRNO) ? hlog__find(m, "errno") : NULL;
		/* (unless a benign form vouches for it: c10d's try of one address of several,
		 * "(errno: 22 - Invalid argument)") */
		int errno_failed = en && hlog__errno_of(m) > 0 &&
				   hlog__benign_at(m, (size_t)(en - m.s), 5) < 0;
		l->info_errno = errno_failed && info_word_before(m, (size_t)(en - m.s));
		l->error = (l->code_at >= 0 && l->level == HLINE_NONE) || exception_line(m) ||
			   (at >= 0 && (!info_word_before(m, (size_t)at) || hlog__any_level_word(m))) ||
			   (l->level == HLINE_NONE && hlog__http_failure(m)) ||
			   (errno_failed && !l->info_errno);
	}
	if (!l->error && words && l->level == HLINE_INFO && hlog__any_level_word(m))
		l->error = 1;
	/* NCCL's WARN level is an error word of its own, as benign forms allow ("NCCL WARN
	 * Failed to open libibverbs.so[.1]" is not) */
	if (!l->error && l->nccl_warn >= 0 && l->level == HLINE_NONE &&
	    hlog__benign_at(m, (size_t)l->nccl_warn, 4) < 0)
		l->error = 1;
	/* Python's traceback heading is an error whose text comes after it; its frames and a
	 * solution text are context, not errors, unless their writer logged them at an error
	 * level (a frame at ERROR whose heading the excerpt lacks still says a process failed) */
	l->frame = (marked && probe__starts(m, "File \"")) || native_frame(m) || pybind_frame(m);
	if (!marked) {
		/* the heading says a process raised whatever labels its writer put before it,
		 * unless one of them is a level below error (a traceback logged as a warning);
		 * words of its own before it ("Scheduler hit an exception: Traceback ...") make
		 * the line an error that says more than a heading */
		const char *tb = hlog__hits_may(h, HLOG_HIT_TRACEBACK)
					 ? hlog__find(m, "Traceback (most recent call last)")
					 : NULL;
		if (!l->error && tb && tb > m.s && memchr(" :]|>", tb[-1], 5)) {
			if (!mild_level_before(m, (size_t)(tb - m.s)))
				l->error = l->header = 1;
			else
				l->quiet_tb = 1;
		}
	} else if (probe__starts(m, "Traceback (most recent call last)")) {
		l->error = 1;
		l->header = 1;
	} else if ((l->frame && l->level != HLINE_ERROR) || probe__starts(m, "Solution:") ||
		   probe__starts(m, "Possible Cause")) {
		l->error = 0;
	}
}
