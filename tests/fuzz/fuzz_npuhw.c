/* Fuzzes the npu-smi health parsers (info -t ecc, -t common, -t health, -t
 * current-fault-event, the npu-smi info table) and their verdicts: any bytes give 0 or
 * -EINVAL, never a read outside the input, and what parses stays within its bounds. */
#include <assert.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "probes/npu/npuhw.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data;
	char err[256], why[400];
	struct npuhw_ecc e1, e2;
	struct npuhw_common c;
	struct npuhw_health h;
	struct npuhw_events ev;
	struct npuhw_table *t = malloc(sizeof(*t));
	if (!t)
		return 0;

	int rc = npuhw_parse_ecc(s, size, &e1, err, sizeof(err));
	assert(rc == 0 || rc == -EINVAL);
	if (rc == 0) {
		assert(e1.unsupported || e1.nfields > 0);
		e2 = e1;
		e2.v[ECC_HBM_SBE] = e2.v[ECC_HBM_SBE] == NPUHW_NA ? 1 : e2.v[ECC_HBM_SBE] / 2;
		enum probe_status st = npuhw_ecc_assess(&e1, &e2, why, sizeof(why));
		assert(st == PROBE_PASS || st == PROBE_WARN || st == PROBE_FAIL);
		assert(strlen(why) < sizeof(why));
		assert(st == PROBE_PASS || why[0]);
	}
	rc = npuhw_parse_common(s, size, &c, err, sizeof(err));
	assert(rc == 0 || rc == -EINVAL);
	if (rc == 0) {
		enum probe_status st = npuhw_thermal_assess(&c, why, sizeof(why));
		assert(st == PROBE_PASS || st == PROBE_WARN || st == PROBE_FAIL);
		assert(c.usage >= -1 && c.temp >= -1000 && (c.power < 0 ? c.power == -1 : 1));
	}
	rc = npuhw_parse_health(s, size, &h, err, sizeof(err));
	assert(rc == 0 || rc == -EINVAL);
	assert(h.ncodes <= NPUHW_MAX_CODES);
	for (size_t i = 0; i < h.ncodes; i++) {
		assert(h.codes[i][0] && strlen(h.codes[i]) < NPUHW_CODE_LEN);
		assert(strspn(h.codes[i], "0123456789ABCDEF") == strlen(h.codes[i]));
	}
	rc = npuhw_parse_events(s, size, &ev, err, sizeof(err));
	assert(rc == 0 || rc == -EINVAL);
	assert(ev.n <= NPUHW_MAX_CODES);
	for (size_t i = 0; i < ev.n; i++)
		assert(ev.v[i].code[0] && ev.v[i].severity >= -1 && ev.v[i].severity <= 9);
	rc = npuhw_parse_table(s, size, t, err, sizeof(err));
	assert(rc == 0 || rc == -EINVAL);
	if (rc == 0) {
		assert(t->n >= 1 && t->n <= NPUHW_MAX_CHIPS);
		size_t nobus = 0;
		for (size_t i = 0; i < t->n; i++) {
			size_t bl = strlen(t->v[i].bus);
			assert((bl == 12 || bl == 0) && t->v[i].npu >= 0 && t->v[i].chip >= 0);
			assert(t->v[i].phy_id >= -1 && t->v[i].dev_id >= -1);
			assert(!t->v[i].bus_masked || !bl);
			nobus += !bl;
		}
		assert(nobus == t->nobus);
	}
	(void)npuhw_unsupported(s, size);
	free(t);
	return 0;
}
