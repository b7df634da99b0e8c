/* acmgen KB.bin LINE.bin: builds the log triage's two large automata (the knowledge base's
 * anchors, the catalog's needles) as hcclctl would at start and saves each as an image
 * (acm_save), which the Makefile links into hcclctl so that it reads them in place instead of
 * building them at every start. Linked without images itself, so what it saves is built
 * here from the tables. With --check it builds them the same way and compares them with the
 * images given (the test that the images in a build are its tables'). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probes/logs/catalog.h"
#include "probes/logs/kbint.h"
#include "ranktable/base/acm.h"
#include "ranktable/ranktable.h"

/* Saves a's image to path through the one atomic writer. */
static int save(const struct acm *a, const char *path)
{
	char *bytes = NULL, err[300];
	size_t n = 0;
	FILE *f = open_memstream(&bytes, &n);
	int rc = f ? acm_save(a, f) : -ENOMEM;
	if (f && fclose(f) && !rc)
		rc = -EIO;
	if (!rc && rt_write_atomic(path, bytes, n, err, sizeof(err))) {
		fprintf(stderr, "acmgen: %s\n", err);
		rc = -EIO;
	} else if (rc) {
		fprintf(stderr, "acmgen: %s: cannot make the image: %s\n", path, strerror(-rc));
	}
	free(bytes);
	return rc != 0;
}

/* 0 when the image in path is the automaton a, else 1 with why. */
static int check(const struct acm *a, const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "acmgen: %s: %s\n", path, strerror(errno));
		return 1;
	}
	size_t cap = 1 << 20, n = 0;
	unsigned char *b = malloc(cap);
	for (size_t k; b && (k = fread(b + n, 1, cap - n, f)) > 0;) {
		n += k;
		if (n == cap) {
			unsigned char *nb = realloc(b, cap *= 2);
			if (!nb)
				free(b);
			b = nb;
		}
	}
	fclose(f);
	struct acm *img = b ? acm_open_image(b, n) : NULL;
	int same = acm_same(a, img);
	if (!same)
		fprintf(stderr, "acmgen: %s: %s\n", path,
			img ? "not the automaton of this build's tables"
			    : "not an automaton image of this build");
	acm_free(img);
	free(b);
	return !same;
}

int main(int argc, char **argv)
{
	int chk = argc == 4 && !strcmp(argv[1], "--check");
	if (argc != 3 && !chk) {
		fputs("usage: acmgen [--check] KB.bin LINE.bin\n", stderr);
		return 2;
	}
	const struct acm *kb = kb__builtin_acm(), *line = hlog__line_acm();
	if (!kb || !line) {
		fputs("acmgen: cannot build the automata (out of memory)\n", stderr);
		return 1;
	}
	if (chk)
		return check(kb, argv[2]) | check(line, argv[3]);
	return save(kb, argv[1]) | save(line, argv[2]);
}
