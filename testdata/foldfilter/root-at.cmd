foldfilter --root-at '^handle_request$' app.folded
