/* Fuzzes the file reader of the HCCL log triage (probes/logs/logsrc.c) through hlog_scan_path: the
 * input is written to a memfd and read back as /proc/self/fd/N, so plain text, gzip, truncated
 * or corrupt gzip, concatenated members and binary all take the path a real file takes (stat,
 * open, read in chunks, inflate by the magic bytes). The reader must give 0 and read or skip
 * the one file, a skip being bad gzip or binary. And it must see what an inflation of our own
 * sees: plain input byte for byte, gzip as its members' inflated bytes (padding after whole
 * members ignored, as logsrc.c says), with the counts hlog_scan_buf gives for the same
 * bytes; and gzip that stops inside a member or does not inflate is skipped as bad gzip
 * (hccllog.h: HLOG_SKIP_GZIP), and one that inflates past its ratio as a bomb
 * (HLOG_SKIP_BOMB), never a plain file. */
#include <assert.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <zlib.h>

#include "probes/logs/hccllog.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Inflated output beyond this is not compared (a small input can be a large bomb). */
#define ORACLE_MAX (8u << 20)

static int gzip_magic(const uint8_t *d, size_t n)
{
	return n >= 2 && d[0] == 0x1f && d[1] == 0x8b;
}

enum gz { GZ_WHOLE, GZ_BAD, GZ_LARGE };

/* Inflates d, which starts with the gzip magic, the way logsrc.c says it reads gzip: members
 * one after another, each with a good trailer; bytes after a whole member that do not start
 * with the magic, or that do but do not inflate to a single byte, are padding and ignored.
 * GZ_WHOLE and the inflated bytes in *out (the caller frees them) when it reads so; GZ_BAD
 * when the input ends inside a member or a member fails after giving bytes (or is the first);
 * GZ_LARGE when it inflates to more than ORACLE_MAX. */
static enum gz inflate_members(const uint8_t *d, size_t n, uint8_t **out, size_t *outn)
{
	z_stream z;
	uint8_t *buf = NULL;
	size_t len = 0, cap = 0, pos = 0, members = 0;
	enum gz res = GZ_BAD;
	memset(&z, 0, sizeof(z));
	assert(inflateInit2(&z, 16 + MAX_WBITS) == Z_OK);
	for (;;) {
		assert(inflateReset(&z) == Z_OK);
		z.next_in = (Bytef *)(d + pos);
		z.avail_in = (uInt)(n - pos);
		size_t start = len;
		int zr;
		do {
			if (len == cap) {
				if (cap >= ORACLE_MAX) {
					res = GZ_LARGE;
					goto out;
				}
				cap = cap ? 2 * cap : 4096;
				uint8_t *nb = realloc(buf, cap);
				assert(nb);
				buf = nb;
			}
			z.next_out = buf + len;
			z.avail_out = (uInt)(cap - len);
			zr = inflate(&z, Z_NO_FLUSH);
			len = cap - z.avail_out;
		} while (zr == Z_OK || (zr == Z_BUF_ERROR && !z.avail_out));
		if (zr == Z_BUF_ERROR)
			goto out; /* the input ended inside the member */
		if (zr != Z_STREAM_END) {
			if (!members || len > start)
				goto out; /* corrupt */
			len = start;
			break; /* padding */
		}
		members++;
		pos = n - z.avail_in;
		if (pos == n || d[pos] != 0x1f || (n - pos > 1 && d[pos + 1] != 0x8b))
			break;
	}
	res = GZ_WHOLE;
out:
	inflateEnd(&z);
	if (res != GZ_WHOLE) {
		free(buf);
		return res;
	}
	*out = buf;
	*outn = len;
	return res;
}

/* The counts of r that do not depend on how the bytes reached hlog_scan_buf. */
static void same_counts(const struct hlog_report *a, const struct hlog_report *b)
{
	assert(a->nfile == b->nfile && a->skipped == b->skipped);
	for (int k = 0; k < HLOG_NSKIP; k++)
		assert(a->skip[k] == b->skip[k]);
	assert(a->lines == b->lines && a->bytes == b->bytes && a->errors == b->errors);
	assert(a->nev == b->nev && a->nunk == b->nunk && a->truncated == b->truncated);
	assert(a->dropped == b->dropped);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hlog_report r, want;
	char err[256], path[64], name[32];
	int fd = memfd_create("fuzz_logsrc", MFD_CLOEXEC);
	assert(fd >= 0);
	for (size_t off = 0; off < size;) {
		ssize_t k = write(fd, data + off, size - off);
		assert(k > 0);
		off += (size_t)k;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	snprintf(name, sizeof(name), "%d", fd); /* the base name scan_path names the file by */

	hlog_report_init(&r);
	err[0] = '\0';
	int rc = hlog_scan_path(path, &r, err, sizeof(err));
	close(fd);
	assert(rc == 0);
	assert(r.nfile + r.skipped == 1);
	if (r.skipped)
		assert(r.skip[HLOG_SKIP_GZIP] + r.skip[HLOG_SKIP_BINARY] + r.skip[HLOG_SKIP_BOMB] ==
		       1);
	else
		assert(!strcmp(r.file[0].name, name) && r.bytes <= HLOG_MAX_FILE_BYTES);
	if (!gzip_magic(data, size))
		assert(!r.skip[HLOG_SKIP_GZIP] && !r.skip[HLOG_SKIP_BOMB] && r.bytes <= size);

	/* what our own reading of the bytes gives */
	uint8_t *plain = NULL;
	size_t n = 0;
	int known = 0;
	if (!gzip_magic(data, size)) {
		known = 1;
		plain = (uint8_t *)data;
		n = size;
	} else {
		enum gz g = inflate_members(data, size, &plain, &n);
		/* a bomb inflates past 16 MiB: never a whole stream the oracle inflated */
		if (g == GZ_BAD)
			assert(r.skip[HLOG_SKIP_GZIP] + r.skip[HLOG_SKIP_BOMB] == 1);
		if (g == GZ_WHOLE)
			assert(!r.skip[HLOG_SKIP_BOMB]);
		/* whether a stream of empty members is an empty file is not said */
		known = g == GZ_WHOLE && n > 0;
	}
	if (known) {
		hlog_report_init(&want);
		assert(hlog_scan_buf(name, "", (const char *)plain, n, &want, err, sizeof(err)) ==
		       0);
		same_counts(&r, &want);
		hlog_report_release(&want);
	}
	if (plain != data)
		free(plain);

	assert(hlog_conclude(&r) == 0);
	assert(r.cause[0]);
	hlog_report_release(&r);
	return 0;
}
