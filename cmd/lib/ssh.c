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
#include "cmd/lib/ssh_int.h"
#include "ranktable/base/clock.h"
#include "ranktable/base/plural.h"


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

int ssh__readable(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	return fd >= 0 && poll(&p, 1, 0) > 0;
}

/* Waits until the socket is ready in the direction libssh2 is blocked on. 0 when it is
 * (or wake_fd turned readable, a signal interrupted the wait, or max_ms passed),
 * -ETIMEDOUT at the deadline, -ECANCELED on a cancel. */
int ssh__wait_max(struct ssh_conn *c, long long deadline, int max_ms, int wake_fd)
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
	return ssh__wait_max(c, deadline, 0, -1);
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
		libssh2_session_set_timeout(c->sess, SSH__CLOSE_GRACE_MS);
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
void ssh__abandon(struct ssh_conn *c)
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
	ssh__abandon(c);
fail:
	ssh_conn_close(c);
	return rc;
}
