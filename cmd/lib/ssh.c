/* libssh2 sessions. Every session is non-blocking and every wait is a poll() on its socket
 * with the caller's deadline, so that no host can hold a thread longer than it was given:
 * libssh2's own blocking calls only know one timeout for the whole session. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netdb.h>
#include <poll.h>
#include <pthread.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <libssh2.h>
#include <openssl/evp.h>

#include "cmd/lib/ssh.h"
#include "ranktable/base/clock.h"
#include "ranktable/base/plural.h"

#define DEFAULT_CAP (1024UL * 1024)
#define LINE_MAX_LEN 4096
#define PGID_MARKER "\036hcclctl-pgid "
#define CLOSE_GRACE_MS 2000 /* for the goodbye and the kill of a timed-out command */
#define CANCEL_GRACE_MS 3000 /* after a cancel, for the command to end and say how */

static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static int init_rc;

static void do_init(void)
{
	init_rc = libssh2_init(0);
}

int ssh_global_init(char *err, size_t errlen)
{
	pthread_once(&init_once, do_init);
	if (init_rc) {
		snprintf(err, errlen, "libssh2_init failed (%d)", init_rc);
		return -EPROTO;
	}
	return 0;
}

/* ---- shell quoting ---- */

size_t sh_quote(char *dst, size_t dstlen, const char *arg)
{
	size_t n = 0;
#define PUT(ch)                          \
	do {                             \
		if (n + 1 < dstlen)      \
			dst[n] = (ch);   \
		n++;                     \
	} while (0)
	PUT('\'');
	for (const char *p = arg; *p; p++) {
		if (*p == '\'') {
			/* close the quote, an escaped quote, reopen */
			PUT('\'');
			PUT('\\');
			PUT('\'');
			PUT('\'');
		} else {
			PUT(*p);
		}
	}
	PUT('\'');
#undef PUT
	if (dstlen)
		dst[n < dstlen ? n : dstlen - 1] = '\0';
	return n;
}

char *sh_join(int argc, const char *const argv[])
{
	size_t total = 1;
	for (int i = 0; i < argc; i++)
		total += sh_quote(NULL, 0, argv[i]) + 1;
	char *s = malloc(total);
	if (!s)
		return NULL;
	size_t off = 0;
	s[0] = '\0';
	for (int i = 0; i < argc; i++) {
		if (i)
			s[off++] = ' ';
		off += sh_quote(s + off, total - off, argv[i]);
	}
	return s;
}

/* ---- small helpers ---- */

void ssh_fingerprint(const unsigned char *sha256, char *out, size_t outlen)
{
	static const char b64[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	char enc[48];
	size_t n = 0;
	for (size_t i = 0; i < 32; i += 3) {
		unsigned v = (unsigned)sha256[i] << 16;
		if (i + 1 < 32)
			v |= (unsigned)sha256[i + 1] << 8;
		if (i + 2 < 32)
			v |= sha256[i + 2];
		enc[n++] = b64[(v >> 18) & 63];
		enc[n++] = b64[(v >> 12) & 63];
		if (i + 1 < 32)
			enc[n++] = b64[(v >> 6) & 63];
		if (i + 2 < 32)
			enc[n++] = b64[v & 63];
	}
	enc[n] = '\0'; /* OpenSSH prints no '=' padding */
	snprintf(out, outlen, "SHA256:%s", enc);
}

static const char *last_error(struct ssh_conn *c)
{
	char *msg = NULL;
	int len = 0;
	if (!c->sess)
		return "no session";
	libssh2_session_last_error(c->sess, &msg, &len, 0);
	return msg && *msg ? msg : "unknown libssh2 error";
}

const char *ssh_conn_error(struct ssh_conn *c)
{
	return last_error(c);
}

static void home_and_user(char *home, size_t hlen, char *user, size_t ulen)
{
	const char *h = getenv("HOME"), *u = getenv("USER");
	struct passwd pw, *res = NULL;
	char buf[1024];
	if ((!h || !*h || !u || !*u) && !getpwuid_r(geteuid(), &pw, buf, sizeof(buf), &res) && res) {
		if (!h || !*h)
			h = res->pw_dir;
		if (!u || !*u)
			u = res->pw_name;
	}
	snprintf(home, hlen, "%s", h ? h : "/");
	snprintf(user, ulen, "%s", u ? u : "root");
}

/* Polls fd for events, the cancel descriptor (when cancel_fd > 0) and wake_fd (when >= 0)
 * until deadline (0: none; capped at max_ms when max_ms > 0). 0 when fd is ready, wake_fd
 * is readable, a signal interrupted the wait or max_ms passed; -ETIMEDOUT at the deadline;
 * -ECANCELED on a cancel. */
static int poll_fd(int fd, short events, int cancel_fd, int wake_fd, long long deadline,
		   int max_ms)
{
	struct pollfd p[3] = { { .fd = fd, .events = events },
			       { .fd = cancel_fd > 0 ? cancel_fd : -1, .events = POLLIN },
			       { .fd = wake_fd, .events = POLLIN } };
	int ms = -1;
	if (deadline) {
		long long left = deadline - mono_ms();
		if (left <= 0)
			return -ETIMEDOUT;
		ms = left > INT_MAX ? INT_MAX : (int)left;
	}
	int capped = max_ms > 0 && (ms < 0 || ms > max_ms);
	if (capped)
		ms = max_ms;
	int r = poll(p, 3, ms);
	if (r < 0)
		return errno == EINTR ? 0 : -errno;
	if (cancel_fd > 0 && (p[1].revents & (POLLIN | POLLHUP | POLLERR)))
		return -ECANCELED;
	return r == 0 && !capped ? -ETIMEDOUT : 0;
}

static int readable(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	return fd >= 0 && poll(&p, 1, 0) > 0;
}

/* Waits until the socket is ready in the direction libssh2 is blocked on. 0 when it is
 * (or wake_fd turned readable, a signal interrupted the wait, or max_ms passed),
 * -ETIMEDOUT at the deadline, -ECANCELED on a cancel. */
static int wait_socket_max(struct ssh_conn *c, long long deadline, int max_ms, int wake_fd)
{
	short ev = 0;
	int dir = libssh2_session_block_directions(c->sess);
	if (dir & LIBSSH2_SESSION_BLOCK_INBOUND)
		ev |= POLLIN;
	if (dir & LIBSSH2_SESSION_BLOCK_OUTBOUND)
		ev |= POLLOUT;
	if (!ev)
		ev = POLLIN;
	int rc = poll_fd(c->fd, ev, c->cancel_fd, wake_fd, deadline, max_ms);
	if (rc == -ECANCELED)
		c->cancel_fd = -1; /* seen once: the cleanup that follows must be able to wait */
	return rc;
}

static int wait_socket(struct ssh_conn *c, long long deadline)
{
	return wait_socket_max(c, deadline, 0, -1);
}

int ssh_conn_wait(struct ssh_conn *c, long long deadline)
{
	return wait_socket(c, deadline);
}

/* Repeats a libssh2 call while it says EAGAIN, waiting on the socket in between. Leaves
 * the call's result in rc, or -ETIMEDOUT in rc when the deadline passes. */
#define RETRY(c, deadline, rc, call) SSH_RETRY(c, deadline, rc, call)

/* ---- connect ---- */

/* A connecting socket is done (connected or failed) when it polls writable. */
static int connect_done(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLOUT };
	return poll(&p, 1, 0) > 0;
}

