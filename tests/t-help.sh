#!/usr/bin/env bash
# A tool's --help lists each long option its man page documents (in an
# .It Fl line), and its page documents each option --help lists: the
# usage is printed from the table that parses, and the two must not
# drift apart; and each option --help lists is used by a test (a golden
# command or a test script). Every tool with a page in man1. usage:
# tests/t-help.sh BUILDDIR
. "$(dirname "$0")/lib.sh"
setup "$@"

# none NAME MISSING: ok when nothing is missing
none() {
	if [ -z "$2" ]; then ok "$1"; else notok "$1" "missing:$2"; fi
}

for page in "$top"/man/man1/*.1; do
	tool=$(basename "$page" .1)
	[ -x "$b/$tool" ] || continue
	"$b/$tool" --help >"$tmp/help" 2>&1
	grep -o -e '--[a-z0-9][a-z0-9-]*' "$tmp/help" | sort -u >"$tmp/opts"
	# ("Fl \-x" or "Fl -x" in the page: one dash, Fl adds the other)
	sed 's/\\-/-/g' "$page" >"$tmp/page"
	missing=
	for o in $(sed -n 's/^\.It .*Fl -\([a-z0-9][a-z0-9-]*\).*/\1/p' \
	    "$tmp/page" | sort -u); do
		grep -q -e "--$o\\b" "$tmp/help" || missing="$missing --$o"
	done
	none "$tool --help lists every option of its page" "$missing"
	missing=
	for o in $(cat "$tmp/opts"); do
		grep -q -e "Fl ${o#-}\\b" "$tmp/page" || missing="$missing $o"
	done
	none "$tool(1) documents every option of its --help" "$missing"
	missing=
	for o in $(grep -v -x -e --help "$tmp/opts"); do
		grep -q -r -e "$o\\b" "$top"/testdata/*/*.cmd "$top"/tests/t-*.sh ||
		    missing="$missing $o"
	done
	none "each option of $tool --help is used by a test" "$missing"
done
