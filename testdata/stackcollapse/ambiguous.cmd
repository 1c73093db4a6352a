stackcollapse both.txt
