/* The command-line layer: command and option tables, global flags, output helpers.
 * One table drives dispatch, help, the synopsis and shell completion. */
#ifndef HCCLCTL_CLI_H
#define HCCLCTL_CLI_H

#include <stdarg.h>
#include <stddef.h>

/* Exit codes (README, hcclctl(1)): Nagios-style, plus EX_USAGE. */
enum {
	EXIT_OK = 0,
	EXIT_WARN = 1,
	EXIT_FAIL = 2,
	EXIT_UNKNOWN = 3,
	EXIT_USAGE = 64,
	/* As a shell reports a command that a signal ended: Ctrl-C (128 + SIGINT), and stdout
	 * closed by its reader (128 + SIGPIPE; main then ends by SIGPIPE itself, as seq does). */
	EXIT_INTERRUPT = 130,
	EXIT_PIPE = 141,
};

enum opt_kind {
	OPT_END = 0,
	OPT_FLAG,   /* int *, set to 1 */
	OPT_STRING, /* const char **, last one wins */
	OPT_INT,    /* long *, decimal, with range [min, max] */
	OPT_LIST,   /* struct str_list *, every occurrence appended */
};

/* What the shell should offer for an option's value. */
enum opt_complete { COMPLETE_NONE = 0, COMPLETE_FILE, COMPLETE_DIR, COMPLETE_WORDS };

struct opt {
	const char *lng; /* long name without the dashes */
	char shrt;       /* short letter or 0 */
	enum opt_kind kind;
	void *val;
	const char *arg; /* value name in help, e.g. "FILE" */
	const char *help;
	enum opt_complete complete;
	const char *words; /* COMPLETE_WORDS: space-separated candidates */
	void (*words_fn)(void); /* COMPLETE_WORDS: prints the candidates, one a line (or words) */
	long min, max;     /* OPT_INT range */
};

/* Option table entries, so tables read like git's OPT_* lists. */
#define OPT_BOOL(l, s, v, h) { .lng = (l), .shrt = (s), .kind = OPT_FLAG, .val = (v), .help = (h) }
#define OPT_STR(l, s, v, a, h) \
	{ .lng = (l), .shrt = (s), .kind = OPT_STRING, .val = (v), .arg = (a), .help = (h) }
#define OPT_PATH(l, s, v, a, h, c)                                                         \
	{ .lng = (l), .shrt = (s), .kind = OPT_STRING, .val = (v), .arg = (a), .help = (h), \
	  .complete = (c) }
#define OPT_CHOICE(l, s, v, a, h, w)                                                       \
	{ .lng = (l), .shrt = (s), .kind = OPT_STRING, .val = (v), .arg = (a), .help = (h), \
	  .complete = COMPLETE_WORDS, .words = (w) }
/* A value whose candidates come from a table of the command's (words_fn prints them). */
#define OPT_LIST(l, s, v, a, h, fn)                                                        \
	{ .lng = (l), .shrt = (s), .kind = OPT_STRING, .val = (v), .arg = (a), .help = (h), \
	  .complete = COMPLETE_WORDS, .words_fn = (fn) }
#define OPT_NUM(l, s, v, a, h, lo, hi)                                                  \
	{ .lng = (l), .shrt = (s), .kind = OPT_INT, .val = (v), .arg = (a), .help = (h), \
	  .min = (lo), .max = (hi) }
#define OPT_TERM { .lng = NULL }

struct str_list {
	const char *v[64];
	size_t n;
};

struct cmd {
	const char *name;
	const char *summary;
	/* Leaf commands: called with the positional arguments left after option parsing. */
	int (*run)(int argc, char **argv);
	const struct cmd *subs; /* group commands: NULL-terminated table */
	const struct opt *opts; /* OPT_END-terminated, or NULL */
	const char *args;       /* positional synopsis, e.g. "[FILE|URL|-]" */
	int min_args, max_args; /* max -1: unlimited */
	enum opt_complete args_complete;
	int hidden; /* called by hcclctl itself on other nodes: no help, man page or completion */
};

/* Global flags, valid before or after the command words. */
struct global_opts {
	int json, no_color, quiet, verbose, strict, help;
};
extern struct global_opts g_opts;
extern const struct opt global_opts_table[];

/* cmd/cli/opt.c */
int cli_main(int argc, char **argv, const struct cmd *top);
int cli_parse(const struct cmd *const *path, size_t depth, int argc, char **argv,
	      int *npos, char **pos);
void cli_help(const struct cmd *const *path, size_t depth, void *stream);
void cli_synopsis_all(void *stream);
int cli_completion_words(int argc, char **argv);

/* cmd/cli/version.c: --version (text, or --json; -v adds the compiler and libraries), and
 * the build id it prints: the program's GNU build-id note in hex, "unknown" without one. */
int cli_version(void);
const char *cli_build_id(void);
/* The commit the Makefile stamped into this build, "unknown" outside git. */
const char *cli_commit(void);
/* cmd/cli/opt.c: the command line main was given, each word quoted as a shell needs it, into
 * out (cut at len - 1 bytes); strlen(out). */
size_t cli_command_line(char *out, size_t len);

/* cmd/cli/out.c: the only place that writes diagnostics. */
int use_color(int fd);
const char *color(int fd, const char *code); /* "" when color is off */
/* "hcclctl: WHERE: WHAT" on stderr; with --json also recorded for the JSON document.
 * Returns code so call sites read `return die_code(EXIT_FAIL, ...)`. */