static int tcp_connect(struct ssh_conn *c, long long deadline, char *err, size_t errlen)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_NUMERICSERV };
	struct addrinfo *res = NULL;
	char port[16];
	int rc, last = -ECONNREFUSED;

	snprintf(port, sizeof(port), "%d", c->port);
	/* getaddrinfo has no timeout of its own; a stuck resolver is outside our deadline */
	rc = getaddrinfo(c->host, port, &hints, &res);
	if (rc) {
		snprintf(err, errlen, "%s: cannot resolve: %s", c->host, gai_strerror(rc));
		return -ENOENT;
	}
	for (struct addrinfo *a = res; a; a = a->ai_next) {
		int fd = socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC,
				a->ai_protocol);
		if (fd < 0) {
			last = -errno;
			continue;
		}
		if (connect(fd, a->ai_addr, a->ai_addrlen) < 0 && errno != EINPROGRESS) {
			last = -errno;
			close(fd);
			continue;
		}
		do
			rc = poll_fd(fd, POLLOUT, c->cancel_fd, -1, deadline, 0);
		while (rc == 0 && !connect_done(fd));
		if (rc == -ETIMEDOUT || rc == -ECANCELED) {
			close(fd);
			last = rc;
			break; /* the deadline is for the host, not for each of its addresses */
		}
		int soerr = 0;
		socklen_t sl = sizeof(soerr);
		if (rc < 0)
			soerr = -rc;
		else if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &sl) < 0)
			soerr = errno;
		if (soerr) {
			last = -soerr;
			close(fd);
			continue;
		}
		c->fd = fd;
		freeaddrinfo(res);
		return 0;
	}
	freeaddrinfo(res);
	if (last == -ETIMEDOUT)
		snprintf(err, errlen, "%s port %d: connect timed out", c->host, c->port);
	else if (last == -ECANCELED)
		snprintf(err, errlen, "%s port %d: cancelled while connecting", c->host, c->port);
	else
		snprintf(err, errlen, "%s port %d: connect: %s", c->host, c->port, strerror(-last));
	return last;
}

/* ---- host key ---- */

