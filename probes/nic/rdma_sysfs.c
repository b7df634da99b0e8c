/* RDMA sysfs reader. Every file is small and read whole; a file that is missing or that the
 * kernel refuses (gid_attrs/types/N of an empty entry returns EINVAL) leaves its field
 * unknown instead of failing the device. */
#include <arpa/inet.h>
#include <dirent.h>
#include <stdarg.h>
#include <errno.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifdef HAVE_IBVERBS
#include <infiniband/verbs.h>
#endif

#include "probes/tool/ptext.h"
#include "probes/nic/rdma_sysfs.h"
#include "ranktable/base/hex.h"
#include "ranktable/base/plural.h"

#define PATHLEN 1024

/* ---- small-file parsers ---- */

int rdma_parse_state(const char *buf, size_t len, int *num, char *name, size_t nlen)
{
	struct pspan t = probe__trim((struct pspan){buf, len});
	const char *c = memchr(t.s, ':', t.n);
	unsigned long long v;
	if (!c || probe__u64(probe__trim((struct pspan){t.s, (size_t)(c - t.s)}), &v) || v > 255)
		return -EINVAL;
	*num = (int)v;
	probe__copy(name, nlen, probe__trim((struct pspan){c + 1, (size_t)(t.s + t.n - c - 1)}));
	return 0;
}

int rdma_parse_rate(const char *buf, size_t len, double *gbps, int *width, char *speed, size_t slen)
{
	struct pspan t = probe__trim((struct pspan){buf, len}), w;
	*width = 0;
	if (slen)
		speed[0] = '\0';
	if (!probe__next_word(&t, &w, NULL))
		return -EINVAL;
	/* "%d%s": an integer and an optional ".5" */
	size_t i = 0;
	double v = 0;
	while (i < w.n && w.s[i] >= '0' && w.s[i] <= '9' && i < 9)
		v = v * 10 + (w.s[i++] - '0');
	if (!i)
		return -EINVAL;
	if (i < w.n && w.s[i] == '.') {
		double scale = 0.1;
		i++;
		size_t d0 = i;
		while (i < w.n && w.s[i] >= '0' && w.s[i] <= '9' && i - d0 < 6) {
			v += (w.s[i++] - '0') * scale;
			scale /= 10;
		}
		if (i == d0)
			return -EINVAL;
	}
	if (i != w.n)
		return -EINVAL;
	struct pspan unit;
	if (!probe__next_word(&t, &unit, NULL) || !probe__eq(unit, "Gb/sec"))
		return -EINVAL;
	*gbps = v;
	/* "(4X EDR)" */
	t = probe__trim(t);
	if (t.n > 2 && t.s[0] == '(' && t.s[t.n - 1] == ')') {
		struct pspan in = {t.s + 1, t.n - 2}, wd, sp;
		if (probe__next_word(&in, &wd, NULL) && wd.n >= 2 && wd.s[wd.n - 1] == 'X') {
			unsigned long long x;
			if (!probe__u64((struct pspan){wd.s, wd.n - 1}, &x) && x <= 64)
				*width = (int)x;
			if (probe__next_word(&in, &sp, NULL))
				probe__copy(speed, slen, sp);
		}
	}
	return 0;
}

int rdma_parse_gid(const char *buf, size_t len, uint8_t gid[16])
{
	struct pspan t = probe__trim((struct pspan){buf, len});
	size_t i = 0;
	for (int g = 0; g < 8; g++) {
		unsigned v = 0;
		size_t d = 0;
		while (i < t.n && d < 4 && hex_val(t.s[i]) >= 0) {
			v = v * 16 + (unsigned)hex_val(t.s[i++]);
			d++;
		}
		if (d == 0)
			return -EINVAL;
		gid[2 * g] = (uint8_t)(v >> 8);
		gid[2 * g + 1] = (uint8_t)v;
		if (g < 7) {
			if (i >= t.n || t.s[i] != ':')
				return -EINVAL;
			i++;
		}
	}
	return i == t.n ? 0 : -EINVAL;
}

