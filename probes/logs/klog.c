/* The kernel-log scan. The patterns are the kernel's own printk texts (drivers/pci/pcie/aer.c,
 * arch/x86/kernel/cpu/mce, drivers/acpi/apei/ghes.c and the CPER printer, drivers/edac,
 * mm/memory-failure.c) and the Ascend driver's: its lines start with "[ascend] [MODULE]",
 * errors carry "[ERROR]" on most builds but not on all (the host's "Device is abnormal."
 * has none), so an NPU line is an error when its message says so. Only the message of an
 * "[ascend]" line is searched for error words, never its "[function line]" tags, where
 * names such as devmm_svm_device_fault would read as faults. */
#include <string.h>

#include "probes/logs/klog.h"
#include "probes/tool/ptext.h"

static int has(struct pspan s, const char *lit)
{
	size_t n = strlen(lit);
	if (n > s.n)
		return 0;
	for (size_t i = 0; i + n <= s.n; i++)
		if (s.s[i] == lit[0] && !memcmp(s.s + i, lit, n))
			return 1;
	return 0;
}

static int has_nocase(struct pspan s, const char *lit)
{
	size_t n = strlen(lit);
	for (size_t i = 0; i + n <= s.n; i++)
		if (probe__eq_nocase((struct pspan){ s.s + i, n }, lit))
			return 1;
	return 0;
}

/* Is it an NPU driver line, and where does its message start? */
static int npu_line(struct pspan l, struct pspan *msg)
{
	static const char *const names[] = { "davinci", "devdrv", "hdcdrv", "hisi_hdc",
					     "drv_pcie", "drv_devmng", "tsdrv" };
	const char *a = NULL;
	for (size_t i = 0; i + 8 <= l.n && !a; i++)
		if (!memcmp(l.s + i, "[ascend]", 8))
			a = l.s + i;
	if (a) {
		/* skip "[ascend] [devmm] [ERROR] [func 123] <comm:pid> " */
		struct pspan m = { a, l.n - (size_t)(a - l.s) };
		for (;;) {
			m = probe__trim(m);
			char close = m.n && m.s[0] == '[' ? ']' : m.n && m.s[0] == '<' ? '>' : 0;
			const char *e = close ? memchr(m.s, close, m.n) : NULL;
			if (!e)
				break;
			m.n -= (size_t)(e + 1 - m.s);
			m.s = e + 1;
		}
		*msg = m;
		return 1;
	}
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (has_nocase(l, names[i])) {
			*msg = l;
			return 1;
		}
	return 0;
}

static int error_words(struct pspan m)
{
	static const char *const words[] = { "error", "fail", "unsuccessful", "timeout",
					     "timed out", "abnormal", "fault", "lost" };
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (has_nocase(m, words[i]))
			return 1;
	return 0;
}

static int is_memory_failure(struct pspan l)
{
	return has(l, "Memory failure:");
}

static int is_hw_fatal(struct pspan l)
{
	if (has_nocase(l, "machine check exception") || has_nocase(l, "fatal machine check"))
		return 1;
	if (has(l, "[Hardware Error]") &&
	    (has(l, "severity: fatal") || has(l, "severity: recoverable") ||
	     has(l, "Uncorrected")))
		return 1;
	return has(l, "EDAC") && (has(l, " UE ") || has_nocase(l, "uncorrect"));
}

static int is_aer_fatal(struct pspan l)
{
	if (has(l, "PCIe Bus Error: severity=Uncorrect"))
		return 1;
	return has(l, "AER:") && (has(l, "Uncorrect") || has(l, "recovery failed") ||
				 has(l, "can't recover"));
}

static int is_npu_device(struct pspan l)
{
	struct pspan m;
	return npu_line(l, &m) &&
	       (has_nocase(m, "abnormal") || has_nocase(m, "heartbeat") ||
		has_nocase(m, "heart beat") || has_nocase(m, "device lost") ||
		has_nocase(m, "link down"));
}

