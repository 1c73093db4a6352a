foldfilter --grep malloc app.folded
