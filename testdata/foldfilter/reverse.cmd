foldfilter --reverse --grep '^malloc$' app.folded
