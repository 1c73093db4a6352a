foldfilter --max-depth 3 --min-count 50 app.folded
