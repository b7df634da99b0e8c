/* Values of a log line and their roles: see extract.h. One pass over the line: at each word
 * start an address ("10.0.0.2", "fe80::1", "::ffff:10.0.0.2"), a host in the forms that carry
 * a port ("[node1]:29500", "(node1, 29500)", "tcp://node1:29500"), or a key of the table
 * below followed by a number. The port that goes with an address is read from what follows
 * it, whichever way the stack writes it. The role comes from the key itself ("remoteRank"),
 * else from the words just after the value (HCCP's "the IP address(A) in the ranktable is
 * inconsistent with the IP(B)address of the network adapter": A the table's, B the NIC's),
 * else from the nearest role word before it ("connect to", "peer", "local", "listen on"). */
#include <stdio.h>
#include <ctype.h>
#include <pthread.h>
#include <string.h>
#include <strings.h>

#include "probes/logs/extract.h"
#include "probes/logs/logtext.h"

#define WINDOW 48 /* bytes around a value where its role words are looked for */

/* Keys before a number, longest first where one begins another. Sources of the spellings:
 * HCCL and HCCP plogs (localUserrank, remoteUserrank, dst_rank, RankID, rankId, user_rank,
 * devicePhyId, deviceLogicId, logicDevid, phy_id, "physic id", chipId, devId), torch and
 * NCCL ("rank 3", "[Rank 3]", "cudaDev 0", "port: 29500"), vLLM ("device(3)"). */
/* A key whose number must follow after blanks only (what | BLANK_ONLY). */
#define BLANK_ONLY 0x100
static const struct key {
	const char *k;
	int what, role; /* what: enum hx_what, or'ed with BLANK_ONLY */
} keys[] = {
	{"localUserrank", HX_RANK, HX_LOCAL},
	{"remoteUserrank", HX_RANK, HX_REMOTE},
	{"localRank", HX_RANK, HX_LOCAL},
	{"local_rank", HX_RANK, HX_LOCAL},
	{"remoteRank", HX_RANK, HX_REMOTE},
	{"remote_rank", HX_RANK, HX_REMOTE},
	{"remote rank", HX_RANK, HX_REMOTE},
	{"peer rank", HX_RANK, HX_REMOTE},
	{"srcRank", HX_RANK, HX_LOCAL},
	{"src_rank", HX_RANK, HX_LOCAL},
	/* Gloo's pair timeout: "TIMEOUT self_rank = 0 pair_rank = 1 peer_str = [ip]:port" */
	{"self_rank", HX_RANK, HX_LOCAL},
	{"pair_rank", HX_RANK, HX_REMOTE},
	{"dstRank", HX_RANK, HX_REMOTE},
	{"dst_rank", HX_RANK, HX_REMOTE},
	{"user_rank", HX_RANK, HX_ANY},
	/* Horovod's stall report names the ranks the others wait for: "HorovodBroadcast_global_step_0
	 * [missing ranks: 1]" */
	{"missing ranks", HX_RANK, HX_REMOTE},
	{"userRank", HX_RANK, HX_ANY},
	{"RankID", HX_RANK, HX_ANY},
	{"rank_id", HX_RANK, HX_ANY},
	{"rank", HX_RANK, HX_ANY},
	/* a process by its index in the job: Slurm's "srun: error: node7: task 3: Exited with
	 * exit code 1", TensorFlow's and JAX's "/job:worker/replica:0/task:3" */
	{"task", HX_RANK, HX_ANY},
	{"devicePhyId", HX_DEV, HX_ANY},
	{"deviceLogicId", HX_DEV, HX_ANY},
	{"localDeviceId", HX_DEV, HX_LOCAL},
	{"remoteDeviceId", HX_DEV, HX_REMOTE},
	{"logicDevid", HX_DEV, HX_ANY},
	{"deviceId", HX_DEV, HX_ANY},
	{"device_id", HX_DEV, HX_ANY},
	{"device ID", HX_DEV, HX_ANY},
	/* CUDA's and TensorFlow's: "for CUDA device ordinal 0" */
	{"device ordinal", HX_DEV, HX_ANY},
	/* the NVIDIA driver names a GPU by its minor number (/dev/nvidiaN): "rm_init_adapter
	 * failed for device bearing minor number 0" */
	{"minor number", HX_DEV, HX_ANY},
	{"device", HX_DEV, HX_ANY},
	{"devId", HX_DEV, HX_ANY},
	{"dev", HX_DEV, HX_ANY},
	{"cudaDev", HX_DEV, HX_ANY},
	{"chipId", HX_DEV, HX_ANY},
	{"chip", HX_DEV, HX_ANY},
	{"phy_id", HX_DEV, HX_ANY},
	{"phyId", HX_DEV, HX_ANY},
	{"physic id", HX_DEV, HX_ANY},
	{"npu", HX_DEV, HX_ANY},
	/* a card by its number, in Chinese: "NPU 卡 7 已损坏" (NPU card 7 is damaged) */
	{"卡", HX_DEV, HX_ANY},
	/* PyTorch's out-of-memory message and nvidia-smi's: "GPU 7 has a total capacity of
	 * 139.80 GiB" (not a PCI bus id, "GPU 0000:0F:00.0", nor a host, "GPU-94:3087588") */
	{"gpu", HX_DEV | BLANK_ONLY, HX_ANY},
	{"dest_port", HX_PORT, HX_REMOTE},
	{"src_port", HX_PORT, HX_LOCAL},
	{"port", HX_PORT, HX_ANY},
};