enum rdma_gid_type rdma_parse_gid_type(const char *buf, size_t len)
{
	struct pspan t = probe__trim((struct pspan){buf, len});
	if (probe__eq_nocase(t, "RoCE v2"))
		return RDMA_GID_ROCE_V2;
	if (probe__eq_nocase(t, "IB/RoCE v1") || probe__eq_nocase(t, "RoCE v1"))
		return RDMA_GID_IB_ROCE_V1;
	return RDMA_GID_UNKNOWN;
}

int rdma_parse_counter(const char *buf, size_t len, unsigned long long *v)
{
	return probe__u64(probe__trim((struct pspan){buf, len}), v) ? -EINVAL : 0;
}

int rdma_roce_mtu(int netdev_mtu)
{
	/* GRH 40 + BTH 12 + XRC ext 4 + AtomicETH 28 + ICRC 4 (include/rdma/ib_addr.h) */
	if (netdev_mtu < 88 + 256)
		return 0;
	int room = netdev_mtu - 88;
	for (int m = 4096; m >= 256; m /= 2)
		if (room >= m)
			return m;
	return 0;
}

static int gid_is_zero(const uint8_t g[16])
{
	for (int i = 0; i < 16; i++)
		if (g[i])
			return 0;
	return 1;
}

static int gid_is_v4mapped(const uint8_t g[16])
{
	static const uint8_t pre[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
	return !memcmp(g, pre, 12);
}

static int gid_is_linklocal(const uint8_t g[16])
{
	return g[0] == 0xfe && (g[1] & 0xc0) == 0x80;
}

void rdma_gid_text(const uint8_t gid[16], char *buf, size_t len)
{
	char a[INET6_ADDRSTRLEN];
	if (!inet_ntop(AF_INET6, gid, a, sizeof(a)))
		snprintf(a, sizeof(a), "?");
	snprintf(buf, len, "%s", a);
}

/* ---- reading the tree ---- */

/* Builds a path; one too long is cut, and then simply not found. */
__attribute__((format(printf, 3, 4))) static void mkpath(char *buf, size_t len, const char *fmt,
							 ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, len, fmt, ap);
	va_end(ap);
}

/* Reads a small file; returns its length or a negative errno. */
static int read_small(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ssize_t n;
	do
		n = read(fd, buf, len - 1);
	while (n < 0 && errno == EINTR);
	int e = errno;
	close(fd);
	if (n < 0)
		return -e;
	buf[n] = '\0';
	return (int)n;
}

__attribute__((format(printf, 3, 4))) static int read_at(char *buf, size_t len, const char *fmt,
							 ...)
{
	char path[PATHLEN];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(path, sizeof(path), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(path))
		return -ENAMETOOLONG;
	return read_small(path, buf, len);
}

static void read_text(char *out, size_t olen, const char *path)
{
	char b[256];
	int n = read_small(path, b, sizeof(b));
	out[0] = '\0';
	if (n > 0)
		probe__copy(out, olen, probe__trim((struct pspan){b, (size_t)n}));
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int cmp_num(const void *a, const void *b)
{
	long x = strtol(*(char *const *)a, NULL, 10), y = strtol(*(char *const *)b, NULL, 10);
	return x < y ? -1 : x > y;
}

/* The names in dir (no dot files), sorted; numeric sorts by number and keeps only numbers. */
static int list_dir(const char *dir, int numeric, char ***names, size_t *n)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	*names = NULL;
	*n = 0;
	if (!d)
		return -errno;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		if (numeric) {
			unsigned long long v;
			if (probe__u64((struct pspan){e->d_name, strlen(e->d_name)}, &v) ||
			    v > 65535)
				continue;
		}
		char **nn = realloc(*names, (*n + 1) * sizeof(**names));
		if (!nn)
			goto nomem;
		*names = nn;
		if (!((*names)[*n] = strdup(e->d_name)))
			goto nomem;
		(*n)++;
	}
	closedir(d);
	if (*n)
		qsort(*names, *n, sizeof(**names), numeric ? cmp_num : cmp_str);
	return 0;