static int is_npu_driver(struct pspan l)
{
	struct pspan m;
	return npu_line(l, &m) && (has(l, "[ERROR]") || error_words(m));
}

static int is_aer_corrected(struct pspan l)
{
	return has(l, "PCIe Bus Error: severity=Correct") ||
	       (has(l, "AER:") && has(l, "Correct"));
}

static int is_hw_corrected(struct pspan l)
{
	if (has(l, "mce: [Hardware Error]"))
		return 1; /* an uncorrected one panics, or is caught above */
	if (has(l, "[Hardware Error]") && has(l, "severity: corrected"))
		return 1;
	return has(l, "EDAC") && (has(l, " CE ") || has_nocase(l, "corrected"));
}

/* Every kind once, most severe first: a line counts for the first that matches. */
static const struct {
	enum klog_kind kind;
	const char *name;
	enum probe_status st;
	int (*match)(struct pspan line);
	const char *fix;
} kinds[KLOG_NKINDS] = {
	{KLOG_MEMORY_FAILURE, "memory pages taken offline", PROBE_FAIL, is_memory_failure,
	 "check the DIMMs (ras-mc-ctl --errors, the BMC's event log) and replace the failing one"},
	{KLOG_HW_FATAL, "uncorrected hardware errors", PROBE_FAIL, is_hw_fatal,
	 "read the BMC's event log and replace the failing part (DIMM, CPU, board) before "
	 "running jobs here"},
	{KLOG_AER_FATAL, "PCIe AER uncorrectable errors", PROBE_FAIL, is_aer_fatal,
	 "reseat or replace the board at that PCIe address and check its riser and slot; "
	 "reboot the node"},
	{KLOG_NPU_DEVICE, "NPU device abnormal or lost", PROBE_FAIL, is_npu_device,
	 "npu-smi info -t health -i N for that NPU; reset it (npu-smi set -t reset -i N -c C) or "
	 "reboot the node"},
	{KLOG_NPU_DRIVER, "NPU driver errors", PROBE_WARN, is_npu_driver,
	 "match their time with the job's failure; npu-smi info -t health -i N for that NPU"},
	{KLOG_AER_CORRECTED, "PCIe AER corrected errors", PROBE_WARN, is_aer_corrected,
	 "a marginal PCIe link (riser, slot, board): watch whether they keep coming (dmesg -w)"},
	{KLOG_HW_CORRECTED, "corrected machine checks or memory errors", PROBE_WARN,
	 is_hw_corrected,
	 "check the DIMMs' corrected error counts (ras-mc-ctl --error-count) and the BMC's event "
	 "log"},
};

const char *klog_kind_name(enum klog_kind k)
{
	return (unsigned)k < KLOG_NKINDS ? kinds[k].name : "?";
}

enum probe_status klog_kind_status(enum klog_kind k)
{
	return (unsigned)k < KLOG_NKINDS ? kinds[k].st : PROBE_PASS;
}

const char *klog_kind_fix(enum klog_kind k)
{
	return (unsigned)k < KLOG_NKINDS ? kinds[k].fix : "";
}

void klog_scan(const char *buf, size_t len, struct klog_report *r)
{
	struct pspan rest = { buf, len }, line;
	memset(r, 0, sizeof(*r));
	while (probe__next_line(&rest, &line)) {
		r->lines++;
		struct pspan t = probe__trim(line);
		for (int k = 0; k < KLOG_NKINDS; k++) {
			if (!kinds[k].match(t))
				continue;
			struct klog_finding *f = &r->k[kinds[k].kind];
			if (!f->count++) {
				f->first_line = r->lines;
				probe__copy(f->line, sizeof(f->line), t);
			}
			break;
		}
	}
}

enum probe_status klog_worst(const struct klog_report *r)
{
	enum probe_status st = PROBE_PASS;
	for (int k = 0; k < KLOG_NKINDS; k++)
		if (r->k[k].count)
			st = probe_status_worst(st, kinds[k].st);
	return st;
}
