#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <string.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include <libdeflate.h>
#include <zlib.h>

#include "diag.h"
#include "err.h"
#include "input.h"
#include "jobs.h"

enum { BUFSZ = 128 * 1024, RAWSZ = 64 * 1024 };

struct fold_in {
	int fd, ownfd;
	off_t at0;		/* where fd's bytes begin; -1: no rewinding */
	char *name;
	char *buf;		/* decoded bytes: buf[start..end) unread */
	size_t cap, start, end, scan;
	int eof;		/* no more bytes will come */
	uint64_t lineno, total, limit;
	/* gzip */
	int gz, zinit, zend;
	z_stream z;
	unsigned char *raw;
	size_t rawcap;
	int raweof;
	unsigned char *plain;	/* a small input inflated at once */
	size_t plainlen, plainpos;
	int takewhole;		/* the caller takes the input whole */
	off_t fsize;		/* a regular file's size; -1: unknown */
	int atend;		/* read to fsize: the next read would give 0 */
	char *whole;		/* plain, once fold_in_readall took it */
	/* UTF-16 text with a byte order mark, read as UTF-8 */
	int sniffed, u16;	/* u16: 1 little-endian, 2 big-endian */
	unsigned char carry[4];	/* an odd byte, a surrogate's first half */
	size_t ncarry;
	unsigned char *u16buf;
	size_t u16cap;
	/* fold_in_mem: the bytes read instead of fd */
	const char *mem;
	size_t memlen;
	/* fold_in_source: where the next of them come from */
	int (*next)(void *arg, const char **buf, size_t *len);
	void *nextarg;
	int source;
	uint64_t origin;
	/* fold_in_range: the bytes of fd read, at pos, and how many left */
	int range;
	uint64_t pos, left;
	/* fold_in_set_progress */
	void (*progress)(void *arg, uint64_t done, uint64_t size);
	void *progarg;
	uint64_t rawdone, size;
};

static struct fold_in *
newin(int fd, int ownfd, const char *name, size_t cap)
{
	struct fold_in *in = fold_calloc(1, sizeof *in);

	in->fd = fd;
	in->ownfd = ownfd;
	in->at0 = -1;
	in->fsize = -1;
	in->name = fold_strdup(name);
	in->cap = cap;
	in->buf = fold_big_alloc(in->cap, 1);
	return in;
}

void
fold_in_set_progress(struct fold_in *in,
    void (*fn)(void *arg, uint64_t done, uint64_t size), void *arg)
{
	struct stat sb;

	in->progress = fn;
	in->progarg = arg;
	if (in->fd >= 0 && fstat(in->fd, &sb) == 0 && S_ISREG(sb.st_mode))
		in->size = sb.st_size;
}

struct fold_in *
fold_in_fdopen(int fd, const char *name)
{
	struct fold_in *in = newin(fd, fd != 0, name, BUFSZ);
	struct stat sb;

	if (fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode))
		in->at0 = lseek(fd, 0, SEEK_CUR);
	return in;
}

struct fold_in *
fold_in_open(const char *path)
{
	struct fold_in *in;
	struct stat sb;
	size_t cap;
	int fd;

	if (path == NULL || strcmp(path, "-") == 0)
		return fold_in_fdopen(0, "<stdin>");
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return fold_seterr("%s: %s", path, strerror(errno)), NULL;
	if (fstat(fd, &sb) < 0)
		sb.st_mode = 0;		/* not a regular file: the full buffer */
	if (S_ISDIR(sb.st_mode)) {
		close(fd);
		return fold_seterr("%s: %s", path, strerror(EISDIR)), NULL;
	}
	/*
	 * A small file gets a buffer its size: merging thousands of small
	 * profiles should not touch 128 KiB of fresh memory for each. The
	 * buffer still grows for long lines and decompressed bytes.
	 */
	cap = S_ISREG(sb.st_mode) ? 4096 : BUFSZ;
	while (cap < BUFSZ && (off_t)cap <= sb.st_size)
		cap *= 2;
	in = newin(fd, 1, path, cap);
	if (S_ISREG(sb.st_mode)) {
		in->at0 = 0;
		in->fsize = sb.st_size;
	}
	return in;
}

int64_t
fold_in_filesize(const struct fold_in *in)
{
	return in->fsize;
}

int
fold_in_rewindable(const struct fold_in *in)
{
	return in->at0 >= 0;
}

