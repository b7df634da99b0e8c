/* The rank-table model: parse, validate, generate, emit and compare HCCL rank tables.
 * Formats and HCCL's own checks are those of the HCCL user guide's rank-table pages and of
 * HCCL's parser. This layer never prints or exits; every function returns 0 or a negative
 * errno-style code and fills err. */
#ifndef HCCLCTL_RANKTABLE_H
#define HCCLCTL_RANKTABLE_H

#include <limits.h>
#include <stddef.h>
#include <sys/types.h>

#define RT_ERRLEN 512

enum rt_format {
	RT_FMT_UNKNOWN = 0, /* not JSON we recognise */
	RT_FMT_V1_0,        /* "version": "1.0" */
	RT_FMT_V1_2,        /* "version": "1.2", super pods */
	RT_FMT_V2_0,        /* "version": "2.0", rank_list/level_list */
	RT_FMT_LEGACY,      /* no version, group_list ("template 2") */
	RT_FMT_TOPO,        /* a 2.0 topology file, not a rank table */
	/* Tables other programs read, not HCCL; checked in their own terms. */
	RT_FMT_VLLM_PD,     /* vllm-ascend's disaggregated-prefill table: prefill_device_list,
			     * decode_device_list (DISAGGREGATED_PREFILL_RANK_TABLE_PATH) */
	RT_FMT_GLOBAL,      /* MindCluster ClusterD's global rank table: server_group_list */
	RT_FMT_GE_CLUSTER,  /* GE's cluster_config.json: {"RankTable": {1.x}, "HcclCommConfig"} */
};

/* "1.0", "1.2", "2.0", "legacy", "topology", "vllm-ascend-pd", "mindcluster-global",
 * "ge-cluster-config", "unknown" */
const char *rt_format_name(enum rt_format f);

/* A note is worth knowing but wrong in nothing: it changes no verdict or exit code. */
enum rt_severity { RT_SEV_ERROR = 0, RT_SEV_WARNING = 1, RT_SEV_NOTE = 2 };

/* "error", "warning", "note" */
const char *rt_severity_name(enum rt_severity s);

/* One finding. All strings are owned by the diag list. line/col are 1-based; 0 = unknown. */
struct rt_diag {
	enum rt_severity sev;
	const char *code; /* stable rule code, a static string, e.g. "rank-id-duplicate" */
	char *msg;        /* what is wrong, naming rank/server/device; quotes HCCL's EIxxxx */
	char *path;       /* JSON path, e.g. "$.server_list[1].device[0].rank_id" */
	char *hint;       /* the fix, or NULL */
	unsigned line, col;
};

struct rt_diags {
	struct rt_diag *v;
	size_t n, cap;
	size_t nerrors, nwarnings, nnotes;
};

/* Rule flags. RT_RULE_CONNECT: the finding is about hcclctl's own use of the table, not
 * HCCL's: in `validate` it has the rule's severity, and where hcclctl connects to the servers
 * it names (run --ssh, doctor, probe net) it is an error (rt_diags_connect).
 * RT_RULE_ONE_SERVER: an error only when the table has more than one server; in a table of
 * one server the finding is a warning (nothing crosses between servers). */
#define RT_RULE_CONNECT 0x1u
#define RT_RULE_ONE_SERVER 0x2u

/* A validation rule: its stable code, default severity, HCCL's own error code where HCCL
 * has one ("EI0014"; NULL otherwise), a one-line summary for `ranktable rules` and the
 * man page, and RT_RULE_* flags. rt_rules is terminated by an entry with code NULL. */
struct rt_rule {
	const char *code;
	enum rt_severity sev;
	const char *hccl;
	const char *summary;
	unsigned flags;
};
extern const struct rt_rule rt_rules[];

/* The rule with that code, or NULL. */
const struct rt_rule *rt_rule_find(const char *code);

/* For a caller about to connect to the servers of the table: makes every RT_RULE_CONNECT
 * finding an error (counts updated). Returns how many it raised. */
size_t rt_diags_connect(struct rt_diags *d);

/* Appends a finding; copies every string. Returns 0 or -ENOMEM. */
int rt_diags_add(struct rt_diags *d, enum rt_severity sev, const char *code, unsigned line,
		 unsigned col, const char *path, const char *hint, const char *fmt, ...)
	__attribute__((format(printf, 8, 9)));
/* Orders findings by line, then column, so reports read top to bottom. */
void rt_diags_sort(struct rt_diags *d);
void rt_diags_release(struct rt_diags *d);

/* One rank, normalised across formats (what show and diff need). Strings point into the
 * table's own storage; NULL when the file does not say. Numbers are -1 when absent or bad. */
struct rt_rank {
	long rank_id;
	const char *server_id;    /* 2.0: net_instance_id of level 0 */
	const char *host_ip;
	long device_id;
	const char *device_ip;    /* 2.0: addr of the first rank_addr_list entry of level 0 */
	const char *super_pod_id; /* 1.2: from super_pod_list */
	long super_device_id;
	long device_port;
	unsigned line, col;       /* where this rank's object starts */
};

