foldfilter --replace 'x'
