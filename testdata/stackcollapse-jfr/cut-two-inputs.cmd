# a deep input next to a cut one: the cut one is still told
stackcollapse-jfr cpu-most.txt cpu-deep.txt.gz | wc -l
