/* npu-smi's health queries and their verdicts. npu-smi prints "\t%-30s : value" lines, but
 * docs and blogs show them with spaces and other widths, and the ECC query pads its keys to
 * 40 columns: every parser here splits on the first ':' and matches whole keys. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probes/logs/faultcode.h"
#include "probes/npu/npuhw.h"
#include "probes/tool/ptext.h"

static int key_value(struct pspan line, struct pspan *key, struct pspan *val)
{
	const char *c = memchr(line.s, ':', line.n);
	if (!c)
		return 0;
	*key = probe__trim((struct pspan){ line.s, (size_t)(c - line.s) });
	*val = probe__trim((struct pspan){ c + 1, line.n - (size_t)(c - line.s) - 1 });
	return 1;
}


static int is_na(struct pspan v)
{
	return probe__eq_nocase(v, "NA") || probe__eq_nocase(v, "N/A") || probe__eq(v, "-");
}

int npuhw_unsupported(const char *buf, size_t len)
{
	static const char pat[] = "does not support";
	for (size_t i = 0; i + sizeof(pat) - 1 <= len; i++) {
		size_t k = 0;
		while (k < sizeof(pat) - 1) {
			char c = buf[i + k];
			if (c >= 'A' && c <= 'Z')
				c = (char)(c - 'A' + 'a');
			if (c != pat[k])
				break;
			k++;
		}
		if (k == sizeof(pat) - 1)
			return 1;
	}
	return 0;
}

/* ---- info -t ecc ---- */

static const char *const ecc_keys[ECC_NFIELDS] = {
	[ECC_DDR_SBE] = "DDR Single Bit Error Count",
	[ECC_DDR_DBE] = "DDR Double Bit Error Count",
	[ECC_DDR_SBE_AGG] = "DDR Single Bit Aggregate Total Err Cnt",
	[ECC_DDR_DBE_AGG] = "DDR Double Bit Aggregate Total Err Cnt",
	[ECC_DDR_SB_ISO] = "DDR Single Bit Isolated Pages Count",
	[ECC_DDR_DB_ISO] = "DDR Double Bit Isolated Pages Count",
	[ECC_HBM_SBE] = "HBM Single Bit Error Count",
	[ECC_HBM_DBE] = "HBM Double Bit Error Count",
	[ECC_HBM_SBE_AGG] = "HBM Single Bit Aggregate Total Err Cnt",
	[ECC_HBM_DBE_AGG] = "HBM Double Bit Aggregate Total Err Cnt",
	[ECC_HBM_SB_ISO] = "HBM Single Bit Isolated Pages Count",
	[ECC_HBM_DB_ISO] = "HBM Double Bit Isolated Pages Count",
	[ECC_HBM_SB_NEXT_ISO] = "HBM Single Bit Next-Isolated Pages Count",
	[ECC_HBM_DB_NEXT_ISO] = "HBM Double Bit Next-Isolated Pages Count",
};

const char *npuhw_ecc_key(enum npuhw_ecc_field f)
{
	return (unsigned)f < ECC_NFIELDS ? ecc_keys[f] : "?";
}

int npuhw_parse_ecc(const char *buf, size_t len, struct npuhw_ecc *e, char *err, size_t errlen)
{
	struct pspan rest = { buf, len }, line, key, val;
	unsigned lineno = 0;
	memset(e, 0, sizeof(*e));
	for (int f = 0; f < ECC_NFIELDS; f++)
		e->v[f] = NPUHW_NA;
	while (probe__next_line(&rest, &line)) {
		lineno++;
		if (!key_value(line, &key, &val))
			continue;
		for (int f = 0; f < ECC_NFIELDS; f++) {
			if (!probe__key_is(key, ecc_keys[f]))
				continue;
			unsigned long long v;
			if (is_na(val)) {
				v = NPUHW_NA;
			} else if (probe__u64(val, &v)) {
				char q[32];
				probe__copy(q, sizeof(q), val);
				snprintf(err, errlen, "line %u: '%s' is \"%s\", not a number",
					 lineno, ecc_keys[f], q);
				return -EINVAL;
			}
			if (e->v[f] == NPUHW_NA) /* one chip per query: the first value counts */
				e->v[f] = v;
			e->nfields++;
			break;
		}
	}
	if (!e->nfields && npuhw_unsupported(buf, len)) {
		e->unsupported = 1;
		return 0;
	}
	if (!e->nfields) {
		snprintf(err, errlen, "no ECC counter in the output");
		return -EINVAL;
	}
	return 0;
}

