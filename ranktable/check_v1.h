/* What the checks of versions 1.0 and 1.2 (check_v1.c: one pass over server_list and the
 * model; check_v1_dup.c: the checks across ranks; check_v1_pod.c: super_pod_list) share;
 * check_v1_name.c holds the shared helpers. */
#ifndef HCCLCTL_RANKTABLE_CHECK_V1_H
#define HCCLCTL_RANKTABLE_CHECK_V1_H

#include "ranktable/check.h"

/* What the checks need to point back at, per rank (parallel to t->ranks). A finding's
 * member of the device is looked up again in obj (rt__v1_dev_member): a pointer to each was 48
 * bytes a rank, 3 MB of 65 536 ranks, for findings that are rare. */
struct dev {
	const struct rt__jnode *obj;
	char *iplist; /* a copy with ',' replaced by NUL when device_ip lists several */
	uint32_t srv; /* index into t->servers and struct srv */
	uint32_t di;  /* index in its server's device array */
	int nips, fam;
};

struct srv {
	const struct rt__jnode *obj, *id;
	size_t si; /* index in server_list */
	long pod;  /* index into super_pod_list, -1 when none */
	const char *pod_id;
};

struct v1 {
	struct rt__ctx *c;
	const struct rt__v1_part *p;
	int v12;
	struct dev *dev;
	struct srv *srv;
	size_t nsrv;
	char sname[128];	/* srv_name of the server being read, for each of its devices */
	char spath[RT_PATHLEN]; /* and its path */
};

/* "server "node_0"" or "server_list[1]" */
const char *rt__v1_srv_name(const struct v1 *v, size_t s, char *buf, size_t len);
/* Device i's member key, which the pass over server_list read. */
const struct rt__jnode *rt__v1_dev_member(const struct v1 *v, size_t i, const char *key);
/* Its device_ip when a string, its host_port and super_device_id when valid numbers. */
const struct rt__jnode *rt__v1_dev_ip(const struct v1 *v, size_t i);
const struct rt__jnode *rt__v1_dev_hport(const struct v1 *v, size_t i);
const struct rt__jnode *rt__v1_dev_sdid(const struct v1 *v, size_t i);
/* "server "node_0" device 1": the device by its device_id, or by index when that is bad;
 * s names its server (rt__v1_srv_name). */
const char *rt__v1_dev_where_in(const struct v1 *v, size_t i, const char *s, char *buf, size_t len);
/* "rank "3" (server "node_0" device 1)", w being the device's rt__v1_dev_where_in words */
const char *rt__v1_dev_who_at(const struct v1 *v, size_t i, const char *w, char *buf, size_t len);
/* "server "node_0" device 1" */
const char *rt__v1_dev_where(const struct v1 *v, size_t i, char *buf, size_t len);
/* "rank "3" (server "node_0" device 1)" */
const char *rt__v1_dev_who(const struct v1 *v, size_t i, char *buf, size_t len);
/* The JSON path of device i, or of its member key when key is not NULL. */
const char *rt__v1_dev_path(const struct v1 *v, size_t i, const char *key, char *buf);
/* A decimal field's value, -1 when absent or unusable. */
long rt__v1_dec_value(const struct rt__jnode *m, unsigned long max);
void rt__v1_missing(struct rt__ctx *c, const struct rt__jnode *obj, const char *path,
		    const char *key, const char *who, const char *hint);

/* The hint for a wrong device_ip: where the NIC address is read on the server. */
extern const char *const rt__v1_nic_hint;

/* Checks across ranks: duplicates and gaps of rank ids, device ids and addresses, and the
 * servers' device counts. */
void rt__v1_dup_server(struct rt__ctx *c, const struct rt__item *run, size_t k, void *arg);
int rt__v1_check_ranks(struct v1 *v, const struct rt__jnode *list);
int rt__v1_check_devices(struct v1 *v);
void rt__v1_check_servers(struct v1 *v);

/* super_pod_list of version 1.2. */
int rt__v1_check_pods(struct v1 *v, const struct rt__jnode *pods);
/* True when all servers are in one super pod. */
int rt__v1_one_pod(const struct rt__jnode *pods);

#endif
