stackcollapse --format perf both.txt
