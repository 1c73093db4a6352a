# one column only: a usage error
stackcollapse-ghcprof --ticks --bytes ticks.prof
