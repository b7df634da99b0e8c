/* The forms some word families need beyond their phrases (see wordfam.h): an exit code
 * that says a process failed, a Python exception's class, an HTTP error status, an errno of
 * access refused, an address with no host, a quoted value called invalid, an assignment
 * advised. */
#include <ctype.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>

#include "probes/logs/hlogint.h"
#include "probes/logs/logtext.h"
#include "probes/logs/wordfam.h"

/* A process's end in words that say it failed: an exit code after "exit", the first number
 * within a few marks of the word, not 0 ("exitcode: 1", "returned non-zero exit status 255.";
 * not "exit code 0"), or an exit "unexpectedly". */
int hlog__wf_exit_failed(struct pspan s, long long *port)
{
	(void)port;
	if (hlog__has_nocase(s, "exited unexpectedly"))
		return 1;
	for (size_t i = 0; i + 4 <= s.n; i++) {
		if (strncasecmp(s.s + i, "exit", 4) || (i && hlog__word_char(s.s[i - 1])))
			continue;
		size_t k = i + 4, lim = i + 24;
		while (k < s.n && k < lim && !isdigit((unsigned char)s.s[k]))
			k++;
		if (k >= s.n || k >= lim || (k && isdigit((unsigned char)s.s[k - 1])))
			continue;
		long long v = 0;
		while (k < s.n && isdigit((unsigned char)s.s[k]) && v < 1000)
			v = v * 10 + (s.s[k++] - '0');
		if (v != 0)
			return 1;
	}
	return 0;
}
/* A Python exception's class before its message, as the traceback ends: "IndexError: ...",
 * "torch.distributed.DistBackendError: ..." (a name with a lower-case letter ending in Error or
 * Exception, right before ':'), at the start of the line or after a prefix's ' ', ']' or ':'
 * ("[1,2]<stderr>:tensorflow.python.framework.errors_impl.FailedPreconditionError: ..."). */
int hlog__wf_exception_class(struct pspan s, long long *port)
{
	(void)port;
	for (size_t i = 0; i < s.n; i++) {
		if (i && !(s.s[i - 1] == ' ' || s.s[i - 1] == ']' || s.s[i - 1] == ':'))
			continue;
		size_t k = i, cls = i; /* cls: the class's name, after its module's */
		int lower = 0;
		while (k < s.n && (isalnum((unsigned char)s.s[k]) || s.s[k] == '_' || s.s[k] == '.')) {
			lower |= islower((unsigned char)s.s[k]);
			if (s.s[k++] == '.')
				cls = k;
		}
		if (k == i || k >= s.n || s.s[k] != ':' || !lower || cls >= k ||
		    !isupper((unsigned char)s.s[cls]))
			continue;
		/* a name before the suffix: "Error:" alone is a level, not a class */
		if ((k - cls > 5 && !memcmp(s.s + k - 5, "Error", 5)) ||
		    (k - cls > 9 && !memcmp(s.s + k - 9, "Exception", 9)))
			return 1;
	}
	return 0;
}
int hlog__wf_http_status(struct pspan s, long long *port)
{
	(void)port;
	return hlog__http_failure(s);
}

/* Whether the line's errno is EPERM (1) or EACCES (13). */
int hlog__wf_errno_access(struct pspan s, long long *port)
{
	(void)port;
	int e = hlog__errno_of(s);
	return e == 1 || e == 13;
}

/* ":PORT" with nothing before the colon where a host belongs: after a blank, '=', '"', '\''
 * or "//", and followed by the port's digits up to the end of the word */
int hlog__wf_empty_host(struct pspan s, long long *port)
{
	for (size_t i = 0; i + 1 < s.n; i++) {
		if (s.s[i] != ':' || !isdigit((unsigned char)s.s[i + 1]))
			continue;
		char b = i ? s.s[i - 1] : ' ';
		if (!(b == ' ' || b == '\t' || b == '=' || b == '"' || b == '\'' ||
		      (b == '/' && i >= 2 && s.s[i - 2] == '/')))
			continue;
		/* a quote that closes a word is a key's, the number its value: JSON's
		 * "\"file_line\":3941", not an empty host in quotes ("addr=\":29500\"") */
		if ((b == '"' || b == '\'') && i >= 2 && hlog__word_char(s.s[i - 2]))
			continue;
		long long v = 0;
		size_t k = i + 1;
		while (k < s.n && isdigit((unsigned char)s.s[k]) && v < 100000)
			v = v * 10 + (s.s[k++] - '0');
		/* the port ends the word: not a time ("at :30:45"), a version or a name */
		if (v < 1 || v > 65535 ||
		    (k < s.n && (hlog__word_char(s.s[k]) || s.s[k] == '.' ||
				 (s.s[k] == ':' && k + 1 < s.n && isdigit((unsigned char)s.s[k + 1])))))
			continue;
		if (port)
			*port = v;
		return 1;
	}
	return 0;
}

