timeout 10 pprofmerge /dev/zero
