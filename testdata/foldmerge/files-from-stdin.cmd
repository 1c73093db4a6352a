foldmerge --files-from - < files-from.list
