/* Where the triage's lines come from: a directory of a failed job (any file name, since real
 * reports are screen captures, stdout.txt, dmesg as often as plogs), one file, or standard
 * input (a pasted terminal). gzip is inflated by its magic bytes, not by its name, as log
 * rotation and bundling tools name them variously. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "probes/logs/bundle.h"
#include "probes/logs/hccllog.h"
#include "probes/logs/hlogint.h"
#include "probes/logs/linepipe.h"
#include "ranktable/base/bigmem.h"
#include "ranktable/base/buf.h"

/* A read at least SPLIT_READ long is split between two threads. */
#define SPLIT_READ (4u << 20)

struct walk {
	struct hlog_report *r;
	char *err;
	size_t errlen;
};

static void skip(struct hlog_report *r, int why)
{
	r->skip[why]++;
	r->skipped++;
}

/* Keeps the last cap bytes of what is appended, the end of a log being where a job fails: a
 * ring, so that a stream longer than cap costs one copy per byte, not a move of the window
 * per chunk. Until it wraps, the bytes are p[0..n); after, p[w..cap) then p[0..w). */
struct tail {
	char *p;
	size_t n, w, have, cap; /* kept, next write offset, allocated, at most */
	int cut;		/* bytes were dropped from the front */
};

/* The buffer grows as the file is read (most logs are small), up to cap. */
static int tail_add(struct tail *t, const char *s, size_t k)
{
	if (!k)
		return 0;
	if (t->have < t->cap && t->n + k > t->have) {
		size_t want = t->have ? t->have : 1 << 16;
		while (want < t->n + k && want < t->cap)
			want *= 2;
		if (want > t->cap)
			want = t->cap;
		char *p = realloc(t->p, want);
		if (!p)
			return -ENOMEM;
		t->p = p;
		t->have = want;
	}
	if (t->n + k <= t->have) {
		/* not wrapped yet: the bytes are p[0..n), and w is n (0 once full) */
		memcpy(t->p + t->n, s, k);
		t->n += k;
		t->w = t->n % t->have;
		return 0;
	}
	/* at cap: the ring */
	t->cut = 1;
	if (k >= t->have) {
		memcpy(t->p, s + k - t->have, t->have);
		t->w = 0;
		t->n = t->have;
		return 0;
	}
	size_t first = t->have - t->w < k ? t->have - t->w : k;
	memcpy(t->p + t->w, s, first);
	memcpy(t->p, s + first, k - first);
	t->w = (t->w + k) % t->have;
	t->n = t->have;
	return 0;
}

/* The kept bytes in order, from the start of p: one rotation at the end. */
static int tail_flat(struct tail *t)
{
	if (t->n < t->have || !t->w)
		return 0;
	char *q = malloc(t->n);
	if (!q)
		return -ENOMEM;
	memcpy(q, t->p + t->w, t->have - t->w);
	memcpy(q + t->have - t->w, t->p, t->w);
	free(t->p);
	t->p = q;
	t->w = 0;
	return 0;
}

enum { CHUNK = 1 << 16 };

/* One gzip file being inflated, its members one after another. */
struct gz {
	z_stream z;
	unsigned char *out;
	int members, open_member;
	uint64_t in, out_bytes; /* of the members before this one (inflateReset clears z's) */
};

/* A gzip file that inflates to more than HLOG_MAX_INFLATE, or past 16 MiB at more than
 * HLOG_BOMB_RATIO to one, is a bomb: its size is what it is for. Counted over all its
 * members, so that a bomb cut into many members is one too. */
static int bomb(const struct gz *g)
{
	uint64_t in = g->in + g->z.total_in, out = g->out_bytes + g->z.total_out;
	return out > HLOG_MAX_INFLATE ||
	       (out > (16u << 20) && out / (in ? in : 1) > HLOG_BOMB_RATIO);
}

/* Inflates the k bytes at in into t: 0 to read on, 1 when what follows is not gzip
 * (padding after whole members: the end), -EILSEQ, -E2BIG or -ENOMEM. */
