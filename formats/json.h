#ifndef FORMATS_JSON_H
#define FORMATS_JSON_H

#include <stddef.h>
#include <stdint.h>

#include "libfold/input.h"

/*
 * JSON read as a stream of events, for every reader of a JSON format.
 *
 * The input is parsed (by yajl) chunk by chunk as fold_in gives it, so
 * memory is bounded by what a reader keeps, not by the input. A reader
 * sees each token as an event; at the start of a value it may skip the
 * value, or capture it whole as a small tree (one trace event, one node
 * of a .cpuprofile) that it then looks into by key. Large arrays of
 * numbers are best taken event by event.
 *
 *	static int
 *	ev(void *ctx, struct json *j, const struct json_event *e)
 *	{
 *		if (e->type == JSON_OBJECT && e->depth == 2)
 *			return JSON_CAPTURE;	// each element of the array
 *		if (e->type == JSON_VALUE)
 *			use(j, e->v);		// the element, whole
 *		return 0;
 *	}
 *
 * Numbers are given as their text, exactly as written; json_int64 reads
 * an integer from it. Strings and keys are given decoded, as bytes (a
 * name may hold NUL), and are not checked for UTF-8: a frame name is
 * bytes to this toolkit. A UTF-8 byte order mark before the value is
 * skipped.
 */

enum json_type {
	JSON_NULL,
	JSON_FALSE,
	JSON_TRUE,
	JSON_NUMBER,
	JSON_STRING,
	JSON_KEY,	/* an object's key; its value's events follow */
	JSON_OBJECT,	/* a value that begins; JSON_END when it ends */
	JSON_ARRAY,
	JSON_END,
	JSON_VALUE	/* a captured value, whole: e->v */
};

struct json_val;

struct json_event {
	enum json_type type;
	const char *s;		/* NUMBER, STRING, KEY: the text */
	size_t n;
	/* containers open around the token: 0 for the top value; an END
	   has its start's depth; a VALUE its first token's */
	int depth;
	const struct json_val *v;	/* VALUE: the root of the capture */
	uint64_t line;		/* VALUE: the line where it began */
};

struct json;

/* What an event callback returns: 0 to go on, or at a value's first
   event one of these; below 0 stops the read (fold_seterr said why). */
enum { JSON_SKIP = 1, JSON_CAPTURE = 2 };

typedef int json_event_fn(void *ctx, struct json *j,
    const struct json_event *e);

struct json *json_new(json_event_fn *fn, void *ctx);
void json_free(struct json *j);

/*
 * Reads one JSON value from in, to its end, calling fn for each event.
 * Returns 0; -1 when the input is not JSON or cannot be read, with
 * fold_err "file:line: not valid JSON: ..."; or what fn returned below 0.
 * An input of blanks only has no events and returns 0: the reader says
 * what it expected.
 */
int json_read(struct json *j, struct fold_in *in);

/*
 * Lets an input end with up to depth containers open, between two of
 * their values (after one, or after its comma): they are ended there,
 * their END events given. The Trace Event Format allows a trace's array
 * to be left open, as a program that stops while tracing leaves it.
 */
void json_allow_unclosed(struct json *j, int depth);

/* The line of the token being given (1 for the first line). */
uint64_t json_line(struct json *j);

/*
 * The error "file:line: msg" at the current token, as fold_seterr_at;
 * returns -1, for a callback to return.
 */
int json_fail(struct json *j, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * Where a JSON value begins in head[0..n): past a UTF-8 byte order mark
 * and blanks, the first other byte, or NULL when there is none; *line
 * (when not NULL) is set to its line. For detectors, and for readers
 * that name what an input that is not theirs begins with.
 */
const char *json_start(const char *head, size_t n, uint64_t *line);

/*
 * The start of a JSON reader's input: caps in at max bytes, and names at
 * once an input whose value does not begin with a byte of opens ("{",
 * "{[") in the words of the format rather than of the grammar (a folded
 * file, random bytes): "file:line: not WHAT: a JSON object expected".
 * A head of blanks only is left to the reader. 0, or -1 with the message.
 */
int json_begin(struct fold_in *in, uint64_t max, const char *opens,
    const char *what);

/* The input's name, for messages. */
const char *json_file(const struct json *j);

/*
 * A captured value, valid until the callback that was given it returns.
 * Objects hold their members in order (a key may come twice:
 * json_member finds the first).
 */
enum json_type json_type(const struct json_val *v);
/* 1 when v is the string s */
int json_is(const struct json *j, const struct json_val *v, const char *s);
/* NUMBER, STRING, KEY: the text and its length */
const char *json_text(const struct json *j, const struct json_val *v,
    size_t *n);
/* OBJECT: the value of key, or NULL */
const struct json_val *json_member(const struct json *j,
    const struct json_val *obj, const char *key);
/* ARRAY: the first element; then each next one, NULL after the last.
   OBJECT: the same over its keys, each followed by its value. */
const struct json_val *json_first(const struct json *j,
    const struct json_val *v);
const struct json_val *json_next(const struct json *j,
    const struct json_val *v);

/*
 * An integer written as one, -?(0|[1-9][0-9]*), in int64_t's range:
 * 1 and *v; 0 for any other number (a fraction, an exponent, out of
 * range) or text.
 */
int json_int64(const char *s, size_t n, int64_t *v);
/* The same for a captured value: 0 unless it is such a number. */
int json_val_int64(const struct json *j, const struct json_val *v,
    int64_t *out);

/*
 * Any JSON number, exactly, as a fixed-point integer: the value times
 * 10^scale, rounded to the nearest integer (a half away from zero).
 * Profilers write times as doubles in any unit ("12.345000000000001"
 * milliseconds); read this way they add up without the errors of binary
 * fractions. 1 and *v; 0 when s[0..n) is not a JSON number or the result
 * is out of range (beyond about 1.7e38).
 */
typedef __int128 json_fixed_t;
int json_fixed(const char *s, size_t n, int scale, json_fixed_t *v);

#endif