/* Words before a value that say which end it is; the nearest one counts. */
static const struct key role_before[] = {
	{"remote", 0, HX_REMOTE},     {"peer", 0, HX_REMOTE},	     {"dst", 0, HX_REMOTE},
	/* verbs' address handle: "dgid=::ffff:192.160.0.55 sgid_index=3" */
	{"dgid", 0, HX_REMOTE},	      {"sgid", 0, HX_LOCAL},
	{"dest", 0, HX_REMOTE},	      {"connect to", 0, HX_REMOTE},  {"connect server", 0, HX_REMOTE},
	{"connecting to", 0, HX_REMOTE}, {"to server", 0, HX_REMOTE}, {"local", 0, HX_LOCAL},
	{"src", 0, HX_LOCAL},	      {"source", 0, HX_LOCAL},	     {"listen on", 0, HX_LOCAL},
	{"bind", 0, HX_LOCAL},	      {"This node", 0, HX_LOCAL},    {"Discoverer", 0, HX_LOCAL},
	/* Gloo's pair: "connect [10.0.0.2]:4321: Connection refused", "Read error [...]" */
	{"connect [", 0, HX_REMOTE},  {"read error", 0, HX_REMOTE},  {"write error", 0, HX_REMOTE},
	/* NCCL: "Call to recv from 10.200.84.247<58355> failed : Broken pipe" */
	{"recv from", 0, HX_REMOTE},  {"send to", 0, HX_REMOTE},    {"received from", 0, HX_REMOTE},
	/* Ray's prefix names the worker's own node: "(RayWorkerWrapper pid=11394, ip=10.0.1.4)" */
	{"pid=", 0, HX_LOCAL},
	/* UCX: "Failed to resolve UCX endpoint for rank 9" */
	{"endpoint for", 0, HX_REMOTE},
	/* NCCL's proxy: "Proxy Call to rank 7 failed (Connect)" */
	{"call to", 0, HX_REMOTE},
};

/* A name that ends so is a file and line ("pair.cc:538", grep's "kbox.txt:2014"), not a host
 * and port. */
static const char *const src_ext[] = {".c",  ".cc",  ".cpp", ".cxx", ".cu",   ".h",  ".hpp",
				      ".py", ".txt", ".log", ".json", ".conf", ".sh", ".out"};

/* Words after a value that say whose it is; the first one counts. */
static const struct key role_after[] = {
	{"ranktable", 0, HX_TABLE},
	{"rank table", 0, HX_TABLE},
	{"network adapter", 0, HX_NIC},
	/* older HCCP: "ip(A) is inconsistent with the IP address(B) of the network adapter" */
	{"is inconsistent with the IP", 0, HX_TABLE},
};

static int digit(char c)
{
	return c >= '0' && c <= '9';
}

static unsigned char lower(char c)
{
	return (unsigned char)(c >= 'A' && c <= 'Z' ? c + 32 : c);
}

/* strncasecmp's answer (ASCII; the tool never sets a locale) without measuring lit first:
 * this runs for every key at every word of every line, and nearly all differ at once */
static int starts_nocase(const char *s, size_t n, const char *lit)
{
	size_t i = 0;
	for (; lit[i]; i++)
		if (i >= n || lower(s[i]) != lower(lit[i]))
			return 0;
	return 1;
}

/* Whether m[i] is inside a word or a dotted name: a role word is a word of its own, never
 * the tail of a host's name ("to server node100.local at port 54762" names the remote end;
 * its ".local" is no local end) nor of another word ("reallocate"). */
static int inside_name(struct pspan m, size_t i)
{
	if (!i)
		return 0;
	if (hlog__word_char(m.s[i - 1]))
		return 1;
	return m.s[i - 1] == '.' && i >= 2 && hlog__word_char(m.s[i - 2]);
}