static int gz_feed(struct gz *g, struct tail *t, unsigned char *in, size_t k)
{
	z_stream *z = &g->z;
	z->next_in = in;
	z->avail_in = (uInt)k;
	while (z->avail_in) {
		z->next_out = g->out;
		z->avail_out = CHUNK;
		g->open_member = 1;
		int zr = inflate(z, Z_NO_FLUSH);
		if (tail_add(t, (const char *)g->out, CHUNK - z->avail_out))
			return -ENOMEM;
		if (bomb(g))
			return -E2BIG;
		if (zr == Z_STREAM_END) {
			g->members++;
			g->open_member = 0;
			g->in += z->total_in;
			g->out_bytes += z->total_out;
			if (inflateReset(z) != Z_OK)
				return -EILSEQ;
			/* concatenated members (log rotation appends them); a header may be
			 * split across two reads */
			if (z->avail_in &&
			    (z->next_in[0] != 0x1f || (z->avail_in > 1 && z->next_in[1] != 0x8b)))
				return 1;
			continue;
		}
		if (zr != Z_OK && zr != Z_BUF_ERROR) {
			/* what follows whole members and does not inflate is padding */
			if (g->members && z->total_out == 0) {
				g->open_member = 0;
				return 1;
			}
			return -EILSEQ;
		}
		if (zr == Z_BUF_ERROR && z->avail_out == CHUNK)
			break;
	}
	return 0;
}

static size_t window_of(const struct hlog_report *r)
{
	return r->window ? r->window : HLOG_MAX_FILE_BYTES;
}

/* Reads fd to its end (the last HLOG_MAX_FILE_BYTES of it, at most HLOG_MAX_READ_BYTES read),
 * inflating gzip. 0, -EIO for a read error, -EILSEQ for gzip that does not inflate or stops
 * inside a member, -E2BIG for a gzip bomb, -ENOMEM. plain: fd was moved into a plain file,
 * whose bytes there are not a gzip header whatever they are. *more: the input went on past
 * what was read. */
static int slurp(int fd, int plain, const struct hlog_report *r, struct tail *t, int *more)
{
	unsigned char *in = malloc(CHUNK);
	struct gz g;
	int gz = -1, rc = 0, zinit = 0;
	size_t got = 0;
	memset(&g, 0, sizeof(g));
	g.out = malloc(CHUNK);
	t->cap = window_of(r);
	t->p = NULL;
	t->n = t->w = t->have = 0;
	t->cut = 0;
	*more = 0;
	if (!in || !g.out) {
		rc = -ENOMEM;
		goto out;
	}
	for (;;) {
		if (got >= (r->stream_max ? r->stream_max : HLOG_MAX_READ_BYTES)) {
			*more = 1;
			break;
		}
		ssize_t k = read(fd, in, CHUNK);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0) {
			rc = -EIO;
			goto out;
		}
		if (k == 0)
			break;
		got += (size_t)k;
		if (gz < 0) {
			gz = !plain && k >= 2 && in[0] == 0x1f && in[1] == 0x8b;
			/* 15 + 32: a zlib or a gzip header */
			if (gz && inflateInit2(&g.z, 15 + 32) != Z_OK) {
				rc = -ENOMEM;
				goto out;
			}
			zinit = gz;
		}
		int fed = gz ? gz_feed(&g, t, in, (size_t)k)
			     : tail_add(t, (const char *)in, (size_t)k) ? -ENOMEM : 0;
		if (fed < 0) {
			rc = fed;
			goto out;
		}
		if (fed > 0)
			break;
	}
	/* no whole member, or the input ended inside one: truncated (unless we stopped) */
	if (gz == 1 && !*more && (!g.members || g.open_member))
		rc = -EILSEQ;
out:
	if (zinit)
		inflateEnd(&g.z);
	free(in);
	free(g.out);
	if (!rc)
		rc = tail_flat(t);
	return rc;
}

/* A plain regular file larger than the window is read from its last HLOG_MAX_FILE_BYTES
 * (gzip cannot be entered in the middle): 1 when fd was moved there. */
static int seek_tail(int fd, size_t window)
{
	struct stat st;
	unsigned char magic[2];
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size <= (off_t)window)
		return 0;
	if (pread(fd, magic, 2, 0) == 2 && magic[0] == 0x1f && magic[1] == 0x8b)
		return 0;
	return lseek(fd, st.st_size - (off_t)window, SEEK_SET) >= 0;
}

