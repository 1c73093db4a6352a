folded2pprof nosuch.folded in.folded
