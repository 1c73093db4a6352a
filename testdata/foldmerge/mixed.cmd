sort -r java.folded | foldmerge rust.folded - dd.folded.gz
