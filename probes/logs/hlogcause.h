/* The triage's reasoning (hlogcause.c's driver) in its families of causes, as the driver and
 * the families see each other: the families call only hlogev.c's helpers and, for a wait
 * chain that ends at the root, hlogroot.c; none calls the driver (internal to probes/logs). */
#ifndef HCCLCTL_PROBES_HLOGCAUSE_H
#define HCCLCTL_PROBES_HLOGCAUSE_H

#include <stddef.h>

#include "probes/logs/hlogint.h"

#define sb_add hlog__sb_add
#define add_evidence hlog__evidence

/* hlogev.c: what every family asks of the events and the report. */
int hlog__is_heartbeat(int kind);
int hlog__ev_rank(const struct hlog_report *r, const struct hlog_event *e);
const char *hlog__node_of(const struct hlog_event *e);
void hlog__set_fix(struct hlog_report *r, const char *fix);
void hlog__set_what(struct hlog_report *r, int cat, const char *detail);
/* A cause drawn from comparing the processes replaces the one the lines gave: r as a cause
 * of kind, cat and detail with no culprit, cause or evidence yet; the old cause kept in
 * before (len bytes), "" when there was none. */
void hlog__recast(struct hlog_report *r, int kind, int cat, const char *detail, char *before,
		  size_t len);
void hlog__list_conseq(const struct hlog_report *r, struct sbuf *b, const char *what,
			int skip_rank);
const struct hlog_file *hlog__file_of(const struct hlog_report *r, int rank, const char *host,
				       int dev, const char *ip);
void hlog__who(struct sbuf *b, int rank, const char *node, const char *ip, int dev);
size_t hlog__reporters(const struct hlog_report *r,
			int (*match)(const struct hlog_event *, const struct hlog_event *),
			const struct hlog_event *key);
int hlog__most_waited(const struct hlog_report *r, int kind, size_t *votes,
		       const struct hlog_event **first);
void hlog__evidence_of(struct hlog_report *r, int kind,
			int (*match)(const struct hlog_report *, const struct hlog_event *));
void hlog__fill_context(struct hlog_report *r, const struct hlog_event *c);
/* The first PCI address a line names ("0000:91:00.0"), into out; "" when none. */
void hlog__line_pci(const char *text, char *out, size_t len);
/* The first RDMA device name in text ("mlx5_18"), or "". */
void hlog__line_rdma(const char *text, char *out, size_t len);
/* What text says of the other end (hlog__xpeer), into the fields of r still empty: 1 when it
 * gave any. */
int hlog__take_values(struct hlog_report *r, const char *text);
/* When the verdict names no address and no port: those of the first unexplained error line
 * right under c (at most 4 lines, same file) that names one (c's below_ip, below_port). */
void hlog__values_below(struct hlog_report *r, const struct hlog_event *c);
void hlog__quote(struct sbuf *b, const struct hlog_event *e, const char *const *keys);
void hlog__block_devices(struct hlog_report *r, const struct hlog_event *c);
void hlog__devices_text(struct sbuf *b, const struct hlog_report *r);
int hlog__rank_list(const char *text, const char *key, int *out, int max);

/* hlogfault.c: a fault that explains the rest (a lost heartbeat, a failed completion, a
 * catalogued error). */
void hlog__conclude_heartbeat(struct hlog_report *r, const struct hlog_event *c);
void hlog__conclude_cqe(struct hlog_report *r, const struct hlog_event *c);
void hlog__conclude_catalog(struct hlog_report *r, const struct hlog_event *c);

/* hlogconfig.c: a configuration that differs or is wrong (parameters across ranks, ports,
 * device IPs, the TLS switch). */
void hlog__conclude_mismatch(struct hlog_report *r, const struct hlog_event *c);
void hlog__conclude_config(struct hlog_report *r, const struct hlog_event *c);
const struct hlog_event *hlog__tls_split(const struct hlog_report *r, int *ntls);
void hlog__conclude_tls_split(struct hlog_report *r, const struct hlog_event *c, int rows);

/* hlogroot.c: the communicator's setup at its root (ranks that never connected, the root
 * unreachable, the store's id late): 1 when it decides the cause. */
int hlog__conclude_root(struct hlog_report *r);

/* hlogwait.c: the waits followed to the rank or link they point at. */
void hlog__conclude_chain(struct hlog_report *r);

/* hlogfind.c: after the cause: ranks shared by the processes of a job, the nodes named, and
 * the other findings ranked. */
void hlog__share_ranks(struct hlog_report *r);
void hlog__name_nodes(struct hlog_report *r);
int hlog__weight(const struct hlog_event *e);
void hlog__add_findings(struct hlog_report *r);

#endif