/* Reads n bytes at off into p, to the end of the file if it comes first: the count, or -1. */
static ssize_t pread_full(int fd, char *p, size_t n, off_t off)
{
	size_t got = 0;
	while (got < n) {
		ssize_t k = pread(fd, p + got, n - got, off + (off_t)got);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return -1;
		if (!k)
			break;
		got += (size_t)k;
	}
	return (ssize_t)got;
}

struct half {
	int fd;
	char *p;
	size_t n;
	off_t off;
	ssize_t got;
};

static void *read_half(void *arg)
{
	struct half *h = arg;
	h->got = pread_full(h->fd, h->p, h->n, h->off);
	return NULL;
}

/* pread_full, the second half on another core when there is one and the span is large: the
 * kernel's copy and its zeroing of the fresh pages were a third of judging a log whole, on
 * one core while the other idled. */
static ssize_t read_span(int fd, char *p, size_t n, off_t off, int threads)
{
	pthread_t th;
	size_t first = n / 2 & ~(size_t)0xfff;
	struct half h = {fd, p + first, n - first, off + (off_t)first, 0};
	if (n < SPLIT_READ || threads < 2 || pthread_create(&th, NULL, read_half, &h))
		return pread_full(fd, p, n, off);
	ssize_t a = pread_full(fd, p, first, off);
	pthread_join(th, NULL);
	if (a < 0 || h.got < 0)
		return -1;
	/* a file that shrank under us: what the first half read, then the second's if whole */
	return (size_t)a < first ? a : a + h.got;
}

/* A plain regular file read whole into its own buffer (the kept bytes only, with pread):
 * what slurp keeps of it, without the 64 KiB reads, the ring and the buffer's growth, which
 * were a tenth of the triage. Not mmap: a log truncated under us (copytruncate rotation)
 * would kill the process with SIGBUS. 1 when it is not one (gzip, not regular: slurp reads
 * it), 0 done, -EIO, -ENOMEM. */
static int read_plain(int fd, int moved, const struct hlog_report *r, struct tail *t, int *more)
{
	struct stat st;
	unsigned char magic[2];
	off_t pos = lseek(fd, 0, SEEK_CUR);
	if (pos < 0 || fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size < pos)
		return 1;
	if (!moved && pread(fd, magic, 2, pos) == 2 && magic[0] == 0x1f && magic[1] == 0x8b)
		return 1;
	/* as slurp: whole reads until max is reached, then the last window of them */
	size_t max = r->stream_max ? r->stream_max : HLOG_MAX_READ_BYTES;
	size_t got = (size_t)(st.st_size - pos), lim = (max + CHUNK - 1) / CHUNK * CHUNK;
	*more = got >= max;
	got = got < lim ? got : lim;
	size_t keep = got < window_of(r) ? got : window_of(r);
	memset(t, 0, sizeof(*t));
	t->cut = got > keep;
	if (!keep)
		return 0;
	/* huge pages: faulting in the window 4 KiB at a time was a sixth of the triage */
	if (!(t->p = big_malloc(keep)))
		return -ENOMEM;
	ssize_t k =
		read_span(fd, t->p, keep, pos + (off_t)(got - keep), linepipe_threads(r->threads));
	if (k < 0)
		return -EIO;
	t->n = (size_t)k; /* short when the file shrank under us */
	return 0;
}

/* Reads one open file and scans it as rel, from node. */
static int scan_fd(struct walk *w, int fd, const char *rel, const char *node)
{
	struct hlog_report *r = w->r;
	struct tail t = {0};
	int more = 0, moved = seek_tail(fd, window_of(r));
	int rc = read_plain(fd, moved, r, &t, &more);
	if (rc == 1)
		rc = slurp(fd, moved, r, &t, &more);
	t.cut |= moved || more;
	if (rc == -ENOMEM) {
		free(t.p);
		snprintf(w->err, w->errlen, "%s: out of memory", rel);
		return rc;
	}
	if (rc) {
		free(t.p);
		skip(r, rc == -EILSEQ  ? HLOG_SKIP_GZIP
			: rc == -E2BIG ? HLOG_SKIP_BOMB
				       : HLOG_SKIP_UNREADABLE);
		return 0;
	}
	const char *s = t.p;
	size_t n = t.n;
	if (t.cut) {
		/* start at a whole line */
		const char *nl = memchr(s, '\n', n);
		n = nl ? n - (size_t)(nl + 1 - s) : 0;
		s = nl ? nl + 1 : s;
		r->truncated++;
	}
	rc = hlog_scan_buf(rel, node, s, n, r, w->err, w->errlen);
	free(t.p);
	return rc;
}

