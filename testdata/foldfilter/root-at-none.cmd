# the first step keeps nothing: only it is told
foldfilter --root-at 'no_such_function' --grep 'also_missing' app.folded
