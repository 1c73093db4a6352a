stackcollapse-ghcprof --frobnicate
