/* /etc/hccn.conf reader. hccn_tool writes one "key_<physical id>=value" per line
 * (address_0=..., netmask_0=..., as its -ip -s command and the Ascend install guides show);
 * we only need address_N, the RoCE IP of NPU N, which becomes the rank table's device_ip.
 * Every other key is hccn_tool's business and is skipped. */
#include <arpa/inet.h>
#include <errno.h>
#include <stdbool.h>

#include "ranktable/ranktable.h"
#include "ranktable/text.h"
#include "ranktable/base/plural.h"

#define HCCN_MAX_DEV 64

static const char fix_addr[] = "set it with: hccn_tool -i N -ip -s address IP netmask MASK";

struct hccn_ctx {
	struct rt_hccn *h;
	struct rt_diags *diags;
	size_t nerr;
};

/* "0".."63" without sign or leading zeros: hccn_tool writes the id with %d. */
static long parse_dev_id(const char *s, size_t n)
{
	long v = 0;

	if (n == 0 || n > 2 || (n > 1 && s[0] == '0'))
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v < HCCN_MAX_DEV ? v : -1;
}

static int parse_line(struct hccn_ctx *c, const char *s, size_t n, unsigned line)
{
	char q[RT_QUOTE_BUF];
	size_t i = 0, kend, vbeg, vend;
	const char *eq;
	long id;

	while (i < n && rt__is_blank(s[i]))
		i++;
	if (i == n || s[i] == '#')
		return 0;
	eq = memchr(s + i, '=', n - i);
	if (!eq || eq == s + i) {
		c->nerr++;
		rt__quote(q, sizeof(q), s + i, n - i);
		return rt_diags_add(c->diags, RT_SEV_ERROR, "hccn-syntax", line, (unsigned)i + 1,
				    "", "lines are key_N=value, e.g. address_0=192.168.100.101",
				    "expected key=value, found \"%s\"", q);
	}
	kend = (size_t)(eq - s);
	vbeg = kend + 1;
	while (kend > i && rt__is_blank(s[kend - 1]))
		kend--;
	while (vbeg < n && rt__is_blank(s[vbeg]))
		vbeg++;
	vend = n;
	while (vend > vbeg && rt__is_blank(s[vend - 1]))
		vend--;

	if (kend - i < 8 || memcmp(s + i, "address_", 8) != 0)
		return 0; /* netmask_N, gateway_N, mtu_N ...: not ours */

	id = parse_dev_id(s + i + 8, kend - i - 8);
	if (id < 0) {
		c->nerr++;
		rt__quote(q, sizeof(q), s + i, kend - i);
		return rt_diags_add(c->diags, RT_SEV_ERROR, "hccn-device-id", line,
				    (unsigned)i + 9, "", "physical device ids run 0..63 (npu-smi info)",
				    "bad device id in \"%s\": expected a decimal 0..63", q);
	}
	if (vend == vbeg) {
		c->nerr++;
		return rt_diags_add(c->diags, RT_SEV_ERROR, "hccn-address", line,
				    (unsigned)vbeg + 1, "", fix_addr, "address_%ld has no value", id);
	}
	if (!rt__is_ip_literal(s + vbeg, vend - vbeg)) {
		c->nerr++;
		rt__quote(q, sizeof(q), s + vbeg, vend - vbeg);
		return rt_diags_add(c->diags, RT_SEV_ERROR, "hccn-address", line,
				    (unsigned)vbeg + 1, "", fix_addr,
				    "address_%ld value \"%s\" is not an IPv4 or IPv6 address", id, q);
	}
	if (c->h->addr[id]) {
		c->nerr++;
		return rt_diags_add(c->diags, RT_SEV_ERROR, "hccn-duplicate", line, (unsigned)i + 1,
				    "", "keep one address_N line per device",
				    "address_%ld is set twice: line %u and line %u", id,
				    c->h->line[id], line);
	}
	c->h->addr[id] = strndup(s + vbeg, vend - vbeg);
	if (!c->h->addr[id])
		return -ENOMEM;
	c->h->line[id] = line;
	if ((size_t)id + 1 > c->h->naddr)
		c->h->naddr = (size_t)id + 1;
	return 0;
}

int rt_hccn_parse(struct rt_hccn *h, const char *name, const char *buf, size_t len,
		  struct rt_diags *diags, char *err, size_t errlen)
{
	struct hccn_ctx c = { .h = h, .diags = diags };
	size_t pos = 0;
	unsigned line = 0;
	int rc = 0;

	if (!name)
		name = "hccn.conf";
	memset(h, 0, sizeof(*h));
	h->addr = calloc(HCCN_MAX_DEV, sizeof(*h->addr));
	h->line = calloc(HCCN_MAX_DEV, sizeof(*h->line));
	if (!h->addr || !h->line) {
		rc = -ENOMEM;
		goto fail;
	}
	const char *l;
	size_t n;
	while ((l = rt__next_line(buf, len, &pos, &n))) {
		rc = parse_line(&c, l, n, ++line);
		if (rc)
			goto fail;
	}
	if (c.nerr) {
		snprintf(err, errlen, "%s: %zu bad line%s", name, c.nerr, plural_s(c.nerr));
		rc = -EINVAL;
		goto fail;
	}
	if (!h->naddr) {
		snprintf(err, errlen, "%s: no address_N= line (%s)", name, fix_addr);
		rc = -EINVAL;
		goto fail;
	}
	return 0;

fail:
	if (rc == -ENOMEM)
		snprintf(err, errlen, "%s: out of memory", name);
	rt_hccn_release(h);
	return rc;
}

void rt_hccn_release(struct rt_hccn *h)
{
	if (!h)
		return;
	if (h->addr) {
		for (size_t i = 0; i < h->naddr; i++)
			free(h->addr[i]);
	}
	free(h->addr);
	free(h->line);
	h->addr = NULL;
	h->line = NULL;
	h->naddr = 0;
}
