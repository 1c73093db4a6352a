foldfilter --min-count 50 --max-depth 3 app.folded