static unsigned long long val_or0(const struct npuhw_ecc *e, int f)
{
	return e && e->v[f] != NPUHW_NA ? e->v[f] : 0;
}

/* Appends ", what" (or "what") to a reason, quietly truncated. */
static void reason_add(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void reason_add(char *buf, size_t len, const char *fmt, ...)
{
	size_t at = strnlen(buf, len);
	if (at + 3 >= len)
		return;
	if (at) {
		memcpy(buf + at, ", ", 3);
		at += 2;
	}
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf + at, len - at, fmt, ap);
	va_end(ap);
}

/* How each counter weighs: multi-bit errors cannot be corrected and isolated pages are memory
 * the NPU has already retired (or will retire at its next reset), so either means the HBM or
 * DDR is failing; single-bit errors were corrected and only warn. A count and its aggregate
 * ("in total", across resets) are one finding. */
static const struct {
	int field, total; /* total: the aggregate counter, or -1 */
	enum probe_status st;
	const char *what;
} ecc_rules[] = {
	{ECC_HBM_DBE, ECC_HBM_DBE_AGG, PROBE_FAIL, "HBM multi-bit errors"},
	{ECC_HBM_DB_ISO, -1, PROBE_FAIL, "HBM pages isolated for multi-bit errors"},
	{ECC_HBM_SB_ISO, -1, PROBE_FAIL, "HBM pages isolated for single-bit errors"},
	{ECC_HBM_DB_NEXT_ISO, -1, PROBE_FAIL, "HBM pages to isolate at the next reset (multi-bit)"},
	{ECC_HBM_SB_NEXT_ISO, -1, PROBE_FAIL,
	 "HBM pages to isolate at the next reset (single-bit)"},
	{ECC_DDR_DBE, ECC_DDR_DBE_AGG, PROBE_FAIL, "DDR multi-bit errors"},
	{ECC_DDR_DB_ISO, -1, PROBE_FAIL, "DDR pages isolated for multi-bit errors"},
	{ECC_DDR_SB_ISO, -1, PROBE_FAIL, "DDR pages isolated for single-bit errors"},
	{ECC_HBM_SBE, ECC_HBM_SBE_AGG, PROBE_WARN, "HBM single-bit errors"},
	{ECC_DDR_SBE, ECC_DDR_SBE_AGG, PROBE_WARN, "DDR single-bit errors"},
};

enum probe_status npuhw_ecc_assess(const struct npuhw_ecc *first, const struct npuhw_ecc *second,
				   char *reason, size_t len)
{
	enum probe_status st = PROBE_PASS;
	const struct npuhw_ecc *last = second ? second : first;
	if (len)
		reason[0] = '\0';
	for (size_t i = 0; i < sizeof(ecc_rules) / sizeof(ecc_rules[0]); i++) {
		int f = ecc_rules[i].field, t = ecc_rules[i].total;
		unsigned long long v = val_or0(last, f), was = val_or0(first, f);
		unsigned long long tot = t >= 0 ? val_or0(last, t) : 0;
		if (!v && !tot)
			continue;
		st = probe_status_worst(st, ecc_rules[i].st);
		char more[80] = "";
		if (second && v > was)
			snprintf(more, sizeof(more), "+%llu during the check", v - was);
		if (tot && tot != v)
			snprintf(more + strlen(more), sizeof(more) - strlen(more),
				 "%s%llu in total", *more ? "; " : "", tot);
		reason_add(reason, len, "%s %llu%s%s%s", ecc_rules[i].what, v, *more ? " (" : "",
			   more, *more ? ")" : "");
	}
	return st;
}

