foldmerge --bogus
