stackcollapse-ghcprof --bytes ticks.prof
