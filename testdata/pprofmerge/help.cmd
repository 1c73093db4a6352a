pprofmerge --help
