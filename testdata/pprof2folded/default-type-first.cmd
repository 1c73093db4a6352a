pprof2folded bad/deftype-bytes.pb bad/deftype-count.pb