static int knownhost_keybits(int type, const char **name, const char **label)
{
	switch (type) {
	case LIBSSH2_HOSTKEY_TYPE_RSA:
		*name = "ssh-rsa", *label = "RSA";
		return LIBSSH2_KNOWNHOST_KEY_SSHRSA;
	case LIBSSH2_HOSTKEY_TYPE_DSS:
		*name = "ssh-dss", *label = "DSA";
		return LIBSSH2_KNOWNHOST_KEY_SSHDSS;
	case LIBSSH2_HOSTKEY_TYPE_ECDSA_256:
		*name = "ecdsa-sha2-nistp256", *label = "ECDSA";
		return LIBSSH2_KNOWNHOST_KEY_ECDSA_256;
	case LIBSSH2_HOSTKEY_TYPE_ECDSA_384:
		*name = "ecdsa-sha2-nistp384", *label = "ECDSA";
		return LIBSSH2_KNOWNHOST_KEY_ECDSA_384;
	case LIBSSH2_HOSTKEY_TYPE_ECDSA_521:
		*name = "ecdsa-sha2-nistp521", *label = "ECDSA";
		return LIBSSH2_KNOWNHOST_KEY_ECDSA_521;
	case LIBSSH2_HOSTKEY_TYPE_ED25519:
		*name = "ssh-ed25519", *label = "ED25519";
		return LIBSSH2_KNOWNHOST_KEY_ED25519;
	default:
		*name = "unknown", *label = "unknown";
		return 0;
	}
}

/* Reads known_hosts line by line rather than with libssh2_knownhost_readfile(), which gives
 * up on the first line it cannot parse (@cert-authority, sk-* keys): one exotic line must
 * not make every host unknown. Returns the number of entries, or -1 when unreadable. */
static int load_known_hosts(LIBSSH2_KNOWNHOSTS *kh, const char *path)
{
	FILE *f = fopen(path, "re");
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int n = 0;
	if (!f)
		return -1;
	while ((len = getline(&line, &cap, f)) > 0) {
		if (line[0] == '@')
			continue;
		if (!libssh2_knownhost_readline(kh, line, (size_t)len,
						LIBSSH2_KNOWNHOST_FILE_OPENSSH))
			n++;
	}
	free(line);
	fclose(f);
	return n;
}

/* The line of path (1-based) that marks key @revoked, 0 when none does. OpenSSH looks only
 * at the lines whose host pattern matches; we refuse a revoked key whatever host names its
 * line gives, and before anything else in the file can accept it: a key known to be
 * compromised is no more trustworthy on another host. */
static long revoked_line(const char *path, const char *key, size_t klen)
{
	FILE *f = fopen(path, "re");
	char *line = NULL;
	size_t cap = 0;
	long no = 0, hit = 0;
	if (!f)
		return 0;
	while (!hit && getline(&line, &cap, f) > 0) {
		char *w[4], *save = NULL, *p = line;
		int n = 0;
		no++;
		while (n < 4 && (w[n] = strtok_r(p, " \t\r\n", &save)))
			n++, p = NULL;
		if (n < 4 || strcmp(w[0], "@revoked"))
			continue;
		size_t bl = strlen(w[3]);
		if (bl % 4 || bl / 4 * 3 < klen || bl / 4 * 3 > klen + 2)
			continue;
		unsigned char *blob = malloc(bl / 4 * 3 + 1);
		if (!blob)
			break;
		/* EVP_DecodeBlock counts the '=' padding as zero bytes */
		int dl = EVP_DecodeBlock(blob, (const unsigned char *)w[3], (int)bl);
		dl -= (bl > 0 && w[3][bl - 1] == '=') + (bl > 1 && w[3][bl - 2] == '=');
		if (dl == (int)klen && !memcmp(blob, key, klen))
			hit = no;
		free(blob);
	}
	free(line);
	fclose(f);
	return hit;
}

static int check_host_key(struct ssh_conn *c, const struct ssh_opts *o, const char *home,
			  char *err, size_t errlen)
{
	size_t klen = 0;
	int ktype = 0, rc;
	const char *key = libssh2_session_hostkey(c->sess, &klen, &ktype);
	const char *hash = libssh2_hostkey_hash(c->sess, LIBSSH2_HOSTKEY_HASH_SHA256);
	const char *kname, *klabel;
	char fp[64] = "SHA256:?", path[PATH_MAX], hostport[300];

	if (!key) {
		snprintf(err, errlen, "%s: no host key: %s", c->host, last_error(c));
		return -EPROTO;
	}
	if (hash)
		ssh_fingerprint((const unsigned char *)hash, fp, sizeof(fp));
	int bits = knownhost_keybits(ktype, &kname, &klabel);
	if (o->insecure)
		return 0;
	if (o->known_hosts)
		snprintf(path, sizeof(path), "%s", o->known_hosts);
	else
		snprintf(path, sizeof(path), "%s/.ssh/known_hosts", home);
	if (c->port == 22)
		snprintf(hostport, sizeof(hostport), "%s", c->host);
	else
		snprintf(hostport, sizeof(hostport), "[%s]:%d", c->host, c->port);

	long rl = revoked_line(path, key, klen);
	if (rl) {
		snprintf(err, errlen,
			 "%s: HOST KEY REVOKED: the %s key %s is marked @revoked in %s line %ld; "
			 "nothing was run. The host must get a new key",
			 hostport, klabel, fp, path, rl);
		return -EKEYREVOKED;
	}
	LIBSSH2_KNOWNHOSTS *kh = libssh2_knownhost_init(c->sess);
	if (!kh) {
		snprintf(err, errlen, "%s: out of memory", c->host);
		return -ENOMEM;
	}
	int nread = load_known_hosts(kh, path);
	struct libssh2_knownhost *found = NULL;
	/* By the name OpenSSH files it under ("[host]:port" off port 22), not checkp(), which
	 * would also accept the plain host's key for any port. */
	rc = libssh2_knownhost_check(kh, hostport, key, klen,
				     LIBSSH2_KNOWNHOST_TYPE_PLAIN | LIBSSH2_KNOWNHOST_KEYENC_RAW |
					     bits,
				     &found);
	libssh2_knownhost_free(kh);

	switch (rc) {
	case LIBSSH2_KNOWNHOST_CHECK_MATCH:
		return 0;
	case LIBSSH2_KNOWNHOST_CHECK_MISMATCH:
		snprintf(err, errlen,
			 "%s: HOST KEY CHANGED: the %s key %s does not match the key %s holds "
			 "for %s; someone may be intercepting the connection, or the host was "
			 "reinstalled. Nothing was run. If the new key is right: ssh-keygen -R "
			 "'%s' -f %s, then add the new key",
			 hostport, klabel, fp, path, hostport, hostport, path);
		return -EKEYREJECTED;
	case LIBSSH2_KNOWNHOST_CHECK_NOTFOUND:
		snprintf(err, errlen,
			 "%s: host key not known%s%s%s: %s key fingerprint %s (%s); nothing was "
			 "run. To trust it after checking the fingerprint: ssh-keyscan -p %d %s >> "
			 "%s, or pass --ssh-insecure to skip the check",
			 hostport, nread < 0 ? " (cannot read " : " (not in ", path, ")", klabel,
			 fp, kname, c->port, c->host, path);
		return -ENOKEY;
	default:
		snprintf(err, errlen, "%s: cannot check the host key against %s", hostport, path);
		return -EPROTO;
	}
}

