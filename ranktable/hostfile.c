/* Hostfile reader for `ranktable gen --hostfile`. Accepts our own "SERVER [host_ip=IP]
 * [slots=N]", Open MPI's "node3 slots=8 max_slots=16" and MPICH's "10.0.0.1:8".
 * Server names later go into ssh command lines, so a server token is checked against a
 * whitelist here, once, rather than quoted at every use. */
#include <arpa/inet.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "ranktable/ranktable.h"
#include "ranktable/text.h"
#include "ranktable/base/plural.h"

#define SERVER_ID_MAX 64 /* HCCL's SERVERID_MAX_LENGTH */

struct hf_line {
	unsigned line, col; /* where the server token is, for duplicate findings */
};

struct hf_ctx {
	struct rt_hostfile *hf;
	struct hf_line *where; /* parallel to hf->v */
	size_t cap;
	struct rt_diags *diags;
	size_t nerr;
	const char *unit; /* "line" in a file, "entry" in a command-line list */
	unsigned slots;	  /* the line's slots=N or HOST:N, 0 when none */
};

/* A slot or process count: 1..99999, plain decimal. */
static bool is_count(const char *s, size_t n)
{
	long v = 0;

	if (n == 0 || n > 5 || s[0] == '0')
		return false;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		v = v * 10 + (s[i] - '0');
	}
	return v > 0;
}

/* Letters, digits, '.', '-', '_' and ':' (IPv6) cover host names and IPs; everything else
 * could mean something to a shell or to ssh. A leading '-' would read as an ssh option. */
static bool server_char_ok(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '.' || c == '-' || c == '_' || c == ':';
}

static int err_at(struct hf_ctx *c, unsigned line, size_t col, const char *code,
		  const char *hint, const char *msg)
{
	c->nerr++;
	return rt_diags_add(c->diags, RT_SEV_ERROR, code, line, (unsigned)col, "", hint, "%s",
			    msg);
}

/* Checks the server token s[0..n) found at column col; 0 when fine, 1 when it is bad
 * (a finding was added), -ENOMEM. */
static int check_server(struct hf_ctx *c, const char *s, size_t n, unsigned line, size_t col)
{
	char q[RT_QUOTE_BUF], msg[RT_ERRLEN];
	int rc;

	rt__quote(q, sizeof(q), s, n);
	if (n > SERVER_ID_MAX) {
		snprintf(msg, sizeof(msg), "server id \"%s\" is %zu characters long; HCCL allows %d",
			 q, n, SERVER_ID_MAX);
		rc = err_at(c, line, col, "hostfile-server", NULL, msg);
		return rc ? rc : 1;
	}
	for (size_t i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)s[i];
		char what[16];

		if (server_char_ok(ch) && !(i == 0 && ch == '-'))
			continue;
		if (ch >= 0x21 && ch < 0x7f)
			snprintf(what, sizeof(what), "'%c'", ch);
		else
			snprintf(what, sizeof(what), "byte 0x%02x", ch);
		snprintf(msg, sizeof(msg), "server \"%s\" contains %s%s", q, what,
			 i == 0 && ch == '-' ? " at the start" : "");
		rc = err_at(c, line, col + i, "hostfile-server",
			    "a server is a host name or IP: letters, digits, '.', '-', '_', ':'",
			    msg);
		return rc ? rc : 1;
	}
	/* Two or more colons: the MPICH ":N" split did not apply, so it must be IPv6. */
	if (memchr(s, ':', n) && !rt__is_ip_literal(s, n)) {
		snprintf(msg, sizeof(msg), "server \"%s\" is neither a host name nor an IP", q);
		rc = err_at(c, line, col, "hostfile-server", NULL, msg);
		return rc ? rc : 1;
	}
	return 0;
}

