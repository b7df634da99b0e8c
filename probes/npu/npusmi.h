/* npu-smi output: the NPU/chip list (info -l, info -m), HCCS link status (info -t hccs) and
 * the topology matrix (info -t topo), and the HCCS verdicts drawn from them. Formats: those
 * the npu-smi printf calls of the Ascend driver print, and public captures. Parsers take
 * text that need not be NUL-terminated, never print, and return 0 or a negative errno code
 * with err filled. */
#ifndef HCCLCTL_PROBES_NPUSMI_H
#define HCCLCTL_PROBES_NPUSMI_H

#include <stddef.h>

#include "probes/tool/verdict.h"

#define NPUSMI_MAX_CHIPS 128
#define NPUSMI_MAX_LINKS 16 /* npu-smi prints 7 (A2) or 6 (A3 SuperPoD) */
#define NPUSMI_TOPO_MAX 64
#define NPUSMI_NA (~0ULL) /* a value printed as NA or - */

/* One chip of one NPU. */
struct npusmi_chip {
	int npu, chip;
	int logic_id; /* -1 when not known (info -l, or an info -m without the column) */
	int phy_id;   /* A3 "Chip Phy-ID"; -1 when not printed */
	char name[32];
};

struct npusmi_chips {
	struct npusmi_chip v[NPUSMI_MAX_CHIPS];
	size_t n;
	size_t nnpus;
};

/* `npu-smi info -l`: "NPU ID : N" then "Chip Count : C" per NPU. Chips are 0..C-1 (an NPU
 * without a Chip Count line has one). Returns 0, or -EINVAL when no NPU is listed. */
int npusmi_parse_list(const char *buf, size_t len, struct npusmi_chips *c, char *err,
		      size_t errlen);
/* `npu-smi info -m`: the NPU ID / Chip ID / Chip Logic ID [/ Chip Phy-ID] / Chip Name table,
 * its columns placed by the header (a Slot ID, or no logic id, moves them). Rows whose logic
 * id is "-" (the board MCU; named Mcu where there is no logic id) are left out. -EINVAL when
 * there is no row. */
int npusmi_parse_mapping(const char *buf, size_t len, struct npusmi_chips *c, char *err,
			 size_t errlen);

enum npusmi_hccs_field {
	HCCS_LANE_MODE,
	HCCS_LANE_LIST, /* value: the lane bits read as decimal digits, e.g. 1111 */
	HCCS_SPEED,
	HCCS_TX_PACKETS,
	HCCS_TX_BYTES,
	HCCS_RX_PACKETS,
	HCCS_RX_BYTES,
	HCCS_RETRY,
	HCCS_ERROR,
	HCCS_NFIELDS,
};

/* The field's key as npu-smi prints it, e.g. "hccs lane mode". */
const char *npusmi_hccs_key(enum npusmi_hccs_field f);

/* `npu-smi info -t hccs -i ID -c CHIP`. */
struct npusmi_hccs {
	int unsupported;	   /* "This device does not support querying hccs." */
	char health[16];	   /* "OK", "NOK"; "" when the line is missing */
	char first_error_lane[16]; /* "NA" or a lane; "" when missing */
	unsigned long long val[HCCS_NFIELDS][NPUSMI_MAX_LINKS]; /* NPUSMI_NA when NA */
	char lane_list[NPUSMI_MAX_LINKS][12];			/* as printed, e.g. "1111" */
	size_t n[HCCS_NFIELDS]; /* entries of each array; 0 when its line is missing */
};

/* Tolerates any run of spaces and tabs around ':' and between values, a key printed
 * narrower or wider, CRLF, "[a b c]" or "[a, b, c]" with or without spaces inside the
 * brackets, a missing ']', and unknown keys. Returns 0 (also for an unsupported device),
 * or -EINVAL when no hccs field is present or a value is not a number (err says which line). */
int npusmi_parse_hccs(const char *buf, size_t len, struct npusmi_hccs *h, char *err, size_t errlen);

/* `npu-smi info -t topo`: the device columns (NPUn or Phy-IDn; NICn columns dropped) and the
 * connection type between each pair ("X", "HCCS", "HCCS_SW", "SIO", "SYS", "PIX", ...). */
struct npusmi_topo {
	int unsupported; /* "This device does not support querying topo." (PCIe cards) */
	size_t n;
	char label[NPUSMI_TOPO_MAX][16];
	char link[NPUSMI_TOPO_MAX][NPUSMI_TOPO_MAX][12]; /* "" when the row was not printed */
};

/* Returns 0 (also for a device that does not support the query: t->unsupported), or -EINVAL
 * when there is no matrix. */
int npusmi_parse_topo(const char *buf, size_t len, struct npusmi_topo *t, char *err, size_t errlen);

/* 1 for the connection types that are HCCS: HCCS, HCCS_SW and SIO (die to die). */
int npusmi_topo_is_hccs(const char *type);

/* A pair of devices that should be connected through HCCS and is not. */
struct npusmi_topo_miss {
	size_t a, b;	  /* indexes into npusmi_topo.label, a < b */
	char type[12];	  /* what the matrix says (row a) */
	char reverse[12]; /* what row b says, when it differs; else "" */
};

/* The HCCS mesh: devices joined by HCCS links form groups that must be full meshes, and
 * (as on every Ascend board) groups of one size that divides the device count: an isolated
 * card or a group short of a card is completed to that size. Fills up to max misses;
 * returns how many there are (which may exceed max), and the group size in *group. */
size_t npusmi_topo_check(const struct npusmi_topo *t, struct npusmi_topo_miss *miss, size_t max,
			 size_t *group);

/* ---- HCCS verdicts ---- */

struct hccs_link_verdict {
	enum probe_status status;
	const char *state; /* "up", "down", "degraded", "slow", "errors", "unused", "?" */
	char reason[192];  /* "" when nothing to say */
	unsigned long long retry_delta, error_delta; /* between the two reads; 0 without one */
};

/* One chip as probed: the first read, the optional second one and what they mean. */
struct hccs_chip {
	int npu, chip;
	int failed; /* the query failed: err says why */
	char err[384];
	struct npusmi_hccs first, second;
	int have_second;
	size_t nlinks;
	enum probe_status status; /* of the chip itself (health, first error lane) */
	char reason[400];
	struct hccs_link_verdict link[NPUSMI_MAX_LINKS];
};

/* Fills every chip's and link's verdict (see man/hcclctl-probe.1 for the rules): a link is
 * down when its lane mode is 0, no lane is active or its speed is 0 (unused when that is so
 * on every chip), degraded when its lane mode is below the highest seen or a lane is
 * inactive, slow when its speed is below the highest seen, and failing when its error
 * count grew between the reads (retry count: a warning); a chip fails when its health is
 * not OK. interval_s is the time between the reads, for the messages. Returns the worst. */
enum probe_status hccs_assess(struct hccs_chip *chips, size_t n, double interval_s);

/* The value of key in npu-smi's "Key : value" lines (info -t board, -t spod-info, -t health)
 * into out[outlen]: 0, -ENOENT when no line has that key, -EINVAL when the value is empty,
 * too long or not printable. */
int npusmi_field(const char *buf, size_t len, const char *key, char *out, size_t outlen);

#endif
