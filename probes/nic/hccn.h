/* hccn_tool output (the Ascend NPU RoCE NIC tool): link, net_health, ip, netdetect, gateway,
 * tls, optical and link_stat (hccn.c), ping, hccs_ping and lldp (hccn_ping.c), as
 * hccn_tool's documented examples and public captures show them. Each parser takes the
 * tool's stdout (need not be NUL-terminated) and returns 0, or -EINVAL with err saying what
 * was missing. Not to be confused with ranktable/'s
 * /etc/hccn.conf reader. */
#ifndef HCCLCTL_PROBES_HCCN_H
#define HCCLCTL_PROBES_HCCN_H

#include <stddef.h>
#include <time.h>

/* -link -g: "link status: UP" / "DOWN". *up is 1 or 0. */
int hccn_parse_link(const char *buf, size_t len, int *up, char *err, size_t errlen);

/* -net_health -g: "net health status: Success" (or Socket fail, Receive timeout,
 * Unreachable, Time exceeded, Fault, Init, Thread error, Detect ip set, Unknown). */
int hccn_parse_net_health(const char *buf, size_t len, char *status, size_t slen, char *err,
			  size_t errlen);

/* -ip -g: "ipaddr:A" and "netmask:M", on two lines or one, with or without a space after the
 * colon. */
struct hccn_ip {
	char addr[48], mask[48];
};
int hccn_parse_ip(const char *buf, size_t len, struct hccn_ip *ip, char *err, size_t errlen);

/* -netdetect -g: "netdetect addr: A". -gateway -g: the first address on a line that names
 * the gateway (the exact format is not confirmed; only its error text is public). */
int hccn_parse_netdetect(const char *buf, size_t len, char *addr, size_t alen, char *err,
			 size_t errlen);
int hccn_parse_gateway(const char *buf, size_t len, char *addr, size_t alen, char *err,
		       size_t errlen);

/* -tls -g: "dev_id:0, tls switch[0](0:disable, 1:enable), [tls preconfigured[1](...), ]tls
 * alarm time threshold[60]days", then certificate blocks with end_time[...] and, on newer
 * builds, subject[...] and "tls expiration status[N]", and a "[crl]" block. */
struct hccn_tls {
	int enabled;	   /* the switch: 0 or 1 */
	int preconfigured; /* 0, 1, or -1 on builds that do not print it */
	int alarm_days;	   /* -1 when absent */
	int ncerts;	   /* certificates; the revocation list ("[crl] info") is not one */
	int expiry_status; /* worst "tls expiration status[N]" of the certificates: 0 normal,
			    * 1 near expiration, 2 expired; -1 on builds that do not print it */
	time_t first_expiry; /* earliest end_time of the certificates; 0 when none */
	char first_expiry_text[40];
};
int hccn_parse_tls(const char *buf, size_t len, struct hccn_tls *t, char *err, size_t errlen);

/* -optical -g: "present : present" or "not present", powers, the module's own thresholds
 * and loss-of-signal flags. Powers come one per module ("Rx Power") or one per lane ("Rx
 * Power0" .. "Rx Power3"); what is kept is the lane nearest a fault: the highest Tx and the
 * lowest Rx. Builds print "not present" next to full module readings too, so nrx / ntx say
 * whether the module answered at all. */
struct hccn_optical {
	int present;			     /* 1, 0, as the present line says */
	double tx_mw, rx_mw;		     /* the highest Tx, the lowest Rx; -1 when absent */
	int tx_lane, rx_lane;		     /* their lanes (0 for the one-lane form); -1 */
	size_t ntx, nrx;		     /* power readings printed */
	double tx_high_mw, tx_low_mw;	     /* TxPower High / Low Thres; -1 when absent */
	double rx_high_mw, rx_low_mw;	     /* RxPower High / Low Thres; -1 when absent */
	long tx_los, rx_los, tx_lol, rx_lol; /* -1 when absent */
};
int hccn_parse_optical(const char *buf, size_t len, struct hccn_optical *o, char *err,
		       size_t errlen);

/* -link_stat -g: "[devid N]" or (older) "[device N]" prefixed lines: current time, link up
 * count, link down count (newer builds only) and change records. */
