/*
 * Input: a file name or standard input, read as lines or whole.
 *
 * gzip input is recognised by its magic bytes and decompressed
 * transparently (concatenated members too); a truncated or corrupt stream
 * is an error, never a silent short read. So is a decompression bomb:
 * past FOLD_GZIP_FLOOR decompressed bytes, gzip input may not expand more
 * than FOLD_GZIP_RATIO times the compressed bytes read so far, whatever
 * reads it (fold_in_set_limit adds an absolute cap). A gzip input of at
 * most 64 KiB is inflated at once (libdeflate), faster than zlib's stream,
 * which reads the rest and anything libdeflate refuses. Lines may be of
 * any length up to FOLD_LINE_MAX and may contain NUL bytes: the length
 * is what counts.
 */
#ifndef FOLD_INPUT_H
#define FOLD_INPUT_H

#include <stddef.h>
#include <stdint.h>

struct fold_in;

/* The decompression bomb rule (above). */
#define FOLD_GZIP_FLOOR ((uint64_t)256 << 20)
#define FOLD_GZIP_RATIO 200

/* Longest line accepted before fold_in_line() fails. */
#define FOLD_LINE_MAX ((size_t)1 << 30)

/*
 * Opens path for reading; NULL or "-" means standard input. Returns NULL
 * with a message ("name: No such file or directory", "name: Is a
 * directory") on failure. The caller owns the result (fold_in_close).
 */
struct fold_in *fold_in_open(const char *path);

/* Wraps an open descriptor (not closed by fold_in_close if fd is 0). */
struct fold_in *fold_in_fdopen(int fd, const char *name);

/*
 * 1 when in can be read again from its start: a regular file, opened by
 * fold_in_open or fold_in_fdopen. fold_in_rewind starts it over, as
 * just opened (its limit and progress kept): 0, or -1 with a message.
 */
int fold_in_rewindable(const struct fold_in *in);
int fold_in_rewind(struct fold_in *in);

/*
 * Reads the bytes buf[0..n) as if they were a file named name (gzip too);
 * buf must outlive the result. For tests and fuzzing.
 */
struct fold_in *fold_in_mem(const void *buf, size_t n, const char *name);

/*
 * An input whose bytes are the pieces next(arg, &buf, &len) hands over in
 * turn (returning 1 for a piece, 0 at the end, -1 with a message on an
 * error); a piece must stay valid until the next call. For an input
 * read in parts: next may run while a reader reads the input, between
 * two runs of lines (fold_in_lines) or two lines (fold_in_line), and
 * change the line number there; what it runs may look at what the reader
 * has made of the lines before (fold_in_parted).
 * The bytes are taken as they are: neither gzip nor a byte order mark is
 * looked for.
 */
struct fold_in *fold_in_source(const char *name,
    int (*next)(void *arg, const char **buf, size_t *len), void *arg);
/*
 * 1 when in is a fold_in_source: its reader must be done with a line
 * (a stack added to its table) before it reads the next.
 */
int fold_in_parted(const struct fold_in *in);
/*
 * Reads the len bytes of the file fd from offset off (pread: fd is
 * shared, not closed), as if they were a file named name; the bytes as
 * they are, as for fold_in_source (a part of a file may begin with any).
 */
struct fold_in *fold_in_range(int fd, uint64_t off, uint64_t len,
    const char *name);
/*
 * Where the first byte of in is in the whole input it is a part of (0
 * for a whole input). A reader that keeps the order of things over the
 * parts of an input orders them by it.
 */
void fold_in_set_origin(struct fold_in *in, uint64_t origin);
uint64_t fold_in_origin(const struct fold_in *in);
/*
 * 1 when in is an uncompressed regular file (or standard input from one)
 * of which nothing has been read but what fold_in_peek looked at (it
 * peeks itself first, to tell gzip and UTF-16 from plain bytes): then
 * *fd is its descriptor, and its bytes are those of *fd from offset *at,
 * *size of them, which the caller may read itself (pread). 0 otherwise.
 */
int fold_in_file(struct fold_in *in, int *fd, uint64_t *at,
    uint64_t *size);
/*
 * Caps the number of decompressed bytes (default: none). Reading past it
 * fails with a message naming the limit: a guard against decompression
 * bombs.
 */
void fold_in_set_limit(struct fold_in *in, uint64_t max_bytes);