/* A value in quotes or angle brackets, then "is invalid" or "is not valid": "<0-7,64-71> is
 * invalid", "'abc' is not valid". The quotes say the writer shows the value it was given. */
int hlog__wf_quoted_invalid(struct pspan s, long long *port)
{
	(void)port;
	static const char *const tails[] = { " is invalid", " is not valid" };
	for (size_t t = 0; t < sizeof(tails) / sizeof(tails[0]); t++) {
		size_t tl = strlen(tails[t]);
		for (size_t i = 1; i + tl <= s.n; i++) {
			if (strncasecmp(s.s + i, tails[t], tl) ||
			    (i + tl < s.n && hlog__word_char(s.s[i + tl])))
				continue;
			char close = s.s[i - 1];
			char open = close == '>' ? '<' : close;
			if (!(open == '<' || open == '\'' || open == '"' || open == '`'))
				continue;
			for (size_t k = i - 1; k-- > 0;)
				if (s.s[k] == open)
					return k + 2 < i; /* something between the marks */
		}
	}
	return 0;
}

/* "set" or "export" before an environment variable's assignment, NAME=VALUE in capitals:
 * "set CCL_ZE_IPC_EXCHANGE=sockets explicitly", "export NCCL_IB_HCA=mlx5_0". The program
 * names the setting it needs and its value. */
int hlog__wf_set_assignment(struct pspan s, long long *port)
{
	(void)port;
	static const char *const verbs[] = { "set ", "export " };
	for (size_t v = 0; v < sizeof(verbs) / sizeof(verbs[0]); v++) {
		size_t vl = strlen(verbs[v]);
		for (size_t i = 0; i + vl < s.n; i++) {
			if (strncasecmp(s.s + i, verbs[v], vl) || (i && hlog__word_char(s.s[i - 1])))
				continue;
			size_t k = i + vl, upper = 0;
			while (k < s.n && (isupper((unsigned char)s.s[k]) || isdigit((unsigned char)s.s[k]) ||
					   s.s[k] == '_'))
				upper += isupper((unsigned char)s.s[k++]) != 0;
			if (upper >= 2 && k + 1 < s.n && s.s[k] == '=' && s.s[k + 1] != ' ' &&
			    isupper((unsigned char)s.s[i + vl]))
				return 1;
		}
	}
	return 0;
}

/* An environment variable's name, in capitals with an underscore, said to be unset: Azure's
 * health check "check_all_reduce_dependencies: HPCX_DIR is not set. Ensure HPCX is installed
 * and sourced correctly.", NVIDIA's driver container "prior driver reload failure due to
 * UNLOAD_STORAGE_MODULES not set to "true"" (the setting the program needs, whatever its
 * prefix) */
int hlog__wf_env_unset(struct pspan s, long long *port)
{
	(void)port;
	static const char *const tails[] = {" is not set", " was not set", " not set"};
	for (size_t i = 3; i < s.n; i++) {
		size_t tl = 0;
		if (s.s[i] != ' ')
			continue;
		for (size_t t = 0; t < sizeof(tails) / sizeof(tails[0]) && !tl; t++) {
			size_t n = strlen(tails[t]);
			if (i + n <= s.n && !strncmp(s.s + i, tails[t], n) &&
			    (i + n == s.n || !hlog__word_char(s.s[i + n])))
				tl = n;
		}
		if (!tl)
			continue;
		size_t b = i, under = 0;
		while (b && (isupper((unsigned char)s.s[b - 1]) || isdigit((unsigned char)s.s[b - 1]) ||
			     s.s[b - 1] == '_'))
			under += s.s[--b] == '_';
		if (under && i - b >= 4 && isupper((unsigned char)s.s[b]) &&
		    (!b || !hlog__word_char(s.s[b - 1])))
			return 1;
	}
	return 0;
}

/* A function said to be missing from a shared library the program loaded: torch_npu's
 * "RuntimeError: aclnnFusedInferAttentionScoreV2 or aclnnFusedInferAttentionScoreV2GetWorkspaceSize
 * not in libopapi.so, or libopapi.sonot found." (a caller made for a release of the library
 * that has it). The name before " not in " is an identifier, the one after a library's file
 * name ("lib....so", with a version or not). */
