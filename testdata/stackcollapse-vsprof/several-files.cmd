# a file that is not a call tree is an error; the others are still read
stackcollapse-vsprof incorrect-header.csv CallTreeSummary.csv | wc -l
