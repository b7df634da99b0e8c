/* The knowledge base: the built-in table (generated from ascend-fd's kg-config.json 22bb3d98)
 * against the file itself, every entity recognised from its own keywords with its family, the
 * causal edges, a user's file and what a loader must refuse, and the base deciding a job's
 * cause in the triage when no rule of ours does. Run from the top of the tree. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "probes/npu/hcclcodes.h"
#include "probes/logs/hccllog.h"
#include "probes/logs/kb.h"

#define KG "tests/data/kg/kg-config-22bb3d98.json"
#define ANY (KB_IN_APP | KB_IN_SYS)

static char err[512];

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	*len = fread(buf, 1, (size_t)n, f);
	buf[*len] = '\0';
	fclose(f);
	return buf;
}

static int index_of(const struct kb *kb, const char *code)
{
	for (size_t i = 0; i < kb_count(kb); i++)
		if (!strcmp(kb_entity_at(kb, i)->code, code))
			return (int)i;
	return -1;
}

static void test_builtin_counts(void **state)
{
	const struct kb *kb;
	(void)state;
	assert_int_equal(kb_builtin(&kb, err, sizeof(err)), 0);
	assert_int_equal(kb_count(kb), 1050);
	/* 534 rules; the 80 that name one code of a generic entity (CODE_SUFFIX) lead to it */
	assert_int_equal(kb_edge_count(kb), 534);
	assert_string_equal(kb_builtin_source,
			    "MindCluster ascend-fd kg-config.json 22bb3d98 (2026-08-21)");
}

/* A line made of a group's keywords, in order, with text between them. */
static void line_of(const struct kb *kb, const struct kb_entity *e, int g, char *buf, size_t len)
{
	size_t n = (size_t)snprintf(buf, len, "[ERROR] ");
	for (int i = 0; i < kb_group_size(kb, e, g) && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s ", kb_keyword(kb, e, g, i));
}

/* Real lines for the entities identified by an expression only, not by keywords. */
static const struct { const char *code, *line; } rx_lines[] = {
	/* torch_npu's error prefix (ERR + module + code) */
	{ "AISW_PyTorch_ERRCODE_Common",
	  "[ERROR] 2025-02-24-11:09:41 (PID:1093, Device:0, RankID:-1) ERR00100 PTA call acl "
	  "api failed" },
	{ "AISW_CANN_ERRCODE_Custom", "RuntimeError: EI0006: Getting socket times out." },
	{ "AISW_MindIE_ERRCODE_Common", "[ERROR] MIE04E13030A engine start failed" },
	{ "AISW_CANN_Runtime_Drv_007", "queue stat: enqueFailCnt=0, dequeFailCnt=3" },
};

/* Every entity, fed its own keywords, is found, and its family is one of ours: the count is
 * what the note reports. */
static void test_every_entity(void **state)
{
	const struct kb *kb;
	(void)state;
	assert_int_equal(kb_builtin(&kb, err, sizeof(err)), 0);
	size_t found = 0, other = 0, keywordless = 0;
	char buf[4096];
	int hits[64];
	for (size_t i = 0; i < kb_count(kb); i++) {
		const struct kb_entity *e = kb_entity_at(kb, i);
		struct kb_scan st = { 0 };
		int n = 0;
		if (!e->ng) {
			for (size_t k = 0; k < sizeof(rx_lines) / sizeof(rx_lines[0]); k++)
				if (!strcmp(rx_lines[k].code, e->code))
					n = kb_match(kb, &st, rx_lines[k].line,
						     strlen(rx_lines[k].line), ANY, hits, 64);
		}
		/* a multi-line option's groups go on consecutive lines, the others one each */
		for (int g = 0; g < e->ng; g++) {
			line_of(kb, e, g, buf, sizeof(buf));
			int m = kb_match(kb, &st, buf, strlen(buf), ANY, hits + n, 64 - n);
			if (m > 0)
				n += m;
			if (n >= 56)
				break;
		}
		kb_scan_release(&st);
		if (!e->ng && !e->regex[0]) {
			keywordless++; /* made from tool output, not from a log line */
			continue;
		}
		int ok = 0;
		for (int k = 0; k < n; k++)
			ok |= hits[k] == (int)i;
		if (ok)
			found++;
		else
			print_message("not recognised: %s\n", e->code);
		if (!strcmp(kb_family_of(e)->name, "other"))
			other++;
	}
	print_message("knowledge base: %zu of %zu entities recognised from their keywords (%zu "
		      "have none); %zu in no family of ours\n", found, kb_count(kb), keywordless,
		      other);
	assert_int_equal(keywordless, 13);
	assert_int_equal(found, kb_count(kb) - keywordless);
	assert_int_equal(other, 0);
}

static void test_families(void **state)
{
	const struct kb *kb;
	(void)state;
	assert_int_equal(kb_builtin(&kb, err, sizeof(err)), 0);
	static const struct { const char *code, *family; int cat; } rows[] = {
		{ "Comp_Network_Custom_01", "network-fabric", HCAT_LINK_DOWN },
		{ "AISW_CANN_HCCL_004", "hccl", HCAT_UNRESOLVED },
		{ "0x81AB8008", "npu-network", HCAT_LINK_DOWN },	 /* RoH multi-bit ECC */
		{ "AISW_CANN_Runtime_054", "cann-runtime", HCAT_UNRESOLVED },
		{ "AISW_MindSpore_msrun_01", "user-config", HCAT_CONFIG }, /* class User */
		/* class User too, but memory that ran out is a resource whoever asked for it */
		{ "AISW_Framework_Custom_01", "framework-memory", HCAT_RESOURCE },
		{ "0x02000029", "server-hardware", HCAT_HARDWARE },
	};
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		int k = index_of(kb, rows[i].code);
		assert_true(k >= 0);
		const struct kb_family *f = kb_family_of(kb_entity_at(kb, (size_t)k));
		assert_string_equal(f->name, rows[i].family);
		assert_int_equal(f->cat, rows[i].cat);
	}
}

