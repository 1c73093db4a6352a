foldfilter --hide '^(main|std::.*)$' app.folded
