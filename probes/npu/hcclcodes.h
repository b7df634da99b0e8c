/* The catalog of error codes that HCCL, HCCP, the runtime and torch_npu print: what each one
 * means, which kind of failure it usually is, and what to do. Kept as tables (one row per code)
 * so that adding a code is adding a row; the log triage (probes/logs/hccllog*.c) looks codes up here
 * and never hard-codes their meaning. Nothing here prints, allocates or exits. */
#ifndef HCCLCTL_PROBES_HCCLCODES_H
#define HCCLCTL_PROBES_HCCLCODES_H

#include <stddef.h>

/* What kind of failure a line, a code or a whole job is. The names are what users read in
 * doctor --logs output and JSON ("kind"). */
enum hcat {
	HCAT_NONE,	  /* "none": no failure */
	HCAT_LINK_DOWN,	  /* "link-down": an NPU NIC / RoCE port / HCCS link is down or erroring */
	HCAT_NET,	  /* "network-unreachable": a peer, port or address cannot be reached or
			   * bound (socket timeouts between nodes, port in use, firewall, wrong NIC) */
	HCAT_RESOURCE,	  /* "memory/resource": device busy or occupied, out of memory, no stream */
	HCAT_RANK_STUCK,  /* "rank-stuck": this rank waited for another that stopped, hung or is
			   * slow: the cause is on the rank waited for (timeout elsewhere) */
	HCAT_OP_MISMATCH, /* "op-mismatch": ranks called different collectives, counts, dtypes */
	HCAT_CONFIG,	  /* "config": rank table, environment variables, TLS, device IP setup */
	HCAT_VERSION,	  /* "version-mismatch": CANN / driver / firmware / package do not fit */
	HCAT_HARDWARE,	  /* "hardware": an NPU fault (ECC, AI core, HBM, device lost) */
	HCAT_UNRESOLVED,  /* "unresolved": errors, but none that says why */
	HCAT_N
};

/* "link-down", "network-unreachable", ...; "?" out of range. */
const char *hcat_name(int cat);
/* The enum for a name hcat_name gives; -1 for any other. */
int hcat_from_name(const char *name);

/* One error code as the logs print it. */
struct hcode {
	const char *code;    /* "EI0006", "EJ0001", "EE9999", "ERR02200", ... upper case */
	int cat;	     /* enum hcat: what it usually means when it is the first error */
	const char *name;    /* the vendor's own short name ("Get_Socket_Timeout"), or "" */
	const char *meaning; /* one sentence, our own words */
	const char *fix;     /* what to check and do, self-contained (no outside references) */
};

/* The entry of code (exactly "EI0006": letters and digits, any case), or NULL. */
const struct hcode *hcode_find(const char *code, size_t len);
/* Every entry, for listing and tests: the i-th, or NULL past the end. */
const struct hcode *hcode_at(size_t i);

/* The sub-messages of inner errors (EI9999/EE9999/EZ9999 "Inner Error!" and the lines after
 * them) and of device-side errors: a fixed text to look for and what it means. */
struct hinner {
	const char *needle;  /* a fixed substring, matched case-sensitively */
	int cat;	     /* enum hcat */
	const char *detail;  /* a short name: "fftsplus-timeout", "sdma-error", ... */
	const char *meaning; /* one sentence */
	const char *fix;     /* self-contained */
};

/* The first entry whose needle occurs in s[0..len), or NULL. */
const struct hinner *hinner_match(const char *s, size_t len);
const struct hinner *hinner_at(size_t i);

/* HcclResult (hccl_types.h): value -> "HCCL_E_TIMEOUT" and its kind; NULL / HCAT_UNRESOLVED for
 * a value without a name. */
/* A numbered code and what it says of a failed job: HcclResult here, aclError in aclcodes.c. */
struct hresult {
	long long v;
	const char *name;
	int cat;
	const char *meaning;
};
/* The row of t[0..n) whose value is v, or NULL. */
const struct hresult *hresult_row(const struct hresult *t, size_t n, long long v);
const char *hresult_name(long long v);
int hresult_cat(long long v);
const char *hresult_meaning(long long v);

/* aclError (the runtime's codes a stream or its setup gives back): value ->
 * "ACL_ERROR_RT_FFTS_PLUS_TIMEOUT" and its kind; NULL / HCAT_UNRESOLVED for a value without
 * a name. */
const char *hacl_name(long long v);
int hacl_cat(long long v);
const char *hacl_meaning(long long v); /* NULL for a code the table lacks */

/* An errNo as HCCL prints it ("errNo[0x0000000005000013]"): the module in bits 24..31 and the
 * HcclResult in the low 16 bits. Returns the HcclResult, or -1 when v is not of that form. */
long long herrno_result(unsigned long long v);

#endif
