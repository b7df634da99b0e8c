/* HCCL logs (CANN plogs, device logs, the screen output of a job, the kernel log) from every
 * node of a failed job. Three pieces: logline.c takes the prefixes off each line and says
 * whether it reads as an error; hlogmatch.c recognises the failure signatures and error codes
 * (the codes' meanings come from the catalog, hcclcodes.c) as events with their place (file,
 * line, node, time, pid, ranks, group, device, IPs); hlogcause.c reasons across ranks and nodes
 * to one most likely cause, its evidence and the other findings. logsrc.c reads the input: a
 * directory, one file, or standard input, gzip too. Nothing here prints or exits; functions
 * return 0 or a negative errno code and fill err. */
#ifndef HCCLCTL_PROBES_HCCLLOG_H
#define HCCLCTL_PROBES_HCCLLOG_H

#include <stddef.h>
#include <stdint.h>

struct kb;

#define HLOG_MAX_EVENTS 100000 /* ~1 KiB each; more recognised lines count in dropped */
#define HLOG_MAX_FILES 100000  /* more files are counted in skipped */
#define HLOG_MAX_DEPTH 16      /* directory levels below DIR */
#define HLOG_MAX_LINE 65536    /* only the first 64 KiB of a longer line is read */
/* Of a larger file only the last 64 MiB is read. Issue 33 asked whether, at 200 MB/s, files
 * should be judged whole (up to a bound on memory): the triage now judges some 30 MB/s of
 * CPU on one core of this machine (bench/logs.sh: 200 MB whole in 6.7 s user, was 39.8), so
 * a 1 GB file whole takes 33 s of CPU (54 s on the loaded machine) and holds 1 GB; the
 * window stays until the per-line rules are fast enough. A bundle's files are judged on
 * every core, so a collected bundle of many files goes faster than one file. */
#define HLOG_MAX_FILE_BYTES (64u << 20)
#define HLOG_MAX_TOTAL_BYTES (1024u << 20) /* files after the first 1 GiB are skipped */
#define HLOG_MAX_READ_BYTES (1024u << 20)  /* of a stream (stdin), at most 1 GiB is read */
#define HLOG_MAX_INFLATE (1024u << 20)	   /* a gzip file inflating past 1 GiB is a bomb */
#define HLOG_BOMB_RATIO 250		   /* and so is one past 16 MiB at 250:1; logs
					    * deflate to about 10:1 */
#define HLOG_MAX_UNK 16			   /* unexplained error lines kept (all are counted) */
#define HLOG_MAX_EVIDENCE 4
#define HLOG_MAX_FINDINGS 8
#define HLOG_PATHLEN 256
#define HLOG_NODELEN 64
#define HLOG_IPLEN 64
#define HLOG_TEXTLEN 384
#define HLOG_NAMELEN 48
#define HLOG_SEEN_RANKS 8192

