pprofmerge --files-from /dev/null
