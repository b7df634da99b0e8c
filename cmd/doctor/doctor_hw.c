/* doctor's hardware-health checks of one node, the ones every cluster health checker makes
 * of its accelerators: the NPUs present (npu.count: the rank table, npu-smi and the PCIe bus
 * agree), their current fault codes and how MindCluster would handle them (npu.faults), ECC
 * counters (npu.ecc), PCIe links against their capability (npu.pcie), temperature, power and
 * clock (npu.thermal). Each reads npu-smi (or sysfs) with a deadline; what the node cannot
 * tell (no npu-smi, a query this board does not have) is SKIP with the reason, never FAIL.
 * The ECC counters are read twice, the second time only on chips that have errors, so that a
 * growing count is named without doubling the npu-smi calls of a healthy node. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cmd/doctor/doctor.h"
#include "cmd/lib/nodeself.h"
#include "cmd/lib/tablefile.h"
#include "probes/logs/faultcode.h"
#include "probes/npu/npuhw.h"
#include "probes/npu/npusmi.h"
#include "probes/host/pcilink.h"
#include "probes/tool/tool.h"
#include "ranktable/ranktable.h"
#include "ranktable/base/plural.h"

#define SMI_TIMEOUT_MS 10000
#define MSG_LEN 1000

static const char *st_str(enum probe_status s)
{
	return s == PROBE_FAIL ? "FAIL" : s == PROBE_WARN || s == PROBE_UNKNOWN ? "WARN"
				      : s == PROBE_SKIP			    ? "SKIP"
									    : "PASS";
}

/* A message that grows by "; part" up to its size. */
struct msg {
	char s[MSG_LEN];
	size_t n;
};

