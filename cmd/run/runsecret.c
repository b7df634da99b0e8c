/* The secret of a job whose ranks another launcher starts (--master, torchrun, Open MPI,
 * Slurm, Ascend's variables): every rank must hold the same 16 bytes, and nobody else may.
 * They come from HCCLCTL_SECRET (32 hex digits) or from the file HCCLCTL_SECRET_FILE names,
 * which must be the user's own and closed to group and others (a shared home or scratch
 * directory is how the same file reaches every node). Without either, the key is derived
 * from the rendezvous address: anyone who can reach that address can compute it and join,
 * so run.c accepts it only for one rank or under --insecure. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/lib/netperf.h"
#include "cmd/run/run.h"

static int secret_file(const char *path, unsigned char out[16], char *err, size_t errlen)
{
	char buf[256];
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		snprintf(err, errlen, "HCCLCTL_SECRET_FILE '%s': %s", path, strerror(errno));
		return -1;
	}
	int rc = -1;
	if (fstat(fd, &st)) {
		snprintf(err, errlen, "HCCLCTL_SECRET_FILE '%s': %s", path, strerror(errno));
	} else if (!S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "HCCLCTL_SECRET_FILE '%s' is not a regular file", path);
	} else if (st.st_uid != geteuid()) {
		snprintf(err, errlen, "HCCLCTL_SECRET_FILE '%s' belongs to uid %u, not to this user "
			 "(uid %u)", path, (unsigned)st.st_uid, (unsigned)geteuid());
	} else if (st.st_mode & 077) {
		snprintf(err, errlen, "HCCLCTL_SECRET_FILE '%s' is open to group or others (mode "
			 "%04o): chmod 600 it", path, (unsigned)(st.st_mode & 07777));
	} else {
		ssize_t n = read(fd, buf, sizeof(buf));
		char why[200];
		if (n < 0)
			snprintf(err, errlen, "HCCLCTL_SECRET_FILE '%s': %s", path, strerror(errno));
		else if (np_secret_parse(out, buf, (size_t)n, why, sizeof(why)))
			snprintf(err, errlen, "HCCLCTL_SECRET_FILE '%s': %s", path, why);
		else
			rc = 0;
	}
	close(fd);
	return rc;
}

int run_job_secret(const char *host, int port, int n, unsigned char out[16], char *err,
		   size_t errlen)
{
	const char *s = getenv("HCCLCTL_SECRET"), *f = getenv("HCCLCTL_SECRET_FILE");
	char why[200];
	if (s && *s && f && *f) {
		snprintf(err, errlen, "HCCLCTL_SECRET and HCCLCTL_SECRET_FILE are both set: give one");
		return -1;
	}
	if (f && *f)
		return secret_file(f, out, err, errlen);
	if (s && *s) {
		if (!np_secret_parse(out, s, strlen(s), why, sizeof(why)))
			return 0;
		snprintf(err, errlen, "HCCLCTL_SECRET: %s", why);
		return -1;
	}
	/* every rank computes the same key from what they all know: keeps strays out, never an
	 * attacker */
	uint64_t h1 = 1469598103934665603ULL, h2 = 1099511628211ULL;
	char key[300];
	snprintf(key, sizeof(key), "hcclctl:%s:%d:%d", host, port, n);
	for (const char *c = key; *c; c++) {
		h1 = (h1 ^ (unsigned char)*c) * 1099511628211ULL;
		h2 = (h2 ^ (unsigned char)*c) * 0x100000001b3ULL + 7;
	}
	memcpy(out, &h1, 8);
	memcpy(out + 8, &h2, 8);
	return 1;
}
