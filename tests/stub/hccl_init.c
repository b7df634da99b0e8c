/* libhccl stand-in: communicator init from a rank table (HcclCommInitClusterInfo) or from
 * root info (HcclGetRootInfo, HcclCommInitRootInfo), destroy, and the queries. */
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <unistd.h>

#include "ranktable/ranktable.h"
#include "tests/stub/hccl_internal.h"
#include "tests/stub/stub_log.h"

#define TABLE_MAX (64u << 20)
#define PATH_MAX_HCCL 4096 /* hccl.h: clusterInfo is a path of at most 4096 bytes */
#define DEFAULT_BASE_PORT 60000 /* HCCL_IF_BASE_PORT's default in HCCL */

/* Listeners HcclGetRootInfo opened in this process, found again by nonce. */
struct pending {
	unsigned char nonce[STUB_NONCE];
	int fd;
	char ip[STUB_IPLEN];
	int port;
	struct pending *next;
};
static pthread_mutex_t pend_lock = PTHREAD_MUTEX_INITIALIZER;
static struct pending *pend;

static HcclResult fail(HcclResult rc, const char *fn, const char *why)
{
	stub_log("%s = %d: %s", fn, rc, why);
	return rc;
}

static int port_env(int def)
{
	const char *v = getenv("HCCL_IF_BASE_PORT");
	char *end;
	long p;

	if (!v || !*v)
		return def;
	p = strtol(v, &end, 10);
	return *end || p <= 0 || p > 65535 ? -1 : (int)p;
}

/* An IPv4 address for a rank-table host (an address, or a name to resolve). */
static int ipv4(const char *host, char out[STUB_IPLEN])
{
	struct in_addr a;
	struct addrinfo hints = { .ai_family = AF_INET, .ai_socktype = SOCK_STREAM }, *res;

	if (!host || !*host)
		return -1;
	if (inet_pton(AF_INET, host, &a) == 1) {
		snprintf(out, STUB_IPLEN, "%s", host);
		return 0;
	}
	if (getaddrinfo(host, NULL, &hints, &res))
		return -1;
	inet_ntop(AF_INET, &((struct sockaddr_in *)res->ai_addr)->sin_addr, out, STUB_IPLEN);
	freeaddrinfo(res);
	return 0;
}

/* The part of init both ways share: fault knobs, the device, the rendezvous. */
static HcclResult join(const char *fn, uint32_t rank, uint32_t nranks, int want_device,
		       int hub_fd, const char *hub_ip, int hub_port, const char *my_ip,
		       const unsigned char *nonce, HcclComm *out)
{
	struct stub_comm *c;
	char why[STUB_WHYLEN] = "";
	int32_t dev;
	HcclResult rc;

	if ((rc = stubhccl_comm_new(rank, nranks, &c)))
		return fail(rc, fn, "out of memory");
	if ((rc = stubhccl_fault_read(&c->fault, why, sizeof(why))))
		goto bad;
	if (c->fault.init_fail_rank == (long)rank) {
		rc = (HcclResult)c->fault.init_code;
		snprintf(why, sizeof(why), "HCCL_STUB_INIT_FAIL_RANK=%u", rank);
		goto bad;
	}
	if (aclrtGetDevice(&dev) != ACL_SUCCESS) {
		rc = HCCL_E_RUNTIME;
		snprintf(why, sizeof(why), "rank %u: no device set (aclrtSetDevice)", rank);
		goto bad;
	}
	/* HCCL compares the table's device_id with the physical id of the thread's device:
	 * in a container that sees NPUs 4-7 as 0-3, logical 0 is the table's 4 */
	if (want_device >= 0 && aclStubPhyDevId(dev) != want_device) {
		rc = HCCL_E_PARA;
		snprintf(why, sizeof(why), "rank %u: the rank table gives device %d, the thread "
			 "set device %d (physical %d)", rank, want_device, (int)dev,
			 (int)aclStubPhyDevId(dev));
		goto bad;
	}
	c->device = dev;
	if ((rc = stubhccl_bootstrap(c, hub_fd, hub_ip, hub_port, my_ip, nonce, why, sizeof(why))))
		goto bad;
	stubhccl_comm_publish(c);
	*out = c;
	stub_log("%s(rank %u of %u, device %d) = 0 (%p)", fn, rank, nranks, (int)dev, (void *)c);
	return HCCL_SUCCESS;
bad:
	stubhccl_comm_put(c);
	return fail(rc, fn, why);
}

