foldfilter app.folded --grep '^write$' - < app.folded
