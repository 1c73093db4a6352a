stackcollapse-ghcprof --bytes utf8.prof
