/* Fuzzes flight_dump_parse and flight_analyze. The input is one dump, or several separated by a
 * line "---", so that the merge sees dumps that disagree in every way. Beyond memory safety it
 * checks what the analysis relies on: an accepted dump's rank is inside its world, its
 * sequence numbers grow, its strings hold no control character; a rejected one says where. */
#include <assert.h>
#include <errno.h>
#include <stdint.h>

#include "probes/flight/flight.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_DUMPS 8

static void check_dump(const struct flight_dump *d)
{
	assert(d->world_size >= 1 && d->world_size <= FLIGHT_MAX_WORLD);
	assert(d->rank >= 0 && d->rank < d->world_size);
	assert(d->nrec <= FLIGHT_MAX_RECORDS);
	assert(*d->host && strlen(d->host) < FLIGHT_HOSTLEN);
	for (const char *p = d->host; *p; p++)
		assert((unsigned char)*p >= 0x20 && *p != 0x7f);
	int64_t last = -1;
	for (size_t i = 0; i < d->nrec; i++) {
		const struct flight_record *r = &d->rec[i];
		assert(r->peer >= -1 && r->peer < d->world_size);
		assert(r->root >= -1 && r->root < d->world_size);
		assert(r->step >= -1 && r->seq >= 0);
		if (r->error)
			for (const char *p = r->error; *p; p++)
				assert((unsigned char)*p >= 0x20 && *p != 0x7f);
		if (flight_is_p2p(r->coll)) {
			assert(r->root >= 0 && r->root != d->rank);
			continue;
		}
		assert(r->seq > last);
		last = r->seq;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct flight_dump d[MAX_DUMPS];
	const struct flight_dump *ok[MAX_DUMPS];
	const char *s = (const char *)data, *end = s + size;
	size_t n = 0, nok = 0;
	char err[FLIGHT_ERRLEN];

	while (n < MAX_DUMPS) {
		const char *sep =
			n + 1 < MAX_DUMPS ? memmem(s, (size_t)(end - s), "\n---\n", 5) : NULL;
		size_t len = sep ? (size_t)(sep - s) : (size_t)(end - s);
		err[0] = 0;
		int rc = flight_dump_parse(&d[n], "fuzz", s, len, err, sizeof(err));
		assert(rc == 0 || rc == -EINVAL || rc == -ENOMEM);
		if (rc == 0) {
			check_dump(&d[n]);
			ok[nok++] = &d[n];
		} else {
			assert(!strncmp(err, "fuzz", 4));
		}
		n++;
		if (!sep)
			break;
		s = sep + 5;
	}
	if (nok) {
		struct flight_analysis a;
		char buf[64];
		int rc = flight_analyze(&a, ok, nok, err, sizeof(err));
		assert(rc == 0 || rc == -ENOMEM);
		if (rc == 0) {
			assert(a.verdict);
			assert(a.kind == FLIGHT_CONFIG ||
			       a.present.n + a.missing.n == (size_t)a.world_size);
			assert(a.kind != FLIGHT_OK || (a.all_done && !a.missing.n));
			flight_ranks_text(&a.present, buf, sizeof(buf));
			assert(strlen(buf) < sizeof(buf));
		}
		flight_analysis_release(&a);
	}
	for (size_t i = 0; i < n; i++)
		flight_dump_release(&d[i]);
	return 0;
}
