/* libhccl stand-in: the text it keeps in HcclRootInfo's opaque bytes,
 * "hccl-stub-root/1 IP PORT NONCE" (NUL-terminated, the rest zero), and its parser. The
 * bytes come from another process, so the parser trusts nothing and says where it stopped.
 * Self-contained (tests/fuzz/fuzz_stubroot.c compiles it in). */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/stub/hccl_internal.h"
#include "ranktable/base/hex.h"

#define ROOT_TAG "hccl-stub-root/1 "

void stubhccl_root_format(HcclRootInfo *ri, const char *ip, int port,
			  const unsigned char nonce[STUB_NONCE])
{
	int n;

	memset(ri, 0, sizeof(*ri));
	n = snprintf(ri->internal, sizeof(ri->internal), "%s%s %d ", ROOT_TAG, ip, port);
	for (int i = 0; i < STUB_NONCE; i++)
		n += snprintf(ri->internal + n, sizeof(ri->internal) - (size_t)n, "%02x", nonce[i]);
}

HcclResult stubhccl_root_parse(const HcclRootInfo *ri, char ip[STUB_IPLEN], int *port,
			       unsigned char nonce[STUB_NONCE], char *why, size_t whylen)
{
	const char *s = ri->internal, *end = memchr(s, 0, sizeof(ri->internal)), *p, *sp;
	struct in_addr a;
	long v = 0;

	if (!end) {
		snprintf(why, whylen, "root info: no NUL in its %d bytes", HCCL_ROOT_INFO_BYTES);
		return HCCL_E_PARA;
	}
	if (strncmp(s, ROOT_TAG, strlen(ROOT_TAG))) {
		snprintf(why, whylen, "root info: byte 0: not from this HcclGetRootInfo");
		return HCCL_E_PARA;
	}
	p = s + strlen(ROOT_TAG);
	if (!(sp = strchr(p, ' ')) || sp - p >= STUB_IPLEN) {
		snprintf(why, whylen, "root info: byte %td: no address", p - s);
		return HCCL_E_PARA;
	}
	memcpy(ip, p, (size_t)(sp - p));
	ip[sp - p] = 0;
	if (inet_pton(AF_INET, ip, &a) != 1) {
		snprintf(why, whylen, "root info: byte %td: not an IPv4 address", p - s);
		return HCCL_E_PARA;
	}
	for (p = sp + 1; *p >= '0' && *p <= '9' && v <= 65535; p++)
		v = v * 10 + (*p - '0');
	if (*p != ' ' || v < 1 || v > 65535 || sp[1] == '0') { /* one spelling per port */
		snprintf(why, whylen, "root info: byte %td: port not in 1..65535", sp + 1 - s);
		return HCCL_E_PARA;
	}
	*port = (int)v;
	p++;
	for (int i = 0; i < STUB_NONCE; i++, p += 2) {
		int hi = hex_val(p[0]), lo = hi < 0 ? -1 : hex_val(p[1]);

		if (hi < 0 || lo < 0) {
			snprintf(why, whylen, "root info: byte %td: nonce is not %d hex digits", p - s,
				 2 * STUB_NONCE);
			return HCCL_E_PARA;
		}
		nonce[i] = (unsigned char)(hi << 4 | lo);
	}
	if (p != end) {
		snprintf(why, whylen, "root info: byte %td: text after the nonce", p - s);
		return HCCL_E_PARA;
	}
	/* The bytes travel whole (a broadcast of all 4108), so the zeros must arrive too. */
	for (p = end; p < s + sizeof(ri->internal); p++) {
		if (*p) {
			snprintf(why, whylen, "root info: byte %td: not zero after the text", p - s);
			return HCCL_E_PARA;
		}
	}
	return HCCL_SUCCESS;
}
