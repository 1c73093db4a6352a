/*
 * Rust symbols that a profiler demangled only in part.
 *
 * DTrace and macOS sample split a legacy-mangled Rust symbol into its
 * path but leave the escapes and the hash:
 *
 *	_$LT$std..fs..ReadDir$u20$as$u20$core..iter..Iterator$GT$::next::hc14f1750ca79129b
 *
 * which reads, demangled, "<std::fs::ReadDir as core::iter::Iterator>::next".
 */
#ifndef FORMATS_RUSTNAME_H
#define FORMATS_RUSTNAME_H

#include <stddef.h>

/*
 * When s[0..n) ends in a Rust hash ("h" and 16 hex digits), writes the
 * name without it, with "_$" at the start losing its "_", ".." read as
 * "::" and the "$LT$", "$u20$", ... escapes decoded, to out (room for n
 * bytes: the result is never longer) and returns its length. An unknown
 * escape ends the decoding: the rest is copied as it is. Returns
 * (size_t)-1, writing nothing, when there is no hash: the name is then
 * not one of these.
 */
size_t rustname_fix(const char *s, size_t n, char *out);

#endif
