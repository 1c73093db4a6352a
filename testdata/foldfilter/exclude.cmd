foldfilter --exclude '^(malloc|memcpy)$' app.folded
