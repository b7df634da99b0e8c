/* The position scanner: exact line:col and message of syntax errors, and positions of
 * values and keys bound to a cJSON tree. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "ranktable/jsonpos.h"

struct bad {
	const char *text;
	size_t len; /* 0 = strlen */
	unsigned line, col;
	const char *msg;
};

static const struct bad bads[] = {
	{ "", 0, 1, 1, "unexpected end of input" },
	{ "   \n  ", 0, 2, 3, "unexpected end of input" },
	{ "{\"a\": 1,}", 0, 1, 8, "trailing comma" },
	{ "[1, 2,\n ]", 0, 1, 6, "trailing comma" },
	{ "{\n  \"a\": 1\n  \"b\": 2\n}", 0, 3, 3, "expected ',' or '}' after object member" },
	{ "[1 2]", 0, 1, 4, "expected ',' or ']' after array element" },
	{ "{\"a\" 1}", 0, 1, 6, "expected ':' after object key" },
	{ "{\"a\": \"x}", 0, 1, 7, "unterminated string" },
	{ "{\"a\": \"\\q\"}", 0, 1, 8, "invalid escape '\\q' in string" },
	{ "[\"\\u12G4\"]", 0, 1, 3, "invalid escape: '\\u' needs four hex digits" },
	{ "[\"\\uDC00\"]", 0, 1, 3, "invalid escape: lone UTF-16 low surrogate" },
	{ "[\"\\uD800x\"]", 0, 1, 3,
	  "invalid escape: UTF-16 high surrogate without its low surrogate" },
	{ "[\"a\tb\"]", 0, 1, 4, "control character in string" },
	{ "[\"\xc3\xa9\xff\"]", 0, 1, 4, "invalid UTF-8 in string" },
	{ "{} x", 0, 1, 4, "extra data after the JSON document" },
	{ "{\"a\": tru}", 0, 1, 7, "invalid literal 'tru' (strings need double quotes)" },
	{ "{\"a\": node_0}", 0, 1, 7, "invalid literal 'node_0' (strings need double quotes)" },
	{ "{'a': 1}", 0, 1, 2, "strings need double quotes, not single quotes" },
	{ "{\"a\": 1} // c", 0, 1, 10, "extra data after the JSON document" },
	{ "{\"a\": // c\n1}", 0, 1, 7, "comments are not allowed in JSON" },
	{ "[01]", 0, 1, 2, "invalid number: leading zero" },
	{ "[1.]", 0, 1, 2, "invalid number: no digit after '.'" },
	{ "[1e+]", 0, 1, 2, "invalid number: no digit in exponent" },
	{ "[-]", 0, 1, 2, "invalid number" },
	{ "{\"a\":}", 0, 1, 6, "expected a value, found '}'" },
	{ "{1: 2}", 0, 1, 2, "expected '\"' to start an object key, found '1'" },
	{ "[1,\n\"\xc3\xa9\xc3\xa9\", x]", 0, 2, 7, "invalid literal 'x' (strings need double quotes)" },
	{ "[1]\0", 4, 1, 4, "extra data after the JSON document" },
	{ "[\"a\0\"]", 6, 1, 4, "control character in string" },
	/* cJSON ends a string at an escaped NUL: "10.0.0.1\u0000;touch /tmp/x" reads as the
	 * address alone, so the rest would pass unseen */
	{ "{\"server_id\": \"10.0.0.1\\u0000;touch /tmp/x\"}", 0, 1, 24,
	  "NUL (\\u0000) in string: everything after it would be cut off" },
	{ "[\"\\uD800\\uDC00\\u0000\"]", 0, 1, 15,
	  "NUL (\\u0000) in string: everything after it would be cut off" },
	{ "[\"abc", 0, 1, 2, "unterminated string" },
	{ "{\"a\": [1, 2", 0, 1, 12, "unexpected end of input" },
	{ "[1, 1234567890123456789012345678901234567890123456789012345678901234]", 0, 1, 5,
	  "number too long" },
	{ "\xEF\xBB\xBF{\"a\" 1}", 0, 1, 6, "expected ':' after object key" },
};

static void test_syntax_errors(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(bads) / sizeof(bads[0]); i++) {
		struct rt__jpos p;
		const struct bad *b = &bads[i];
		size_t len = b->len ? b->len : strlen(b->text);
		int rc = rt__jpos_scan(&p, b->text, len);
		if (rc != -EINVAL || p.eline != b->line || p.ecol != b->col ||
		    strcmp(p.emsg, b->msg))
			print_error("case %zu '%s': rc %d at %u:%u '%s'\n", i, b->text, rc, p.eline,
				    p.ecol, p.emsg);
		assert_int_equal(rc, -EINVAL);
		assert_string_equal(p.emsg, b->msg);
		assert_int_equal(p.eline, b->line);
		assert_int_equal(p.ecol, b->col);
		rt__jpos_release(&p);
	}
}