int hlog__wf_symbol_not_in_lib(struct pspan s, long long *port)
{
	(void)port;
	for (const char *f = hlog__find(s, " not in lib"); f;) {
		size_t i = (size_t)(f - s.s), b = i, e = i + 8; /* e: the library's name */
		while (b && (hlog__word_char(s.s[b - 1]) || s.s[b - 1] == ':'))
			b--;
		int alpha = 0;
		for (size_t k = b; k < i; k++)
			alpha |= isalpha((unsigned char)s.s[k]) != 0;
		while (e < s.n && (hlog__word_char(s.s[e]) || s.s[e] == '.' || s.s[e] == '-' ||
				   s.s[e] == '+'))
			e++;
		struct pspan lib = {s.s + i + 8, e - (i + 8)};
		if (i - b >= 3 && alpha && (hlog__find(lib, ".so") || hlog__find(lib, ".dll")))
			return 1;
		struct pspan rest = {s.s + i + 1, s.n - i - 1};
		f = hlog__find(rest, " not in lib");
	}
	return 0;
}

static const char *const object_key = "' object has no attribute";

/* The class, with its module's path, quoted before an "object has no attribute" at f
 * ("'mooncake.store.MooncakeDistributedStore' object has no attribute"); NULL when f has no
 * quoted name before it. */
static struct pspan quoted_class(struct pspan s, const char *f)
{
	size_t e = (size_t)(f - s.s), b = e;
	while (b && (hlog__word_char(s.s[b - 1]) || s.s[b - 1] == '.'))
		b--;
	if (b == e || !b || s.s[b - 1] != '\'')
		return (struct pspan){NULL, 0};
	return (struct pspan){s.s + b, e - b};
}

/* the next "object has no attribute" of s after the one at f */
static const char *next_object(struct pspan s, const char *f)
{
	size_t e = (size_t)(f - s.s) + 1;
	return hlog__find((struct pspan){s.s + e, s.n - e}, object_key);
}

/* An object of a package's class without the attribute its caller asks for: "'mooncake.store.
 * MooncakeDistributedStore' object has no attribute 'batch_get_buffer'" (a connector made for
 * a release of the store that has the method). The class is named with its module's path;
 * an object of the program's own or a built-in class ("'NoneType' object has no attribute")
 * is a bug in the program, not this. */
int hlog__wf_package_object_attr(struct pspan s, long long *port)
{
	(void)port;
	for (const char *f = hlog__find(s, object_key); f; f = next_object(s, f)) {
		struct pspan c = quoted_class(s, f);
		for (size_t i = 1; c.s && i + 1 < c.n; i++)
			if (c.s[i] == '.' && hlog__word_char(c.s[i - 1]) &&
			    hlog__word_char(c.s[i + 1]))
				return 1;
	}
	return 0;
}

/* An object that holds the job's own settings without the one the code reads: "AttributeError:
 * 'Config' object has no attribute 'job'", argparse's "'Namespace' object has no attribute
 * 'rank'", OmegaConf's "'DictConfig' object has no attribute 'name'" (a key the config file or
 * the command line did not give). A model's configuration class ("'LlamaConfig' object") is
 * a release of its package, not this. */
int hlog__wf_settings_object_attr(struct pspan s, long long *port)
{
	(void)port;
	static const char *const holders[] = {"Config", "Namespace", "DictConfig", "ListConfig",
					      "CfgNode", "EasyDict", "AttrDict", "Args"};
	for (const char *f = hlog__find(s, object_key); f; f = next_object(s, f)) {
		struct pspan c = quoted_class(s, f);
		size_t k = c.n; /* the class's own name, after its module's path */
		while (k && c.s[k - 1] != '.')
			k--;
		struct pspan own = {c.s + k, c.n - k};
		for (size_t h = 0; c.s && h < sizeof(holders) / sizeof(holders[0]); h++)
			if (probe__eq(own, holders[h]))
				return 1;
	}
	return 0;
}

/* A defect the line itself places in a release: "prefix caching is broken in vLLM 0.14.0",
 * "a regression in NCCL 2.19.3", "a known bug in torch 2.4.0": the words, then within a few
 * words a version ("0.14.0", "2.19"). */