static void test_edges(void **state)
{
	const struct kb *kb;
	(void)state;
	assert_int_equal(kb_builtin(&kb, err, sizeof(err)), 0);
	int fec = index_of(kb, "Comp_Network_Custom_02"), down = index_of(kb, "Comp_Network_Custom_01");
	int notify = index_of(kb, "AISW_CANN_HCCL_027");
	assert_true(fec >= 0 && down >= 0 && notify >= 0);
	assert_true(kb_causes(kb, fec, down));	    /* FEC mode -> link down */
	assert_true(kb_causes(kb, fec, notify));    /* ... -> notify wait timeout, two steps */
	assert_false(kb_causes(kb, down, fec));
	assert_false(kb_causes(kb, down, down));
	int generic = index_of(kb, "AISW_CANN_ERRCODE_Custom");
	int sock = index_of(kb, "AISW_CANN_ERRMSG_Custom_04");
	assert_true(kb_causes(kb, sock, generic)); /* _EI0006 of the generic error-code entity */
}

/* The user's file (the same kg-config.json) gives the same base, with its own texts. */
static void test_load_file(void **state)
{
	const struct kb *bi;
	struct kb *kb = NULL;
	size_t len;
	(void)state;
	char *buf = slurp(KG, &len);
	assert_int_equal(kb_builtin(&bi, err, sizeof(err)), 0);
	assert_int_equal(kb_load_json(KG, buf, len, &kb, err, sizeof(err)), 0);
	assert_int_equal(kb_count(kb), kb_count(bi));
	assert_int_equal(kb_edge_count(kb), kb_edge_count(bi));
	for (size_t i = 0; i < kb_count(kb); i++) {
		const struct kb_entity *a = kb_entity_at(kb, i), *b = kb_entity_at(bi, i);
		assert_string_equal(a->code, b->code);
		assert_string_equal(a->mod, b->mod);
		assert_int_equal(a->ng, b->ng);
		for (int g = 0; g < a->ng; g++)
			for (int k = 0; k < kb_group_size(kb, a, g); k++)
				assert_string_equal(kb_keyword(kb, a, g, k), kb_keyword(bi, b, g, k));
	}
	int k = index_of(kb, "AISW_CANN_HCCL_004");
	assert_string_equal(kb_entity_at(kb, (size_t)k)->name,
			    "Failed to establish a socket link on the root rank");
	assert_null(kb_entity_at(bi, (size_t)k)->name);
	kb_free(kb);
	free(buf);
}

static void test_load_refused(void **state)
{
	static const struct { const char *doc, *msg; } rows[] = {
		{ "[1,2", "x.json: not JSON" },
		{ "{\"entities\": {}}", "x.json: no \"knowledge-repository\" object with entities "
					"(not an ascend-fd kg-config.json)" },
		{ "{\"knowledge-repository\": {\"A\": {\"regex\": {\"in\": [\"\"]}}}}",
		  "x.json: entity \"A\": regex.in: a keyword must be a non-empty string of at most "
		  "1024 bytes" },
		{ "{\"knowledge-repository\": {\"A\": {\"regex\": {\"in\": [[\"x\"], 3]}}}}",
		  "x.json: entity \"A\": regex.in: a group of keywords is a list of 1 to 64 "
		  "strings" },
		{ "{\"knowledge-repository\": {\"A\": {\"regex\": 7}}}",
		  "x.json: entity \"A\": \"regex\" must be an object" },
		{ "{\"knowledge-repository\": {\"A\": {\"regex\": {\"in\": \"x\"}}}}",
		  "x.json: entity \"A\": \"in\" must be a non-empty list" },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct kb *kb = (struct kb *)1;
		assert_int_equal(kb_load_json("x.json", rows[i].doc, strlen(rows[i].doc), &kb, err,
					      sizeof(err)), -EINVAL);
		assert_null(kb);
		assert_string_equal(err, rows[i].msg);
	}
}

