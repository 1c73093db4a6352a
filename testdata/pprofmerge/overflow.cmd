# a sum past 64 bits ends the merge, named by the profile that passes it,
# and nothing is written (big.pb.gz is `folded2pprof <big.folded`: its
# last sample, 3 << 61, lies past the first batch of 32 keys)
{ pprofmerge big.pb.gz big.pb.gz big.pb.gz; echo "exit $?" >&2; } | wc -c
