stackcollapse-ghcprof bad.prof