enum hlog_kind {
	HLOG_NONE,
	/* waits that time out: consequences, they point at a peer */
	HLOG_SOCKET_TIMEOUT, /* EI0006, wait socket establish timeout, LINK_ERROR_INFO, EI0009 */
	HLOG_NOTIFY_TIMEOUT, /* EI0002, Task run failed */
	HLOG_ROOT_TIMEOUT,   /* topo exchange server/agent timeouts, EI0015 */
	HLOG_FFTS_TIMEOUT,   /* device side: "hccl fftsplus task timeout ... stuck notify num" */
	/* faults that name a culprit */
	HLOG_HEARTBEAT_LOST,  /* Cluster Exception Location ... Heartbeat Lost Occurred */
	HLOG_HEARTBEAT_STUCK, /* ... Stuck Occurred */
	HLOG_HEARTBEAT,	      /* ... another ExceptionType */
	HLOG_ERROR_CQE,	      /* EI0013, ROCE CQE ERROR, error cqe status */
	HLOG_LINK_DOWN,	      /* EJ0002, ra hdc message process failed ret(-67), link down */
	HLOG_MISMATCH,	      /* EI0005, CMD information ... check fail */
	HLOG_DETECT_NONE,     /* HCCL's connect detector found no network fault */
	/* configuration causes */
	HLOG_PORT_BOUND, /* EI0019, EJ0003, listen on ip[...] and specific port[...] fail */
	HLOG_TLS,	 /* EI0016, tlsStatus are inconsistent */
	HLOG_NPU_BUSY,	 /* EJ0001, tsd client wait response fail */
	HLOG_DEVICE_IP,	 /* ra_rdev_init_check_ip ... [check][ip]fail */
	HLOG_VERSION,	 /* "this package does not support ...", driver and CANN that differ */
	/* what the catalog knows: an inner error's sub-message, or a code without a signature */
	HLOG_INNER, /* cat and detail from the inner-error table */
	HLOG_CODE,  /* cat from the code catalog */
	/* context, never a cause by itself */
	HLOG_TLS_SWITCH, /* device log "TLS SWITCH (n)": value n */
	HLOG_ENTRY,	 /* "Entry-Hccl..." lines: when a rank reached an op */
	HLOG_API,	 /* a call that failed: "HCCL function error: F, error code is N",
			  * "ERR02200 DIST call hccl api failed", "errNo[...] F failed" */
	/* PyTorch's collective watchdog (ProcessGroupHCCL of torch_npu, ProcessGroupNCCL): a
	 * wait that timed out, in a collective of a known sequence number (work) */
	HLOG_WATCHDOG,
	/* a fault entity of the knowledge base (kb.h), when no rule above explains the job */
	HLOG_KB,
	/* context: a line where a process says who it is (its rank, device, device IP, server),
	 * read to place the waits of a bundle on workers and devices */
	HLOG_PLACE,
	HLOG_WORDS, /* no rule knows the line; its words say the family (wordfam.c) */
	HLOG_ROSTER, /* no line is an error; the ranks' roll call shows the failure (hlogroster.c) */
	HLOG_NKINDS
};

/* What a SOCKET_TIMEOUT or ROOT_TIMEOUT line is (event sub). */
enum hlog_sub {
	HLOG_SUB_NONE,
	HLOG_SUB_LINK_ROW,  /* a LINK_ERROR_INFO row: value is its TlsStatus */
	HLOG_SUB_TRANSPORT, /* Transport init error! createLink para: (host IPs) */
	HLOG_SUB_DETECT,    /* CONNECT TIMEOUT DETECT RESULT: srcRank ... dstRank ... */
	HLOG_SUB_ROOT_SERVER,
	HLOG_SUB_ROOT_AGENT,
	HLOG_SUB_UNCONNECTED, /* EI0015 / fault_info lists of ranks that never connected */
	HLOG_SUB_STUCK,	      /* EI0006 "Remote Rank did not send the data in time" */
	HLOG_SUB_CONNECTED,   /* the root's list of the ranks that connected */
	HLOG_SUB_STORE,	      /* torch's store: a rank waited for the root's communicator */
	/* HLOG_WATCHDOG lines */
	HLOG_SUB_WD_STATE, /* "... at work: N, last enqueued ... work: E, last completed ... C" */
	HLOG_SUB_WD_HANG,  /* the watchdog itself made no progress for a while (heartbeat) */
	HLOG_SUB_WD_NOTE,  /* what the watchdog says after a timeout: context only */
	/* waits to a device (chain.c) */
	HLOG_SUB_P2P,	    /* "connected p2p timeout ... local logicDevid:0, remote physic id:1" */
	HLOG_SUB_TASK_WAIT, /* an AI CPU task exception of type NOTIFY WAIT: localRank waits for
			     * remoteRank of the group its opData line names */
	HLOG_SUB_OPDATA,    /* HLOG_PLACE: the opData line after a task exception (its group) */
	HLOG_SUB_NOT_ADDR,  /* HLOG_DEVICE_IP: a rank table's "..._ip" whose value is no address
			     * (op: the field, ip: the value) */
};

/* What a torch watchdog line says of its collective; every field -1 when not said. */
struct hlog_work {
	long long seq;	      /* SeqNum of the work that timed out (or "at work: N") */
	long long enq, done;  /* last enqueued and last completed work of its process group */
	long long numel;      /* NumelIn */
	long long timeout_ms; /* Timeout(ms) */
	long long ran_ms;     /* "ran for N milliseconds", or the watchdog's stuck seconds x 1000 */
	int pg_rank;	      /* "[Rank N]" / "[PG x Rank N]": the rank within its process group */
	char pg[16];	      /* the process group's id ("PG 1", "PG ID 0"), "" when not said */
};

