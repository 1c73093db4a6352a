printf 'a;b 2\nno count here\n' | folded2pprof --strict
