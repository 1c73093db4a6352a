# only bad and blank lines: no stack, an error; the empty table is written
printf 'main;f\n\n' | foldcost
