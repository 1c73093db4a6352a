foldfilter --verbose --grep '^main' --min-share 10% app.folded
