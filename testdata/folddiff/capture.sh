#!/bin/sh
# How the captures here were made (as root, so that perf can sample; about
# 4 s and 11,000 samples each):
#
#   base-1, base-2   two runs of the same build
#   slow             a build in which checksum() does 20% more work
#                    (CHECKSUM_WORK=120), the regression to catch
#
# NAME.folded counts periods, as stackcollapse-perf does by default (perf's
# cpu-clock event weighs every sample by the same period, 333444 ns at
# -F 2999); NAME.samples.folded counts samples (stackcollapse-perf
# --samples). Both binaries are named "workload" so that the process
# name, the root frame of every stack, is the same in all captures.
set -e
mkdir -p before after
cc -O2 -g -fno-omit-frame-pointer -o before/workload workload.c
cc -O2 -g -fno-omit-frame-pointer -DCHECKSUM_WORK=120 -o after/workload workload.c
for run in base-1:before base-2:before slow:after; do
	name=${run%%:*} build=${run#*:}
	perf record -F 2999 -g -o "$name.data" "./$build/workload" 5000
	perf script -i "$name.data" | stackcollapse-perf > "$name.folded"
	perf script -i "$name.data" | stackcollapse-perf --samples \
	    > "$name.samples.folded"
done
