foldfilter --strict --grep '^main$' --root-at 'no_such_function' app.folded
