foldfilter --min-share 150% app.folded