int
fold_in_rewind(struct fold_in *in)
{
	if (in->at0 < 0)
		return fold_seterr("%s: cannot be read again", in->name);
	if (lseek(in->fd, in->at0, SEEK_SET) < 0)
		return fold_seterr("%s: %s", in->name, strerror(errno));
	if (in->zinit && in->gz)
		inflateEnd(&in->z);
	fold_big_free(in->raw, in->rawcap, 1);
	free(in->u16buf);
	free(in->plain);
	free(in->whole);
	in->plain = NULL;
	in->whole = NULL;
	in->plainlen = in->plainpos = 0;
	in->start = in->end = in->scan = 0;
	in->eof = 0;
	in->lineno = in->total = in->rawdone = 0;
	in->gz = in->zinit = in->zend = 0;
	memset(&in->z, 0, sizeof in->z);
	in->raw = NULL;
	in->rawcap = 0;
	in->raweof = in->atend = 0;
	in->sniffed = in->u16 = 0;
	in->ncarry = 0;
	in->u16buf = NULL;
	in->u16cap = 0;
	return 0;
}

void
fold_in_set_limit(struct fold_in *in, uint64_t max_bytes)
{
	in->limit = max_bytes;
}

const char *
fold_in_name(const struct fold_in *in)
{
	return in->name;
}

uint64_t
fold_in_lineno(const struct fold_in *in)
{
	return in->lineno;
}

int
fold_in_gzipped(const struct fold_in *in)
{
	return in->gz;
}

struct fold_in *
fold_in_mem(const void *buf, size_t n, const char *name)
{
	/* a small buffer for a small input; it grows as lines need */
	struct fold_in *in = newin(-1, 0, name, n < 2048 ? 4096 :
	    n < BUFSZ / 2 ? 2 * n : BUFSZ);

	in->mem = buf;
	in->memlen = n;
	return in;
}

struct fold_in *
fold_in_source(const char *name,
    int (*next)(void *arg, const char **buf, size_t *len), void *arg)
{
	struct fold_in *in = newin(-1, 0, name, BUFSZ);

	in->next = next;
	in->nextarg = arg;
	in->source = 1;
	in->zinit = in->sniffed = 1;	/* as for fold_in_range */
	return in;
}

int
fold_in_parted(const struct fold_in *in)
{
	return in->source;
}

struct fold_in *
fold_in_range(int fd, uint64_t off, uint64_t len, const char *name)
{
	struct fold_in *in = newin(fd, 0, name, BUFSZ);

	in->range = 1;
	in->pos = off;
	in->left = len;
	/* part of a file: its bytes as they are, whatever they begin with
	   (the whole was looked at for gzip and a byte order mark) */
	in->zinit = in->sniffed = 1;
	return in;
}

void
fold_in_progress(struct fold_in *in, uint64_t done)
{
	if (in->progress)
		in->progress(in->progarg, done, in->size);
}

void
fold_in_set_origin(struct fold_in *in, uint64_t origin)
{
	in->origin = origin;
}

uint64_t
fold_in_origin(const struct fold_in *in)
{
	return in->origin;
}

int
fold_in_file(struct fold_in *in, int *fd, uint64_t *at, uint64_t *size)
{
	struct stat sb;
	const char *head;
	size_t n;
	off_t pos;

	/* what the bytes are (gzip, UTF-16) is told by the first ones */
	if (!in->sniffed && fold_in_peek(in, 1, &head, &n) < 0)
		return 0;
	if (in->fd < 0 || in->gz || in->u16 || in->limit || in->lineno ||
	    in->start || in->total != in->end || in->total != in->rawdone)
		return 0;
	if (fstat(in->fd, &sb) < 0 || !S_ISREG(sb.st_mode))
		return 0;
	/* where the reading began: standard input may be part-read */
	if ((pos = lseek(in->fd, 0, SEEK_CUR)) < 0 ||
	    (uint64_t)pos < in->rawdone || sb.st_size < pos)
		return 0;
	*fd = in->fd;
	*at = (uint64_t)pos - in->rawdone;
	*size = (uint64_t)sb.st_size - *at;
	return 1;
}

