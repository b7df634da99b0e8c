/* The NPU mesh verdicts (probes/npu/npumesh.c) on meshes built by hand: the widest cause named
 * once, the thresholds at their edges, LLDP, and the node side's answer on the wire. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <cjson/cJSON.h>

#include "probes/npu/npumesh.h"

/* ns servers "s0".."s3" with nd devices each (device d of server s: 10.0.d.s+1); every link
 * replies 3 of 3 at rtt ms. */
static void build(struct npumesh *m, size_t ns, size_t nd, double rtt)
{
	assert_int_equal(npumesh_init(m, ns, ns * nd), 0);
	for (size_t s = 0; s < ns; s++) {
		snprintf(m->srv[s].id, sizeof(m->srv[s].id), "s%zu", s);
		snprintf(m->srv[s].host, sizeof(m->srv[s].host), "s%zu", s);
		for (size_t d = 0; d < nd; d++) {
			struct nm_endpoint *e = &m->ep[s * nd + d];
			e->server = s;
			e->device = (long)d;
			e->rank = (long)(s * nd + d);
			snprintf(e->ip, sizeof(e->ip), "10.0.%zu.%zu", d, s + 1);
		}
	}
	assert_int_equal(npumesh_index(m), 0);
	for (size_t a = 0; a < m->n; a++)
		for (size_t b = 0; b < m->n; b++) {
			struct nm_link *l = npumesh_link(m, a, b);
			if (a == b)
				continue;
			l->state = NM_MEASURED;
			l->sent = 3;
			l->received = 3;
			l->loss_pct = 0;
			l->rtt_ms = rtt;
		}
}

static void cut(struct npumesh *m, size_t a, size_t b)
{
	struct nm_link *l = npumesh_link(m, a, b);
	l->received = 0;
	l->loss_pct = 100;
	l->rtt_ms = -1;
}

static const char *code(const struct npumesh *m, size_t k)
{
	return k < m->nf ? npumesh_kind(m->f[k].code)->code : "(none)";
}

static void test_all_reach(void **state)
{
	struct npumesh m;
	(void)state;
	build(&m, 3, 2, 0.05);
	assert_int_equal(npumesh_judge(&m), 0);
	assert_int_equal(m.nf, 0);
	assert_int_equal(m.status, PROBE_PASS);
	assert_int_equal(m.tried, 30);
	assert_int_equal(m.replied, 30);
	assert_true(m.median_rtt[NM_RAIL] == 0.05 && m.median_rtt[NM_CROSS_RAIL] == 0.05);
	assert_int_equal(npumesh_class(&m, 0, 1), NM_SAME_SERVER);
	assert_int_equal(npumesh_class(&m, 0, 2), NM_RAIL);
	assert_int_equal(npumesh_class(&m, 0, 3), NM_CROSS_RAIL);
	npumesh_release(&m);
}

static void test_isolated_and_its_variants(void **state)
{
	struct npumesh m;
	(void)state;
	build(&m, 3, 2, 0.05);
	for (size_t b = 0; b < m.n; b++)
		if (b != 3) {
			cut(&m, 3, b);
			cut(&m, b, 3);
		}
	assert_int_equal(npumesh_judge(&m), 0);
	assert_int_equal(m.nf, 1); /* its 10 dead links are not named again */
	assert_string_equal(code(&m, 0), "device-isolated");
	assert_string_equal(m.f[0].msg, "server s1 device 1 (10.0.1.2) reaches none of its 5 peers "
					"and none of 5 reaches it");
	assert_int_equal(m.status, PROBE_FAIL);
	assert_int_equal(m.ep[3].status, PROBE_FAIL);
	assert_int_equal(m.ep[0].status, PROBE_PASS);
	npumesh_release(&m);

	build(&m, 3, 2, 0.05);
	for (size_t b = 0; b < m.n; b++)
		if (b != 3)
			cut(&m, b, 3);
	assert_int_equal(npumesh_judge(&m), 0);
	assert_int_equal(m.nf, 1);
	assert_string_equal(code(&m, 0), "device-unreached");
	assert_string_equal(m.f[0].msg, "none of 5 peers reaches server s1 device 1 (10.0.1.2), "
					"though it reaches 5 of 5");
	char fix[400];
	npumesh_fix(&m, &m.f[0], fix, sizeof(fix));
	assert_string_equal(fix, "compare the rank table's device_ip with the NIC's address "
				 "(hccn_tool -i 1 -ip -g, or hcclctl probe roce --ranktable on its "
				 "server)");
	npumesh_release(&m);
}

