/* Replays fuzz corpora through a libFuzzer target without libFuzzer, printing TAP: one test
 * per corpus file, so `make check` runs every corpus under ASan+UBSan. A crash aborts the
 * process, which the harness counts as a failure. */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return -errno;
	uint8_t *buf = NULL;
	size_t len = 0, cap = 0;
	for (;;) {
		if (len == cap) {
			cap = cap ? cap * 2 : 4096;
			uint8_t *nb = realloc(buf, cap);
			if (!nb) {
				free(buf);
				fclose(f);
				return -ENOMEM;
			}
			buf = nb;
		}
		size_t got = fread(buf + len, 1, cap - len, f);
		len += got;
		if (got == 0)
			break;
	}
	fclose(f);
	/* An exact-size copy lets ASan catch a read one byte past the input. */
	uint8_t *exact = malloc(len ? len : 1);
	if (!exact) {
		free(buf);
		return -ENOMEM;
	}
	memcpy(exact, buf, len);
	free(buf);
	LLVMFuzzerTestOneInput(exact, len);
	free(exact);
	return 0;
}

int main(int argc, char **argv)
{
	char **files = NULL;
	size_t n = 0;
	for (int i = 1; i < argc; i++) {
		struct stat st;
		if (stat(argv[i], &st) != 0) {
			printf("Bail out! cannot read '%s': %s\n", argv[i], strerror(errno));
			return 1;
		}
		if (!S_ISDIR(st.st_mode)) {
			files = realloc(files, (n + 1) * sizeof(*files));
			files[n++] = strdup(argv[i]);
			continue;
		}
		DIR *d = opendir(argv[i]);
		struct dirent *e;
		while (d && (e = readdir(d))) {
			if (e->d_name[0] == '.')
				continue;
			size_t l = strlen(argv[i]) + strlen(e->d_name) + 2;
			char *p = malloc(l);
			snprintf(p, l, "%s/%s", argv[i], e->d_name);
			files = realloc(files, (n + 1) * sizeof(*files));
			files[n++] = p;
		}
		if (d)
			closedir(d);
	}
	qsort(files, n, sizeof(*files), cmp);
	printf("1..%zu\n", n);
	int bad = 0;
	for (size_t i = 0; i < n; i++) {
		int rc = run_file(files[i]);
		printf("%sok %zu - %s%s%s\n", rc ? "not " : "", i + 1, files[i], rc ? ": " : "",
		       rc ? strerror(-rc) : "");
		fflush(stdout);
		bad |= rc != 0;
		free(files[i]);
	}
	free(files);
	return bad;
}
