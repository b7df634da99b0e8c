/* jfield OBJECT KEY...: reads one JSON document on stdin and prints its OBJECT's KEYs on one
 * line, separated by spaces, each as Python's str() of json.load's value would print it
 * (None, True, False, 5, text). The CLI tests read hcclctl's --json verdicts through it many
 * hundred times: a Python start per check was most of those tests' CPU. The document must be
 * exactly one (nothing after it); a missing OBJECT, or a value that is no scalar, is an
 * error (exit 1, nothing on stdout). Built for the tests only, never installed. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#define MAX_DOC (64u << 20)

static char *read_all(FILE *f)
{
	size_t cap = 1 << 16, n = 0;
	char *b = malloc(cap);
	while (b) {
		size_t k = fread(b + n, 1, cap - n - 1, f);
		n += k;
		if (k == 0)
			break;
		if (n + 1 == cap) {
			char *nb = cap < MAX_DOC ? realloc(b, cap * 2) : NULL;
			if (!nb) {
				free(b);
				return NULL;
			}
			b = nb;
			cap *= 2;
		}
	}
	if (b)
		b[n] = '\0';
	return b;
}

static int print_value(const cJSON *v)
{
	if (!v || cJSON_IsNull(v))
		fputs("None", stdout);
	else if (cJSON_IsTrue(v))
		fputs("True", stdout);
	else if (cJSON_IsFalse(v))
		fputs("False", stdout);
	else if (cJSON_IsString(v))
		fputs(v->valuestring, stdout);
	else if (cJSON_IsNumber(v) && v->valuedouble == floor(v->valuedouble) &&
		 fabs(v->valuedouble) < 9007199254740992.0)
		printf("%lld", (long long)v->valuedouble);
	else if (cJSON_IsNumber(v))
		printf("%.17g", v->valuedouble);
	else
		return -1;
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fputs("usage: jfield OBJECT KEY... < document.json\n", stderr);
		return 2;
	}
	char *text = read_all(stdin);
	const char *end = NULL;
	cJSON *doc = text ? cJSON_ParseWithOpts(text, &end, 1) : NULL;
	const cJSON *obj = cJSON_GetObjectItemCaseSensitive(doc, argv[1]);
	if (!doc || !cJSON_IsObject(obj)) {
		fprintf(stderr, "jfield: %s\n",
			!doc ? "stdin is not one JSON document" : "no such object");
		cJSON_Delete(doc);
		free(text);
		return 1;
	}
	for (int i = 2; i < argc; i++) {
		if (i > 2)
			putchar(' ');
		if (print_value(cJSON_GetObjectItemCaseSensitive(obj, argv[i]))) {
			fprintf(stderr, "\njfield: %s.%s is not a scalar\n", argv[1], argv[i]);
			cJSON_Delete(doc);
			free(text);
			return 1;
		}
	}
	putchar('\n');
	cJSON_Delete(doc);
	free(text);
	return 0;
}
