# each option goes to the formats that have it: --pid to perf and bcc,
# --samples to perf (bcc counts samples too: the units agree)
stackcollapse --pid --samples ../stackcollapse-perf/captures/go.perf.gz ../stackcollapse-bcc/offcputime.txt.gz | head -n 5