int fail(int code, const char *where, const char *hint, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void warn_msg(const char *where, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void info_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints the JSON error document {"error": {...}, "exit_code": N} when --json is on and a
 * failure was recorded but the command printed no document of its own. */
void out_finish(int code);
/* Prints a cJSON document (takes ownership) as the one JSON document on stdout, behind
 * what it came from: schema (the document's own, else hcclctl-COMMAND/1), hcclctl's
 * version, commit and build id, the command line, the start time, every option's value,
 * and the first error recorded when the document has none. */
void out_json(void *cjson_doc);
int out_json_printed(void);
/* The invocation that envelope describes: set once the command and its options are known. */
void out_json_invocation(int argc, char **argv, const char *command, const struct opt *opts,
			 const char *commit, const char *build_id);
/* The words main was given (set by the first out_json_invocation), for reports that say how
 * they were made. */
void out_json_argv(int *argc, char ***argv);
/* Another process (a forked rank) printed the document on our stdout. */
void out_json_set_printed(void);
/* This process prints no document at all: a rank other than 0 whose stdout a launcher
 * (srun, mpirun, torchrun) merges with rank 0's, which prints the job's one document. */
void out_json_silence(void);
/* The document on one line: srun and mpirun merge their tasks' output line by line, so a
 * document of many lines from each of several tasks would interleave. */
void out_json_oneline(void);
/* A command's own exit-code convention (doctor --exit-codes npd), applied by main after
 * --strict; NULL: hcclctl(1)'s. */
extern int (*cli_exit_map)(int code);

struct rt_diags;
/* Located findings of an input file on stderr, one "FILE:LINE:COL: error: ..." each. */
void print_findings(const struct rt_diags *d, const char *name);
/* Text from input (a server name, a node's message, a rank's error) as a terminal may show
 * it (rt_text_escape): for printf arguments, in one of OUT_SAFE_N rotating buffers of
 * OUT_SAFE_MAX bytes, valid until OUT_SAFE_N more calls. NULL gives "". */
#define OUT_SAFE_N 8
#define OUT_SAFE_MAX 4096
const char *out_safe(const char *s);
/* fwrite of input bytes, escaped the same way. */
void out_write_safe(FILE *f, const char *p, size_t n);

/* cmd/run/run.c */
extern const struct cmd run_commands[];

/* cmd/ranktable.c */
extern const struct cmd ranktable_commands[];

/* cmd/lib/fetch.c: every URL input (https verified, a deadline, a size cap) and rank tables
 * that are still "initializing". The options of every command that reads a URL: */
extern const char *fetch_cacert; /* --cacert; NULL: $HCCLCTL_CACERT, else the system's CAs */
extern long fetch_timeout_s;     /* --url-timeout; 0: $HCCLCTL_URL_TIMEOUT or 30 */
extern long fetch_wait_s;        /* --wait; -1: $HCCLCTL_RANKTABLE_WAIT or 0 */
#define OPT_FETCH_TLS                                                                       \
	OPT_PATH("cacert", 0, &fetch_cacert, "FILE",                                        \
		 "CA certificates that https URLs are verified with (HCCLCTL_CACERT)",      \
		 COMPLETE_FILE),                                                            \
	OPT_NUM("url-timeout", 0, &fetch_timeout_s, "SEC",                                  \
		"deadline of reading a URL (default 30; HCCLCTL_URL_TIMEOUT)", 1, 86400)
#define OPT_FETCH                                                                           \
	OPT_FETCH_TLS,                                                                      \
	OPT_NUM("wait", 0, &fetch_wait_s, "SEC",                                            \
		"while the table's status is \"initializing\", re-read it every second up to " \
		"SEC (default 0; HCCLCTL_RANKTABLE_WAIT)", 0, 86400)
/* Reads FILE, "-" or an http(s) URL into memory (*buf NUL-terminated, the caller's), at most
 * cap bytes. 0, or a negative errno with err; fetch_hint() then may hold a fix. */
int fetch_input(const char *what, size_t cap, char **buf, size_t *len, char *err,
		size_t errlen);
/* The most bytes of a rank table read: HCCLCTL_RANKTABLE_MAX (bytes, or with K, M or G)
 * when it is set and valid, else cap. */
size_t fetch_table_max(size_t cap);
/* Why RT_TABLE_MAX: a table of 65 536 ranks (4096 servers of 16 NPUs, version 1.2, the largest
 * real case) is 14.7 MB as ranktable gen writes it, 6.1 MB without spaces; 64 MiB leaves four
 * times the largest, and bounds what parsing one costs (about 7 times the file, 15 times
 * without spaces: under 1 GB). */
#define RT_TABLE_MAX (64UL * 1024 * 1024)
/* fetch_input for a rank table: cap is fetch_table_max(cap); while its "status" is "initializing" it is re-read every
 * second, up to the --wait limit, with progress on stderr under where. A URL whose body is
 * not JSON is an error (-EBADMSG), located. */
int fetch_table(const char *what, const char *where, size_t cap, char **buf, size_t *len,
		char *err, size_t errlen);
const char *fetch_hint(void); /* the fix for the last failure, or NULL */
int fetch_is_url(const char *s);
long fetch_timeout_ms(void);
long fetch_wait_limit(void);
/* "line L, column C: near '...'" for position at of buf (NULL: the end). */
int fetch_json_where(const char *buf, size_t len, const char *at, char *out, size_t outlen);
/* One kept-alive HTTP connection for a JSON API. fetch_http_init: 0, or -ELIBACC (libcurl
 * cannot be loaded) or -ENOMEM with err. fetch_http_request POSTs body (GET when NULL) and
 * gives the answer in *out (the caller's, also for an HTTP error of a POST, whose body says
 * why); 0 or a negative errno with err. */
struct fetch_http;
int fetch_http_init(struct fetch_http **out, char *err, size_t errlen);
void fetch_http_free(struct fetch_http *h);
int fetch_http_request(struct fetch_http *h, const char *url, const char *body, size_t cap,
		       long timeout_ms, char **out, size_t *len, char *err, size_t errlen);

#endif
