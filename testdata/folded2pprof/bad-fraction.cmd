printf 'a;b 1.5\n' | folded2pprof
