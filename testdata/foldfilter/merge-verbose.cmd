foldfilter -v --replace 'lambda\$0x[0-9a-f]+' 'lambda' --collapse-recursion --min-count 5 app.folded
