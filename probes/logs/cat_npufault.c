/* The Ascend device plugin's fault records, as MindCluster publishes them in its ConfigMaps
 * (the node's device-info, Volcano's vcjob-fault-npu-cm) and operators paste them from
 * kubectl: one JSON object per faulty NPU, {"fault_type":"CardUnhealthy","npu_name":
 * "Ascend910-4",...,"fault_level":"SeparateNPU","fault_code":"A8028801,..."}, whole or with
 * its quotes escaped inside a string. The level is the plugin's own verdict, the classes of
 * faultCode.json (faultcode.h), so the record with the most severe level names the device; a
 * level that only asks to watch or retry is no fault of the chip. */
#include <string.h>

#include "probes/logs/catalog.h"
#include "probes/logs/faultcode.h"
#include "probes/logs/logtext.h"

/* The string value after key (its quotes, escaped or not, and the colon skipped): its span,
 * empty when none within the line. */
static struct pspan json_value(struct pspan m, const char *at)
{
	const char *end = m.s + m.n, *p = at;
	while (p < end && (*p == '"' || *p == '\\' || *p == ':' || *p == ' '))
		p++;
	const char *v = p;
	while (p < end && *p != '"' && *p != '\\' && *p != ',' && *p != '}')
		p++;
	return (struct pspan){v, (size_t)(p - v)};
}

/* The class a level names ("SeparateNPU"), or -1. */
static int level_class(struct pspan v)
{
	for (int c = 0; c < FC_NCLASSES; c++) {
		const char *name = fc_class_name((enum fc_class)c);
		if (strlen(name) == v.n && !memcmp(name, v.s, v.n))
			return c;
	}
	return -1;
}

/* The number that ends an NPU's name ("Ascend910-4", "Ascend910B-12"), or -1. */
static int npu_number(struct pspan v)
{
	size_t i = v.n;
	while (i && v.s[i - 1] >= '0' && v.s[i - 1] <= '9')
		i--;
	if (i == v.n || !i || v.s[i - 1] != '-' || v.n - i > 4)
		return -1;
	int n = 0;
	for (; i < v.n; i++)
		n = n * 10 + (v.s[i] - '0');
	return n;
}

/* Of the records in the line, the one with the most severe level: its device, and the level
 * (enum fc_class) as the event's value; refused when no record's level takes the chip out of
 * service. */
static int npu_fault(struct pspan m, const struct hx_vals *x, struct hlog_event *e)
{
	(void)x;
	int best = -1, dev = -1;
	const char *end = m.s + m.n;
	for (const char *p = m.s; p < end;) {
		const char *name = hlog__find((struct pspan){p, (size_t)(end - p)}, "npu_name");
		if (!name)
			break;
		p = name + 8;
		const char *next = hlog__find((struct pspan){p, (size_t)(end - p)}, "npu_name");
		struct pspan rec = {p, (size_t)((next ? next : end) - p)};
		const char *lv = hlog__find(rec, "fault_level");
		int c = lv ? level_class(json_value(m, lv + 11)) : -1;
		int d = npu_number(json_value(m, p));
		if (c > best && d >= 0) {
			best = c;
			dev = d;
		}
	}
	if (best < FC_RESTART_NPU)
		return 0;
	e->dev = dev;
	e->value = best;
	return 1;
}

static const struct hlog_sig rows[] = {
	{{"npu_name", "fault_level"},
	 HCAT_HARDWARE,
	 "npu-fault-record",
	 "the device plugin judged an NPU faulty from its fault codes and took it out of service "
	 "(or asked for it to be reset)",
	 "drain the node or move the job off the NPU the record names; read its fault codes and "
	 "health (npu-smi info -t health -i N), reset the chip when the level asks for a restart "
	 "(npu-smi set -t reset), and have it replaced when the fault returns",
	 0,
	 npu_fault},
};

const struct hlog_sigtab hlog__cat_npufault = {"npufault", rows, sizeof(rows) / sizeof(rows[0])};
