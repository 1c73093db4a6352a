foldmerge -0 --files-from files-from-missing.list0