int hlog__wf_broken_in_release(struct pspan s, long long *port)
{
	(void)port;
	static const char *const says[] = {"broken in ", "regression in ", "bug in "};
	for (size_t k = 0; k < sizeof(says) / sizeof(says[0]); k++) {
		const char *f = hlog__find_nocase(s, says[k]);
		if (!f)
			continue;
		size_t i = (size_t)(f - s.s) + strlen(says[k]), end = i + 40 < s.n ? i + 40 : s.n;
		for (; i + 2 < end; i++)
			if (isdigit((unsigned char)s.s[i]) && s.s[i + 1] == '.' &&
			    isdigit((unsigned char)s.s[i + 2]) &&
			    (i == 0 || !hlog__word_char(s.s[i - 1]) || s.s[i - 1] == 'v'))
				return 1;
	}
	return 0;
}

/* The number a CUDA runtime error is stated by alone: "CUDA error: 2", "CUDA error 46" (a
 * program that prints cudaError_t's value, not its text); -1 when the line has none. */
static long cuda_error_number(struct pspan s)
{
	static const char key[] = "cuda error";
	for (const char *f = hlog__find_nocase(s, key); f;) {
		size_t i = (size_t)(f - s.s) + sizeof(key) - 1;
		if (i < s.n && s.s[i] == ':')
			i++;
		while (i < s.n && s.s[i] == ' ')
			i++;
		size_t b = i;
		long v = 0;
		while (i < s.n && isdigit((unsigned char)s.s[i]) && i - b < 4)
			v = v * 10 + (s.s[i++] - '0');
		if (i > b && (i == s.n || !hlog__word_char(s.s[i])))
			return v;
		struct pspan rest = {s.s + i, s.n - i};
		f = hlog__find_nocase(rest, key);
	}
	return -1;
}

/* cudaErrorMemoryAllocation (2) by its number (CUDA runtime API, driver_types.h) */
int hlog__wf_cuda_oom(struct pspan s, long long *port)
{
	(void)port;
	return cuda_error_number(s) == 2;
}

/* cudaErrorDevicesUnavailable (46): every device the process may use is held by others (a
 * GPU in exclusive-process mode that another process holds) */
int hlog__wf_cuda_busy(struct pspan s, long long *port)
{
	(void)port;
	return cuda_error_number(s) == 46;
}

/* A comparison of two named quantities: "MPI tasks > number of elements!", "world size <=
 * number of devices". Words on both sides, not numbers ("bailing out: 60.000 < 60.053 sec"
 * is a timeout's figures) nor an arrow or a shell's redirection. */
int hlog__wf_word_compare(struct pspan s, long long *port)
{
	(void)port;
	for (size_t i = 1; i + 2 < s.n; i++) {
		if ((s.s[i] != '>' && s.s[i] != '<') || s.s[i - 1] != ' ')
			continue;
		size_t j = i + 1 + (s.s[i + 1] == '=');
		if (j + 1 >= s.n || s.s[j] != ' ' || i < 2)
			continue;
		if (isalpha((unsigned char)s.s[i - 2]) && isalpha((unsigned char)s.s[j + 1]))
			return 1;
	}
	return 0;
}

/* Python's "No module named 'NAME'": 1 when NAME is dotted ('tbe.common.utils': the package
 * is there, the part the caller wants is not), 0 when it is a package alone ('numpy'), -1
 * when the line has no such words. */
static int module_dotted(struct pspan s)
{
	static const char key[] = "no module named";
	const char *at = hlog__find_nocase(s, key);
	if (!at)
		return -1;
	size_t j = (size_t)(at - s.s) + sizeof(key) - 1;
	while (j < s.n && (s.s[j] == ' ' || s.s[j] == '\'' || s.s[j] == '"'))
		j++;
	size_t b = j;
	int dot = 0;
	for (; j < s.n && (hlog__word_char(s.s[j]) || s.s[j] == '.'); j++)
		dot |= s.s[j] == '.' && j > b && j + 1 < s.n && hlog__word_char(s.s[j + 1]);
	return j > b ? dot : -1;
}

/* A package the code imports that is not installed: "No module named 'numpy'". */
int hlog__wf_module_missing(struct pspan s, long long *port)
{
	(void)port;
	return module_dotted(s) == 0;
}

/* A part of an installed package that its release lacks: "No module named
 * 'tbe.common.repository_manager.utils'". */
int hlog__wf_module_part_missing(struct pspan s, long long *port)
{
	(void)port;
	return module_dotted(s) == 1;
}

