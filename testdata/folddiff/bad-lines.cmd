printf 'a;b 3\nno count here\na;c 1\n' | folddiff - slow.samples.folded