struct rt_server {
	const char *server_id;
	const char *host_ip;
	size_t first_rank, nranks; /* index range into rt_table.ranks, in file order */
};

/* A parsed table. Everything it points to is owned by it; rt_table_release frees it all.
 * For RT_FMT_VLLM_PD the ranks are the devices of both lists (rank_id -1) grouped by
 * server; for RT_FMT_GLOBAL they are the devices of every group, in file order. */
struct rt_table {
	enum rt_format format;
	char name[256];      /* file name used in findings ("-" for stdin) */
	char version[16];    /* as written; "" when absent */
	char status[32];
	struct rt_rank *ranks; /* in file order */
	size_t nranks;
	struct rt_server *servers;
	size_t nservers;
	void *priv;          /* the tree (its strings) and position index */
};

/* Parses and validates buf (len bytes, need not be NUL-terminated) named name.
 * Every problem is appended to diags (a JSON syntax error is one located finding).
 * Returns 0 when the text is JSON (even with findings), -EINVAL when it is not JSON,
 * -ENOMEM on allocation failure. The caller releases t with rt_table_release. */
int rt_table_load(struct rt_table *t, const char *name, const char *buf, size_t len,
		  struct rt_diags *diags, char *err, size_t errlen);
void rt_table_release(struct rt_table *t);

/* Whether buf[0..len) is JSON whose top-level "status" is "initializing" (1) or not (0), as
 * a writer that fills the table in later leaves it; -1 when it is not JSON (or memory runs
 * out), *end then at the first byte that is not. Its tree is in blocks of its own, returned
 * whole: a big table's tree in small pieces stayed in the heap under the one its loading
 * builds next. */
int rt_json_status(const char *buf, size_t len, const char **end);

/* Reads a whole file (or stdin for "-") with a size cap. Caller frees *buf.
 * Returns 0, -ENOENT/-EACCES/-EISDIR/-EFBIG/-EIO with err filled. */
int rt_read_file(const char *path, size_t cap, char **buf, size_t *len, char *err,
		 size_t errlen);

/* Where s stops being a safe host name or IP to connect to and to name in messages
 * (letters, digits, '.', '-', '_', ':', not starting with '-'): the index of the first
 * other byte, or -1 when all of s is safe (an empty s is safe here; emptiness is its own
 * rule). What `run --ssh` and the server-id-unsafe rule accept. */
long rt_host_unsafe_at(const char *s);

/* 64-bit FNV-1a digest of the normalised table (ranks in rank order), as 16 hex chars,
 * so two copies that differ only in whitespace or key order have the same digest. */
void rt_table_digest(const struct rt_table *t, char out[17]);

/* ---- /etc/hccn.conf ---- */

/* address_N= values by physical device id. */
struct rt_hccn {
	char **addr;   /* addr[id] or NULL; owned */
	unsigned *line; /* line[id]: the line of address_id in the file (0 when not set); owned */
	size_t naddr;  /* ids 0..naddr-1 */
};

/* Parses hccn.conf text. Malformed lines are findings (name is used as the file name);
 * returns 0, or -EINVAL when nothing usable was found, -ENOMEM. */
int rt_hccn_parse(struct rt_hccn *h, const char *name, const char *buf, size_t len,
		  struct rt_diags *diags, char *err, size_t errlen);
void rt_hccn_release(struct rt_hccn *h);

/* ---- hostfile (for gen --hostfile) ----
 * One server per line: "SERVER [host_ip=IP] [slots=N]", '#' comments and blank lines
 * ignored; Open MPI ("node3 slots=8") and MPICH ("10.0.0.1:8") lines are accepted too. */
struct rt_host {
	char *server_id;
	char *host_ip;	/* NULL when not given */
	unsigned slots; /* Open MPI's slots=N or MPICH's HOST:N; 0 when not given */
	unsigned line;	/* where it was listed (1-based) */
};
struct rt_hostfile {
	struct rt_host *v;
	size_t n;
};
/* A comma-separated host list in Slurm's notation ("gpu[01-04,07],login1", as
 * SLURM_JOB_NODELIST holds it) as one name per line in *out (malloc'ed, NUL-terminated),
 * for rt_hostfile_parse. 0, -EINVAL with err naming the offset, or -ENOMEM. */
#define RT_HOSTLIST_MAX 65536
#define RT_HOSTLIST_MAX_S "65536"
int rt_hostlist_expand(const char *s, size_t n, char **out, size_t *outlen, char *err,
		       size_t errlen);
/* Text from input made safe to show on a terminal: s[0..n) into out (at most outlen bytes,
 * always terminated, cut at a character), each C0 control byte but newline and tab, DEL,
 * each C1 control (U+0080..U+009F) and each byte that is not UTF-8 written as "\xNN", so an
 * ESC in a server name cannot clear the screen or paint a verdict. Returns strlen(out). */
size_t rt_text_escape(char *out, size_t outlen, const char *s, size_t n);
/* s with each byte that is no part of valid UTF-8 written as "\xNN", as rt_text_escape
 * writes it (JSON must be UTF-8: a log line or a path may hold bytes of another encoding, a
 * Windows path in GBK); malloc'd. NULL when s is valid UTF-8 already, or when out of memory. */