/* ---- authentication ---- */

__attribute__((format(printf, 3, 4))) static void append(char *buf, size_t len,
							  const char *fmt, ...)
{
	size_t off = strlen(buf);
	va_list ap;
	va_start(ap, fmt);
	if (off < len)
		vsnprintf(buf + off, len - off, fmt, ap);
	va_end(ap);
}

static int try_key(struct ssh_conn *c, const char *path, long long deadline, char *tried,
		   size_t tlen)
{
	int rc;
	if (access(path, R_OK)) {
		append(tried, tlen, "%s (cannot read), ", path);
		return -ENOENT;
	}
	RETRY(c, deadline, rc,
	      libssh2_userauth_publickey_fromfile_ex(c->sess, c->user, (unsigned)strlen(c->user),
						     NULL, path, NULL));
	if (rc == 0)
		return 0;
	if (rc == -ETIMEDOUT || rc == -ECANCELED)
		return rc;
	if (rc == LIBSSH2_ERROR_FILE)
		append(tried, tlen, "%s (unreadable or passphrase-protected: use ssh-agent), ",
		       path);
	else
		append(tried, tlen, "%s, ", path);
	return -EACCES;
}

static int try_agent(struct ssh_conn *c, long long deadline, char *tried, size_t tlen)
{
	LIBSSH2_AGENT *ag = libssh2_agent_init(c->sess);
	struct libssh2_agent_publickey *id = NULL;
	int rc = -EACCES, nkeys = 0;
	char note[64];
	if (!ag)
		return -ENOMEM;
	if (libssh2_agent_connect(ag)) {
		append(tried, tlen, "%s, ", "ssh-agent (cannot connect)");
		goto out;
	}
	if (libssh2_agent_list_identities(ag)) {
		append(tried, tlen, "%s, ", "ssh-agent (cannot list keys)");
		goto out_disconnect;
	}
	while (libssh2_agent_get_identity(ag, &id, id) == 0) {
		int r;
		nkeys++;
		RETRY(c, deadline, r, libssh2_agent_userauth(ag, c->user, id));
		if (r == 0) {
			rc = 0;
			goto out_disconnect;
		}
		if (r == -ETIMEDOUT || r == -ECANCELED) {
			rc = r;
			goto out_disconnect;
		}
	}
	snprintf(note, sizeof(note), "ssh-agent (%d key%s)", nkeys, plural_s(nkeys));
	append(tried, tlen, "%s, ", note);
out_disconnect:
	libssh2_agent_disconnect(ag);
out:
	libssh2_agent_free(ag);
	return rc;
}

