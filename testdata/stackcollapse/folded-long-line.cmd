# a first line longer than the 64 KiB the formats are told by: its count is
# out of sight, and it is still folded stacks
awk 'BEGIN { s = "main"; for (i = 0; i < 9000; i++) s = s ";frame" i; print s, 3; print "main;b 2" }' | stackcollapse | cut -c 1-40
