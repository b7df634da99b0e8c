/* Loading a rank table: read the bytes, parse them into a tree with positions (jtree.h),
 * recognise the format (by its version and top-level keys, as HCCL's parser does, plus the
 * tables other programs read: vllm-ascend's and ClusterD's), extract the model and run that
 * format's rules. Also the table digest. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ranktable/check.h"
#include "ranktable/base/bigmem.h"

/* ---- reading ---- */

static int errno_code(int e)
{
	switch (e) {
	case ENOENT:
	case ENOTDIR:
		return -ENOENT;
	case EACCES:
	case EPERM:
		return -EACCES;
	case EISDIR:
		return -EISDIR;
	case ENOMEM:
		return -ENOMEM;
	default:
		return -EIO;
	}
}

int rt_read_file(const char *path, size_t cap, char **buf, size_t *len, char *err,
		 size_t errlen)
{
	int stdin_ = !strcmp(path, "-");
	int fd = stdin_ ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
	char *b = NULL;
	size_t n = 0, sz = 0;
	int rc;
	struct stat st;

	*buf = NULL;
	*len = 0;
	if (fd < 0) {
		rc = errno_code(errno);
		snprintf(err, errlen, "cannot open '%s': %s", path, strerror(errno));
		return rc;
	}
	if (fstat(fd, &st) == 0) {
		if (S_ISDIR(st.st_mode)) {
			snprintf(err, errlen, "cannot read '%s': is a directory", path);
			rc = -EISDIR;
			goto fail;
		}
		if (S_ISREG(st.st_mode) && (uintmax_t)st.st_size > cap) {
			snprintf(err, errlen, "'%s' is larger than the %zu-byte limit", path, cap);
			rc = -EFBIG;
			goto fail;
		}
		if (S_ISREG(st.st_mode))
			sz = (size_t)st.st_size;
	}
	/* Read until EOF whatever fstat said: files grow, and pipes have no size. */
	size_t bcap = sz + 2 < 4096 ? 4096 : sz + 2; /* EOF is read without growing */
	for (;;) {
		if (!b || n + 1 >= bcap) {
			size_t ncap = b ? bcap * 2 : bcap;
			if (ncap > cap + 2)
				ncap = cap + 2;
			char *nb = b ? realloc(b, ncap) : big_malloc(ncap);
			if (!nb) {
				snprintf(err, errlen, "cannot read '%s': out of memory", path);
				rc = -ENOMEM;
				goto fail;
			}
			b = nb;
			bcap = ncap;
		}
		ssize_t got = read(fd, b + n, bcap - 1 - n);
		if (got < 0) {
			if (errno == EINTR)
				continue;
			rc = errno == EISDIR ? -EISDIR : -EIO;
			snprintf(err, errlen, "cannot read '%s': %s", path, strerror(errno));
			goto fail;
		}
		if (got == 0)
			break;
		n += (size_t)got;
		if (n > cap) {
			snprintf(err, errlen, "'%s' is larger than the %zu-byte limit", path, cap);
			rc = -EFBIG;
			goto fail;
		}
	}
	b[n] = 0; /* not needed by the loader, but convenient for callers */
	if (!stdin_)
		close(fd);
	*buf = b;
	*len = n;
	return 0;
fail:
	free(b);
	if (!stdin_)
		close(fd);
	return rc;
}

/* ---- loading ---- */

/* Duplicate keys: the reader keeps both, HCCL's JSON library takes one of them; either way one
 * value is silently ignored. The tree is walked without recursion, keeping each level's
 * container and index so a finding can name its path. Small objects are compared
 * pairwise and big ones sorted, so the walk stays O(n log n). */
struct frame {
	const struct rt__jnode *parent; /* the container, NULL for the root */
	const struct rt__jnode *cur;
	size_t idx;
};

