stackcollapse-ghcprof percent.prof
