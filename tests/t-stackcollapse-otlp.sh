#!/usr/bin/env bash
# stackcollapse-otlp beyond golden files: each protobuf input of
# testdata/stackcollapse-otlp (the JSON beside it encoded by Google's
# protobuf library, FORMAT.md section 7) gives what its JSON gives, with
# every option that changes frames or picks samples.
# usage: tests/t-stackcollapse-otlp.sh BUILDDIR
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
setup "$@"
prefix="stackcollapse-otlp: "
d=$top/testdata/stackcollapse-otlp
export LC_ALL=C

for pair in two-types.pb:two-types.json attributes.pb:attributes.json \
    playground.pb:public/ottl-playground-profiles-3179348d.json; do
	pb=${pair%%:*} js=${pair#*:}
	for o in "" "--lines --filenames" "--sample-index alloc_space" \
	    "--tag-root service.name,endpoint --tag-leaf version,thread.id"; do
		# shellcheck disable=SC2086
		(cd "$d" && stackcollapse-otlp $o "$js") >"$tmp/want" 2>/dev/null
		# shellcheck disable=SC2086
		(cd "$d" && stackcollapse-otlp $o "$pb") >"$tmp/got" 2>/dev/null
		compare "$pb ${o:-(no option)}: as its JSON" "$tmp/want" "$tmp/got"
	done
done
