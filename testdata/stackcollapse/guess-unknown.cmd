stackcollapse unknown-format.txt
