pprofmerge --bogus