static int read_file(struct walk *w, const char *path, const char *rel, const char *node)
{
	struct hlog_report *r = w->r;
	if (r->bytes >= HLOG_MAX_TOTAL_BYTES || r->nfile >= HLOG_MAX_FILES) {
		skip(r, HLOG_SKIP_LIMIT);
		return 0;
	}
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		int special = fd < 0 ? errno == ELOOP : 1;
		if (fd >= 0)
			close(fd);
		skip(r, special ? HLOG_SKIP_SPECIAL : HLOG_SKIP_UNREADABLE);
		return 0;
	}
	int rc = scan_fd(w, fd, rel, node);
	close(fd);
	return rc;
}

/* A regular file below the directory, in the walk's order. */
struct job {
	char *full, *rel;
	char node[HLOG_NODELEN];
};

/* The jobs, one after another in ranktable/base's growable buffer. Not capped at
 * HLOG_MAX_FILES: files skipped unread (binary, unreadable) do not count towards it, so
 * which file is the first past it is known only when they are read. */
struct jobs {
	struct buf b;
	size_t n;
};

static int add_job(struct jobs *js, const char *full, const char *rel, const char *node)
{
	struct job j = {strdup(full), strdup(rel), ""};
	snprintf(j.node, sizeof(j.node), "%s", node);
	if (!j.full || !j.rel || buf_add(&js->b, &j, sizeof(j))) {
		free(j.full);
		free(j.rel);
		return -ENOMEM;
	}
	js->n++;
	return 0;
}

static const struct job *job_at(const struct jobs *js, size_t i)
{
	return (const struct job *)(const void *)js->b.p + i;
}

static void jobs_free(struct jobs *js)
{
	for (size_t i = 0; i < js->n; i++) {
		free(job_at(js, i)->full);
		free(job_at(js, i)->rel);
	}
	buf_release(&js->b);
}

/* Lists the regular files under path (name order, depth first) into js; what is not read
 * (special files, too deep, unreadable folders) is counted in w's report. */
static int walk_dir(struct walk *w, const char *path, const char *rel, int depth, struct jobs *js)
{
	struct dirent **names = NULL;
	int n = scandir(path, &names, NULL, alphasort);
	if (n < 0) {
		if (!depth) {
			int e = errno;
			snprintf(w->err, w->errlen, "cannot read directory '%s': %s", path,
				 strerror(e));
			return -e;
		}
		skip(w->r, HLOG_SKIP_UNREADABLE);
		return 0;
	}
	int rc = 0;
	for (int i = 0; i < n; i++) {
		const char *nm = names[i]->d_name;
		if (rc || !strcmp(nm, ".") || !strcmp(nm, ".."))
			continue;
		char full[4096], sub[HLOG_PATHLEN];
		int a = snprintf(full, sizeof(full), "%s/%s", path, nm);
		int b = *rel ? snprintf(sub, sizeof(sub), "%s/%s", rel, nm)
			     : snprintf(sub, sizeof(sub), "%s", nm);
		struct stat st;
		if (a < 0 || (size_t)a >= sizeof(full) || b < 0 || (size_t)b >= sizeof(sub)) {
			skip(w->r, HLOG_SKIP_LIMIT);
			continue;
		}
		if (lstat(full, &st)) {
			skip(w->r, HLOG_SKIP_UNREADABLE);
			continue;
		}
		if (S_ISDIR(st.st_mode)) {
			if (depth + 1 >= HLOG_MAX_DEPTH)
				skip(w->r, HLOG_SKIP_LIMIT);
			else
				rc = walk_dir(w, full, sub, depth + 1, js);
		} else if (S_ISREG(st.st_mode)) {
			/* DIR/<node>/...: the worker a collector's folder names, else the first
			 * component, for files below it */
			char node[HLOG_NODELEN];
			hlog__bundle_node(full, sub, node, sizeof(node));
			if (add_job(js, full, sub, node)) {
				snprintf(w->err, w->errlen, "%s: out of memory", sub);
				rc = -ENOMEM;
			}
		} else {
			skip(w->r, HLOG_SKIP_SPECIAL); /* symlinks are not followed */
		}
	}
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return rc;
}