static int authenticate(struct ssh_conn *c, const struct ssh_opts *o, const char *home,
			long long deadline, char *err, size_t errlen)
{
	char tried[1024] = "", def[PATH_MAX];
	char *methods;
	int rc;

	/* libssh2_userauth_list returns NULL with EAGAIN, so it needs its own loop */
	for (;;) {
		methods = libssh2_userauth_list(c->sess, c->user, (unsigned)strlen(c->user));
		if (methods || libssh2_userauth_authenticated(c->sess))
			break;
		if (libssh2_session_last_errno(c->sess) != LIBSSH2_ERROR_EAGAIN) {
			snprintf(err, errlen, "%s@%s: cannot list auth methods: %s", c->user,
				 c->host, last_error(c));
			return -EPROTO;
		}
		if ((rc = wait_socket(c, deadline))) {
			snprintf(err, errlen, "%s@%s: authentication %s", c->user, c->host,
				 rc == -ECANCELED ? "cancelled" : "timed out");
			return rc;
		}
	}
	if (!methods)
		return 0; /* the server accepted "none" */
	if (!strstr(methods, "publickey")) {
		snprintf(err, errlen,
			 "%s@%s: the server offers only %s; hcclctl signs in with keys (publickey)",
			 c->user, c->host, methods);
		return -EACCES;
	}
	const char *sock = getenv("SSH_AUTH_SOCK");
	int use_agent = !o->no_agent && sock && *sock;

#define GAVE_UP(rc) ((rc) == -ETIMEDOUT || (rc) == -ECANCELED)
	rc = -EACCES;
	if (o->key)
		rc = try_key(c, o->key, deadline, tried, sizeof(tried));
	if (rc && !GAVE_UP(rc) && use_agent)
		rc = try_agent(c, deadline, tried, sizeof(tried));
	if (rc && !GAVE_UP(rc) && !o->key) {
		static const char *const defaults[] = { "id_ed25519", "id_rsa" };
		for (size_t i = 0; rc && !GAVE_UP(rc) && i < 2; i++) {
			snprintf(def, sizeof(def), "%s/.ssh/%s", home, defaults[i]);
			if (access(def, F_OK) == 0)
				rc = try_key(c, def, deadline, tried, sizeof(tried));
		}
	}
	if (rc == 0)
		return 0;
	if (GAVE_UP(rc)) {
		snprintf(err, errlen, "%s@%s: authentication %s", c->user, c->host,
			 rc == -ECANCELED ? "cancelled" : "timed out");
		return rc;
	}
#undef GAVE_UP
	size_t tl = strlen(tried);
	if (tl >= 2)
		tried[tl - 2] = '\0';
	snprintf(err, errlen,
		 "%s@%s: permission denied: no key was accepted (tried: %s; the server offers: "
		 "%s); is the public key in ~%s/.ssh/authorized_keys on %s? Use --ssh-key FILE or "
		 "--ssh-user USER",
		 c->user, c->host, *tried ? tried : "no key: none given, no ssh-agent, no ~/.ssh/id_*",
		 methods, c->user, c->host);
	return -EACCES;
}

/* ---- open / close ---- */

void ssh_conn_close(struct ssh_conn *c)
{
	if (c->sess) {
		/* Blocking with a short timeout: a goodbye must never hang on a dead peer. */
		libssh2_session_set_blocking(c->sess, 1);
		libssh2_session_set_timeout(c->sess, CLOSE_GRACE_MS);
		libssh2_session_disconnect(c->sess, "bye");
		libssh2_session_free(c->sess);
		c->sess = NULL;
	}
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
}

/* After a timeout the peer may be stuck: shut the socket down so that freeing the session
 * fails fast instead of waiting for a goodbye. The fd stays open (and so unique) until
 * ssh_conn_close, since another thread could reuse a closed number under libssh2. */
static void conn_abandon(struct ssh_conn *c)
{
	if (c->fd >= 0)
		shutdown(c->fd, SHUT_RDWR);
}

int ssh_conn_open(struct ssh_conn *c, const char *host, const struct ssh_opts *o,
		  long long deadline, char *err, size_t errlen)
{
	char home[1024], deflt_user[64];
	int rc;

	memset(c, 0, sizeof(*c));
	c->fd = -1;
	home_and_user(home, sizeof(home), deflt_user, sizeof(deflt_user));
	snprintf(c->host, sizeof(c->host), "%s", host);
	snprintf(c->user, sizeof(c->user), "%s", o->user && *o->user ? o->user : deflt_user);
	c->port = o->port ? o->port : 22;
	c->cancel_fd = o->cancel_fd > 0 ? o->cancel_fd : -1;

	rc = ssh_global_init(err, errlen);
	if (rc)
		return rc;
	rc = tcp_connect(c, deadline, err, errlen);
	if (rc)
		return rc;
	c->sess = libssh2_session_init();
	if (!c->sess) {
		snprintf(err, errlen, "%s: out of memory", c->host);
		rc = -ENOMEM;
		goto fail;
	}
	libssh2_session_set_blocking(c->sess, 0);
	RETRY(c, deadline, rc, libssh2_session_handshake(c->sess, c->fd));
	if (rc == -ETIMEDOUT || rc == -ECANCELED) {
		snprintf(err, errlen, "%s port %d: SSH handshake %s", c->host, c->port,
			 rc == -ECANCELED ? "cancelled" : "timed out");
		goto fail_abandon;
	}
	if (rc) {
		snprintf(err, errlen, "%s port %d: SSH handshake failed: %s", c->host, c->port,
			 last_error(c));
		rc = -EPROTO;
		goto fail;
	}
	rc = check_host_key(c, o, home, err, errlen);
	if (rc)
		goto fail;
	rc = authenticate(c, o, home, deadline, err, errlen);
	if (rc == -ETIMEDOUT || rc == -ECANCELED)
		goto fail_abandon;
	if (rc)
		goto fail;
	return 0;

fail_abandon:
	conn_abandon(c);
fail:
	ssh_conn_close(c);
	return rc;
}

