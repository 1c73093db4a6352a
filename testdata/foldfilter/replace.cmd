foldfilter --replace 'lambda\$0x[0-9a-f]+' 'lambda' app.folded
