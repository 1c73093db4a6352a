foldfilter --strip-addrs app.folded
