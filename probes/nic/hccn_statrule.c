/* Which non-zero -stat -g counters are errors, one row per counter family. The meanings come
 * from the NPU's DCMI reference (dcmi_get_netdev_pkt_stats_info names the same fields) and
 * HCCL's troubleshooting docs; the families are matched by pattern so that the counters of
 * newer drivers (per-priority PFC, other *_err_* names) land in the right row.
 *
 * No row is FAIL: the counters only grow until someone clears them, so a non-zero total may be
 * months old. A WARN says "look at this port" and names the counters; two readings (or a
 * cleared port that counts again) tell whether the fault is live. */
#include <fnmatch.h>
#include <stddef.h>
#include <string.h>

#include "probes/nic/hccn_stat.h"

static const struct hccn_stat_rule rules[] = {
	{{"roce_rx_err_pkt_num", "roce_tx_err_pkt_num"},
	 PROBE_WARN,
	 "RoCE packets in error",
	 "bad packets the RoCE engine received or sent: lost or corrupted RDMA traffic"},
	{{"roce_verification_err_num"},
	 PROBE_WARN,
	 "RoCE packets failing checks",
	 "ICRC, length or destination port checks failed: packets corrupted on the path"},
	{{"roce_qp_status_err_num", "roce_err_qp_status_num"},
	 PROBE_WARN,
	 "packets to a queue pair in error",
	 "a peer kept sending to a connection that had failed: a broken or killed job's links"},
	{{"roce_new_pkt_rty_num"},
	 PROBE_WARN,
	 "RoCE retransmissions",
	 "the NIC resent packets that were not acknowledged: packet loss on the network"},
	{{"roce_out_of_order_num", "roce_err_psn_num"},
	 PROBE_WARN,
	 "RoCE packets out of sequence",
	 "packets arrived with a sequence number other than the next one: loss or reordering, "
	 "each answered by a retransmission"},
	{{"roce_unexpected_ack_num", "roce_err_ack_num"},
	 PROBE_PASS,
	 "unexpected ACKs",
	 "the NPU drops ACKs it did not expect without harm to traffic"},
	{{"mac_rx_fcs_err_pkt_num", "mac_*_fcs_*"},
	 PROBE_WARN,
	 "frames with a bad FCS",
	 "frames corrupted on the wire: fibre, optical module, or the switch port"},
	{{"mac_*_bad_pkt_num"},
	 PROBE_WARN,
	 "bad Ethernet frames",
	 "frames the MAC sent or received broken (checksum, length or runt)"},
	{{"mac_*_bad_oct_num"},
	 PROBE_PASS,
	 "bytes of bad frames",
	 "the bytes of the frames the bad_pkt counters already count"},
	{{"*pfc*", "*pause*"},
	 PROBE_PASS,
	 "flow control",
	 "PFC and pause frames: the lossless network throttling a busy link, normal under load"},
	{{"*cnp*", "*ecn*"},
	 PROBE_PASS,
	 "congestion notification",
	 "ECN marks and CNPs: congestion control at work, normal under load"},
	{{"*_all_*", "*_total_*", "*_rc_pkt_num", "*cqe*"},
	 PROBE_PASS,
	 "traffic",
	 "packets, bytes and completions: the port's traffic"},
	{{"*err*", "*bad*", "*drop*", "*fail*"},
	 PROBE_WARN,
	 "other error counters",
	 "a counter this table does not know whose name says it counts errors"},
};

const struct hccn_stat_rule *hccn_stat_rules(size_t *n)
{
	*n = sizeof(rules) / sizeof(rules[0]);
	return rules;
}

const struct hccn_stat_rule *hccn_stat_rule_for(const char *name)
{
	for (size_t r = 0; r < sizeof(rules) / sizeof(rules[0]); r++)
		for (size_t p = 0; p < 4 && rules[r].pattern[p]; p++)
			if (!fnmatch(rules[r].pattern[p], name, 0))
				return &rules[r];
	return NULL;
}

size_t hccn_stat_findings(const struct hccn_stat *s, size_t *idx, size_t max,
			  enum probe_status *worst)
{
	size_t n = 0;
	*worst = PROBE_PASS;
	for (size_t r = 0; r < sizeof(rules) / sizeof(rules[0]); r++) {
		if (rules[r].status == PROBE_PASS)
			continue;
		for (size_t i = 0; i < s->n && n < max; i++) {
			if (!s->c[i].value || hccn_stat_rule_for(s->c[i].name) != &rules[r])
				continue;
			idx[n++] = i;
			*worst = probe_status_worst(*worst, rules[r].status);
		}
	}
	return n;
}
