/* HCCL logs (CANN plogs, device logs and job output) from every node of a job: the failure
 * signatures of shared/reference/ascend.md §8 are picked out line by line as events with their
 * place (file, line, node, time, pid, ranks, IPs), then hlog_conclude names the one root cause
 * (node, rank, IP) with its fix and says which lines were judged its consequences.
 * The plog line prefix is ascend.md §5's "[LEVEL] HCCL(pid,proc):YYYY-MM-DD-hh:mm:ss.mmm.uuu
 * [file.cc:line] message". Nothing here prints or exits; functions return 0 or a negative
 * errno code and fill err. */
#ifndef HCCLCTL_PROBES_HCCLLOG_H
#define HCCLCTL_PROBES_HCCLLOG_H

#include <stddef.h>
#include <stdint.h>

#define HLOG_MAX_EVENTS 100000 /* ~900 bytes each; more recognised lines count in dropped */
#define HLOG_MAX_FILES 100000  /* more files are counted in skipped */
#define HLOG_MAX_DEPTH 16      /* directory levels below DIR */
#define HLOG_MAX_LINE 65536    /* only the first 64 KiB of a longer line is read */
#define HLOG_MAX_FILE_BYTES (64u << 20)	   /* of a larger file only the last 64 MiB is read */
#define HLOG_MAX_TOTAL_BYTES (1024u << 20) /* files after the first 1 GiB are skipped */
#define HLOG_PATHLEN 256
#define HLOG_NODELEN 64
#define HLOG_IPLEN 64
#define HLOG_TEXTLEN 384

enum hlog_kind {
	HLOG_NONE,
	/* waits that time out: consequences, they point at a peer */
	HLOG_SOCKET_TIMEOUT, /* EI0006, wait socket establish timeout, LINK_ERROR_INFO (§8.10) */
	HLOG_NOTIFY_TIMEOUT, /* EI0002, Task run failed (§8.15) */
	HLOG_ROOT_TIMEOUT,   /* topo exchange server/agent timeouts, EI0015 (§8.6, §8.7) */
	/* faults that name a culprit */
	HLOG_HEARTBEAT_LOST,  /* Cluster Exception Location ... Heartbeat Lost Occurred (§8.15) */
	HLOG_HEARTBEAT_STUCK, /* ... Stuck Occurred */
	HLOG_HEARTBEAT,	      /* ... another ExceptionType */
	HLOG_ERROR_CQE,	      /* EI0013, ROCE CQE ERROR, error cqe status (§8.16) */
	HLOG_LINK_DOWN,	      /* ra hdc message process failed ret(-67), link down (§8.17) */
	HLOG_MISMATCH,	      /* EI0005, CMD information ... check fail (§8.14) */
	/* configuration causes */
	HLOG_PORT_BOUND, /* EI0019, listen on ip[...] and specific port[...] fail (§8.9) */
	HLOG_TLS,	 /* EI0016, tlsStatus are inconsistent (§8.11) */
	HLOG_NPU_BUSY,	 /* EJ0001, tsd client wait response fail (§8.13) */
	HLOG_DEVICE_IP,	 /* ra_rdev_init_check_ip ... [check][ip]fail (§8.4) */
	/* context, never a cause by itself */
	HLOG_TLS_SWITCH, /* device log "TLS SWITCH (n)": value n (§8.11) */
	HLOG_ENTRY,	 /* "Entry-Hccl..." lines: when a rank reached an op (§5, §8.6) */
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
};

