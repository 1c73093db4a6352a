foldmerge --root-from-path '(x' rust.folded
