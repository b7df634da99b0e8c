/* Whether a line reads as an error, by its words: see logline.h. Every tool words a failure
 * with a few common words whatever its prefix, so those words, not the prefixes, decide; the
 * forms in which the same words say that nothing failed are rows of their own table, each
 * with the real form it stands for. Matching is by word: a row starts at a word start and
 * ends at a word end, so identifiers (HCCL_CONNECT_TIMEOUT, error_handler, on_failure) never
 * match: '_' is part of a word. */
#include <pthread.h>
#include <stddef.h>
#include <string.h>

#include "probes/logs/logline.h"

#define EW_CASE 1 /* as written: upper-case names (errno, NCCL's level) */

/* A space in a row matches any run of blanks. */
static const struct {
	const char *form;
	int flags;
} words[] = {
	{"error", 0},	      /* "ERROR: ...", "[error] ...", "Bus error" */
	{"errors", 0},	      /* "5 errors detected" */
	{"fail", 0},	      /* "host nic listen start fail" */
	{"fails", 0},	      /* "the check fails" */
	{"failed", 0},	      /* "HcclCommInitRootInfo failed", "check_result: failed" */
	{"failure", 0},	      /* "NCCL failure", "Connection failure" */
	{"failures", 0},      /* torchrun's "Failures:" summary */
	{"fatal", 0},	      /* "Fatal error in PMPI_Init", "FATAL:" */
	{"exception", 0},     /* "Exception raised from ...", "exception in task" */
	{"exceptions", 0},    /* "exceptions were raised" */
	{"abort", 0},	      /* "call abort", "MPI_ABORT was invoked" */
	{"aborted", 0},	      /* "Aborted (core dumped)" */
	{"aborting", 0},      /* "so we are aborting." (Open MPI) */
	{"refused", 0},	      /* "Connection refused" */
	{"timeout", 0},	      /* "Socket Timeout", "wait timeout" */
	{"timed out", 0},     /* "Connection timed out", "timed out after 1800000 ms" */
	{"unreachable", 0},   /* "Network is unreachable" */
	{"no route", 0},      /* "No route to host" */
	{"cannot", 0},	      /* "Cannot allocate memory" */
	{"could not", 0},     /* "could not connect" */
	{"unable", 0},	      /* "Unable to connect" */
	{"invalid", 0},	      /* "invalid argument", "invalid device ordinal" */
	{"killed", 0},	      /* "Killed", "Killed process 1234 (python)" */
	{"segmentation fault", 0}, /* "Segmentation fault (core dumped)" */
	{"segfault", 0},      /* kernel: "python[123]: segfault at 0 ip ..." */
	{"out of memory", 0}, /* "CUDA out of memory", "Out of memory: Killed process" */
	{"core dumped", 0},   /* "(core dumped)" */
	{"illegal", 0},	      /* "an illegal memory access was encountered" */
	{"terminate called", 0}, /* "terminate called after throwing an instance of" */
	{"broken pipe", 0},   /* "Broken pipe" */
	{"connection reset", 0}, /* "Connection reset by peer" */
	{"permission denied", 0}, /* "Permission denied" */
	{"address already in use", 0}, /* "Address already in use" */
	{"no space left", 0}, /* "No space left on device" */
	{"wrong", 0},	      /* "something went wrong", nccl-tests "#wrong" counts */
	{"mismatch", 0},      /* "parameters mismatch", "size mismatch" */
	{"corrupt", 0},	      /* "corrupt input" */
	{"corrupted", 0},     /* "malloc(): corrupted top size" */
	{"NCCL WARN", EW_CASE}, /* NCCL's level for what failed: "NCCL WARN Call to ibv_..." */
	{"ECONNREFUSED", EW_CASE}, /* errno names: "(errno: ECONNREFUSED)" */
	{"ECONNRESET", EW_CASE},
	{"ECONNABORTED", EW_CASE},
	{"ETIMEDOUT", EW_CASE},
	{"EHOSTUNREACH", EW_CASE},
	{"ENETUNREACH", EW_CASE},
	{"EADDRINUSE", EW_CASE},
	{"EADDRNOTAVAIL", EW_CASE},
	{"ENOMEM", EW_CASE},
	{"ENOSPC", EW_CASE},
	{"EPIPE", EW_CASE},
};

#define NWORDS (sizeof(words) / sizeof(words[0]))

/* Forms that carry an error word and say that nothing failed. whole: the form vouches for
 * the whole line (a warning category, a retry announced), else only for the words it spans.
 * A "%d" matches a number. */
