#include <string.h>

#include "formats/magic.h"

static const struct {
	const char *magic;
	size_t len;
	const char *what;
} magics[] = {
	{ "\177ELF", 4, "an ELF executable" },
	{ "PERFILE2", 8, "a perf.data file: perf script prints its text" },
	{ "FLR\0", 4, "a JFR recording: stackcollapse-jfr reads it" },
	{ "\375" "7zXZ\0", 6, "xz data: decompress it first" },
	{ "\050\265\057\375", 4, "zstd data: decompress it first" },
	{ "BZh", 3, "bzip2 data: decompress it first" },
	{ "PK\003\004", 4, "a zip archive, such as an Instruments "
	    ".trace.zip: unzip it first" },
};

const char *
fold_magic(const char *head, size_t n)
{
	size_t m;

	for (m = 0; m < sizeof magics / sizeof magics[0]; m++)
		if (n >= magics[m].len &&
		    memcmp(head, magics[m].magic, magics[m].len) == 0)
			return magics[m].what;
	return NULL;
}

/*
 * Go's profiles in the text that runtime/pprof writes with debug=1: their
 * first line. go tool pprof reads them as bare addresses (the symbols in
 * their comments are lost), so the way is the profile itself.
 */
static const char *const legacy[] = {
	"--- contention:", "--- mutex:", "heap profile: ",
	"goroutine profile: total ", "threadcreate profile: total ",
};

const char *
fold_lookalike(const char *head, size_t n)
{
	const char *p = head, *e = head + n;
	size_t i;

	for (i = 0; i < sizeof legacy / sizeof legacy[0]; i++)
		if (n >= strlen(legacy[i]) &&
		    memcmp(head, legacy[i], strlen(legacy[i])) == 0)
			return "the text of a Go profile (debug=1): "
			    "write or fetch it with debug=0, a pprof profile";
	while (p < e && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'))
		p++;
	/* Web Inspector's export of a timeline: {"version":1,"recording":
	   {..., "records": [...]}} */
	if (p < e && *p == '{' && memmem(p, e - p, "\"recording\"", 11) &&
	    memmem(p, e - p, "\"records\"", 9))
		return "a Safari timeline recording";
	return NULL;
}