static const char *path_of(const struct frame *f, size_t depth, char *buf)
{
	size_t n = 0;
	buf[n++] = '$';
	buf[n] = 0;
	for (size_t k = 1; k < depth && n < RT_PATHLEN - 1; k++) {
		if (rt__jis_obj(f[k].parent))
			n += (size_t)snprintf(buf + n, RT_PATHLEN - n, ".%s",
					      rt__jkey(f[k].cur) ? rt__jkey(f[k].cur) : "");
		else
			n += (size_t)snprintf(buf + n, RT_PATHLEN - n, "[%zu]", f[k].idx);
	}
	return buf;
}

static void dup_key(struct rt__ctx *c, const struct frame *f, size_t depth,
		    const struct rt__jnode *first, const struct rt__jnode *dup)
{
	unsigned l = 0, col = 0;
	char base[RT_PATHLEN], p[RT_PATHLEN];
	rt__jpos_nodekey(c->pos, first, &l, &col);
	path_of(f, depth, base);
	/* Parsers differ in which of the two they keep (cJSON the first, nlohmann::json the
	 * last): only two different values make the table mean different things. */
	if (rt__jequal(first, dup))
		rt__report(c, "duplicate-key-same", dup, 1,
			   rt__path(p, "%s.%s", base, rt__jkey(dup)), "remove one of them",
			   "duplicate key \"%s\" (first at line %u, column %u) with the same value; "
			   "harmless, whichever one a parser keeps",
			   rt__jkey(dup), l, col);
	else
		rt__report(c, "duplicate-key", dup, 1, rt__path(p, "%s.%s", base, rt__jkey(dup)),
			   "remove one of them; only one value is used",
			   "duplicate key \"%s\" (first at line %u, column %u) with another value; "
			   "parsers differ in which one they keep",
			   rt__jkey(dup), l, col);
}

struct kref {
	const struct rt__jnode *m;
	size_t idx;
};

static int cmp_kref(const void *a, const void *b)
{
	const struct kref *x = a, *y = b;
	int r = strcmp(rt__jkey(x->m), rt__jkey(y->m));
	return r ? r : (x->idx > y->idx) - (x->idx < y->idx);
}

static int object_dups(struct rt__ctx *c, const struct frame *f, size_t depth)
{
	const struct rt__jnode *obj = f[depth - 1].cur;
	size_t n = 0;
	for (const struct rt__jnode *m = rt__jchild(obj); m; m = rt__jnext(m))
		n++;
	if (n < 2)
		return 0;
	if (n <= 16) {
		for (const struct rt__jnode *m = rt__jnext(rt__jchild(obj)); m; m = rt__jnext(m))
			for (const struct rt__jnode *e = rt__jchild(obj); e != m; e = rt__jnext(e))
				if (rt__jkey(m) && rt__jkey(e) &&
				    !strcmp(rt__jkey(m), rt__jkey(e))) {
					dup_key(c, f, depth, e, m);
					break;
				}
		return 0;
	}
	struct kref *v = malloc(n * sizeof(*v));
	if (!v)
		return -ENOMEM;
	size_t k = 0;
	for (const struct rt__jnode *m = rt__jchild(obj); m; m = rt__jnext(m))
		if (rt__jkey(m)) {
			v[k].m = m;
			v[k].idx = k;
			k++;
		}
	qsort(v, k, sizeof(*v), cmp_kref);
	for (size_t i = 0; i < k;) {
		size_t j = i + 1;
		while (j < k && !strcmp(rt__jkey(v[i].m), rt__jkey(v[j].m)))
			j++;
		for (size_t q = i + 1; q < j; q++)
			dup_key(c, f, depth, v[i].m, v[q].m);
		i = j;
	}
	free(v);
	return 0;
}

static int find_dup_keys(struct rt__ctx *c)
{
	struct frame f[RT_JPOS_MAXDEPTH + 2];
	size_t depth = 1;
	f[0] = (struct frame){ NULL, c->root, 0 };
	while (depth) {
		struct frame *top = &f[depth - 1];
		const struct rt__jnode *node = top->cur;
		if (!node) {
			if (--depth) {
				f[depth - 1].cur = rt__jnext(f[depth - 1].cur);
				f[depth - 1].idx++;
			}
			continue;
		}
		if (rt__jis_obj(node)) {
			int rc = object_dups(c, f, depth);
			if (rc)
				return rc;
		}
		if (rt__jchild(node) && depth < RT_JPOS_MAXDEPTH + 2) {
			f[depth++] = (struct frame){ node, rt__jchild(node), 0 };
			continue;
		}
		top->cur = rt__jnext(node);
		top->idx++;
	}
	return 0;
}