/* Keywords match in order on one line, case-sensitively; a multi-line option's groups within
 * its window of lines. */
static void test_match_rules(void **state)
{
	const char *doc = "{\"knowledge-repository\": {"
			  "\"ORD\": {\"regex\": {\"in\": [\"alpha\", \"beta\"]}},"
			  "\"WIN\": {\"regex\": {\"opt\": [{\"all\": [[\"first\"], [\"second\"]],"
			  " \"max_lines\": 2}]}},"
			  "\"RX\": {\"regex\": {\"regex\": \"code=[0-9]+ failed\"}},"
			  "\"CAUSE\": {\"regex\": {\"in\": [\"gamma\"]}, \"rule\": [{\"dst_code\": "
			  "\"ORD\"}]}}}";
	struct kb *kb = NULL;
	int hits[8];
	(void)state;
	assert_int_equal(kb_load_json("t.json", doc, strlen(doc), &kb, err, sizeof(err)), 0);
	struct kb_scan st = { 0 };
	assert_int_equal(kb_match(kb, &st, "alpha then beta", 15, ANY, hits, 8), 1);
	assert_int_equal(hits[0], 0);
	assert_int_equal(kb_match(kb, &st, "beta then alpha", 15, ANY, hits, 8), 0);
	assert_int_equal(kb_match(kb, &st, "ALPHA then BETA", 15, ANY, hits, 8), 0);
	assert_int_equal(kb_match(kb, &st, "first", 5, ANY, hits, 8), 0);
	assert_int_equal(kb_match(kb, &st, "-", 1, ANY, hits, 8), 0);
	assert_int_equal(kb_match(kb, &st, "second", 6, ANY, hits, 8), 1); /* 2 lines apart */
	assert_int_equal(hits[0], 1);
	kb_scan_release(&st);
	assert_int_equal(kb_match(kb, &st, "first", 5, ANY, hits, 8), 0);
	for (int i = 0; i < 3; i++)
		kb_match(kb, &st, "-", 1, ANY, hits, 8);
	assert_int_equal(kb_match(kb, &st, "second", 6, ANY, hits, 8), 0); /* 4 apart: too far */
	kb_scan_release(&st);
	assert_int_equal(kb_match(kb, NULL, "op code=17 failed", 17, ANY, hits, 8), 1);
	assert_int_equal(hits[0], 2);
	assert_int_equal(kb_match(kb, NULL, "op code=x failed", 16, ANY, hits, 8), 0);
	assert_true(kb_causes(kb, 3, 0));
	kb_free(kb);
}

/* In the triage: no rule of ours knows these lines; the base does, and of the faults it
 * finds, the one that causes the others is the cause, whatever the order of the lines and
 * however specific the others' keywords. */
