/* Text helpers shared by the probe parsers. */
#include <string.h>

#include "probes/tool/ptext.h"

static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\0' || c == '\v' ||
	       c == '\f';
}

int probe__next_line(struct pspan *rest, struct pspan *line)
{
	if (!rest->n)
		return 0;
	const char *nl = memchr(rest->s, '\n', rest->n);
	size_t n = nl ? (size_t)(nl - rest->s) : rest->n;
	line->s = rest->s;
	line->n = n;
	if (n && line->s[n - 1] == '\r')
		line->n--;
	rest->s += nl ? n + 1 : n;
	rest->n -= nl ? n + 1 : n;
	return 1;
}

struct pspan probe__trim(struct pspan s)
{
	while (s.n && is_blank(s.s[0])) {
		s.s++;
		s.n--;
	}
	while (s.n && is_blank(s.s[s.n - 1]))
		s.n--;
	return s;
}

int probe__next_word(struct pspan *rest, struct pspan *word, const char *extra)
{
	size_t i = 0;
	while (i < rest->n &&
	       (is_blank(rest->s[i]) || (extra && rest->s[i] && strchr(extra, rest->s[i]))))
		i++;
	size_t b = i;
	while (i < rest->n && !is_blank(rest->s[i]) && !(extra && strchr(extra, rest->s[i])))
		i++;
	word->s = rest->s + b;
	word->n = i - b;
	rest->s += i;
	rest->n -= i;
	return word->n > 0;
}

int probe__eq(struct pspan s, const char *lit)
{
	return strlen(lit) == s.n && !memcmp(s.s, lit, s.n);
}

size_t probe__count_in(struct pspan s, const char *set)
{
	size_t n = 0;
	for (size_t i = 0; i < s.n; i++)
		n += s.s[i] && strchr(set, s.s[i]) != NULL;
	return n;
}

int probe__eq_nocase(struct pspan s, const char *lit)
{
	if (strlen(lit) != s.n)
		return 0;
	for (size_t i = 0; i < s.n; i++) {
		char a = s.s[i], b = lit[i];
		if (a >= 'A' && a <= 'Z')
			a = (char)(a - 'A' + 'a');
		if (b >= 'A' && b <= 'Z')
			b = (char)(b - 'A' + 'a');
		if (a != b)
			return 0;
	}
	return 1;
}

int probe__starts(struct pspan s, const char *lit)
{
	size_t n = strlen(lit);
	return s.n >= n && !memcmp(s.s, lit, n);
}

int probe__u64(struct pspan s, unsigned long long *v)
{
	unsigned long long x = 0;
	if (!s.n || s.n > 20)
		return -1;
	for (size_t i = 0; i < s.n; i++) {
		if (s.s[i] < '0' || s.s[i] > '9')
			return -1;
		unsigned d = (unsigned)(s.s[i] - '0');
		if (x > (~0ULL - d) / 10)
			return -1;
		x = x * 10 + d;
	}
	*v = x;
	return 0;
}

void probe__copy(char *buf, size_t len, struct pspan s)
{
	if (!len)
		return;
	size_t n = s.n < len - 1 ? s.n : len - 1;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s.s[i];
		/* a tab is a column's blank (ibstatus, df, a tool's table), shown as one */
		buf[i] = c == '\t' ? ' ' : c < 0x20 || c == 0x7f ? '?' : (char)c;
	}
	buf[n] = '\0';
}

int probe__key_is(struct pspan key, const char *lit)
{
	size_t i = 0, j = 0;
	while (i < key.n && lit[j]) {
		char a = key.s[i], b = lit[j];
		if (a == ' ' || a == '\t') {
			if (b != ' ')
				return 0;
			while (i < key.n && (key.s[i] == ' ' || key.s[i] == '\t'))
				i++;
			j++;
			continue;
		}
		if (a >= 'A' && a <= 'Z')
			a = (char)(a - 'A' + 'a');
		if (b >= 'A' && b <= 'Z')
			b = (char)(b - 'A' + 'a');
		if (a != b)
			return 0;
		i++;
		j++;
	}
	return i == key.n && !lit[j];
}