/* ---- info -t common ---- */

static int num_long(struct pspan v, long *out)
{
	unsigned long long x;
	if (is_na(v) || probe__u64(v, &x) || x > 1000000000ULL)
		return -1;
	*out = (long)x;
	return 0;
}

/* "93.4", "71": a non-negative decimal with at most one point. */
static int num_double(struct pspan v, double *out)
{
	double x = 0, scale = 0;
	if (!v.n || v.n > 20)
		return -1;
	for (size_t i = 0; i < v.n; i++) {
		char c = v.s[i];
		if (c == '.' && !scale) {
			scale = 1;
			continue;
		}
		if (c < '0' || c > '9')
			return -1;
		if (scale) {
			scale /= 10;
			x += (c - '0') * scale;
		} else {
			x = x * 10 + (c - '0');
		}
	}
	*out = x;
	return 0;
}

int npuhw_parse_common(const char *buf, size_t len, struct npuhw_common *c, char *err,
		       size_t errlen)
{
	struct pspan rest = { buf, len }, line, key, val;
	int seen = 0;
	*c = (struct npuhw_common){ .usage = -1, .freq = -1, .cur_freq = -1, .aicores = -1,
				    .temp = -1000, .power = -1, .hbm_usage = -1 };
	while (probe__next_line(&rest, &line)) {
		if (!key_value(line, &key, &val))
			continue;
		if (probe__key_is(key, "Chip Name") && probe__eq_nocase(val, "mcu"))
			break; /* the board MCU's own block follows */
		long *slot = NULL;
		if (probe__key_is(key, "Aicore Usage Rate(%)"))
			slot = &c->usage;
		else if (probe__key_is(key, "Aicore Freq(MHZ)"))
			slot = &c->freq;
		else if (probe__key_is(key, "Aicore curFreq(MHZ)"))
			slot = &c->cur_freq;
		else if (probe__key_is(key, "Aicore Count"))
			slot = &c->aicores;
		else if (probe__key_is(key, "HBM Usage Rate(%)"))
			slot = &c->hbm_usage;
		else if (probe__key_is(key, "Temperature(C)"))
			slot = &c->temp;
		if (slot) {
			long v;
			seen = 1;
			if (!num_long(val, &v) &&
			    (*slot == -1 || (slot == &c->temp && *slot == -1000)))
				*slot = v;
			continue;
		}
		if (probe__key_is(key, "NPU Real-time Power(W)")) {
			double p;
			seen = 1;
			if (c->power < 0 && !num_double(val, &p))
				c->power = p;
		}
	}
	if (!seen && npuhw_unsupported(buf, len)) {
		c->unsupported = 1;
		return 0;
	}
	if (!seen) {
		snprintf(err, errlen, "no temperature, power or AI core field in the output");
		return -EINVAL;
	}
	return 0;
}

/* The limits. Huawei's thermal design guide for its Ascend modules puts the longest-term
 * junction temperature at 100 C (105 C the absolute maximum), which is where the firmware
 * starts to protect the chip; so 100 C is a failure. The real captures idle at 41-48 C and
 * a loaded, well-cooled board stays far below 85 C: reaching 85 C means the cooling (fans,
 * air flow, liquid loop) is short and throttling is near, a warning. Throttling itself is the
 * AI-core clock below its rated value while the cores are busy: an idle NPU drops its clock
 * (the 910B1 capture: 800 of 1800 MHz at 0 %), so only a chip at least half busy counts, which
 * also leaves out the first moments of a job when the clock is still rising. */
