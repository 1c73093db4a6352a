sort -r rust.folded | foldmerge