static void test_pairs(void **state)
{
	struct npumesh m;
	char fix[400];
	(void)state;
	build(&m, 3, 2, 0.05);
	cut(&m, 0, 5);
	assert_int_equal(npumesh_judge(&m), 0);
	assert_int_equal(m.nf, 1);
	assert_string_equal(code(&m, 0), "pair-down");
	assert_string_equal(m.f[0].msg,
			    "server s0 device 0 (10.0.0.1) -> server s2 device 1 "
			    "(10.0.1.3): no reply (0 of 3), though the other way replies");
	npumesh_fix(&m, &m.f[0], fix, sizeof(fix));
	assert_string_equal(fix, "ping it by hand on the sending server (hccn_tool -i 0 -ping -g "
				 "address 10.0.1.3) and check the routes and ACLs on that path");
	npumesh_release(&m);

	build(&m, 3, 2, 0.05);
	cut(&m, 0, 5);
	cut(&m, 5, 0);
	assert_int_equal(npumesh_judge(&m), 0);
	assert_int_equal(m.nf, 1);
	assert_string_equal(code(&m, 0), "pair-down-both");
	assert_string_equal(m.f[0].msg, "server s0 device 0 (10.0.0.1) <-> server s2 device 1 "
					"(10.0.1.3): no reply either way (0 of 3, 0 of 3)");
	npumesh_release(&m);

	/* two servers, one device each: a dead pair is a pair, not two isolated devices */
	build(&m, 2, 1, 0.05);
	cut(&m, 0, 1);
	cut(&m, 1, 0);
	assert_int_equal(npumesh_judge(&m), 0);
	assert_string_equal(code(&m, 0), "none-reach");
	assert_string_equal(m.f[0].msg,
			    "none of the 2 devices reaches another: no reply on any of 2 links");
	npumesh_release(&m);
}

static void test_rail(void **state)
{
	struct npumesh m;
	(void)state;
	/* rail 1 dead: its NICs reach nothing at all */
	build(&m, 4, 2, 0.05);
	for (size_t a = 0; a < m.n; a++)
		for (size_t b = 0; b < m.n; b++)
			if (a != b && (m.ep[a].device == 1 || m.ep[b].device == 1))
				cut(&m, a, b);
	assert_int_equal(npumesh_judge(&m), 0);
	assert_int_equal(m.nf, 1);
	assert_string_equal(code(&m, 0), "rail-down");
	assert_string_equal(m.f[0].msg, "rail 1: none of its 4 devices reaches another across "
					"servers (12 links), and 0 of their 16 links to other "
					"devices reply");
	assert_int_equal(m.ep[1].status, PROBE_FAIL);
	assert_int_equal(m.ep[0].status, PROBE_PASS);
	npumesh_release(&m);

	/* a rail of 2 devices is a pair */
	build(&m, 2, 2, 0.05);
	cut(&m, 1, 3);
	cut(&m, 3, 1);
	assert_int_equal(npumesh_judge(&m), 0);
	assert_int_equal(m.nf, 1);
	assert_string_equal(code(&m, 0), "pair-down-both");
	npumesh_release(&m);
}