enum probe_status npuhw_thermal_assess(const struct npuhw_common *c, char *reason, size_t len)
{
	enum probe_status st = PROBE_PASS;
	if (len)
		reason[0] = '\0';
	if (c->temp >= NPUHW_TEMP_FAIL) {
		st = PROBE_FAIL;
		reason_add(reason, len, "%ld C (the limit is %d C)", c->temp, NPUHW_TEMP_FAIL);
	} else if (c->temp >= NPUHW_TEMP_WARN) {
		st = PROBE_WARN;
		reason_add(reason, len, "%ld C (%d C or more)", c->temp, NPUHW_TEMP_WARN);
	}
	if (c->freq > 0 && c->cur_freq >= 0 && c->cur_freq < c->freq &&
	    c->usage >= NPUHW_BUSY_PCT) {
		st = probe_status_worst(st, PROBE_WARN);
		reason_add(reason, len, "AI cores at %ld of %ld MHz while %ld %% busy: throttled",
			   c->cur_freq, c->freq, c->usage);
	}
	return st;
}

/* ---- info -t health ---- */

/* Adds the codes of a value ("A4025021 8C03A000", "0x80E01801,0x80E18402"); returns how many
 * words were codes, or -1 when a word is not one (then nothing is added). */
static int add_codes(struct npuhw_health *h, struct pspan val)
{
	struct pspan w, probe = val;
	int n = 0;
	char tmp[NPUHW_CODE_LEN];
	while (probe__next_word(&probe, &w, ",;")) {
		if (fc_code_normalize(w.s, w.n, tmp, sizeof(tmp)))
			return -1;
		n++;
	}
	while (probe__next_word(&val, &w, ",;")) {
		if (h->ncodes == NPUHW_MAX_CODES)
			break;
		fc_code_normalize(w.s, w.n, h->codes[h->ncodes], sizeof(h->codes[0]));
		size_t k = 0;
		while (k < h->ncodes && strcmp(h->codes[k], h->codes[h->ncodes]))
			k++;
		h->ncodes += k == h->ncodes; /* each code once */
	}
	return n;
}

int npuhw_parse_health(const char *buf, size_t len, struct npuhw_health *h, char *err,
		       size_t errlen)
{
	struct pspan rest = { buf, len }, line, key, val;
	int seen = 0, in_codes = 0;
	memset(h, 0, sizeof(*h));
	while (probe__next_line(&rest, &line)) {
		if (!key_value(line, &key, &val)) {
			if (probe__trim(line).n)
				in_codes = 0;
			continue;
		}
		if (probe__key_is(key, "Health Status") || probe__key_is(key, "Health")) {
			probe__copy(h->status, sizeof(h->status), val);
			seen = 1;
			in_codes = 0;
		} else if (probe__key_is(key, "Error Code")) {
			in_codes = !is_na(val) && add_codes(h, val) > 0;
			seen = 1;
		} else if (probe__key_is(key, "Error Information")) {
			if (!is_na(val))
				probe__copy(h->info, sizeof(h->info), val);
			in_codes = 0;
		} else if (!key.n && in_codes && add_codes(h, val) <= 0) {
			in_codes = 0; /* a continuation that is not codes */
		} else if (key.n) {
			in_codes = 0;
		}
	}
	if (!seen) {
		snprintf(err, errlen, "no \"Health Status\" or \"Error Code\" line in the output");
		return -EINVAL;
	}
	return 0;
}

/* ---- info -t current-fault-event ---- */

/* The position after "name" in s (case ignored), or NULL. */
static const char *find_nocase(struct pspan s, const char *name)
{
	size_t n = strlen(name);
	for (size_t i = 0; i + n <= s.n; i++)
		if (probe__eq_nocase((struct pspan){ s.s + i, n }, name))
			return s.s + i + n;
	return NULL;
}

