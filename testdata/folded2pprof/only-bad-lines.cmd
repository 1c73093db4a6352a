# only bad and blank lines: no stack, an error (the empty profile is written)
printf 'no count here\n\n' | folded2pprof >/dev/null
