#!/usr/bin/env bash
# A tool's --help lists each long option its man page documents (in an
# .It Fl line), and its page documents each option --help lists: the
# usage is printed from the table that parses, and the two must not
# drift apart. Every tool with a page in man1. usage: tests/t-help.sh
# BUILDDIR
. "$(dirname "$0")/lib.sh"
setup "$@"
for page in "$top"/man/man1/*.1; do
	tool=$(basename "$page" .1)
	[ -x "$b/$tool" ] && [ -e "$page" ] || continue
	"$b/$tool" --help >"$tmp/help" 2>&1
	missing=
	for o in $(sed -n 's/^\.It .*Fl \\\{0,1\}-\([a-z0-9][a-z0-9-]*\).*/\1/p' \
	    "$page" | sort -u); do
		grep -q -e "--$o\\b" "$tmp/help" || missing="$missing --$o"
	done
	if [ -z "$missing" ]; then
		ok "$tool --help lists every option of its page"
	else
		notok "$tool --help lists every option of its page" \
		    "missing:$missing"
	fi
	# and the page documents every option --help lists ("Fl \-x" or
	# "Fl -x": one dash, Fl adds the other)
	missing=
	sed 's/\\-/-/g' "$page" >"$tmp/page"
	for o in $(grep -o -e '--[a-z0-9][a-z0-9-]*' "$tmp/help" | sort -u); do
		grep -q -e "Fl ${o#-}\\b" "$tmp/page" || missing="$missing $o"
	done
	if [ -z "$missing" ]; then
		ok "$tool(1) documents every option of its --help"
	else
		notok "$tool(1) documents every option of its --help" \
		    "missing:$missing"
	fi
done
