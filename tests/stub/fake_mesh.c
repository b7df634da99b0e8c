/* The NPU mesh part of the tests' hccn_tool (fake_tools.c calls it for -ping, -hccs_ping and
 * -lldp when FAKE_HCCN_MESH is set). It was a shell script running tr and awk: with hcclctl
 * and hccn_tool, four process starts per ping, ~3500 in tests/cli/probe-roce-mesh.t; in C
 * it is the one.
 *
 * FAKE_HCCN_MESH  colon-separated topology files (tests/data/hccn_tool/README). Their lines:
 *   dev SERVER DEV IP              device DEV of server SERVER has the address IP
 *   lldp SERVER DEV CHASSIS PORT   device DEV's NIC hears switch CHASSIS (a MAC) on PORT
 *   FROM TO LOSS RTT               a ping from address FROM to TO loses LOSS % of its packets
 *                                  and takes RTT ms (the first packet 1 ms more); none: no reply
 * SERVER, FROM and TO may be * or end in * ("10.0.1.*"); the first matching line of the files,
 * in order, wins; lines starting with # and lines of fewer than 4 words are skipped. The
 * server a call is made for is HCCLCTL_SERVER_ID, which the node side of hcclctl's mesh puts
 * in hccn_tool's environment (every server's side may run in one process). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/stub/fake_mesh.h"

#define MESH_WORDS 5

struct mesh_line {
	char w[MESH_WORDS][128];
	int n;
};

/* "*", a prefix ending in "*" ("10.0.1.*"), or the value itself */
static int match(const char *p, const char *v)
{
	size_t n = strlen(p);
	if (!strcmp(p, "*"))
		return 1;
	if (n && p[n - 1] == '*')
		return !strncmp(v, p, n - 1);
	return !strcmp(p, v);
}

/* The next topology line of f worth reading (4 words or more, not a # comment): 1, or 0
 * at the end. Words past the fifth are counted, not kept. */
static int next_line(FILE *f, struct mesh_line *l)
{
	char buf[1024];
	while (fgets(buf, sizeof(buf), f)) {
		memset(l, 0, sizeof(*l));
		for (char *p = buf;;) {
			p += strspn(p, " \t\r\n");
			if (!*p)
				break;
			size_t k = strcspn(p, " \t\r\n");
			if (l->n < MESH_WORDS)
				snprintf(l->w[l->n], sizeof(l->w[0]), "%.*s", (int)k, p);
			l->n++;
			p += k;
		}
		if (l->n >= 4 && l->w[0][0] != '#')
			return 1;
	}
	return 0;
}

/* Calls fn on each topology line of the files, in order, until it returns nonzero. */
static int each_line(const char *files, int (*fn)(const struct mesh_line *, void *), void *arg)
{
	char path[4096];
	struct mesh_line l;
	for (const char *d = files;;) {
		const char *end = strchr(d, ':');
		int len = end ? (int)(end - d) : (int)strlen(d);
		snprintf(path, sizeof(path), "%.*s", len, d);
		FILE *f = fopen(path, "r");
		if (!f) {
			fprintf(stderr, "hccn_tool: cannot open topology file %s\n", path);
			exit(2);
		}
		int done = 0;
		while (!done && next_line(f, &l))
			done = fn(&l, arg);
		fclose(f);
		if (done || !end)
			return done;
		d = end + 1;
	}
}

struct mesh_call {
	const char *key, *id, *to, *server;
	char from[128], sw[128], port[128];
	double loss, rtt;
};

static int find_device(const struct mesh_line *l, void *arg)
{
	struct mesh_call *c = arg;
	if (!c->from[0] && !strcmp(l->w[0], "dev") && match(l->w[1], c->server) &&
	    !strcmp(l->w[2], c->id))
		snprintf(c->from, sizeof(c->from), "%s", l->w[3]);
	if (!c->sw[0] && !strcmp(l->w[0], "lldp") && match(l->w[1], c->server) &&
	    !strcmp(l->w[2], c->id)) {
		snprintf(c->sw, sizeof(c->sw), "%s", l->w[3]);
		snprintf(c->port, sizeof(c->port), "%s", l->w[4]);
	}
	return 0;
}

static int find_link(const struct mesh_line *l, void *arg)
{
	struct mesh_call *c = arg;
	if (!strcmp(l->w[0], "dev") || !strcmp(l->w[0], "lldp") || !match(l->w[0], c->from) ||
	    !match(l->w[1], c->to))
		return 0;
	c->loss = atof(l->w[2]); /* "-" is 0, as awk reads it */
	c->rtt = atof(l->w[3]);
	return 1;
}

static int print_lldp(const struct mesh_call *c)
{
	if (!c->sw[0])
		return 0; /* no neighbour heard: nothing printed */
	printf("Chassis ID TLV\n\tMAC: %s\nPort ID TLV\n\tIfname: %s\n", c->sw, c->port);
	printf("Time to Live TLV\n\t121\nSystem Description TLV\n\tVersatile Routing Platform "
	       "Software\nVRP (R) software, Version 8.211\n\n");
	printf("System Capabilities TLV\n\tEnabled capabilities: Bridge, Router\nMaximum Frame "
	       "Size TLV\n\t9216\nEnd of LLDPDU TLV\n");
	return 0;
}

static int print_ping(const struct mesh_call *c, const char *v6)
{
	int np = 3, lost = (int)(np * c->loss / 100 + 0.5), got = np - lost;
	int hccs = !strcmp(c->key, "hccs_ping");
	printf("device %s PING%s %s\n", c->id, v6, c->to);
	for (int s = 0; s < np; s++) {
		double t = c->rtt + (s == 0 ? 1.0 : 0); /* the first packet pays the set-up */
		if (!hccs && s < lost)
			printf("recv time out seq=%d\n", s);
		else if (!hccs)
			printf("recv seq=%d,time=%.6fms\n", s, t);
		else
			printf("%s\nrecv seq %d, time = %.3fus, L1 plane check result = 0x0\n",
			       s < lost ? "This pkt send fail!" : "This pkt ping success!", s,
			       s < lost ? 0 : t * 1000);
	}
	if (!hccs) {
		printf("%d packets transmitted, %d received, %.2f%% packet loss\n", np, got,
		       100.0 * lost / np);
	} else {
		double us = got ? c->rtt * 1000 : 0;
		printf("%d packets transmitted, %d received, %.2f%% packets loss\n", np, got,
		       100.0 * lost / np);
		printf("max time %.3fus\nmin time %.3fus\naverage time %.3fus\nTP95 time %.3fus\n", us,
		       us, us, us);
	}
	return lost ? 1 : 0;
}

int fake_hccn_mesh(const char *files, const char *key, const char *id, const char *to,
		   int inet6)
{
	const char *sid = getenv("HCCLCTL_SERVER_ID");
	struct mesh_call c = {.key = key, .id = id, .to = to, .server = sid ? sid : "", .loss = 100};
	each_line(files, find_device, &c);
	if (!c.from[0]) {
		fputs("The device is not exist!\n", stderr);
		return 1;
	}
	if (!strcmp(key, "lldp"))
		return print_lldp(&c);
	each_line(files, find_link, &c);
	return print_ping(&c, inet6 ? "6" : "");
}
