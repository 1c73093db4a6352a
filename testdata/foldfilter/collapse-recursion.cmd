foldfilter --collapse-recursion app.folded
