/* Two ways to move a buffer between two processes of one host, measured to choose libcomm's
 * shared-memory transport (libcomm/shm.c says what was chosen and why):
 *   ring    the sender copies into libcomm's byte ring (libcomm/shmring.c, COMM__SHM_RING
 *           bytes in a shared mapping) while the receiver copies out of it: two copies,
 *           pipelined on two cores;
 *   cma     the receiver copies straight out of the sender's buffer with process_vm_readv:
 *           one copy, by one core, the sender idle;
 *   memcpy  one process, one copy, for reference.
 * Usage: shmcopy [MIN_MIB [MAX_MIB [REPS]]] (1 256 5). Prints, per size, GB/s (1e9 B/s) of
 * the best of REPS runs of each way; every run's bytes are checked at the receiver. Both
 * processes poll (no sleeping): this measures the copies, not wake-ups. */
#include <errno.h>
#include <sched.h>
#include <inttypes.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "libcomm/internal.h"

#define CHUNK ((size_t)512 << 10) /* what the ring algorithms hand the engine at a time */

struct shared {
	_Atomic int go, done, quit; /* run number started, finished by the receiver; stop */
	_Atomic int ready;          /* the sender's buffer is filled for run `go` */
	struct comm__ring_ctl ctl;
};

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void fill(unsigned char *b, size_t n, unsigned seed)
{
	uint64_t x = seed * 0x9e3779b97f4a7c15ULL + 1;
	for (size_t i = 0; i + 8 <= n; i += 8) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		memcpy(b + i, &x, 8);
	}
}

/* The sender's side of the ring runs, run after run, until told to quit. */
static void sender(struct shared *sh, unsigned char *data, unsigned char *src, size_t max)
{
	struct comm__ring r;
	comm__ring_init(&r, &sh->ctl, data, COMM__SHM_RING);
	int seen = 0;
	while (!atomic_load(&sh->quit)) {
		int g = atomic_load(&sh->go);
		if (g == seen) {
			sched_yield(); /* leave the core to cma and memcpy between ring runs */
			continue;
		}
		seen = g;
		size_t n = (size_t)g >> 8 << 20; /* MiB in the high bits */
		if (n > max)
			_exit(2);
		for (size_t off = 0; off < n;) {
			size_t k = n - off < CHUNK ? n - off : CHUNK;
			struct iovec v = { src + off, k };
			unsigned wake;
			off += comm__ring_write(&r, &v, 1, &wake);
		}
	}
	_exit(0);
}

static double ring_run(struct shared *sh, unsigned char *data, unsigned char *dst,
		       const unsigned char *want, size_t n, int run)
{
	static struct comm__ring r;
	static int inited;
	if (!inited) {
		comm__ring_init(&r, &sh->ctl, data, COMM__SHM_RING);
		inited = 1;
	}
	double t0 = now_s();
	atomic_store(&sh->go, (int)((n >> 20) << 8 | (size_t)(run & 0xff)));
	for (size_t off = 0; off < n;) {
		unsigned wake;
		off += comm__ring_read(&r, dst + off, n - off < CHUNK ? n - off : CHUNK, &wake);
	}
	double t = now_s() - t0;
	if (memcmp(dst, want, n)) {
		fprintf(stderr, "shmcopy: ring: %zu bytes differ from what was sent\n", n);
		exit(1);
	}
	return t;
}

static double cma_run(pid_t pid, unsigned char *remote, unsigned char *dst,
		      const unsigned char *want, size_t n)
{
	double t0 = now_s();
	for (size_t off = 0; off < n;) {
		struct iovec l = { dst + off, n - off }, rv = { remote + off, n - off };
		ssize_t k = process_vm_readv(pid, &l, 1, &rv, 1, 0);
		if (k <= 0) {
			fprintf(stderr, "shmcopy: process_vm_readv: %s\n", strerror(errno));
			exit(1);
		}
		off += (size_t)k;
	}
	double t = now_s() - t0;
	if (memcmp(dst, want, n)) {
		fprintf(stderr, "shmcopy: cma: %zu bytes differ from what was sent\n", n);
		exit(1);
	}
	return t;
}

int main(int argc, char **argv)
{
	size_t lo = argc > 1 ? strtoul(argv[1], NULL, 10) : 1;
	size_t hi = argc > 2 ? strtoul(argv[2], NULL, 10) : 256;
	int reps = argc > 3 ? atoi(argv[3]) : 5;
	if (!lo || hi < lo || hi > 4096 || reps < 1) {
		fprintf(stderr, "usage: shmcopy [MIN_MIB [MAX_MIB [REPS]]]\n");
		return 64;
	}
	size_t max = hi << 20;
	struct shared *sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
				 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	unsigned char *data = mmap(NULL, COMM__SHM_RING, PROT_READ | PROT_WRITE,
				   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	/* the same pattern on both sides: the child's copy of src is the sender's buffer, at
	 * the same address (fork), which is what cma reads */
	unsigned char *src = malloc(max), *dst = malloc(max), *want = malloc(max);
	if (sh == MAP_FAILED || data == MAP_FAILED || !src || !dst || !want) {
		fprintf(stderr, "shmcopy: out of memory for %zu MiB\n", hi);
		return 1;
	}
	fill(src, max, 7);
	memcpy(want, src, max);
	memset(dst, 0, max);
	pid_t pid = fork();
	if (pid < 0) {
		perror("shmcopy: fork");
		return 1;
	}
	if (pid == 0)
		sender(sh, data, src, max);
	printf("# shmcopy: best of %d, GB/s (1e9 B/s); ring: %d MiB, chunks of %zu KiB\n", reps,
	       COMM__SHM_RING >> 20, CHUNK >> 10);
	printf("# %8s %8s %8s %8s\n", "MiB", "ring", "cma", "memcpy");
	int run = 0;
	for (size_t mib = lo; mib <= hi; mib *= 4) {
		size_t n = mib << 20;
		double br = 1e9, bc = 1e9, bm = 1e9;
		for (int i = 0; i < reps; i++) {
			double t = ring_run(sh, data, dst, want, n, ++run);
			br = t < br ? t : br;
			memset(dst, 0, n);
			t = cma_run(pid, src, dst, want, n);
			bc = t < bc ? t : bc;
			double t0 = now_s();
			memcpy(dst, src, n);
			t = now_s() - t0;
			bm = t < bm ? t : bm;
			memset(dst, 0, n);
		}
		printf("  %8zu %8.2f %8.2f %8.2f\n", mib, (double)n / br / 1e9, (double)n / bc / 1e9,
		       (double)n / bm / 1e9);
		fflush(stdout);
	}
	atomic_store(&sh->quit, 1);
	int st;
	waitpid(pid, &st, 0);
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : 1;
}
