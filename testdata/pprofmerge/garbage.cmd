pprofmerge ../foldmerge/garbage.bin
