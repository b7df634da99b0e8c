/* One line of a failed job's output as users have it (internal to probes/): CANN plogs, the
 * screen output of torchrun / vLLM / MindIE / Open MPI jobs, Python tracebacks, the kernel
 * log. The prefixes those tools put in front of a message are taken off and what they say is
 * kept: the level, the time, the pid, the rank and the device. Whether the line reads as an
 * error, and whether it continues the line before it (CANN's indented "TraceBack" lines, a
 * Python traceback), is decided here, so that the triage can tell errors it explains from
 * errors it does not. */
#ifndef HCCLCTL_PROBES_LOGLINE_H
#define HCCLCTL_PROBES_LOGLINE_H

#include <stdint.h>

#include "probes/tool/ptext.h"

enum hline_level { HLINE_NONE, HLINE_DEBUG, HLINE_INFO, HLINE_WARN, HLINE_ERROR };

struct hlog_line {
	struct pspan msg; /* the line without the prefixes, trimmed */
	int64_t t_us;	  /* CANN stamp or "YYYY-MM-DD hh:mm:ss" at the start, as µs; -1 */
	int pid;	  /* HCCL(pid,...), [PID: n], (PID:n, ...), else (... pid=n); -1 */
	int wrap_pid;	  /* the pid of a launcher's "(Worker pid=n)" prefix; -1 */
	int rank;	  /* [rankN]:, [1,N]<stderr>:, RankID:N, srun -l's "N: " (not -1); -1 */
	int rank_label;	  /* rank is srun -l's label, before every line a task relays: a rank
			   * the words name outranks it, and it starts no message of its own */
	int dev;	  /* Device:N of torch_npu's prefix; -1 */
	int level;	  /* enum hline_level, from the prefix; HLINE_NONE when none */
	int kernel;	  /* a kernel log line (dmesg, journal, syslog "kernel:") */
	int yearless;	  /* a time of its own that t_us does not read (glog's and torch's
			   * "[W904 09:50:12.024 ...]", no year) */
	int cont;	  /* continues the line before: indented, CANN's TraceBack / Solution */
	int error;	  /* reads as an error */
	int header;	  /* an error's heading ("Traceback (most recent call last):"): an
			   * error, but the line that says what failed comes after it */
	int quiet_tb;	  /* a traceback's heading its writer logged below error ("INFO ...:
			   * Traceback (most recent call last):"): no error, nor a header */
	int frame;	  /* a Python traceback's frame: "File \"x.py\", line 9, in f" */
	int code_at;	  /* offset in msg of the first error code token (EI0006, EJ0001,
			   * EE9999, ERR02200 ...), -1 when none */
	int code_len;
	int nccl_warn;	  /* offset in msg of NCCL's WARN level word after its prefix, -1 */
	int nccl_info;	  /* NCCL's INFO level word after its prefix: what it set up */
	int nccl_trace;	  /* NCCL's return trace at INFO, "group.cc:70 -> 3": the ncclResult_t
			   * a call returned (1 to 7), else 0 */
	int info_errno;	  /* a call's errno after a word that calls the line informational
			   * ("NCCL INFO Call to ... failed ... errno 19"): a probe's answer */
	struct pspan host; /* the host of NCCL's prefix (in msg); empty when none */
};

/* Reads raw (one line without its newline) into *l; l->msg points into raw. */
void hlog__line_parse(struct pspan raw, struct hlog_line *l);
/* The same with what hlog__line_hits found in the trimmed raw (catalog.h): the error words
 * and logline.c's own literals are searched for only when the line may hold them. */
struct hlog_hits;
void hlog__line_parse_hits(struct pspan raw, struct hlog_line *l, const struct hlog_hits *h);

/* The first error code token in m: "EI0006", "EJ0001", "EZ9999", "E39999", "ERR02200"
 * (upper case, not inside a longer word). Its offset, or -1; *len its length. */
int hlog__code_token(struct pspan m, int *len);

/* Error words (errwords.c; their benign forms, ewbenign.c): the offset in m of the first
 * word or phrase that says something failed ("failed", "Connection refused", "NCCL WARN",
 * "ECONNREFUSED", "RuntimeError", ...) and that no benign form ("0 errors", "--log-level
 * error", "retrying", a FutureWarning ...) covers; -1 when none. *len its length, *row (may be NULL) the table row that matched
 * (hlog__error_rows() for an exception class name). Only the first 4 KiB of m is read. */
int hlog__error_word(struct pspan m, int *len, int *row);
/* Whether s[0..n) is the name of an exception's or a failure's class by its tail
 * ("RuntimeError", "ArrowInvalid", "FilteringFailed"): head, as the name heading a line
 * before its ':'; else as a word anywhere. */
int hlog__class_tail(const char *s, size_t n, int head);
/* The i-th word (any case) without which no error word, exception line, HTTP failure or
 * hang can be read in a line: 1 with it in *w, 0 past the last. */
int hlog__error_gate_word(size_t i, struct pspan *w);
/* Whether m has a word that is an error at any level, even after a word that calls the line
 * informational: a process that hangs ("some processes are hanging"), a library the loader
 * refused ("version `FABRIC_1.7' not found (required by ...)", "undefined symbol"). */
int hlog__any_level_word(struct pspan m);
/* The benign row that covers m[at..at+len), or -1. */
int hlog__benign_at(struct pspan m, size_t at, size_t len);
/* For tests, each row on its own: the rows' count, a row's form (the exception-class row is
 * hlog__error_rows()), where row matches in m (no benign form covering it) or -1, and whether
 * benign row matches in m. */
size_t hlog__error_rows(void);
size_t hlog__benign_rows(void);
const char *hlog__error_row_name(size_t row);
const char *hlog__benign_row_name(size_t row);
int hlog__error_row_at(struct pspan m, size_t row);
/* Whether benign row row vouches for words of m (its form occurs there and holds). */
int hlog__benign_row_in(struct pspan m, size_t row);
/* Whether m announces a retry that still has tries left ("retrying", "retrying (3/34)"): 0
 * for none, and for the last of a count ("retrying (34/34)"), which is the failure itself. */
int hlog__retry_left(struct pspan m);
/* The same without c10d's try of each address: a retry of what failed, announced. */
int hlog__retry_announced(struct pspan m);

#endif