static const char *ver_str(const struct rt__jnode *ver, char *buf, size_t len)
{
	if (rt__jis_str(ver))
		return rt__jstr(ver);
	if (rt__jis_num(ver)) {
		snprintf(buf, len, "%.1f", rt__jnum(ver));
		return buf;
	}
	return NULL;
}

/* A table without "version": the legacy group_list format, a status placeholder, something
 * that is no rank table, or one whose version was left out. */
static int load_unversioned(struct rt__ctx *c, const struct rt__jnode *sl,
			    const struct rt__jnode *rl, const struct rt__jnode *gl)
{
	struct rt_table *t = c->t;
	const struct rt__jnode *root = c->root;
	if (gl) {
		t->format = RT_FMT_LEGACY;
		return rt__load_legacy(c);
	}
	if (!sl && !rl) {
		if (rt__jget(root, "status")) {
			/* MindCluster's ConfigMap starts as {"status":"initializing"}. */
			rt__check_status(c, root, 1);
			if (c->d->n && !strcmp(c->d->v[c->d->n - 1].code, "status-not-ready"))
				return 0;
		}
		rt__report(c, "not-a-ranktable", root, 0, "$",
			   "a rank table has \"version\" and \"server_list\" (1.0, 1.2) or "
			   "\"rank_list\" (2.0)",
			   "no \"version\", \"server_list\", \"rank_list\" or \"group_list\": "
			   "this is not a rank table");
		return 0;
	}
	rt__report(c, "version-missing", root, 0, "$.version",
		   rl ? "add \"version\": \"2.0\""
		      : "add \"version\": \"1.0\" (or \"1.2\" with super pods)",
		   "missing \"version\"; HCCL then reads the file as the legacy group_list "
		   "format and fails");
	if (rl) {
		t->format = RT_FMT_UNKNOWN;
		return rt__load_v2(c);
	}
	t->format = RT_FMT_UNKNOWN;
	return rt__load_v1(c, rt__jget(root, "super_pod_list") != NULL);
}

/* A table by its version; an unknown one is still checked by the layout it has, so that the
 * other problems show too. */
static int load_versioned(struct rt__ctx *c, const char *v, const struct rt__jnode *ver,
			  const struct rt__jnode *sl, const struct rt__jnode *rl,
			  const struct rt__jnode *gl)
{
	struct rt_table *t = c->t;
	const struct rt__jnode *root = c->root;
	if (v && !strcmp(v, "1.0")) {
		t->format = RT_FMT_V1_0;
		return rt__load_v1(c, 0);
	}
	if (v && !strcmp(v, "1.2")) {
		t->format = RT_FMT_V1_2;
		return rt__load_v1(c, 1);
	}
	if (v && !strcmp(v, "2.0")) {
		t->format = RT_FMT_V2_0;
		return rt__load_v2(c);
	}
	if (v) {
		rt__report(c, "version-unsupported", ver, 0, "$.version",
			   "use \"1.0\" (Atlas 910/A2), \"1.2\" (A3 super pods) or \"2.0\" (950)",
			   "version \"%s\" is not supported; HCCL knows \"1.0\", \"1.2\" and \"2.0\"%s",
			   v, !strcmp(v, "1.1") ? " (\"1.1\" is the undocumented heterogeneous format)"
						: "");
	}
	/* Unknown version: check the layout it has, so the other problems show too. */
	t->format = RT_FMT_UNKNOWN;
	if (rl)
		return rt__load_v2(c);
	if (sl)
		return rt__load_v1(c, rt__jget(root, "super_pod_list") != NULL);
	if (gl)
		return rt__load_legacy(c);
	return 0;
}

