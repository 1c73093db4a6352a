foldfilter --replace '^render$' 'render;layout' --replace '^log$' '' app.folded
