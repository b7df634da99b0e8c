/* The NPU network of a job, device IP to device IP (`probe roce --mesh`, doctor's
 * link.npu-mesh): the devices of a rank table, what each ping between two of them gave, the
 * LLDP neighbour of each NIC, and the verdicts on all of it. The node side's answer (one
 * JSON document per server and round) is written and read here, so the two ends cannot
 * drift. Nothing here prints, runs a tool or touches a socket. */
#ifndef HCCLCTL_PROBES_NPUMESH_H
#define HCCLCTL_PROBES_NPUMESH_H

#include <stddef.h>

#include "probes/nic/hccn.h"
#include "probes/tool/verdict.h"

#define NM_SCHEMA "hcclctl-npu-pings/1"

struct nm_server {
	char id[128];	/* server_id */
	char host[128]; /* where its side runs: host_ip, else server_id */
	int local;	/* this host: its side runs here, without SSH */
	int down;	/* its side could not run; why says why */
	int unreachable; /* ... because its node was never reached (no SSH session) */
	char why[256];
};

/* One NPU NIC of the job: a rank of the table. */
struct nm_endpoint {
	size_t server; /* index into servers */
	long device;   /* device_id, which is also its rail */
	long rank;
	long sdid;   /* super_device_id, -1 */
	char ip[48]; /* device_ip; "" when the table has none */
	int lldp;    /* 0 not read, 1 read, -1 could not be read (lldp_err) */
	char lldp_err[128];
	char sw[96];   /* the switch (hccn_lldp_switch), "" unknown */
	char port[64]; /* its port, "" unknown */
	enum probe_status status;
};

enum nm_link_state { NM_UNTRIED = 0, NM_MEASURED, NM_ERROR };
#define NM_F_DOWN 1u /* no reply at all */
#define NM_F_LOSS 2u /* some packets lost */
#define NM_F_SLOW 4u /* round trip far above the links of its class */

/* The directed link a -> b: a's NIC pinged b's address. */
struct nm_link {
	enum nm_link_state state;
	long sent, received;
	double loss_pct;
	double rtt_ms; /* median round trip of the replies, -1 none */
	int round;
	unsigned flags;
	char reason[160]; /* NM_ERROR: why hccn_tool could not ping */
};

/* Links by what lies between the two NICs: one server, one rail (the same device id on two
 * servers, one switch in a rail-optimised fabric), or two rails. */
enum nm_class { NM_SAME_SERVER = 0, NM_RAIL, NM_CROSS_RAIL, NM_NCLASS };

/* Every verdict, once: its code, status, what it means and the fix. Adding a case is
 * adding a row (npumesh.c). */
enum nm_code {
	NM_NONE_REACH,
	NM_RAIL_DOWN,
	NM_ISOLATED,
	NM_NO_SEND,
	NM_UNREACHED,
	NM_PAIR_DOWN,
	NM_PAIR_DOWN_BOTH,
	NM_SAME_PORT,
	NM_DEVICE_LOSS,
	NM_LOSS,
	NM_DEVICE_RTT,
	NM_RTT,
	NM_RAIL_SPLIT,
	NM_NOT_RUN,
	NM_UNREACHABLE,
	NM_PING_ERROR,
	NM_NO_IP,
	NM_NCODES
};
struct nm_kind {
	const char *code;
	enum probe_status status;
	const char *summary;
	const char *fix;
};
const struct nm_kind *npumesh_kind(enum nm_code c);

struct nm_finding {
	enum nm_code code;
	long a, b;   /* endpoints (b: the peer of a pair), -1 when none */
	long rail;   /* rail findings, -1 */
	long server; /* server findings, -1 */
	enum probe_status status; /* its kind's, but NM_UNREACHABLE's: unreachable_status */
	char msg[480];
};

struct npumesh {
	struct nm_server *srv; /* owned */
	size_t nsrv;
	struct nm_endpoint *ep; /* owned */
	size_t n;
	struct nm_link *l; /* n * n, l[a * n + b] is a -> b; owned */
	long *rails;	   /* the distinct device ids, ascending; owned */
	size_t nrails;
	struct nm_finding *f; /* owned */
	size_t nf, fcap;
	double median_rtt[NM_NCLASS]; /* of the links that replied; -1 none */
	size_t tried, replied, down, lost, slow, unknown;
	enum probe_status status;
	/* The status of a server never reached (NM_UNREACHABLE): not this layer's to choose but
	 * the caller's, whose commands all judge that situation alike (hcclctl's situation
	 * table). npumesh_init sets UNKNOWN. */
	enum probe_status unreachable_status;
};

/* Allocates nservers servers and n endpoints, zeroed (sdid -1), and the link matrix; 0 or
 * -ENOMEM. The caller fills srv and ep, then calls npumesh_index. Release with
 * npumesh_release in every case. */
int npumesh_init(struct npumesh *m, size_t nservers, size_t n);
void npumesh_release(struct npumesh *m);
/* Collects the rails; 0 or -ENOMEM. */
int npumesh_index(struct npumesh *m);
static inline struct nm_link *npumesh_link(const struct npumesh *m, size_t a, size_t b)
{
	return &m->l[a * m->n + b];
}
enum nm_class npumesh_class(const struct npumesh *m, size_t a, size_t b);
/* "server 10.0.0.2 device 3 (192.168.1.4)" */
void npumesh_name(const struct npumesh *m, size_t i, char *buf, size_t len);

/* A finding's fix: its kind's, with the device ("-i N") and the peer's address ("address
 * IP") of the finding filled in. */
void npumesh_fix(const struct npumesh *m, const struct nm_finding *f, char *buf, size_t len);

/* The node side's answer, built here and printed by the caller (who owns the document). */
void *npumesh_reply_new(const char *server_id);
/* A ping from device to target: p is the parsed run, or NULL with error saying why none. */
void npumesh_reply_ping(void *doc, long device, const char *target, const struct hccn_ping *p,
			const char *error);
/* The LLDP neighbour of device: l, or NULL with error. */
void npumesh_reply_lldp(void *doc, long device, const struct hccn_lldp *l, const char *error);

/* Reads server's answer for a round (len bytes, need not be NUL-terminated) into the links
 * and endpoints. 0, or -EINVAL with err when it is not such an answer (nothing is taken
 * then), -ENOMEM. */
int npumesh_reply_parse(struct npumesh *m, size_t server, int round, const char *buf, size_t len,
			char *err, size_t errlen);

/* The verdicts: the flags of every link, the class medians, the findings and every
 * endpoint's and the whole mesh's status. Call once, after the last answer. */
int npumesh_judge(struct npumesh *m);

#endif