static ssize_t
readfd(struct fold_in *in, void *p, size_t n)
{
	ssize_t r;

	if (in->source) {	/* a source: its next piece, if need be */
		while (in->next && in->memlen == 0)
			if ((r = in->next(in->nextarg, &in->mem,
			    &in->memlen)) <= 0) {
				in->next = NULL;
				in->memlen = 0;
				if (r < 0)
					return -1;
			}
		if (in->memlen == 0)
			return 0;
	}
	if (in->mem) {
		if (n > in->memlen)
			n = in->memlen;
		memcpy(p, in->mem, n);
		in->mem += n;
		in->memlen -= n;
		in->rawdone += n;
		return n;
	}
	if (in->range && n > in->left)
		n = in->left;
	if (in->atend)
		return 0;
	do
		r = in->range ? (n ? pread(in->fd, p, n, (off_t)in->pos) : 0) :
		    read(in->fd, p, n);
	while (r < 0 && errno == EINTR);
	if (in->range && r > 0) {
		in->pos += r;
		in->left -= r;
	}
	if (r < 0)
		fold_seterr("%s: read error: %s", in->name, strerror(errno));
	else if (r > 0) {
		in->rawdone += r;
		/*
		 * A short read of a regular file, to the size it had when
		 * opened, is its end: the read that would say so (a tenth of
		 * the system's time for a small profile) is spared.
		 */
		if ((size_t)r < n && in->fsize >= 0 &&
		    in->rawdone == (uint64_t)in->fsize)
			in->atend = 1;
		if (in->progress)
			in->progress(in->progarg, in->rawdone, in->size);
	}
	return r;
}

/* Tops the raw (compressed) buffer up to at least want bytes if it can. */
static int
fillraw(struct fold_in *in, size_t want)
{
	if (in->z.avail_in && in->z.next_in != in->raw)
		memmove(in->raw, in->z.next_in, in->z.avail_in);
	in->z.next_in = in->raw;
	while (in->z.avail_in < want && !in->raweof) {
		ssize_t r = readfd(in, in->raw + in->z.avail_in,
		    in->rawcap - in->z.avail_in);
		if (r < 0)
			return -1;
		if (r == 0)
			in->raweof = 1;
		in->z.avail_in += r;
	}
	return 0;
}

/* Appends decompressed bytes to buf[end..cap-1). */
static ssize_t
fillgz(struct fold_in *in)
{
	size_t room = in->cap - 1 - in->end;

	for (;;) {
		if (in->zend) {
			/* a member ended: another may follow, or the input ends */
			if (fillraw(in, 2) < 0)
				return -1;
			if (in->z.avail_in == 0)
				return 0;
			if (in->z.avail_in < 2 || in->raw[0] != 0x1f ||
			    in->raw[1] != 0x8b)
				return fold_seterr("%s: trailing garbage after "
				    "gzip data", in->name);
			inflateReset(&in->z);
			in->zend = 0;
		}
		if (in->z.avail_in == 0 && fillraw(in, 1) < 0)
			return -1;
		in->z.next_out = (unsigned char *)in->buf + in->end;
		in->z.avail_out = room;
		int rc = inflate(&in->z, Z_NO_FLUSH);
		size_t got = room - in->z.avail_out;
		if (rc == Z_STREAM_END)
			in->zend = 1;
		else if (rc == Z_BUF_ERROR && in->z.avail_in == 0 && in->raweof)
			return fold_seterr("%s: truncated gzip stream", in->name);
		else if (rc != Z_OK && rc != Z_BUF_ERROR)
			return fold_seterr("%s: corrupt gzip data: %s", in->name,
			    in->z.msg ? in->z.msg : "unknown error");
		if (got)
			return got;
	}
}

/* The most a gzip input inflated at once may give. */
enum { WHOLE_MAX = 16 << 20 };

/*
 * The thread's libdeflate decompressor, kept from one input to the next:
 * allocating one for each was 2% of merging a fleet of small profiles.
 */
static void *
inflater_make(void)
{
	fold_libdeflate_alloc();
	return libdeflate_alloc_decompressor();
}

static void
inflater_free(void *d)
{
	libdeflate_free_decompressor(d);
}

static struct fold_perthread inflaters =
    FOLD_PERTHREAD(inflater_make, inflater_free);

/*
 * The size a gzip member says at its end, in its last 4 bytes t (mod
 * 2^32), in *size: 1 when in may inflate it at once, within WHOLE_MAX and
 * the limit.
 */
static int
trailer_fits(const struct fold_in *in, const unsigned char *t, size_t *size)
{
	*size = t[0] | t[1] << 8 | t[2] << 16 | (size_t)t[3] << 24;
	return *size <= WHOLE_MAX && (!in->limit || *size <= in->limit);
}

