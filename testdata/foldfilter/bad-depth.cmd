foldfilter --max-depth 0 app.folded
