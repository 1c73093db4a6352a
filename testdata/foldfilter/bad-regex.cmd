foldfilter --grep 'a(b' app.folded
