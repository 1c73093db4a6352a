foldfilter --prune-from '^(render|db::query)$' app.folded