int npuhw_parse_events(const char *buf, size_t len, struct npuhw_events *e, char *err,
		       size_t errlen)
{
	struct pspan rest = { buf, len }, line, key, val;
	int seen = 0;
	memset(e, 0, sizeof(*e));
	e->count = -1;
	while (probe__next_line(&rest, &line)) {
		if (key_value(line, &key, &val) && probe__key_is(key, "Fault Event Count")) {
			long v;
			if (!num_long(val, &v))
				e->count = v;
			seen = 1;
			continue;
		}
		struct pspan s = line;
		const char *p;
		while ((p = find_nocase(s, "event id=")) != NULL) {
			size_t off = (size_t)(p - s.s);
			s.s = p;
			s.n -= off;
			size_t w = 0;
			while (w < s.n && s.s[w] != ',' && s.s[w] != ' ' && s.s[w] != ';')
				w++;
			char code[NPUHW_CODE_LEN];
			seen = 1;
			if (fc_code_normalize(s.s, w, code, sizeof(code)) ||
			    e->n == NPUHW_MAX_CODES)
				continue;
			snprintf(e->v[e->n].code, sizeof(e->v[0].code), "%s", code);
			e->v[e->n].severity = -1;
			/* its severity: up to the next event on the line */
			struct pspan tail = { s.s + w, s.n - w };
			const char *next = find_nocase(tail, "event id=");
			if (next)
				tail.n = (size_t)(next - tail.s);
			const char *sv = find_nocase(tail, "severity=");
			if (sv && sv < tail.s + tail.n && *sv >= '0' && *sv <= '9')
				e->v[e->n].severity = *sv - '0';
			e->n++;
		}
	}
	if (!seen && npuhw_unsupported(buf, len)) {
		e->unsupported = 1;
		return 0;
	}
	if (!seen) {
		snprintf(err, errlen, "no \"Fault Event Count\" line and no event in the output");
		return -EINVAL;
	}
	return 0;
}

/* ---- npu-smi info ---- */

/* "0000:C1:00.0": domain, bus, device and function in hex. With masked, a poster's "xx" in
 * place of hex digits is taken too ("0000:xx:00.0"). */
