# a report made without +RTS -P has no ticks: an error
stackcollapse-ghcprof --ticks percent.prof
