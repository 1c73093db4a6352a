stackcollapse-ghcprof no-such-file.prof utf8.prof