/* The role a value at [at, end) of m plays, by the words around it. */
static int role_at(struct pspan m, size_t at, size_t end)
{
	size_t lim = end + WINDOW < m.n ? end + WINDOW : m.n;
	for (size_t i = end; i < lim; i++)
		for (size_t k = 0; k < sizeof(role_after) / sizeof(role_after[0]); k++)
			if (starts_nocase(m.s + i, lim - i, role_after[k].k))
				return role_after[k].role;
	size_t from = at > WINDOW ? at - WINDOW : 0;
	/* within the clause: a role word of the sentence before says nothing of this one */
	for (size_t i = at; i-- > from;)
		if (m.s[i] == '!' || m.s[i] == ';' || m.s[i] == '|' ||
		    (m.s[i] == '.' && i + 1 < m.n && m.s[i + 1] == ' '))
			from = i + 1;
	for (size_t i = at; i-- > from;) {
		if (inside_name(m, i))
			continue;
		for (size_t k = 0; k < sizeof(role_before) / sizeof(role_before[0]); k++) {
			size_t l = strlen(role_before[k].k);
			/* "localhost" is a host's name, not the word "local" */
			if (starts_nocase(m.s + i, at - i, role_before[k].k) &&
			    !starts_nocase(m.s + i + l, at - i - l, "host"))
				return role_before[k].role;
		}
	}
	return HX_ANY;
}

static struct hx_val *add(struct hx_vals *x, int what, int role, size_t at)
{
	if (x->n == HX_MAX) {
		x->dropped++;
		return NULL;
	}
	struct hx_val *v = &x->v[x->n++];
	memset(v, 0, sizeof(*v));
	v->what = what;
	v->role = role;
	v->at = at;
	return v;
}

/* Decimal digits at s (at most 10): their value and count, 0 when none. */
static size_t number(const char *s, size_t n, long long *v)
{
	size_t i = 0;
	long long x = 0;
	while (i < n && i < 10 && digit(s[i]))
		x = x * 10 + (s[i++] - '0');
	*v = x;
	return i < n && digit(s[i]) ? 0 : i;
}

static void add_port(struct hx_vals *x, long long p, int role, size_t at)
{
	struct hx_val *v = p > 0 && p < 65536 ? add(x, HX_PORT, role, at) : NULL;
	if (v)
		v->n = p;
}

/* The port written right after an address or host that ends at i: "]:P", ":P", "<P>",
 * ", P)" (when open is '('), " : P". */
static void port_after(struct pspan m, size_t i, int open, int role, struct hx_vals *x)
{
	static const char *const seps[] = {"]:", ":", "<", " : ", ", ", ","};
	for (size_t k = 0; k < sizeof(seps) / sizeof(seps[0]); k++) {
		size_t l = strlen(seps[k]);
		if (!starts_nocase(m.s + i, m.n - i, seps[k]))
			continue;
		if ((seps[k][0] == ',') != (open == '('))
			continue;
		long long p;
		size_t d = number(m.s + i + l, m.n - i - l, &p);
		if (d)
			add_port(x, p, role, i + l);
		return;
	}
}

/* An address at i: IPv4, IPv6 (not a C++ "a::b" or a time), or "::ffff:" and IPv4. */
static size_t ip_here(struct pspan m, size_t i, char *out, size_t outlen)
{
	struct pspan t = {m.s + i, m.n - i};
	if (starts_nocase(t.s, t.n, "::ffff:")) {
		struct pspan v4 = {t.s + 7, t.n - 7};
		size_t k = hlog__ip_at(v4, out, outlen);
		if (k && strchr(out, '.'))
			return k + 7;
	}
	size_t k = hlog__ip_at(t, out, outlen);
	if (!k || strchr(out, '.'))
		return k;
	/* a percent-encoded byte is no address's start: gRPC's target "ipv6:%5B::%5D:50005"
	 * ("[::]", an unspecified address) would read as "5B::" */
	if (i && m.s[i - 1] == '%')
		return 0;
	/* IPv6: a letter right after is a word ("std::string"); a bare "::" only in brackets */
	if (k < t.n && (hlog__word_char(t.s[k]) || t.s[k] == '.'))
		return 0;
	if (!strcmp(out, "::") && !(i && m.s[i - 1] == '[' && k < t.n && t.s[k] == ']'))
		return 0;
	return k;
}

/* Whether m[i..] has n hex digits then c (c 0: then nothing that continues a word). */
static int hex_then(struct pspan m, size_t i, size_t n, char c)
{
	for (size_t k = 0; k < n; k++)
		if (i + k >= m.n || !isxdigit((unsigned char)m.s[i + k]))
			return 0;
	if (c)
		return i + n < m.n && m.s[i + n] == c;
	return i + n >= m.n || !(hlog__word_char(m.s[i + n]) || m.s[i + n] == ':');
}