/*
 * A gzip input all of whose compressed bytes fit the raw buffer (a small
 * one, or a file a whole reader takes: fill8) is inflated at once by
 * libdeflate, which takes half to two thirds of the time zlib's stream
 * takes (inflating was a third of what merging a small pprof profile
 * cost). What it does not take (a second member, garbage after the end,
 * a wrong size or checksum, a size past the limit) is streamed by zlib
 * instead, which says what is wrong. Returns 1 when in->plain holds the
 * input, 0 to stream it, -1 on a read error.
 */
static int
gzwhole(struct fold_in *in)
{
	struct libdeflate_decompressor *d;
	size_t n, size, used, got;
	enum libdeflate_result r;

	if (fillraw(in, in->rawcap) < 0)
		return -1;
	n = in->z.avail_in;
	if (!in->raweof || n < 18)
		return 0;
	if (!trailer_fits(in, in->raw + n - 4, &size))
		return 0;
	if (!(d = fold_perthread(&inflaters)))
		return 0;
	in->plain = fold_malloc(size + 1);
	r = libdeflate_gzip_decompress_ex(d, in->raw, n, in->plain, size,
	    &used, &got);
	if (r != LIBDEFLATE_SUCCESS || used != n || got != size) {
		free(in->plain);
		in->plain = NULL;
		return 0;
	}
	in->plainlen = size;
	in->plainpos = 0;
	in->z.avail_in = 0;
	/* the compressed bytes are done with: not held beside the plain */
	fold_big_discard(in->raw, in->rawcap, 1);
	in->raw = NULL;
	in->rawcap = 0;
	return 1;
}

/*
 * Whether the regular file in, gzip, says at its end (its last member's
 * size, mod 2^32) that it inflates within WHOLE_MAX and the limit: read
 * whole for gzwhole only then, its compressed bytes not held otherwise.
 */
static int
whole_fits(struct fold_in *in)
{
	unsigned char t[4];
	size_t size;

	return in->fsize >= 18 && pread(in->fd, t, 4, in->fsize - 4) == 4 &&
	    trailer_fits(in, t, &size);
}

/* Copies what is left of in->plain to buf[end..cap-1). */
static size_t
takeplain(struct fold_in *in)
{
	size_t n = in->plainlen - in->plainpos;

	if (n > in->cap - 1 - in->end)
		n = in->cap - 1 - in->end;
	memcpy(in->buf + in->end, in->plain + in->plainpos, n);
	in->plainpos += n;
	return n;
}

/* Reads more bytes, decompressed, into buf[end..]; how many (0 at end). */
static ssize_t
fill8(struct fold_in *in)
{
	ssize_t r;

	if (!in->zinit) {
		/* sniff the gzip magic on the first read */
		in->zinit = 1;
		/* no larger than the room for the plain bytes it may hold */
		in->rawcap = in->cap - 1 - in->end;
		if (in->rawcap > RAWSZ)
			in->rawcap = RAWSZ;
		in->raw = fold_big_alloc(in->rawcap, 1);
		if (fillraw(in, 2) < 0)
			return -1;
		if (in->z.avail_in >= 2 && in->raw[0] == 0x1f &&
		    in->raw[1] == 0x8b) {
			in->gz = 1;
			/* a caller that takes the input whole: a regular
			   file inflated at once too (fold_in_whole) */
			if (in->takewhole && in->fsize >= 0 &&
			    (uint64_t)in->fsize < WHOLE_MAX &&
			    (size_t)in->fsize + 1 > in->rawcap &&
			    whole_fits(in)) {
				in->raw = fold_big_resize(in->raw, &in->rawcap,
				    (size_t)in->fsize + 1, 1);
				in->z.next_in = in->raw;
			}
			if ((r = gzwhole(in)) < 0)
				return -1;
			if (r == 0 &&
			    inflateInit2(&in->z, 16 + MAX_WBITS) != Z_OK)
				return fold_seterr("%s: zlib: cannot start", in->name);
		} else {
			/* plain data: hand the sniffed bytes over as they are */
			memcpy(in->buf + in->end, in->raw, in->z.avail_in);
			r = in->z.avail_in;
			in->z.avail_in = 0;
			fold_big_free(in->raw, in->rawcap, 1);
			in->raw = NULL;
			in->rawcap = 0;
			if (r > 0 || in->raweof)
				goto counted;
		}
	}
	if (in->plain)
		r = takeplain(in);
	else if (in->gz)
		r = fillgz(in);
	else
		r = readfd(in, in->buf + in->end, in->cap - 1 - in->end);
	if (r < 0)
		return -1;
counted:
	in->total += r;
	if (in->limit && in->total > in->limit)
		return fold_seterr("%s: input larger than the limit of %llu "
		    "bytes", in->name, (unsigned long long)in->limit);
	/*
	 * A decompression bomb: real profiles compress 10 to 40 times, a
	 * bomb about 1000. Past FOLD_GZIP_FLOOR, gzip input may expand at
	 * most FOLD_GZIP_RATIO times the compressed bytes read so far.
	 */
	if (in->gz && in->total > FOLD_GZIP_FLOOR &&
	    in->total / FOLD_GZIP_RATIO > in->rawdone)
		return fold_seterr("%s: gzip data expands more than %d times "
		    "past %d MiB: a decompression bomb? (decompress it first "
		    "to read it anyway)", in->name, FOLD_GZIP_RATIO,
		    (int)(FOLD_GZIP_FLOOR >> 20));
	in->end += r;
	return r;
}

