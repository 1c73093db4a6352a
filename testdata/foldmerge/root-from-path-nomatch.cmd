foldmerge --root-from-path '^(j\w+)\.' --root other rust.folded java.folded