/* ---- exec ---- */

struct stream {
	struct ssh_exec *x;
	struct ssh_buf *buf;
	int id;
	char line[LINE_MAX_LEN];
	size_t ll;
	/* stderr only: the first line may be our process-group marker */
	int want_marker;
	char mk[64];
	size_t mkn, mklines;
	int mid_line;
	long pgid;
	size_t cap;
	int oom;
};

int ssh_buf_keep(struct ssh_buf *b, size_t cap, const char *p, size_t n)
{
	if (!b->p) {
		b->p = malloc(cap + 1);
		if (!b->p)
			return -ENOMEM;
	}
	if (n >= cap) {
		b->dropped += b->len + n - cap;
		memcpy(b->p, p + n - cap, cap);
		b->len = cap;
	} else {
		if (b->len + n > cap) {
			size_t drop = b->len + n - cap;
			memmove(b->p, b->p + drop, b->len - drop);
			b->len -= drop;
			b->dropped += drop;
		}
		memcpy(b->p + b->len, p, n);
		b->len += n;
	}
	b->p[b->len] = '\0';
	return 0;
}

static void keep(struct stream *s, const char *p, size_t n)
{
	if (ssh_buf_keep(s->buf, s->cap, p, n))
		s->oom = 1;
}

static void lines(struct stream *s, const char *p, size_t n)
{
	if (!s->x->on_line)
		return;
	for (size_t i = 0; i < n; i++) {
		if (p[i] == '\n' || s->ll == sizeof(s->line)) {
			s->x->on_line(s->x->arg, s->id, s->line, s->ll);
			s->ll = 0;
			if (p[i] == '\n')
				continue;
		}
		s->line[s->ll++] = p[i];
	}
}

static void deliver(struct stream *s, const char *p, size_t n)
{
	keep(s, p, n);
	lines(s, p, n);
}

/* The marker is the first line the command itself prints, but the login shell's rc files
 * may print before it (a chatty .bashrc): lines before it are the command's output as usual,
 * and the search ends at the marker or after MARKER_LINES lines. */
#define MARKER_LINES 256
static void feed(struct stream *s, const char *p, size_t n)
{
	size_t ml = strlen(PGID_MARKER);
	while (s->want_marker && n) {
		if (s->mid_line) {
			/* the rest of a line too long to be the marker */
			const char *nl = memchr(p, '\n', n);
			size_t k = nl ? (size_t)(nl - p) + 1 : n;
			deliver(s, p, k);
			p += k;
			n -= k;
			if (nl) {
				s->mid_line = 0;
				if (++s->mklines >= MARKER_LINES)
					s->want_marker = 0;
			}
			continue;
		}
		char ch = *p++;
		n--;
		s->mk[s->mkn++] = ch;
		if (ch != '\n' && s->mkn < sizeof(s->mk))
			continue;
		if (ch == '\n' && s->mkn > ml && !memcmp(s->mk, PGID_MARKER, ml)) {
			s->mk[s->mkn - 1] = '\0';
			s->pgid = strtol(s->mk + ml, NULL, 10);
			s->want_marker = 0;
		} else {
			deliver(s, s->mk, s->mkn);
			if (ch != '\n')
				s->mid_line = 1;
			else if (++s->mklines >= MARKER_LINES)
				s->want_marker = 0;
		}
		s->mkn = 0;
	}
	if (n)
		deliver(s, p, n);
}

static void flush_stream(struct stream *s)
{
	if (s->want_marker && s->mkn)
		deliver(s, s->mk, s->mkn);
	s->want_marker = 0;
	s->mkn = 0;
	if (s->x->on_line && s->ll)
		s->x->on_line(s->x->arg, s->id, s->line, s->ll);
	s->ll = 0;
}

/* Kills the process group of a command that outlived its deadline, through a second
 * channel on the same session. sshd makes each command a session leader (setsid), so its
 * pid is its group: TERM now, then KILL from a detached shell if the group is still there
 * two seconds later; that shell ends as soon as the group is gone. */
static void kill_remote(struct ssh_conn *c, long pgid)
{
	long long deadline = mono_ms() + CLOSE_GRACE_MS;
	LIBSSH2_CHANNEL *ch;
	char cmd[384];
	int rc;
	if (pgid <= 1)
		return;
	snprintf(cmd, sizeof(cmd),
		 "kill -TERM -- -%ld 2>/dev/null; (i=0; while kill -0 -- -%ld 2>/dev/null; do "
		 "[ $i -ge 20 ] && { kill -KILL -- -%ld; break; }; sleep 0.1; i=$((i+1)); "
		 "done) </dev/null >/dev/null 2>&1 &",
		 pgid, pgid, pgid);
	for (;;) {
		ch = libssh2_channel_open_session(c->sess);
		if (ch || libssh2_session_last_errno(c->sess) != LIBSSH2_ERROR_EAGAIN)
			break;
		if (wait_socket(c, deadline))
			return;
	}
	if (!ch)
		return;
	/* the reply to exec means sshd has started the shell: enough, we do not wait more */
	RETRY(c, deadline, rc, libssh2_channel_exec(ch, cmd));
	(void)rc;
}

