# a delta merged with its base gives back the after profile
pprof2folded --differential delta-base.pb.gz delta-a.pb.gz
pprof2folded delta-b.pb.gz
