foldfilter --focus '^parse_' app.folded