/* A device's PCI address: "0000:91:00.0" (domain, bus, device, function: the kernel's and
 * nvidia-smi's form) or the NVIDIA driver's "PCI:0000:91:00" (a GPU is function 0), kept as
 * "0000:91:00.0" in lower case. A bus without its domain ("91:00.0", lspci's) reads as a
 * time too often to count. */
static size_t pci_here(struct pspan m, size_t i, struct hx_vals *x)
{
	size_t a = i + (starts_nocase(m.s + i, m.n - i, "PCI:") ? 4 : 0);
	if (!hex_then(m, a, 4, ':') || !hex_then(m, a + 5, 2, ':'))
		return 0;
	size_t e;
	char fn = '0';
	/* the kernel's "amdgpu 0000:1c:00.0: ..." ends it with a colon; more hex after one is
	 * something else */
	size_t f = a + 12;
	if (hex_then(m, a + 8, 2, '.') && a + 11 < m.n && m.s[a + 11] >= '0' && m.s[a + 11] <= '7' &&
	    (f >= m.n || !(hlog__word_char(m.s[f]) || m.s[f] == '.' ||
			   (m.s[f] == ':' && f + 1 < m.n && isxdigit((unsigned char)m.s[f + 1])))))
		fn = m.s[a + 11], e = a + 12;
	else if (a > i && hex_then(m, a + 8, 2, 0))
		e = a + 10;
	else
		return 0;
	struct hx_val *v = add(x, HX_PCI, HX_ANY, a);
	if (v) {
		for (size_t k = 0; k < 10; k++)
			v->s[k] = (char)tolower((unsigned char)m.s[a + k]);
		v->s[10] = '.';
		v->s[11] = fn;
		v->s[12] = '\0';
	}
	return e;
}

/* An RDMA device by its name, as the kernel's drivers name them (rdma-core's providers): a
 * driver's prefix, then its number ("mlx5_18", "mlx5_0:1" with its port after, "bnxt_re2",
 * "erdma_0", "hns_0", "irdma1", "cxi3") or udev's predictable name ("rocep152s0f0", "ibp12s0"). */
static size_t rdma_here(struct pspan m, size_t i, struct hx_vals *x)
{
	static const char *const drivers[] = {"mlx4_", "mlx5_", "bnxt_re", "erdma_", "irdma",
					      "hfi1_", "qib", "efa_", "rxe", "siw", "hns_",
					      "qedr", "ionic_", "cxgb4_", "ocrdma", "vmw_pvrdma",
					      "mana_", "rocep", "ibp",
					      /* HPE Slingshot's Cassini NICs: "cxi3[hsn3]" */
					      "cxi"};
	if (i >= m.n)
		return 0;
	for (size_t d = 0; d < sizeof(drivers) / sizeof(drivers[0]); d++) {
		if (m.s[i] != drivers[d][0]) /* most words start with no driver's letter */
			continue;
		size_t l = strlen(drivers[d]);
		if (i + l >= m.n || strncmp(m.s + i, drivers[d], l) || !digit(m.s[i + l]))
			continue;
		size_t k = i + l;
		while (k < m.n && k - i < HX_TEXTLEN - 1 &&
		       (isalnum((unsigned char)m.s[k]) || m.s[k] == '_'))
			k++;
		/* a sentence's full stop may end it ("on mlx5_0."), a name's dot may not */
		if (k < m.n && (m.s[k] == '-' ||
				(m.s[k] == '.' && k + 1 < m.n && hlog__word_char(m.s[k + 1]))))
			return 0;
		struct hx_val *v = add(x, HX_RDMA, HX_ANY, i);
		if (v)
			probe__copy(v->s, sizeof(v->s), (struct pspan){m.s + i, k - i});
		return k;
	}
	return 0;
}

/* The end of a host name that starts at i (word bytes, '-' and '.', at most HX_TEXTLEN - 1 of
 * them), or i when what is there has no letter (a number, an address) and so names no host. */
static size_t host_name_end(struct pspan m, size_t i)
{
	size_t k = i, letter = 0;
	while (k < m.n && k - i < HX_TEXTLEN - 1 &&
	       (hlog__word_char(m.s[k]) || m.s[k] == '-' || m.s[k] == '.')) {
		letter |= !digit(m.s[k]) && m.s[k] != '.';
		k++;
	}
	return letter ? k : i;
}

/* A host named at [a, k) and its port p at pat, in the role the words around give both. */
static void host_port(struct pspan m, size_t a, size_t k, long long p, size_t pat,
		      struct hx_vals *x)
{
	int role = role_at(m, a, k);
	struct hx_val *h = add(x, HX_HOST, role, a);
	if (h)
		probe__copy(h->s, sizeof(h->s), (struct pspan){m.s + a, k - a});
	add_port(x, p, role, pat);
}

