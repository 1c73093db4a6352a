foldfilter --grep '^main$' -- app.folded