char *rt_utf8_repair(const char *s);
/* The other way: names[idx[0..n)] folded into out (at most len bytes, cut short when it
 * does not fit): "gpu[01-04,07]" when they share a stem before their numeric suffixes,
 * those sorted by value and kept as written (leading zeros, any length); else the names
 * joined by commas, the first eight and " and N more". */
void rt_hostlist_fold(const char *const *names, const int *idx, size_t n, char *out, size_t len);

/* Malformed lines and duplicate servers are located findings in diags.
 * Returns 0, -EINVAL when a finding is an error or no server is listed, -ENOMEM. */
int rt_hostfile_parse(struct rt_hostfile *hf, const char *name, const char *buf, size_t len,
		      struct rt_diags *diags, char *err, size_t errlen);
/* The same for a list given on the command line, one server per line of buf: its findings
 * count entries ("already listed as entry 1"), not lines. */
int rt_hostfile_parse_list(struct rt_hostfile *hf, const char *name, const char *buf, size_t len,
			   struct rt_diags *diags, char *err, size_t errlen);
void rt_hostfile_release(struct rt_hostfile *hf);

/* ---- generation ---- */

struct rt_gen_server {
	const char *server_id;      /* IP or name, as the operator gave it */
	const char *host_ip;        /* optional */
	const char *super_pod_id;   /* 1.2 only; servers of a pod are consecutive. Each
				     * device's super_device_id is its index within the pod */
	const struct rt_hccn *hccn; /* device IPs for this server, or NULL */
	const char *hccn_path;      /* where hccn came from, for messages; NULL: /etc/hccn.conf */
};

struct rt_gen_spec {
	enum rt_format format;            /* RT_FMT_V1_0 or RT_FMT_V1_2 */
	const struct rt_gen_server *servers;
	size_t nservers;
	const long *devices;              /* physical device ids, ascending, e.g. 0..7 */
	size_t ndevices;
};

/* Builds the table text in hccl_tools.py's layout (key order, string values,
 * host_nic_ip "reserve", 4-space indent) followed by one newline. Caller frees *out.
 * Refuses (-EINVAL, err names server and device, and the hccn.conf line where one is to
 * blame) when any device has no IP, an IP or a server repeats, IPv4 and IPv6 device IPs are
 * mixed, a device id is beyond 1.x's 0..15, or host_ip is given for only some servers,
 * rather than writing a table that validate would reject. */
int rt_gen(const struct rt_gen_spec *spec, char **out, size_t *outlen, char *err,
	   size_t errlen);

/* Parses "0-7", "0,2,4-6", "0-15" into ascending unique ids (max 64 ids, each 0..63).
 * Caller frees *ids. */
int rt_parse_devices(const char *s, long **ids, size_t *n, char *err, size_t errlen);

/* Writes data to path atomically: a temp file in the same directory, fsync, rename.
 * Never leaves a half-written file at path, never opens a name another user could have
 * planted (atomic.c). rt_write_atomic gives the file mode 0644, _mode the mode given. */
int rt_write_atomic(const char *path, const char *data, size_t len, char *err, size_t errlen);
int rt_write_atomic_mode(const char *path, const char *data, size_t len, mode_t mode,
			 char *err, size_t errlen);

/* The same for a file written in pieces: rt_atomic_open makes the temporary (fd, mode 0600),
 * the caller writes to fd (or rt_atomic_write), then rt_atomic_commit (fsync, chmod, rename)
 * or rt_atomic_abort (removes it). Each returns 0 or a negative errno with err; a failed
 * commit has removed the temporary. */
struct rt_atomic {
	int fd;
	char path[PATH_MAX];
	char dir[PATH_MAX];
	char tmp[PATH_MAX];
};
int rt_atomic_open(struct rt_atomic *a, const char *path, char *err, size_t errlen);
int rt_atomic_write(struct rt_atomic *a, const void *data, size_t len, char *err, size_t errlen);
int rt_atomic_commit(struct rt_atomic *a, mode_t mode, char *err, size_t errlen);
void rt_atomic_abort(struct rt_atomic *a);

/* ---- diff ---- */

enum rt_change_kind { RT_CH_ADDED, RT_CH_REMOVED, RT_CH_MOVED, RT_CH_IP, RT_CH_FIELD };

struct rt_change {
	enum rt_change_kind kind;
	long rank_id;
	char *what; /* human sentence: "rank 3 moved from node_0/1 to node_1/0" */
	char *field, *old_val, *new_val; /* may be NULL */
};

struct rt_changes {
	struct rt_change *v;
	size_t n, cap;
};

/* Semantic comparison keyed by rank_id: added, removed, moved (server or device),
 * device_ip changed, other fields (host_ip, super pod, super_device_id, version). */
int rt_diff(const struct rt_table *a, const struct rt_table *b, struct rt_changes *out,
	    char *err, size_t errlen);
void rt_changes_release(struct rt_changes *c);

#endif
