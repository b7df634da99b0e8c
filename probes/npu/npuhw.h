/* npu-smi's hardware-health queries: the ECC counters (info -t ecc), temperature, power and
 * AI-core clock (info -t common), the health state and its error codes (info -t health), the
 * current fault events (info -t current-fault-event), the chip table of `npu-smi info` (each
 * chip's PCIe bus id), and the verdicts drawn from them. As in npusmi.h: the text need not be
 * NUL-terminated, nothing is printed, and the parsers return 0 or a negative errno code with
 * err filled. Keys are matched whole (runs of blanks folded, case ignored), never by prefix or
 * substring: "HBM Single Bit Next-Isolated Pages Count" is not "HBM Single Bit Isolated Pages
 * Count". */
#ifndef HCCLCTL_PROBES_NPUHW_H
#define HCCLCTL_PROBES_NPUHW_H

#include <stddef.h>

#include "probes/tool/verdict.h"

#define NPUHW_NA (~0ULL)     /* a counter npu-smi did not print, or printed as NA */
#define NPUHW_MAX_CODES 32   /* error codes or events kept per query */
#define NPUHW_CODE_LEN 17    /* 16 hex digits and the NUL */
#define NPUHW_MAX_CHIPS 128

/* 1 when npu-smi answered "This device does not support querying ..." (on stdout or
 * stderr): the query does not exist on this board, which is not an error. */
int npuhw_unsupported(const char *buf, size_t len);

/* ---- info -t ecc ---- */

enum npuhw_ecc_field {
	ECC_DDR_SBE,	     /* DDR Single Bit Error Count */
	ECC_DDR_DBE,	     /* DDR Double Bit Error Count */
	ECC_DDR_SBE_AGG,     /* DDR Single Bit Aggregate Total Err Cnt */
	ECC_DDR_DBE_AGG,     /* DDR Double Bit Aggregate Total Err Cnt */
	ECC_DDR_SB_ISO,	     /* DDR Single Bit Isolated Pages Count */
	ECC_DDR_DB_ISO,	     /* DDR Double Bit Isolated Pages Count */
	ECC_HBM_SBE,	     /* the same six for HBM */
	ECC_HBM_DBE,
	ECC_HBM_SBE_AGG,
	ECC_HBM_DBE_AGG,
	ECC_HBM_SB_ISO,
	ECC_HBM_DB_ISO,
	ECC_HBM_SB_NEXT_ISO, /* HBM Single Bit Next-Isolated Pages Count (910B, A3, 950) */
	ECC_HBM_DB_NEXT_ISO, /* HBM Double Bit Next-Isolated Pages Count */
	ECC_NFIELDS,
};

/* The key as npu-smi prints it. */
const char *npuhw_ecc_key(enum npuhw_ecc_field f);

struct npuhw_ecc {
	int unsupported;
	unsigned long long v[ECC_NFIELDS]; /* NPUHW_NA when not printed */
	size_t nfields;			   /* the fields printed */
};

/* Returns 0 (also for a board without the query: e->unsupported), or -EINVAL when no ECC
 * key is present or a counter is not a number (err names the line). */
int npuhw_parse_ecc(const char *buf, size_t len, struct npuhw_ecc *e, char *err, size_t errlen);

/* The ECC verdict of one chip: multi-bit errors and isolated (or to-be-isolated) pages FAIL,
 * single-bit errors WARN; with a second reading (may be NULL), any counter that grew is
 * named with its growth. reason gets what was found ("" when nothing). */
enum probe_status npuhw_ecc_assess(const struct npuhw_ecc *first, const struct npuhw_ecc *second,
				   char *reason, size_t len);

/* ---- info -t common ---- */

