# text that is not perf script output: no sample in it; what it looks
# like is named
stackcollapse-perf ../stackcollapse-bcc/py-profile.txt
