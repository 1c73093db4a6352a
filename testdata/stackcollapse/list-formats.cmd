stackcollapse --list-formats
