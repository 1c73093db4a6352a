stackcollapse-sample no-four-spaces.txt
