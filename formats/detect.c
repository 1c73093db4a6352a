/*
 * The formats whose readers need a library of their own, told from their
 * first bytes apart from those readers: a tool of another format names
 * them in its messages (and stackcollapse tells them) without linking
 * the readers and what they need. SVG's reader loads libxml2 (ICU, the
 * C++ runtime); the JSON formats' need yajl and pcre2; pprof's reader and
 * writer, pcre2 and protobuf-c. Loading the last three took 0.6 ms of the
 * start of every converter.
 */
#include <stdint.h>
#include <string.h>

#include "formats/chrome.h"
#include "formats/firefox.h"
#include "formats/json.h"
#include "formats/otlp.h"
#include "formats/pbutil.h"
#include "formats/pprof.h"
#include "formats/speedscope.h"
#include "formats/svgread.h"
#include "formats/trace.h"

/* [s, e) holds the NUL-terminated word w. */
static int
has(const char *s, const char *e, const char *w)
{
	return memmem(s, e - s, w, strlen(w)) != NULL;
}

static int
starts(const char *s, const char *e, const char *w)
{
	size_t n = strlen(w);

	return (size_t)(e - s) >= n && memcmp(s, w, n) == 0;
}

int
svgread_detect(const char *head, size_t n, int eof)
{
	/* past a byte order mark and blanks, as a JSON document's start */
	const char *s = json_start(head, n, NULL), *e = head + n;

	if (!s)
		return 0;
	if (!starts(s, e, "<?xml") && !starts(s, e, "<!--") &&
	    !starts(s, e, "<!DOCTYPE") && !starts(s, e, "<svg"))
		return 0;
	if (!has(s, e, "<svg"))
		return 0;
	if (has(s, e, "%)</title>") || has(s, e, "func_g") ||
	    has(s, e, "fg:x=\""))
		return 2;
	return 1;
}

const struct format_id svgread_id = {
	.name = "svg",
	.tool = "svg2folded",
	.what = "flame graph SVGs (flamegraph.pl, inferno, flamegraph-svg)",
	.input = "a flame graph SVG",
	.detect = svgread_detect,
};

const char *
json_start(const char *head, size_t n, uint64_t *line)
{
	const char *p = head, *e = head + n;
	uint64_t l = 1;

	if (n >= 3 && memcmp(p, "\xef\xbb\xbf", 3) == 0)
		p += 3;
	for (; p < e && (*p == ' ' || *p == '\n' || *p == '\r' ||
	    *p == '\t'); p++)
		l += *p == '\n';
	if (line)
		*line = l;
	return p < e ? p : NULL;
}

/* The first byte of the JSON object head[0..n) begins, NULL when it
   begins no object. */
static const char *
object(const char *head, size_t n)
{
	const char *p = json_start(head, n, NULL);

	return p && *p == '{' ? p : NULL;
}

int
chrome_detect(const char *head, size_t n, int eof)
{
	const char *p = object(head, n), *e = head + n;

	if (!p)
		return 0;
	/* a trace whose profile chunks hold nodes */
	if (has(p, e, "\"traceEvents\""))
		return 0;
	if (has(p, e, "\"callFrame\""))
		return 2;
	if (has(p, e, "\"nodes\""))
		return 1;
	/* the layout before 2016, to be named */
	if (has(p, e, "\"head\"") && has(p, e, "\"functionName\""))
		return 1;
	return 0;
}

const struct format_id chrome_id = {
	.name = "chrome",
	.tool = "stackcollapse-chrome",
	.what = "V8 .cpuprofile JSON (node --cpu-prof, Chrome DevTools)",
	.input = "a V8 .cpuprofile",
	.detect = chrome_detect,
};

int
trace_detect(const char *head, size_t n, int eof)
{
	const char *p = json_start(head, n, NULL), *e = head + n;

	if (p && *p == '{' && has(p, e, "\"traceEvents\""))
		return 2;
	if (p && *p == '[' && has(p, e, "\"ph\"") &&
	    has(p, e, "\"ts\""))
		return 2;
	return 0;
}

const struct format_id trace_id = {
	.name = "chrome-tracing",
	.tool = "stackcollapse-chrome-tracing",
	.what = "Chrome trace-event JSON (DevTools Performance, chrome://tracing)",
	.input = "a Chrome trace",
	.detect = trace_detect,
};

