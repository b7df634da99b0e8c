/* What a line says of its own shape, read alone: a block's heading, a numbered list's item,
 * a report's frame, a record's rank field, the values under a message, a label that opens
 * it (hccllog.c reads each line with these). */
#include <stdio.h>
#include <string.h>

#include "probes/logs/extract.h"
#include "probes/logs/hlogint.h"
#include "probes/logs/logline.h"
#include "probes/logs/logtext.h"
#include "probes/tool/ptext.h"

void hlog__read_heading(struct hlog_heading *h, unsigned no, struct pspan m)
{
	struct hx_vals x;
	hlog__extract(m, &x);
	h->no = no;
	const struct hx_val *v = hlog__xfind(&x, HX_RDMA, HX_R(HX_ANY));
	snprintf(h->nic, sizeof(h->nic), "%.*s", v ? (int)sizeof(h->nic) - 1 : 0, v ? v->s : "");
	v = hlog__xfind(&x, HX_DEV, HX_THIS);
	h->dev = v ? (int)v->n : -1;
	if (v || m.n < 6 || memcmp(m.s, "GPU ", 4))
		return;
	size_t i = 4;
	int n = 0;
	while (i < m.n && i < 8 && m.s[i] >= '0' && m.s[i] <= '9')
		n = n * 10 + (m.s[i++] - '0');
	if (i > 4 && i < m.n && m.s[i] == ':')
		h->dev = n;
}

/* "1. the connection ..." or "...[87033]2. an exception ...": an item of a numbered list. */
int hlog__numbered(struct pspan m)
{
	size_t lim = m.n < 160 ? m.n : 160;
	for (size_t i = 0; i + 2 < lim; i++)
		if ((i == 0 || m.s[i - 1] == ']') && m.s[i] >= '1' && m.s[i] <= '9' &&
		    (m.s[i + 1] == '.' ||
		     (m.s[i + 1] >= '0' && m.s[i + 1] <= '9' && i + 3 < lim && m.s[i + 2] == '.')))
			return 1;
	return 0;
}

/* A line of a table's frame or a heading HCCL prints around its own report:
 * "_____LINK_ERROR_INFO____", "|  dest_ip(user_rank) | ...", "|-----|", "-----CONNECT TIMEOUT
 * DETECT RESULT-----", "... may be due to the following reasons:". */
int hlog__chrome(struct pspan m)
{
	if (hlog__has(m, "LINK_ERROR_INFO") || hlog__has(m, "DETECT RESULT") ||
	    hlog__has(m, "dest_ip(") || hlog__has(m, "comm error, device[") ||
	    hlog__has(m, "|---") || hlog__has(m, "following reasons"))
		return 1;
	/* only rule characters after the prefix's last ']' */
	const char *b = m.s + m.n;
	while (b > m.s && b[-1] != ']')
		b--;
	struct pspan tail = {b, (size_t)(m.s + m.n - b)};
	return probe__count_in(tail, "-_=") >= 10 && probe__count_in(tail, "-_=| ") == tail.n;
}

/* A record's rank field: a line that is "rank", blanks, ':' and a number ("  rank      : 3
 * (local_rank: 3)"); its number into *rank. */
int hlog__record_rank(struct pspan m, int *rank)
{
	struct pspan t = probe__trim(m);
	if (t.n < 6 || strncmp(t.s, "rank", 4) || (t.s[4] != ' ' && t.s[4] != ':'))
		return 0;
	size_t i = 4;
	while (i < t.n && t.s[i] == ' ')
		i++;
	if (i >= t.n || t.s[i] != ':')
		return 0;
	int v = -1;
	if (!hlog__int_after((struct pspan){t.s + i, t.n - i}, ":", &v) || v < 0)
		return 0;
	*rank = v;
	return 1;
}

/* The address, port and peer rank a line under a message names, each kept while the message
 * has none yet: what that message was about (see hlog_event's and hlog_unk's below_ip). A
 * port alone counts when no address is named (a server given by its host name: "unable to
 * connect to server node100.local at port 54762"). peer_rank (a rank named as the other end)
 * and any_rank (one named in any role) may be NULL. */
void hlog__line_values(struct pspan m, char *ip, size_t iplen, int *port, int *peer_rank,
		       int *any_rank)
{
	struct hx_vals x;
	struct hx_peer p;
	hlog__extract(m, &x);
	hlog__xpeer(&x, &p);
	/* a peer named by its host ("http://localhost:2379") when no address is named */
	const struct hx_val *host = p.ip ? p.ip : hlog__xfind_peer(&x, HX_HOST);
	const struct hx_val *hport = p.port || !host ? p.port : hlog__xfind_peer(&x, HX_PORT);
	if (host && !ip[0]) {
		snprintf(ip, iplen, "%s", host->s);
		*port = hport && hport->n > 0 && hport->n <= 65535 ? (int)hport->n : -1;
	} else if (!host && p.port && !ip[0] && *port < 0) {
		*port = (int)p.port->n;
	}
	if (peer_rank && p.rank && *peer_rank < 0)
		*peer_rank = (int)p.rank->n;
	const struct hx_val *v;
	if (any_rank && *any_rank < 0 && (v = hlog__xfind(&x, HX_RANK, ~0u)) && v->n >= 0 &&
	    v->n < 0x7fffffff)
		*any_rank = (int)v->n;
}