/* One recognised line. */
struct hlog_event {
	char file[HLOG_PATHLEN]; /* path relative to the input (or the name given to scan_buf) */
	unsigned line;		 /* 1-based */
	unsigned head;		 /* the line that began its block (an error and the indented
				  * lines under it: CANN's TraceBack, a Python traceback) */
	char node[HLOG_NODELEN]; /* DIR/<node>/...: the first path component, or "" */
	size_t fi;		 /* index of the file in hlog_report.file */
	int64_t t_us; /* the line's time as µs since the epoch (local time read as UTC); a line
		       * without one takes the previous line's (a wrapped message); -1 if none */
	int yearless; /* the line has a time of day without its year, that t_us cannot place */
	int pid;      /* HCCL(pid,...) or [PID: n]; -1 */
	int kind;     /* enum hlog_kind */
	unsigned layer; /* a port down: its link layer from the lines below (HLOG_LAYER_*); 0 */
	int sub;      /* enum hlog_sub */
	int cat;      /* enum hcat (hcclcodes.h): the kind of failure this line alone suggests */
	int rank, peer_rank; /* ranks the line names: its own and the peer's (in group); -1 */
	int dev, peer_dev;   /* device ids (Device:N, chipId, phy_id, devid, IP/ID pairs); -1 */
	long long value;     /* cqe status, TLS switch, TlsStatus (1 ENABLE, 0 DISABLE), port,
			      * stuck notify count; -1 when none */
	long long result;    /* an HcclResult or error code the line reports; -1 */
	char ip[HLOG_IPLEN], peer_ip[HLOG_IPLEN]; /* device or host IPs the line names */
	/* the port its whole line names for the other end (or the one it names), read before
	 * text is cut to its length; -1 */
	int peer_port;
	char code[12];		   /* the error code token of the line ("EI0006"), or "" */
	char group[HLOG_NAMELEN];  /* the HCCL group the ranks are local to, "" for the job */
	int group_size;		   /* its rankSize; -1 */
	int step; /* how far its collective had got: the task's index in it (index[N]); -1 */
	char op[HLOG_NAMELEN];	   /* the collective or API the line is about ("HcclAllreduce") */
	char detail[24];	   /* HLOG_INNER: the inner error's short name */
	char text[HLOG_TEXTLEN];   /* the line, trimmed, control bytes as '?' */
	struct hlog_work work;	   /* HLOG_WATCHDOG */
	/* the address and port of the first error line right under it that no rule explains
	 * (its detail: NCCL's "Last error:" lines); "" and -1 when none */
	char below_ip[HLOG_IPLEN];
	int below_port;
	int below_peer_rank; /* a rank such a line names as the other end; -1 */
	/* the RDMA device the heading of its block names, for an indented line that names none
	 * ("CA 'mlx5_1'" above "Port 1:" above "State: Down"); "" */
	char head_nic[24];
};

/* One file that was read, with what its lines say about the process that wrote it. */
struct hlog_file {
	char name[HLOG_PATHLEN];
	char node[HLOG_NODELEN];
	int64_t first_us, last_us; /* earliest and latest time in it; -1 */
	int pid;		   /* the first pid in it; -1 */
	int rank; /* the rank it logged as (the first one named, else that of a file of the same
		   * node and pid, by hlog_conclude); -1 */
	char ip[HLOG_IPLEN];   /* its device IP (LINK_ERROR_INFO src_ip); "" */
	char host[HLOG_IPLEN]; /* its server id ("Discoverer", localIpAddr); "" */
	int dev;	       /* the device id that goes with host; -1 */
	int self_rank; /* the rank its lines say is their writer's own ("myrank 0"); -1 none, -2
			* when they say two */
	size_t lines, nev, errors; /* lines, recognised lines, lines that read as errors */
	/* the last line that says the whole run succeeded ("Training completed", "status":
	 * "success"), 0 none; and its text, cut */
	unsigned ok_line;
	char ok_text[160];
	/* the link layers of the RDMA ports its port tables show active (ibstat, ibv_devinfo):
	 * HLOG_LAYER_* bits */
	unsigned active_layers;
};

#define HLOG_LAYER_IB 1u
#define HLOG_LAYER_ETH 2u