int
speedscope_detect(const char *head, size_t n, int eof)
{
	const char *p = object(head, n), *e = head + n;

	if (!p)
		return 0;
	if (has(p, e, "speedscope.app/file-format-schema.json"))
		return 2;
	if (has(p, e, "\"profiles\"") && has(p, e, "\"shared\""))
		return 1;
	return 0;
}

const struct format_id speedscope_id = {
	.name = "speedscope",
	.tool = "stackcollapse-speedscope",
	.what = "speedscope JSON (py-spy, rbspy, pyinstrument, speedscope)",
	.input = "a speedscope file",
	.detect = speedscope_detect,
};

int
firefox_detect(const char *head, size_t n, int eof)
{
	const char *p = object(head, n), *e = head + n;

	if (!p)
		return 0;
	if (has(p, e, "\"preprocessedProfileVersion\""))
		return 2;
	/* a Gecko profile's libraries, or a thread's tables */
	if (has(p, e, "\"libs\"") && has(p, e, "\"breakpadId\"") &&
	    has(p, e, "\"debugName\""))
		return 2;
	if (has(p, e, "\"stackTable\"") && has(p, e, "\"frameTable\"") &&
	    (has(p, e, "\"stringTable\"") || has(p, e, "\"stringArray\"")))
		return 2;
	if (has(p, e, "\"meta\"") && has(p, e, "\"threads\"") &&
	    has(p, e, "\"interval\""))
		return 1;
	return 0;
}

const struct format_id firefox_id = {
	.name = "firefox",
	.tool = "stackcollapse-firefox",
	.what = "Firefox Profiler JSON (Gecko profiles, processed, samply)",
	.input = "a Firefox profile",
	.detect = firefox_detect,
};

int
otlp_detect(const char *head, size_t n, int eof)
{
	const char *p = object(head, n), *e = head + n;

	if (!p)
		return 0;
	if (has(p, e, "\"resourceProfiles\"") ||
	    has(p, e, "\"scopeProfiles\""))
		return 2;
	return 0;
}

const struct format_id otlp_id = {
	.name = "otlp",
	.tool = "stackcollapse-otlp",
	.what = "OpenTelemetry profiles, OTLP/JSON (v1.8.0 and later)",
	.input = "OTLP profiles",
	.detect = otlp_detect,
};

/*
 * FOLD_DETECT_SURE (2) when head[0..n) (decompressed) frames as a protobuf
 * Profile message: every field a known number with its wire type, binary
 * bytes among them; else 0.
 */
static int
pprof_detect(const char *head, size_t n, int eof)
{
	const uint8_t *p = (const uint8_t *)head;
	size_t pos = 0, i, ctl = 0;
	uint64_t key, v;
	int fields = 0;

	/* varints and packed ids: text with a stray control byte is not */
	for (i = 0; i < n; i++)
		ctl += p[i] < 0x20 && p[i] != '\t' && p[i] != '\n' &&
		    p[i] != '\r';
	if (ctl == 0 || ctl < n / 100)
		return 0;
	while (pos < n) {
		if (pb_varint(p, n, &pos, &key) < 0)
			break;
		switch (key) {
		case 1 << 3 | 2: case 2 << 3 | 2: case 3 << 3 | 2:
		case 4 << 3 | 2: case 5 << 3 | 2: case 6 << 3 | 2:
		case 11 << 3 | 2: case 13 << 3 | 2:
			/* sample_type ... string_table, period_type, comment */
			if (pb_varint(p, n, &pos, &v) < 0 || v > n - pos) {
				pos = n + 1;	/* goes on past the head */
				break;
			}
			pos += v;
			break;
		case 7 << 3: case 8 << 3: case 9 << 3: case 10 << 3:
		case 12 << 3: case 13 << 3: case 14 << 3:
			/* drop_frames ... default_sample_type */
			if (pb_varint(p, n, &pos, &v) < 0)
				pos = n + 1;
			break;
		default:
			return fields ? 1 : 0;
		}
		if (pos <= n)
			fields++;
	}
	if (fields == 0)
		return 0;
	/* a field cut by the end of the head is fine; by the end of the
	   input, or a field that is not there, is a damaged profile: the
	   reader says what is wrong */
	return pos > n && eof ? 1 : 2;
}

const struct format_id pprof_id = {
	.name = "pprof",
	.tool = "pprof2folded",
	.what = "pprof profiles (gzip or raw protobuf)",
	.input = "a pprof profile",
	.detect = pprof_detect,
};
