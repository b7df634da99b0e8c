/* Which names and addresses are this node: one answer for every command that looks for "this
 * node" in a rank table or a host list. */
#include <arpa/inet.h>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "cmd/lib/nodeself.h"
#include "ranktable/ranktable.h"

const char *node_ifa_addr(const struct ifaddrs *i, char *buf, size_t len)
{
	if (!i->ifa_addr)
		return NULL;
	if (i->ifa_addr->sa_family == AF_INET)
		return inet_ntop(AF_INET,
				 &((const struct sockaddr_in *)(const void *)i->ifa_addr)->sin_addr,
				 buf, (socklen_t)len);
	if (i->ifa_addr->sa_family == AF_INET6)
		return inet_ntop(
			AF_INET6,
			&((const struct sockaddr_in6 *)(const void *)i->ifa_addr)->sin6_addr, buf,
			(socklen_t)len);
	return NULL;
}

/* One of this host's own addresses (any interface). */
static int is_my_address(const char *host)
{
	struct ifaddrs *ifa = NULL;
	int mine = 0;
	if (getifaddrs(&ifa))
		return 0;
	for (const struct ifaddrs *i = ifa; i && !mine; i = i->ifa_next) {
		char a[INET6_ADDRSTRLEN];
		mine = node_ifa_addr(i, a, sizeof(a)) && !strcmp(a, host);
	}
	freeifaddrs(ifa);
	return mine;
}

/* 127/8, ::1 or "localhost": a name every host has. */
static int is_loopback(const char *host)
{
	struct in_addr a4;
	struct in6_addr a6;
	if (inet_pton(AF_INET, host, &a4) == 1 && (ntohl(a4.s_addr) >> 24) == 127)
		return 1;
	if (inet_pton(AF_INET6, host, &a6) == 1 && IN6_IS_ADDR_LOOPBACK(&a6))
		return 1;
	return !strcmp(host, "localhost");
}

int node_is_local(const char *host)
{
	char name[256] = "";
	if (!host || !*host)
		return 0;
	if (is_loopback(host))
		return 1;
	if (!gethostname(name, sizeof(name) - 1) && !strcmp(name, host))
		return 1;
	return is_my_address(host);
}

/* Whether id, a server's server_id or host_ip, names this node in a table of n servers. */
static int names_me(const char *id, size_t n)
{
	if (!id || !*id)
		return 0;
	if (is_loopback(id))
		return n == 1;
	return node_is_me(id);
}

long node_table_server(const struct rt_table *t, const char *server_id)
{
	for (size_t i = 0; t && i < t->nservers; i++) {
		const struct rt_server *sv = &t->servers[i];
		if (server_id ? sv->server_id && !strcmp(sv->server_id, server_id)
			      : names_me(sv->server_id, t->nservers) ||
					names_me(sv->host_ip, t->nservers))
			return (long)i;
	}
	return -1;
}

int node_is_me(const char *name)
{
	char hn[256];
	if (!name || !*name)
		return 0;
	if (gethostname(hn, sizeof(hn)) == 0 && !strcmp(hn, name))
		return 1;
	return is_my_address(name);
}
