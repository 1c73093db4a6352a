foldmerge garbage.bin