HcclResult HcclGetRootInfo(HcclRootInfo *rootInfo)
{
	const char *ip = getenv("HCCL_IF_IP");
	struct pending *p;
	char why[STUB_WHYLEN];
	HcclResult rc;
	int port = port_env(0);

	if (!rootInfo)
		return fail(HCCL_E_PTR, "HcclGetRootInfo", "rootInfo is NULL");
	if (!ip || !*ip)
		ip = "127.0.0.1";
	if (port < 0)
		return fail(HCCL_E_PARA, "HcclGetRootInfo", "HCCL_IF_BASE_PORT is not a port");
	if (!(p = calloc(1, sizeof(*p))))
		return fail(HCCL_E_MEMORY, "HcclGetRootInfo", "out of memory");
	if (getrandom(p->nonce, STUB_NONCE, 0) != STUB_NONCE) {
		free(p);
		return fail(HCCL_E_SYSCALL, "HcclGetRootInfo", "getrandom failed");
	}
	if ((rc = stubhccl_listen(ip, port, &p->fd, &p->port, why, sizeof(why)))) {
		free(p);
		return fail(rc, "HcclGetRootInfo", why);
	}
	snprintf(p->ip, sizeof(p->ip), "%s", ip);
	stubhccl_root_format(rootInfo, p->ip, p->port, p->nonce);
	pthread_mutex_lock(&pend_lock);
	p->next = pend;
	pend = p;
	pthread_mutex_unlock(&pend_lock);
	stub_log("HcclGetRootInfo() = 0 (%s)", rootInfo->internal);
	return HCCL_SUCCESS;
}

/* The local address this machine reaches ip:port from (for a rank's own listener). */
static void local_ip_towards(const char *ip, int port, char out[STUB_IPLEN])
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
	socklen_t len = sizeof(sa);
	int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	snprintf(out, STUB_IPLEN, "%s", ip);
	if (s < 0)
		return;
	if (inet_pton(AF_INET, ip, &sa.sin_addr) == 1 &&
	    connect(s, (struct sockaddr *)&sa, sizeof(sa)) == 0 &&
	    getsockname(s, (struct sockaddr *)&sa, &len) == 0)
		inet_ntop(AF_INET, &sa.sin_addr, out, STUB_IPLEN);
	close(s);
}

HcclResult HcclCommInitRootInfo(uint32_t nRanks, const HcclRootInfo *rootInfo, uint32_t rank,
				HcclComm *comm)
{
	const char *fn = "HcclCommInitRootInfo", *ifip = getenv("HCCL_IF_IP");
	char ip[STUB_IPLEN], my_ip[STUB_IPLEN], why[STUB_WHYLEN];
	unsigned char nonce[STUB_NONCE];
	struct pending *mine = NULL;
	HcclResult rc;
	int port;

	if (!rootInfo || !comm)
		return fail(HCCL_E_PTR, fn, rootInfo ? "comm is NULL" : "rootInfo is NULL");
	if (nRanks == 0 || rank >= nRanks)
		return fail(HCCL_E_PARA, fn, "rank is not below nRanks");
	if ((rc = stubhccl_root_parse(rootInfo, ip, &port, nonce, why, sizeof(why))))
		return fail(rc, fn, why);
	pthread_mutex_lock(&pend_lock);
	for (struct pending **p = &pend; *p; p = &(*p)->next) {
		if (!memcmp((*p)->nonce, nonce, STUB_NONCE)) {
			mine = *p;
			*p = mine->next;
			break;
		}
	}
	pthread_mutex_unlock(&pend_lock);
	if (ifip && *ifip)
		snprintf(my_ip, sizeof(my_ip), "%s", ifip);
	else
		local_ip_towards(ip, port, my_ip);
	rc = join(fn, rank, nRanks, -1, mine ? mine->fd : -1, ip, port, my_ip, nonce, comm);
	if (mine) {
		close(mine->fd);
		free(mine);
	}
	return rc;
}

/* The rank table's nonce: its digest, so ranks holding different copies refuse each other. */
static void table_nonce(const struct rt_table *t, unsigned char nonce[STUB_NONCE])
{
	char d[17];

	rt_table_digest(t, d);
	memset(nonce, 0, STUB_NONCE);
	memcpy(nonce, d, 16);
}