struct npuhw_common {
	int unsupported;
	long usage;	       /* Aicore Usage Rate(%); -1 when not printed */
	long freq, cur_freq;   /* Aicore Freq(MHZ) (rated) and Aicore curFreq(MHZ); -1 */
	long aicores;	       /* Aicore Count; -1 */
	long temp;	       /* Temperature(C) of the chip (not of the board's MCU); -1000 */
	double power;	       /* NPU Real-time Power(W); -1 */
	long hbm_usage;	       /* HBM Usage Rate(%); -1 */
};

/* The first chip block only: fields after a "Chip Name : mcu" line are the board MCU's.
 * Returns 0 (also when unsupported), or -EINVAL when none of the fields is present. */
int npuhw_parse_common(const char *buf, size_t len, struct npuhw_common *c, char *err,
		       size_t errlen);

/* Limits of the thermal verdict (see npuhw.c for why these numbers). */
#define NPUHW_TEMP_WARN 85
#define NPUHW_TEMP_FAIL 100
#define NPUHW_BUSY_PCT 50

/* Temperature at or above NPUHW_TEMP_FAIL: FAIL; at or above NPUHW_TEMP_WARN: WARN; the
 * AI cores below their rated clock while at least NPUHW_BUSY_PCT % busy: WARN (throttled).
 * An idle chip below its rated clock is not throttled: the clock drops when idle. */
enum probe_status npuhw_thermal_assess(const struct npuhw_common *c, char *reason, size_t len);

/* ---- info -t health ---- */

struct npuhw_health {
	char status[24]; /* "OK", "Warning", "Alarm", "Critical" ...; "" when missing */
	char codes[NPUHW_MAX_CODES][NPUHW_CODE_LEN]; /* normalised (fc_code_normalize) */
	size_t ncodes;
	char info[160];	 /* Error Information's first line, "" for NA */
};

/* "Health Status" (chip level) or "Health" (card level), "Error Code" (NA, or codes separated
 * by blanks or commas), "Error Information" and its continuation lines (": ..." after blank
 * lines, which are never codes). 0, or -EINVAL without a health key. */
int npuhw_parse_health(const char *buf, size_t len, struct npuhw_health *h, char *err,
		       size_t errlen);

/* ---- info -t current-fault-event ---- */

struct npuhw_events {
	int unsupported;
	long count; /* Fault Event Count; -1 when not printed */
	struct {
		char code[NPUHW_CODE_LEN];
		int severity; /* -1 when not printed */
	} v[NPUHW_MAX_CODES];
	size_t n;
};

/* Every "event id=0x..." (and its "severity=N") of the output. 0, or -EINVAL when neither a
 * Fault Event Count nor an event is present. */
int npuhw_parse_events(const char *buf, size_t len, struct npuhw_events *e, char *err,
		       size_t errlen);

/* ---- npu-smi info (the table) ---- */

struct npuhw_chip_row {
	int npu, chip;
	int phy_id;	 /* A3 "Chip Phy-ID"; -1 when not printed */
	int dev_id;	 /* 310B / 310P "Chip Device"; -1 when not printed */
	char name[24];	 /* "910B1"; "" when masked or missing */
	char health[16]; /* of the NPU row */
	char bus[16];	 /* "0000:c1:00.0", lower case as sysfs spells it; "" when npu-smi
			  * printed NA (no PCIe link) or the poster masked it */
	int bus_masked;	 /* "0000:xx:00.0" */
};

struct npuhw_table {
	struct npuhw_chip_row v[NPUHW_MAX_CHIPS];
	size_t n;
	size_t nobus; /* rows whose bus id is NA or masked */
	int elided;   /* a "..." line stood for rows left out */
};

/* Cells are split on '|', never by column: rows may be narrower or wider (npu-smi 26 pads
 * them wider). In each block between separator lines the first row is the NPU's and the
 * second its chip's, whose first cell may carry a second id (the A3's Phy-ID, the 310's
 * Device). The process table below is ignored. 0, or -EINVAL when there is no chip row
 * (err names the line the NPU rows start on). */
int npuhw_parse_table(const char *buf, size_t len, struct npuhw_table *t, char *err,
		      size_t errlen);

#endif
