/* MindCluster's fault records, as it publishes them in its ConfigMaps and operators paste
 * them from kubectl: the device plugin's, one JSON object per faulty NPU ({"fault_type":
 * "CardUnhealthy","npu_name":"Ascend910-4",...,"fault_level":"SeparateNPU","fault_code":...},
 * in the node's device-info or Volcano's vcjob-fault-npu-cm), and NodeD's, one per faulty
 * part of the node ({"DeviceType":"CPU","DeviceId":1,"FaultCode":["00000011"],"FaultLevel":
 * "SeparateFault"}); whole, or with their quotes escaped inside a string. The level is
 * MindCluster's own verdict, in the classes of faultCode.json (faultcode.h; NodeD says "Fault"
 * where the plugin says "NPU"), so the record with the most severe level names the device; a
 * level that only asks to watch or retry is no fault of the hardware. */
#include <string.h>

#include "probes/logs/catalog.h"
#include "probes/logs/faultcode.h"
#include "probes/logs/logtext.h"

/* A record's form: the key that opens it, its level's key, and how it names its device: the
 * number that ends the NPU's name (the opening key's value), or an id key whose device is an
 * NPU only when the opening key, the part's type, says so. */
static const struct form {
	const char *open, *level, *id;
} forms[] = {
	{"npu_name", "fault_level", NULL},
	{"DeviceType", "FaultLevel", "DeviceId"},
};

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

/* A level's name without its "NPU" or "Fault" tail: the part both spellings share. */
static struct pspan level_stem(struct pspan v)
{
	if (v.n > 3 && !memcmp(v.s + v.n - 3, "NPU", 3))
		v.n -= 3;
	else if (v.n > 5 && !memcmp(v.s + v.n - 5, "Fault", 5))
		v.n -= 5;
	return v;
}

/* The class a level names ("SeparateNPU", "SeparateFault"), or -1. */
static int level_class(struct pspan v)
{
	struct pspan want = level_stem(v);
	for (int c = 0; c < FC_NCLASSES; c++) {
		const char *name = fc_class_name((enum fc_class)c);
		struct pspan stem = level_stem((struct pspan){name, strlen(name)});
		if (stem.n == want.n && !memcmp(stem.s, want.s, want.n))
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

/* The NPU record rec names: the number ending its name, or its id when its type is an NPU;
 * HLOG_DEV_NONE_HERE for a part of the node (a CPU, a board, a BMC), -1 when it says none. */
static int record_npu(const struct form *f, struct pspan m, struct pspan rec)
{
	if (!f->id)
		return npu_number(json_value(m, rec.s));
	struct pspan type = json_value(m, rec.s);
	const char *id = hlog__find(rec, f->id);
	long long v;
	if (type.n != 3 || memcmp(type.s, "NPU", 3))
		return HLOG_DEV_NONE_HERE;
	if (!id || !hlog__num_at(json_value(m, id + strlen(f->id)), &v) || v < 0 || v > 4095)
		return -1;
	return (int)v;
}

/* Of the records in the line, the one with the most severe level: its NPU (none for a part of
 * the node), and the level (enum fc_class) as the event's value; refused when no record's
 * level takes the hardware out of service. */
static int fault_record(struct pspan m, const struct hx_vals *x, struct hlog_event *e)
{
	(void)x;
	int best = -1, dev = -1;
	const char *end = m.s + m.n;
	for (size_t k = 0; k < sizeof(forms) / sizeof(forms[0]); k++) {
		const struct form *f = &forms[k];
		size_t open = strlen(f->open), lvl = strlen(f->level);
		for (const char *p = m.s; p < end;) {
			const char *at = hlog__find((struct pspan){p, (size_t)(end - p)}, f->open);
			if (!at)
				break;
			p = at + open;
			const char *next =
				hlog__find((struct pspan){p, (size_t)(end - p)}, f->open);
			struct pspan rec = {p, (size_t)((next ? next : end) - p)};
			const char *lv = hlog__find(rec, f->level);
			int c = lv ? level_class(json_value(m, lv + lvl)) : -1;
			if (c > best) {
				best = c;
				dev = record_npu(f, m, rec);
			}
		}
	}
	if (best < FC_RESTART_NPU)
		return 0;
	e->dev = dev;
	e->value = best;
	return 1;
}

static const char fault_meaning[] =
	"MindCluster judged the hardware faulty from its fault codes and took it out of service "
	"(or asked for it to be reset)";
static const char fault_fix[] =
	"drain the node or move the job off the device the record names; read its fault codes and "
	"health (npu-smi info -t health -i N for an NPU, the BMC's event log for the node's other "
	"parts), reset an NPU when the level asks for a restart (npu-smi set -t reset), and have "
	"the part replaced when the fault returns";

static const struct hlog_sig rows[] = {
	{{"npu_name", "fault_level"},
	 HCAT_HARDWARE,
	 "npu-fault-record",
	 fault_meaning,
	 fault_fix,
	 0,
	 fault_record},
	{{"DeviceType", "FaultLevel"},
	 HCAT_HARDWARE,
	 "node-fault-record",
	 fault_meaning,
	 fault_fix,
	 0,
	 fault_record},
};

const struct hlog_sigtab hlog__cat_npufault = {"npufault", rows, sizeof(rows) / sizeof(rows[0])};
