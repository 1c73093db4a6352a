foldfilter --grep 'no_such_function' < app.folded