static void test_loss_and_rtt(void **state)
{
	struct npumesh m;
	(void)state;
	build(&m, 3, 2, 0.05);
	npumesh_link(&m, 2, 4)->received = 2;
	npumesh_link(&m, 2, 4)->loss_pct = 33.33;
	npumesh_link(&m, 4, 3)->rtt_ms = 0.9;
	/* the edges: 0.1 ms (twice the median) is not slow, 0.151 ms (over 3 times) is */
	npumesh_link(&m, 0, 2)->rtt_ms = 0.1;
	npumesh_link(&m, 1, 3)->rtt_ms = 0.151;
	assert_int_equal(npumesh_judge(&m), 0);
	assert_int_equal(m.nf, 3);
	assert_string_equal(code(&m, 0), "loss");
	assert_string_equal(m.f[0].msg, "server s1 device 0 (10.0.0.2) -> server s2 device 0 "
					"(10.0.0.3): 33.33 % loss (2 of 3 replied)");
	assert_string_equal(code(&m, 1), "rtt");
	assert_string_equal(m.f[1].msg, "server s0 device 1 (10.0.1.1) -> server s1 device 1 "
					"(10.0.1.2): 0.151 ms, 3.0 times the median 0.050 ms of "
					"links within a rail");
	assert_string_equal(code(&m, 2), "rtt");
	assert_string_equal(m.f[2].msg, "server s2 device 0 (10.0.0.3) -> server s1 device 1 "
					"(10.0.1.2): 0.900 ms, 18.0 times the median 0.050 ms of "
					"links across rails");
	assert_int_equal(m.status, PROBE_WARN);
	npumesh_release(&m);

	/* a device whose links are all slow is named once */
	build(&m, 3, 2, 0.05);
	for (size_t b = 0; b < m.n; b++)
		if (b != 1)
			npumesh_link(&m, 1, b)->rtt_ms = npumesh_link(&m, b, 1)->rtt_ms = 0.6;
	assert_int_equal(npumesh_judge(&m), 0);
	assert_int_equal(m.nf, 1);
	assert_string_equal(code(&m, 0), "device-rtt");
	assert_string_equal(m.f[0].msg, "server s0 device 1 (10.0.1.1): 10 of its 10 links (in "
					"and out) are slow, up to 0.600 ms");
	npumesh_release(&m);
}

static void set_lldp(struct npumesh *m, size_t i, const char *sw, const char *port)
{
	m->ep[i].lldp = 1;
	snprintf(m->ep[i].sw, sizeof(m->ep[i].sw), "%s", sw);
	snprintf(m->ep[i].port, sizeof(m->ep[i].port), "%s", port);
}

static void test_lldp(void **state)
{
	struct npumesh m;
	char port[32];
	(void)state;
	build(&m, 3, 2, 0.05);
	for (size_t i = 0; i < m.n; i++) {
		snprintf(port, sizeof(port), "400GE1/1/%zu:1", m.ep[i].server + 1);
		set_lldp(&m, i, m.ep[i].device ? "bb" : "aa", port);
	}
	assert_int_equal(npumesh_judge(&m), 0);
	assert_int_equal(m.nf, 0);
	npumesh_release(&m);

	build(&m, 3, 2, 0.05);
	for (size_t i = 0; i < m.n; i++) {
		snprintf(port, sizeof(port), "400GE1/1/%zu:1", m.ep[i].server + 1);
		set_lldp(&m, i, m.ep[i].device ? "bb" : "aa", port);
	}
	set_lldp(&m, 3, "aa", "400GE1/1/2:1"); /* server 1's two NICs on one port */
	set_lldp(&m, 5, "cc", "400GE1/1/3:1"); /* rail 1 on a switch of its own */
	assert_int_equal(npumesh_judge(&m), 0);
	assert_int_equal(m.nf, 2);
	assert_string_equal(code(&m, 0), "lldp-same-port");
	assert_string_equal(m.f[0].msg, "server s1 device 0 (10.0.0.2) and server s1 device 1 "
					"(10.0.1.2) are both on switch aa port 400GE1/1/2:1");
	assert_string_equal(code(&m, 1), "lldp-rail-split");
	assert_string_equal(m.f[1].msg, "rail 1 spans 3 switches where the other rails span 1: "
					"server s1 device 1 (10.0.1.2) on aa, server s2 device 1 "
					"(10.0.1.3) on cc; 1 other device of rail 1 on bb");
	npumesh_release(&m);
}

