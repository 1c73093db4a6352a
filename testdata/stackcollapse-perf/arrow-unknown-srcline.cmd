# --srcline after a split frame whose first part is [unknown] in an
# unknown dso: the last part's source line is kept (it was dropped)
printf 'java 1 [000] 1.0: 1 cycles: \n\t400000 main (/bin/prog)\n\t7f00 [unknown]->LFoo;::bar ([unknown])\n  Foo.java:12\n\n' |
    stackcollapse-perf --srcline