HcclResult HcclCommInitClusterInfo(const char *clusterInfo, uint32_t rank, HcclComm *comm)
{
	const char *fn = "HcclCommInitClusterInfo";
	struct rt_table t;
	struct rt_diags d = { 0 };
	const struct rt_rank *me = NULL, *root = NULL;
	char *buf = NULL, err[RT_ERRLEN], why[2 * RT_ERRLEN + 4200], hub_ip[STUB_IPLEN], my_ip[STUB_IPLEN];
	unsigned char nonce[STUB_NONCE];
	uint32_t nranks = 0;
	size_t len;
	HcclResult rc;
	int port = port_env(DEFAULT_BASE_PORT), hub_fd = -1, bound;

	if (!clusterInfo || !comm)
		return fail(HCCL_E_PTR, fn, clusterInfo ? "comm is NULL" : "clusterInfo is NULL");
	if (strnlen(clusterInfo, PATH_MAX_HCCL + 1) > PATH_MAX_HCCL || !*clusterInfo)
		return fail(HCCL_E_PARA, fn, "clusterInfo is empty or longer than 4096 bytes");
	if (port < 0)
		return fail(HCCL_E_PARA, fn, "HCCL_IF_BASE_PORT is not a port");
	if (rt_read_file(clusterInfo, TABLE_MAX, &buf, &len, err, sizeof(err)))
		return fail(HCCL_E_OPEN_FILE_FAILURE, fn, err);
	memset(&t, 0, sizeof(t));
	if (rt_table_load(&t, clusterInfo, buf, len, &d, err, sizeof(err)) || d.nerrors) {
		snprintf(why, sizeof(why), "rank table '%s' is not valid: %s", clusterInfo,
			 d.nerrors ? d.v[0].msg : err);
		for (size_t i = 0; i < d.n; i++) {
			if (d.v[i].sev == RT_SEV_ERROR) {
				snprintf(why, sizeof(why), "%s:%u:%u: %s", clusterInfo, d.v[i].line,
					 d.v[i].col, d.v[i].msg);
				break;
			}
		}
		rc = HCCL_E_PARA;
		goto out;
	}
	for (size_t i = 0; i < t.nranks; i++) {
		if (t.ranks[i].rank_id < 0)
			continue;
		nranks++;
		if (t.ranks[i].rank_id == (long)rank)
			me = &t.ranks[i];
		if (t.ranks[i].rank_id == 0)
			root = &t.ranks[i];
	}
	rc = HCCL_E_PARA;
	if (!me || !root) {
		snprintf(why, sizeof(why), "rank %u is not in rank table '%s' (%u ranks)", rank,
			 clusterInfo, nranks);
		goto out;
	}
	if (ipv4(root->host_ip ? root->host_ip : root->server_id, hub_ip) ||
	    ipv4(me->host_ip ? me->host_ip : me->server_id, my_ip)) {
		snprintf(why, sizeof(why), "rank table '%s': rank 0's or rank %u's server is not an "
			 "IPv4 address or a name that resolves", clusterInfo, rank);
		goto out;
	}
	table_nonce(&t, nonce);
	if (rank == 0 && (rc = stubhccl_listen(hub_ip, port, &hub_fd, &bound, why, sizeof(why))))
		goto out;
	rc = join(fn, rank, nranks, (int)me->device_id, hub_fd, hub_ip, port, my_ip, nonce, comm);
	if (hub_fd >= 0)
		close(hub_fd);
	why[0] = 0;
out:
	rt_table_release(&t);
	rt_diags_release(&d);
	free(buf);
	return rc && why[0] ? fail(rc, fn, why) : rc;
}

HcclResult HcclCommDestroy(HcclComm comm)
{
	HcclResult rc = stubhccl_comm_unpublish(comm);

	stub_log("HcclCommDestroy(%p) = %d", comm, rc);
	return rc;
}

enum query { Q_SIZE, Q_RANK, Q_ASYNC };

/* The three getters: one field of a live communicator, HCCL_E_PTR for a bad handle or out. */
static HcclResult query(HcclComm comm, enum query q, void *out)
{
	struct stub_comm *c;

	if (!out || stubhccl_comm_get(comm, &c))
		return HCCL_E_PTR;
	pthread_mutex_lock(&c->lock);
	if (q == Q_ASYNC)
		*(HcclResult *)out = c->async_error;
	else
		*(uint32_t *)out = q == Q_SIZE ? c->nranks : c->rank;
	pthread_mutex_unlock(&c->lock);
	stubhccl_comm_put(c);
	return HCCL_SUCCESS;
}

HcclResult HcclGetRankSize(HcclComm comm, uint32_t *rankSize)
{
	return query(comm, Q_SIZE, rankSize);
}

HcclResult HcclGetRankId(HcclComm comm, uint32_t *rank)
{
	return query(comm, Q_RANK, rank);
}

HcclResult HcclGetCommAsyncError(HcclComm comm, HcclResult *asyncError)
{
	return query(comm, Q_ASYNC, asyncError);
}

/* The wording of hccl_types.h's comment on each code. */
static const char *const names[HCCL_E_RESERVED] = {
	"success", "parameter error", "empty pointer", "memory error", "internal error",
	"not support feature", "not found specific resource", "resource unavailable",
	"call system interface error", "timeout", "open file fail", "tcp connect fail",
	"roce connect fail", "tcp transfer fail", "roce transfer fail", "call runtime api fail",
	"call driver api fail", "call profiling api fail", "call cce api fail",
	"call network api fail", "try again", "error cqe", "error communicator suspending",
};

const char *HcclGetErrorString(HcclResult code)
{
	return (unsigned)code < HCCL_E_RESERVED ? names[code] : "unknown error";
}
