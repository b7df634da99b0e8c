/* The kernel log since boot (dmesg, journalctl -k -b, or a saved copy) scanned for what a
 * node's hardware said: NPU driver errors, PCIe AER errors, machine checks and the firmware's
 * hardware error records (APEI/GHES, EDAC), and pages the kernel took offline. Each kind is
 * a row of one table (probes/klog.c) with its severity and fix. */
#ifndef HCCLCTL_PROBES_KLOG_H
#define HCCLCTL_PROBES_KLOG_H

#include <stddef.h>

#include "probes/tool/verdict.h"

enum klog_kind {
	KLOG_MEMORY_FAILURE, /* "Memory failure: ..." : a page poisoned */
	KLOG_HW_FATAL,	     /* machine check exception, GHES fatal/recoverable, EDAC UE */
	KLOG_AER_FATAL,	     /* PCIe AER uncorrectable */
	KLOG_NPU_DEVICE,     /* the NPU driver says a device is abnormal or lost */
	KLOG_NPU_DRIVER,     /* other NPU driver errors */
	KLOG_AER_CORRECTED,  /* PCIe AER corrected */
	KLOG_HW_CORRECTED,   /* corrected machine checks, GHES corrected, EDAC CE */
	KLOG_NKINDS,
};

struct klog_finding {
	unsigned count;
	unsigned first_line; /* 1-based line of the first one */
	char line[240];	     /* that line, verbatim (truncated, control bytes as '?') */
};

struct klog_report {
	struct klog_finding k[KLOG_NKINDS];
	unsigned lines;
};

/* What a kind is called ("PCIe AER uncorrectable"), its severity (PROBE_FAIL or
 * PROBE_WARN) and what to do. */
const char *klog_kind_name(enum klog_kind k);
enum probe_status klog_kind_status(enum klog_kind k);
const char *klog_kind_fix(enum klog_kind k);

/* Scans the text (need not be NUL-terminated); each line counts for its most severe kind. */
void klog_scan(const char *buf, size_t len, struct klog_report *r);

/* The worst status found (PROBE_PASS when nothing). */
enum probe_status klog_worst(const struct klog_report *r);

#endif