/* Reads what both streams have now. 1 when something came, 0 when nothing, or a negative
 * code with err set. */
static int read_streams(struct ssh_conn *c, LIBSSH2_CHANNEL *ch, struct stream *so,
			struct stream *se, char *buf, size_t buflen, char *err, size_t errlen)
{
	int progress = 0;
	struct stream *ss[2] = { so, se };
	for (int i = 0; i < 2; i++) {
		ssize_t n = libssh2_channel_read_ex(ch, ss[i]->id, buf, buflen);
		if (n > 0) {
			feed(ss[i], buf, (size_t)n);
			progress = 1;
		} else if (n < 0 && n != LIBSSH2_ERROR_EAGAIN) {
			snprintf(err, errlen, "%s: reading the command's output: %s", c->host,
				 last_error(c));
			return -EPROTO;
		}
	}
	if (so->oom || se->oom) {
		snprintf(err, errlen, "%s: out of memory", c->host);
		return -ENOMEM;
	}
	return progress;
}

/* After the command's EOF: waits for the close (the exit status may come after the EOF,
 * from a command that closed its output early), then reads the status or the signal and
 * frees the channel. 0, or -ETIMEDOUT / -ECANCELED with the channel left to the session. */
static int reap(struct ssh_conn *c, LIBSSH2_CHANNEL *ch, struct ssh_exec *x, long long deadline)
{
	int rc;
	RETRY(c, deadline, rc, libssh2_channel_close(ch));
	if (rc == -ETIMEDOUT || rc == -ECANCELED)
		return rc;
	RETRY(c, deadline, rc, libssh2_channel_wait_closed(ch));
	if (rc == -ETIMEDOUT || rc == -ECANCELED)
		return rc;
	char *sig = NULL;
	size_t siglen = 0;
	libssh2_channel_get_exit_signal(ch, &sig, &siglen, NULL, NULL, NULL, NULL);
	if (sig) {
		snprintf(x->signal, sizeof(x->signal), "%.*s", (int)siglen, sig);
		libssh2_free(c->sess, sig);
	} else {
		x->exit_status = libssh2_channel_get_exit_status(ch);
	}
	RETRY(c, deadline, rc, libssh2_channel_free(ch));
	return 0;
}

/* Writes len bytes of p to the command's stdin before deadline. 0, -ETIMEDOUT or -ECANCELED
 * from the wait, or -EPROTO with err set. */
static int write_stdin(struct ssh_conn *c, LIBSSH2_CHANNEL *ch, const char *p, size_t len,
		       long long deadline, char *err, size_t errlen)
{
	for (size_t off = 0; p && off < len;) {
		ssize_t w = libssh2_channel_write(ch, p + off, len - off);
		if (w == LIBSSH2_ERROR_EAGAIN) {
			int rc = wait_socket(c, deadline);
			if (rc)
				return rc;
		} else if (w < 0) {
			snprintf(err, errlen, "%s: writing the command's input: %s", c->host,
				 last_error(c));
			return -EPROTO;
		} else {
			off += (size_t)w;
		}
	}
	return 0;
}

/* Sends the keepalive when it is due; the time to the next one, in ms, for the wait. */
static int keepalive(struct ssh_conn *c, const struct ssh_exec *x)
{
	int next = 0;
	if (x->keepalive_s <= 0)
		return 0;
	libssh2_keepalive_send(c->sess, &next); /* EAGAIN: it goes out with the next write */
	return (next > 0 ? next : 1) * 1000;
}

