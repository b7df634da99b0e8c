/* NPU fault codes and the way MindCluster's device plugin handles them: its faultCode.json
 * sorts every code into a handling class (NotHandleFaultCodes, RestartNPUCodes,
 * SeparateNPUCodes ...). The table built into hcclctl is generated from one version of that
 * file (scripts/gen-faultcodes.py); fc_table_load_json reads another. A code the table does
 * not know is unknown, never healthy. */
#ifndef HCCLCTL_PROBES_FAULTCODE_H
#define HCCLCTL_PROBES_FAULTCODE_H

#include <stddef.h>

/* Least to most severe, the order in which the device plugin picks the most serious class of
 * a chip's codes. */
enum fc_class {
	FC_NOT_HANDLE,
	FC_SUB_HEALTH,
	FC_RESTART_REQUEST,
	FC_RESTART_BUSINESS,
	FC_FREE_RESTART_NPU,
	FC_RESTART_NPU,
	FC_PRE_SEPARATE_NPU,
	FC_SEPARATE_NPU,
	FC_NCLASSES,
};

/* "NotHandle", "SubHealth", "RestartRequest", "RestartBusiness", "FreeRestartNPU",
 * "RestartNPU", "PreSeparateNPU", "SeparateNPU". */
const char *fc_class_name(enum fc_class c);

#define FC_CODE_LEN 17 /* up to 16 hex digits */

struct fc_entry {
	char code[FC_CODE_LEN]; /* normalised: upper case, leading zeros kept */
	unsigned char cls;	/* enum fc_class */
};

struct fc_table {
	const struct fc_entry *v; /* sorted by code, each code once */
	size_t n;
	char source[160];	  /* what the table is: the built-in version, or the file */
	size_t ncount[FC_NCLASSES]; /* codes per class, after the quirks below */
	size_t duplicates;	  /* a code listed twice in one class */
	size_t conflicts;	  /* a code in two classes: the most severe kept */
	size_t invalid;		  /* entries that are not a code (not a string of hex digits) */
	void *owned;		  /* what fc_table_release frees; NULL for the built-in table */
};

/* The built-in table (static data: nothing to release, but fc_table_release is harmless). */
void fc_table_builtin(struct fc_table *t);

/* Reads a faultCode.json: an object whose keys start with a class name ("RestartNPUCodes",
 * "NotHandleFaultCodes", "SeparateNPUNetworkCodes" ...) and whose values are arrays of code
 * strings. Unknown keys are ignored. Returns 0, -ENOMEM, or -EINVAL (not JSON, not an
 * object, or no code at all) with err filled. name goes into t->source. Release with
 * fc_table_release. */
int fc_table_load_json(struct fc_table *t, const char *name, const char *buf, size_t len,
		       char *err, size_t errlen);
void fc_table_release(struct fc_table *t);

/* The class of a code (any case, with or without 0x), or -ENOENT when the table does not
 * know it, -EINVAL when it is not a code. */
int fc_lookup(const struct fc_table *t, const char *code);

/* Normalises a code: strips a 0x prefix, upper-cases, keeps leading zeros. 0, or -EINVAL
 * when it is empty, longer than 16 digits or not hexadecimal. */
int fc_code_normalize(const char *in, size_t n, char *out, size_t outlen);

/* The generated table (probes/faultcode_table.c). */
extern const struct fc_entry fc_builtin_entries[];
extern const size_t fc_builtin_count;
extern const char fc_builtin_source[];

#endif
