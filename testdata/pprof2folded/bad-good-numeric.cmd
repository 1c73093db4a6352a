pprof2folded --tag-leaf size --tag-focus 'size=^512 bytes$' bad/good.pb
