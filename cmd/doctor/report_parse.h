/* doctor's reports read back, for doctor --merge (cmd/doctor/report_parse.c). */
#ifndef HCCLCTL_PROBES_DOCTORDOC_H
#define HCCLCTL_PROBES_DOCTORDOC_H

#include <stddef.h>

#include <cjson/cJSON.h>

/* Each node of the documents read, with its own document ({"hostname", "checks",
 * "facts"}, owned by the entry) and the name of the input it came from. */
struct doctor_merged_node {
	char *name, *file;
	cJSON *doc;
};
/* The checks a report may name: the index of code in the caller's table of checks (cmd/'s),
 * -1 when it is none of them. The reader refuses a report naming another. */
typedef int doctor_code_index_fn(const char *code);
struct doctor_merged {
	struct doctor_merged_node *v;
	size_t n, cap;
	doctor_code_index_fn *code_index; /* set by the caller before the first parse */
};
/* The checks of doc (parsed from buf[0..len), a node's report on host): strings, a known
 * status and a code code_index knows, one result per check. 0, -EBADMSG (err: "NAME: line L,
 * column C: what"), -ENOMEM. */
int doctor_doc_check(const char *name, const char *buf, size_t len, const cJSON *doc,
		     const char *host, doctor_code_index_fn *code_index, char *err,
		     size_t errlen);
/* Adds the nodes of buf[0..len), one or more documents, named name in messages. 0, or
 * -EBADMSG (err: "NAME: line L, column C: what"; also a check of an unknown code or one
 * given twice for a node), -EEXIST (a node already read), -ENODATA
 * (no document), -ENOMEM. */
int doctor_merge_parse(struct doctor_merged *m, const char *name, const char *buf, size_t len,
		       char *err, size_t errlen);
/* A node whose report is expected: added without a document (doc NULL, file "") when none of
 * its name was read. 0 or -ENOMEM. */
int doctor_merged_expect(struct doctor_merged *m, const char *name);
void doctor_merged_release(struct doctor_merged *m);

#endif