/* An error line that no rule explains. */
struct hlog_unk {
	char file[HLOG_PATHLEN];
	unsigned line;
	int rank; /* the rank the line's prefix names ("[rank8]:"), -1 */
	char node[HLOG_NODELEN];
	char text[HLOG_TEXTLEN];
	/* the address and port the lines under it name, when it ends in ':' and they carry no
	 * prefix of their own (its message goes on there: Ray's "Version mismatch: The cluster
	 * was started with:" ... "This process on node 10.18.215.196 was started with:"); "", -1.
	 * Recorded in unk[] only: a copy (word_unk) finds them there by file and line. */
	char below_ip[HLOG_IPLEN];
	int below_port;
	/* and the first rank they name, whatever its role (JAX's "The following tasks are
	 * unhealthy (stopped sending heartbeats):" over "/job:jax_worker/replica:0/task:3"); -1 */
	int below_rank;
	/* the device the command or heading above the line names (hlogctx.c: "hccn_tool -i 3
	 * ...", nvidia-smi's "GPU 2: ... (UUID: ...)"); -1 */
	int dev;
};

/* A line quoted as evidence: where, and the line verbatim (trimmed). */
struct hlog_quote {
	char file[HLOG_PATHLEN];
	unsigned line;
	char text[HLOG_TEXTLEN];
};

/* The roll call of the ranks, as the lines that announce them say it (hlogroster.c). */
#define HLOG_ROSTER_RANKS 4096
struct hlog_roster {
	int world; /* the world size the announcements state: 0 none, -1 they differ */
	unsigned char claimed[HLOG_ROSTER_RANKS / 8]; /* the ranks announced */
	int dup_rank;  /* a rank two processes announced; -1 */
	int dup_anon;  /* ... in lines that name no host */
	struct hlog_quote dup[2]; /* the two announcements (dup[0].line 0: not kept) */
	char dup_host[2][HLOG_IPLEN]; /* the hosts they name, when they do */
	char dup_node[HLOG_NODELEN];
	size_t files, ends; /* files with announcements, and those whose last line is one */
	struct hlog_quote last; /* the last line of such a file */
	char last_node[HLOG_NODELEN];
};

/* A finding other than the cause, ranked: what kind, where, one line. */
struct hlog_finding {
	int cat;		 /* enum hcat */
	char node[HLOG_NODELEN];
	char message[256];
	struct hlog_quote at;	 /* its first line */
	size_t count;		 /* how many lines say it */
};

/* What a line states about its node's software ("NCCL version 2.19.3+cuda12.3", the network
 * plugin NCCL loaded): one value per component and host, compared across hosts. */
struct hlog_fact {
	char comp[32];		 /* "NCCL", "NCCL net plugin"; compared in any case */
	char value[48];		 /* "2.19.3+cuda12.3", "loaded", "none" */
	char node[HLOG_NODELEN]; /* the bundle's node the line was read from; "" */
	char host[HLOG_NODELEN]; /* the host its own prefix names, else node */
	int multi;		 /* the host stated two values: not compared */
	char file[HLOG_PATHLEN];
	unsigned line;
	char text[HLOG_TEXTLEN];
};

/* One collective call as NCCL's COLL line states it ("AllReduce: opCount 3 ... count 1024
 * datatype 7 op 0 root 0 comm 0x... [nranks=8]"), to compare the processes' calls. */
struct hlog_call {
	char writer[HLOG_NODELEN]; /* its process: "host:pid" of NCCL's prefix */
	char name[16];		   /* "AllReduce", "Broadcast" */
	unsigned long long opcount, count, comm;
	int dtype, op, root, nranks;
	int dev; /* the GPU of NCCL's prefix ("[2]"); -1 */
	char node[HLOG_NODELEN];
	char file[HLOG_PATHLEN];
	unsigned line;
	char text[160];
};

/* An entity of the knowledge base that lines showed: the first such line, and how many. */
#define HLOG_MAX_KB 64
struct hlog_kbhit {
	int ent;	  /* its index in the knowledge base */
	size_t count;	  /* lines that show it */
	int64_t t_us;	  /* the first line's time; -1 */
	int dev, rank;	  /* the device and rank the first line's prefix names; -1 */
	char node[HLOG_NODELEN];
	struct hlog_quote at;
};
/* One device in a chain of waits: the worker (node) and device, its rank and device IP when
 * known; a device whose log is not in the input is known only by what its waiters say. */