/* The word host, then the end it names and its port: OpenSSH's "connect to host NAME port P"
 * ("ssh: connect to host localhost port 22: Connection refused"), c10d's "failed to
 * connect/validate to host slinky-0:29400"; an address there is read as an address. */
static size_t host_port_words(struct pspan m, size_t i, struct hx_vals *x)
{
	/* or connect's object and "on" its port: MPICH's PMI client, "Unable to connect to
	 * MAC-140753 on 54163" */
	int on = starts_nocase(m.s + i, m.n - i, "connect to ");
	if (!on && !starts_nocase(m.s + i, m.n - i, "host "))
		return 0;
	size_t a = i + (on ? 11 : 5), k = host_name_end(m, a), sep = 0;
	long long v;
	size_t d;
	if (on)
		sep = k > a && starts_nocase(m.s + k, m.n - k, " on ") ? 4 : 0;
	else if (k > a && starts_nocase(m.s + k, m.n - k, " port "))
		sep = 6;
	else if (k > a && k < m.n && m.s[k] == ':')
		sep = 1;
	if (!sep || !(d = number(m.s + k + sep, m.n - k - sep, &v)) || v < 1 || v > 65535 ||
	    (k + sep + d < m.n && hlog__word_char(m.s[k + sep + d])))
		return 0;
	host_port(m, a, k, v, k + sep, x);
	return k + sep + d;
}

/* "[host]:P", "(host, P)", "//host:P": a name with a letter, then its port. */
/* A value added before the port just read after it, in the order of the line (the host
 * before its port); NULL when the table is full. */
static struct hx_val *add_before_port(struct hx_vals *x, int what, int role, size_t at)
{
	if (!add(x, what, role, at))
		return NULL;
	struct hx_val tmp = x->v[x->n - 1];
	x->v[x->n - 1] = x->v[x->n - 2];
	x->v[x->n - 2] = tmp;
	return &x->v[x->n - 2];
}

static size_t host_here(struct pspan m, size_t i, struct hx_vals *x)
{
	char open = i ? m.s[i - 1] : 0;
	if (open != '[' && open != '(' && open != '/')
		return 0;
	/* a URL's "//host:P", not a path's "dir/file.ts:83" (a file and its line) */
	if (open == '/' && (i < 2 || m.s[i - 2] != '/'))
		return 0;
	size_t k = host_name_end(m, i);
	if (k == i || k >= m.n)
		return 0;
	char close = m.s[k];
	for (size_t e = 0; e < sizeof(src_ext) / sizeof(src_ext[0]); e++) {
		size_t l = strlen(src_ext[e]);
		if (k - i > l && !strncasecmp(m.s + k - l, src_ext[e], l))
			return 0;
	}
	if (!((open == '[' && close == ']') || (open == '(' && close == ',') ||
	      (open == '/' && close == ':')))
		return 0;
	size_t n0 = x->n;
	int role = role_at(m, i, k);
	port_after(m, k, open, role, x);
	if (x->n == n0)
		return 0; /* a name in brackets without a port is not a host: "[ERROR]" */
	struct hx_val *h = add_before_port(x, HX_HOST, role, i);
	if (h)
		probe__copy(h->s, sizeof(h->s), (struct pspan){m.s + i, k - i});
	return k;
}

/* A host name of digits alone, given with its port as a pair after the word "address":
 * c10d's "failed to connect to any network address of (6841231, 47389)". The resolver reads
 * such a name as an IPv4 address written as one number (inet_aton: 6841231 is 0.104.99.143),
 * which is the address the connects went to: kept as that address. */
static size_t number_host_here(struct pspan m, size_t i, struct hx_vals *x)
{
	if (!i || m.s[i - 1] != '(' || !digit(m.s[i]))
		return 0;
	size_t from = i > 40 ? i - 40 : 0;
	if (!hlog__find_nocase((struct pspan){m.s + from, i - from}, "address"))
		return 0;
	long long n;
	size_t d = number(m.s + i, m.n - i, &n);
	/* more than an octet: a pair of small numbers is no address */
	if (!d || d > 10 || n < 256 || n > 0xffffffffLL || i + d >= m.n || m.s[i + d] != ',')
		return 0;
	size_t n0 = x->n;
	int role = role_at(m, i, i + d);
	port_after(m, i + d, '(', role, x);
	if (x->n == n0)
		return 0;
	struct hx_val *v = add_before_port(x, HX_IP, role, i);
	if (v)
		snprintf(v->s, sizeof(v->s), "%lld.%lld.%lld.%lld", n >> 24, (n >> 16) & 255,
			 (n >> 8) & 255, n & 255);
	return i + d;
}

/* An address its writer hid, then its port: "16x.1xx.1xx.1xx:3026", "xxx.xxx.xxx.xxx:29500"
 * (four groups of up to 3 digits, 'x' or '*', one at least not a digit) or a placeholder
 * "<my_ip_addr>:34567". The address is kept as a host (it names none the reader could
 * reach), so that the port is the line's peer's or own as its words say. */
