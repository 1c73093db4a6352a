foldmerge --null --files-from - < /dev/null
