/* A rank table's cJSON tree in one block. cJSON allocates each node (64 bytes) and each key
 * and string value on its own; malloc's header and its 32-byte minimum made that about 80
 * bytes a node and 32 a string: a device entry of a compact table ({"device_id":"0",
 * "device_ip":"192.0.0.1","rank_id":"0"}, 55 bytes) cost 512 bytes of tree. Here they are cut
 * one after another from one block (strings unaligned), and the block is freed whole (whereas
 * the freed pieces of a tree stayed in the heap, under the next one).
 *
 * cJSON's allocator is process-wide (cJSON_InitHooks), so the hooks installed here take from
 * the block only on a thread parsing a table (a thread-local pointer) and are malloc and free
 * everywhere else. A tree whose block was not used (another copy of these hooks replaced
 * ours) is an ordinary cJSON tree and is deleted as one. */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ranktable/check.h"

static _Thread_local struct rt__tree *filling;

static void *tree_alloc(size_t n)
{
	struct rt__tree *t = filling;
	if (!t)
		return malloc(n);
	/* a node is aligned for its pointers and double; a string (any other size: cJSON
	 * allocates nothing else while parsing) takes its bytes and no more */
	size_t at = n == sizeof(cJSON) ? (t->used + 7) & ~(size_t)7 : t->used;
	/* sized for the worst case; past it is an allocation failure, never a node outside */
	if (at > t->cap || t->cap - at < n)
		return NULL;
	t->used = at + n;
	return t->block + at;
}

static void tree_free(void *p)
{
	struct rt__tree *t = filling;
	if (t && (char *)p >= t->block && (char *)p < t->block + t->cap)
		return; /* a failed parse deleting what it built: the block goes whole */
	free(p);
}

static void hooks_install(void)
{
	cJSON_Hooks h = { tree_alloc, tree_free };
	cJSON_InitHooks(&h);
}

/* The most the tree of buf[0..len) can take from the block: every value but the first
 * follows a ',', ':' or '[', so counting those bytes (inside strings too) bounds the nodes
 * without parsing; each node takes its size and up to 7 bytes of alignment. cJSON gives a
 * string at most as many bytes as it has in the text, quotes included (they make room for the
 * NUL), so len bounds them all. 0 when it does not fit a size_t. */
static size_t block_size(const char *buf, size_t len)
{
	size_t values = 1;
	for (size_t i = 0; i < len; i++)
		values += buf[i] == ',' || buf[i] == ':' || buf[i] == '[';
	if (values > (SIZE_MAX / 2 - len) / (sizeof(cJSON) + 8))
		return 0;
	return values * (sizeof(cJSON) + 7) + len + 64;
}

int rt__tree_parse(struct rt__tree *t, const char *buf, size_t len, const char **end)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	pthread_once(&once, hooks_install);
	*t = (struct rt__tree){ 0 };
	/* a generous bound costs no memory: pages of the block never written are never had */
	t->cap = block_size(buf, len);
	t->block = t->cap ? malloc(t->cap) : NULL;
	if (t->block)
		filling = t;
	t->root = cJSON_ParseWithLengthOpts(buf, len, end, 0);
	filling = NULL;
	if (t->block && (!t->used || !t->root)) { /* not ours (see above), or nothing to keep */
		free(t->block);
		t->block = NULL;
	}
	return t->root ? 0 : -EINVAL;
}

int rt_json_status(const char *buf, size_t len, const char **end)
{
	struct rt__tree t;
	if (rt__tree_parse(&t, buf, len, end))
		return -1;
	const cJSON *st = cJSON_GetObjectItemCaseSensitive(t.root, "status");
	int init = cJSON_IsString(st) && !strcmp(st->valuestring, "initializing");
	rt__tree_release(&t);
	return init;
}

void rt__tree_release(struct rt__tree *t)
{
	if (t->block)
		free(t->block);
	else
		cJSON_Delete(t->root);
	*t = (struct rt__tree){ 0 };
}
