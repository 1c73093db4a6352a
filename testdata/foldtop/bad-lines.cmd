printf 'a;b 3\nno count here\na;c 1\n' | foldtop