int ssh_conn_exec(struct ssh_conn *c, struct ssh_exec *x, char *err, size_t errlen)
{
	LIBSSH2_CHANNEL *ch = NULL;
	struct stream so = { .x = x, .buf = &x->out, .id = SSH_STDOUT };
	struct stream se = { .x = x, .buf = &x->err, .id = SSH_STDERR };
	char *wrapped = NULL, buf[16384];
	const char *cmd = x->cmd;
	int rc, interrupt_fd = x->interrupt && x->interrupt_fd > 0 ? x->interrupt_fd : -1;

	x->exit_status = -1;
	x->signal[0] = '\0';
	so.cap = se.cap = x->cap ? x->cap : DEFAULT_CAP;
	if (x->kill_on_timeout) {
		/* Tell us the command's process group first, so a timeout can kill it. A
		 * newline, not ';', so that any command text the caller built still parses. */
		size_t len = strlen(PGID_MARKER) + strlen(x->cmd) + 64;
		wrapped = malloc(len);
		if (!wrapped) {
			snprintf(err, errlen, "%s: out of memory", c->host);
			return -ENOMEM;
		}
		snprintf(wrapped, len, "printf '\\036hcclctl-pgid %%s\\n' \"$$\" >&2\n%s", x->cmd);
		cmd = wrapped;
		se.want_marker = 1;
	}
	if (x->keepalive_s > 0) {
		/* A host that stops answering (powered off, link cut) fails the session after
		 * three keepalive intervals instead of the kernel's 15 minutes. */
		unsigned ut = (unsigned)x->keepalive_s * 3000;
		libssh2_keepalive_config(c->sess, 1, (unsigned)x->keepalive_s);
		setsockopt(c->fd, IPPROTO_TCP, TCP_USER_TIMEOUT, &ut, sizeof(ut));
	}

	for (;;) {
		ch = libssh2_channel_open_session(c->sess);
		if (ch || libssh2_session_last_errno(c->sess) != LIBSSH2_ERROR_EAGAIN)
			break;
		if ((rc = wait_socket(c, x->deadline)))
			goto timeout;
	}
	if (!ch) {
		snprintf(err, errlen, "%s: cannot open a channel: %s", c->host, last_error(c));
		rc = -EPROTO;
		goto out;
	}
	RETRY(c, x->deadline, rc, libssh2_channel_exec(ch, cmd));
	if (rc == -ETIMEDOUT || rc == -ECANCELED)
		goto timeout;
	if (rc) {
		snprintf(err, errlen, "%s: exec refused: %s", c->host, last_error(c));
		rc = -EPROTO;
		goto out;
	}
	rc = write_stdin(c, ch, x->input, x->input_len, x->deadline, err, errlen);
	if (rc == -ETIMEDOUT || rc == -ECANCELED)
		goto timeout;
	if (rc)
		goto out;
	/* The command gets no more input: an EOF now keeps a stray `read` from waiting. */
	if (!x->keep_stdin)
		RETRY(c, x->deadline, rc, libssh2_channel_send_eof(ch));
	if (rc == -ETIMEDOUT || rc == -ECANCELED)
		goto timeout;

	for (;;) {
		if (readable(interrupt_fd)) {
			char ierr[SSH_ERRLEN];
			interrupt_fd = -1; /* once */
			rc = write_stdin(c, ch, x->interrupt, x->interrupt_len, x->deadline, ierr,
					 sizeof(ierr));
			if (rc == -ETIMEDOUT || rc == -ECANCELED)
				goto timeout;
			/* else written, or refused: the command closed its stdin, it is ending */
		}
		rc = read_streams(c, ch, &so, &se, buf, sizeof(buf), err, errlen);
		if (rc < 0)
			goto out;
		if (rc > 0)
			continue;
		if (libssh2_channel_eof(ch))
			break;
		if ((rc = wait_socket_max(c, x->deadline, keepalive(c, x), interrupt_fd)))
			goto timeout;
	}
	flush_stream(&so);
	flush_stream(&se);
	rc = reap(c, ch, x, x->deadline);
	if (rc == -ECANCELED) /* the command has ended: finish the close, briefly */
		rc = reap(c, ch, x, mono_ms() + CANCEL_GRACE_MS);
	if (rc == -ECANCELED)
		rc = -ETIMEDOUT;
	if (rc)
		goto timeout;
	ch = NULL;
	rc = 0;
	goto out;

timeout:
	if (rc == -ECANCELED)
		goto cancelled;
	flush_stream(&so);
	flush_stream(&se);
	if (x->kill_on_timeout && se.pgid > 1)
		kill_remote(c, se.pgid);
	snprintf(err, errlen, "%s: command still running at the deadline%s", c->host,
		 x->kill_on_timeout ? (se.pgid > 1 ? "; killed it" :
						     "; it had not started, nothing to kill") :
				      "");
	conn_abandon(c);
	ch = NULL; /* freed with the session: a polite close would wait on the stuck peer */
	rc = -ETIMEDOUT;
	goto out;

cancelled:
	/* Kill the command's group as soon as we know it (the marker may still be on its way)
	 * and read on for a short grace, so the caller learns how it ended. */
	if (ch) {
		long long until = mono_ms() + CANCEL_GRACE_MS;
		int killed = 0, closed = 0;
		for (;;) {
			if (x->kill_on_timeout && se.pgid > 1 && !killed) {
				kill_remote(c, se.pgid);
				killed = 1;
			}
			rc = read_streams(c, ch, &so, &se, buf, sizeof(buf), err, errlen);
			if (rc < 0)
				break;
			if (rc > 0)
				continue;
			if (libssh2_channel_eof(ch)) {
				closed = 1;
				break;
			}
			if (wait_socket(c, until))
				break;
		}
		flush_stream(&so);
		flush_stream(&se);
		if (closed && reap(c, ch, x, until) == 0)
			ch = NULL;
		snprintf(err, errlen, "%s: cancelled%s", c->host,
			 killed ? "; stopped the command" :
			 closed ? "" : "; the command had not started");
	} else {
		snprintf(err, errlen, "%s: cancelled before the command started", c->host);
	}
	if (ch) {
		conn_abandon(c);
		ch = NULL;
	}
	rc = -ECANCELED;
out:
	if (ch && rc) {
		conn_abandon(c);
		ch = NULL;
	}
	free(wrapped);
	return rc;
}

void ssh_exec_release(struct ssh_exec *x)
{
	free(x->out.p);
	free(x->err.p);
	memset(&x->out, 0, sizeof(x->out));
	memset(&x->err, 0, sizeof(x->err));
}
