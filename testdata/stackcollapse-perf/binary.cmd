# a binary file: refused at once, named by its first bytes
printf '\177ELF\2\1\1\0\0\0\0\0\0\0\0\0\3\0>\0\1\0\0\0' | stackcollapse-perf
# the perf.data file itself, not what perf script prints of it
printf 'PERFILE2h\0\0\0\0\0\0\0' | stackcollapse-perf
# random bytes without a NUL
printf '\311\352\201\377 ab \220\221\n\302\n' | stackcollapse-perf
