foldfilter --replace '^(\w+)::(\w+)$' '$2 [$1]' app.folded
