stackcollapse-ghcprof --time < ticks.prof