/* The files of a bundle are read and scanned on every core, each into a report of its own
 * (a part), and the parts appended in the walk's order: the output is the same as one
 * thread's, byte for byte. The workers take the files in order, at most RING files ahead of
 * the part appended last, so that few parts are held at once whatever the number of files;
 * the calling thread appends each part as soon as it is done. Files taken in batches, each
 * waiting for its slowest file, left a core idle at the end of every batch (a 1 GB bundle
 * of 17 files took 7.0 s of wall clock for 12.5 s of CPU). */
#define RING_PER_THREAD 4

struct part {
	struct hlog_report r;
	char err[256];
	int rc;
	int done; /* under the lock */
};

struct pool {
	const struct jobs *js;
	const struct hlog_report *like; /* the settings each part copies */
	struct part *part;		/* ring of ring parts: file i's is part[i % ring] */
	size_t ring;
	size_t next;   /* the next file to take */
	size_t merged; /* files appended (or skipped) so far */
	int stop;      /* take no more: an error, or the limits reached */
	pthread_mutex_t lock;
	pthread_cond_t cv;
};

static void *pool_worker(void *arg)
{
	struct pool *o = arg;
	pthread_mutex_lock(&o->lock);
	for (;;) {
		while (!o->stop && o->next < o->js->n && o->next >= o->merged + o->ring)
			pthread_cond_wait(&o->cv, &o->lock);
		if (o->stop || o->next >= o->js->n)
			break;
		size_t i = o->next++;
		pthread_mutex_unlock(&o->lock);
		struct part *p = &o->part[i % o->ring];
		hlog_report_init(&p->r);
		p->r.window = o->like->window;
		p->r.stream_max = o->like->stream_max;
		p->r.threads = 1; /* the pool takes the cores */
		p->r.kb = o->like->kb;
		struct walk w = {&p->r, p->err, sizeof(p->err)};
		const struct job *j = job_at(o->js, i);
		int rc = read_file(&w, j->full, j->rel, j->node);
		pthread_mutex_lock(&o->lock);
		p->rc = rc;
		p->done = 1;
		pthread_cond_broadcast(&o->cv);
	}
	pthread_mutex_unlock(&o->lock);
	return NULL;
}

/* Appends file i's part to r (or skips it: past the limits, after an error); 1 when no
 * more files should be read. Called with the lock not held. */
static int merge_part(struct walk *w, struct part *p, int *rc)
{
	struct hlog_report *r = w->r;
	if (*rc) {
	} else if (r->bytes >= HLOG_MAX_TOTAL_BYTES || r->nfile >= HLOG_MAX_FILES) {
		skip(r, HLOG_SKIP_LIMIT);
	} else if (p->rc) {
		snprintf(w->err, w->errlen, "%s", p->err);
		*rc = p->rc;
	} else {
		*rc = hlog__report_append(r, &p->r, w->err, w->errlen);
	}
	hlog_report_release(&p->r);
	return *rc || r->bytes >= HLOG_MAX_TOTAL_BYTES || r->nfile >= HLOG_MAX_FILES;
}

/* The files one after another on this thread (one core, one file, or no thread to be had). */
static int scan_each(struct walk *w, const struct jobs *js)
{
	int rc = 0;
	for (size_t i = 0; i < js->n && !rc; i++)
		rc = read_file(w, job_at(js, i)->full, job_at(js, i)->rel, job_at(js, i)->node);
	return rc;
}

