/* One set of extractors for every log line (internal to probes/): the addresses, ports, host
 * names, ranks and devices a line names, each with the part it plays (this end or the other,
 * the rank table's value or the NIC's, source or destination), read from the words around
 * it. Every stack writes the same facts its own way ("10.0.0.2:29500", "[::ffff:10.0.0.2]:
 * 29500", "(10.0.0.2, 29500)", "10.0.0.2<29500>", "port:29500", "rank[3]", "RankID:3",
 * "device(3)", "devId: 3", "phy_id 3"), so the signatures say what a line is and this says
 * what it names, once for all of them. Nothing here reads outside the span given. */
#ifndef HCCLCTL_PROBES_LOGS_EXTRACT_H
#define HCCLCTL_PROBES_LOGS_EXTRACT_H

#include <stddef.h>

#include "probes/tool/ptext.h"

#define HX_MAX 24     /* values kept per line; more are counted in dropped */
#define HX_TEXTLEN 64 /* an address or a host name */

/* HX_PCI: a device's PCI address, as "dddd:bb:dd.f" in lower case; HX_RDMA: an RDMA device's
 * name ("mlx5_18", "bnxt_re2", "erdma_0", "rocep152s0f0") */
enum hx_what { HX_IP, HX_PORT, HX_HOST, HX_RANK, HX_DEV, HX_PCI, HX_RDMA };

/* The part a value plays, from the words around it. */
enum hx_role {
	HX_ANY,	   /* the line does not say */
	HX_LOCAL,  /* this end: "local", "src", "listen on", "bind", "This node" */
	HX_REMOTE, /* the other end: "remote", "peer", "dst", "connect to" */
	HX_TABLE,  /* what the rank table says ("... in the ranktable") */
	HX_NIC,	   /* what the network adapter has ("... of the network adapter") */
};

struct hx_val {
	int what;		/* enum hx_what */
	int role;		/* enum hx_role */
	long long n;		/* HX_PORT, HX_RANK, HX_DEV: the number */
	char s[HX_TEXTLEN];	/* HX_IP, HX_HOST, HX_PCI, HX_RDMA: the text */
	size_t at;		/* offset of the value in the line */
};

struct hx_vals {
	struct hx_val v[HX_MAX];
	size_t n;
	size_t dropped;
	char group[48]; /* "rank N of group G", "group:[G]": the group ranks are local to, "" */
	struct pspan later; /* a line hlog__extract_later left to read, {NULL, 0} once read */
};

/* Reads every value of line m into x (emptied first), in the order they appear. */
void hlog__extract(struct pspan m, struct hx_vals *x);
/* The same, done on first use (hlog__xfind, hlog__xgroup): the triage offers the values to
 * every rule but only a line a rule recognises needs them, and reading them was a third of
 * its time. m must outlive x's use; x is filled in place even where it is passed as const
 * (a cache: the values read are what hlog__extract would give). */
void hlog__extract_later(struct pspan m, struct hx_vals *x);
/* x's group (see group above). */
const char *hlog__xgroup(const struct hx_vals *x);

/* The first value of what whose role is one of roles (a bit mask of 1 << enum hx_role), or
 * NULL. */
const struct hx_val *hlog__xfind(const struct hx_vals *x, int what, unsigned roles);

/* The first value of what at the other end, else the first whose end the line does not say:
 * the address or port a failure points at. NULL when neither. */
const struct hx_val *hlog__xfind_peer(const struct hx_vals *x, int what);
/* This end's own port (in 1..65535), where the line's words make it so (bind, listen on,
 * local) and it names the address or host the port belongs to: a bind's "Failed bind on
 * 10.0.0.1:3026"; NULL when none. The port a failure is about when
 * the line names no other end's. */
const struct hx_val *hlog__xfind_own_port(const struct hx_vals *x);

/* What a line says of the other end: its address (the other end's, else one whose end is not
 * said), the port that goes with it, and a rank named as the other end's ("endpoint for rank
 * 9"). A port counts only with its address, or where the line says it is the other end's
 * ("dest_addr=HOST:35892"): after a bare name, "name:N" is as often a file's line
 * ("compiler_depend.ts:444"). Each is NULL when the line does not say it. */
struct hx_peer {
	const struct hx_val *ip, *port, *rank;
};
void hlog__xpeer(const struct hx_vals *x, struct hx_peer *p);

#define HX_R(r) (1u << (r))
#define HX_THIS (HX_R(HX_ANY) | HX_R(HX_LOCAL))
#define HX_OTHER HX_R(HX_REMOTE)

/* "remote", "table", ... for enum hx_role; "ip", "port", ... for enum hx_what. */
const char *hlog__xrole_name(int role);
const char *hlog__xwhat_name(int what);

#endif