/* Whether m opens with a name and a colon ("subprocess.CalledProcessError: ...", "error:
 * ..."): a line that starts a message of its own. */
int hlog__opens_labelled(struct pspan m)
{
	size_t i = 0;
	while (i < m.n && (hlog__word_char(m.s[i]) || m.s[i] == '.'))
		i++;
	return i && i < m.n && m.s[i] == ':';
}

/* Whether m opens with an exception's name and a colon ("TypeError: ...",
 * "torch.distributed.DistBackendError: ..."): a message whose body may go on below it. */
int hlog__opens_exception(struct pspan m)
{
	static const char *const ends[] = {"Error", "Exception"};
	if (!hlog__opens_labelled(m))
		return 0;
	size_t n = (size_t)((const char *)memchr(m.s, ':', m.n) - m.s);
	for (size_t k = 0; k < sizeof(ends) / sizeof(ends[0]); k++) {
		size_t e = strlen(ends[k]);
		if (n > e && !memcmp(m.s + n - e, ends[k], e))
			return 1;
	}
	return 0;
}

/* The lines a retry may come within, below the failure it retries. */
#define RETRY_WITHIN 6

/* A message that says a connection was made: paramiko's "Connected (version 2.0, client
 * OpenSSH_7.6p1)", SageMaker's "Can connect to host algo-1", "connection established" (not
 * "Disconnected", "not connected"). */
static int connection_made(struct pspan m)
{
	static const char *const made[] = {"can connect to", "connection established",
					   "established connection", "successfully connected",
					   "connected successfully"};
	struct pspan t = probe__trim(m);
	/* the word, capitalised as a message's first (after a logger's name it may keep) */
	for (const char *f = hlog__find(t, "Connected"); f;) {
		size_t i = (size_t)(f - t.s), e = i + 9;
		if ((!i || t.s[i - 1] == ' ') &&
		    (e == t.n || t.s[e] == ' ' || t.s[e] == '(' || t.s[e] == '.' || t.s[e] == '!'))
			return 1;
		f = hlog__find((struct pspan){t.s + e, t.n - e}, "Connected");
	}
	for (size_t i = 0; i < sizeof(made) / sizeof(made[0]); i++)
		if (hlog__has_nocase(t, made[i]))
			return !hlog__has_nocase(t, "not ") && !hlog__has_nocase(t, "cannot");
	return 0;
}

/* Whether below, a line after first in the file, is stamped before it: an earlier line pasted
 * below it, not what came after it */
static int stamped_before(const struct hlog_line *below, const struct hlog_line *first)
{
	return first->t_us >= 0 && below->t_us >= 0 && below->t_us < first->t_us;
}

/* A notice below error level that processes may hang (vLLM's INFO "No available shared
 * memory broadcast block found in 60 seconds. This typically happens when some processes are
 * hanging or doing some time-consuming work"), whose best word family is the hang: a wait
 * that was long so far, a hang only if nothing finishes after it. */
static int wait_notice(const struct hlog_line *l)
{
	if (l->level != HLINE_INFO && l->level != HLINE_WARN)
		return 0;
	int hang = hlog__word_family_named("hang");
	return hang >= 0 && hlog__word_family(l->msg) == hang;
}

/* Whether a later line of the lines below a wait notice says a step finished, no error and no
 * other wait between, and not before the notice in time (an earlier line pasted below it). */
static int wait_outlived(struct pspan ahead, const struct hlog_line *notice)
{
	struct pspan rest = ahead, l;
	for (int k = 0; k < RETRY_WITHIN && probe__next_line(&rest, &l); k++) {
		if (!probe__trim(l).n)
			continue;
		struct hlog_line rl;
		hlog__line_parse(l, &rl);
		if (rl.error || stamped_before(&rl, notice))
			return 0;
		if (hlog__step_ended(rl.msg))
			return 1;
	}
	return 0;
}

int hlog__recovered_below(struct pspan ahead, const struct hlog_line *failed)
{
	struct pspan rest = ahead, l;
	if (wait_notice(failed))
		return wait_outlived(ahead, failed);
	/* a failure to connect is over once a later line says the connection was made */
	int connecting = hlog__has_nocase(failed->msg, "connect");
	for (int k = 0; k < RETRY_WITHIN && probe__next_line(&rest, &l); k++) {
		struct hlog_line rl;
		int retry = hlog__retry_announced(probe__trim(l));
		if (!retry && !connecting)
			continue;
		hlog__line_parse(l, &rl);
		if (!retry && (rl.error || !connection_made(rl.msg)))
			continue;
		/* the same process's retry, after the failure: not another's, nor an earlier
		 * line pasted below it */
		if ((failed->pid >= 0 && rl.pid >= 0 && failed->pid != rl.pid) ||
		    stamped_before(&rl, failed))
			return 0;
		/* the lines after the retry (one at least, two read) are the program going on,
		 * not failing again */
		int on = 0;
		while (on < 2 && probe__next_line(&rest, &l)) {
			if (!probe__trim(l).n)
				continue;
			struct hlog_line hl;
			hlog__line_parse(l, &hl);
			if (hl.error)
				return 0;
			on++;
		}
		return on > 0;
	}
	return 0;
}