static int scan_jobs(struct walk *w, const struct jobs *js)
{
	struct hlog_report *r = w->r;
	int nt = linepipe_threads(r->threads), rc = 0;
	if (nt < 2 || js->n < 2)
		return scan_each(w, js);
	struct pool o = {.js = js, .like = r, .ring = (size_t)nt * RING_PER_THREAD};
	if (!(o.part = calloc(o.ring, sizeof(struct part)))) {
		snprintf(w->err, w->errlen, "out of memory");
		return -ENOMEM;
	}
	pthread_mutex_init(&o.lock, NULL);
	pthread_cond_init(&o.cv, NULL);
	/* past the limits every file is skipped unread, as read_file skips it */
	o.stop = r->bytes >= HLOG_MAX_TOTAL_BYTES || r->nfile >= HLOG_MAX_FILES;
	pthread_t t[LINEPIPE_MAX_THREADS];
	int started = 0;
	for (int k = 0; k < nt && (size_t)k < js->n; k++)
		if (!pthread_create(&t[started], NULL, pool_worker, &o))
			started++;
	for (size_t i = 0; started && i < js->n; i++) {
		struct part *p = &o.part[i % o.ring];
		pthread_mutex_lock(&o.lock);
		while (!p->done && (i < o.next || !o.stop))
			pthread_cond_wait(&o.cv, &o.lock);
		int taken = p->done, stop = 1;
		p->done = 0;
		pthread_mutex_unlock(&o.lock);
		if (taken)
			stop = merge_part(w, p, &rc);
		else if (!rc) /* never taken: the workers stopped at the limits (or an error) */
			skip(r, HLOG_SKIP_LIMIT);
		pthread_mutex_lock(&o.lock);
		o.merged = i + 1;
		o.stop |= stop;
		pthread_cond_broadcast(&o.cv);
		pthread_mutex_unlock(&o.lock);
	}
	for (int k = 0; k < started; k++)
		pthread_join(t[k], NULL);
	pthread_cond_destroy(&o.cv);
	pthread_mutex_destroy(&o.lock);
	free(o.part);
	return started ? rc : scan_each(w, js);
}

static int scan_tree(struct walk *w, const char *path)
{
	struct jobs js = {BUF_INIT(SIZE_MAX / 2), 0};
	int rc = walk_dir(w, path, "", 0, &js);
	if (!rc)
		rc = scan_jobs(w, &js);
	jobs_free(&js);
	return rc;
}

int hlog_scan_dir(const char *dir, struct hlog_report *r, char *err, size_t errlen)
{
	struct stat st;
	if (!dir || !r) {
		snprintf(err, errlen, "hlog_scan_dir: a NULL argument");
		return -EINVAL;
	}
	if (stat(dir, &st)) {
		int e = errno;
		snprintf(err, errlen, "cannot read '%s': %s", dir, strerror(e));
		return -e;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "'%s' is not a directory", dir);
		return -ENOTDIR;
	}
	struct walk w = {r, err, errlen};
	return scan_tree(&w, dir);
}

/* What a file that is not a regular one is, for a message. */
static const char *file_kind(mode_t m)
{
	return S_ISFIFO(m)   ? "a FIFO"
	       : S_ISCHR(m)  ? "a character device"
	       : S_ISBLK(m)  ? "a block device"
	       : S_ISSOCK(m) ? "a socket"
			     : "neither a file nor a directory";
}

int hlog_scan_path(const char *path, struct hlog_report *r, char *err, size_t errlen)
{
	struct stat st;
	if (!path || !r) {
		snprintf(err, errlen, "hlog_scan_path: a NULL argument");
		return -EINVAL;
	}
	struct walk w = {r, err, errlen};
	if (!strcmp(path, "-"))
		return scan_fd(&w, 0, "stdin", "");
	if (stat(path, &st)) {
		int e = errno;
		snprintf(err, errlen, "cannot read '%s': %s", path, strerror(e));
		return -e;
	}
	if (S_ISDIR(st.st_mode))
		return scan_tree(&w, path);
	/* given by name, a FIFO or a device is refused, not read: it may never end (/dev/zero)
	 * or never start (a FIFO nobody writes); a symbolic link is said to be one */
	struct stat lst;
	int link = !lstat(path, &lst) && S_ISLNK(lst.st_mode);
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "'%s' is %s%s, not a log file", path,
			 link ? "a symbolic link to " : "", file_kind(st.st_mode));
		return -EINVAL;
	}
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0) {
		int e = errno;
		snprintf(err, errlen, "cannot read '%s': %s", path, strerror(e));
		return -e;
	}
	/* what was opened is what was looked at (not swapped for a FIFO in between) */
	struct stat fst;
	if (fstat(fd, &fst) || !S_ISREG(fst.st_mode) || fst.st_ino != st.st_ino ||
	    fst.st_dev != st.st_dev) {
		close(fd);
		snprintf(err, errlen, "'%s' changed while it was opened", path);
		return -EAGAIN;
	}
	const char *base = strrchr(path, '/');
	int rc = scan_fd(&w, fd, base && base[1] ? base + 1 : path, "");
	close(fd);
	return rc;
}
