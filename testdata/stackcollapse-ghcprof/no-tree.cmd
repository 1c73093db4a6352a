stackcollapse-ghcprof no-tree.txt
