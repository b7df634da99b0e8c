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

/* cJSON's type of a node of ours. */
static int ctype(const struct rt__jnode *n)
{
	static const int map[] = { 0,	       cJSON_False, cJSON_True,	 cJSON_NULL,
				   cJSON_Number, cJSON_String, cJSON_Array, cJSON_Object };
	return map[rt__jtype(n)];
}

/* Walks a (our tree) and b (cJSON's, bound to pb) side by side: the same values, keys and
 * order, at the same positions. */
static void same_tree(const struct rt__jpos *pa, const struct rt__jnode *a,
		      const struct rt__jpos *pb, const cJSON *b)
{
	unsigned la, ca, lb, cb;
	for (; a || b; a = rt__jnext(a), b = b->next) {
		assert_non_null(a);
		assert_non_null(b);
		assert_int_equal(ctype(a), b->type & 0xFF);
		if (cJSON_IsString(b))
			assert_string_equal(rt__jstr(a), b->valuestring);
		if (cJSON_IsNumber(b))
			assert_true(rt__jnum(a) == b->valuedouble);
		assert_int_equal(!rt__jkey(a), !b->string);
		if (b->string)
			assert_string_equal(rt__jkey(a), b->string);
		assert_int_equal(rt__jpos_node(pa, a, &la, &ca), 0);
		assert_int_equal(rt__jpos_get(pb, b, &lb, &cb), 0);
		assert_int_equal(la, lb);
		assert_int_equal(ca, cb);
		assert_int_equal(rt__jpos_nodekey(pa, a, &la, &ca), b->string ? 0 : -ENOENT);
		assert_int_equal(rt__jpos_key(pb, b, &lb, &cb), b->string ? 0 : -ENOENT);
		assert_int_equal(la, lb);
		assert_int_equal(ca, cb);
		assert_int_equal(!rt__jchild(a), !b->child);
		same_tree(pa, rt__jchild(a), pb, b->child);
	}
}

/* rt__jequal of every pair of a's members says what cJSON_Compare says of b's. */
static void same_equal(const struct rt__jnode *a, const cJSON *b)
{
	const struct rt__jnode *x = rt__jchild(a);
	for (const cJSON *bx = b->child; bx; bx = bx->next, x = rt__jnext(x)) {
		const struct rt__jnode *y = rt__jchild(a);
		for (const cJSON *by = b->child; by; by = by->next, y = rt__jnext(y))
			assert_int_equal(rt__jequal(x, y), cJSON_Compare(bx, by, 1));
	}
}

/* The tree the reader builds is the one cJSON parses from the same bytes, and each of its
 * nodes knows where it and its key start. */
static void test_parse_tree(void **state)
{
	(void)state;
	static const char *const docs[] = {
		"{\"a\": [1, -2.5e3, 0.125, true, false, null, {}, []], \"b\": {\"c\": \"d\"}}",
		"\xEF\xBB\xBF{\r\n\t\"a\" :\n\"\xc3\xa9\\u00e9\\uD83D\\uDE00\\n\\\"\\\\\\/\\b\\f\\r\\t\"}",
		"{\"a\\\"b\": 1, \"c\\\\\": {\"\\\\\\\"\": [2]}, \"x\": 1, \"x\": 2}",
		"[[[\"deep\"]], \"\", 0, -0, 1E+2, 12345678901234567890]",
		"  \"just a string\"  ",
		"{\"server_list\": [{\"server_id\": \"n\xe4\xb8\xad\", \"device\": [{\"rank_id\": \"0\"}]}]}",
		/* keys of every length around the 4-byte padding, used again (from the first
		 * record that has them) and escaped (never shared) */
		"[{\"\": 1, \"a\": \"\", \"ab\": \"x\", \"abc\": \"xy\", \"abcd\": \"xyz\"},"
		" {\"abcd\": [], \"abc\": {}, \"ab\": [{}], \"a\": 2, \"\": \"\"},"
		" {\"a\\u0062\": 3, \"ab\": 3}, [1, 1.0, 1, \"1\"], {\"a\": 1, \"b\": 1},"
		" {\"b\": 1, \"a\": 1}, {\"a\": 1}, [], {}, [[]], [{}], null, null, true]",
	};
	for (size_t i = 0; i < sizeof(docs) / sizeof(docs[0]); i++) {
		struct rt__jpos pa, pb;
		struct rt__tree t;
		size_t len = strlen(docs[i]);
		assert_int_equal(rt__jpos_parse(&pa, &t, docs[i], len), 0);
		assert_int_equal(rt__jpos_scan(&pb, docs[i], len), 0);
		cJSON *b = cJSON_ParseWithLength(docs[i] + pb.bom, len - pb.bom);
		assert_non_null(b);
		assert_int_equal(rt__jpos_bind(&pb, b), 0);
		same_tree(&pa, t.root, &pb, b);
		same_equal(t.root, b);
		cJSON_Delete(b);
		rt__jpos_release(&pb);
		rt__tree_release(&t);
		rt__jpos_release(&pa);
	}
}

/* A key's position is found back from its value: past escaped quotes, not past escaped
 * backslashes. */
static void test_key_escapes(void **state)
{
	(void)state;
	const char *text = "{\"a\\\"b\": 1, \"c\\\\\": {\"\\\\\\\"\": [2]}}";
	struct rt__jpos p;
	struct rt__tree t;
	unsigned l, c;
	assert_int_equal(rt__jpos_parse(&p, &t, text, strlen(text)), 0);
	const struct rt__jnode *ab = rt__jchild(t.root), *cb = rt__jnext(ab), *q = rt__jchild(cb);
	assert_string_equal(rt__jkey(ab), "a\"b");
	assert_int_equal(rt__jpos_nodekey(&p, ab, &l, &c), 0);
	assert_int_equal(c, 2);
	assert_string_equal(rt__jkey(cb), "c\\");
	assert_int_equal(rt__jpos_nodekey(&p, cb, &l, &c), 0);
	assert_int_equal(c, 13);
	assert_string_equal(rt__jkey(q), "\\\"");
	assert_int_equal(rt__jpos_nodekey(&p, q, &l, &c), 0);
	assert_int_equal(c, 21);
	assert_int_equal(rt__jpos_node(&p, rt__jchild(q), &l, &c), 0);
	assert_int_equal(c, 30);
	rt__tree_release(&t);
	rt__jpos_release(&p);
}

/* Every syntax error of the scan is the reader's too, at the same place, and leaves no
 * tree. */
static void test_parse_errors(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(bads) / sizeof(bads[0]); i++) {
		struct rt__jpos p;
		struct rt__tree t;
		const struct bad *b = &bads[i];
		size_t len = b->len ? b->len : strlen(b->text);
		assert_int_equal(rt__jpos_parse(&p, &t, b->text, len), -EINVAL);
		assert_string_equal(p.emsg, b->msg);
		assert_int_equal(p.eline, b->line);
		assert_int_equal(p.ecol, b->col);
		assert_null(t.root);
		rt__tree_release(&t);
		rt__jpos_release(&p);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_syntax_errors), cmocka_unit_test(test_depth),
		cmocka_unit_test(test_positions),     cmocka_unit_test(test_locate),
		cmocka_unit_test(test_crlf),	      cmocka_unit_test(test_parse_tree),
		cmocka_unit_test(test_parse_errors),  cmocka_unit_test(test_key_escapes),
	};
	return cmocka_run_group_tests_name("jsonpos", tests, NULL, NULL);
}
