foldfilter --grep malloc nonexistent.folded app.folded
