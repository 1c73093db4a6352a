# negative values are kept and summed: the delta and its base merge to
# the profile after
pprofmerge ../pprof2folded/delta-base.pb.gz ../pprof2folded/delta-a.pb.gz |
    pprof2folded
pprofmerge ../pprof2folded/delta.pb.gz | pprof2folded --differential
