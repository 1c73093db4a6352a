# two inputs, neither with a stack (an empty file, blank lines): an error
printf '\n\n\n' | foldmerge empty.folded -
