stackcollapse --files-from /dev/null