static void msg_add(struct msg *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void msg_add(struct msg *m, const char *fmt, ...)
{
	if (m->n >= sizeof(m->s) - 1)
		return;
	if (m->n)
		m->n += (size_t)snprintf(m->s + m->n, sizeof(m->s) - m->n, "; ");
	if (m->n >= sizeof(m->s) - 1)
		return;
	va_list ap;
	va_start(ap, fmt);
	int k = vsnprintf(m->s + m->n, sizeof(m->s) - m->n, fmt, ap);
	va_end(ap);
	if (k > 0)
		m->n += (size_t)k;
	if (m->n > sizeof(m->s) - 1)
		m->n = sizeof(m->s) - 1;
}

/* The chips a query failed on: the first failure in full, then how many more. */
struct fails {
	struct msg m;
	size_t n;
};

static void fails_add(struct fails *f, const char *name, const char *why)
{
	if (!f->n++)
		msg_add(&f->m, "%s: %s", name, why);
}

static const char *fails_str(struct fails *f)
{
	if (f->n > 1 && f->m.n < sizeof(f->m.s) - 40) {
		snprintf(f->m.s + f->m.n, sizeof(f->m.s) - f->m.n, " (and %zu more)", f->n - 1);
		f->m.n = strlen(f->m.s);
	}
	return f->m.s;
}

struct hw {
	const struct doctor_node_args *a;
	cJSON *checks, *facts;
	char smi[4096];
	int have_smi;
	int hung; /* npu-smi did not answer once: not asked again (a hung driver hangs them all) */
	struct npusmi_chips chips; /* info -l (or -m) */
	int have_chips;
	char chips_why[300];
	struct npuhw_table table; /* npu-smi info: the bus id of each chip */
	int have_table;
	struct npuhw_ecc ecc[NPUSMI_MAX_CHIPS], ecc2[NPUSMI_MAX_CHIPS];
	int ecc_state[NPUSMI_MAX_CHIPS]; /* 0 read, 1 unsupported, -1 failed */
	char ecc_why[NPUSMI_MAX_CHIPS][200];
	struct pci_link pci[PCILINK_MAX];
	int npci; /* -errno when sysfs could not be read */
	char pci_why[300];
};

/* The first line of a tool's answer, for messages. */
static void first_line(const struct probe_tool_result *r, char *buf, size_t len)
{
	const char *s = r->errout && *r->errout ? r->errout : r->out ? r->out : "";
	while (*s == ' ' || *s == '\t' || *s == '\n')
		s++;
	size_t n = strcspn(s, "\r\n");
	snprintf(buf, len, "%.*s", (int)(n < 160 ? n : 160), s);
}

/* npu-smi info ARGS...: 0 when it ran and exited 0; -ENOENT when there is no npu-smi; else
 * the failure, with why filled (the output is kept in r in every case). */
static int smi(struct hw *h, char *const *args, struct probe_tool_result *r, char *why,
	       size_t wlen)
{
	char *argv[12], err[PROBE_ERRLEN], cmd[160], line[200];
	size_t n = 0;
	memset(r, 0, sizeof(*r));
	if (!h->have_smi)
		return -ENOENT;
	if (h->hung) {
		snprintf(why, wlen, "npu-smi did not answer an earlier query in 10 s");
		return -EIO;
	}
	argv[n++] = h->smi;
	for (size_t i = 0; args[i] && n < 11; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	probe_tool_cmdline(argv, cmd, sizeof(cmd));
	int rc = probe_tool_run(h->smi, argv, SMI_TIMEOUT_MS, r, err, sizeof(err));
	if (rc) {
		h->hung |= rc == -ETIMEDOUT;
		snprintf(why, wlen, "%.250s",
			 rc == -ETIMEDOUT ? "npu-smi did not answer in 10 s" : err);
		return rc == -ENOENT ? -ENOENT : -EIO;
	}
	if (r->status) {
		first_line(r, line, sizeof(line));
		snprintf(why, wlen, "%.100s (exit %d)%s%.150s", cmd, r->status, *line ? ": " : "",
			 line);
		return -EIO;
	}
	return 0;
}

static void list_chips(struct hw *h)
{
	char *l[] = {(char *)"info", (char *)"-l", NULL},
	     *m[] = {(char *)"info", (char *)"-m", NULL};
	char err[PROBE_ERRLEN];
	struct probe_tool_result r;
	int rc = smi(h, l, &r, h->chips_why, sizeof(h->chips_why));
	if (rc == -ENOENT)
		h->have_smi = 0; /* a path given that does not exist: no npu-smi */
	if (!rc && !npusmi_parse_list(r.out, r.outlen, &h->chips, err, sizeof(err)))
		h->have_chips = 1;
	probe_tool_result_release(&r);
	if (!h->have_chips && rc != -ENOENT) {
		rc = smi(h, m, &r, h->chips_why, sizeof(h->chips_why));
		if (!rc && !npusmi_parse_mapping(r.out, r.outlen, &h->chips, err, sizeof(err)))
			h->have_chips = 1;
		else if (!rc)
			snprintf(h->chips_why, sizeof(h->chips_why), "npu-smi lists no NPU: %.250s",
				 err);
		probe_tool_result_release(&r);
	}
	char *t[] = { (char *)"info", NULL }, why[300];
	if (h->have_chips && !smi(h, t, &r, why, sizeof(why)) &&
	    !npuhw_parse_table(r.out, r.outlen, &h->table, err, sizeof(err)))
		h->have_table = 1;
	probe_tool_result_release(&r);
}

/* How many chips the NPU of chip i has (queries of a one-chip NPU leave out -c). */
static size_t chips_of(const struct hw *h, int npu)
{
	size_t n = 0;
	for (size_t i = 0; i < h->chips.n; i++)
		n += h->chips.v[i].npu == npu;
	return n;
}

/* "NPU 3" or "NPU 3 chip 1". */
static void chip_name(const struct hw *h, size_t i, char *buf, size_t len)
{
	const struct npusmi_chip *c = &h->chips.v[i];
	if (chips_of(h, c->npu) > 1)
		snprintf(buf, len, "NPU %d chip %d", c->npu, c->chip);
	else
		snprintf(buf, len, "NPU %d", c->npu);
}

/* How a query names the chip: by card (-i N), by chip (-i N -c C), or by chip only where the
 * card has several (the documented form of info -t ecc and -t common is -i N). */
enum scope { CARD, CHIP, CHIP_IF_MANY };

/* npu-smi info -t TYPE -i N [-c C] for chip i. */
static int smi_chip(struct hw *h, const char *type, size_t i, enum scope scope,
		    struct probe_tool_result *r, char *why, size_t wlen)
{
	char id[16], chip[16];
	const struct npusmi_chip *c = &h->chips.v[i];
	snprintf(id, sizeof(id), "%d", c->npu);
	snprintf(chip, sizeof(chip), "%d", c->chip);
	char *args[] = { (char *)"info", (char *)"-t", (char *)type, (char *)"-i", id, NULL, NULL,
			 NULL };
	if (scope == CHIP || (scope == CHIP_IF_MANY && chips_of(h, c->npu) > 1)) {
		args[5] = (char *)"-c";
		args[6] = chip;
	}
	return smi(h, args, r, why, wlen);
}

/* A query the board does not have: "does not support" anywhere in the answer. */
static int unsupported(const struct probe_tool_result *r)
{
	return npuhw_unsupported(r->out, r->outlen) || npuhw_unsupported(r->errout, r->errlen);
}

/* The checks that need npu-smi, SKIP with one reason when it is absent or lists nothing. */
static int need_chips(struct hw *h, const char *code)
{
	if (!doctor_wanted(h->a->filter, code))
		return 0;
	if (!h->have_smi) {
		doctor_check_add(h->checks, code, "SKIP", NULL, "no npu-smi");
		return 0;
	}
	if (!h->have_chips) {
		doctor_check_add(h->checks, code, "SKIP", NULL, "npu-smi lists no NPU: %s",
				 h->chips_why);
		return 0;
	}
	return 1;
}

/* ---- npu.ecc ---- */

static void ecc_read(struct hw *h, size_t i, struct npuhw_ecc *into)
{
	struct probe_tool_result r;
	char err[PROBE_ERRLEN];
	int rc = smi_chip(h, "ecc", i, CHIP_IF_MANY, &r, h->ecc_why[i], sizeof(h->ecc_why[i]));
	if (unsupported(&r)) {
		h->ecc_state[i] = 1;
	} else if (rc) {
		h->ecc_state[i] = -1;
	} else if (npuhw_parse_ecc(r.out, r.outlen, into, err, sizeof(err))) {
		h->ecc_state[i] = -1;
		snprintf(h->ecc_why[i], sizeof(h->ecc_why[i]), "npu-smi info -t ecc: %.150s", err);
	} else {
		h->ecc_state[i] = into->unsupported;
	}
	probe_tool_result_release(&r);
}

static int ecc_nonzero(const struct npuhw_ecc *e)
{
	for (int f = 0; f < ECC_NFIELDS; f++)
		if (e->v[f] != NPUHW_NA && e->v[f])
			return 1;
	return 0;
}

static void ecc_check(struct hw *h)
{
	size_t read = 0, unsup = 0, failed = 0;
	enum probe_status worst = PROBE_PASS;
	struct msg m = { .n = 0 };
	struct fails fails = { .n = 0 };
	for (size_t i = 0; i < h->chips.n; i++) {
		char name[32], why[400];
		chip_name(h, i, name, sizeof(name));
		if (h->ecc_state[i] == 1) {
			unsup++;
			continue;
		}
		if (h->ecc_state[i] < 0) {
			failed++;
			fails_add(&fails, name, h->ecc_why[i]);
			continue;
		}
		read++;
		/* the second reading: only where there is something that could grow */
		int second = 0;
		if (ecc_nonzero(&h->ecc[i])) {
			int st = h->ecc_state[i];
			ecc_read(h, i, &h->ecc2[i]);
			second = h->ecc_state[i] == 0;
			h->ecc_state[i] = st;
		}
		enum probe_status st =
			npuhw_ecc_assess(&h->ecc[i], second ? &h->ecc2[i] : NULL, why, sizeof(why));
		if (st != PROBE_PASS)
			msg_add(&m, "%s: %s", name, why);
		worst = probe_status_worst(worst, st);
	}
	if (!read && !failed) {
		doctor_check_add(h->checks, "npu.ecc", "SKIP", NULL,
				 "this board does not support querying ECC counters");
		return;
	}
	if (!read) {
		doctor_check_add(h->checks, "npu.ecc", "SKIP", NULL,
				 "no ECC counter could be read: %s", fails_str(&fails));
		return;
	}
	if (failed) {
		worst = probe_status_worst(worst, PROBE_WARN);
		msg_add(&m, "not read: %s", fails_str(&fails));
	}
	if (worst == PROBE_PASS)
		doctor_check_add(h->checks, "npu.ecc", "PASS", NULL, "no ECC error on %zu chip%s%s",
				 read, plural_s(read),
				 unsup ? " (the others cannot be queried)" : "");
	else
		doctor_check_add(
			h->checks, "npu.ecc", st_str(worst),
			worst == PROBE_FAIL
				? "multi-bit errors or isolated pages: take the NPU out of service "
				  "and have its memory checked (npu-smi info -t ecc -i N); pages "
				  "waiting for isolation need a reset (npu-smi set -t reset -i N "
				  "-c C)"
				: "corrected (single-bit) errors: watch whether they grow (npu-smi "
				  "info -t ecc -i N); many of them come before uncorrectable ones",
			"%s", m.s);
}

/* ---- npu.thermal ---- */

static void thermal_check(struct hw *h)
{
	size_t read = 0, unsup = 0, failed = 0;
	long tmin = 1000, tmax = -1000;
	double pmin = 1e9, pmax = -1;
	enum probe_status worst = PROBE_PASS;
	struct msg m = { .n = 0 };
	struct fails fails = { .n = 0 };
	for (size_t i = 0; i < h->chips.n; i++) {
		struct probe_tool_result r;
		struct npuhw_common c;
		char name[32], why[300], err[PROBE_ERRLEN];
		chip_name(h, i, name, sizeof(name));
		int rc = smi_chip(h, "common", i, CHIP_IF_MANY, &r, why, sizeof(why));
		if (unsupported(&r)) {
			unsup++;
		} else if (rc) {
			failed++;
			fails_add(&fails, name, why);
		} else if (npuhw_parse_common(r.out, r.outlen, &c, err, sizeof(err))) {
			failed++;
			{
			char e2[PROBE_ERRLEN + 24];
			snprintf(e2, sizeof(e2), "npu-smi info -t common: %s", err);
			fails_add(&fails, name, e2);
		}
		} else if (c.unsupported) {
			unsup++;
		} else {
			read++;
			enum probe_status st = npuhw_thermal_assess(&c, why, sizeof(why));
			if (st != PROBE_PASS)
				msg_add(&m, "%s: %s", name, why);
			worst = probe_status_worst(worst, st);
			if (c.temp > -1000) {
				tmin = c.temp < tmin ? c.temp : tmin;
				tmax = c.temp > tmax ? c.temp : tmax;
			}
			if (c.power >= 0) {
				pmin = c.power < pmin ? c.power : pmin;
				pmax = c.power > pmax ? c.power : pmax;
			}
		}
		probe_tool_result_release(&r);
	}
	if (!read) {
		doctor_check_add(h->checks, "npu.thermal", "SKIP", NULL, "%s%s",
				 failed ? "no temperature could be read: "
					: "this board does not support info -t common",
				 fails_str(&fails));
		return;
	}
	if (failed) {
		worst = probe_status_worst(worst, PROBE_WARN);
		msg_add(&m, "not read: %s", fails_str(&fails));
	}
	if (worst != PROBE_PASS) {
		doctor_check_add(
			h->checks, "npu.thermal", st_str(worst),
			"check the server's fans, air flow and inlet temperature (the BMC's "
			"sensors) and the power supply; a throttled NPU slows every rank of "
			"the job",
			"%s", m.s);
		return;
	}
	char range[120] = "";
	if (tmax > -1000 && tmin < tmax)
		snprintf(range, sizeof(range), ", %ld-%ld C", tmin, tmax);
	else if (tmax > -1000)
		snprintf(range, sizeof(range), ", %ld C", tmax);
	size_t rl = strlen(range);
	if (pmax >= 0 && pmin < pmax)
		snprintf(range + rl, sizeof(range) - rl, ", %.1f-%.1f W", pmin, pmax);
	else if (pmax >= 0)
		snprintf(range + rl, sizeof(range) - rl, ", %.1f W", pmax);
	doctor_check_add(h->checks, "npu.thermal", "PASS", NULL,
			 "%zu chip%s%s, AI cores at their rated clock or idle", read,
			 plural_s(read), range);
}

/* ---- npu.pcie ---- */

/* "NPU 3 (0000:61:00.0)" when npu-smi's table knows the bus id, else the address. */
static void pci_name(const struct hw *h, const char *bdf, char *buf, size_t len)
{
	for (size_t i = 0; h->have_table && i < h->table.n; i++)
		if (!strcmp(h->table.v[i].bus, bdf)) {
			if (chips_of(h, h->table.v[i].npu) > 1)
				snprintf(buf, len, "NPU %d chip %d (%s)", h->table.v[i].npu,
					 h->table.v[i].chip, bdf);
			else
				snprintf(buf, len, "NPU %d (%s)", h->table.v[i].npu, bdf);
			return;
		}
	snprintf(buf, len, "%s", bdf);
}

static void pcie_check(struct hw *h)
{
	if (h->npci < 0) {
		doctor_check_add(h->checks, "npu.pcie", "SKIP", NULL, "%s", h->pci_why);
		return;
	}
	if (!h->npci) {
		doctor_check_add(
			h->checks, "npu.pcie", "SKIP", NULL,
			"no Huawei accelerator on the PCIe bus (not an Ascend node, or its "
			"PCIe devices are not visible here)");
		return;
	}
	size_t n = (size_t)h->npci < PCILINK_MAX ? (size_t)h->npci : PCILINK_MAX, judged = 0;
	enum probe_status worst = PROBE_PASS;
	struct msg m = { .n = 0 }, notes = { .n = 0 };
	int same = 1;
	for (size_t i = 0; i < n; i++) {
		char why[200], name[64];
		enum probe_status st = pci_link_assess(&h->pci[i], why, sizeof(why));
		pci_name(h, h->pci[i].bdf, name, sizeof(name));
		if (st == PROBE_SKIP)
			continue;
		judged++;
		same &= h->pci[i].cur_width == h->pci[0].cur_width &&
			h->pci[i].cur_speed == h->pci[0].cur_speed;
		if (st != PROBE_PASS)
			msg_add(&m, "%s: %s", name, why);
		else if (*why)
			msg_add(&notes, "%s: %s", name, why);
		worst = probe_status_worst(worst, st);
	}
	if (!judged) {
		doctor_check_add(h->checks, "npu.pcie", "SKIP", NULL,
				 "sysfs gives no link width or speed for the %zu accelerator%s", n,
				 plural_s(n));
		return;
	}
	if (worst == PROBE_FAIL || worst == PROBE_WARN) {
		doctor_check_add(
			h->checks, "npu.pcie", st_str(worst),
			worst == PROBE_FAIL
				? "reseat the board (or its riser) at that address; fewer lanes "
				  "cut the host-device bandwidth"
				: "look again under load (an idle link may slow down); if it "
				  "stays, reseat the board and check the BIOS PCIe settings",
			"%s", m.s);
		return;
	}
	const struct pci_link *l = &h->pci[0];
	if (same && l->cur_width > 0 && l->cur_speed > 0)
		doctor_check_add(h->checks, "npu.pcie", "PASS", NULL,
				 "%zu link%s at x%d %d.%d GT/s, as the boards and slots can%s%s",
				 judged, plural_s(judged), l->cur_width, l->cur_speed / 10,
				 l->cur_speed % 10, notes.n ? "; " : "", notes.s);
	else
		doctor_check_add(h->checks, "npu.pcie", "PASS", NULL,
				 "%zu link%s at the width and speed their boards and slots can%s%s",
				 judged, plural_s(judged), notes.n ? "; " : "", notes.s);
}

/* ---- npu.faults ---- */

/* How doctor weighs each class of MindCluster's table, and what to do. */
static const struct {
	enum probe_status st;
	const char *fix;
} fault_rules[FC_NCLASSES] = {
	[FC_NOT_HANDLE] = { PROBE_PASS, NULL },
	[FC_SUB_HEALTH] = { PROBE_WARN,
			    "the NPU works but is degraded: keep critical jobs off it and watch "
			    "npu-smi info -t health -i N -c C" },
	[FC_RESTART_REQUEST] = { PROBE_WARN,
				 "the running request or step must be redone; the NPU itself needs "
				 "no action" },
	[FC_RESTART_BUSINESS] = { PROBE_WARN,
				  "restart the job on this NPU; the NPU itself needs no reset" },
	[FC_FREE_RESTART_NPU] = { PROBE_FAIL,
				  "reset the NPU once it is idle (npu-smi set -t reset -i N -c C), "
				  "then check again" },
	[FC_RESTART_NPU] = { PROBE_FAIL,
			     "the NPU is unusable until reset: stop its jobs, npu-smi set -t reset "
			     "-i N -c C (or reboot the node), then check again" },
	[FC_PRE_SEPARATE_NPU] = { PROBE_FAIL,
				  "start no new job on this NPU: take it out of the pool after the "
				  "running job and have it repaired" },
	[FC_SEPARATE_NPU] = { PROBE_FAIL,
			      "isolate the NPU: give the job a rank table without it (or take the "
			      "node out of the pool) and have it repaired" },
};

#define FIX_UNKNOWN_CODE                                                                    \
	"look the code up in the NPU's fault documentation (npu-smi info -t health -i N -c C "  \
	"shows its text); a newer faultCode.json (--fault-codes) may class it"

/* The codes of one NPU (or one chip of it) and the verdict on them. */
static void fault_verdict(const struct fc_table *t, const char *name, char codes[][NPUHW_CODE_LEN],
			  size_t n, enum probe_status *worst, int *worst_cls, int *unknown,
			  struct msg *m)
{
	int top = -1, unk = 0;
	char list[600] = "";
	size_t lo = 0;
	for (size_t k = 0; k < n; k++) {
		int cls = fc_lookup(t, codes[k]);
		if (cls < 0)
			unk++;
		else if (cls > top)
			top = cls;
		if (lo < sizeof(list) - 40)
			lo += (size_t)snprintf(list + lo, sizeof(list) - lo, "%s%s %s",
					       k ? ", " : "", codes[k],
					       cls < 0 ? "unknown" : fc_class_name(cls));
	}
	enum probe_status st = top >= 0 ? fault_rules[top].st : PROBE_PASS;
	if (unk)
		st = probe_status_worst(st, PROBE_WARN);
	if (top >= 0 && (top > *worst_cls))
		*worst_cls = top;
	*unknown += unk;
	*worst = probe_status_worst(*worst, st);
	if (top >= 0)
		msg_add(m, "%s: %s (%s)", name, fc_class_name(top), list);
	else
		msg_add(m, "%s: %s", name, list);
}

static void faults_check(struct hw *h)
{
	struct fc_table t;
	char err[PROBE_ERRLEN], tabwhy[400] = "";
	fc_table_builtin(&t);
	if (h->a->fault_codes) {
		char *buf = NULL;
		size_t len = 0;
		struct fc_table f;
		if (rt_read_file(h->a->fault_codes, 16UL << 20, &buf, &len, err, sizeof(err)) ||
		    fc_table_load_json(&f, h->a->fault_codes, buf, len, err, sizeof(err)))
			snprintf(tabwhy, sizeof(tabwhy), "cannot use --fault-codes: %.350s", err);
		else
			t = f;
		free(buf);
	}
	cJSON_AddStringToObject(h->facts, "fault_codes_table", t.source);
	enum probe_status worst = *tabwhy ? PROBE_WARN : PROBE_PASS;
	int worst_cls = -1, unknown = 0, events_ok = 1;
	size_t read = 0, failed = 0, nfault = 0;
	struct msg m = { .n = 0 };
	struct fails fails = { .n = 0 };
	if (*tabwhy)
		msg_add(&m, "%s", tabwhy);
	for (size_t i = 0; i < h->chips.n; i++) {
		struct probe_tool_result r;
		struct npuhw_health hl;
		char name[32], why[300];
		chip_name(h, i, name, sizeof(name));
		int rc = smi_chip(h, "health", i, CHIP, &r, why, sizeof(why));
		if (!rc && !npuhw_parse_health(r.out, r.outlen, &hl, err, sizeof(err))) {
			read++;
			if (hl.ncodes) {
				nfault++;
				fault_verdict(&t, name, hl.codes, hl.ncodes, &worst, &worst_cls,
					      &unknown, &m);
			}
		} else if (!unsupported(&r)) {
			failed++;
			fails_add(&fails, name, rc ? why : err);
		}
		probe_tool_result_release(&r);
		/* the card's current fault events, once per NPU; a npu-smi without the query is
		 * asked no further */
		if (!events_ok || (i && h->chips.v[i - 1].npu == h->chips.v[i].npu))
			continue;
		struct npuhw_events ev;
		rc = smi_chip(h, "current-fault-event", i, CARD, &r, why, sizeof(why));
		if (rc || npuhw_parse_events(r.out, r.outlen, &ev, err, sizeof(err)) ||
		    ev.unsupported) {
			events_ok = 0;
		} else if (ev.n) {
			char codes[NPUHW_MAX_CODES][NPUHW_CODE_LEN], card[32];
			for (size_t k = 0; k < ev.n; k++)
				snprintf(codes[k], sizeof(codes[k]), "%s", ev.v[k].code);
			snprintf(card, sizeof(card), "NPU %d fault events", h->chips.v[i].npu);
			nfault++;
			fault_verdict(&t, card, codes, ev.n, &worst, &worst_cls, &unknown, &m);
		}
		probe_tool_result_release(&r);
	}
	if (!read) {
		doctor_check_add(h->checks, "npu.faults", "SKIP", NULL, "%s%s",
				 failed ? "no health state could be read: "
					: "this board does not support info -t health",
				 fails_str(&fails));
		fc_table_release(&t);
		return;
	}
	if (failed) {
		worst = probe_status_worst(worst, PROBE_WARN);
		msg_add(&m, "not read: %s", fails_str(&fails));
	}
	if (!nfault && worst == PROBE_PASS) {
		doctor_check_add(h->checks, "npu.faults", "PASS", NULL,
				 "no fault code on %zu chip%s", read, plural_s(read));
	} else {
		if (!nfault)
			msg_add(&m, "no fault code on %zu chip%s", read, plural_s(read));
		const char *fix = worst_cls >= 0 && fault_rules[worst_cls].st == worst
					  ? fault_rules[worst_cls].fix
				  : unknown ? FIX_UNKNOWN_CODE
				  : worst_cls >= 0 ? fault_rules[worst_cls].fix
				  : *tabwhy	   ? "give --fault-codes a readable faultCode.json (the "
						     "built-in table was used)"
						   : "npu-smi info -t health -i N -c C";
		doctor_check_add(h->checks, "npu.faults", st_str(worst), fix,
				 "%s; classes from %s", m.s, t.source);
	}
	fc_table_release(&t);
}

/* ---- npu.count ---- */

/* What the rank table gives this server (table_devices). */
enum { TABLE_NONE = -1, TABLE_UNREAD = -2, TABLE_NOT_HERE = -3 };

/* This server's device ids in the rank table: how many, or TABLE_NONE without a table,
 * TABLE_UNREAD when it does not load (why in why), TABLE_NOT_HERE when no server of it is
 * this node. */
static int table_devices(const struct doctor_node_args *a, long *ids, size_t max, char *why,
			 size_t wlen)
{
	if (!a->ranktable)
		return TABLE_NONE;
	struct rt_table t = { 0 };
	int n = TABLE_UNREAD;
	if (table_file_load(a->ranktable, &t, why, wlen))
		goto out;
	long at = node_table_server(&t, a->server_id);
	n = at < 0 ? TABLE_NOT_HERE : 0;
	for (size_t k = 0; at >= 0 && k < t.servers[at].nranks; k++) {
		size_t r = t.servers[at].first_rank + k;
		if (r < t.nranks && (size_t)n < max)
			ids[n++] = t.ranks[r].device_id;
	}
out:
	rt_table_release(&t);
	return n;
}

/* The rank table's device ids missing from npu-smi's list (one-chip boards, where a device
 * id is an NPU ID), into buf as "0, 3". */
static void missing_ids(const struct hw *h, const long *ids, int ne, char *buf, size_t len)
{
	size_t at = 0;
	buf[0] = '\0';
	if (h->chips.nnpus != h->chips.n)
		return;
	for (int k = 0; k < ne && at < len - 24; k++) {
		int found = 0;
		for (size_t i = 0; i < h->chips.n && !found; i++)
			found = h->chips.v[i].npu == ids[k];
		if (!found)
			at += (size_t)snprintf(buf + at, len - at, "%s%ld", at ? ", " : "", ids[k]);
	}
}

/* The NPUs the rank table gives this server, npu-smi's chips and the Huawei accelerators on
 * the PCIe bus must agree. A bus that shows more NPUs than npu-smi lists is a driver that lost
 * one, or a container given only some of them (sysfs shows the host's bus): a warning. A bus
 * that shows fewer than npu-smi lists is a partial view of sysfs, not evidence. Boards of two
 * chips may have one PCIe function per chip or per card. */
static void count_check(struct hw *h)
{
	long ids[NPUSMI_MAX_CHIPS];
	char why[300] = "";
	int ne = table_devices(h->a, ids, NPUSMI_MAX_CHIPS, why, sizeof(why));
	size_t ns = h->have_chips ? h->chips.n : 0, nnpu = h->have_chips ? h->chips.nnpus : 0;
	size_t np = h->npci > 0 ? (size_t)h->npci : 0, per_card = nnpu && ns > nnpu ? ns / nnpu : 1;
	int partial = h->have_chips && np && np < nnpu;
	if (partial)
		np = 0;
	if ((ne >= 0) + (h->have_chips != 0) + (np > 0) < 2) {
		char only[400];
		snprintf(only, sizeof(only), "only %s to go by (%s)",
			 h->have_chips ? "npu-smi's list" : "the PCIe bus",
			 ne == TABLE_NOT_HERE ? "no server of the rank table is this node"
			 : ne == TABLE_UNREAD ? why
			 : h->have_chips      ? "give --ranktable to compare with the job's"
					      : "no npu-smi list");
		doctor_check_add(h->checks, "npu.count", "SKIP", NULL, "%s%s",
				 h->have_chips || np ? only
						     : "no NPU list: no npu-smi, no accelerator on "
						       "the PCIe bus",
				 partial ? "; the PCIe bus shows fewer NPUs than npu-smi lists "
					   "here" : "");
		return;
	}
	struct msg m = { .n = 0 };
	enum probe_status st = PROBE_PASS;
	char missing[300];
	if (ne >= 0 && h->have_chips && ns < (size_t)ne) {
		missing_ids(h, ids, ne, missing, sizeof(missing));
		msg_add(&m,
			"the rank table puts %d device%s on this server, npu-smi lists %zu%s%s%s",
			ne, plural_s(ne), ns, *missing ? " (no device " : "", missing,
			*missing ? ")" : "");
		st = PROBE_FAIL;
	}
	if (ne >= 0 && np && np < (size_t)ne / per_card) {
		msg_add(&m,
			"the rank table puts %d device%s on this server, the PCIe bus has %zu "
			"NPU%s",
			ne, plural_s(ne), np, plural_s(np));
		st = PROBE_FAIL;
	}
	if (h->have_chips && np > ns && np > nnpu) {
		char lost[300] = "";
		size_t lo = 0;
		/* a table whose bus ids are NA or masked cannot tell which device is missing */
		for (size_t p = 0; h->have_table && !h->table.nobus && p < np && p < PCILINK_MAX &&
				   lo < sizeof(lost) - 20;
		     p++) {
			int known = 0;
			for (size_t i = 0; i < h->table.n && !known; i++)
				known = !strcmp(h->table.v[i].bus, h->pci[p].bdf);
			if (!known)
				lo += (size_t)snprintf(lost + lo, sizeof(lost) - lo, "%s%s",
						       lo ? ", " : "", h->pci[p].bdf);
		}
		msg_add(&m,
			"the PCIe bus has %zu NPUs, npu-smi lists %zu%s%s: the driver lost %s, or "
			"this is a container given only some of them",
			np, nnpu, *lost ? ", not " : "", lost, np - nnpu == 1 ? "one" : "some");
		st = probe_status_worst(st, PROBE_WARN);
	}
	if (st != PROBE_PASS) {
		doctor_check_add(
			h->checks, "npu.count", st_str(st),
			"an NPU dropped off the bus or its driver lost it: npu-smi info, "
			"lspci | grep -i accel, dmesg; reseat or replace the board, or reboot "
			"the node; until then give the job a rank table without it",
			"%s", m.s);
		return;
	}
	const char *src[3];
	size_t k = 0;
	if (ne >= 0)
		src[k++] = "the rank table";
	if (h->have_chips)
		src[k++] = "npu-smi";
	if (np)
		src[k++] = "the PCIe bus";
	char what[120];
	if (k == 3)
		snprintf(what, sizeof(what), "%s, %s and %s", src[0], src[1], src[2]);
	else
		snprintf(what, sizeof(what), "%s and %s", src[0], src[1]);
	doctor_check_add(h->checks, "npu.count", "PASS", NULL, "%zu NPU chip%s: %s agree%s%s",
			 h->have_chips ? ns : np, (h->have_chips ? ns : np) == 1 ? "" : "s", what,
			 ne >= 0 && h->have_chips && (size_t)ne < ns
				 ? " (the job uses fewer than the server has)"
				 : "",
			 partial ? "; the PCIe bus shows fewer here" : "");
}

void doctor_hw_checks(const struct doctor_node_args *a, cJSON *checks, cJSON *facts)
{
	struct hw *h = calloc(1, sizeof(*h));
	if (!h)
		return;
	h->a = a;
	h->checks = checks;
	h->facts = facts;
	char err[PROBE_ERRLEN];
	h->have_smi = !probe_tool_find("npu-smi", a->npu_smi, "HCCLCTL_NPU_SMI", NULL, h->smi,
				       sizeof(h->smi), err, sizeof(err));
	if (h->have_smi)
		list_chips(h);
	if (doctor_wanted(a->filter, "npu.pcie") || doctor_wanted(a->filter, "npu.count"))
		h->npci = pci_scan(a->sysfs_root, PCI_VENDOR_HUAWEI, PCI_CLASS_ACCEL, h->pci,
				   PCILINK_MAX, h->pci_why, sizeof(h->pci_why));
	if (need_chips(h, "npu.ecc"))
		for (size_t i = 0; i < h->chips.n; i++)
			ecc_read(h, i, &h->ecc[i]);
	if (doctor_wanted(a->filter, "npu.count"))
		count_check(h);
	if (need_chips(h, "npu.faults"))
		faults_check(h);
	if (need_chips(h, "npu.thermal"))
		thermal_check(h);
	if (doctor_wanted(a->filter, "npu.pcie"))
		pcie_check(h);
	if (doctor_wanted(a->filter, "npu.ecc") && h->have_chips)
		ecc_check(h); /* last: the second reading comes as late as it can */
	free(h);
}
