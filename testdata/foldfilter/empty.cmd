foldfilter --grep . < /dev/null