static void test_triage(void **state)
{
	static const char log[] =
		"[ERROR] GE(1234,python):2025-03-01-10:00:01.000.000 [graph.cc:10] "
		"Run graph async failed, graph id 3\n"
		"[ERROR] RUNTIME(1234,python):2025-03-01-10:00:02.000.000 [mem.cc:100] "
		"DevMemAllocHugePageManaged failed: size 1073741824\n";
	struct hlog_report r;
	(void)state;
	hlog_report_init(&r);
	assert_int_equal(hlog_scan_buf("plog-1234.log", "node3", log, sizeof(log) - 1, &r, err,
				       sizeof(err)), 0);
	hlog_conclude(&r);
	assert_int_equal(r.kind, HLOG_KB);
	assert_string_equal(r.kb_entity, "AISW_CANN_Runtime_054");
	assert_string_equal(r.detail, "cann-runtime");
	assert_int_equal(r.cat, HCAT_UNRESOLVED);
	assert_string_equal(r.node, "node3");
	assert_string_equal(r.cause, "a CANN runtime failure (device, stream or task) (fault "
				     "AISW_CANN_Runtime_054, a CANN_Plog line) on node node3; it "
				     "explains AISW_CANN_GE_033");
	assert_int_equal(r.nevidence, 2);
	assert_int_equal(r.evidence[0].line, 2);
	assert_int_equal(r.evidence[1].line, 1);
	hlog_report_release(&r);

	/* a user's base: the cause is later and shorter than what it causes, and still wins;
	 * its own name and advice are shown */
	const char *doc = "{\"knowledge-repository\": {"
			  "\"EFFECT\": {\"regex\": {\"in\": [\"transfer aborted after retries\"]}},"
			  "\"ROOT\": {\"attribute\": {\"component\": \"NPU\", \"module\": "
			  "\"HBM\", \"cause_en\": \"HBM fault\", \"suggestion_en\": "
			  "[\"Reset the NPU.\"]}, \"regex\": {\"in\": [\"hbm uncorrectable\"]}, "
			  "\"rule\": [{\"dst_code\": \"EFFECT\"}]}}}";
	static const char log2[] = "transfer aborted after retries\nhbm uncorrectable error seen\n";
	struct kb *kb = NULL;
	assert_int_equal(kb_load_json("mine.json", doc, strlen(doc), &kb, err, sizeof(err)), 0);
	hlog_report_init(&r);
	r.kb = kb;
	assert_int_equal(hlog_scan_buf("dev.log", "", log2, sizeof(log2) - 1, &r, err,
				       sizeof(err)), 0);
	hlog_conclude(&r);
	assert_string_equal(r.kb_entity, "ROOT");
	assert_int_equal(r.cat, HCAT_HARDWARE);
	assert_string_equal(r.cause, "HBM fault (ROOT) on node node0; it explains EFFECT");
	assert_string_equal(r.fix, "Reset the NPU.");
	hlog_report_release(&r);

	/* its keywords are plain words, so they name a fault only on a line whose own words are
	 * an error's: the same words in a line that says nothing failed are no hit (real-logs-new
	 * batch475: DALI's "does not support resetting ... Ignoring..." against a CANN entity's
	 * "does not support") */
	static const char log3[] = "hbm uncorrectable counter read back as 0\n";
	hlog_report_init(&r);
	r.kb = kb;
	assert_int_equal(hlog_scan_buf("dev.log", "", log3, sizeof(log3) - 1, &r, err,
				       sizeof(err)), 0);
	hlog_conclude(&r);
	assert_int_equal((int)r.nkbhit, 0);
	hlog_report_release(&r);
	kb_free(kb);
}

/* An entity is looked for only in the kinds of log its base names: the host driver's "alloc
 * ... failed" is not NCCL's "malloc) or external library call failed" on a screen; and an
 * entity any error code fits marks a failure but never names a cause. */
static void test_scope(void **state)
{
	const struct kb *kb;
	int hits[16];
	(void)state;
	assert_int_equal(kb_builtin(&kb, err, sizeof(err)), 0);
	/* ms-swift#1233, NCCL through torch */
	static const char nccl[] = "torch.distributed.DistBackendError: NCCL error in: "
				   "../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1333, unhandled "
				   "system error (run with NCCL_DEBUG=INFO for details), NCCL version "
				   "2.18.6 ncclSystemError: System call (e.g. socket, malloc) or external "
				   "library call failed or device error.";
	int ummu = index_of(kb, "AISW_UB_UMMU_015");
	int n = kb_match(kb, NULL, nccl, strlen(nccl), KB_IN_APP, hits, 16);
	for (int i = 0; i < n; i++)
		assert_int_not_equal(hits[i], ummu);
	n = kb_match(kb, NULL, nccl, strlen(nccl), KB_IN_SYS, hits, 16);
	int seen = 0;
	for (int i = 0; i < n; i++)
		seen |= hits[i] == ummu;
	assert_true(seen);
	assert_int_equal(kb_specificity(kb, index_of(kb, "AISW_CANN_ERRCODE_Custom")), 0);
	assert_int_equal(kb_specificity(kb, index_of(kb, "AISW_CANN_Runtime_Drv_007")), 29);

	static const char log[] = "RuntimeError: EZ1001: [PID: 42] something went wrong\n";
	struct hlog_report r;
	hlog_report_init(&r);
	assert_int_equal(hlog_scan_buf("stdout.txt", "", log, sizeof(log) - 1, &r, err,
				       sizeof(err)), 0);
	hlog_conclude(&r);
	assert_true(r.nkbhit >= 1);
	assert_int_not_equal(r.kind, HLOG_KB);
	assert_null(r.kb_entity);
	hlog_report_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_builtin_counts), cmocka_unit_test(test_every_entity),
		cmocka_unit_test(test_families),       cmocka_unit_test(test_edges),
		cmocka_unit_test(test_load_file),      cmocka_unit_test(test_load_refused),
		cmocka_unit_test(test_match_rules),    cmocka_unit_test(test_triage),
		cmocka_unit_test(test_scope),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
