/* RDMA devices and ports from sysfs (/sys/class/infiniband, in the formats of the kernel's
 * drivers/infiniband/core/sysfs.c), optionally completed by libibverbs (active MTU),
 * and the verdicts drawn from them. Never prints; returns 0 or a negative errno code. */
#ifndef HCCLCTL_PROBES_RDMA_SYSFS_H
#define HCCLCTL_PROBES_RDMA_SYSFS_H

#include <stddef.h>
#include <stdint.h>

#include "probes/tool/verdict.h"

#define RDMA_NA (~0ULL)
#define RDMA_MAX_IPS 16

/* ---- the small files ---- */

/* "4: ACTIVE" (state) or "5: LinkUp" (phys_state): the number and the name after ": ".
 * Returns 0 or -EINVAL. */
int rdma_parse_state(const char *buf, size_t len, int *num, char *name, size_t nlen);
/* "100 Gb/sec (4X EDR)", "2.5 Gb/sec (1X SDR)": Gb/s, and the width and speed name when
 * printed (empty otherwise). Returns 0 or -EINVAL. */
int rdma_parse_rate(const char *buf, size_t len, double *gbps, int *width, char *speed,
		    size_t slen);
/* "fe80:0000:0000:0000:ba59:9fff:fe1a:e3ea": eight groups of hex digits. 0 or -EINVAL. */
int rdma_parse_gid(const char *buf, size_t len, uint8_t gid[16]);
enum rdma_gid_type { RDMA_GID_UNKNOWN = 0, RDMA_GID_IB_ROCE_V1, RDMA_GID_ROCE_V2 };
/* "IB/RoCE v1" or "RoCE v2". */
enum rdma_gid_type rdma_parse_gid_type(const char *buf, size_t len);
/* A counter: a decimal number. 0 or -EINVAL. */
int rdma_parse_counter(const char *buf, size_t len, unsigned long long *v);
/* The RoCE active MTU for a netdev MTU, as the kernel derives it (iboe_get_mtu): the
 * largest of 256..4096 that fits in mtu minus the RoCE headers; 0 when none fits. */
int rdma_roce_mtu(int netdev_mtu);
/* "::ffff:10.0.0.1" for an IPv4-mapped GID, else the IPv6 text. */
void rdma_gid_text(const uint8_t gid[16], char *buf, size_t len);

/* ---- the tree ---- */

struct rdma_gid {
	int index;
	uint8_t gid[16];
	enum rdma_gid_type type;
	char ndev[32]; /* gid_attrs/ndevs/N; "" when absent */
};

struct rdma_ip {
	char addr[48];
	int v2_index, v1_index; /* GID indexes; -1 when there is none */
	int from_netdev;	/* seen on the netdev (getifaddrs); else only in the GID table */
};

enum rdma_mtu_source { RDMA_MTU_NONE = 0, RDMA_MTU_VERBS, RDMA_MTU_NETDEV };

struct rdma_port {
	int num;
	int state; /* 4 = ACTIVE; -1 unknown */
	char state_name[24];
	int phys; /* 5 = LinkUp; -1 unknown */
	char phys_name[32];
	char link_layer[16]; /* "InfiniBand", "Ethernet", ... */
	double rate;	     /* Gb/s; -1 unknown */
	char rate_text[48];
	int mtu; /* active MTU in bytes; 0 unknown */
	enum rdma_mtu_source mtu_source;
	char netdev[32];
	char operstate[16];
	int netdev_mtu;
	struct rdma_gid *gids; /* the non-zero entries, by index */
	size_t ngids;
	int gids_verbs, gids_differ; /* GIDs read back with ibv_query_gid, and how many differ */
	struct rdma_ip ips[RDMA_MAX_IPS];
	size_t nips;
	unsigned long long link_downed, symbol_error, port_rcv_errors, link_error_recovery,
		port_xmit_discards; /* RDMA_NA when absent */
	enum probe_status status;
	char reason[256];
};

struct rdma_device {
	char name[64];
	char fw_ver[48];
	char node_guid[40];
	struct rdma_port *ports;
	size_t nports;
};

struct rdma_host {
	struct rdma_device *dev;
	size_t n;
	int verbs; /* libibverbs answered for these devices */
};

/* Reads dir/class/infiniband, or dir itself when it holds the devices (a copy of
 * /sys/class/infiniband), or /sys/class/infiniband when dir is NULL. only: one device by
 * name, or NULL. The addresses of each port's netdev come from getifaddrs (only when they
 * exist on this host) and from the IPv4-mapped and global IPv6 GIDs. Returns 0, -ENOENT when
 * there is no RDMA device (or not the one asked for; err lists those found), -ENOMEM, -EIO.
 * Release h with rdma_host_release in every case. */
int rdma_sysfs_read(const char *dir, const char *only, struct rdma_host *h, char *err,
		    size_t errlen);
void rdma_host_release(struct rdma_host *h);

/* With libibverbs (HAVE_IBVERBS), the active MTU of every port of the devices in h that
 * verbs knows by the same name. Returns how many ports it filled; 0 without verbs. */
int rdma_verbs_fill(struct rdma_host *h);

/* Port verdicts: FAIL when not ACTIVE / LinkUp, when the netdev of a RoCE port is not up,
 * or an address has no RoCE v2 GID; WARN when the rate is below the best of the ports of
 * the same link layer, the active MTU differs from the most common one, or link_downed is
 * not 0 (the link flapped). Returns the worst. */
enum probe_status rdma_assess(struct rdma_host *h);

#endif
