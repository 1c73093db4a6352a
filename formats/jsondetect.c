/*
 * The JSON formats told from their first bytes, apart from their readers:
 * a tool of another format names them in its messages (and stackcollapse
 * tells them) without linking the readers and what they need, yajl and
 * pcre2. Loading those and protobuf-c (see pprofdetect.c) took 0.6 ms of
 * the start of every converter.
 */
#include <stdint.h>
#include <string.h>

#include "formats/chrome.h"
#include "formats/firefox.h"
#include "formats/json.h"
#include "formats/otlp.h"
#include "formats/speedscope.h"
#include "formats/trace.h"

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

int
chrome_detect(const char *head, size_t n, int eof)
{
	const char *p = json_start(head, n, NULL), *e = head + n;

	(void)eof;
	if (!p || *p != '{')
		return 0;
	/* a trace whose profile chunks hold nodes */
	if (memmem(p, e - p, "\"traceEvents\"", 13))
		return 0;
	if (memmem(p, e - p, "\"callFrame\"", 11))
		return 2;
	if (memmem(p, e - p, "\"nodes\"", 7))
		return 1;
	/* the layout before 2016, to be named */
	if (memmem(p, e - p, "\"head\"", 6) &&
	    memmem(p, e - p, "\"functionName\"", 14))
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

	(void)eof;
	if (p && *p == '{' && memmem(p, e - p, "\"traceEvents\"", 13))
		return 2;
	if (p && *p == '[' && memmem(p, e - p, "\"ph\"", 4) &&
	    memmem(p, e - p, "\"ts\"", 4))
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
	const char *p = json_start(head, n, NULL), *e = head + n;

	(void)eof;
	if (!p || *p != '{')
		return 0;
	if (memmem(p, e - p, "speedscope.app/file-format-schema.json", 38))
		return 2;
	if (memmem(p, e - p, "\"profiles\"", 10) &&
	    memmem(p, e - p, "\"shared\"", 8))
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
	const char *p = json_start(head, n, NULL), *e = head + n;

	(void)eof;
	if (!p || *p != '{')
		return 0;
#define HAS(s) (memmem(p, e - p, s, sizeof s - 1) != NULL)
	if (HAS("\"preprocessedProfileVersion\""))
		return 2;
	/* a Gecko profile's libraries, or a thread's tables */
	if (HAS("\"libs\"") && HAS("\"breakpadId\"") && HAS("\"debugName\""))
		return 2;
	if (HAS("\"stackTable\"") && HAS("\"frameTable\"") &&
	    (HAS("\"stringTable\"") || HAS("\"stringArray\"")))
		return 2;
	if (HAS("\"meta\"") && HAS("\"threads\"") && HAS("\"interval\""))
		return 1;
#undef HAS
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
	const char *p = json_start(head, n, NULL), *e = head + n;

	(void)eof;
	if (!p || *p != '{')
		return 0;
	if (memmem(p, e - p, "\"resourceProfiles\"", 18) ||
	    memmem(p, e - p, "\"scopeProfiles\"", 15))
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