static size_t
put_utf8(unsigned char *o, uint32_t cp)
{
	if (cp < 0x80) {
		o[0] = cp;
		return 1;
	}
	if (cp < 0x800) {
		o[0] = 0xc0 | cp >> 6;
		o[1] = 0x80 | (cp & 0x3f);
		return 2;
	}
	if (cp < 0x10000) {
		o[0] = 0xe0 | cp >> 12;
		o[1] = 0x80 | (cp >> 6 & 0x3f);
		o[2] = 0x80 | (cp & 0x3f);
		return 3;
	}
	o[0] = 0xf0 | cp >> 18;
	o[1] = 0x80 | (cp >> 12 & 0x3f);
	o[2] = 0x80 | (cp >> 6 & 0x3f);
	o[3] = 0x80 | (cp & 0x3f);
	return 4;
}

/*
 * Decodes the carry and the n UTF-16 bytes at buf[from..] to UTF-8 at
 * buf[at..] (at <= from), growing buf as needed; an odd byte or a
 * surrogate's first half at the end waits in the carry for the next
 * bytes, or, at the end of input (n 0), becomes U+FFFD, as does an
 * unpaired surrogate. Sets end past what was written; returns its
 * length.
 */
static size_t
decode16(struct fold_in *in, size_t at, size_t from, size_t n)
{
	size_t m = in->ncarry + n, i = 0, w = 0, need;
	const unsigned char *s;
	unsigned char *o;
	unsigned u, lo;
	uint32_t cp;

	in->u16buf = fold_grow(in->u16buf, &in->u16cap, m + 1, 1);
	memcpy(in->u16buf, in->carry, in->ncarry);
	memcpy(in->u16buf + in->ncarry, in->buf + from, n);
	in->ncarry = 0;
	s = in->u16buf;
	/* 3 bytes for 2, at most (4 for 4), and U+FFFD for the rest */
	need = at + m / 2 * 3 + 4;
	in->buf = fold_big_grow(in->buf, &in->cap, need, 1);
	o = (unsigned char *)in->buf + at;
#define UNIT(k) (in->u16 == 1 ? s[k] | s[(k) + 1] << 8 : s[k] << 8 | s[(k) + 1])
	while (m - i >= 2) {
		cp = u = UNIT(i);
		if (u >= 0xd800 && u < 0xdc00) {
			if (m - i < 4 && n > 0)
				break;		/* the second half may follow */
			lo = m - i >= 4 ? UNIT(i + 2) : 0;
			if (lo >= 0xdc00 && lo < 0xe000) {
				cp = 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00);
				i += 2;
			} else
				cp = 0xfffd;
		} else if (u >= 0xdc00 && u < 0xe000)
			cp = 0xfffd;
		i += 2;
		w += put_utf8(o + w, cp);
	}
#undef UNIT
	if (n == 0 && i < m)
		w += put_utf8(o + w, 0xfffd);
	else {
		in->ncarry = m - i;
		memcpy(in->carry, s + i, in->ncarry);
	}
	in->end = at + w;
	return w;
}

/*
 * Reads more decoded bytes into buf[end..]: bytes as they are, or UTF-16
 * text, told by its byte order mark, as UTF-8 (the mark left out), as
 * Windows tools write text (PowerShell's redirections). Returns how many
 * (0 at end).
 */
