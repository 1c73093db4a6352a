foldfilter --min-share 10% app.folded
