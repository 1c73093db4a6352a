# only bad and blank lines: no stack, an error; the empty table is written
printf 'no count here\n\nmain;a x\n' | foldtop
