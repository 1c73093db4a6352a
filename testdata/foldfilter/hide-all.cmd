foldfilter -v --hide . app.folded
