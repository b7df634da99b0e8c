/* Which names and addresses are this node. */
#ifndef HCCLCTL_NODESELF_H
#define HCCLCTL_NODESELF_H

#include <stddef.h>

struct ifaddrs;
struct rt_table;

/* An interface's address as text (IPv4 or IPv6), or NULL for another family. */
const char *node_ifa_addr(const struct ifaddrs *i, char *buf, size_t len);
/* The host name, or an address of one of this node's interfaces. */
int node_is_me(const char *name);
/* node_is_me, or any loopback form (127/8, ::1, "localhost"). */
int node_is_local(const char *host);
/* The server of t that is this node, the one answer of every command that looks for itself
 * in a rank table: with server_id (--server-id, or what the launcher knows) the server of that
 * id; else the first whose server_id or host_ip is this node's host name or one of its
 * addresses. A loopback name (127/8, ::1, "localhost") is this node only in a table of one
 * server: in a table of several every node would claim it. Its index, or -1 when none. */
long node_table_server(const struct rt_table *t, const char *server_id);

#endif
