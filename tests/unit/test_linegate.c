/* The line automaton's gates (probes/logs/catalog.h): a line the automaton finds no gate word
 * in skips a stage, which must then be a stage that would have found nothing. Every line of
 * every real log under tests/data/real-logs and tests/data/real-logs-new is read twice: with
 * what the automaton found, and with the search of every literal one by one (hits.all, what
 * the scan did before the gates); the line's reading and its event must be the same. Then
 * lines made to sit just inside and just outside each gate. */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "probes/logs/catalog.h"
#include "probes/logs/hlogint.h"
#include "probes/logs/logline.h"

/* One line both ways; counts the lines a gate closed on. */
static size_t lines, closed_err, closed_rec, closed_ctx, closed_out;

static void check_line(struct pspan raw, const char *where)
{
	struct pspan line = probe__trim(raw);
	if (!line.n)
		return;
	struct hlog_hits hits, every;
	struct hlog_line l, lref;
	struct hlog_event e, eref;
	hlog__line_hits(line, &hits);
	memset(&every, 0, sizeof(every));
	every.s = line.s;
	every.n = line.n;
	every.inner = -1;
	every.all = 1;
	int words = hlog__hits_gate(&hits, HLOG_GATE_ERRWORD);
	hlog__line_parse_hits(raw, &l, &hits);
	hlog__line_parse(raw, &lref);
	if (memcmp(&l, &lref, sizeof(l)))
		fail_msg("%s: read otherwise with the gates (error %d, %d without): %.*s", where,
			 l.error, lref.error, (int)line.n, line.s);
	hlog__event_init(&e);
	hlog__event_init(&eref);
	int got = hlog__recognise_hits(line, &lref, &e, &hits);
	int want = hlog__recognise_hits(line, &lref, &eref, &every);
	if (got != want || (want && memcmp(&e, &eref, sizeof(e))))
		fail_msg("%s: recognised %d with the gate, %d without: %.*s", where, got, want,
			 (int)line.n, line.s);
	/* the outcome gate: a run's outcome read with the gate as without it */
	if (hlog__run_ok_hits(lref.msg, &hits) != hlog__run_ok_hits(lref.msg, &every))
		fail_msg("%s: outcome read otherwise with the gate: %.*s", where, (int)line.n,
			 line.s);
	/* the context gate: shut, a command and a port table's line leave their context be */
	int ctx = hlog__hits_gate(&hits, HLOG_GATE_CONTEXT);
	if (!ctx) {
		struct hlog_cmd_ctx c = {0, -1};
		struct hlog_port_ctx p = {3, 0, 0}, p0 = p;
		struct hlog_file file, file0;
		struct hlog_event ev[1];
		memset(&file, 0, sizeof(file));
		file0 = file;
		hlog__event_init(&ev[0]);
		hlog__tool_command(line, 4, &c);
		hlog__port_line(line, 4, &p, &file, ev, 1);
		if (c.no || memcmp(&p, &p0, sizeof(p)) || memcmp(&file, &file0, sizeof(file)) ||
		    ev[0].layer)
			fail_msg("%s: the context gate shut on a line of context: %.*s", where,
				 (int)line.n, line.s);
	}
	lines++;
	closed_err += !words;
	closed_rec += !hlog__hits_any(&hits);
	closed_ctx += !ctx;
	closed_out += !hlog__hits_gate(&hits, HLOG_GATE_OUTCOME);
}

static void check_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return;
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap);
	size_t k;
	while (buf && (k = fread(buf + n, 1, cap - n, f)) > 0) {
		n += k;
		if (n == cap) {
			char *b = realloc(buf, cap * 2);
			if (!b)
				break;
			buf = b;
			cap *= 2;
		}
	}
	fclose(f);
	struct pspan rest = {buf, buf ? n : 0}, raw;
	while (probe__next_line(&rest, &raw)) {
		if (raw.n > HLOG_MAX_LINE)
			raw.n = HLOG_MAX_LINE;
		check_line(raw, path);
	}
	free(buf);
}

static void walk(const char *dir)
{
	struct dirent **names;
	int n = scandir(dir, &names, NULL, alphasort);
	for (int i = 0; i < n; i++) {
		char p[4096];
		struct stat st;
		if (names[i]->d_name[0] != '.' &&
		    snprintf(p, sizeof(p), "%s/%s", dir, names[i]->d_name) < (int)sizeof(p) &&
		    !stat(p, &st))
			S_ISDIR(st.st_mode) ? walk(p) : check_file(p);
		free(names[i]);
	}
	if (n >= 0)
		free(names);
}

