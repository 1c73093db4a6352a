foldfilter --max-depth 3 app.folded