static size_t masked_here(struct pspan m, size_t i, struct hx_vals *x)
{
	size_t k = i;
	if (m.s[i] == '<') {
		while (++k < m.n && k - i < HX_TEXTLEN - 1 &&
		       (hlog__word_char(m.s[k]) || m.s[k] == '-'))
			;
		if (k == i + 1 || k >= m.n || m.s[k++] != '>')
			return 0;
	} else {
		int hidden = 0;
		for (int g = 0; g < 4; g++) {
			size_t s = k;
			while (k < m.n && k - s < 3 &&
			       (digit(m.s[k]) || m.s[k] == 'x' || m.s[k] == 'X' || m.s[k] == '*'))
				hidden |= !digit(m.s[k++]);
			if (k == s || (g < 3 && (k >= m.n || m.s[k++] != '.')))
				return 0;
		}
		if (!hidden)
			return 0;
	}
	long long p;
	size_t d = k + 1 < m.n && m.s[k] == ':' ? number(m.s + k + 1, m.n - k - 1, &p) : 0;
	/* not a prefix's "<host>:pid:tid" (NCCL's, UCX's) nor "<stdout>:192.168.0.138" */
	size_t e = k + 1 + d;
	if (!d || (e < m.n && (hlog__word_char(m.s[e]) || m.s[e] == ':' || m.s[e] == '.')))
		return 0;
	host_port(m, i, k, p, k + 1, x);
	return k + 1 + d;
}

/* Whether the ':' at c ends gRPC's "ipv4" scheme word (its resolver names every address it
 * tried "ipv4:A.B.C.D:PORT"). */
static int grpc_scheme(struct pspan m, size_t c)
{
	return c >= 4 && !strncasecmp(m.s + c - 4, "ipv4", 4) &&
	       (c == 4 || !hlog__word_char(m.s[c - 5]));
}

static size_t ip_value(struct pspan m, size_t i, struct hx_vals *x)
{
	char ip[HX_TEXTLEN];
	size_t k = ip_here(m, i, ip, sizeof(ip));
	if (!k)
		return 0;
	/* gRPC names by its scheme the targets its channels connect to: a peer's */
	int role = i && grpc_scheme(m, i - 1) ? HX_REMOTE : role_at(m, i, i + k);
	struct hx_val *v = add(x, HX_IP, role, i);
	if (v)
		snprintf(v->s, sizeof(v->s), "%s", ip);
	char open = i ? m.s[i - 1] : 0;
	size_t e = i + k;
	/* a Python tuple's address, quoted: Horovod's "{'ens192': [('192.168.21.50', 8394)]}" */
	if ((open == '\'' || open == '"') && i >= 2 && m.s[i - 2] == '(' && e < m.n &&
	    m.s[e] == open) {
		open = '(';
		e++;
	}
	/* a LINK_ERROR_INFO cell "ip(user_rank)" */
	long long r;
	size_t d;
	if (e + 2 < m.n && m.s[e] == '(' && (d = number(m.s + e + 1, m.n - e - 1, &r)) &&
	    e + 1 + d < m.n && m.s[e + 1 + d] == ')' && r < 0x7fffffff) {
		struct hx_val *rv = add(x, HX_RANK, role, e);
		if (rv)
			rv->n = r;
		return e + 2 + d;
	}
	/* an IPv6 address's zone (RFC 4007: "fe80::c4eb:49ff:fe04:e32d%6<57335>", NCCL's form
	 * for a link-local peer) comes before its port */
	if (!strchr(ip, '.') && e + 1 < m.n && m.s[e] == '%' && hlog__word_char(m.s[e + 1]))
		for (e++; e < m.n && (hlog__word_char(m.s[e]) || m.s[e] == '-' || m.s[e] == '.');)
			e++;
	/* an unbracketed IPv6 address swallows ":port" itself */
	if (strchr(ip, '.') || open == '[' || (e < m.n && m.s[e] != ':'))
		port_after(m, e, open, role, x);
	return e;
}

/* The bytes a key of the table may start with, in either case: a word that starts with
 * another is tried against none of them (the extractor tries every word of every line). */
static unsigned char key_lead[256];
static pthread_once_t key_lead_once = PTHREAD_ONCE_INIT;

static void build_key_lead(void)
{
	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
		unsigned char c = (unsigned char)keys[k].k[0];
		key_lead[c] = 1;
		key_lead[(unsigned char)tolower(c)] = 1;
		key_lead[(unsigned char)toupper(c)] = 1;
	}
}

/* Whether the words before i are the start of one of strerror's texts that end in
 * "device" (ENOSPC's, ENODEV's, ENXIO's). */
