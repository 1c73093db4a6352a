# each option goes to the formats that have it: --pid to perf and bcc
stackcollapse --pid ../stackcollapse-perf/captures/go.perf.gz ../stackcollapse-bcc/offcputime.txt.gz | head -n 5
