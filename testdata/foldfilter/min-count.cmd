foldfilter --min-count 10 app.folded
