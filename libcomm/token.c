/* The root-info token "comm3:HOST:PORT:<32 hex secret>", HOST an IPv6 address in brackets
 * when it has colons. Parsed strictly: every rank must read the same rendezvous and secret,
 * so anything unusual is an error naming the part that is wrong. */
#include <errno.h>
#include <sys/random.h>

#include "libcomm/internal.h"
#include "ranktable/base/hex.h"

#define PREFIX "comm3:"

static int host_char(int ch, int v6)
{
	if ((ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z'))
		return 1;
	if (v6)
		return ch == ':' || ch == '.' || ch == '%';
	return ch == '.' || ch == '-' || ch == '_';
}

static int check_host(const char *h, size_t len, int v6, char *err, size_t errlen)
{
	if (len == 0)
		return comm__errf(err, errlen, COMM_E_INVAL, "empty host");
	if (len >= COMM__HOST_MAX)
		return comm__errf(err, errlen, COMM_E_INVAL, "host longer than %d characters",
				  COMM__HOST_MAX - 1);
	for (size_t i = 0; i < len; i++)
		if (!v6 && h[i] == ':')
			return comm__errf(err, errlen, COMM_E_INVAL,
					  "host has character ':' at %zu (an IPv6 address goes in "
					  "brackets)",
					  i);
		else if (!host_char((unsigned char)h[i], v6))
			return comm__errf(err, errlen, COMM_E_INVAL,
					  "host has character '%c' at %zu", h[i], i);
	return 0;
}

int comm__token_parse(const char *s, struct comm__token *t, char *err, size_t errlen)
{
	memset(t, 0, sizeof(*t));
	if (!s)
		return comm__errf(err, errlen, COMM_E_INVAL, "token: missing");
	size_t n = strnlen(s, COMM_TOKEN_MAX);
	if (n >= COMM_TOKEN_MAX)
		return comm__errf(err, errlen, COMM_E_INVAL, "token: longer than %d characters",
				  COMM_TOKEN_MAX - 1);
	if (strncmp(s, "comm", 4) == 0 && s[4] >= '0' && s[4] <= '9' && strncmp(s, PREFIX, 6))
		return comm__errf(err, errlen, COMM_E_INVAL,
				  "token: protocol version '%.*s', this library speaks comm%d",
				  (int)strcspn(s, ":"), s, COMM_PROTOCOL_VERSION);
	if (strncmp(s, PREFIX, strlen(PREFIX)) != 0)
		return comm__errf(err, errlen, COMM_E_INVAL, "token: does not start with '%s'",
				  PREFIX);
	const char *p = s + strlen(PREFIX), *end = s + n;
	/* secret: the last 33 characters, ":<32 hex>" */
	if (end - p < 34 || end[-33] != ':')
		return comm__errf(err, errlen, COMM_E_INVAL,
				  "token: expected HOST:PORT:<32 hex secret> after '%s'", PREFIX);
	for (int i = 0; i < 16; i++) {
		int hi = hex_val((unsigned char)end[-32 + 2 * i]),
		    lo = hex_val((unsigned char)end[-31 + 2 * i]);
		if (hi < 0 || lo < 0)
			return comm__errf(err, errlen, COMM_E_INVAL,
					  "token: secret is not 32 hex digits");
		t->secret[i] = (unsigned char)(hi << 4 | lo);
	}
	const char *hp_end = end - 33; /* HOST:PORT */
	const char *colon = NULL;
	if (*p == '[') {
		const char *rb = memchr(p, ']', (size_t)(hp_end - p));
		if (!rb || rb + 1 >= hp_end || rb[1] != ':')
			return comm__errf(err, errlen, COMM_E_INVAL,
					  "token: '[' without ']:' after the IPv6 host");
		int rc = check_host(p + 1, (size_t)(rb - p - 1), 1, err, errlen);
		if (rc)
			return rc;
		if (!memchr(p + 1, ':', (size_t)(rb - p - 1)))
			return comm__errf(err, errlen, COMM_E_INVAL,
					  "token: host in brackets is not an IPv6 address");
		memcpy(t->host, p + 1, (size_t)(rb - p - 1));
		colon = rb + 1;
	} else {
		colon = memrchr(p, ':', (size_t)(hp_end - p));
		if (!colon)
			return comm__errf(err, errlen, COMM_E_INVAL, "token: no port after the host");
		int rc = check_host(p, (size_t)(colon - p), 0, err, errlen);
		if (rc)
			return rc;
		memcpy(t->host, p, (size_t)(colon - p));
	}
	const char *q = colon + 1;
	if (q >= hp_end || hp_end - q > 5)
		return comm__errf(err, errlen, COMM_E_INVAL, "token: port is not 1 to 5 digits");
	long port = 0;
	for (; q < hp_end; q++) {
		if (*q < '0' || *q > '9')
			return comm__errf(err, errlen, COMM_E_INVAL,
					  "token: port has character '%c'", *q);
		port = port * 10 + (*q - '0');
	}
	if (port > 65535)
		return comm__errf(err, errlen, COMM_E_INVAL, "token: port %ld out of range", port);
	t->port = (int)port;
	return 0;
}

int comm_root_info_make(struct comm_root_info *ri, const char *host, int port,
			const unsigned char *secret16, char *err, size_t errlen)
{
	unsigned char sec[COMM__SECRET_LEN];
	if (!ri || !host)
		return comm__errf(err, errlen, COMM_E_INVAL, "root info: missing host");
	if (port < 0 || port > 65535)
		return comm__errf(err, errlen, COMM_E_INVAL, "root info: port %d out of range",
				  port);
	int v6 = strchr(host, ':') != NULL;
	int rc = check_host(host, strlen(host), v6, err, errlen);
	if (rc)
		return rc;
	if (secret16) {
		memcpy(sec, secret16, sizeof(sec));
	} else {
		size_t got = 0;
		while (got < sizeof(sec)) {
			ssize_t k = getrandom(sec + got, sizeof(sec) - got, 0);
			if (k < 0 && errno == EINTR)
				continue;
			if (k <= 0)
				return comm__errf(err, errlen, COMM_E_SYS,
						  "root info: getrandom: %s", strerror(errno));
			got += (size_t)k;
		}
	}
	char hex[33];
	for (int i = 0; i < 16; i++)
		snprintf(hex + 2 * i, 3, "%02x", sec[i]);
	int k = snprintf(ri->token, sizeof(ri->token), "%s%s%s%s:%d:%s", PREFIX, v6 ? "[" : "",
			 host, v6 ? "]" : "", port, hex);
	if (k < 0 || (size_t)k >= sizeof(ri->token))
		return comm__errf(err, errlen, COMM_E_INVAL, "root info: host '%s' too long", host);
	return 0;
}