static void test_depth(void **state)
{
	(void)state;
	char buf[2 * 600 + 1];
	struct rt__jpos p;
	memset(buf, '[', 600);
	memset(buf + 600, ']', 600);
	assert_int_equal(rt__jpos_scan(&p, buf, 1200), -EINVAL);
	assert_string_equal(p.emsg, "nesting deeper than 512 levels");
	assert_int_equal(p.eline, 1);
	assert_int_equal(p.ecol, 513);
	rt__jpos_release(&p);
	/* exactly 512 levels is fine */
	memset(buf, '[', 512);
	memset(buf + 512, ']', 512);
	assert_int_equal(rt__jpos_scan(&p, buf, 1024), 0);
	assert_int_equal(p.n, 512);
	rt__jpos_release(&p);
}

static void test_positions(void **state)
{
	(void)state;
	/* The é before "b" counts as one column; the BOM counts none. */
	const char *text = "\xEF\xBB\xBF{\n"
			   "  \"a\": [1, {\"x\": null}],\n"
			   "\t\"\xc3\xa9\": \"v\", \"b\": true,\n"
			   "  \"a\": -2.5e3\n"
			   "}";
	struct rt__jpos p;
	unsigned l, c;
	assert_int_equal(rt__jpos_scan(&p, text, strlen(text)), 0);
	assert_int_equal(p.bom, 3);
	cJSON *root = cJSON_ParseWithLength(text + 3, strlen(text) - 3);
	assert_non_null(root);
	assert_int_equal(rt__jpos_bind(&p, root), 0);

	assert_int_equal(rt__jpos_get(&p, root, &l, &c), 0);
	assert_int_equal(l, 1);
	assert_int_equal(c, 1);
	cJSON *a = root->child;
	assert_int_equal(rt__jpos_get(&p, a, &l, &c), 0);
	assert_int_equal(l, 2);
	assert_int_equal(c, 8);
	assert_int_equal(rt__jpos_key(&p, a, &l, &c), 0);
	assert_int_equal(l, 2);
	assert_int_equal(c, 3);
	cJSON *x = a->child->next->child; /* the null */
	assert_true(cJSON_IsNull(x));
	assert_int_equal(rt__jpos_get(&p, x, &l, &c), 0);
	assert_int_equal(l, 2);
	assert_int_equal(c, 18);
	assert_int_equal(rt__jpos_key(&p, x, &l, &c), 0);
	assert_int_equal(c, 13);
	/* element of an array has no key */
	assert_int_equal(rt__jpos_key(&p, a->child, &l, &c), -ENOENT);
	cJSON *e = a->next;
	assert_int_equal(rt__jpos_key(&p, e, &l, &c), 0);
	assert_int_equal(l, 3);
	assert_int_equal(c, 2);
	cJSON *b = e->next;
	assert_string_equal(b->string, "b");
	assert_int_equal(rt__jpos_get(&p, b, &l, &c), 0);
	assert_int_equal(l, 3);
	assert_int_equal(c, 17);
	/* the duplicate "a" is its own node at its own place */
	cJSON *a2 = b->next;
	assert_string_equal(a2->string, "a");
	assert_int_equal(rt__jpos_get(&p, a2, &l, &c), 0);
	assert_int_equal(l, 4);
	assert_int_equal(c, 8);
	/* a node from another tree is unknown */
	cJSON *other = cJSON_CreateNull();
	assert_int_equal(rt__jpos_get(&p, other, &l, &c), -ENOENT);
	assert_int_equal(l, 0);
	cJSON_Delete(other);
	cJSON_Delete(root);
	rt__jpos_release(&p);
}

static void test_locate(void **state)
{
	(void)state;
	const char *t = "ab\n\xc3\xa9z";
	unsigned l, c;
	rt__jpos_locate(t, strlen(t), 5, &l, &c);
	assert_int_equal(l, 2);
	assert_int_equal(c, 2);
	rt__jpos_locate(t, strlen(t), 100, &l, &c);
	assert_int_equal(l, 2);
	assert_int_equal(c, 3);
}

static void test_crlf(void **state)
{
	(void)state;
	const char *t = "{\r\n\"a\": 1\r\n\"b\": 2}";
	struct rt__jpos p;
	assert_int_equal(rt__jpos_scan(&p, t, strlen(t)), -EINVAL);
	assert_int_equal(p.eline, 3);
	assert_int_equal(p.ecol, 1);
	rt__jpos_release(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_syntax_errors), cmocka_unit_test(test_depth),
		cmocka_unit_test(test_positions),     cmocka_unit_test(test_locate),
		cmocka_unit_test(test_crlf),
	};
	return cmocka_run_group_tests_name("jsonpos", tests, NULL, NULL);
}
