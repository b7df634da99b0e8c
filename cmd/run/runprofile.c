/* run --profile FILE (or HCCLCTL_PROFILE=FILE): every rank records its steps (libcomm's
 * profiler); after the sweep they are gathered to rank 0 over the communicator itself, so the
 * merge works under every launcher, and rank 0 writes one Chrome trace (Perfetto,
 * chrome://tracing) with a process per rank. Written whole, through the atomic writer
 * (ranktable/atomic.c), so a name planted beside FILE is never opened. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cli/cli.h"
#include "ranktable/ranktable.h"
#include "cmd/run/run.h"
#include "ranktable/base/io.h"

const char *run_profile_file;

const char *run_profile_path(void)
{
	const char *e = getenv("HCCLCTL_PROFILE");
	return run_profile_file ? run_profile_file : e && *e ? e : NULL;
}

int run_profile_gather(struct comm *c, char *err, size_t errlen)
{
	const char *path = run_profile_path();
	char *mine = NULL, *buf = NULL, aerr[PATH_MAX + 200];
	struct rt_atomic a = { .fd = -1 };
	size_t len = 0;
	int n = comm_size(c), me = comm_rank(c), fd = -1, rc;
	int64_t *lens = calloc((size_t)n, sizeof(*lens));
	if (!lens || comm_profile_json(c, &mine, &len)) {
		free(lens);
		comm_profile_stop(c);
		snprintf(err, errlen, "profile: out of memory");
		return -ENOMEM;
	}
	comm_profile_stop(c); /* the gather itself is not part of the trace */
	int64_t l = (int64_t)len;
	rc = comm_allgather(c, &l, lens, 1, COMM_INT64);
	if (rc)
		goto comm_failed;
	if (me != 0) {
		rc = comm_send(c, mine, len, COMM_INT8, 0);
		if (rc)
			goto comm_failed;
		free(mine);
		free(lens);
		return 0;
	}
	rc = rt_atomic_open(&a, path, aerr, sizeof(aerr));
	if (rc) {
		snprintf(err, errlen, "profile: %s", aerr);
		goto drain_from;
	}
	fd = a.fd;
	int bad = fd_write_all(fd, "{\"traceEvents\": [\n", 18) || fd_write_all(fd, mine, len);
	for (int q = 1; q < n; q++) {
		buf = malloc(lens[q] ? (size_t)lens[q] : 1);
		if (!buf) {
			snprintf(err, errlen, "profile: out of memory for rank %d's %lld bytes", q,
				 (long long)lens[q]);
			rc = -ENOMEM;
			goto drain_from;
		}
		rc = comm_recv(c, buf, (size_t)lens[q], COMM_INT8, q);
		if (rc) {
			free(buf);
			goto comm_failed;
		}
		bad = bad || fd_write_all(fd, ",\n", 2) || fd_write_all(fd, buf, (size_t)lens[q]);
		free(buf);
	}
	char tail[256];
	int k = snprintf(tail, sizeof(tail),
			 "\n], \"displayTimeUnit\": \"ms\", \"otherData\": {\"tool\": \"hcclctl\", "
			 "\"version\": \"%s\", \"ranks\": %d}}\n",
			 HCCLCTL_VERSION, n);
	if (bad || fd_write_all(fd, tail, (size_t)k)) {
		snprintf(err, errlen, "profile: cannot write %s: %s", a.tmp, strerror(errno));
		rt_atomic_abort(&a);
		rc = -EIO;
	} else if ((rc = rt_atomic_commit(&a, 0644, aerr, sizeof(aerr)))) {
		snprintf(err, errlen, "profile: %s", aerr);
	}
	free(mine);
	free(lens);
	return rc;

drain_from:
	/* the other ranks are sending: take their traces so they are not left waiting */
	for (int q = 1; q < n; q++) {
		char *sink = malloc(lens[q] ? (size_t)lens[q] : 1);
		if (!sink || comm_recv(c, sink, (size_t)lens[q], COMM_INT8, q)) {
			free(sink);
			break;
		}
		free(sink);
	}
	rt_atomic_abort(&a);
	free(mine);
	free(lens);
	return rc < 0 ? rc : -EIO;
comm_failed:
	snprintf(err, errlen, "profile: gathering the traces failed: %s", comm_last_error(c));
	rt_atomic_abort(&a);
	free(mine);
	free(lens);
	return rc;
}