nomem:
	closedir(d);
	return -ENOMEM;
}

static void free_names(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

static int read_gids(const char *pdir, struct rdma_port *p)
{
	char dir[PATHLEN], b[128];
	char **idx;
	size_t n;
	mkpath(dir, sizeof(dir), "%s/gids", pdir);
	int rc = list_dir(dir, 1, &idx, &n);
	if (rc == -ENOMEM)
		return rc;
	if (rc)
		return 0;
	p->gids = calloc(n ? n : 1, sizeof(*p->gids));
	if (!p->gids) {
		free_names(idx, n);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		struct rdma_gid *g = &p->gids[p->ngids];
		int k = read_at(b, sizeof(b), "%s/gids/%s", pdir, idx[i]);
		if (k <= 0 || rdma_parse_gid(b, (size_t)k, g->gid) || gid_is_zero(g->gid))
			continue;
		g->index = (int)strtol(idx[i], NULL, 10);
		k = read_at(b, sizeof(b), "%s/gid_attrs/types/%s", pdir, idx[i]);
		g->type = k > 0 ? rdma_parse_gid_type(b, (size_t)k) : RDMA_GID_UNKNOWN;
		k = read_at(b, sizeof(b), "%s/gid_attrs/ndevs/%s", pdir, idx[i]);
		if (k > 0)
			probe__copy(g->ndev, sizeof(g->ndev),
				    probe__trim((struct pspan){b, (size_t)k}));
		p->ngids++;
	}
	free_names(idx, n);
	return 0;
}

static unsigned long long counter(const char *pdir, const char *name)
{
	char b[64];
	unsigned long long v;
	int k = read_at(b, sizeof(b), "%s/counters/%s", pdir, name);
	if (k <= 0 || rdma_parse_counter(b, (size_t)k, &v))
		return RDMA_NA;
	return v;
}

/* The netdev of a port: device/net/<if> whose dev_port is port-1 (one netdev: that one);
 * for RoCE, the ndev of its lowest GID when device/net says nothing. */
static void find_netdev(const char *ddir, const char *sysroot, struct rdma_port *p)
{
	char dir[PATHLEN], b[32];
	char **names;
	size_t n;
	mkpath(dir, sizeof(dir), "%s/device/net", ddir);
	if (list_dir(dir, 0, &names, &n) == 0 && n) {
		size_t pick = 0;
		for (size_t i = 0; n > 1 && i < n; i++) {
			int k = read_at(b, sizeof(b), "%s/%s/dev_port", dir, names[i]);
			if (k > 0 && strtol(b, NULL, 0) == p->num - 1) {
				pick = i;
				break;
			}
		}
		snprintf(p->netdev, sizeof(p->netdev), "%s", names[pick]);
	}
	if (n)
		free_names(names, n);
	else
		free(names);
	if (!p->netdev[0])
		for (size_t i = 0; i < p->ngids && !p->netdev[0]; i++)
			snprintf(p->netdev, sizeof(p->netdev), "%s", p->gids[i].ndev);
	if (!p->netdev[0])
		return;
	char path[PATHLEN];
	mkpath(path, sizeof(path), "%s/%s/operstate", dir, p->netdev);
	read_text(p->operstate, sizeof(p->operstate), path);
	if (!p->operstate[0]) {
		mkpath(path, sizeof(path), "%s/class/net/%s/operstate", sysroot, p->netdev);
		read_text(p->operstate, sizeof(p->operstate), path);
	}
	mkpath(path, sizeof(path), "%s/%s/mtu", dir, p->netdev);
	read_text(b, sizeof(b), path);
	if (!b[0]) {
		mkpath(path, sizeof(path), "%s/class/net/%s/mtu", sysroot, p->netdev);
		read_text(b, sizeof(b), path);
	}
	p->netdev_mtu = b[0] ? (int)strtol(b, NULL, 10) : 0;
}

static void add_ip(struct rdma_port *p, const char *addr, int from_netdev)
{
	for (size_t i = 0; i < p->nips; i++) {
		if (!strcmp(p->ips[i].addr, addr)) {
			p->ips[i].from_netdev |= from_netdev;
			return;
		}
	}
	if (p->nips == RDMA_MAX_IPS)
		return;
	struct rdma_ip *ip = &p->ips[p->nips++];
	snprintf(ip->addr, sizeof(ip->addr), "%s", addr);
	ip->v1_index = ip->v2_index = -1;
	ip->from_netdev = from_netdev;
}

static int port_owns(const struct rdma_port *p, const char *ifname)
{
	if (p->netdev[0] && !strcmp(p->netdev, ifname))
		return 1;
	for (size_t i = 0; i < p->ngids; i++)
		if (!strcmp(p->gids[i].ndev, ifname))
			return 1;
	return 0;
}

/* The addresses a RoCE port serves, and the GID of each. */
static void match_ips(struct rdma_port *p, const struct ifaddrs *ifa)
{
	char a[INET6_ADDRSTRLEN];
	for (const struct ifaddrs *i = ifa; i; i = i->ifa_next) {
		if (!i->ifa_addr || !i->ifa_name || !port_owns(p, i->ifa_name))
			continue;
		if (i->ifa_addr->sa_family == AF_INET) {
			const struct sockaddr_in *s = (const void *)i->ifa_addr;
			inet_ntop(AF_INET, &s->sin_addr, a, sizeof(a));
		} else if (i->ifa_addr->sa_family == AF_INET6) {
			const struct sockaddr_in6 *s = (const void *)i->ifa_addr;
			if (gid_is_linklocal(s->sin6_addr.s6_addr))
				continue;
			inet_ntop(AF_INET6, &s->sin6_addr, a, sizeof(a));
		} else {
			continue;
		}
		add_ip(p, a, 1);
	}
	for (size_t k = 0; k < p->ngids; k++) {
		const uint8_t *g = p->gids[k].gid;
		if (gid_is_linklocal(g))
			continue;
		if (gid_is_v4mapped(g))
			inet_ntop(AF_INET, g + 12, a, sizeof(a));
		else
			inet_ntop(AF_INET6, g, a, sizeof(a));
		add_ip(p, a, 0);
	}
	for (size_t i = 0; i < p->nips; i++) {
		uint8_t want[16] = {0};
		struct rdma_ip *ip = &p->ips[i];
		if (inet_pton(AF_INET, ip->addr, want + 12) == 1) {
			want[10] = want[11] = 0xff;
		} else if (inet_pton(AF_INET6, ip->addr, want) != 1) {
			continue;
		}
		for (size_t k = 0; k < p->ngids; k++) {
			if (memcmp(p->gids[k].gid, want, 16))
				continue;
			if (p->gids[k].type == RDMA_GID_ROCE_V2 && ip->v2_index < 0)
				ip->v2_index = p->gids[k].index;
			else if (p->gids[k].type == RDMA_GID_IB_ROCE_V1 && ip->v1_index < 0)
				ip->v1_index = p->gids[k].index;
		}
	}
}

static int read_port(const char *ddir, const char *sysroot, const char *num, struct rdma_port *p,
		     const struct ifaddrs *ifa)
{
	char pdir[PATHLEN], b[128];
	int k;
	mkpath(pdir, sizeof(pdir), "%s/ports/%s", ddir, num);
	p->num = (int)strtol(num, NULL, 10);
	p->state = p->phys = -1;
	p->rate = -1;
	if ((k = read_at(b, sizeof(b), "%s/state", pdir)) > 0 &&
	    rdma_parse_state(b, (size_t)k, &p->state, p->state_name, sizeof(p->state_name)))
		p->state = -1;
	if ((k = read_at(b, sizeof(b), "%s/phys_state", pdir)) > 0 &&
	    rdma_parse_state(b, (size_t)k, &p->phys, p->phys_name, sizeof(p->phys_name)))
		p->phys = -1;
	if ((k = read_at(b, sizeof(b), "%s/link_layer", pdir)) > 0)
		probe__copy(p->link_layer, sizeof(p->link_layer),
			    probe__trim((struct pspan){b, (size_t)k}));
	if ((k = read_at(b, sizeof(b), "%s/rate", pdir)) > 0) {
		int width;
		char speed[16];
		probe__copy(p->rate_text, sizeof(p->rate_text),
			    probe__trim((struct pspan){b, (size_t)k}));
		if (rdma_parse_rate(b, (size_t)k, &p->rate, &width, speed, sizeof(speed)))
			p->rate = -1;
	}
	p->link_downed = counter(pdir, "link_downed");
	p->symbol_error = counter(pdir, "symbol_error");
	p->port_rcv_errors = counter(pdir, "port_rcv_errors");
	p->link_error_recovery = counter(pdir, "link_error_recovery");
	p->port_xmit_discards = counter(pdir, "port_xmit_discards");
	int rc = read_gids(pdir, p);
	if (rc)
		return rc;
	find_netdev(ddir, sysroot, p);
	if (!strcmp(p->link_layer, "Ethernet")) {
		match_ips(p, ifa);
		if (p->netdev_mtu > 0) {
			p->mtu = rdma_roce_mtu(p->netdev_mtu);
			p->mtu_source = p->mtu ? RDMA_MTU_NETDEV : RDMA_MTU_NONE;
		}
	}
	return 0;
}

void rdma_host_release(struct rdma_host *h)
{
	for (size_t i = 0; h && i < h->n; i++) {
		for (size_t k = 0; k < h->dev[i].nports; k++)
			free(h->dev[i].ports[k].gids);
		free(h->dev[i].ports);
	}
	if (h) {
		free(h->dev);
		memset(h, 0, sizeof(*h));
	}
}

int rdma_sysfs_read(const char *dir, const char *only, struct rdma_host *h, char *err,
		    size_t errlen)
{
	char ib[PATHLEN], sysroot[PATHLEN];
	char **names = NULL;
	size_t n = 0;
	struct stat st;
	struct ifaddrs *ifa = NULL;
	int rc;

	memset(h, 0, sizeof(*h));
	int given = dir != NULL;
	if (!dir)
		dir = "/sys";
	mkpath(sysroot, sizeof(sysroot), "%s", dir);
	mkpath(ib, sizeof(ib), "%s/class", dir);
	int has_class = stat(ib, &st) == 0 && S_ISDIR(st.st_mode);
	mkpath(ib, sizeof(ib), "%s/class/infiniband", dir);
	if (given && !has_class) {
		/* a copy of /sys/class/infiniband itself */
		mkpath(ib, sizeof(ib), "%s", dir);
		mkpath(sysroot, sizeof(sysroot), "%s/../../..", dir);
	}
	rc = list_dir(ib, 0, &names, &n);
	if (rc == -ENOMEM) {
		snprintf(err, errlen, "out of memory");
		return rc;
	}
	if (rc || !n) {
		snprintf(err, errlen, "no RDMA device: %s%s", ib, rc ? ": " : " is empty");
		if (rc) {
			size_t off = strnlen(err, errlen);
			snprintf(err + off, errlen - off, "%s", strerror(-rc));
		}
		free(names);
		return -ENOENT;
	}
	if (getifaddrs(&ifa) != 0)
		ifa = NULL;
	h->dev = calloc(n, sizeof(*h->dev));
	if (!h->dev) {
		rc = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		if (only && strcmp(only, names[i]))
			continue;
		char ddir[PATHLEN], pdir[PATHLEN];
		char **ports;
		size_t np;
		mkpath(ddir, sizeof(ddir), "%s/%s", ib, names[i]);
		mkpath(pdir, sizeof(pdir), "%s/ports", ddir);
		rc = list_dir(pdir, 1, &ports, &np);
		if (rc == -ENOMEM)
			goto out;
		rc = 0;
		struct rdma_device *d = &h->dev[h->n++];
		snprintf(d->name, sizeof(d->name), "%s", names[i]);
		mkpath(pdir, sizeof(pdir), "%s/fw_ver", ddir);
		read_text(d->fw_ver, sizeof(d->fw_ver), pdir);
		mkpath(pdir, sizeof(pdir), "%s/node_guid", ddir);
		read_text(d->node_guid, sizeof(d->node_guid), pdir);
		d->ports = calloc(np ? np : 1, sizeof(*d->ports));
		if (!d->ports) {
			free_names(ports, np);
			rc = -ENOMEM;
			goto out;
		}
		for (size_t k = 0; k < np && !rc; k++)
			rc = read_port(ddir, sysroot, ports[k], &d->ports[d->nports++], ifa);
		free_names(ports, np);
		if (rc)
			goto out;
	}
	if (only && !h->n) {
		int off = snprintf(err, errlen, "no RDMA device '%s'; there are:", only);
		for (size_t i = 0; i < n && off > 0 && (size_t)off < errlen; i++)
			off += snprintf(err + off, errlen - (size_t)off, " %s", names[i]);
		rc = -ENOENT;
	}
out:
	if (rc == -ENOMEM)
		snprintf(err, errlen, "out of memory");
	if (ifa)
		freeifaddrs(ifa);
	free_names(names, n);
	return rc;
}

/* ---- verbs ---- */

int rdma_verbs_fill(struct rdma_host *h)
{
#ifdef HAVE_IBVERBS
	int filled = 0, num = 0;
	struct ibv_device **list = ibv_get_device_list(&num);
	if (!list)
		return 0;
	for (int i = 0; i < num; i++) {
		const char *name = ibv_get_device_name(list[i]);
		struct rdma_device *d = NULL;
		for (size_t k = 0; name && k < h->n; k++)
			if (!strcmp(h->dev[k].name, name))
				d = &h->dev[k];
		if (!d)
			continue;
		struct ibv_context *ctx = ibv_open_device(list[i]);
		if (!ctx)
			continue;
		struct ibv_device_attr da;
		if (ibv_query_device(ctx, &da) == 0) {
			for (size_t k = 0; k < d->nports; k++) {
				struct rdma_port *p = &d->ports[k];
				struct ibv_port_attr pa;
				if (p->num < 1 || p->num > da.phys_port_cnt ||
				    ibv_query_port(ctx, (uint8_t)p->num, &pa))
					continue;
				p->mtu = 128 << pa.active_mtu;
				p->mtu_source = RDMA_MTU_VERBS;
				filled++;
				/* the GIDs sysfs listed, as the verbs table has them: a mismatch means
				 * the table changed under us or sysfs is not this device's */
				for (size_t g = 0; g < p->ngids; g++) {
					union ibv_gid vg;
					if (p->gids[g].index < 0 || p->gids[g].index >= pa.gid_tbl_len ||
					    ibv_query_gid(ctx, (uint8_t)p->num, p->gids[g].index, &vg))
						continue;
					p->gids_verbs++;
					if (memcmp(vg.raw, p->gids[g].gid, 16))
						p->gids_differ++;
				}
			}
		}
		ibv_close_device(ctx);
	}
	ibv_free_device_list(list);
	if (filled)
		h->verbs = 1;
	return filled;
#else
	(void)h;
	return 0;
#endif
}

/* ---- verdicts ---- */

enum probe_status rdma_assess(struct rdma_host *h)
{
	enum probe_status worst = PROBE_PASS;
	/* the best rate per link layer, and the most common MTU, over active ports */
	double best_ib = -1, best_eth = -1;
	int mtus[32] = {0}, mtu_count[32] = {0}, nm = 0;
	for (size_t i = 0; i < h->n; i++) {
		for (size_t k = 0; k < h->dev[i].nports; k++) {
			const struct rdma_port *p = &h->dev[i].ports[k];
			if (p->state != 4)
				continue;
			double *best = !strcmp(p->link_layer, "Ethernet") ? &best_eth : &best_ib;
			if (p->rate > *best)
				*best = p->rate;
			if (!p->mtu)
				continue;
			int j = 0;
			while (j < nm && mtus[j] != p->mtu)
				j++;
			if (j == nm && nm < 32)
				mtus[nm++] = p->mtu;
			if (j < nm)
				mtu_count[j]++;
		}
	}
	int common = 0, common_n = 0;
	for (int j = 0; j < nm; j++) {
		if (mtu_count[j] > common_n || (mtu_count[j] == common_n && mtus[j] > common)) {
			common = mtus[j];
			common_n = mtu_count[j];
		}
	}
	for (size_t i = 0; i < h->n; i++) {
		for (size_t k = 0; k < h->dev[i].nports; k++) {
			struct rdma_port *p = &h->dev[i].ports[k];
			int eth = !strcmp(p->link_layer, "Ethernet");
			p->status = PROBE_PASS;
			p->reason[0] = '\0';
			if (p->state != 4) {
				p->status = PROBE_FAIL;
				probe_reason_add(p->reason, sizeof(p->reason), "state %s",
						 p->state < 0 ? "unreadable" : p->state_name);
			}
			if (p->phys != 5) {
				p->status = PROBE_FAIL;
				probe_reason_add(p->reason, sizeof(p->reason), "physical state %s",
						 p->phys < 0 ? "unreadable" : p->phys_name);
			}
			if (p->state == 4 && eth && p->netdev[0] && p->operstate[0] &&
			    strcmp(p->operstate, "up") && strcmp(p->operstate, "unknown")) {
				p->status = PROBE_FAIL;
				probe_reason_add(p->reason, sizeof(p->reason), "netdev %s is %s",
						 p->netdev, p->operstate);
			}
			if (p->gids_differ) {
				p->status = probe_status_worst(p->status, PROBE_WARN);
				probe_reason_add(p->reason, sizeof(p->reason),
						 "%d of %d GIDs differ between sysfs and ibv_query_gid",
						 p->gids_differ, p->gids_verbs);
			}
			if (p->state == 4 && eth) {
				for (size_t j = 0; j < p->nips; j++) {
					const struct rdma_ip *ip = &p->ips[j];
					if (ip->v2_index >= 0)
						continue;
					p->status = PROBE_FAIL;
					if (ip->v1_index >= 0)
						probe_reason_add(p->reason, sizeof(p->reason),
								 "%s has a RoCE v1 GID (%d) but no "
								 "RoCE v2 GID",
								 ip->addr, ip->v1_index);
					else
						probe_reason_add(p->reason, sizeof(p->reason),
								 "%s has no RoCE v2 GID", ip->addr);
				}
				if (!p->nips) {
					p->status = probe_status_worst(p->status, PROBE_WARN);
					probe_reason_add(
						p->reason, sizeof(p->reason),
						"no IP address, so no routable RoCE v2 GID");
				}
			}
			if (p->state == 4) {
				double best = eth ? best_eth : best_ib;
				if (p->rate >= 0 && p->rate < best) {
					p->status = probe_status_worst(p->status, PROBE_WARN);
					probe_reason_add(
						p->reason, sizeof(p->reason),
						"rate %g Gb/s, below the %g Gb/s of other ports",
						p->rate, best);
				}
				if (p->mtu && nm > 1 && p->mtu != common) {
					p->status = probe_status_worst(p->status, PROBE_WARN);
					probe_reason_add(p->reason, sizeof(p->reason),
							 "active MTU %d, the other ports %d",
							 p->mtu, common);
				}
			}
			if (p->link_downed != RDMA_NA && p->link_downed > 0) {
				p->status = probe_status_worst(p->status, PROBE_WARN);
				probe_reason_add(
					p->reason, sizeof(p->reason),
					"link went down %llu time%s (link_downed): flapping",
					p->link_downed, plural_s(p->link_downed));
			}
			worst = probe_status_worst(worst, p->status);
		}
	}
	return worst;
}