static ssize_t
fill(struct fold_in *in)
{
	size_t at = in->end;
	ssize_t r;
	size_t w;

	do {
		if ((r = fill8(in)) < 0)
			return -1;
		if (!in->sniffed && r > 0) {
			const unsigned char *b = (unsigned char *)in->buf + at;
			in->sniffed = 1;
			if (r >= 2 && ((b[0] == 0xff && b[1] == 0xfe) ||
			    (b[0] == 0xfe && b[1] == 0xff))) {
				in->u16 = b[0] == 0xff ? 1 : 2;
				w = decode16(in, at, at + 2, r - 2);
				continue;
			}
		}
		if (!in->u16)
			return r;
		if (r == 0 && in->ncarry == 0)
			return 0;
		w = decode16(in, at, at, r);
	} while (w == 0 && r > 0);
	return w;
}

/*
 * Makes room after end: moves unread data down, else grows the buffer, up
 * to max bytes for a line; max 0 for a whole input (fold_in_readall),
 * bounded by the limit instead: never beyond one byte past it, where
 * fill() fails anyway (a 2 GiB cap used to double the buffer to 4 GiB
 * and fill it before the read that passed the cap).
 */
static int
makeroom(struct fold_in *in, size_t max)
{
	size_t want;

	if (in->start > 0) {
		memmove(in->buf, in->buf + in->start, in->end - in->start);
		in->end -= in->start;
		in->scan -= in->start;
		in->start = 0;
		if (in->end < in->cap - 1)
			return 0;
	}
	if (max && in->cap >= max)
		return fold_seterr_at(in->name, in->lineno + 1,
		    "line longer than %zu bytes", max);
	want = in->cap > SIZE_MAX / 4 ? SIZE_MAX / 2 : in->cap * 2;
	if (!max && in->limit && want > in->limit + 2)
		want = in->limit + 2;
	if (want <= in->cap)
		return fold_seterr("%s: input too large", in->name);
	in->buf = fold_big_resize(in->buf, &in->cap, want, 1);
	return 0;
}

/* More bytes after end, room made first: 0 (eof set at the end) or -1. */
static int
refill(struct fold_in *in)
{
	ssize_t r;

	if (in->end >= in->cap - 1 && makeroom(in, FOLD_LINE_MAX) < 0)
		return -1;
	if ((r = fill(in)) < 0)
		return -1;
	if (r == 0)
		in->eof = 1;
	return 0;
}

/*
 * Finds the first newline of the unread bytes (the last one, with last),
 * reading more until there is one. Returns 1 and sets *nl; at the end of
 * input, *nl is the end of the bytes when the last line has no newline.
 * Returns 0 when nothing is left, -1 on error.
 */
static int
findnl(struct fold_in *in, int last, char **nl)
{
	if (in->scan < in->start)
		in->scan = in->start;
	for (;;) {
		/* buf[start..scan) holds no newline */
		char *p = in->buf + in->scan;
		size_t n = in->end - in->scan;
		if ((*nl = last ? memrchr(p, '\n', n) : memchr(p, '\n', n)))
			return 1;
		in->scan = in->end;
		if (in->eof) {
			*nl = in->buf + in->end;
			return in->start < in->end;
		}
		if (refill(in) < 0)
			return -1;
	}
}

int
fold_in_peek(struct fold_in *in, size_t want, const char **buf, size_t *len)
{
	if (want > BUFSZ / 2)
		want = BUFSZ / 2;
	while (in->end - in->start < want && !in->eof)
		if (refill(in) < 0)
			return -1;
	*buf = in->buf + in->start;
	*len = in->end - in->start;
	return 0;
}

int
fold_head_line(const char **p, const char *end, int eof, const char **line,
    size_t *len)
{
	const char *s = *p, *nl;

	if (s >= end)
		return 0;
	if (!(nl = memchr(s, '\n', end - s))) {
		if (!eof)
			return 0;
		nl = end;
	}
	*line = s;
	*len = nl - s;
	if (*len > 0 && s[*len - 1] == '\r')
		(*len)--;
	*p = nl < end ? nl + 1 : end;
	return 1;
}

