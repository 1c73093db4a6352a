foldmerge --root-from-path '^(\w+)\.folded' rust.folded java.folded --files-from files-from.list | cut -d";" -f1,2 | sort | uniq -c
