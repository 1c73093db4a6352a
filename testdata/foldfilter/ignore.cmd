foldfilter --ignore '^kernel$' --ignore 'log' app.folded
