# no stack: an error
foldmerge </dev/null
