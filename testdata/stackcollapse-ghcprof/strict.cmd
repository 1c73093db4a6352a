# the first bad line is an error: status 1 and its message
stackcollapse-ghcprof --strict bad.prof
