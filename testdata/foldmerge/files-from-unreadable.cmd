foldmerge --files-from no-such.list rust.folded
