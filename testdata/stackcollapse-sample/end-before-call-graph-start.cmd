stackcollapse-sample end-before-call-graph-start.txt
