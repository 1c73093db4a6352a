/*
 * Counted warnings about bad input.
 *
 * Readers do not fail on a bad line: they count it here. The first few
 * are handed to the caller's report function (which prints them); the
 * rest are only counted, and the caller prints the total at the end.
 * Under strict, the first warning is an error instead.
 */
#ifndef FOLD_DIAG_H
#define FOLD_DIAG_H

#include <stddef.h>
#include <stdint.h>

struct fold_diag {
	/* called with "file:line: message" for the first `limit` warnings */
	void (*report)(void *arg, const char *msg);
	void *arg;
	unsigned limit;
	int strict;
	uint64_t count;		/* warnings so far */
	/*
	 * When set, every warning is handed to it instead of report (with
	 * its file, its line and its text without the place), to be said
	 * later through another diag: the warnings of a part of an input,
	 * or of an input, read on another thread, said in their order.
	 * strict still applies: a reader stops where it would have.
	 */
	void (*defer)(void *arg, const char *file, uint64_t line,
	    const char *text);
};

/*
 * Where a reader hands the messages that are not about one line (what it
 * dropped in all, an input that looks cut short): the command prints
 * them.
 */
typedef void fold_say_fn(void *arg, const char *msg);

#define FOLD_DIAG_LIMIT 5
#define FOLD_DIAG_INIT { .limit = FOLD_DIAG_LIMIT }

/*
 * Messages held to be said later, in order, through another diag: those
 * of an input, or of a part of one, read on another thread. A diag made
 * by fold_hold hands its warnings to h: the first `limit` (the most a
 * diag shows) are kept with their place and text, the others only
 * counted. fold_held_note keeps a message that is not a warning (a file
 * that failed), whatever their number.
 */
struct fold_held_msg {
	int warn;		/* 0: a note */
	char *file;
	uint64_t line;
	char *text;
};

struct fold_held {
	struct fold_held_msg *v;
	size_t n, cap;
	unsigned limit, nwarn;
	uint64_t more;		/* warnings counted, not kept */
};

/*
 * Empties h and makes *d a diag that holds its warnings there, keeping
 * up to limit of them; under strict it stops its reader at the first, as
 * the diag they will be said through would.
 */
void fold_hold(struct fold_diag *d, struct fold_held *h, unsigned limit,
    int strict);
void fold_held_note(struct fold_held *h, const char *text);

/*
 * Says what h holds, in order, and empties it: each warning through to,
 * its line (when not 0) counted from base, each note through say(arg,
 * text) (say may be NULL when h holds no note). Returns 0, or -1 at a
 * warning that strict makes an error (what follows it unsaid, as its
 * reader said nothing after it).
 */
int fold_held_say(struct fold_held *h, struct fold_diag *to, uint64_t base,
    fold_say_fn *say, void *arg);
void fold_held_free(struct fold_held *h);

/*
 * Counts a warning about file:line (line 0: none). Returns 0, or under
 * strict -1 with the message set as the error.
 */
int fold_warn(struct fold_diag *d, const char *file, uint64_t line,
    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/*
 * Sets the error "file:line: message" ("file: message" when line is 0),
 * the message in printf format, and returns -1: an input that fails at
 * a place, worded as fold_warn words a warning. fold_err() may be among
 * the arguments (a failure below, given the place).
 */
int fold_seterr_at(const char *file, uint64_t line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/*
 * Bytes of the input made safe to show, as vis(3) does: on a terminal, in
 * a CI log, in a table cell or in a message. Printable ASCII and valid
 * UTF-8 are kept; any other byte is written "\xHH" (two lowercase hex
 * digits), the notation in which warnings quote a bad line:
 *   - the C0 controls (NUL, tab, newline, ESC ...) and DEL;
 *   - the C1 controls, U+0080-U+009F (0xc2 0x9b is CSI on some terminals);
 *   - the bidirectional overrides and isolates, U+202A-U+202E and
 *     U+2066-U+2069, which reorder what follows them on the screen;
 *   - U+FFFE and U+FFFF, not characters (XML has no place for them);
 *   - each byte of invalid UTF-8 (a cut sequence, an overlong form, a
 *     surrogate, past U+10FFFF).
 * A backslash before an 'x' is written "\x5c", so that every "\x" shown
 * begins an escape and what is shown reads back to the exact bytes; other
 * backslashes (C:\path) stay as they are. The output holds no NUL, no
 * control character and no tab, so that it never ends a line, a field or
 * a string early.
 */

/*
 * Decodes the UTF-8 character at s[0..n) (n >= 1): returns its length and
 * sets *cp, or returns 0 when the bytes are not one (invalid, overlong, a
 * surrogate, past U+10FFFF, or cut by n).
 */
size_t fold_utf8(const unsigned char *s, size_t n, uint32_t *cp);

/* The most fold_vis writes for n input bytes, its NUL included. */
#define FOLD_VIS_MAX(n) (4 * (n) + 1)

/*
 * Writes s[0..n) shown so to buf, at most size - 1 bytes and a NUL
 * (size >= 1), never part of an escape or of a character: a message
 * quoting a long name gives a small buffer and is cut there. Sets *used (unless
 * NULL) to how many bytes of s were shown (n when all fit) and returns
 * the length written.
 */
size_t fold_vis(char *buf, size_t size, const char *s, size_t n,
    size_t *used);

/*
 * s[0..n) shown so, in a new NUL-terminated string (the caller frees it);
 * its length in *len unless len is NULL.
 */
char *fold_visdup(const char *s, size_t n, size_t *len);

#endif