static int is_bus_id(struct pspan w, int masked)
{
	static const char form[] = "xxxx:xx:xx.x";
	if (w.n != sizeof(form) - 1)
		return 0;
	for (size_t i = 0; i < w.n; i++) {
		char c = w.s[i];
		int hex =
			(c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
		if (masked && (c == 'x' || c == 'X'))
			hex = 1;
		if (form[i] == 'x' ? !hex : c != form[i])
			return 0;
	}
	return 1;
}

/* The cells between the bars of a table line, trimmed; how many (at most max). */
static size_t table_cells(struct pspan s, struct pspan *cell, size_t max)
{
	size_t nc = 0;
	const char *p = s.s + 1, *end = s.s + s.n;
	while (p < end && nc < max) {
		const char *bar = memchr(p, '|', (size_t)(end - p));
		if (!bar)
			break;
		cell[nc++] = probe__trim((struct pspan){ p, (size_t)(bar - p) });
		p = bar + 1;
	}
	return nc;
}

/* What the second word of the chip header names: "Chip Phy-ID" (A3), "Chip Device" (310B,
 * 310P) or nothing ("Chip", one chip per NPU). */
enum second_id { SECOND_NONE, SECOND_PHY, SECOND_DEV };

/* One chip row: "0 [ID2] | BUS | ...". The bus cell holds a bus id, "NA" (an SoC with no
 * PCIe link, such as the 310B) or a masked id; the row is kept in every case, with bus ""
 * unless it is a real bus id. 0, or -1 when the row is not a chip row. */
static int table_chip(struct npuhw_table *t, struct pspan c0, struct pspan busc, int npu,
		      enum second_id second, const char *name, const char *health)
{
	struct pspan w, b;
	unsigned long long id, id2 = 0;
	int have2 = 0;
	if (!probe__next_word(&c0, &w, NULL) || probe__u64(w, &id) || id > 1000)
		return -1;
	if (probe__next_word(&c0, &w, NULL)) {
		if (probe__u64(w, &id2) || id2 > 100000)
			return -1;
		have2 = 1;
	}
	if (!probe__next_word(&busc, &b, NULL))
		return -1;
	int real = is_bus_id(b, 0), masked = !real && is_bus_id(b, 1);
	if (!real && !masked && !probe__eq_nocase(b, "NA"))
		return -1;
	if (t->n == NPUHW_MAX_CHIPS)
		return 0;
	struct npuhw_chip_row *r = &t->v[t->n++];
	r->npu = npu;
	r->chip = (int)id;
	r->phy_id = have2 && second == SECOND_PHY ? (int)id2 : -1;
	r->dev_id = have2 && second == SECOND_DEV ? (int)id2 : -1;
	r->bus_masked = masked;
	snprintf(r->name, sizeof(r->name), "%s", name);
	snprintf(r->health, sizeof(r->health), "%s", health);
	if (real) {
		for (size_t i = 0; i < b.n && i < sizeof(r->bus) - 1; i++) {
			char c = b.s[i];
			r->bus[i] = c >= 'A' && c <= 'F' ? (char)(c - 'A' + 'a') : c;
		}
		r->bus[b.n < sizeof(r->bus) ? b.n : sizeof(r->bus) - 1] = '\0';
	} else {
		t->nobus++;
	}
	return 0;
}

int npuhw_parse_table(const char *buf, size_t len, struct npuhw_table *t, char *err,
		      size_t errlen)
{
	struct pspan rest = { buf, len }, line;
	int npu = -1, in_chips = 0, row = 0;
	enum second_id second = SECOND_NONE;
	char name[24] = "", health[16] = "";
	size_t lineno = 0, first_row = 0;
	memset(t, 0, sizeof(*t));
	while (probe__next_line(&rest, &line)) {
		lineno++;
		struct pspan s = probe__trim(line);
		if (probe__eq(s, "...") && in_chips) {
			t->elided = 1;
			row = 0;
			continue;
		}
		/* Each NPU is a block between separator lines ("+----", "+====") whose first
		 * row is the NPU's (id, name, health) and whose second is its chip's (id, the
		 * A3's Phy-ID or the 310's Device id, bus id): the place in the block, not the
		 * number of words, tells them apart. */
		if (s.n && s.s[0] == '+') {
			row = 0;
			continue;
		}
		if (!s.n || s.s[0] != '|')
			continue;
		struct pspan cell[4];
		size_t nc = table_cells(s, cell, 4);
		if (nc < 2)
			continue;
		struct pspan w0, w1, c0 = cell[0];
		if (!probe__next_word(&c0, &w0, NULL))
			continue;
		if (probe__eq(w0, "NPU") && probe__next_word(&c0, &w1, NULL)) {
			/* a header: the chip table's ("NPU Name") or the process table's ("NPU
			 * Chip") */
			in_chips = probe__eq(w1, "Name");
			continue;
		}
		if (probe__eq(w0, "Chip") && in_chips) { /* the header's second line */
			second = !probe__next_word(&c0, &w1, NULL) ? SECOND_NONE
				 : probe__eq_nocase(w1, "Phy-ID")  ? SECOND_PHY
				 : probe__eq_nocase(w1, "Device")  ? SECOND_DEV
								   : SECOND_NONE;
			continue;
		}
		if (!in_chips)
			continue;
		row++;
		if (!first_row)
			first_row = lineno;
		if (row == 1) {
			unsigned long long id;
			npu = -1;
			if (probe__u64(w0, &id) || id > 100000)
				continue;
			npu = (int)id;
			name[0] = '\0';
			if (probe__next_word(&c0, &w1, NULL) && !probe__eq(w1, "xxx"))
				probe__copy(name, sizeof(name), w1);
			probe__copy(health, sizeof(health), cell[1]);
		} else if (row == 2 && npu >= 0) {
			table_chip(t, cell[0], cell[1], npu, second, name, health);
		}
	}
	if (!t->n) {
		if (first_row)
			snprintf(err, errlen,
				 "npu-smi info: no chip row (chip id, then a bus id or NA) under "
				 "the NPU rows from line %zu",
				 first_row);
		else
			snprintf(err, errlen, "npu-smi info: no NPU Name / Health table");
		return -EINVAL;
	}
	return 0;
}