static const struct {
	const char *form;
	int whole;
} benign[] = {
	{"0 errors", 0},     /* "0 errors, 2 warnings" (compilers, checkers) */
	{"no error", 0},     /* "no error" (hcclctl, HCCL's own "no error" result text) */
	{"no errors", 0},    /* "No errors found" */
	{"without error", 0}, /* "finished without error" */
	{"errors: 0", 0},    /* "errors: 0" counters */
	{"error: 0", 0},     /* "error: 0" counters */
	{"errors=0", 0},     /* "errors=0" counters */
	{"error=0", 0},	     /* "ret error=0" */
	{"0 failed", 0},     /* pytest's "10 passed, 0 failed" */
	{"0 failures", 0},   /* "0 failures" */
	{"failures: 0", 0},  /* "failures: 0" */
	{"#wrong", 0},	     /* nccl-tests' column header "busbw #wrong" */
	{"busbw error", 0},  /* older nccl-tests' column header "busbw  error" */
	{"level error", 0},  /* "--log-level error" in a printed command line */
	{"level=error", 0},  /* "log_level=error", "--log-level=error" */
	{"level='error'", 0}, /* "log_level='error'" in an argument dump */
	{"timeout=%d", 0},    /* "timeout=1800" in an argument dump */
	{"timeout: %d", 0},   /* "timeout: 120" in a printed configuration */
	{"'timeout': %d", 0}, /* "{'timeout': 600}" in a dict dump */
	{"timeout is %d", 0}, /* "connect timeout is 120 s" (a setting reported) */
	{"non-fatal", 0},    /* "non-fatal" */
	{"retrying", 1},     /* "Connection refused, retrying": a retry announced is not the failure */
	{"will retry", 1},   /* "connect failed, will retry in 1s" */
	{"FutureWarning", 1}, /* Python's category for a coming change: "FutureWarning: ... is deprecated" */
	{"DeprecationWarning", 1}, /* "DeprecationWarning: ... will raise an error in a future release" */
	{"UserWarning", 1},  /* "UserWarning: ... may fail" advice from a library */
	{"is deprecated", 1}, /* "... is deprecated and will be removed; use ... instead" */
};

#define NBENIGN (sizeof(benign) / sizeof(benign[0]))

static int word_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_';
}

static char lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

static int blank(char c)
{
	return c == ' ' || c == '\t';
}

/* The length of form matched at s[0..n), 0 when it does not match. Case-insensitive unless
 * exact; ' ' matches a run of blanks, "%d" a run of digits; a form ending in a word character
 * must end at a word end. */
static size_t match_at(const char *s, size_t n, const char *form, int exact)
{
	size_t i = 0;
	const char *f = form;
	for (; *f; f++) {
		int digits = f[0] == '%' && f[1] == 'd';
		if (*f == ' ' || digits) {
			size_t b = i;
			while (i < n && (digits ? s[i] >= '0' && s[i] <= '9' : blank(s[i])))
				i++;
			if (i == b)
				return 0;
			f += digits;
			continue;
		}
		if (i >= n || (exact ? s[i] != *f : lower(s[i]) != lower(*f)))
			return 0;
		i++;
	}
	if (word_char(f[-1]) && i < n && word_char(s[i]))
		return 0;
	return i;
}

/* Rows by the lower case of their first byte, so that a word is checked against few rows. */
static unsigned char by_first[128][24];
static unsigned char n_first[128];
static pthread_once_t index_once = PTHREAD_ONCE_INIT;

static void build_index(void)
{
	for (size_t r = 0; r < NWORDS; r++) {
		unsigned char c = (unsigned char)lower(words[r].form[0]) & 127;
		if (n_first[c] < sizeof(by_first[c]))
			by_first[c][n_first[c]++] = (unsigned char)r;
	}
}

size_t hlog__error_rows(void)
{
	return NWORDS;
}

size_t hlog__benign_rows(void)
{
	return NBENIGN;
}

/* A Python exception class at the end of a dotted name: "RuntimeError", "torch.distributed.
 * DistBackendError", "ncclSystemError", "cudaErrorLaunchFailure". */
static int class_word(const char *s, size_t n)
{
	static const char *const tails[] = {"Error", "Exception", "Failure"};
	for (size_t t = 0; t < sizeof(tails) / sizeof(tails[0]); t++) {
		size_t k = 0;
		while (tails[t][k])
			k++;
		if (n > k && !memcmp(s + n - k, tails[t], k) && s[n - k - 1] != '_')
			return 1;
	}
	return 0;
}

/* The benign row that covers [at, at+len) of m, or -1. */
int hlog__benign_at(struct pspan m, size_t at, size_t len)
{
	for (size_t r = 0; r < NBENIGN; r++)
		for (size_t i = 0; i < m.n; i++) {
			if (i && word_char(m.s[i - 1]) && word_char(benign[r].form[0]))
				continue;
			size_t k = match_at(m.s + i, m.n - i, benign[r].form, 0);
			if (k && (benign[r].whole || (i <= at && at + len <= i + k)))
				return (int)r;
		}
	return -1;
}

int hlog__error_word(struct pspan m, int *len, int *row)
{
	pthread_once(&index_once, build_index);
	size_t n = m.n < 4096 ? m.n : 4096;
	const char *s = m.s;
	for (size_t i = 0; i < n;) {
		if (!word_char(s[i])) {
			i++;
			continue;
		}
		size_t end = i;
		while (end < n && word_char(s[end]))
			end++;
		unsigned char c = (unsigned char)lower(s[i]) & 127;
		size_t k = 0;
		int r = -1;
		for (unsigned j = 0; j < n_first[c] && !k; j++) {
			r = by_first[c][j];
			k = match_at(s + i, n - i, words[r].form, words[r].flags & EW_CASE);
		}
		if (!k && class_word(s + i, end - i)) {
			k = end - i;
			r = (int)NWORDS; /* the class-name row */
		}
		if (k && hlog__benign_at(m, i, k) < 0) {
			*len = (int)k;
			if (row)
				*row = r;
			return (int)i;
		}
		i = end;
	}
	*len = 0;
	return -1;
}
