folded2speedscope --name "Go CPU" time.folded
