pprof2folded --tag-root endpoint --tag-focus 'endpoint=^/api/' --tag-ignore tenant=globex labels.pb.gz