static int errno_words_before(struct pspan m, size_t i)
{
	static const char *const lead[] = {"space left on ", "no such "};
	for (size_t k = 0; k < sizeof(lead) / sizeof(lead[0]); k++) {
		size_t l = strlen(lead[k]);
		if (i >= l && !strncasecmp(m.s + i - l, lead[k], l))
			return 1;
	}
	return 0;
}

/* A key of the table at i and the number after it. */
static size_t key_value(struct pspan m, size_t i, struct hx_vals *x)
{
	pthread_once(&key_lead_once, build_key_lead);
	if (i >= m.n || !key_lead[(unsigned char)m.s[i]])
		return 0;
	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
		const struct key *y = &keys[k];
		int what = y->what & ~BLANK_ONLY, blank_only = y->what & BLANK_ONLY;
		if (!starts_nocase(m.s + i, m.n - i, y->k))
			continue;
		size_t l = strlen(y->k);
		/* "rank0" as PSM's prefix writes it ("server1:rank0.a.out: ..."); torch's
		 * "[rank1]:" is the line's prefix, which the line's parser reads */
		int glued = what == HX_RANK && l == 4 && i + l < m.n && digit(m.s[i + l]) &&
			    !(i && m.s[i - 1] == '[');
		if (i + l < m.n && hlog__word_char(m.s[i + l]) && !glued)
			continue;
		size_t j = i + l, skip = 0;
		/* "GPU 7" only: "gpu-153" and "GPU-94:3087588" are hosts */
		if (blank_only && (j >= m.n || m.s[j] != ' '))
			continue;
		/* "device-3" */
		if (what == HX_DEV && !blank_only && j + 1 < m.n && m.s[j] == '-' &&
		    digit(m.s[j + 1]))
			j++;
		/* the value quoted too: Accelerate's "on port `29500`" */
		while (j < m.n && skip < 4 && m.s[j] &&
		       strchr(blank_only ? " " : " [(:=#`'\"", m.s[j])) {
			j++;
			skip++;
		}
		long long v;
		size_t d = j < m.n ? number(m.s + j, m.n - j, &v) : 0;
		/* "rank -1", "port 1.5", "dev 0x1f" are not values; "rank 3." ending a sentence
		 * and "rank0.a.out" (a program's name after it) are */
		if (!d || (j + d < m.n && (hlog__word_char(m.s[j + d]) ||
					   (m.s[j + d] == '.' && j + d + 1 < m.n &&
					    digit(m.s[j + d + 1])))))
			continue;
		/* a PCI vendor:device pair ("pcieport 0000:00:03.0:   device [8086:6f08] error
		 * status"), not a device's index */
		if (what == HX_DEV && j + d + 1 < m.n && m.s[j + d] == ':' &&
		    isxdigit((unsigned char)m.s[j + d + 1]))
			continue;
		/* nor the errno number after the C library's words that end in "device" ("No space
		 * left on device [28]", "No such device (19)"): no device is named */
		if (what == HX_DEV && errno_words_before(m, i))
			continue;
		/* nor a number no node has as many devices as: NCCL's "rank 0 and rank 1 both on
		 * CUDA device 6000" names the GPU by its PCI bus id, in hex */
		if (what == HX_DEV && v > 1023)
			continue;
		int role = y->role != HX_ANY ? y->role : role_at(m, i, j + d);
		if (what == HX_PORT) {
			/* below 16, a device's port (verbs' "port=1 ... dgid=", a switch's "port
			 * 3"): no socket of these stacks listens there */
			if (v >= 16)
				add_port(x, v, role, i);
		} else if (v < 0x7fffffff) {
			struct hx_val *r = add(x, what, role, i);
			if (r)
				r->n = v;
		}
		struct pspan rest = {m.s + j + d, m.n - j - d};
		if (what == HX_RANK && !x->group[0] &&
		    (probe__starts(rest, " of group") || probe__starts(rest, " in group")))
			hlog__name_after(rest, "group", x->group, sizeof(x->group));
		return j + d;
	}
	return 0;
}