static int push_host(struct hf_ctx *c, const char *s, size_t n, const char *ip, size_t iplen,
		     unsigned line, size_t col)
{
	struct rt_host *h;

	if (c->hf->n == c->cap) {
		size_t nc = c->cap ? c->cap * 2 : 16;
		struct rt_host *nv = realloc(c->hf->v, nc * sizeof(*nv));
		struct hf_line *nw;

		if (!nv)
			return -ENOMEM;
		c->hf->v = nv;
		nw = realloc(c->where, nc * sizeof(*nw));
		if (!nw)
			return -ENOMEM;
		c->where = nw;
		c->cap = nc;
	}
	h = &c->hf->v[c->hf->n];
	h->server_id = strndup(s, n);
	h->host_ip = ip ? strndup(ip, iplen) : NULL;
	h->slots = c->slots;
	h->line = line;
	if (!h->server_id || (ip && !h->host_ip)) {
		free(h->server_id);
		free(h->host_ip);
		return -ENOMEM;
	}
	c->where[c->hf->n].line = line;
	c->where[c->hf->n].col = (unsigned)col;
	c->hf->n++;
	return 0;
}

/* One key=value option after the server; host_ip goes to ip and iplen. */
static int parse_option(struct hf_ctx *c, const char *t, size_t tn, unsigned line, size_t col,
			const char **ip, size_t *iplen, bool *bad)
{
	char q[RT_QUOTE_BUF], msg[RT_ERRLEN];
	const char *eq = memchr(t, '=', tn);
	size_t kn, vn;
	const char *v;
	int rc;

	rt__quote(q, sizeof(q), t, tn);
	if (!eq || eq == t) {
		*bad = true;
		snprintf(msg, sizeof(msg), "unexpected \"%s\" after the server", q);
		return err_at(c, line, col, "hostfile-syntax",
			      "one server per line, then options as key=value (host_ip=IP, slots=N)",
			      msg);
	}
	kn = (size_t)(eq - t);
	v = eq + 1;
	vn = tn - kn - 1;
	if (kn == 7 && !memcmp(t, "host_ip", 7)) {
		if (*ip) {
			*bad = true;
			return err_at(c, line, col, "hostfile-syntax", NULL,
				      "host_ip is given twice on this line");
		}
		if (!rt__is_ip_literal(v, vn)) {
			*bad = true;
			rt__quote(q, sizeof(q), v, vn);
			snprintf(msg, sizeof(msg), "host_ip \"%s\" is not an IPv4 or IPv6 address", q);
			return err_at(c, line, col + kn + 1, "hostfile-host-ip", NULL, msg);
		}
		*ip = v;
		*iplen = vn;
		return 0;
	}
	if ((kn == 5 && !memcmp(t, "slots", 5)) || (kn == 9 && !memcmp(t, "max_slots", 9))) {
		if (is_count(v, vn)) {
			c->slots = (unsigned)strtoul(v, NULL, 10); /* gen compares it with --devices */
			return 0;
		}
		*bad = true;
		rt__quote(q, sizeof(q), v, vn);
		snprintf(msg, sizeof(msg), "%.*s \"%s\" is not a positive number", (int)kn, t, q);
		return err_at(c, line, col + kn + 1, "hostfile-syntax", NULL, msg);
	}
	rt__quote(q, sizeof(q), t, kn);
	rc = rt_diags_add(c->diags, RT_SEV_WARNING, "hostfile-unknown-key", line, (unsigned)col,
			  "", "known keys: host_ip, slots, max_slots", "unknown key \"%s\" ignored",
			  q);
	return rc;
}

static int parse_line(struct hf_ctx *c, const char *s, size_t n, unsigned line)
{
	char q[RT_QUOTE_BUF], msg[RT_ERRLEN];
	size_t i = 0, scol, sn;
	const char *ip = NULL, *colon;
	size_t iplen = 0;
	bool bad = false;
	int rc;

	c->slots = 0;
	while (i < n && rt__is_blank(s[i]))
		i++;
	if (i == n || s[i] == '#')
		return 0;
	scol = i;
	while (i < n && !rt__is_blank(s[i]))
		i++;
	sn = i - scol;

	/* MPICH "host:N": exactly one colon (an IPv6 literal has at least two). */
	colon = memchr(s + scol, ':', sn);
	if (colon && !memchr(colon + 1, ':', (size_t)(s + i - colon - 1))) {
		size_t cn = (size_t)(s + i - colon - 1);

		sn = (size_t)(colon - (s + scol));
		if (is_count(colon + 1, cn))
			c->slots = (unsigned)strtoul(colon + 1, NULL, 10);
		else {
			bad = true;
			rt__quote(q, sizeof(q), s + scol, i - scol);
			snprintf(msg, sizeof(msg), "bad process count in \"%s\": expected HOST:N", q);
			rc = err_at(c, line, (size_t)(colon - s) + 2, "hostfile-syntax", NULL, msg);
			if (rc)
				return rc;
		}
	}
	if (sn == 0) {
		bad = true;
		rc = err_at(c, line, scol + 1, "hostfile-syntax", NULL, "missing server before ':'");
	} else {
		rc = check_server(c, s + scol, sn, line, scol + 1);
		bad |= rc == 1;
	}
	if (rc < 0)
		return rc;

	for (;;) {
		size_t t;

		while (i < n && rt__is_blank(s[i]))
			i++;
		if (i == n || s[i] == '#')
			break;
		t = i;
		while (i < n && !rt__is_blank(s[i]))
			i++;
		rc = parse_option(c, s + t, i - t, line, t + 1, &ip, &iplen, &bad);
		if (rc)
			return rc;
	}
	if (bad)
		return 0;
	return push_host(c, s + scol, sn, ip, iplen, line, scol + 1);
}