/*
 * Calls fn(arg, done, size) after each read from the file: done is the
 * bytes read so far (compressed bytes for gzip input), size the file's
 * size, 0 when it is not known (a pipe). For a progress display: fn must
 * be cheap (it runs every 64 KiB or so) and must not use in.
 */
void fold_in_set_progress(struct fold_in *in,
    void (*fn)(void *arg, uint64_t done, uint64_t size), void *arg);

/*
 * Tells in's progress function, if it has one, that done bytes of it are
 * read: for a caller that reads the bytes of in itself (fold_in_file).
 */
void fold_in_progress(struct fold_in *in, uint64_t done);
/*
 * Reads the next line. Returns 1 and sets *line and *len (the line without
 * its "\n" or "\r\n", NUL terminated, valid until the next call), 0 at end
 * of input, or -1 on a read or decompression error (message set). A last
 * line without a newline is returned as a line.
 */
int fold_in_line(struct fold_in *in, const char **line, size_t *len);

/*
 * Looks at the next bytes without reading them: sets *buf and *len to at
 * least want bytes (fewer only at the end of input; want is at most
 * 64 KiB), decompressed, valid until the next call. For telling an
 * input's format from its first bytes. Returns 0, or -1 with a message.
 */
int fold_in_peek(struct fold_in *in, size_t want, const char **buf,
    size_t *len);

/*
 * Steps through the lines of a buffer such as fold_in_peek's: sets *line
 * and *len to the line at *p (without "\n" or "\r\n") and moves *p past
 * it. Returns 1, or 0 when no whole line is left before end (a last line
 * without "\n" counts only when eof is set, since a peek may cut it).
 */
int fold_head_line(const char **p, const char *end, int eof,
    const char **line, size_t *len);

/*
 * Reads the next run of whole lines, for readers that split lines
 * themselves: sets *buf and *len to every complete line buffered (at
 * least one; each ends in "\n" but a last line without one at the end of
 * input; "\r" is left in place), valid until the next call. Returns 1, 0
 * at end of input, or -1 with a message. The caller numbers the lines and
 * tells the count with fold_in_set_lineno(), for messages about the lines
 * that follow.
 */
int fold_in_lines(struct fold_in *in, const char **buf, size_t *len);
void fold_in_set_lineno(struct fold_in *in, uint64_t lineno);

/*
 * Reads the next bytes as they come, for readers that parse a byte
 * stream themselves (XML): sets *buf and *len to what is buffered (up to
 * 128 KiB, not cut at lines), valid until the next call. Returns 1, 0 at
 * end of input, or -1 with a message.
 */
int fold_in_chunk(struct fold_in *in, const char **buf, size_t *len);

/*
 * The rest of the input when it is held whole already within the limit,
 * handed over without a copy: *buf (caller frees; NUL terminated beyond
 * *len), and 1; the input is then at its end. 0 when it is not (nothing
 * is taken: read on), -1 with a message. A gzip input is inflated at
 * once by libdeflate: a small one (64 KiB compressed) at its first read,
 * a regular file that inflates to 16 MiB at most at this call, read
 * again from its start when it was only peeked at (zlib's stream, which
 * it was read with, takes twice as long: pprof2folded of a 3 MB profile
 * was 13% faster).
 */
int fold_in_whole(struct fold_in *in, char **buf, size_t *len);

/*
 * Reads all remaining input into *buf (NUL terminated beyond *len), in's
 * until in is closed. Its size is bounded by fold_in_set_limit, not by
 * FOLD_LINE_MAX. Returns 0 or -1 with a message.
 */
int fold_in_readall(struct fold_in *in, const char **buf, size_t *len);

/* The name used in messages: the path, or "<stdin>". */
const char *fold_in_name(const struct fold_in *in);

/*
 * The size a regular file opened by fold_in_open had then, as its fstat
 * told; -1 for any other input.
 */
int64_t fold_in_filesize(const struct fold_in *in);

/* Number of the line last returned by fold_in_line (1-based). */
uint64_t fold_in_lineno(const struct fold_in *in);

/* 1 when the input was gzip-compressed. */
int fold_in_gzipped(const struct fold_in *in);

/* Closes and frees; returns 0, or -1 with a message on a close error. */
int fold_in_close(struct fold_in *in);

#endif