static void test_real_lines(void **state)
{
	(void)state;
	walk("tests/data/real-logs");
	walk("tests/data/real-logs-new");
	walk("tests/data/plog");
	/* the gates are worth something only if they close on many lines */
	print_message("%zu lines: recognition gate shut on %zu, error words' on %zu, context's "
		      "on %zu, outcome's on %zu\n",
		      lines, closed_rec, closed_err, closed_ctx, closed_out);
	assert_true(lines > 5000);
	assert_true(closed_rec * 2 > lines);
	assert_true(closed_err * 4 > lines);
	assert_true(closed_ctx * 10 > lines * 9);
	assert_true(closed_out * 10 > lines * 8);
}

/* Just inside and just outside: a gate word in another case opens its gate (a superset of
 * what the stage reads), a needle matched as written does not match in another case, and a
 * word cut by one byte leaves the gate shut. */
static void test_edges(void **state)
{
	(void)state;
	static const char *const lines_[] = {
		"2024-01-01 00:00:00 INFO all good",
		"2024-01-01 00:00:00 INFO wait socket establish timeout rank 3",
		"2024-01-01 00:00:00 INFO WAIT SOCKET ESTABLISH TIMEOUT rank 3",
		"2024-01-01 00:00:00 INFO wait socket establish timeou",
		"| 10.20.0.31(29) | 16666 | 10.20.0.2(0) | 344832056 | server | time out | DISABLE |",
		"Connection refused",
		"connection REFUSED",
		"  File \"x.py\", line 2, in all_reduce",
		"ValueError: bad",
		"valueerror bad",
		"HTTP status 503",
		"[INFO] some processes are hanging",
		"[INFO] some processes are HANGING",
		"EJ0003: Failed to bind the IP port",
		"ej0003 failed to bind the ip port",
		"\"device_ip\": \"-.-.-.-\",",
		"\"DEVICE_IP\": \"-.-.-.-\",",
	};
	for (size_t i = 0; i < sizeof(lines_) / sizeof(lines_[0]); i++)
		check_line((struct pspan){lines_[i], strlen(lines_[i])}, "edges");
	struct hlog_hits h;
	const char *quiet = "2024-01-01 00:00:00 INFO all good";
	hlog__line_hits((struct pspan){quiet, strlen(quiet)}, &h);
	assert_false(hlog__hits_any(&h));
	assert_false(hlog__hits_gate(&h, HLOG_GATE_ERRWORD));
	const char *upper = "WAIT SOCKET ESTABLISH TIMEOUT";
	hlog__line_hits((struct pspan){upper, strlen(upper)}, &h);
	assert_true(hlog__hits_gate(&h, HLOG_GATE_RECOG));
	/* the context's and outcome's words open their gates in any case, and only whole */
	const char *tool = "[root@n1 ~]# HCCN_TOOL -i 3 -link -g";
	hlog__line_hits((struct pspan){tool, strlen(tool)}, &h);
	assert_true(hlog__hits_gate(&h, HLOG_GATE_CONTEXT));
	const char *cut = "hccn_too -i 3; link layer; PORT_ACTIV";
	hlog__line_hits((struct pspan){cut, strlen(cut)}, &h);
	assert_false(hlog__hits_gate(&h, HLOG_GATE_CONTEXT));
	const char *done = "Training COMPLETED in 3 h";
	hlog__line_hits((struct pspan){done, strlen(done)}, &h);
	assert_true(hlog__hits_gate(&h, HLOG_GATE_OUTCOME));
	assert_false(hlog__hits_gate(&h, HLOG_GATE_CONTEXT));
	/* a bar opens the table gate only: the signatures other than link_row stay shut */
	const char *bar = "[WARNING  | py.warnings        ]: x.py:9: FutureWarning: deprecated";
	hlog__line_hits((struct pspan){bar, strlen(bar)}, &h);
	assert_true(hlog__hits_gate(&h, HLOG_GATE_PIPE));
	assert_false(hlog__hits_gate(&h, HLOG_GATE_RECOG));
	assert_true(hlog__hits_any(&h));
	const char *ip = "\"DEVICE_IP\": \"x\"";
	hlog__line_hits((struct pspan){ip, strlen(ip)}, &h);
	assert_false(hlog__hits_may(&h, HLOG_HIT_IP_KEY));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_real_lines),
		cmocka_unit_test(test_edges),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