static void test_reply(void **state)
{
	struct npumesh m;
	char err[256];
	struct hccn_ping p = {.device = 0,
			      .sent = 3,
			      .received = 2,
			      .loss_pct = 33.33,
			      .nrtt = 2,
			      .rtt_ms = {0.097, 0.066}};
	struct hccn_lldp l = {.chassis = "0c:00:00:00:00:a0", .port = "400GE1/1/1:1"};
	(void)state;
	build(&m, 2, 1, 0.05);
	for (size_t i = 0; i < m.n * m.n; i++)
		m.l[i].state = NM_UNTRIED;
	cJSON *d = npumesh_reply_new("s0");
	npumesh_reply_ping(d, 0, "10.0.0.2", &p, NULL);
	npumesh_reply_ping(d, 0, "10.9.9.9", &p, NULL); /* not in the mesh: ignored */
	npumesh_reply_lldp(d, 0, &l, NULL);
	char *txt = cJSON_PrintUnformatted(d);
	assert_int_equal(npumesh_reply_parse(&m, 0, 4, txt, strlen(txt), err, sizeof(err)), 0);
	const struct nm_link *k = npumesh_link(&m, 0, 1);
	assert_int_equal(k->state, NM_MEASURED);
	assert_int_equal(k->round, 4);
	assert_int_equal(k->received, 2);
	assert_true(k->rtt_ms == 0.0815);
	assert_int_equal(m.ep[0].lldp, 1);
	assert_string_equal(m.ep[0].sw, "0c:00:00:00:00:a0");
	/* the answer of another server is not taken */
	assert_int_equal(npumesh_reply_parse(&m, 1, 4, txt, strlen(txt), err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, "the answer is from server 's0', not 's1'");
	free(txt);
	cJSON_Delete(d);
	d = npumesh_reply_new("s1");
	npumesh_reply_ping(d, 0, "10.0.0.1", NULL, "hccn_tool is busy");
	txt = cJSON_PrintUnformatted(d);
	assert_int_equal(npumesh_reply_parse(&m, 1, 0, txt, strlen(txt), err, sizeof(err)), 0);
	assert_int_equal(npumesh_link(&m, 1, 0)->state, NM_ERROR);
	assert_string_equal(npumesh_link(&m, 1, 0)->reason, "hccn_tool is busy");
	free(txt);
	cJSON_Delete(d);
	assert_int_equal(npumesh_reply_parse(&m, 0, 0, "{\"exit_code\": 3}", 16, err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, "the answer is not hcclctl-npu-pings/1 (an older hcclctl there?)");
	assert_int_equal(npumesh_reply_parse(&m, 0, 0, "[", 1, err, sizeof(err)), -EINVAL);
	assert_int_equal(npumesh_judge(&m), 0);
	assert_string_equal(code(&m, 0), "ping-error");
	assert_string_equal(m.f[0].msg, "server s1 device 0 (10.0.0.2): hccn_tool could not ping 1 "
					"of its 1 peers: hccn_tool is busy");
	assert_int_equal(m.status, PROBE_UNKNOWN);
	npumesh_release(&m);
}

static void test_not_run_and_no_ip(void **state)
{
	struct npumesh m;
	(void)state;
	build(&m, 3, 1, 0.05);
	m.ep[2].ip[0] = '\0';
	m.srv[1].down = 1;
	snprintf(m.srv[1].why, sizeof(m.srv[1].why), "cannot connect");
	for (size_t b = 0; b < m.n; b++)
		npumesh_link(&m, 1, b)->state = NM_UNTRIED;
	for (size_t a = 0; a < m.n; a++) {
		npumesh_link(&m, a, 2)->state = NM_UNTRIED;
		npumesh_link(&m, 2, a)->state = NM_UNTRIED;
	}
	assert_int_equal(npumesh_judge(&m), 0);
	assert_int_equal(m.nf, 2);
	assert_string_equal(code(&m, 0), "no-device-ip");
	assert_string_equal(m.f[0].msg, "server s2 device 0 (rank 2) has no device_ip in the rank "
					"table, so it was not pinged");
	assert_string_equal(code(&m, 1), "server-not-run");
	assert_string_equal(m.f[1].msg,
			    "server s1: its pings did not run (cannot connect), so what "
			    "its 1 devices reach is not known");
	assert_int_equal(m.unknown, 1);
	assert_int_equal(m.status, PROBE_UNKNOWN);
	npumesh_release(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_all_reach),
		cmocka_unit_test(test_isolated_and_its_variants),
		cmocka_unit_test(test_pairs),
		cmocka_unit_test(test_rail),
		cmocka_unit_test(test_loss_and_rtt),
		cmocka_unit_test(test_lldp),
		cmocka_unit_test(test_reply),
		cmocka_unit_test(test_not_run_and_no_ip),
	};
	return cmocka_run_group_tests_name("npumesh", tests, NULL, NULL);
}