static int detect_and_check(struct rt__ctx *c)
{
	struct rt_table *t = c->t;
	const struct rt__jnode *root = c->root;
	char vb[32];

	if (!rt__jis_obj(root)) {
		rt__report(c, "not-a-ranktable", root, 0, "$",
			   "a rank table is a JSON object with \"version\" and \"server_list\"",
			   "the document is %s, not a rank table object", rt__type(root));
		return 0;
	}
	const struct rt__jnode *ver = rt__jget(root, "version");
	const struct rt__jnode *sl = rt__jget(root, "server_list");
	const struct rt__jnode *rl = rt__jget(root, "rank_list");
	const struct rt__jnode *gl = rt__jget(root, "group_list");
	int topo = rt__jget(root, "peer_list") ||
		   rt__jget(root, "edge_list");
	const char *v = ver_str(ver, vb, sizeof(vb));

	if (v) {
		/* Truncated like any other too-long value: it is reported, never trusted. */
		size_t n = strnlen(v, sizeof(t->version) - 1);
		memcpy(t->version, v, n);
		t->version[n] = 0;
	}
	/* Tables that are not HCCL's, with the version of the HCCL table they derive from. */
	if (!sl && !rl && (rt__jget(root, "prefill_device_list") ||
			   rt__jget(root, "decode_device_list"))) {
		t->format = RT_FMT_VLLM_PD;
		c->foreign = 1;
		return rt__load_vllm_pd(c);
	}
	if (!sl && !rl && rt__jget(root, "server_group_list")) {
		t->format = RT_FMT_GLOBAL;
		c->foreign = 1;
		return rt__load_global(c);
	}
	if (!ver && !sl && !rl && !gl &&
	    rt__jis_obj(rt__jget(root, "RankTable"))) {
		t->format = RT_FMT_GE_CLUSTER;
		c->foreign = 1;
		return rt__load_ge_cluster(c);
	}
	if (topo && !sl && !rl) {
		t->format = RT_FMT_TOPO;
		rt__report(c, "topology-file", root, 0, "$",
			   "HCCL reads the topology file itself from /usr/local/Ascend/driver/topo/; "
			   "pass the rank table (the file with rank_list) instead",
			   "this is a version 2.0 topology file (peer_list, edge_list), not a rank "
			   "table");
		return 0;
	}
	if (ver && !rt__jis_str(ver)) {
		if (rt__jis_num(ver))
			rt__report(c, "value-not-string", ver, 0, "$.version",
				   "write \"version\": \"1.0\" (or \"1.2\", \"2.0\") with quotes",
				   "version %s is a number, not a string; HCCL rejects it and "
				   "misleadingly reports it as missing",
				   vb);
		else
			rt__report(c, "value-type", ver, 0, "$.version", NULL,
				   "version must be a string, not %s", rt__type(ver));
	}
	if (!ver)
		return load_unversioned(c, sl, rl, gl);
	return load_versioned(c, v, ver, sl, rl, gl);
}

int rt_table_load(struct rt_table *t, const char *name, const char *buf, size_t len,
		  struct rt_diags *diags, char *err, size_t errlen)
{
	struct rt__priv *pv;
	size_t n0 = diags->n;
	int rc;

	memset(t, 0, sizeof(*t));
	snprintf(t->name, sizeof(t->name), "%s", name ? name : "-");
	pv = calloc(1, sizeof(*pv));
	if (!pv) {
		snprintf(err, errlen, "%s: out of memory", t->name);
		return -ENOMEM;
	}
	t->priv = pv;

	rc = rt__jpos_parse(&pv->pos, &pv->tree, buf, len);
	if (rc == -EINVAL) {
		rc = rt_diags_add(diags, RT_SEV_ERROR, "json-syntax", pv->pos.eline, pv->pos.ecol,
				  "$", "fix the JSON syntax first; 'python3 -m json.tool FILE' shows "
				       "the same place",
				  "%s (HCCL EI0004)", pv->pos.emsg);
		snprintf(err, errlen, "%s:%u:%u: not JSON: %s", t->name, pv->pos.eline,
			 pv->pos.ecol, pv->pos.emsg);
		return rc ? rc : -EINVAL;
	}
	if (rc)
		goto nomem;

