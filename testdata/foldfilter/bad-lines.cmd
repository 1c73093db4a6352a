printf 'a;b 3\nno count here\nc;d x\na;b 2\n' | foldfilter
