#include <string.h>

#include "libfold/str.h"
#include "formats/rustname.h"

#define HASHLEN 17	/* "h" and 16 hex digits */

static const struct {
	const char *esc;
	char c;
} escapes[] = {
	{ "$SP$", '@' }, { "$BP$", '*' }, { "$RF$", '&' }, { "$LT$", '<' },
	{ "$GT$", '>' }, { "$LP$", '(' }, { "$RP$", ')' }, { "$C$", ',' },
	{ "$u7e$", '~' }, { "$u20$", ' ' }, { "$u27$", '\'' },
	{ "$u3d$", '=' }, { "$u5b$", '[' }, { "$u5d$", ']' },
	{ "$u7b$", '{' }, { "$u7d$", '}' }, { "$u3b$", ';' },
	{ "$u2b$", '+' }, { "$u21$", '!' }, { "$u22$", '"' },
};

size_t
rustname_fix(const char *s, size_t n, char *out)
{
	size_t i, k, o = 0, el;

	if (n < HASHLEN || s[n - HASHLEN] != 'h')
		return (size_t)-1;
	for (i = n - HASHLEN + 1; i < n; i++)
		if (!fold_isxdigit((unsigned char)s[i]))
			return (size_t)-1;
	n -= HASHLEN;
	if (n >= 2 && s[n - 1] == ':' && s[n - 2] == ':')
		n -= 2;
	i = 0;
	if (n >= 2 && s[0] == '_' && s[1] == '$')
		i = 1;
	while (i < n) {
		if (s[i] == '.') {
			if (i + 1 < n && s[i + 1] == '.') {
				out[o++] = ':';
				out[o++] = ':';
				i += 2;
			} else
				out[o++] = s[i++];
		} else if (s[i] == '$') {
			for (k = 0; k < sizeof escapes / sizeof escapes[0]; k++) {
				el = strlen(escapes[k].esc);
				if (n - i >= el &&
				    memcmp(s + i, escapes[k].esc, el) == 0)
					break;
			}
			if (k == sizeof escapes / sizeof escapes[0]) {
				memcpy(out + o, s + i, n - i);
				return o + n - i;
			}
			out[o++] = escapes[k].c;
			i += el;
		} else
			out[o++] = s[i++];
	}
	return o;
}