/* An allocation of a size that failed: "failed to", "unable to", "could not", "cannot" or
 * "can't" before "allocate", then a number ("Failed to allocate 4.000GB (alignment: none, ...)",
 * "failed to allocate 373.25M", "fail to allocate 130 MiB"). What was asked for is a size, so
 * memory of some kind ran short; "allocate resources" or "allocate a port" is not this form. */
int hlog__wf_alloc_size(struct pspan s, long long *port)
{
	(void)port;
	static const char *const refused[] = {"failed to ", "fail to ", "unable to ", "could not ",
					      "couldn't ", "cannot ", "can't "};
	for (const char *f = hlog__find_nocase(s, "allocate "); f;) {
		size_t at = (size_t)(f - s.s), e = at + 9;
		for (size_t k = 0; k < sizeof(refused) / sizeof(refused[0]); k++) {
			size_t l = strlen(refused[k]);
			if (at >= l && !strncasecmp(s.s + at - l, refused[k], l) && e < s.n &&
			    isdigit((unsigned char)s.s[e]))
				return 1;
		}
		struct pspan rest = {s.s + at + 9, s.n - at - 9};
		f = hlog__find_nocase(rest, "allocate ");
	}
	return 0;
}

/* A bound on a value stated in words, as the check that refused it says it: DALI's "Assert on
 * "num_shards_ > shard_id_" failed: num_shards needs to be greater than shard_id", DeepSpeed's
 * "Micro batch size per gpu: 0 has to be greater than 0", "size must be greater than zero".
 * A requirement ("must", "needs to", "has to", "should") on what the value must be, then a
 * comparison; a program's own assertion without such words is a bug, not this form. */
int hlog__wf_bound_stated(struct pspan s, long long *port)
{
	(void)port;
	static const char *const modal[] = {"must be ", "needs to be ", "need to be ",
					    "has to be ", "have to be ", "should be "};
	static const char *const cmp[] = {"greater than", "less than", "larger than",
					  "smaller than", "at least", "at most", "no more than",
					  "no less than", "no greater than", "no larger than",
					  "a multiple of", "divisible by", "positive", "non-negative"};
	for (size_t m = 0; m < sizeof(modal) / sizeof(modal[0]); m++) {
		for (const char *f = hlog__find_nocase(s, modal[m]); f;) {
			size_t at = (size_t)(f - s.s) + strlen(modal[m]);
			for (size_t k = 0; k < sizeof(cmp) / sizeof(cmp[0]) &&
					   (f == s.s || !hlog__word_char(f[-1]));
			     k++) {
				size_t l = strlen(cmp[k]);
				if (at + l <= s.n && !strncasecmp(s.s + at, cmp[k], l) &&
				    (at + l == s.n || !hlog__word_char(s.s[at + l])))
					return 1;
			}
			struct pspan rest = {s.s + at, s.n - at};
			f = hlog__find_nocase(rest, modal[m]);
		}
	}
	return 0;
}

/* An assert on the job's sizes, its statement given as the message ("AssertionError: world_size
 * == 8 # this code is designed for 8xH100", "AssertionError: gradient_accumulation_steps %
 * world_size == 0"; the scan joins a bare "AssertionError" to the statement its traceback
 * printed above it): a comparison, and a program's name of a count or size (a name joined by
 * '_') in it. A check of an object's state ("tensor.is_contiguous()") compares no size, nor
 * does a message that says a tensor's "expected size 4==4, stride 128==524288". */
int hlog__wf_assert_sizes(struct pspan s, long long *port)
{
	(void)port;
	static const char *const sizes[] = {"size", "num", "count", "steps", "nproc", "nnodes",
					    "gpus", "devices", "ranks", "shards", "samples"};
	const char *at = hlog__find_nocase(s, "AssertionError: ");
	if (!at)
		return 0;
	struct pspan e = {at + 16, s.n - (size_t)(at + 16 - s.s)};
	if (!memchr(e.s, '=', e.n) && !memchr(e.s, '<', e.n) && !memchr(e.s, '>', e.n) &&
	    !memchr(e.s, '%', e.n))
		return 0;
	for (size_t i = 0; i < e.n;) {
		size_t b = i, under = 0;
		while (i < e.n && hlog__word_char(e.s[i]))
			under += e.s[i++] == '_';
		struct pspan w = {e.s + b, i - b};
		for (size_t k = 0; under && k < sizeof(sizes) / sizeof(sizes[0]); k++)
			if (hlog__has_nocase(w, sizes[k]))
				return 1;
		i += i == b;
	}
	return 0;
}
