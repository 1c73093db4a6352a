# a profile whose 128 KiB reads fill the buffer exactly (256 KiB of
# time_nanos fields, 2 bytes each): its NUL was written past the end
t=$(mktemp) || exit 1
trap 'rm -f "$t"' EXIT
printf 'H\000' >"$t"
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17; do cat "$t" "$t" >"$t.2"; mv "$t.2" "$t"; done
cat "$t" | pprof2folded
