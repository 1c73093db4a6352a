stackcollapse-ghcprof --ticks ticks.prof
