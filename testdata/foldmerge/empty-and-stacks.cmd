# an empty input among inputs with stacks is no error
printf 'main;a 2\n' | foldmerge empty.folded -