struct hlog_hop {
	char worker[HLOG_NODELEN]; /* "" when not known */
	int dev;		   /* -1 when not known */
	int pid;		   /* the process, when no line names its device; -1 */
	int rank;		   /* job-wide rank; -1 */
	char ip[HLOG_IPLEN];	   /* its device IP (or server IP for a device not known) */
	int has_log;		   /* a file of the input was written by its process */
};
#define HLOG_MAX_HOPS 12

/* Files not read, by reason. */
enum hlog_skip {
	HLOG_SKIP_BINARY,
	HLOG_SKIP_UNREADABLE,
	HLOG_SKIP_SPECIAL, /* symlinks, devices, sockets: not followed */
	HLOG_SKIP_GZIP,	   /* a .gz that does not inflate (truncated, corrupt) */
	HLOG_SKIP_LIMIT,   /* over HLOG_MAX_FILES, HLOG_MAX_TOTAL_BYTES or HLOG_MAX_DEPTH */
	HLOG_SKIP_BOMB,	   /* gzip that inflates past HLOG_MAX_INFLATE or HLOG_BOMB_RATIO */
	HLOG_NSKIP
};

struct hlog_report {
	struct hlog_event *ev; /* sorted by time (untimed last), then file, line, by conclude */
	size_t nev;
	struct hlog_file *file;
	size_t nfile;
	size_t lines;		    /* lines read */
	size_t blank;		    /* of them, lines with nothing but blanks */
	size_t skipped;		    /* files not read (the sum of skip[]) */
	size_t skip[HLOG_NSKIP];    /* by reason */
	size_t dropped;		    /* recognised lines beyond HLOG_MAX_EVENTS */
	size_t truncated;	    /* files read only in part and lines cut at HLOG_MAX_LINE */
	size_t bytes;		    /* bytes read */
	/* set before the first scan, 0 for the defaults: the window kept of each file
	 * (HLOG_MAX_FILE_BYTES) and the most read of a stream (HLOG_MAX_READ_BYTES) */
	size_t window, stream_max;
	/* set before the first scan: the most threads to read and judge on, 0 for a core each
	 * (a bundle's files on each, a large file's two stages on two; 1: the calling thread
	 * alone) */
	int threads;
	size_t errors;		    /* lines that read as errors */
	size_t headings;	    /* of those, a traceback's heading ("Traceback (most ...") */
	struct hlog_unk first_error;	   /* the first line that reads as an error */
	struct hlog_unk unk[HLOG_MAX_UNK]; /* the first error lines no rule explains */
	struct hlog_unk word_unk; /* of those, the first of the best family by its words */
	int word_row;		  /* its row in wordfam.c's table, -1 for none */
	int word_level;		  /* its level (enum hline_level): a warning yields to an error */
	/* the first frame of a traceback whose file lacks its exception's line: an error only
	 * in a report that has no other but traceback headings (see hccllog.c) */
	struct hlog_unk lone_frame;
	int has_lone_frame;
	int lone_frame_waits; /* ... and its innermost frame, where the file ends, is a wait */
	size_t nunk;			   /* how many there were in all */
	struct hlog_roster roster;
	/* ranks that wrote any line ("[rankN]:" prefixes, RankID:N), below HLOG_SEEN_RANKS */
	unsigned char seen_rank[HLOG_SEEN_RANKS / 8];
	/* the most likely cause, filled by hlog_conclude */
	int kind;		 /* enum hlog_kind of the deciding event; HLOG_NONE when none */
	int cat;		 /* enum hcat: HCAT_NONE only when no line reads as an error */
	char detail[32];	 /* a finer name: "port-bound", "timeout-elsewhere", ... */
	char node[HLOG_NODELEN]; /* where it is; "" when not known */
	char reported_on[HLOG_NODELEN]; /* the node whose lines show it (the first evidence) */
	int rank, peer_rank;	 /* the culprit rank and, for a link or a mismatch, the other */
	char group[HLOG_NAMELEN]; /* the group rank and peer_rank are local to; "" */
	int dev;		 /* the culprit device (chip, phy id); -1 */
	int devs[8];		 /* more devices, when several are (NPU busy on 2 and 3) */
	int ndevs;
	char pci[16]; /* a hardware or link fault's device by its PCI address ("0000:91:00.0"); "" */
	char nic[24]; /* the RDMA device the cause's lines name ("mlx5_18"); "" */
	long long port;		 /* the port, for a port clash; -1 */
	char ip[HLOG_IPLEN], peer_ip[HLOG_IPLEN];
	char cause[512]; /* one line: what happened where, and which lines are consequences */
	char fix[512];	 /* what to check and the fix, self-contained */
	const struct hlog_event *first; /* the earliest event of the cause, in ev; NULL */
	struct hlog_quote evidence[HLOG_MAX_EVIDENCE]; /* the lines behind the cause */
	size_t nevidence;
	struct hlog_finding findings[HLOG_MAX_FINDINGS]; /* the other findings, ranked */
	size_t nfindings;
	/* the knowledge base lines are matched against: set before the first scan, or NULL for
	 * the built-in one; the entities found, in the order first seen */
	const struct kb *kb;
	struct hlog_kbhit kbhit[HLOG_MAX_KB];
	size_t nkbhit;
	const char *kb_entity; /* the entity behind the cause when it is one; NULL */
	/* who waited on whom, across workers and devices, when the cause is a wait: chain[0]
	 * waited for chain[1] ... up to the root, chain[nchain - 1]; when the waits end in a
	 * cycle, loop is the index of its first member and the last hop repeats it (the roots
	 * are chain[loop .. nchain - 2]); loop is -1 otherwise */
	struct hlog_hop chain[HLOG_MAX_HOPS];
	size_t nchain;
	int loop;
	struct hlog_fact *fact; /* the software each host states, first seen first */
	size_t nfact, fact_cap;
	int *fact_index; /* (component, host) -> 1 + its fact, open addressing; NULL until one */
	struct hlog_call *call; /* the collective calls the processes state, first seen first */
	size_t ncall, call_cap;
};

