stackcollapse-ghcprof utf8.prof
