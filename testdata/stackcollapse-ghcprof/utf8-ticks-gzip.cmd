gzip -c utf8.prof | stackcollapse-ghcprof --ticks
