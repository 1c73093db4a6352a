stackcollapse-ghcprof ticks.prof
