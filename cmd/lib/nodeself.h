/* Which names and addresses are this node. */
#ifndef HCCLCTL_NODESELF_H
#define HCCLCTL_NODESELF_H

#include <stddef.h>

struct ifaddrs;

/* An interface's address as text (IPv4 or IPv6), or NULL for another family. */
const char *node_ifa_addr(const struct ifaddrs *i, char *buf, size_t len);
/* The host name, or an address of one of this node's interfaces. */
int node_is_me(const char *name);
/* node_is_me, or any loopback form (127/8, ::1, "localhost"). */
int node_is_local(const char *host);

#endif