int
fold_in_lines(struct fold_in *in, const char **buf, size_t *len)
{
	char *nl;
	int r;

	if ((r = findnl(in, 1, &nl)) <= 0)
		return r;
	*buf = in->buf + in->start;
	*len = nl - *buf + (nl < in->buf + in->end);
	in->start = in->scan = *buf + *len - in->buf;
	return 1;
}

void
fold_in_set_lineno(struct fold_in *in, uint64_t lineno)
{
	in->lineno = lineno;
}

int
fold_in_chunk(struct fold_in *in, const char **buf, size_t *len)
{
	/* a limit set after the head was read (and all of a small input
	   with it) still holds */
	if (in->limit && in->total > in->limit)
		return fold_seterr("%s: input larger than the limit of %llu "
		    "bytes", in->name, (unsigned long long)in->limit);
	while (in->start == in->end) {
		if (in->eof)
			return 0;
		in->start = in->end = in->scan = 0;
		if (refill(in) < 0)
			return -1;
	}
	*buf = in->buf + in->start;
	*len = in->end - in->start;
	in->start = in->scan = in->end;
	return 1;
}

int
fold_in_line(struct fold_in *in, const char **line, size_t *len)
{
	char *nl;
	size_t n;
	int r;

	if ((r = findnl(in, 0, &nl)) <= 0)
		return r;
	if (nl == in->buf + in->end)
		in->end++;	/* a last line without "\n": room is kept for NUL */
	*nl = '\0';
	n = nl - (in->buf + in->start);
	if (n > 0 && nl[-1] == '\r')
		nl[-1] = '\0', n--;
	*line = in->buf + in->start;
	*len = n;
	in->start = in->scan = nl + 1 - in->buf;
	in->lineno++;
	return 1;
}

int
fold_in_whole(struct fold_in *in, char **buf, size_t *len)
{
	/*
	 * A regular gzip file that zlib streams, only peeked at so far (a
	 * reader's check of its first bytes): read again from the start,
	 * to be inflated at once below.
	 */
	if (in->gz && in->zinit && !in->plain && in->start == 0 &&
	    in->total == in->end && in->at0 == 0 && in->fsize >= 0 &&
	    (uint64_t)in->fsize < WHOLE_MAX && whole_fits(in) &&
	    fold_in_rewind(in) < 0)
		return -1;
	/* the first read inflates a gzip input at once (gzwhole) */
	in->takewhole = 1;
	if (!in->zinit && in->start == in->end && !in->eof &&
	    refill(in) < 0)
		return -1;
	/*
	 * buf[0..end) is the first of plain's bytes as they are: nothing
	 * taken yet, no UTF-16 made UTF-8. One past a limit set since is
	 * read on, to fail where reading it would.
	 */
	if (!in->plain || in->u16 || in->start != 0 ||
	    in->end != in->plainpos ||
	    (in->limit && in->plainlen > in->limit))
		return 0;
	*buf = (char *)in->plain;
	*len = in->plainlen;
	(*buf)[*len] = '\0';
	in->plain = NULL;
	in->total = in->plainlen;
	in->start = in->end = in->scan = 0;
	in->eof = 1;
	return 1;
}

int
fold_in_readall(struct fold_in *in, const char **buf, size_t *len)
{
	ssize_t r = fold_in_whole(in, &in->whole, len);

	if (r != 0) {
		*buf = in->whole;
		return r < 0 ? -1 : 0;
	}
	/* whole inputs are bounded by fold_in_set_limit, not by line length */
	for (;;) {
		if (in->end >= in->cap - 1 && makeroom(in, 0) < 0)
			return -1;
		r = fill(in);
		if (r < 0)
			return -1;
		if (r == 0)
			break;
	}
	if (in->start > 0) {
		memmove(in->buf, in->buf + in->start, in->end - in->start);
		in->end -= in->start;
	}
	in->buf[in->end] = '\0';
	*buf = in->buf;
	*len = in->end;
	in->start = in->scan = in->end;
	in->eof = 1;
	return 0;
}

int
fold_in_close(struct fold_in *in)
{
	int rc = 0;

	if (!in)
		return 0;
	if (in->gz)
		inflateEnd(&in->z);
	if (in->ownfd && close(in->fd) < 0)
		rc = fold_seterr("%s: %s", in->name, strerror(errno));
	fold_big_free(in->raw, in->rawcap, 1);
	free(in->u16buf);
	free(in->plain);
	free(in->whole);
	fold_big_free(in->buf, in->cap, 1);
	free(in->name);
	free(in);
	return rc;
}