void hlog__extract(struct pspan m, struct hx_vals *x)
{
	memset(x, 0, sizeof(*x));
	for (size_t i = 0; m.s && i < m.n;) {
		char p = i ? m.s[i - 1] : 0;
		/* values begin a word: not inside a number, an address or a name; but a key may
		 * follow a qualified name's dot ("error creating nvml.Device 3: nvml: GPU is lost") */
		if (i && (hlog__word_char(p) || p == '.') && !starts_nocase(m.s + i, m.n - i, "::ffff:")) {
			size_t k = p == '.' && i > 1 && isalpha((unsigned char)m.s[i - 2]) &&
					   isalpha((unsigned char)m.s[i])
				       ? key_value(m, i, x)
				       : 0;
			i = k > i ? k : i + 1;
			continue;
		}
		/* after a single ':' an address would be the tail of a time or an IPv6 one, but
		 * for gRPC's address scheme: "ipv4:10.186.213.145:13305: Failed to connect" */
		int colon = p == ':' && i > 1 && m.s[i - 2] != ':' && !grpc_scheme(m, i - 1);
		size_t e = 0;
		if (!colon) {
			static size_t (*const at_start[])(struct pspan, size_t, struct hx_vals *) = {
				pci_here,	 ip_value,    host_here,	number_host_here,
				host_port_words, masked_here, rdma_here};
			for (size_t f = 0; !e && f < sizeof(at_start) / sizeof(at_start[0]); f++)
				e = at_start[f](m, i, x);
		}
		if (!e)
			e = key_value(m, i, x);
		i = e > i ? e : i + 1;
	}
	if (!x->group[0])
		hlog__name_after(m, "group:", x->group, sizeof(x->group));
}

void hlog__extract_later(struct pspan m, struct hx_vals *x)
{
	x->n = x->dropped = 0;
	x->group[0] = '\0';
	x->later = m.s ? m : (struct pspan){"", 0};
}

static const struct hx_vals *ready(const struct hx_vals *x)
{
	if (x->later.s) {
		struct hx_vals *w = (struct hx_vals *)x; /* never const: see extract.h */
		hlog__extract(x->later, w);
	}
	return x;
}

const char *hlog__xgroup(const struct hx_vals *x)
{
	return ready(x)->group;
}

const struct hx_val *hlog__xfind(const struct hx_vals *x, int what, unsigned roles)
{
	ready(x);
	for (size_t i = 0; i < x->n; i++)
		if (x->v[i].what == what && (roles & HX_R(x->v[i].role)))
			return &x->v[i];
	return NULL;
}

const char *hlog__xrole_name(int role)
{
	static const char *const n[] = {"any", "local", "remote", "table", "nic"};
	return role >= 0 && role <= HX_NIC ? n[role] : "?";
}

const char *hlog__xwhat_name(int what)
{
	static const char *const n[] = {"ip", "port", "host", "rank", "dev", "pci", "rdma"};
	return what >= 0 && what <= HX_RDMA ? n[what] : "?";
}

/* An address of this host itself: loopback or unspecified. */
static int self_address(const char *s)
{
	return !strncmp(s, "127.", 4) || !strcmp(s, "::1") || !strcmp(s, "0.0.0.0") ||
	       !strcmp(s, "::");
}

const struct hx_val *hlog__xfind_peer(const struct hx_vals *x, int what)
{
	const struct hx_val *v = hlog__xfind(x, what, 1u << HX_REMOTE);
	if (v || what != HX_IP)
		return v ? v : hlog__xfind(x, what, 1u << HX_ANY);
	/* a loopback address among others is a list of this host's interfaces ("{'lo':
	 * [('127.0.0.1', 55651)], 'eth0': [('192.168.101.5', 55651)]}"): the other one is the
	 * address that matters; alone, it is the one (a name that resolves to loopback) */
	const struct hx_val *first = NULL;
	for (size_t i = 0; i < x->n; i++) {
		if (x->v[i].what != HX_IP || x->v[i].role != HX_ANY)
			continue;
		if (!self_address(x->v[i].s))
			return &x->v[i];
		if (!first)
			first = &x->v[i];
	}
	return first;
}

const struct hx_val *hlog__xfind_own_port(const struct hx_vals *x)
{
	const struct hx_val *v = hlog__xfind(x, HX_PORT, HX_R(HX_LOCAL));
	if (!v || v->n < 1 || v->n > 65535 ||
	    !(hlog__xfind(x, HX_IP, HX_R(HX_LOCAL)) || hlog__xfind(x, HX_HOST, HX_R(HX_LOCAL))))
		return NULL;
	return v;
}

void hlog__xpeer(const struct hx_vals *x, struct hx_peer *p)
{
	p->ip = hlog__xfind_peer(x, HX_IP);
	p->port = hlog__xfind_peer(x, HX_PORT);
	p->rank = hlog__xfind(x, HX_RANK, 1u << HX_REMOTE);
	/* a port alone is a peer's when the line says so, or when it is a host name's
	 * ("[[n1.mytestdomain]:6818] failed: Socket timed out"): a bare number is not */
	if (p->port && (p->port->n < 0 || p->port->n > 65535 ||
			(!p->ip && p->port->role != HX_REMOTE && !hlog__xfind_peer(x, HX_HOST))))
		p->port = NULL;
	if (p->rank && (p->rank->n < 0 || p->rank->n >= 0x7fffffff))
		p->rank = NULL;
}
