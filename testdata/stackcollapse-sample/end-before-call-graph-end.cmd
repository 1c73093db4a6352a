stackcollapse-sample end-before-call-graph-end.txt
