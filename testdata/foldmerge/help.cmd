foldmerge --help
