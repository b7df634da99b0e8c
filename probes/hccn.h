/* hccn_tool output (the Ascend NPU RoCE NIC tool): link, net_health, ip, netdetect, gateway,
 * tls, optical and link_stat, as hccn_tool's documented examples and public captures show
 * them. Each parser takes the tool's stdout (need not be NUL-terminated) and returns 0, or
 * -EINVAL with err saying what was missing. Not to be confused with ranktable/'s
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
 * alarm time threshold[60]days", then certificate blocks with end_time[...]. */
struct hccn_tls {
	int enabled;	   /* the switch: 0 or 1 */
	int preconfigured; /* 0, 1, or -1 on builds that do not print it */
	int alarm_days;	   /* -1 when absent */
	int ncerts;
	time_t first_expiry; /* earliest end_time of the certificates; 0 when none */
	char first_expiry_text[40];
};
int hccn_parse_tls(const char *buf, size_t len, struct hccn_tls *t, char *err, size_t errlen);

/* -optical -g: "present : present" or "not present", powers and loss-of-signal flags. */
struct hccn_optical {
	int present;			     /* 1, 0 */
	double tx_mw, rx_mw;		     /* -1 when absent */
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

/* Recognises hccn_tool's own error sentences (stdout or stderr), e.g. "no ip was preset".
 * Returns a short description ("no IP configured", "no gateway configured", "not supported on
 * this product", "device does not exist", "busy", "permission denied", "optical module not
 * present", "link is down", "certificate expired", "command failed") or NULL. */
const char *hccn_known_error(const char *buf, size_t len);

/* Parses "Tue Oct 28 21:46:46 2025" (an optional trailing " GMT" allowed) as if UTC. */
int hccn_parse_time(const char *s, size_t len, time_t *t);

#endif