/* Sorting by name finds duplicates in O(n log n); a later copy is reported at its own
 * line, naming the first. */
static int find_duplicates(struct hf_ctx *c)
{
	struct rt_hostfile *hf = c->hf;
	struct rt__name_ref *v;
	size_t first = 0;
	int rc = 0;

	if (hf->n < 2)
		return 0;
	v = malloc(hf->n * sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < hf->n; i++) {
		v[i].name = hf->v[i].server_id;
		v[i].idx = i;
	}
	qsort(v, hf->n, sizeof(*v), rt__cmp_name_ref);
	for (size_t k = 1; k < hf->n && !rc; k++) {
		if (strcmp(v[k].name, v[k - 1].name) != 0) {
			first = k;
			continue;
		}
		c->nerr++;
		rc = rt_diags_add(c->diags, RT_SEV_ERROR, "hostfile-duplicate",
				  c->where[v[k].idx].line, c->where[v[k].idx].col, "",
				  "list each server once", "server \"%s\" is already listed %s %u",
				  v[k].name, strcmp(c->unit, "entry") ? "on line" : "as entry",
				  c->where[v[first].idx].line);
	}
	free(v);
	return rc;
}

static int parse_as(struct rt_hostfile *hf, const char *name, const char *buf, size_t len,
		    struct rt_diags *diags, char *err, size_t errlen, const char *unit)
{
	struct hf_ctx c = { .hf = hf, .diags = diags, .unit = unit };
	size_t pos = 0;
	unsigned line = 0;
	int rc = 0;

	if (!name)
		name = "hostfile";
	memset(hf, 0, sizeof(*hf));
	const char *l;
	size_t n;
	while ((l = rt__next_line(buf, len, &pos, &n))) {
		rc = parse_line(&c, l, n, ++line);
		if (rc)
			goto fail;
	}
	rc = find_duplicates(&c);
	if (rc)
		goto fail;
	if (c.nerr) {
		snprintf(err, errlen, "%s: %zu error%s", name, c.nerr, plural_s(c.nerr));
		rc = -EINVAL;
		goto fail;
	}
	if (!hf->n) {
		snprintf(err, errlen, "%s: no server listed", name);
		rc = -EINVAL;
		goto fail;
	}
	free(c.where);
	return 0;

fail:
	if (rc == -ENOMEM)
		snprintf(err, errlen, "%s: out of memory", name);
	free(c.where);
	rt_hostfile_release(hf);
	return rc;
}

void rt_hostfile_release(struct rt_hostfile *hf)
{
	if (!hf)
		return;
	for (size_t i = 0; i < hf->n; i++) {
		free(hf->v[i].server_id);
		free(hf->v[i].host_ip);
	}
	free(hf->v);
	hf->v = NULL;
	hf->n = 0;
}

int rt_hostfile_parse(struct rt_hostfile *hf, const char *name, const char *buf, size_t len,
		      struct rt_diags *diags, char *err, size_t errlen)
{
	return parse_as(hf, name, buf, len, diags, err, errlen, "line");
}

int rt_hostfile_parse_list(struct rt_hostfile *hf, const char *name, const char *buf, size_t len,
			   struct rt_diags *diags, char *err, size_t errlen)
{
	return parse_as(hf, name, buf, len, diags, err, errlen, "entry");
}