/* One recognised line. */
struct hlog_event {
	char file[HLOG_PATHLEN]; /* path relative to DIR (or the name given to hlog_scan_buf) */
	unsigned line;		 /* 1-based */
	char node[HLOG_NODELEN]; /* DIR/<node>/...: the first path component, or "" */
	size_t fi;		 /* index of the file in hlog_report.file */
	int64_t t_us; /* the plog time as µs since the epoch (local time read as UTC); a line
		       * without one takes the previous line's (a wrapped message); -1 if none */
	int pid;      /* HCCL(pid,...) or [PID: n]; -1 */
	int kind;     /* enum hlog_kind */
	int sub;      /* enum hlog_sub */
	int rank, peer_rank; /* user ranks the line names: its own and the peer's; -1 */
	int dev, peer_dev;   /* device ids of "IP/ID" pairs (heartbeat, localIpAddr); -1 */
	long long value;     /* cqe status, TLS switch, TlsStatus (1 ENABLE, 0 DISABLE), port;
			      * -1 when none */
	char ip[HLOG_IPLEN], peer_ip[HLOG_IPLEN]; /* device or host IPs the line names */
	char text[HLOG_TEXTLEN];		  /* the line, trimmed, control bytes as '?' */
};

/* One file that was read, with what its lines say about the process that wrote it. */
struct hlog_file {
	char name[HLOG_PATHLEN];
	char node[HLOG_NODELEN];
	int64_t first_us, last_us; /* earliest and latest plog time in it; -1 */
	int pid;		   /* the first pid in it; -1 */
	int rank; /* the rank it logged as (the first one named, else that of a file of the same
		   * node and pid, by hlog_conclude); -1 */
	char ip[HLOG_IPLEN];   /* its device IP (LINK_ERROR_INFO src_ip); "" */
	char host[HLOG_IPLEN]; /* its server id ("Discoverer", localIpAddr); "" */
	int dev;	       /* the device id that goes with host; -1 */
	size_t lines, nev;
};

struct hlog_report {
	struct hlog_event *ev; /* sorted by time (untimed last), then file, line, by conclude */
	size_t nev;
	struct hlog_file *file;
	size_t nfile;
	size_t lines;	  /* lines read */
	size_t skipped;	  /* files not read: binary, unreadable, symlinks, over the caps */
	size_t dropped;	  /* recognised lines beyond HLOG_MAX_EVENTS */
	size_t truncated; /* files read only in part and lines cut at HLOG_MAX_LINE */
	size_t bytes;	  /* bytes read */
	/* the root cause, filled by hlog_conclude */
	int kind;		 /* enum hlog_kind; HLOG_NONE when nothing was found */
	char node[HLOG_NODELEN]; /* where it is; "" when not known */
	int rank, peer_rank;	 /* the culprit rank and, for a link or a mismatch, the other */
	char ip[HLOG_IPLEN], peer_ip[HLOG_IPLEN];
	char cause[512]; /* one line: what happened where, and which lines are consequences */
	char fix[512];	 /* what to check and the fix, from ascend.md §8 */
	const struct hlog_event *first; /* the earliest event of the root cause, in ev; NULL */
};

/* Empties r. A zeroed report is also a valid empty one. */
void hlog_report_init(struct hlog_report *r);

/* Reads every *.log file (plog-<pid>_<time>.log, device logs, job output) under dir,
 * recursively and in name order, and appends their events to r. Symlinks are not followed
 * and files that are not regular are not opened. Returns 0, or -errno when dir cannot be read
 * (unreadable subdirectories and files count in r->skipped), or -ENOMEM. */
int hlog_scan_dir(const char *dir, struct hlog_report *r, char *err, size_t errlen);

/* Appends the events of one file's contents (buf need not be NUL-terminated) named name, from
 * node node (NULL or "" when not known). A binary file is counted in r->skipped. Returns 0,
 * -EINVAL for a NULL argument, or -ENOMEM (the events read until then stay in r). */
int hlog_scan_buf(const char *name, const char *node, const char *buf, size_t len,
		  struct hlog_report *r, char *err, size_t errlen);

/* Sorts the events and decides the root cause: the earliest fault that explains the others
 * (a heartbeat, an error CQE, a link down, a mismatch or a configuration cause), else the rank
 * the timeouts point at. Call it after the last scan; r->first points into r->ev until the
 * next scan or release. Returns 0. */
int hlog_conclude(struct hlog_report *r);

/* Frees what r owns and empties it. */
void hlog_report_release(struct hlog_report *r);

/* "socket-timeout", "heartbeat-lost", ...; "none" for HLOG_NONE, "?" out of range. */
const char *hlog_kind_name(int kind);

#endif