/* Empties r. A zeroed report is also a valid empty one. */
void hlog_report_init(struct hlog_report *r);

/* Reads path: a directory (every regular file under it, recursively and in name order, .gz
 * inflated, binary files skipped and counted), one file, or "-" for standard input. Below a
 * directory, DIR/<node>/... names the node by its folder, and symlinks are not followed (path
 * itself may be one: the user named it). Returns
 * 0, or -errno when path cannot be read at all (what cannot be read below it counts in
 * r->skip), or -ENOMEM. */
int hlog_scan_path(const char *path, struct hlog_report *r, char *err, size_t errlen);

/* The same for a directory only (-ENOTDIR otherwise). */
int hlog_scan_dir(const char *dir, struct hlog_report *r, char *err, size_t errlen);

/* Appends the events of one file's contents (buf need not be NUL-terminated) named name, from
 * node node (NULL or "" when not known). A binary file is counted in r->skip. Returns 0,
 * -EINVAL for a NULL argument, or -ENOMEM (the events read until then stay in r). */
int hlog_scan_buf(const char *name, const char *node, const char *buf, size_t len,
		  struct hlog_report *r, char *err, size_t errlen);

/* Sorts the events and decides the most likely cause: the fault that explains the others
 * (a link down, a device fault, a port clash, a package mismatch, a heartbeat, an error CQE,
 * a mismatch ...), else the rank or link the timeouts point at, else the first error no rule
 * explains (HCAT_UNRESOLVED). Fills the evidence and the other findings. Call it after the
 * last scan; r->first points into r->ev until the next scan or release. Returns 0. */
int hlog_conclude(struct hlog_report *r);

/* Frees what r owns and empties it. */
void hlog_report_release(struct hlog_report *r);

/* "socket-timeout", "heartbeat-lost", ...; "none" for HLOG_NONE, "?" out of range. */
const char *hlog_kind_name(int kind);
/* "worker-1 dev 2", "worker-0 pid 903" (a process without a device), "10.0.0.3" (a device
 * known only by its address). */
void hlog_hop_name(const struct hlog_hop *h, char *out, size_t len);
/* "binary", "unreadable", ... for enum hlog_skip. */
const char *hlog_skip_name(int why);

/* okwords.c: the file whose statement that the run succeeded vouches for a report with a
 * cause, when every file with error lines and every line behind the cause is in a file that
 * states it (the run lived through them); NULL otherwise. */
const struct hlog_file *hlog_run_survived(const struct hlog_report *r);
/* The first file that states the run succeeded, whatever else it holds; NULL when none. */
const struct hlog_file *hlog_run_success(const struct hlog_report *r);

#endif
