# binary data: named, and refused, unless it is a pprof profile
printf '\177ELF\2\1\1\0\0\0\0\0\0\0\0\0\3\0>\0\1\0\0\0' | stackcollapse; echo "status $?"
printf '\375\067zXZ\0\0\004' | stackcollapse --format dtrace; echo "status $?"
