/* Fuzzes hccl_visible_position, the reader of ASCEND_RT_VISIBLE_DEVICES and
 * ASCEND_VISIBLE_DEVICES: any text gives -2, -1 or a position below 65536, a position only
 * for a list that starts with an id; never a read past the text's end. */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/lib/hcclapi.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	char *s = malloc(size);
	if (!s)
		return 0;
	memcpy(s, data + 1, size - 1);
	s[size - 1] = 0; /* the environment's strings end in NUL */
	int phys = data[0] % 20;
	int at = hccl_visible_position(s, phys);
	assert(at >= -2 && at < 65536);
	/* a list that holds the id finds it at a place no later than its entries allow */
	if (at >= 0)
		assert(s[0] >= '0' && s[0] <= '9');
	free(s);
	return 0;
}