	struct rt__ctx c = { t, diags, &pv->pos, pv->tree.root, 0, 0, 0 };
	rc = find_dup_keys(&c);
	if (!rc)
		rc = detect_and_check(&c);
	if (!rc)
		rc = c.err;
	if (rc)
		goto nomem;

	if (diags->n > n0) {
		struct rt_diags view = { diags->v + n0, diags->n - n0, diags->n - n0, 0, 0, 0 };
		rt_diags_sort(&view);
	}
	return 0;

nomem:
	snprintf(err, errlen, "%s: out of memory", t->name);
	return -ENOMEM;
}

void rt_table_release(struct rt_table *t)
{
	struct rt__priv *pv = t->priv;
	if (pv) {
		rt__tree_release(&pv->tree);
		rt__jpos_release(&pv->pos);
		free(pv);
	}
	free(t->ranks);
	free(t->servers);
	memset(t, 0, sizeof(*t));
}

int rt_json_status(const char *buf, size_t len, const char **end)
{
	struct rt__jpos p;
	struct rt__tree t;
	int init = -1;
	if (!rt__jpos_parse(&p, &t, buf, len)) {
		const struct rt__jnode *st = rt__jget(t.root, "status");
		init = rt__jis_str(st) && !strcmp(rt__jstr(st), "initializing");
	} else if (end) {
		*end = buf + p.eoff;
	}
	rt__tree_release(&t);
	rt__jpos_release(&p);
	return init;
}

/* ---- digest ---- */

static void fnv_bytes(uint64_t *h, const void *p, size_t n)
{
	const unsigned char *b = p;
	for (size_t i = 0; i < n; i++) {
		*h ^= b[i];
		*h *= 0x100000001b3ULL;
	}
}

/* Each field is written with a tag byte, so NULL ("\1") differs from "" ("\2" then ""). */
static void fnv_str(uint64_t *h, const char *s)
{
	unsigned char tag = s ? 2 : 1;
	fnv_bytes(h, &tag, 1);
	if (s)
		fnv_bytes(h, s, strlen(s) + 1);
}

static void fnv_long(uint64_t *h, long v)
{
	char b[32];
	snprintf(b, sizeof(b), "%ld", v);
	fnv_str(h, b);
}

static int cmp_rank_ptr(const void *a, const void *b)
{
	const struct rt_rank *x = *(const struct rt_rank *const *)a;
	const struct rt_rank *y = *(const struct rt_rank *const *)b;
	if (x->rank_id != y->rank_id)
		return x->rank_id < y->rank_id ? -1 : 1;
	return (x > y) - (x < y); /* file order among equal (bad) ids */
}

void rt_table_digest(const struct rt_table *t, char out[17])
{
	uint64_t h = 0xcbf29ce484222325ULL;
	const struct rt_rank **v = malloc((t->nranks ? t->nranks : 1) * sizeof(*v));

	fnv_str(&h, t->version);
	if (v) {
		for (size_t i = 0; i < t->nranks; i++)
			v[i] = &t->ranks[i];
		qsort(v, t->nranks, sizeof(*v), cmp_rank_ptr);
	}
	for (size_t i = 0; i < t->nranks; i++) {
		/* Without memory to sort, file order still gives a stable digest. */
		const struct rt_rank *r = v ? v[i] : &t->ranks[i];
		fnv_long(&h, r->rank_id);
		fnv_str(&h, r->server_id);
		fnv_long(&h, r->device_id);
		fnv_str(&h, r->device_ip);
		fnv_str(&h, r->super_pod_id);
		fnv_long(&h, r->super_device_id);
		fnv_str(&h, r->host_ip);
	}
	free(v);
	snprintf(out, 17, "%016llx", (unsigned long long)h);
}