#define HCCN_MAX_RECORDS 64
struct hccn_link_stat {
	time_t now;		   /* "current time", as if UTC; 0 when absent */
	long up_count, down_count; /* -1 when absent */
	size_t nrecords;	   /* records kept (newest first, as printed) */
	size_t ndown_records;	   /* LINK DOWN records, all of them */
	struct {
		time_t when; /* as if UTC; 0 when unreadable */
		int up;
		char text[32];
	} rec[HCCN_MAX_RECORDS];
};
int hccn_parse_link_stat(const char *buf, size_t len, struct hccn_link_stat *s, char *err,
			 size_t errlen);

/* -ping -g address A (RoCE, A2) and -hccs_ping -g address A (A3 super pods), one ping run
 * of a few packets. The -ping form prints "device N PING A" ("PING6" for IPv6), then per
 * packet "recv seq=K,time=T.TTTTTTms" or "recv time out seq=K", then "S packets transmitted,
 * R received, L% packet loss". The -hccs_ping form (from hccn_tool's source, no public
 * capture) prints per packet "This pkt ping success!" (or "send fail", "check recv msg
 * fail", "not start to send") and "recv seq K, time = T.TTTus, ...", then the same summary
 * with "packets loss" and max/min/average/TP95 times. Both are read; a summary missing
 * (an elided capture) is counted from the packet lines. */
#define HCCN_PING_MAX 64
struct hccn_ping {
	int device;	     /* from "device N PING", -1 when absent */
	char target[48];     /* the address pinged, "" when absent */
	long sent, received; /* -1 when neither the summary nor a packet line says */
	double loss_pct;     /* as printed, else computed; -1 when unknown */
	size_t nrtt;	     /* replies with a time (at most HCCN_PING_MAX kept) */
	double rtt_ms[HCCN_PING_MAX];
	size_t nlost;	 /* packets reported lost: time out, send fail, check fail */
	int unreachable; /* "Destination Host Unreachable" */
	int too_long;	 /* "Message too long" */
	int hccs;	 /* the -hccs_ping form */
};
int hccn_parse_ping(const char *buf, size_t len, struct hccn_ping *p, char *err, size_t errlen);
/* The median round trip of the replies (the first packet's set-up cost does not move it),
 * or -1 when there was none. */
double hccn_ping_rtt_ms(const struct hccn_ping *p);

/* -lldp -g: the neighbour the NIC's port hears, in lldptool's layout: a line "NAME TLV",
 * then its value lines, indented ("\tIfname: 400GE1/1/20:2"); a System Description runs
 * over several lines, some not indented, some blank. Values of the form "KIND: VALUE"
 * (MAC, IPv4, Ifname, Local ...) keep KIND apart. A value the poster masked ("...",
 * "26.xx.xx.xx") is kept and flagged. */
struct hccn_lldp {
	char chassis_kind[16], chassis[64]; /* Chassis ID TLV */
	char port_kind[16], port[64];	    /* Port ID TLV */
	char port_desc[64];		    /* Port Description TLV */
	char system_name[96];		    /* System Name TLV */
	char system_desc[192];		    /* System Description TLV, lines joined by " " */
	char mgmt_kind[16], mgmt[64];	    /* Management Address TLV */
	long ttl, max_frame;		    /* Time to Live, Maximum Frame Size; -1 absent */
	int chassis_masked, mgmt_masked;
};
/* 0, or -EINVAL when there is no Chassis ID or Port ID TLV (no neighbour, or not LLDP). */
int hccn_parse_lldp(const char *buf, size_t len, struct hccn_lldp *l, char *err, size_t errlen);
/* Who the switch is, for telling switches apart: the chassis id, else the system name,
 * else the management address; masked values do not count. "" when none is known. */
const char *hccn_lldp_switch(const struct hccn_lldp *l);

/* Recognises hccn_tool's own error sentences (stdout or stderr), e.g. "no ip was preset".
 * Returns a short description ("no IP configured", "no gateway configured", "not supported on
 * this product", "device does not exist", "busy", "permission denied", "optical module not
 * present", "link is down", "certificate expired", "command failed") or NULL. */
const char *hccn_known_error(const char *buf, size_t len);

/* Parses "Tue Oct 28 21:46:46 2025" (an optional trailing " GMT" allowed) as if UTC. */
int hccn_parse_time(const char *s, size_t len, time_t *t);

#endif
